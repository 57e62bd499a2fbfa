"""Each agent's endgame accuracy on its own tournament games: the moves scored, the report's
tables, and a database that does not fit the tournament refused before any game."""

from __future__ import annotations

import dataclasses
import re

import pytest

from mancala_env.agents.accuracy import AccuracyRow
from mancala_env.agents.tournament import TournamentConfig, format_leaderboard, run_tournament
from mancala_env.agents.tournament.endgames import scored_moves
from mancala_env.agents.tournament.match import start
from mancala_env.agents.tournament.report import _markdown
from mancala_env.cli import main
from mancala_env.endgame.build import build
from mancala_env.variants import get_variant


@pytest.fixture(scope="module")
def result(oware_db, tmp_path_factory):
    agents = ("random", "greedy", f"perfect:db={oware_db.directory}")
    config = TournamentConfig("oware", agents, games_per_pair=4, openings=2)
    store = tmp_path_factory.mktemp("store") / "t.sqlite"
    return run_tournament(config, db=store, progress=False, endgame_db=oware_db.directory)


def test_each_agent_is_scored_on_its_own_moves_in_covered_positions(oware_db, result) -> None:
    rows = result.endgames.rows
    perfect = rows[f"perfect:db={oware_db.directory}"]
    assert perfect.positions >= 10  # its moves, each scored in the position it was played in
    assert perfect.keeps_value == 1 and perfect.seeds_lost == 0
    greedy = rows["greedy"]
    assert greedy.keeps_low <= greedy.keeps_value <= greedy.keeps_high
    assert greedy.lost_low <= greedy.seeds_lost <= greedy.lost_high
    # every scored move: an agent's (not an opening's) in a covered position with a choice
    expected: dict[str, int] = {}
    for record in result.records:
        game = start(record)
        for number, action in enumerate(record["moves"]):
            if (
                number >= len(record["opening"])
                and oware_db.covers(game)
                and len(game.legal_actions()) > 1
            ):
                agent = record[f"agent_{game.to_move}"]
                expected[agent] = expected.get(agent, 0) + 1
            game.step(action)
    assert {agent: row.positions for agent, row in rows.items() if row} == expected
    assert {agent: len(lost) for agent, lost in scored_moves(oware_db, result.records).items()} == (
        expected
    )


def test_the_report_lists_each_agents_endgame_accuracy(oware_db, result) -> None:
    text = format_leaderboard(result)
    seeds, directory = oware_db.max_seeds, oware_db.directory
    assert f"positions of at most {seeds} seeds on the board, scored by {directory}" in text
    for agent, row in result.endgames.rows.items():
        line = re.search(
            rf"^{re.escape(agent)} +(\d+) +(\S+) \((\S+)\) +(\S+) \((\S+)\)$", text, re.M
        )
        assert line is not None and int(line[1]) == row.positions
        assert float(line[2]) == pytest.approx(row.keeps_value, abs=5e-4)
        assert float(line[4]) == pytest.approx(row.seeds_lost, abs=5e-4)
    markdown = _markdown(result)
    assert "## Endgame accuracy" in markdown
    perfect = f"perfect:db={oware_db.directory}"
    assert re.search(
        rf"^\| {re.escape(perfect)} \| \d+ \| 1\.000 \| \S+ \| 0\.000 \|", markdown, re.M
    )


def test_an_agent_with_no_scored_move_shows_dashes(result) -> None:
    row = AccuracyRow(None, 4, 0.5, 0.15, 0.85, 1.0, 0.0, 2.0)
    rows = {agent: row for agent in result.config.agents} | {"random": None}
    without = dataclasses.replace(result, endgames=dataclasses.replace(result.endgames, rows=rows))
    assert re.search(r"^random +0 +- +-$", format_leaderboard(without), re.M)
    assert "| random | 0 | - | - | - | - |" in _markdown(without)
    assert re.search(r"^greedy +4 +0\.500 \(0\.150-0\.850\) +1\.000 \(0\.000-2\.000\)$",
                     format_leaderboard(without), re.M)  # fmt: skip


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda path: build(get_variant("ouri"), get_variant("ouri").options(), 2, path, False),
         "was built for ouri v1 .*, not for oware v1"),
        (lambda path: path.mkdir(), "holds no endgame database"),
        (lambda path: None, "argument --endgame-db: .*db: no such folder"),
    ],
)  # fmt: skip
def test_a_database_that_does_not_fit_is_refused_before_any_game(tmp_path, capsys, make, message):
    directory, store = tmp_path / "db", tmp_path / "t.sqlite"
    make(directory)
    argv = ["tournament", "oware", "--agents", "random", "greedy", "--games-per-pair", "2"]
    status = main([*argv, "--workers", "1", "--db", str(store), "--endgame-db", str(directory)])
    err = capsys.readouterr().err
    assert status == 2 and re.search(message, err) and err.startswith("mancala tournament: error:")
    assert not store.exists()  # refused before the store was opened
