"""The balance atlas: the first player's score and the draw rate of self-play from the start,
with Wilson intervals, played on a tiny budget through `benchmarks/atlas.py`, resumed from its
store without playing a finished game again."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import pytest

from mancala_env.agents.tournament import balance
from mancala_env.agents.tournament.balance import Balance, Cell, first_moves
from mancala_env.agents.tournament.store import GameStore
from mancala_env.endgame.start import StartValue, start_value
from mancala_env.variants import get_variant

ROOT = Path(__file__).resolve().parents[2]
SPEC = importlib.util.spec_from_file_location("atlas", ROOT / "benchmarks" / "atlas.py")
atlas = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(atlas)

SMALL = Cell("oware", {"houses": 2, "seeds": 2}, "alphabeta:depth=2")  # solved whole: 8 seeds
RELAY = Cell("ayoayo", {}, "alphabeta:depth=1")


def test_intervals_are_wilsons_by_hand() -> None:
    """8 points in 10 games: the textbook Wilson 95% interval 0.490-0.943; 50 in 100:
    0.404-0.596. At a score of one half the half-width is (z / 2) / sqrt(n + z^2), within 0.05
    from n = (z / 0.1)^2 - z^2 = 380.3 on: 381 games."""
    eight = Balance(games=10, first_player_points=8, draws=2, distinct=10, plies=0, seconds=0)
    assert eight.score == 0.8 and eight.draw_rate == 0.2
    assert eight.score_interval == pytest.approx((0.4902, 0.9433), abs=1e-4)
    half = Balance(games=100, first_player_points=50, draws=0, distinct=100, plies=0, seconds=0)
    assert half.score_interval == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert not Balance(380, 190, 0, 1, 0, 0).narrow(0.05)
    assert Balance(381, 190.5, 0, 1, 0, 0).narrow(0.05)
    assert Balance(300, 225, 0, 1, 0, 0).narrow(0.05)
    assert not Balance(300, 225, 150, 1, 0, 0).narrow(0.05)  # the draw rate is not yet


def test_each_player_opens_with_one_random_move() -> None:
    moves = {first_moves(SMALL, 7, 1, seed) for seed in range(20)}
    assert all(len(line) == 2 for line in moves)
    assert len(moves) > 1  # the moves differ with their seed
    assert first_moves(SMALL, 7, 1, 3) == first_moves(SMALL, 7, 1, 3)


def test_start_value_verdicts() -> None:
    assert StartValue(11.5, 24).result == "draw_or_loss"
    assert StartValue(12.5, 24).verdict.startswith("a draw or a win")
    assert (StartValue(12, 24).result, StartValue(13, 24).result) == ("draw", "win")


def test_atlas_writes_a_results_file_and_resumes(tmp_path, monkeypatch) -> None:
    played: list[int] = []
    real_run_games = balance.run_games

    def counting(tasks, **kwargs):
        for record in real_run_games(tasks, **kwargs):
            played.append(record["game_index"])
            yield record

    monkeypatch.setattr(balance, "run_games", counting)
    out, results, figure = tmp_path / "atlas", tmp_path / "atlas.json", tmp_path / "atlas.png"

    def run(max_games: int) -> dict:
        atlas.run([SMALL, RELAY], out, results, figure, "cmd", max_games=max_games)
        return json.loads(results.read_text())

    document = run(4)
    assert played == [0, 1, 2, 3] * 2
    assert {"date", "machine", "command", "seed", "half_width", "cells"} <= set(document)
    assert document["max_games"] == 4
    assert figure.read_bytes().startswith(b"\x89PNG")
    small, relay = document["cells"]
    for cell, record in ((SMALL, small), (RELAY, relay)):
        assert (record["name"], record["agent"], record["games"]) == (cell.name, cell.agent, 4)
        low, high = record["first_player_interval"]
        assert low <= record["first_player_score"] <= high
        low, high = record["draw_interval"]
        assert low <= record["draw_rate"] <= high
        assert record["complete"] and record["budget"] == cell.agent.split(":")[1].replace("=", " ")
    variant = get_variant("oware")
    exact = start_value(
        out / "endgames" / "oware_houses-2_seeds-2", variant, variant.options(**SMALL.options)
    )
    assert small["exact"]["first_player_seeds"] == exact.seeds
    assert small["exact"]["result"] == exact.result
    assert relay["exact"] is None

    played.clear()
    assert run(4)["cells"] == document["cells"]  # nothing to play: the same counts
    assert played == []
    document = run(6)
    assert played == [4, 5, 4, 5]  # the finished games are not played again
    assert [record["games"] for record in document["cells"]] == [6, 6]
    with GameStore(out / "atlas.sqlite", read_only=True) as store:
        assert len(store.games()) == 12


def test_a_cell_is_keyed_by_its_rules_agent_and_seed() -> None:
    assert SMALL.key(0) == Cell("oware", {"seeds": 2, "houses": 2}, SMALL.agent).key(0)
    assert SMALL.key(0) != SMALL.key(1)
    assert SMALL.key(0) != Cell("oware", SMALL.options, "alphabeta:depth=3").key(0)
    assert SMALL.key(0) != Cell("kpo", SMALL.options, SMALL.agent).key(0)


def test_bad_budgets_are_refused_in_one_line(tmp_path) -> None:
    with pytest.raises(ValueError, match="half_width must be a number between 0 and 0.5"):
        balance.play_cell(SMALL, tmp_path / "s.sqlite", half_width=0)
    with pytest.raises(SystemExit):
        atlas.main(["--workers", "0"])


def test_a_cell_whose_agent_cannot_play_its_rules_leaves_no_store(tmp_path) -> None:
    """The cell's agent is loaded for its rules before the store is opened: a network of
    another rule set is refused in one line and no store is made."""
    cell = balance.Cell("oware", agent="az:ayoayo")
    with pytest.raises(ValueError, match="ayoayo") as refused:
        balance.play_cell(cell, tmp_path / "s.sqlite")
    assert "\n" not in str(refused.value)
    assert list(tmp_path.iterdir()) == []


def test_a_run_keeps_the_earlier_records_of_the_same_rules_and_agent(tmp_path) -> None:
    """A results file written on another machine (its store absent here): a run adds to it,
    keeping each record whose rule set, version, options and agent are the cell's today."""
    measured = json.loads((ROOT / "benchmarks" / "results" / "atlas.json").read_text())["cells"][0]
    cell = {"name": SMALL.name, "variant": "oware", "options": SMALL.options, "agent": SMALL.agent}
    kept = {**measured, **cell, "version": get_variant("oware").version}
    older_rules = {**kept, "name": RELAY.name, "variant": "ayoayo", "options": {}, "version": 0}
    other_agent = {**kept, "agent": "alphabeta:depth=3"}
    unknown = {**kept, "name": "a cell no longer measured"}
    results = tmp_path / "atlas.json"
    results.write_text(json.dumps({"cells": [older_rules, other_agent, unknown, kept]}))
    out, figure = tmp_path / "atlas", tmp_path / "atlas.png"
    atlas.run([SMALL, RELAY], out, results, figure, "cmd", play=False)
    assert json.loads(results.read_text())["cells"] == [kept]


