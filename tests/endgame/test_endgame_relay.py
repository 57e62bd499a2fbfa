"""Endgame databases of a relay rule set (Ayoayo), played with the rule set's own engine: the
values against a minimax of the engine's `Game` (the stall stop included), the moves kernel
derived for a rule set against the shared engine's, and the rule sets refused."""

from __future__ import annotations

import numpy as np
import pytest

from mancala_env import Game
from mancala_env.agents import load_agent
from mancala_env.agents.accuracy import measure_accuracy
from mancala_env.cli import main
from mancala_env.endgame import build as build_module
from mancala_env.endgame import kernels as written_kernels
from mancala_env.endgame.build import build
from mancala_env.endgame.database import EndgameDatabase
from mancala_env.endgame.files import level_path
from mancala_env.endgame.positions import position_game, random_board
from mancala_env.engine import layout as L
from mancala_env.variants import get_variant

AYOAYO = get_variant("ayoayo")
OWARE = get_variant("oware")
SEEDS = 5  # the brute force's boards: at most 5 seeds


def minimax(game: Game, memo: dict) -> int:
    """The most half seeds the player to move in `game` wins from its board, both playing for
    the most seeds, by trying every legal move with `Game.step` to the game's end (the stall
    counter is part of the position here); `game` is left as it was."""
    key = (tuple(game.pits), game.to_move, int(game.state[L.STALL_PLIES]))
    if key in memo:
        return memo[key]
    saved, mover = game.state.copy(), game.to_move
    best = -1
    for action in game.legal_actions():
        game.step(action)
        won = 2 * int(game.stores[mover] - saved[L.STORE + mover])
        if not game.over:
            theirs = minimax(game, memo)
            won += theirs if game.to_move == mover else 2 * int(game.pits.sum()) - theirs
        best = max(best, won)
        game.state[:] = saved
    memo[key] = best
    return best


@pytest.fixture(scope="module")
def ayoayo_db(tmp_path_factory: pytest.TempPathFactory) -> EndgameDatabase:
    directory = tmp_path_factory.mktemp("ayoayo")
    build(AYOAYO, AYOAYO.options(), 7, directory, progress=False)
    return EndgameDatabase(directory, AYOAYO, AYOAYO.options())


@pytest.mark.parametrize("stall_limit", [5, 6])
def test_ayoayo_values_are_those_of_a_minimax_of_the_game(stall_limit, tmp_path) -> None:
    """A short stall limit, so that the stop decides some chases: every value of a random board
    of at most 5 seeds with the counter at zero is the minimax value of the engine's game, the
    stop after `stall_limit` quiet plies (each row to its owner) included; and the two limits
    give some boards different values (the database reads the limit)."""
    options = AYOAYO.options(stall_limit=stall_limit)
    build(AYOAYO, options, SEEDS, tmp_path, progress=False)
    database = EndgameDatabase(tmp_path, AYOAYO, options)
    rng, memo = np.random.default_rng(42), {}
    for _ in range(150):
        board = random_board(int(rng.integers(1, SEEDS + 1)), rng)
        game = position_game(AYOAYO, options, board, int(rng.integers(2)))
        if not game.over:
            assert database.half_seeds(board, game.to_move) == minimax(game, memo), board
    other = stall_limit ^ 3  # 5 <-> 6
    build(AYOAYO, AYOAYO.options(stall_limit=other), SEEDS, tmp_path / "other", progress=False)
    assert any(
        level_path(tmp_path, k).read_bytes()[4096:]
        != level_path(tmp_path / "other", k).read_bytes()[4096:]
        for k in range(SEEDS + 1)
    )


