"""Endgame positions to play from: a board and a player to move, made a `Game`."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..engine import layout as L
from ..game import Game
from ..variants import RuleOptions, Variant
from ..variants.base import SOURCE_HOUSES


def position_game(variant: Variant, options: RuleOptions, pits: np.ndarray, to_move: int) -> Game:
    """A game of `variant` at the board `pits` with `to_move` to move; the seeds off the board
    are split as evenly as can be between the stores (player_1 holding the odd one), so no
    player has a majority yet."""
    game = Game(variant, options)
    pits = np.asarray(pits, dtype=np.int64)
    off_board = game.total_seeds - int(pits.sum())
    shape = (game.n_pits,)
    if pits.shape != shape or pits.min() < 0 or off_board < 0 or to_move not in (0, 1):
        raise ValueError(
            f"a position is {game.n_pits} pit counts of at most {game.total_seeds} seeds in all "
            f"and a player 0 or 1 to move, got {pits.tolist()} and {to_move!r}"
        )
    state = game.state
    state[L.PITS : L.PITS + game.n_pits] = pits
    state[L.STORE] = off_board // 2
    state[L.STORE + 1] = off_board - off_board // 2
    state[L.TO_MOVE] = to_move
    game.kernels.begin_turn(state, game.params)
    return game


def random_board(seeds: int, rng: np.random.Generator, pits: int = 2 * SOURCE_HOUSES) -> np.ndarray:
    """A board of `pits` pits and `seeds` seeds drawn uniformly from all such boards (stars
    and bars)."""
    bars = np.sort(rng.choice(seeds + pits - 1, pits - 1, replace=False))
    edges = np.concatenate(([-1], bars, [seeds + pits - 1]))
    return np.diff(edges) - 1


MAX_DRAWS = 100_000  # boards drawn in vain before a seed count is taken to offer no choice


def random_choices(
    variant: Variant,
    options: RuleOptions,
    seeds: int,
    rng: np.random.Generator,
    max_draws: int = MAX_DRAWS,
) -> Iterator[Game]:
    """Endless uniformly random positions of `seeds` seeds in which the player to move has a
    choice (two legal moves or more). ValueError when `max_draws` boards in a row offer none
    (in Oware, a board of two seeds never does)."""
    pits = 2 * int(variant.params(options)[L.P_HOUSES])
    draws = 0
    while draws < max_draws:
        board = random_board(seeds, rng, pits)
        game = position_game(variant, options, board, int(rng.integers(2)))
        draws += 1
        if not game.over and len(game.legal_actions()) >= 2:
            draws = 0
            yield game
    raise ValueError(
        f"no position of {seeds} seeds in {max_draws} random boards gives the player to move "
        "a choice of moves"
    )
