"""What makes up a position: the slots of the state that decide the rest of the game, and a
64-bit hash of them for the search agents' transposition tables.

Left out are the records of what happened (MOVE_NUMBER, LAST_ACTION, LAST_PIT, END_REASON) and
what is worked out from the rest (LEGAL, FEED_POSSIBLE). TURNS counts only as "has moved this
round" (the rules ask whether it is zero). A slot added to the state that affects play belongs
here too.
"""

import numpy as np

from . import layout as L
from .jit import njit

POSITION_SLOTS = np.array(
    list(range(L.PITS, L.STORE + 2))
    + [L.TO_MOVE, L.OVER, L.STALL_PLIES, L.SPECIAL_USED, L.SPECIAL_USED + 1, L.LAST_CAPTURER]
    + list(range(L.OWNER, L.OWNER + L.MAX_PITS))
    + list(range(L.CLOSED, L.CLOSED + L.MAX_PITS))
    + [L.PHASE, L.ROUND, L.ROUNDS_WON, L.ROUNDS_WON + 1, L.ROUND_STARTER]
    + [L.ROUND_START_STORE, L.ROUND_START_STORE + 1, L.ROUND_OVER]
    + list(range(L.UUR, L.UUR + L.MAX_PITS))
    + list(range(L.SETTING_OUT, L.SETTING_OUT + 8))
    + [L.WINNER]
    + list(range(L.BOARD_LOW, L.STATE_SIZE)),  # special pieces and a move of them under way
    dtype=np.int64,
)


@njit(cache=True, _nrt=False)
def _mix(h):
    h ^= h >> np.uint64(31)
    h *= np.uint64(0x7FB5D329728EA185)
    h ^= h >> np.uint64(27)
    h *= np.uint64(0x81DADEF4BC2DD44D)
    h ^= h >> np.uint64(33)
    return h


@njit(cache=True, _nrt=False)
def position_key(state):
    """A 64-bit hash of the slots of `state` that matter for the rest of the game."""
    h = np.uint64(0x9E3779B97F4A7C15)
    for i in range(POSITION_SLOTS.shape[0]):
        value = np.uint64(np.int64(state[POSITION_SLOTS[i]]) & 0xFFFFFFFF)
        h = _mix(h ^ value ^ (np.uint64(i) << np.uint64(40)))
    for player in range(2):
        moved = np.uint64(1 if state[L.TURNS + player] > 0 else 0)
        h = _mix(h ^ moved ^ (np.uint64(200 + player) << np.uint64(40)))
    return h
