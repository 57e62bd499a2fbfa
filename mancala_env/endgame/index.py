"""Numbering the boards of an endgame database: a combinatorial number system.

A board of ``k`` seeds in ``p`` pits is a composition of ``k`` into ``p`` parts (``p = 12`` on
the sources' board, fewer under Oware's `houses` option). Such boards are numbered
``0 .. C(k + p - 1, p - 1) - 1`` in lexicographic order of the pit counts (pit 0 most
significant), so one table per seed count holds one entry per board, with no gaps:

    rank(a) = sum over i < p - 1 of  C(r_i + m_i - 1, m_i - 1) - C(r_i - a_i + m_i - 1, m_i - 1)

where ``r_i`` is the number of seeds in pits ``i..p-1`` and ``m_i = p - i`` the number of those
pits (the boards with the same pits before ``i`` and fewer seeds in pit ``i`` come first). The
compiled functions read ``p`` from the length of the board array they are given.
"""

import numpy as np

from ..engine.board import house_pit
from ..engine.jit import njit
from ..engine.layout import MAX_PITS, TO_MOVE

MAX_SEEDS = 96  # the most seeds a board of the Oware family holds (six houses of eight seeds)


def _binomials(rows: int) -> np.ndarray:
    table = np.zeros((rows, MAX_PITS + 1), dtype=np.int64)
    for n in range(rows):
        table[n, 0] = 1
        for r in range(1, min(n, MAX_PITS) + 1):
            table[n, r] = table[n - 1, r - 1] + (table[n - 1, r] if r <= n - 1 else 0)
    return table


BINOMIAL = _binomials(MAX_SEEDS + MAX_PITS + 1)  # BINOMIAL[n, r] = C(n, r) for r <= MAX_PITS


def level_size(seeds: int, pits: int) -> int:
    """The number of boards of `pits` pits holding exactly `seeds` seeds."""
    return int(BINOMIAL[seeds + pits - 1, pits - 1])


def total_size(max_seeds: int, pits: int) -> int:
    """The number of boards of `pits` pits holding at most `max_seeds` seeds."""
    return int(BINOMIAL[max_seeds + pits, pits])


@njit(cache=True)
def mover_board(state, params, board):
    """Write the board of `state` into `board` (one slot a pit) as a database stores it, seen
    from the player to move (their house 1 first); return the seeds on it."""
    mover = state[TO_MOVE]
    seeds = 0
    for pit in range(board.shape[0]):
        board[pit] = state[house_pit(mover, pit, params)]
        seeds += board[pit]
    return seeds


@njit(cache=True)
def rank(board, seeds, binomial):
    """The number of the board `board` (its pit counts, summing to `seeds`) among its level's."""
    pits = board.shape[0]
    index = 0
    rest = seeds
    for pit in range(pits - 1):
        parts = pits - pit
        count = board[pit]
        index += (
            binomial[rest + parts - 1, parts - 1] - binomial[rest - count + parts - 1, parts - 1]
        )
        rest -= count
    return index


@njit(cache=True)
def unrank(index, seeds, binomial, board):
    """Write into `board` the board numbered `index` among those of its length holding `seeds`
    seeds."""
    pits = board.shape[0]
    rest = seeds
    for pit in range(pits - 1):
        parts = pits - pit
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
    board[pits - 1] = rest
