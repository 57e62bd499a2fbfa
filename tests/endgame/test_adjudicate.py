"""The adjudicator: the result it gives a covered position is the one perfect play reaches
from there, played out with the engine; draws are left alone in the decisive mode; a batch of
states gets the verdicts of its rows."""

from __future__ import annotations

import numpy as np
import pytest
from test_endgame_relay import minimax

from mancala_env import Game
from mancala_env.agents.perfect import PerfectAgent
from mancala_env.endgame.adjudicate import Adjudication, Adjudicator, check_mode
from mancala_env.endgame.build import build
from mancala_env.endgame.database import EndgameDatabase
from mancala_env.endgame.files import DatabaseError, level_path
from mancala_env.endgame.positions import random_choices
from mancala_env.engine import layout as L
from mancala_env.kernels import kernels_for
from mancala_env.variants import get_variant

OWARE = get_variant("oware")
AYOAYO = get_variant("ayoayo")
AYOAYO_SEEDS = 6


@pytest.fixture(scope="module")
def ayoayo_db(tmp_path_factory: pytest.TempPathFactory) -> EndgameDatabase:
    directory = tmp_path_factory.mktemp("ayoayo")
    build(AYOAYO, AYOAYO.options(), AYOAYO_SEEDS, directory, progress=False)
    return EndgameDatabase(directory, AYOAYO, AYOAYO.options())


def positions(database: EndgameDatabase, count: int, seed: int) -> list[Game]:
    """`count` random covered positions (a board of 3 to the database's seeds, the seeds off
    it split between the stores), spread over the seed counts."""
    rng = np.random.default_rng(seed)
    variant, options = database.variant, database.variant.options()
    counts = range(3, database.max_seeds + 1)
    drawn = {k: random_choices(variant, options, k, rng) for k in counts}
    return [next(drawn[counts[i % len(counts)]]) for i in range(count)]


def play_out(game: Game, database: EndgameDatabase, seed: int) -> Game:
    """`game` played to its end by a perfect agent on each side (their moves keep the value,
    ties broken at random)."""
    players = [PerfectAgent(database.directory, seed=seed + p) for p in range(2)]
    while not game.over:
        game.step(players[game.to_move].act(game))
    return game


def without_majority_end(game: Game) -> Game:
    """`game` under its rules less the majority end (as the database reads them)."""
    game.params = game.params.copy()
    game.params[L.P_END_MAJORITY] = 0
    game.kernels = kernels_for(game.variant, game.params)
    return game


def database_of(rule_set: str, oware_db, ayoayo_db) -> EndgameDatabase:
    return oware_db if rule_set == "oware" else ayoayo_db


@pytest.mark.parametrize("rule_set", ["oware", "ayoayo"])
def test_the_verdict_is_a_minimax_of_the_game(rule_set, oware_db, ayoayo_db) -> None:
    """Random covered positions of 3 and 4 seeds: the verdict's seeds are those of a minimax
    of the engine's game (every legal move tried to the end, the stall counter part of the
    position) under the rules less the majority end, with the stores added."""
    database = database_of(rule_set, oware_db, ayoayo_db)
    adjudicator = Adjudicator(database)
    memo: dict = {}  # the board's value does not depend on the stores: one memo serves all
    judged = 0
    rng = np.random.default_rng(1)
    for seeds in (3, 4):
        drawn = random_choices(database.variant, database.variant.options(), seeds, rng)
        for _ in range(8):
            start = next(drawn)
            verdict = adjudicator.verdict(start.state)
            if verdict is None:  # a value ending in a half: the chase's odd seed is not decided
                assert database.half_seeds(start.pits, start.to_move) % 2 == 1
                continue
            judged += 1
            mover = start.to_move
            won = minimax(without_majority_end(start.copy()), memo)
            assert won % 2 == 0
            expected = [int(s) for s in start.stores]
            expected[mover] += won // 2
            expected[1 - mover] += seeds - won // 2
            assert verdict.scores == tuple(expected), start.snapshot()
    assert judged >= 12


