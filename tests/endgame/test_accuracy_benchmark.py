"""`benchmarks/endgame_accuracy.py`: agents join a rule set's accuracy file one run at a time,
each with what measured it, and only on the file's positions."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from mancala_env.endgame.build import build
from mancala_env.variants import get_variant

ROOT = Path(__file__).parents[2]
SPEC = importlib.util.spec_from_file_location(
    "endgame_accuracy", ROOT / "benchmarks" / "endgame_accuracy.py"
)
endgame_accuracy = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(endgame_accuracy)
SEEDS = 5


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("oware")
    oware = get_variant("oware")
    build(oware, oware.options(), SEEDS, directory, progress=False)
    return directory


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


def test_a_file_of_other_positions_is_refused_and_kept(database, tmp_path, monkeypatch):
    out = tmp_path / "endgame_accuracy_oware.json"
    run(monkeypatch, database, out, "--positions", "6", "--agents", "random")
    kept = out.read_text()
    with pytest.raises(
        SystemExit, match=r"scores other positions .*'positions': 6.*'positions': 9"
    ):
        run(monkeypatch, database, out, "--positions", "9", "--agents", "greedy")
    assert out.read_text() == kept


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
