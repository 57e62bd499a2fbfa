"""`benchmarks/az_strength.py --add-missing`: a strength file gains the rows it lacks, played on
a tiny budget, and keeps the rows it had and the provenance they were measured with."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
SPEC = importlib.util.spec_from_file_location("az_strength", ROOT / "benchmarks" / "az_strength.py")
az_strength = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(az_strength)

MEASURED = {
    "network": "ayoayo",
    "variant": "ayoayo",
    "date": "2026-11-26",
    "command": "python benchmarks/az_strength.py --network ayoayo --variant ayoayo",
    "seed": 11,
    "machine": "x86_64, cpu",
    "search_openings": "shipped suite",
    "workers": 2,
    "no_search": {
        "random": [0.9, 0.8, 0.95, 100],
        "greedy": [0.8, 0.7, 0.87, 100],
        "mcts": [0.3, 0.2, 0.4, 100],
    },
    "search": {
        "learner": "az:ayoayo,time=0.1",
        "scores": {"alphabeta:time=0.1": [0.7, 0.63, 0.76, 200]},
    },
    "seconds": 300.0,
}


AYOAYO = ("--network", "ayoayo", "--variant", "ayoayo")


def run(monkeypatch, *arguments: str) -> None:
    monkeypatch.setattr(sys, "argv", ["az_strength.py", *arguments])
    az_strength.main()


def test_add_missing_plays_only_the_rows_the_file_lacks_and_keeps_the_rest(
    tmp_path, monkeypatch, capsys
):
    out = tmp_path / "az_ayoayo.json"
    out.write_text(json.dumps(MEASURED))
    common = (*AYOAYO, "--games", "2", "--workers", "1")
    run(monkeypatch, *common, "--depths", "1", "--out", str(out), "--add-missing")
    record = json.loads(out.read_text())
    assert list(record["no_search"]) == ["random", "greedy", "alphabeta:depth=1", "mcts"]
    assert record["no_search"]["alphabeta:depth=1"][3] == 2  # games played, not copied
    for opponent, row in MEASURED["no_search"].items():
        assert record["no_search"][opponent] == row
    assert {key: record[key] for key in MEASURED if key != "no_search"} == {
        key: value for key, value in MEASURED.items() if key != "no_search"
    }
    (added,) = record["added"]
    assert added["opponents"] == ["alphabeta:depth=1"]
    assert "--add-missing" in added["command"] and added["workers"] == 1
    assert {"date", "machine", "seconds", "seed"} <= set(added)

    capsys.readouterr()
    run(monkeypatch, *common, "--depths", "1", "--out", str(out), "--add-missing")
    assert "already holds a row for each of" in capsys.readouterr().out
    assert json.loads(out.read_text()) == record


def test_add_missing_plays_as_the_file_did_and_keeps_its_row_order(tmp_path, monkeypatch):
    out = tmp_path / "az_ayoayo.json"
    rows = {n: [0.5, 0.1, 0.9, 2] for n in ("random", "alphabeta:depth=2", "mcts")}
    out.write_text(json.dumps({**MEASURED, "seed": 5, "no_search": rows}))
    run(monkeypatch, *AYOAYO, "--workers", "1",
        "--depths", "1", "--out", str(out), "--add-missing")  # fmt: skip
    record = json.loads(out.read_text())
    order = ["random", "greedy", "alphabeta:depth=1", "alphabeta:depth=2", "mcts"]
    assert list(record["no_search"]) == order
    assert record["no_search"]["greedy"][3] == 2  # the file's games, not the default 400
    assert record["added"][0]["seed"] == 5 and record["added"][0]["opponents"] == [
        "greedy",
        "alphabeta:depth=1",
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ({**MEASURED, "network": "oware"}, "measures network 'oware' on 'ayoayo', not 'ayoayo'"),
        ([1, 2], "is not a strength file"),
        ({**MEASURED, "no_search": [0.5]}, "is not a strength file"),
        ({**MEASURED, "no_search": {"random": 0.5}}, "is not a strength file"),
        ({**MEASURED, "added": None}, "is not a strength file"),
        ({**MEASURED, "seed": "11"}, "is not a strength file"),
        ({**MEASURED, "seed": True}, "is not a strength file"),
        ({**MEASURED, "seed": 2**32}, "is not a strength file"),
    ],
)
def test_add_missing_refuses_a_file_of_another_measurement(tmp_path, monkeypatch, content, message):
    out = tmp_path / "az_ayoayo.json"
    out.write_text(json.dumps(content))
    with pytest.raises(SystemExit, match=message):
        run(monkeypatch, *AYOAYO, "--out", str(out), "--add-missing")
    assert json.loads(out.read_text()) == content


def test_add_missing_refuses_a_file_that_is_no_json(tmp_path, monkeypatch):
    out = tmp_path / "az_ayoayo.json"
    out.write_text("{'no_search': 1}")
    with pytest.raises(SystemExit, match=r"^--add-missing: .*az_ayoayo\.json"):
        run(monkeypatch, *AYOAYO, "--out", str(out), "--add-missing")


def test_add_missing_needs_a_measured_file(tmp_path, monkeypatch):
    out = tmp_path / "az_ayoayo.json"
    with pytest.raises(SystemExit, match="is not a strength file yet; measure without it first"):
        run(monkeypatch, *AYOAYO, "--out", str(out), "--add-missing")
    assert not out.exists()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--seed", "-1"], "argument --seed: must be an integer"),
        (["--games", "0"], "argument --games: must be an integer of 2 or more"),
        (["--workers", "0"], "argument --workers: must be an integer of 1 or more"),
        (["--search-games", "1"], "argument --search-games: must be an integer of 2 or more"),
        (["--time", "0"], "argument --time: must be a number from 0.001 to 60"),
        (["--time", "nan"], "argument --time: must be a number from 0.001 to 60"),
    ],
)
def test_a_bad_argument_is_one_line_before_any_game(monkeypatch, capsys, arguments, message):
    with pytest.raises(SystemExit):
        run(monkeypatch, *AYOAYO, *arguments, "--add-missing")
    assert message in capsys.readouterr().err


def test_a_link_as_out_is_refused_before_any_game(tmp_path, monkeypatch, capsys):
    target = tmp_path / "elsewhere.json"
    target.write_text(json.dumps(MEASURED))
    out = tmp_path / "az_ayoayo.json"
    out.symlink_to(target)
    with pytest.raises(SystemExit):
        run(monkeypatch, *AYOAYO, "--out", str(out), "--add-missing")
    assert "is a symbolic link, not a regular file" in capsys.readouterr().err
    assert json.loads(target.read_text()) == MEASURED
