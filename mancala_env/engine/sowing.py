"""Lifting and sowing: the one sowing routine every rule set shares.

Its parameters cover the sowing rules of the sources: the direction, whether the mover's store
is part of the circuit (Pratt's variation of Ayoayo), which lifted pit a lap passes over (Oware's
twelve-seed rule, Pratt's 'the pit being played always remains empty'), single laps or relay laps
(Ayoayo, Tampoduo, Obridjie, Ncho; Mangala's relay on even counts), and fours taken while seeds
are sown (by a pit's owner in Obridjie and Ncho, by the mover from their own pits in J'erin).
Closed pits are passed over. A relay's last seed in a pregnant (uur) pit ends the turn, or
lifts the pit like any other, as P_UUR_RELAY says (Layli Goobalay).
"""

from numba import njit

from .board import take
from .capture import even_pair, even_pairs, in_final_pot
from .layout import (
    CAPTURE_EVEN_PAIRS,
    CLOSED,
    CONTINUE_EVEN,
    CONTINUE_NEVER,
    CONTINUE_OCCUPIED,
    CONTINUE_UNTIL_TAKEN,
    FOUR_ON_THE_WAY_NONE,
    FOUR_ON_THE_WAY_OWNER,
    N_HOUSES,
    N_PITS,
    OWNER,
    P_CAPTURE,
    P_CONTINUE,
    P_DIRECTION,
    P_FOUR_ON_THE_WAY,
    P_MAX_LAPS,
    P_SKIP_ORIGIN,
    P_SOW_INTO_STORE,
    P_STOP_AT_FOUR,
    P_UUR_RELAY,
    SKIP_LAP_ORIGIN,
    SKIP_MOVE_ORIGIN,
    STORE,
    UUR,
    UUR_RELAY_END,
)

ENDLESS = -1  # returned by `sow` for a relay that never ends


@njit(cache=True, inline="always")
def next_position(state, pos, mover, params):
    """The position after `pos` on the mover's sowing circuit (a pit, or the mover's store)."""
    direction = params[P_DIRECTION]
    into_store = params[P_SOW_INTO_STORE] == 1
    while True:
        if pos == STORE:
            pos = N_HOUSES
        elif pos == STORE + 1:
            pos = 0
        elif into_store and mover == 0 and pos == N_HOUSES - 1:
            pos = STORE
        elif into_store and mover == 1 and pos == N_PITS - 1:
            pos = STORE + 1
        else:
            pos = (pos + direction) % N_PITS
        if pos >= N_PITS or state[CLOSED + pos] == 0:
            return pos


@njit(cache=True)
def _take_four_on_the_way(state, pit, mover, rule, params):
    """A pit just made four by a seed that is not the last: its owner takes it (Obridjie,
    Ncho), or the mover does when it is one of their own pits (J'erin)."""
    if state[pit] != 4 or state[UUR + pit] != 0 or in_final_pot(state, params):
        return
    owner = state[OWNER + pit]
    if rule == FOUR_ON_THE_WAY_OWNER or owner == mover:
        take(state, pit, owner)


@njit(cache=True)
def sow_lap(state, start, hand, mover, move_origin, params):
    """Sow `hand` seeds one by one after `start`; return the position of the last seed."""
    skip = params[P_SKIP_ORIGIN]
    fours_on_the_way = params[P_FOUR_ON_THE_WAY]
    pos = start
    while hand > 0:
        pos = next_position(state, pos, mover, params)
        if (skip == SKIP_MOVE_ORIGIN and pos == move_origin) or (
            skip == SKIP_LAP_ORIGIN and pos == start
        ):
            continue
        state[pos] += 1
        hand -= 1
        if fours_on_the_way != FOUR_ON_THE_WAY_NONE and hand > 0 and pos < N_PITS:
            _take_four_on_the_way(state, pos, mover, fours_on_the_way, params)
    return pos


@njit(cache=True)
def sow(state, pit, mover, params):
    """Lift `pit` and sow it, relaying as the rules say; return the last position or ENDLESS."""
    hand = state[pit]
    state[pit] = 0
    return sow_hand(state, pit, hand, mover, params)


@njit(cache=True)
def sow_hand(state, origin, hand, mover, params):
    """Sow `hand` seeds after the lifted pit `origin`, relaying as P_CONTINUE says."""
    return sow_relay(state, origin, hand, mover, params, params[P_CONTINUE])


@njit(cache=True)
def sow_relay(state, origin, hand, mover, params, rule):
    """Sow `hand` seeds after the lifted pit `origin`, relaying by the rule `rule` (CONTINUE_*).

    A relay lap starts again from the pit the last seed fell into:
    - CONTINUE_OCCUPIED: while that pit was not empty (and, with P_STOP_AT_FOUR, did not just
      become four);
    - CONTINUE_EVEN: while the last seed made an even number there, unless the pit facing it
      is even too (an even pair, which the capture takes: the turn ends);
    - CONTINUE_UNTIL_TAKEN: until the last seed makes an even pair, whatever its count.
    With the even-pairs capture, the pairs a lap made are taken before the relay goes on.
    Returns the last position, or ENDLESS for a relay still going after P_MAX_LAPS laps: it
    circles for ever, and the caller treats such a move as illegal.
    """
    stop_at_four = params[P_STOP_AT_FOUR] == 1
    start = origin
    laps = 0
    while True:
        last = sow_lap(state, start, hand, mover, origin, params)
        laps += 1
        if rule == CONTINUE_NEVER or last >= N_PITS:
            return last
        count = state[last]
        if rule == CONTINUE_OCCUPIED and (count <= 1 or (stop_at_four and count == 4)):
            return last
        if rule in (CONTINUE_EVEN, CONTINUE_UNTIL_TAKEN):
            if even_pair(state, last) or (rule == CONTINUE_EVEN and count % 2 == 1):
                return last
            if params[P_CAPTURE] == CAPTURE_EVEN_PAIRS:
                even_pairs(state, mover)  # the other even pairs, before the next lap
        if state[UUR + last] != 0 and params[P_UUR_RELAY] == UUR_RELAY_END:
            return last  # a pregnant pit keeps its seeds for its owner
        if laps >= params[P_MAX_LAPS]:
            return ENDLESS
        start = last
        hand = state[start]
        state[start] = 0