def test_ayoayo_with_its_stall_limit_against_a_minimax(ayoayo_db) -> None:
    """The default stall limit (100 plies): boards of at most 4 seeds, where the settling
    passes end long before the limit (no value depends on the counter)."""
    rng, memo = np.random.default_rng(7), {}
    for _ in range(40):
        board = random_board(int(rng.integers(1, 5)), rng)
        game = position_game(AYOAYO, AYOAYO.options(), board, int(rng.integers(2)))
        if not game.over:
            assert ayoayo_db.half_seeds(board, game.to_move) == minimax(game, memo), board


def test_the_rule_sets_own_engine_builds_owares_database_as_the_shared_one(
    tmp_path, monkeypatch
) -> None:
    """The moves kernel derived for Oware (its own engine) and the kernel as written (the
    shared engine) give the same level files, seed count by seed count."""
    build(OWARE, OWARE.options(), 8, tmp_path / "own", progress=False)
    monkeypatch.setattr(build_module, "solver_kernels", lambda variant, params: written_kernels)
    build(OWARE, OWARE.options(), 8, tmp_path / "shared", progress=False)
    for seeds in range(9):
        own = level_path(tmp_path / "own", seeds).read_bytes()
        assert own == level_path(tmp_path / "shared", seeds).read_bytes(), seeds


@pytest.mark.parametrize(
    ("variant", "options", "reason"),
    [
        ("ayoyayo", {}, "odu transfer"),
        ("mangala", {}, "set out the seeds"),
        ("obridjie", {}, "cannot move passes"),
        ("layli_goobalay", {}, "pregnant"),
        ("mighty_men", {}, "special pieces"),
        ("jerin", {}, "houses change hands"),
        ("ayoayo", {"stall_limit": 5000}, "stall_limit must be from 1 to 1000"),
    ],
)
def test_rules_whose_position_is_more_than_the_board_are_refused(
    variant, options, reason, tmp_path
):
    rules = get_variant(variant)
    with pytest.raises(ValueError, match=reason):
        build(rules, rules.options(**options), 3, tmp_path, progress=False)
    assert not list(tmp_path.iterdir())
    chosen = [arg for key, value in options.items() for arg in ("--option", f"{key}={value}")]
    args = ["solve", variant, *chosen, "--max-seeds", "3", "--out", str(tmp_path / "db")]
    assert main(args) == 2


@pytest.mark.parametrize(
    "arguments", [["ncho"], ["oware", "--option", "stall_remainder=owner", "--option",
                             "stall_limit=5000"]]
)  # fmt: skip
def test_solve_refuses_rules_it_cannot_solve_with_what_it_can_and_writes_nothing(
    arguments, tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)  # the default folder, endgames/VARIANT, is made nowhere
    assert main(["solve", *arguments, "--max-seeds", "3", "--no-progress"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("mancala solve: error: no endgame database for ")
    assert len(error.splitlines()) == 1
    assert "databases are built for ayoayo, kpo, ouri, oware, rio_kadalis, tampoduo" in error
    assert not list(tmp_path.iterdir())


def test_the_perfect_agent_plays_ayoayo_from_its_database(ayoayo_db) -> None:
    agent = load_agent(f"perfect:db={ayoayo_db.directory}", variant="ayoayo", seed=3)
    rng = np.random.default_rng(5)
    for _ in range(30):
        board = random_board(int(rng.integers(3, 8)), rng)
        game = position_game(AYOAYO, AYOAYO.options(), board, 0)
        if ayoayo_db.covers(game) and len(game.legal_actions()) > 1:
            values = ayoayo_db.action_values(game)
            assert values[agent.act(game)] == max(values.values())
            assert max(values.values()) == ayoayo_db.half_seeds(board, 0)
    perfect = measure_accuracy(agent, ayoayo_db, AYOAYO, AYOAYO.options(), 7, 20, seed=1)
    assert perfect[-1].keeps_value == 1
    greedy = load_agent("greedy", seed=0)
    rows = measure_accuracy(greedy, ayoayo_db, AYOAYO, AYOAYO.options(), 7, 100, seed=1)
    assert rows[-1].keeps_value < 1 and rows[-1].seeds_lost > 0
