"""`mancala match` and `run_match`: real SPRT matches of cheap agents that
stop at a decision or their most pairs, print the LLR as they go, and resume from their store
to the same decision."""

from __future__ import annotations

import contextlib
import re
import sys

import pytest

from mancala_env.agents.tournament import (
    GameStore,
    Sprt,
    TournamentConfig,
    match_config,
    run_match,
    schedule,
)
from mancala_env.agents.tournament.ratings import PERFECT_RECORD_NOTE
from mancala_env.agents.tournament.schedule import scheduled
from mancala_env.agents.tournament.sequential import pair_points
from mancala_env.agents.tournament.sprt import NELO_NOTE
from mancala_env.cli import main

MATCH = ["match", "greedy", "random", "--workers", "1", "--every", "1"]


def run(capsys, *arguments: str) -> tuple[int, str, str]:
    status = main([*MATCH, *arguments])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_match_stops_at_h1_and_prints_the_llr_as_it_goes(tmp_path, capsys):
    db = str(tmp_path / "m.sqlite")
    status, out, err = run(capsys, "--elo1", "100", "--db", db, "--max-pairs", "200")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == (
        "SPRT greedy vs random (oware): H0 0 Elo, H1 100 Elo (logistic), alpha 0.05, "
        "beta 0.05; LLR bounds (-2.94, 2.94)"
    )
    rows = [line.split() for line in lines[2:] if re.match(r"\s+\d+ ", line)]
    assert [int(row[0]) for row in rows] == list(range(1, len(rows) + 1))
    ratios = [float(row[-1]) for row in rows]
    assert all(-2.94 < r < 2.94 for r in ratios[:-1]) and ratios[-1] >= 2.94
    assert f"H1 accepted (LLR {ratios[-1]:.2f} >= 2.94): greedy is taken to be 100 Elo" in out
    assert f"{len(rows)} pairs in {db}" in out and f"{2 * len(rows)} games played now" in out
    with GameStore(db, read_only=True) as store:
        assert len(store.games()) == 2 * len(rows)


def test_a_clean_sweep_is_shown_as_a_bound_as_on_the_leaderboard(tmp_path, capsys):
    """Greedy wins its first pairs' every game against random: the Elo of a perfect record is
    the lower end of its interval as a bound, ``> +X [+X, +inf)``, as a tournament's leaderboard
    shows it, not ``+inf``; the lines say what the bound and nElo's dash mean."""
    status, out, err = run(capsys, "--db", str(tmp_path / "m.sqlite"), "--max-pairs", "2")
    assert status == 0, err
    rows = [line for line in out.splitlines() if re.match(r"\s+\d+ ", line)]
    assert len(rows) == 2 and all(" 0    0      0    0 " in row for row in rows), rows  # WW only
    for row in rows:
        assert re.search(r"  > ([+-]\d+\.\d) \[\1, \+inf\)\s+-\s+\d", row), row
    assert "inf [" not in out and "+inf ±" not in out
    assert f"\n{PERFECT_RECORD_NOTE}\n{NELO_NOTE}\nno decision after 2 pairs" in out


def test_a_weaker_agent_is_stopped_at_h0(tmp_path, capsys):
    db = str(tmp_path / "m.sqlite")
    status = main(["match", "random", "greedy", "--workers", "1", "--db", db])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert "H0 accepted (LLR -" in out and "random is taken to be 0 Elo stronger" in out


def test_a_match_stopped_at_its_most_pairs_resumes_to_the_same_decision(tmp_path, capsys):
    whole, parts = str(tmp_path / "whole.sqlite"), str(tmp_path / "parts.sqlite")
    status, straight, err = run(capsys, "--elo1", "100", "--db", whole)
    assert status == 0, err
    status, out, err = run(capsys, "--elo1", "100", "--db", parts, "--max-pairs", "3")
    assert status == 0, err
    assert "no decision after 3 pairs (LLR " in out and "a larger --max-pairs goes on" in out
    assert "6 games played now, 0 pairs found there" in out
    status, resumed, err = run(capsys, "--elo1", "100", "--db", parts)
    assert status == 0, err
    assert "pairs found there" in resumed and "3 pairs found there" in resumed
    body = [line for line in straight.splitlines() if "pairs in" not in line]
    assert [line for line in resumed.splitlines() if "pairs in" not in line] == body
    # once decided, run again: nothing played, the same decision
    status, again, err = run(capsys, "--elo1", "100", "--db", parts)
    assert "0 games played now" in again and again.splitlines()[-2] == body[-1]


