"""Random starts: one seed a game, drawn from the reset's generator, read by `turn.new_game`.

A rule set whose starting position is drawn at random (Mangala's `setting_out="random"`, a random
setting out of 10 Mighty Men's pieces) gets it from this one integer, so that a single game, a
batch of games (a seed per row) and the vectorised environments start the same way from the
same draws. For Mangala the seed holds the drawn counts of the first three central holes, one
byte each (`setting_out.layout_hole`); for the pieces it seeds the compiled generator of
`pieces.start_pieces`. Other rule sets ignore it.
"""

import numpy as np

from .layout import (
    P_PIECE_GAME,
    P_PIECE_SETTING_OUT,
    P_SETTING_OUT,
    P_SETTING_OUT_LEAST,
    P_TOTAL_SEEDS,
    PIECE_SETTING_OUT_RANDOM,
    SETTING_OUT_CENTRAL_HOLES,
    SETTING_OUT_CENTRAL_RANDOM,
)
from .pieces import SEED_BOUND
from .setting_out import LAYOUT_BITS


def _layout_seeds(least: int, cuts: np.ndarray) -> np.ndarray:
    """Seeds of layouts given by sorted cut points (one row per game) among s + 3 places:
    every way of sharing among the four central holes the s seeds left once each holds its
    `least` is a 3-subset of cuts."""
    edges = np.concatenate([np.full((len(cuts), 1), -1), cuts], axis=1)
    counts = np.diff(edges, axis=1) - 1 + least
    shifts = LAYOUT_BITS * np.arange(SETTING_OUT_CENTRAL_HOLES - 1)
    return (counts << shifts).sum(axis=1)


def has_random_start(params: np.ndarray) -> bool:
    """Whether the rule set `params` draws its starting position (`random_start_seeds`)."""
    pieces = params[P_PIECE_GAME] == 1 and params[P_PIECE_SETTING_OUT] == PIECE_SETTING_OUT_RANDOM
    return bool(params[P_SETTING_OUT] == SETTING_OUT_CENTRAL_RANDOM or pieces)


def random_start_seeds(params: np.ndarray, rng: np.random.Generator, n: int) -> np.ndarray:
    """A seed for each of `n` games of the rule set `params` (zeros where its start is fixed)."""
    if params[P_SETTING_OUT] == SETTING_OUT_CENTRAL_RANDOM:
        least = int(params[P_SETTING_OUT_LEAST])
        shared = int(params[P_TOTAL_SEEDS]) - least * SETTING_OUT_CENTRAL_HOLES
        places = shared + SETTING_OUT_CENTRAL_HOLES - 1
        if n == 1:  # the single game's draw (as the seeded games of earlier versions drew it)
            cuts = np.sort(rng.choice(places, size=SETTING_OUT_CENTRAL_HOLES - 1, replace=False))
            return _layout_seeds(least, cuts[None, :])
        order = np.argsort(rng.random((n, places)), axis=1)[:, : SETTING_OUT_CENTRAL_HOLES - 1]
        return _layout_seeds(least, np.sort(order, axis=1))
    if params[P_PIECE_GAME] == 1 and params[P_PIECE_SETTING_OUT] == PIECE_SETTING_OUT_RANDOM:
        if n == 1:
            return np.array([rng.integers(0, SEED_BOUND)], dtype=np.int64)
        return rng.integers(0, SEED_BOUND, size=n, dtype=np.int64)
    return np.zeros(n, dtype=np.int64)
