"""What makes up a position: the slots of the state that decide the rest of the game, and a
64-bit hash of them for the search agents' transposition tables.

The slots are those of the blocks each mechanic declares `hashed` (`engine.mechanics`): left
out are the records of what happened (MOVE_NUMBER, LAST_ACTION, LAST_PIT, END_REASON) and what
is worked out from the rest (LEGAL, FEED_POSSIBLE). TURNS counts only as "has moved this round"
(the rules ask whether it is zero), which `position_key` hashes on its own.
"""

import numpy as np

from . import layout as L
from .jit import njit
from .mechanics import MECHANICS

# The hash reads LAST_CAPTURER straight after the special move's flags, where it has always
# read it: the slots' order decides which positions share a transposition table's entry, and
# so the moves a search tries first and the games it plays.
_READ_EARLY = ("LAST_CAPTURER",)


def _hashed_slots() -> list[int]:
    blocks = [b for m in MECHANICS for b in m.blocks if b.hashed]
    early = [b for b in blocks if b.name in _READ_EARLY]
    later = [b for b in blocks if b.name not in _READ_EARLY]
    after = next(i for i, b in enumerate(later) if b.name == "SPECIAL_USED") + 1
    ordered = later[:after] + early + later[after:]
    return [getattr(L, b.name) + i for b in ordered for i in range(b.size)]


POSITION_SLOTS = np.array(_hashed_slots(), dtype=np.int64)


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