# ---- bad input to benchmarks/atlas.py ---------------------------------------------------------
MEASURED = json.loads((ROOT / "benchmarks" / "results" / "atlas.json").read_text())


def with_cell(**change) -> str:
    """The shipped results file with its first cell changed."""
    return json.dumps({**MEASURED, "cells": [{**MEASURED["cells"][0], **change}]})


BAD_RESULTS = {  # an earlier results file, and what its refusal says
    "not JSON": ("{'cells': []}", "is not JSON"),
    "a list": ("[]", "no list of 'cells'"),
    "cells not a list": (json.dumps({"cells": {}}), "no list of 'cells'"),
    "a cell not an object": (json.dumps({"cells": [1]}), "cell 1 is not an object"),
    "a field missing": (
        json.dumps({"cells": [{k: v for k, v in MEASURED["cells"][0].items() if k != "games"}]}),
        "cell 1 has no 'games'",
    ),
    "a version of true": (with_cell(version=True), "version must be an integer of 0 or more"),
    "a version of 1.0": (with_cell(version=1.0), "version must be an integer of 0 or more"),
    "a text score": (with_cell(first_player_score="0.5"), "first_player_score must be a number"),
    "a score outside its interval": (with_cell(draw_rate=0.9), "draw_rate 0.9 is outside its"),
    "an interval upside down": (with_cell(draw_interval=[0.2, 0.1]), "the lower first"),
    "huge": (" " * (1 << 20) + "{}", "at most 1,048,576 are read"),
    "nested deeply": ('{"cells": []' + ', "x": ' + "[" * 40 + "]" * 40 + "}", "nests 41 levels"),
    "not UTF-8": (b"\xff\xfe{}".decode("latin-1"), "is not UTF-8 text"),
}


