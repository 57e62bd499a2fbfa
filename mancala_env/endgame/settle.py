"""Settling one seed count (a level) of an endgame database: its values from the exits and
the edges `kernels.level_exits` found (no rules are played here, so one compiled copy serves
every rule set).

A pass works out ``value = max(exit, max over edges (2k - value(child)))`` for the boards of
the level. Two readings of play that takes no seed off the board for ever (`rules`):

- *chase*: each pass updates the values in place, starting from ``max(exit, k)`` (half the
  seeds each) for every board with an edge, until a pass changes nothing. After ``n`` passes
  each value is that of the game cut off ``n`` or more plies later with the chase value at the
  cut, which for ``n`` past the longest forced sequence within the level is the value of the
  endless game whose never-ending chases score ``k``.
- *stall*: pass ``n`` reads the values of pass ``n - 1`` only, starting from each board's
  stop: the values after ``n`` passes are exactly those of the boards with ``n`` plies left
  before the stall limit stops the game. The build stops after `stall_limit` passes (a board
  after a capture has the whole limit ahead), or sooner when a pass changes nothing (then no
  further pass would).
"""

import numpy as np
from numba import prange

from ..engine.jit import njit
from .kernels import CHUNK, NO_EXIT

BLOCK = 1024  # boards a thread settles in one go (`block_start` has one entry per block)
GROUP = 32  # consecutive boards that share an entry of `settle_level`'s table of changes


@njit(cache=True)
def chase_start(seeds, exits, edge_counts, values):
    """The chase reading's values before the first pass: the best exit, or half the seeds
    each where that is more and a move stays in the level."""
    for i in range(values.shape[0]):
        start = -1 if exits[i] == NO_EXIT else np.int64(exits[i])
        values[i] = max(start, seeds) if edge_counts[i] > 0 else start


@njit(cache=True, parallel=True)
def settle_level(seeds, exits, edge_counts, block_start, targets, values, previous, max_passes):
    """Settle the level: `values`, holding the values before the first pass, from the exits
    and the edges (see the module docstring). `previous` is empty for passes that update
    `values` in place (the chase reading), or an array of the level's length that a pass
    reads the values of the pass before from (the stall reading).

    The edges of board `i` are ``edge_counts[i]`` consecutive entries of ``targets[i //
    CHUNK]``, those of the boards of block `b` starting at ``block_start[b]`` there. Returns
    the passes made, or -1 if `max_passes` passes did not settle it, and how many boards the
    last pass changed.

    Each pass goes through the boards in order. A board none of whose children has changed
    since the board was last worked out would get the value it has, so it is skipped: every
    group of `GROUP` consecutive boards keeps the last pass in which one of them changed
    (`stamps`, modulo 256), and a board is worked out again only when a child's group changed
    in this pass or the one before (or 256 passes before that, which only costs the work). On
    one thread the passes and the values are those of working out every board every pass in
    order (on several, with passes in place, the blocks are worked out in parallel and a pass
    reads what the other threads have written so far, which changes the passes but not the
    settled values). After the first few passes few boards change, and a pass then reads the
    edges in order and a small table instead of the children's values all over the level.
    """
    count = values.shape[0]
    before = previous if previous.shape[0] > 0 else values
    before[:] = values
    blocks = block_start.shape[0]
    # every group counts as changed in pass 0, so the first pass works out every board
    stamps = np.zeros((count + GROUP - 1) // GROUP, np.uint8)
    last = 0
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
                if not stale and passes > 1:
                    at += edges
                    continue
                best = -1 if exits[i] == NO_EXIT else np.int64(exits[i])
                for edge in range(at, at + edges):
                    best = max(best, 2 * seeds - np.int64(before[chunk[edge]]))
                at += edges
                if best != values[i]:
                    values[i] = best
                    stamps[i // GROUP] = now
                    changed[block] += 1
        last = changed.sum()
        if last == 0:
            return passes, 0
        before[:] = values
    return -1, last
