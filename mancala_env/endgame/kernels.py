"""Playing every move of one seed count (a level) of an endgame database, with the rule set's
own engine.

This module is derived for each rule set (`engine.compiler`, see `build.solver_kernels`): its
calls to `begin_turn` and `step` go to the rule set's own compiled copy of the engine, the
kernels a game of those rules runs, so relays, endless relays (not legal), captures made during
a relay and every end rule are the rules' own. Written as it is, it runs the shared engine.

Values are in half seeds, seen from the player to move, of the seeds on the board only: a
board of ``k`` seeds shares ``2k`` half seeds. Every board is stored from the mover's side (the
player to move is player_0; a board with player_1 to move is turned round by one row).

`level_exits` plays every legal move of every board. A move that takes seeds off the board, or
ends the game, leaves the level: its value is known from the levels below (or from the final
stores), and the best of them is the board's *exit*. A move that takes nothing leads to another
board of the level: an *edge*, which `settle.settle_level` works with. In the rule sets solved
here such a move always hands the turn over (`rules.unsolvable_reason` refuses the others).
Each board's *stop* is what it scores if play stops there: the final stores on a board where
the game is over, else the seeds on the mover's row, as a stall stop that gives each row to its
owner scores it.
"""

import numpy as np
from numba import prange

from ..engine.board import pit_count, row_seeds
from ..engine.jit import njit
from ..engine.layout import LEGAL, OVER, P_N_ACTIONS, STORE, TO_MOVE
from ..engine.turn import begin_turn, step
from .index import mover_board, rank, unrank

NO_EDGE = np.uint32(0xFFFFFFFF)  # an action that is illegal or leaves the level
NO_EXIT = np.uint8(255)  # a board all of whose moves stay in the level
CHUNKS = 256  # pieces of a call handed to the threads
CHUNK = 2048 * 1024  # boards whose moves are played in one call, their edges in one array


@njit(cache=True)
def _exits_of(state, child, seeds, lower, offsets, params, binomial, board, edges_row):
    """The best exit of the settled, canonical `state` (NO_EXIT if none); fills `edges_row`."""
    edges_row[:] = NO_EDGE
    if state[OVER] == 1:  # the game ends on this board: its value is the final store
        return 2 * state[STORE]
    best = -1
    for action in range(params[P_N_ACTIONS]):
        if state[LEGAL + action] == 0:
            continue
        child[:] = state
        step(child, action, params)
        if child[OVER] == 1:
            value = 2 * child[STORE]
        else:
            left = mover_board(child, params, board)
            mover = child[TO_MOVE]
            index = rank(board, left, binomial)
            if left == seeds:
                edges_row[action] = index
                continue
            theirs = lower[offsets[left] + index]
            value = 2 * child[STORE] + (theirs if mover == 0 else 2 * left - theirs)
        best = max(best, value)
    return NO_EXIT if best < 0 else best


@njit(cache=True, parallel=True)
def level_exits(seeds, first, lower, offsets, params, template, binomial, exits, edges, stops):
    """Exits, edges and stops of the boards ``first .. first + len(exits) - 1`` of level
    `seeds`.

    `lower[offsets[j] + i]` is the value of board `i` of level `j < seeds`; `template` is a
    settled game state of the rule set with player_0 to move and empty stores.
    """
    count = exits.shape[0]
    for chunk in prange(CHUNKS):
        state = template.copy()
        child = template.copy()
        board = np.zeros(pit_count(params), np.int64)
        for i in range(chunk * count // CHUNKS, (chunk + 1) * count // CHUNKS):
            unrank(first + i, seeds, binomial, board)
            state[:] = template
            for pit in range(pit_count(params)):
                state[pit] = board[pit]
            begin_turn(state, params)
            exits[i] = _exits_of(
                state, child, seeds, lower, offsets, params, binomial, board, edges[i]
            )
            stops[i] = exits[i] if state[OVER] == 1 else 2 * row_seeds(state, 0, params)
