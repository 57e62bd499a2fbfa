"""The built-in opponents: random plays legal moves uniformly, greedy takes the most seeds."""

import numpy as np
import pytest
from numba import njit
from rules.positions import position

from mancala_env.batch import BatchedGames
from mancala_env.opponents import opponent_actions, random_legal_action


@njit
def _seeded_draws(state, params, seed, count):
    np.random.seed(seed)
    out = np.empty(count, dtype=np.int64)
    for i in range(count):
        out[i] = random_legal_action(state, params)
    return out


def test_compiled_random_move_is_uniform_over_the_legal_ones():
    """Houses 2 and 5 are empty: the other four are drawn, each about a quarter of the time,
    and the same seed draws the same moves."""
    game = position("oware", [3, 0, 2, 1, 0, 4] + [4] * 6, [7, 7], to_move=0)
    draws = _seeded_draws(game.state, game.params, 7, 4000)
    counts = np.bincount(draws, minlength=6)
    assert counts[[1, 4]].tolist() == [0, 0]
    assert all(900 < counts[house] < 1100 for house in (0, 2, 3, 5))
    assert np.array_equal(_seeded_draws(game.state, game.params, 7, 4000), draws)


def test_greedy_takes_the_biggest_capture():
    """Only house 6 captures (pits 6 and 7 made two each: four seeds); greedy plays it."""
    pits = [1, 0, 0, 0, 1, 2] + [1, 1, 2, 5, 5, 5]
    game = position("oware", pits, [12, 13], to_move=0)
    states = np.stack([game.state] * 8)
    masks = np.stack([game.legal_mask()] * 8)
    actions = opponent_actions("greedy", states, game.params, masks, np.random.default_rng(0))
    assert actions.tolist() == [5] * 8


def test_greedy_breaks_ties_at_random_among_the_best():
    game = position("oware", [4] * 12, [0, 0], to_move=0)  # no move captures: all tie
    states = np.stack([game.state] * 400)
    masks = np.stack([game.legal_mask()] * 400)
    actions = opponent_actions("greedy", states, game.params, masks, np.random.default_rng(1))
    assert set(actions.tolist()) == set(range(6))


@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_opponents_play_only_legal_moves(kind):
    batch = BatchedGames("ayoyayo", 64, seed=2)
    batch.reset()
    rng = np.random.default_rng(2)
    for _ in range(200):
        actions = opponent_actions(
            kind, batch.states, batch.params, batch.masks, rng, batch.kernels
        )
        assert batch.masks[np.arange(64), actions].all()
        batch.step(actions)


def test_unknown_opponent_is_named():
    with pytest.raises(ValueError, match="built-in opponents: random, greedy"):
        opponent_actions("minimax", np.zeros((1, 1)), np.zeros(1), np.zeros((1, 1)), None)


def test_the_greedy_opponent_plays_a_batchs_rows_and_games_states_and_refuses_others():
    """A batch's rows are states as a Game holds them: the greedy opponent plays them with the
    batch's kernels or the shared ones alike, and refuses arrays of another shape (the compiled
    kernels do no bounds checks)."""
    batch = BatchedGames("ayoyayo", 4, seed=2)
    batch.reset()
    rng = np.random.default_rng(2)
    game_states = np.stack([batch.position(i) for i in range(4)])
    own = opponent_actions("greedy", batch.states, batch.params, batch.masks, rng, batch.kernels)
    shared = opponent_actions("greedy", game_states, batch.params, batch.masks, rng)
    assert (own >= 0).all() and (shared >= 0).all()
    for wrong in (batch.states[:, :93], batch.states[0]):
        with pytest.raises(ValueError, match=r"states of 297 slots"):
            opponent_actions("greedy", wrong, batch.params, batch.masks, rng, batch.kernels)
