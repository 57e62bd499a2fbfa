"""Two deterministic agents replay the same game from the same start: by default a tournament
starts each couple of games from its own opening, and the report counts the distinct games and
warns when they repeat."""

from __future__ import annotations

import sys

import pytest
from scripted_agents import AGENT_SOURCE

from mancala_env.agents.tournament import TournamentConfig, format_leaderboard, run_tournament

AGENTS = ("python:repeats_first:Agent", "python:repeats_last:Agent")


@pytest.fixture
def deterministic_agents(tmp_path, monkeypatch):
    for name, which, index in (("repeats_first", "first", 0), ("repeats_last", "last", -1)):
        (tmp_path / f"{name}.py").write_text(AGENT_SOURCE.format(which=which, index=index))
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield
    for name in ("repeats_first", "repeats_last"):
        sys.modules.pop(name, None)


def play(tmp_path, **openings) -> tuple[object, str]:
    config = TournamentConfig("ayoayo", AGENTS, games_per_pair=6, **openings)
    result = run_tournament(config, db=tmp_path / "t.sqlite", progress=False, bootstrap=10)
    return result, format_leaderboard(result)


def test_from_the_starting_position_the_games_repeat_and_the_report_says_so(
    tmp_path, deterministic_agents
):
    result, board = play(tmp_path, openings=0)
    assert result.distinct == 2  # one game from each seat, played three times each
    assert "6 games (2 distinct)" in board
    assert "warning: only 2 of the 6 games differ" in board
    assert "openings: none" in board


def test_by_default_every_game_differs(tmp_path, deterministic_agents):
    result, board = play(tmp_path)
    assert result.distinct == 6
    assert "6 games (6 distinct)" in board and "warning" not in board
    assert "opening suite" in board
