"""The candidate moves `legal_actions` plays out are kept, and `step` copies the chosen one."""

import numpy as np
import pytest

from mancala_env.engine import layout as L
from mancala_env.engine.turn import KEPT_VALID, kept_buffer, new_game, step
from mancala_env.game import Game

RELAY_RULE_SETS = ["ayoayo", "tampoduo", "ncho", "jerin", "layli_goobalay"]


def _random_game(name: str, kept: bool, plies: int = 300) -> list[np.ndarray]:
    """The states of a seeded random game of `name`, stepped with or without a kept buffer."""
    game = Game(name, first_player="player_0")
    buffer = kept_buffer(game.params) if kept else None
    state = np.zeros(L.STATE_SIZE, dtype=np.int32)
    new_game(game.params, 0, state, 0, buffer)
    rng = np.random.default_rng(7)
    states = [state.copy()]
    for _ in range(plies):
        if state[L.OVER]:
            new_game(game.params, 0, state, 0, buffer)
        action = int(rng.choice(np.flatnonzero(state[L.LEGAL : L.LEGAL + game.n_actions])))
        if buffer is None:
            assert step(state, action, game.params) == 0
        else:
            assert step(state, action, game.params, buffer) == 0
        states.append(state.copy())
    return states


@pytest.mark.parametrize("name", [*RELAY_RULE_SETS, "oware"])
def test_copying_kept_play_outs_plays_the_same_games(name):
    kept, played = _random_game(name, kept=True), _random_game(name, kept=False)
    assert all(np.array_equal(a, b) for a, b in zip(kept, played, strict=True))


def _opening(name: str) -> tuple[Game, np.ndarray, np.ndarray]:
    game = Game(name, first_player="player_0")
    state = np.zeros(L.STATE_SIZE, dtype=np.int32)
    kept = kept_buffer(game.params)
    new_game(game.params, 0, state, 0, kept)
    return game, state, kept


def test_step_copies_the_chosen_moves_kept_result():
    game, state, kept = _opening("ayoayo")
    assert kept[-1, KEPT_VALID] == 1  # a relay rule set plays every candidate out
    kept[2, L.STORE] += 100  # marks the kept result of lifting house 3
    step(state, 2, game.params, kept)
    assert state[L.STORE] >= 100


def test_a_buffer_kept_for_another_position_is_not_used():
    game, state, kept = _opening("ayoayo")
    kept[2, L.STORE] += 100
    state[0] += 1  # a position the buffer was not filled from
    state[1] -= 1
    step(state, 2, game.params, kept)
    assert state[L.STORE] < 100


def test_single_laps_without_a_starving_opponent_play_nothing_out():
    _, _, kept = _opening("oware")
    assert kept[-1, KEPT_VALID] == 0
