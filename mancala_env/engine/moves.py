"""What an action means, which actions the sowing rules allow, and making a move.

Action numbers, seen from the mover's side:

- ``a < P_LIFT_ACTIONS`` lifts the ``a``-th pit counted in sowing order from the mover's
  house 1: pit ``a`` for player_0, pit ``N + a`` for player_1 (past ``N`` the count runs on into
  the opponent's row, for rule sets where houses change hands). The pit must be the mover's.
- From ``P_LIFT_ACTIONS`` on come the rule set's extra actions (a rule set has one kind):
  Ayoyayo's odu transfer (house ``h`` en bloc to the next house, then to the previous one), or
  J'erin's opening (the pits ``h`` and ``h + 1`` lifted together).
"""

import numpy as np
from numba import njit

from .capture import capture
from .layout import (
    CLOSED,
    N_HOUSES,
    N_PITS,
    OPENING_TWO_HOUSES,
    OWNER,
    P_LIFT_ACTIONS,
    P_MIN_LIFT,
    P_OPENING,
    P_SPECIAL_MOVE,
    SPECIAL_NONE,
    SPECIAL_TRANSFER_EITHER,
    SPECIAL_TRANSFER_FORWARD,
    SPECIAL_USED,
    TURNS,
    UUR,
)
from .sowing import ENDLESS, sow, sow_hand


@njit(cache=True)
def house_pit(player, house):
    """The pit of `player`'s house `house` (0-based, in sowing order from their house 1)."""
    return (player * N_HOUSES + house) % N_PITS


@njit(cache=True)
def _own_pit(state, pit, mover):
    """A pit the mover may lift from: theirs, open, and not a pregnant (uur) pit."""
    return state[OWNER + pit] == mover and state[CLOSED + pit] == 0 and state[UUR + pit] == 0


@njit(cache=True)
def _opening_turn(state, mover, params):
    return params[P_OPENING] == OPENING_TWO_HOUSES and state[TURNS + mover] == 0


@njit(cache=True)
def play(state, action, mover, params):
    """Make the move `action` of `mover` on `state`; return capture flags, or ENDLESS."""
    lifts = params[P_LIFT_ACTIONS]
    if action < lifts:
        last = sow(state, house_pit(mover, action), mover, params)
    elif params[P_OPENING] == OPENING_TWO_HOUSES:
        first = house_pit(mover, action - lifts)
        second = house_pit(mover, action - lifts + 1)
        hand = state[first] + state[second]
        state[first] = 0
        state[second] = 0
        last = sow_hand(state, second, hand, mover, params)
    else:
        house = (action - lifts) % N_HOUSES
        target = house + 1 if action - lifts < N_HOUSES else house - 1
        source = house_pit(mover, house)
        state[house_pit(mover, target)] += state[source]
        state[source] = 0
        state[SPECIAL_USED + mover] = 1
        return 0
    if last == ENDLESS:
        return ENDLESS
    return capture(state, last, mover, params)


@njit(cache=True)
def rule_candidates(state, mover, params, out):
    """Mark the actions the sowing and special-move rules allow, before feeding and relays."""
    out[:] = 0
    lifts = params[P_LIFT_ACTIONS]
    if _opening_turn(state, mover, params):
        for h in range(lifts - 1):
            first, second = house_pit(mover, h), house_pit(mover, h + 1)
            if (
                _own_pit(state, first, mover)
                and _own_pit(state, second, mover)
                and state[first] + state[second] > 0
            ):
                out[lifts + h] = 1
        return
    min_lift = max(params[P_MIN_LIFT], 1)
    if min_lift > 1:  # Ouri: single seeds move only when nothing bigger can
        biggest = 0
        for h in range(lifts):
            pit = house_pit(mover, h)
            if _own_pit(state, pit, mover):
                biggest = max(biggest, state[pit])
        if biggest < min_lift:
            min_lift = 1
    for h in range(lifts):
        pit = house_pit(mover, h)
        if _own_pit(state, pit, mover) and state[pit] >= min_lift:
            out[h] = 1
    special = params[P_SPECIAL_MOVE]
    if special != SPECIAL_NONE and state[SPECIAL_USED + mover] == 0:
        for h in range(N_HOUSES):
            if state[house_pit(mover, h)] > 0:
                if h + 1 < N_HOUSES:
                    out[lifts + h] = 1
                if special == SPECIAL_TRANSFER_EITHER and h > 0:
                    out[lifts + N_HOUSES + h] = 1


@njit(cache=True)
def lifted_pit(action, mover, params):
    """The pit an action empties first (the source house of a transfer)."""
    lifts = params[P_LIFT_ACTIONS]
    if action < lifts:
        return house_pit(mover, action)
    if params[P_OPENING] == OPENING_TWO_HOUSES:
        return house_pit(mover, action - lifts)
    return house_pit(mover, (action - lifts) % N_HOUSES)


def action_count(params: np.ndarray) -> int:
    """The size of a rule set's action space: its lifts, then its extra actions."""
    lifts = int(params[P_LIFT_ACTIONS])
    if params[P_SPECIAL_MOVE] == SPECIAL_TRANSFER_EITHER:
        return lifts + 2 * N_HOUSES
    if params[P_SPECIAL_MOVE] == SPECIAL_TRANSFER_FORWARD:
        return lifts + N_HOUSES
    if params[P_OPENING] == OPENING_TWO_HOUSES:
        return 2 * lifts - 1
    return lifts
