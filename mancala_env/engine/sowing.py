"""Lifting and sowing: the one sowing routine every rule set shares.

Its parameters cover the sowing rules of the sources: the direction, whether the mover's store
is part of the circuit (Pratt's variation of Ayoayo), which lifted pit a lap passes over (Oware's
twelve-seed rule, Pratt's 'the pit being played always remains empty'), single laps or relay laps
(Ayoayo, Tampoduo, Obridjie, Ncho), and fours taken by a pit's owner while seeds are sown
(Obridjie, Ncho). Closed pits are passed over.
"""

from numba import njit

from .capture import take
from .layout import (
    CLOSED,
    CONTINUE_OCCUPIED,
    N_HOUSES,
    N_PITS,
    OWNER,
    P_CONTINUE,
    P_DIRECTION,
    P_FOUR_ON_THE_WAY,
    P_MAX_LAPS,
    P_SKIP_ORIGIN,
    P_SOW_INTO_STORE,
    P_STOP_AT_FOUR,
    SKIP_LAP_ORIGIN,
    SKIP_MOVE_ORIGIN,
    STORE,
)

ENDLESS = -1  # returned by `sow` for a relay that never ends


@njit(cache=True)
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
def sow_lap(state, start, hand, mover, move_origin, params):
    """Sow `hand` seeds one by one after `start`; return the position of the last seed."""
    skip = params[P_SKIP_ORIGIN]
    fours_to_owner = params[P_FOUR_ON_THE_WAY] == 1
    pos = start
    while hand > 0:
        pos = next_position(state, pos, mover, params)
        if (skip == SKIP_MOVE_ORIGIN and pos == move_origin) or (
            skip == SKIP_LAP_ORIGIN and pos == start
        ):
            continue
        state[pos] += 1
        hand -= 1
        if fours_to_owner and hand > 0 and pos < N_PITS and state[pos] == 4:
            take(state, pos, state[OWNER + pos])
    return pos


@njit(cache=True)
def sow(state, pit, mover, params):
    """Lift `pit` and sow it, relaying as the rules say; return the last position or ENDLESS.

    A relay lap starts again from the pit the last seed fell into while that pit was not
    empty (and, with P_STOP_AT_FOUR, did not just become four). A relay still going after
    P_MAX_LAPS laps is circling for ever: the caller treats such a move as illegal.
    """
    relay = params[P_CONTINUE] == CONTINUE_OCCUPIED
    stop_at_four = params[P_STOP_AT_FOUR] == 1
    start = pit
    laps = 0
    while True:
        hand = state[start]
        state[start] = 0
        last = sow_lap(state, start, hand, mover, pit, params)
        laps += 1
        if not relay or last >= N_PITS:
            return last
        count = state[last]
        if count <= 1 or (stop_at_four and count == 4):
            return last
        if laps >= params[P_MAX_LAPS]:
            return ENDLESS
        start = last