@pytest.mark.parametrize("rule_set", ["oware", "ayoayo"])
def test_perfect_play_reaches_the_verdict(rule_set, oware_db, ayoayo_db) -> None:
    """From random covered positions of 3 to 7 seeds, perfect agents on both sides playing the
    full rules end with the verdict's winner, and with its seeds where no majority stopped the
    game first (the majority end hands each row to its owner; the verdict's seeds are those of
    play continued). A perfect agent keeps the value but does not know how far a win is: a
    game its agents did not convert before the stall stop is no test of the verdict."""
    database = database_of(rule_set, oware_db, ayoayo_db)
    adjudicator = Adjudicator(database)
    judged = by_majority = 0
    for number, start in enumerate(positions(database, 60, seed=2)):
        verdict = adjudicator.verdict(start.state)
        if verdict is None:
            continue
        game = play_out(start.copy(), database, number)
        if game.end_reason == "stall":
            continue
        judged += 1
        assert game.winner() == verdict.winner, start.snapshot()
        if game.end_reason == "majority":
            by_majority += 1
        else:
            assert tuple(int(s) for s in game.stores) == verdict.scores, start.snapshot()
    assert judged >= 30
    if rule_set == "oware":  # the positions split the seeds off the board: some pass half
        assert 0 < by_majority < judged


def test_a_position_after_a_quiet_move_is_not_adjudicated(oware_db) -> None:
    """The database's values hold for the stall counter at zero: a covered position reached by
    a move that captures nothing waits for the next capture."""
    adjudicator = Adjudicator(oware_db)
    for game in positions(oware_db, 30, seed=2):
        assert adjudicator.verdict(game.state) is not None or (
            oware_db.half_seeds(game.pits, game.to_move) % 2
        )
        quiet = game.state.copy()
        quiet[L.STALL_PLIES] = 1
        assert adjudicator.verdict(quiet) is None


def test_the_decisive_mode_leaves_draws_alone(oware_db) -> None:
    every, decisive = Adjudicator(oware_db, "all"), Adjudicator(oware_db, "decisive")
    draws = wins = 0
    for game in positions(oware_db, 80, seed=3):
        verdict = every.verdict(game.state)
        if verdict is None:
            continue
        if verdict.winner is None:
            draws += 1
            assert decisive.verdict(game.state) is None
        else:
            wins += 1
            assert decisive.verdict(game.state) == verdict
    assert draws > 0 and wins > 0


def test_a_batch_gets_the_verdicts_of_its_rows(oware_db) -> None:
    adjudicator = Adjudicator(oware_db)
    games = positions(oware_db, 40, seed=4)
    start = Game("oware")  # 48 seeds on the board: not covered
    over = games[0].copy()
    over.state[L.OVER] = 1
    states = np.stack([g.state for g in games] + [start.state, over.state])
    found = adjudicator.verdicts(states)
    assert not found.covered[-2:].any() and (found.winner[-2:] == -1).all()
    for row, game in enumerate(games):
        verdict = adjudicator.verdict(game.state)
        assert found.covered[row] == (verdict is not None)
        if verdict is not None:
            assert tuple(found.scores[row]) == verdict.scores
            assert found.winner[row] == (-1 if verdict.winner is None else verdict.winner)
    assert found.covered.sum() >= 25
    with pytest.raises(ValueError, match="2-D array of game states"):
        adjudicator.verdicts(games[0].state)


def test_modes_and_databases_are_checked(oware_db, tmp_path) -> None:
    with pytest.raises(ValueError, match="one of all, decisive"):
        check_mode("draws")
    with pytest.raises(ValueError, match="not a directory"):
        Adjudication(str(tmp_path / "none"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(DatabaseError, match="holds no endgame database"):
        Adjudication(str(tmp_path / "empty")).open(OWARE, OWARE.options())
    folder = tmp_path / "folder"
    folder.mkdir()
    level_path(folder, 0).mkdir()  # a folder in a level's place
    with pytest.raises(DatabaseError, match="not a regular file"):
        Adjudication(str(folder))
    with pytest.raises(DatabaseError, match="was built for oware"):
        Adjudication(str(oware_db.directory)).open(AYOAYO, AYOAYO.options())


def test_a_database_changed_since_it_was_named_is_refused(tmp_path) -> None:
    build(OWARE, OWARE.options(), 2, tmp_path, progress=False)
    named = Adjudication(str(tmp_path), "decisive")
    assert named.identity.startswith("sha256:")
    assert Adjudication.from_json(named.to_json()) == named
    named.open(OWARE, OWARE.options())
    build(OWARE, OWARE.options(), 3, tmp_path, progress=False)
    with pytest.raises(ValueError, match="changed since"):
        named.open(OWARE, OWARE.options())
    stored = {**named.to_json(), "identity": None}  # would take the changed files as they are
    with pytest.raises(ValueError, match="identity must be a text, got None"):
        Adjudication.from_json(stored)
