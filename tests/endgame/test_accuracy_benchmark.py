"""`benchmarks/endgame_accuracy.py`: agents join a rule set's accuracy file one run at a time,
each with what measured it, and only on the file's positions."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
SPEC = importlib.util.spec_from_file_location(
    "endgame_accuracy", ROOT / "benchmarks" / "endgame_accuracy.py"
)
endgame_accuracy = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(endgame_accuracy)
SEEDS = 7  # the boards of `oware_db` (tests/conftest.py)


@pytest.fixture
def database(oware_db) -> Path:
    assert oware_db.max_seeds == SEEDS  # the seed counts the tests below name
    return oware_db.directory


def run(monkeypatch, database: Path, out: Path, *arguments: str) -> None:
    fixed = ["--variant", "oware", "--db", str(database), "--max-seeds", str(SEEDS)]
    monkeypatch.setattr(sys, "argv", ["endgame_accuracy.py", *fixed, "--out", str(out), *arguments])
    endgame_accuracy.main()


def test_agents_join_the_file_and_keep_what_measured_them(database, tmp_path, monkeypatch):
    out = tmp_path / "endgame_accuracy_oware.json"
    run(monkeypatch, database, out, "--positions", "6", "--agents", "random", "greedy")
    first = json.loads(out.read_text())
    assert (first["variant"], first["max_seeds"], first["positions"], first["seed"]) == (
        "oware", SEEDS, 6, 0,
    )  # fmt: skip
    assert list(first["agents"]) == ["random", "greedy"]
    pooled = first["agents"]["greedy"]["rows"][-1]
    assert pooled["seeds"] is None and pooled["positions"] == 6
    assert first["agents"]["greedy"]["database"] == f"seed counts 0 to {SEEDS}, default options"

    run(monkeypatch, database, out, "--positions", "6", "--agents", "perfect:db=" + str(database))
    second = json.loads(out.read_text())
    assert list(second["agents"]) == ["random", "greedy", f"perfect:db={database}"]
    assert {a: second["agents"][a] for a in first["agents"]} == first["agents"]
    perfect = second["agents"][f"perfect:db={database}"]
    assert perfect["rows"][-1]["keeps_value"] == 1.0 and perfect["rows"][-1]["seeds_lost"] == 0
    assert "--agents perfect:db=" in perfect["command"]


@pytest.mark.parametrize(
    ("changed", "held"),
    [
        (["--positions", "9"], "positions 6, not 9"),
        (["--max-seeds", "4"], f"max_seeds {SEEDS}, not 4"),
        (["--seed", "1"], "seed 0, not 1"),
        (["--variant", "ayoayo"], "variant 'oware', not 'ayoayo'"),
    ],
)
def test_a_file_of_other_positions_is_refused_and_kept(
    database, tmp_path, monkeypatch, changed, held
):
    out = tmp_path / "endgame_accuracy_oware.json"
    run(monkeypatch, database, out, "--positions", "6", "--agents", "random")
    kept = out.read_text()
    arguments = ["--positions", "6", *changed, "--agents", "greedy"]  # the last of a flag wins
    with pytest.raises(SystemExit, match=f"scores other positions \\({held}\\): run with"):
        run(monkeypatch, database, out, *arguments)
    assert out.read_text() == kept


def test_an_agent_scored_again_keeps_its_place_in_the_table(database, tmp_path, monkeypatch):
    out = tmp_path / "endgame_accuracy_oware.json"
    run(monkeypatch, database, out, "--positions", "6", "--agents", "random", "greedy")
    run(monkeypatch, database, out, "--positions", "6", "--seed", "0", "--agents", "random")
    record = json.loads(out.read_text())
    assert list(record["agents"]) == ["random", "greedy"]
    assert "--seed 0" in record["agents"]["random"]["command"]
    assert "--seed 0" not in record["agents"]["greedy"]["command"]


def test_more_seeds_than_the_database_holds_is_one_line(database, tmp_path, monkeypatch):
    out = tmp_path / "endgame_accuracy_oware.json"
    message = f"endgame_accuracy: max_seeds must be an integer from 3 to {SEEDS} .*got {SEEDS + 1}"
    with pytest.raises(SystemExit, match=message):
        run(monkeypatch, database, out, "--max-seeds", str(SEEDS + 1), "--positions", "9")
    assert not out.exists()


def test_a_link_as_out_is_refused_before_any_agent_is_scored(
    database, tmp_path, monkeypatch, capsys
):
    target = tmp_path / "elsewhere.json"
    target.write_text("{}")
    out = tmp_path / "endgame_accuracy_oware.json"
    out.symlink_to(target)
    with pytest.raises(SystemExit):
        run(monkeypatch, database, out, "--positions", "6", "--agents", "random")
    assert "is a symbolic link, not a regular file" in capsys.readouterr().err
    assert target.read_text() == "{}" and out.is_symlink()


@pytest.mark.parametrize(
    ("content", "message"),
    [("[1, 2]", "is not an accuracy file"), ("{'agents': 1}", "endgame_accuracy: .*JSON")],
)
def test_a_file_that_is_no_accuracy_file_is_refused(
    database, tmp_path, monkeypatch, content, message
):
    out = tmp_path / "endgame_accuracy_oware.json"
    out.write_text(content)
    with pytest.raises(SystemExit, match=message):
        run(monkeypatch, database, out, "--positions", "6", "--agents", "random")
    assert out.read_text() == content


def test_an_unknown_agent_is_refused_before_any_is_scored(database, tmp_path, monkeypatch):
    out = tmp_path / "endgame_accuracy_oware.json"
    with pytest.raises(SystemExit, match="endgame_accuracy: .*nosuchagent"):
        run(monkeypatch, database, out, "--positions", "6", "--agents", "random", "nosuchagent")
    assert not out.exists()