def special_path(tmp_path: Path, kind: str) -> str:
    path = tmp_path / f"a {kind}"
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "file":
        path.write_text("x")
    else:
        path.symlink_to(tmp_path / "elsewhere.json")
    return str(path)


BAD_ARGUMENTS = [  # (arguments, what the refusal says)
    (["--cell", "chess"], "argument --cell: invalid choice: 'chess'"),
    (["--workers", "0"], "argument --workers: must be an integer of 1 or more, got '0'"),
    (["--workers", "two"], "argument --workers: must be an integer"),
    (["--workers", "1_000"], "argument --workers: must be an integer"),
    (["--seed", "-1"], "argument --seed: must be an integer from 0 to 4,294,967,295"),
    (["--seed", str(2**64)], "argument --seed: must be an integer from 0 to"),
    (["--out", "{file}"], "argument --out: "),
    (["--out", "{fifo}"], "argument --out: "),
    (["--results", "{folder}"], "argument --results: "),
    (["--results", "{fifo}"], "argument --results: "),
    (["--results", "{link}"], "argument --results: "),
    (["--figure", "{folder}"], "argument --figure: "),
    (["--figure", "{results}"], "argument --figure: "),
]


def run_atlas(tmp_path: Path, capsys, arguments: list[str]) -> str:
    """benchmarks/atlas.py with `arguments` after its outputs in `tmp_path`: its status must
    be 2, and what it said on stderr one line, which is returned; it wrote nothing."""
    out, results, figure = tmp_path / "out", tmp_path / "atlas.json", tmp_path / "atlas.png"
    base = ["--summarise", "--cell", "oware", "--out", str(out), "--results", str(results)]
    before = sorted(tmp_path.iterdir())
    held = results.read_bytes() if results.is_file() else None
    with pytest.raises(SystemExit) as stop:
        atlas.main([*base, "--figure", str(figure), *arguments])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and len(err.strip().splitlines()) == 1, err
    assert err.startswith("atlas.py: error: ")
    assert sorted(tmp_path.iterdir()) == before and not out.exists() and not figure.exists()
    assert (results.read_bytes() if results.is_file() else None) == held
    return err


@pytest.mark.parametrize("name", BAD_RESULTS)
def test_a_malformed_earlier_results_file_is_one_line_and_nothing_is_written(
    tmp_path, capsys, name
):
    """Each of these used to end in a traceback (ReadError, KeyError, TypeError; a version
    of true was taken for 1) after the output folder was made."""
    text, message = BAD_RESULTS[name]
    (tmp_path / "atlas.json").write_bytes(
        text.encode("latin-1" if name == "not UTF-8" else "utf-8")
    )
    assert message in run_atlas(tmp_path, capsys, [])


@pytest.mark.parametrize(("arguments", "message"), BAD_ARGUMENTS)
def test_a_bad_argument_is_one_line_and_nothing_is_written(tmp_path, capsys, arguments, message):
    """A file or a FIFO as --out, a folder, a FIFO or a link as --results or --figure used to
    end in a traceback, the last ones after the games were played; a bad number, in argparse's
    usage and a line, or not at all (--seed 2**64, --workers 1_000)."""
    places = {kind: special_path(tmp_path, kind) for kind in ("file", "folder", "fifo", "link")}
    places["results"] = str(tmp_path / "atlas.json")
    arguments = [argument.format(**places) for argument in arguments]
    assert message in run_atlas(tmp_path, capsys, arguments)


def test_a_store_that_is_no_file_is_one_line(tmp_path, capsys):
    (tmp_path / "out").mkdir()
    os.mkfifo(tmp_path / "out" / "atlas.sqlite")
    outputs = ["--results", str(tmp_path / "r.json"), "--figure", str(tmp_path / "f.png")]
    with pytest.raises(SystemExit) as stop:
        atlas.main(["--summarise", "--out", str(tmp_path / "out"), *outputs])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and len(err.strip().splitlines()) == 1, err
    assert "atlas.sqlite" in err and not (tmp_path / "r.json").exists()
