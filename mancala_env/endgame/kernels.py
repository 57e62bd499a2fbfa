"""The compiled retrograde analysis of one seed count (a level) of an endgame database.

Values are in half seeds, seen from the player to move, of the seeds on the board only: a
board of ``k`` seeds shares ``2k`` half seeds. Every board is stored from the mover's side (the
player to move is player_0; a board with player_1 to move is turned round by one row).

A level is solved in two steps:

1. `level_exits` plays every legal move of every board with the engine's own `step`. A move
   that captures, or ends the game, leaves the level: its value is known from the levels below
   (or from the final stores), and the best of them is the board's *exit*. A move that captures
   nothing leads to another board of the level: an *edge*, kept for step 2.
2. `settle_level` iterates ``value = max(exit, max over edges (2k - value(child)))`` until
   nothing changes, starting from the chase value ``k`` (half the seeds each) for every board
   with an edge. After ``n`` passes each value is that of the game cut off ``n`` or more plies
   later with the chase value at the cut, which for ``n`` past the longest forced sequence
   within the level is the value of the endless game whose never-ending chases score ``k``:
   so the first pass that changes nothing has found it.

In the rule sets solved here a move that captures nothing always hands the turn over, so an
edge leads to the opponent's turn.
"""

import numpy as np
from numba import prange

from ..engine.board import pit_count
from ..engine.jit import njit
from ..engine.layout import LEGAL, OVER, P_N_ACTIONS, STORE, TO_MOVE
from ..engine.turn import begin_turn, step
from .index import mover_board, rank, unrank

NO_EDGE = np.uint32(0xFFFFFFFF)  # an action that is illegal or leaves the level
NO_EXIT = np.uint8(255)  # a board all of whose moves stay in the level
CHUNKS = 256  # pieces of a call handed to the threads
BLOCK = 1024  # boards a thread settles in one go (`block_start` has one entry per block)
CHUNK = 2048 * BLOCK  # boards whose moves are played in one call, their edges in one array
GROUP = 32  # consecutive boards that share an entry of `settle_level`'s table of changes


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
def level_exits(seeds, first, lower, offsets, params, template, binomial, exits, edges):
    """Exits and edges of the boards ``first .. first + len(exits) - 1`` of level `seeds`.

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


@njit(cache=True, parallel=True)
def settle_level(seeds, exits, edge_counts, block_start, targets, values, max_passes):
    """Solve the level: `values` from the exits and the edges (see the module docstring).

    The edges of board `i` are ``edge_counts[i]`` consecutive entries of ``targets[i //
    CHUNK]``, those of the boards of block `b` starting at ``block_start[b]`` there. Returns
    the passes made, or -1 if `max_passes` passes did not settle it.

    Each pass goes through the boards in order, updating them in place. A board none of whose
    children has changed since the board was last worked out would get the value it has, so it
    is skipped: every group of `GROUP` consecutive boards keeps the last pass in which one of
    them changed (`stamps`, modulo 256), and a board is worked out again only when a child's
    group changed in this pass or the one before (or 256 passes before that, which only costs
    the work). On one thread the passes and the values are those of working out every board
    every pass in order (on several, the blocks are worked out in parallel and a pass reads what
    the other threads have written so far, which changes the passes but not the settled
    values). After the first few passes few boards change, and a pass then reads the edges in
    order and a small table instead of the children's values all over the level.
    """
    count = values.shape[0]
    for i in range(count):
        start = -1 if exits[i] == NO_EXIT else np.int64(exits[i])
        values[i] = max(start, seeds) if edge_counts[i] > 0 else start
    blocks = block_start.shape[0]
    # every group counts as changed in pass 0, so the first pass works out every board
    stamps = np.zeros((count + GROUP - 1) // GROUP, np.uint8)
    for passes in range(1, max_passes + 1):
        now = np.uint8(passes & 255)
        changed = np.zeros(blocks, np.int64)
        for block in prange(blocks):
            at = block_start[block]
            chunk = targets[block * BLOCK // CHUNK]
            for i in range(block * BLOCK, min(count, (block + 1) * BLOCK)):
                edges = np.int64(edge_counts[i])
                stale = False
                for edge in range(at, at + edges):
                    # passes since the child's group last changed: 0 (this one) or 1
                    if (passes - np.int64(stamps[chunk[edge] // GROUP])) & 255 <= 1:
                        stale = True
                        break
                if not stale:
                    at += edges
                    continue
                best = -1 if exits[i] == NO_EXIT else np.int64(exits[i])
                for edge in range(at, at + edges):
                    best = max(best, 2 * seeds - np.int64(values[chunk[edge]]))
                at += edges
                if best != values[i]:
                    values[i] = best
                    stamps[i // GROUP] = now
                    changed[block] += 1
        if changed.sum() == 0:
            return passes
    return -1
