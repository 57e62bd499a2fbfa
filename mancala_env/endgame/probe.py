"""Reading an endgame database from compiled code: the value of a game state's board, and of
each move from it.

A database's levels are handed to compiled code as a numba typed list (`levels`, one memory-
mapped array of values per seed count, index = seed count), with the binomial table of
`index.rank` and a scratch board of ``int64`` counts, one a pit of the rule set's board. Values
are in half seeds, from the view of the player to move, of the seeds on the board only (see
`kernels`).
"""

import numpy as np
from numba import types
from numba.typed import List

from ..engine.board import board_seeds
from ..engine.jit import njit
from ..engine.layout import OVER, STORE, TO_MOVE
from ..engine.turn import step
from .index import mover_board, rank

LEVEL = types.Array(types.uint8, 1, "C", readonly=True)  # a level's values, memory-mapped


def level_list(levels: list[np.ndarray]) -> List:
    """`levels` (each level's values, read-only) as the typed list compiled code reads; an
    empty list stands for no database."""
    typed = List.empty_list(LEVEL)
    for values in levels:
        typed.append(np.asarray(values))
    return typed


@njit(cache=True)
def board_half_seeds(state, params, levels, binomial, board):
    """The most half seeds the player to move in `state` wins from its board against best
    play; the board must hold fewer seeds than `levels` has levels. `board` is a scratch array
    of the board's length."""
    seeds = mover_board(state, params, board)
    return np.int64(levels[seeds][rank(board, seeds, binomial)])


@njit(cache=True)
def move_half_seeds(state, action, params, levels, binomial, child, board):
    """The half seeds the player to move in `state` wins by the legal `action`, against best
    play after it: those it captures (or the end rules give it) and those it then wins from
    the board. `params` are the database's rules (`rules.solving_params`); `child` is a
    scratch state."""
    mover = state[TO_MOVE]
    child[:] = state
    step(child, action, params)
    won = 2 * np.int64(child[STORE + mover] - state[STORE + mover])
    if child[OVER] == 0:
        theirs = board_half_seeds(child, params, levels, binomial, board)
        won += theirs if child[TO_MOVE] == mover else 2 * board_seeds(child, params) - theirs
    return won
