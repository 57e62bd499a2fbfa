"""The built-in opponents: random plays legal moves uniformly, greedy takes the most seeds."""

import numpy as np
import pytest
from rules.positions import position

from mancala_env.batch import BatchedGames
from mancala_env.opponents import opponent_actions


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
        actions = opponent_actions(kind, batch.states, batch.params, batch.masks, rng)
        assert batch.masks[np.arange(64), actions].all()
        batch.step(actions)


def test_unknown_opponent_is_named():
    with pytest.raises(ValueError, match="built-in opponents: random, greedy"):
        opponent_actions("minimax", np.zeros((1, 1)), np.zeros(1), np.zeros((1, 1)), None)