def test_a_match_counts_pairs_in_schedule_order_from_the_store(tmp_path):
    config = match_config("oware", "greedy", "random", seed=4)
    steps = []
    db = tmp_path / "m.sqlite"
    result = run_match(config, Sprt(0, 100), db=db, max_pairs=40, report=steps.append)
    with GameStore(db, read_only=True) as store:
        games = {g["game_index"]: g for g in store.games(config.key)}
    assert [s.pairs for s in steps] == list(range(1, len(steps) + 1))
    assert result.last == steps[-1] and result.decision == steps[-1].decision
    points = [pair_points((games[2 * k], games[2 * k + 1]), "greedy") for k in range(len(steps))]
    assert steps[-1].counts == tuple(points.count(p) for p in (0, 0.5, 1, 1.5, 2))
    for k in range(len(steps)):  # the two games of a pair: one opening, the seats swapped
        first, second = games[2 * k], games[2 * k + 1]
        assert first["opening"] == second["opening"] and first["seed"] == second["seed"]
        assert (first["agent_0"], second["agent_0"]) == ("greedy", "random")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--elo0", "5", "--elo1", "5"], "elo0 must be below elo1"),
        (["--alpha", "0"], "alpha must be between 0 and 0.5"),
        (["--beta", "0.7"], "beta must be between 0 and 0.5"),
        (["--variant", "no_such_game"], "unknown variant 'no_such_game'"),
    ],
)
def test_bad_bounds_are_refused_before_a_game(tmp_path, capsys, arguments, message):
    db = tmp_path / "m.sqlite"
    status, out, err = run(capsys, *arguments, "--db", str(db))
    assert status == 2 and message in err and not db.exists()
    assert out == "" and err.startswith("mancala match: error: ") and len(err.splitlines()) == 1


def test_a_max_pairs_beyond_the_schedule_is_refused(capsys):
    status, out, err = run(capsys, "--max-pairs", "50001")
    assert status == 2 and "--max-pairs" in err


def test_a_schedule_made_lazily_from_any_game_is_the_schedule(monkeypatch):
    module = sys.modules[
        "mancala_env.agents.tournament.schedule"
    ]  # the package's `schedule` is a function
    for openings, format_ in ((0, "round-robin"), (3, "round-robin"), (50, "gauntlet")):
        config = TournamentConfig(
            "oware",
            ("random", "greedy", "alphabeta:depth=1"),
            games_per_pair=20,
            format=format_,
            openings=openings,
        )
        whole = schedule(config)
        for start in (0, 1, 2, 19, 20, 21, 39, 59, 60):
            assert list(scheduled(config, start)) == whole[start:]
    made = []
    real = module.random_opening
    monkeypatch.setattr(module, "random_opening", lambda *a: made.append(a) or real(*a))
    match = match_config("oware", "greedy", "random")
    games = scheduled(match, start=2 * 30_000)  # a match resumed at pair 30,000 of 50,000
    assert [next(games).index for _ in range(6)] == list(range(60_000, 60_006))
    assert len(made) == 3  # the three pairs' openings, and no other


def help_of(capsys, command: str) -> str:
    with contextlib.suppress(SystemExit):
        main([command, "--help"])
    return " ".join(capsys.readouterr().out.split())


def test_match_and_tournament_say_where_their_games_start_and_why_they_differ(capsys):
    """A tournament plays the shipped suite by default where a match plays random lines: each
    command's help says its own default, the other's, and why."""
    match, tournament = help_of(capsys, "match"), help_of(capsys, "tournament")
    assert "default: one random line a pair" in match
    assert "a tournament plays the rule set's shipped suite" in match
    assert "--opening-suite VARIANT" in match
    assert "default: the rule set's shipped suite" in tournament
    assert "A match plays one random line a pair by default" in tournament
