"""Numbering the boards of an endgame database: a combinatorial number system.

A board of ``k`` seeds in the twelve pits is a composition of ``k`` into twelve parts. Such
boards are numbered ``0 .. C(k + 11, 11) - 1`` in lexicographic order of the pit counts (pit 0
most significant), so one table per seed count holds one entry per board, with no gaps:

    rank(a) = sum over pits i < 11 of  C(r_i + m_i - 1, m_i - 1) - C(r_i - a_i + m_i - 1, m_i - 1)

where ``r_i`` is the number of seeds in pits ``i..11`` and ``m_i = 12 - i`` the number of those
pits (the boards with the same pits before ``i`` and fewer seeds in pit ``i`` come first).
"""

import numpy as np
from numba import njit

from ..engine.layout import N_PITS

MAX_SEEDS = 48  # the most seeds any board of the Oware family holds


def _binomials(rows: int) -> np.ndarray:
    table = np.zeros((rows, N_PITS + 1), dtype=np.int64)
    for n in range(rows):
        table[n, 0] = 1
        for r in range(1, min(n, N_PITS) + 1):
            table[n, r] = table[n - 1, r - 1] + (table[n - 1, r] if r <= n - 1 else 0)
    return table


BINOMIAL = _binomials(MAX_SEEDS + N_PITS + 1)  # BINOMIAL[n, r] = C(n, r) for r <= 12


def level_size(seeds: int) -> int:
    """The number of boards holding exactly `seeds` seeds."""
    return int(BINOMIAL[seeds + N_PITS - 1, N_PITS - 1])


def total_size(max_seeds: int) -> int:
    """The number of boards holding at most `max_seeds` seeds."""
    return int(BINOMIAL[max_seeds + N_PITS, N_PITS])


@njit(cache=True)
def rank(board, seeds, binomial):
    """The number of the board `board` (12 counts summing to `seeds`) among its level's."""
    index = 0
    rest = seeds
    for pit in range(N_PITS - 1):
        parts = N_PITS - pit
        count = board[pit]
        index += (
            binomial[rest + parts - 1, parts - 1] - binomial[rest - count + parts - 1, parts - 1]
        )
        rest -= count
    return index


@njit(cache=True)
def unrank(index, seeds, binomial, board):
    """Write into `board` the board numbered `index` among those holding `seeds` seeds."""
    rest = seeds
    for pit in range(N_PITS - 1):
        parts = N_PITS - pit
        count = 0
        # boards of this prefix with `count` seeds here: C(rest - count + parts - 2, parts - 2)
        while True:
            block = binomial[rest - count + parts - 2, parts - 2]
            if index < block:
                break
            index -= block
            count += 1
        board[pit] = count
        rest -= count
    board[N_PITS - 1] = rest
