"""What an action means, which actions the sowing rules allow, and making a move.

Action numbers, seen from the mover's side:

- ``a < P_LIFT_ACTIONS`` lifts the ``a``-th pit counted in sowing order from the mover's
  house 1: pit ``a`` for player_0, pit ``N + a`` for player_1 (past ``N`` the count runs on into
  the opponent's row, for rule sets where houses change hands). The pit must be the mover's.
- From ``P_LIFT_ACTIONS`` on come the rule set's extra actions (a rule set has one kind):
  Ayoyayo's odu transfer (house ``h`` en bloc to the next house, then to the previous one), or
  J'erin's opening (the pits ``h`` and ``h + 1`` lifted together), or Mangala's setting out
  (see `setting_out`).
- A game of special pieces (10 Mighty Men) has the values of its decisions instead (see
  `pieces`).
"""

from .board import has_setting_out, house_pit, is_closed, is_pregnant, owner
from .capture import capture
from .jit import njit
from .layout import (
    CONTINUE_OCCUPIED,
    FIRST_TURN_RIGHTMOST,
    OPENING_NONE,
    OPENING_TWO_HOUSES,
    OPENING_TWO_HOUSES_ROUND_START,
    P_FIRST_TURN,
    P_HOUSES,
    P_LIFT_ACTIONS,
    P_MIN_LIFT,
    P_N_ACTIONS,
    P_OPENING,
    P_PIECE_GAME,
    P_SETTING_OUT,
    P_SPECIAL_MOVE,
    PHASE,
    PHASE_PLAY,
    SETTING_OUT_CENTRAL_CHOSEN,
    SPECIAL_NONE,
    SPECIAL_TRANSFER_EITHER,
    SPECIAL_USED,
    TURNS,
)
from .pieces import make_piece_move, piece_candidates
from .setting_out import set_out, setting_out_candidates
from .sowing import ENDLESS, sow, sow_hand, sow_relay


@njit(cache=True, _nrt=False)
def _own_pit(state, pit, mover, params):
    """A pit the mover may lift from: theirs, open, and not a pregnant (uur) pit."""
    return (
        owner(state, pit, params) == mover
        and not is_closed(state, pit, params)
        and not is_pregnant(state, pit, params)
    )


@njit(cache=True, _nrt=False)
def _opening_turn(state, mover, params):
    """Whether the mover must open with two houses: their first move of the round, or the
    round's first move, as P_OPENING says."""
    rule = params[P_OPENING]
    if rule == OPENING_TWO_HOUSES:
        return state[TURNS + mover] == 0
    return rule == OPENING_TWO_HOUSES_ROUND_START and state[TURNS] + state[TURNS + 1] == 0


@njit(cache=True, _nrt=False)
def _first_turn(state, mover, params):
    """Whether the mover plays their first turn under a first-turn rule (Mangala's)."""
    return params[P_FIRST_TURN] == FIRST_TURN_RIGHTMOST and state[TURNS + mover] == 0


@njit(cache=True, _nrt=False)
def make_move(state, action, mover, params):
    """Make the move `action` of `mover` on `state`; return capture flags, or ENDLESS."""
    if params[P_PIECE_GAME] == 1:
        return make_piece_move(state, action, mover, params)
    lifts = params[P_LIFT_ACTIONS]
    if has_setting_out(params) and state[PHASE] != PHASE_PLAY:
        return set_out(state, action - lifts, mover, params)
    if action < lifts and _first_turn(state, mover, params):
        pit = house_pit(mover, action, params)
        hand = state[pit]
        state[pit] = 0
        last = sow_relay(state, pit, hand, mover, params, CONTINUE_OCCUPIED)
        return ENDLESS if last == ENDLESS else 0  # nothing is captured in the opening turn
    if action < lifts:
        last = sow(state, house_pit(mover, action, params), mover, params)
    elif params[P_OPENING] != OPENING_NONE:
        first = house_pit(mover, action - lifts, params)
        second = house_pit(mover, action - lifts + 1, params)
        hand = state[first] + state[second]
        state[first] = 0
        state[second] = 0
        last = sow_hand(state, second, hand, mover, params)
    else:
        house = (action - lifts) % params[P_HOUSES]
        target = house + 1 if action - lifts < params[P_HOUSES] else house - 1
        source = house_pit(mover, house, params)
        state[house_pit(mover, target, params)] += state[source]
        state[source] = 0
        state[SPECIAL_USED + mover] = 1
        return 0
    if last == ENDLESS:
        return ENDLESS
    return capture(state, last, mover, params)


@njit(cache=True, _nrt=False, inline="derived")
def rule_candidates(state, mover, params, out):
    """Mark the actions the sowing and special-move rules allow, before feeding and relays."""
    for action in range(params[P_N_ACTIONS]):  # (a loop: numba's slice assignment is slower)
        out[action] = 0
    if params[P_PIECE_GAME] == 1:
        piece_candidates(state, mover, params, out)
        return
    lifts = params[P_LIFT_ACTIONS]
    if has_setting_out(params) and state[PHASE] != PHASE_PLAY:
        setting_out_candidates(state, params, out)
        return
    if _first_turn(state, mover, params):  # only the rightmost filled house (house 6 side)
        for h in range(lifts - 1, -1, -1):
            pit = house_pit(mover, h, params)
            if _own_pit(state, pit, mover, params) and state[pit] > 0:
                out[h] = 1
                return
        return
    if _opening_turn(state, mover, params):
        opened = False
        for h in range(lifts - 1):
            first, second = house_pit(mover, h, params), house_pit(mover, h + 1, params)
            if (
                _own_pit(state, first, mover, params)
                and _own_pit(state, second, mover, params)
                and state[first] > 0
                and state[second] > 0
            ):
                out[lifts + h] = 1
                opened = True
        if opened:  # a player without two adjoining houses holding seeds lifts one house
            return
    min_lift = max(params[P_MIN_LIFT], 1)
    if min_lift > 1:  # Ouri: single seeds move only when nothing bigger can
        biggest = 0
        for h in range(lifts):
            pit = house_pit(mover, h, params)
            if _own_pit(state, pit, mover, params):
                biggest = max(biggest, state[pit])
        if biggest < min_lift:
            min_lift = 1
    # Stored whatever it is: a branch on it is mispredicted about half the time, and without
    # one Oware's one-core random play ran a quarter faster in one run (9.8 against 7.9
    # million moves a second).
    for h in range(lifts):
        pit = house_pit(mover, h, params)
        out[h] = _own_pit(state, pit, mover, params) and state[pit] >= min_lift
    special = params[P_SPECIAL_MOVE]
    if special != SPECIAL_NONE and state[SPECIAL_USED + mover] == 0:
        for h in range(params[P_HOUSES]):
            if state[house_pit(mover, h, params)] > 0:
                if h + 1 < params[P_HOUSES]:
                    out[lifts + h] = 1
                if special == SPECIAL_TRANSFER_EITHER and h > 0:
                    out[lifts + params[P_HOUSES] + h] = 1


@njit(cache=True, _nrt=False)
def lifted_pit(action, mover, params):
    """The pit an action empties first (the source house of a transfer)."""
    lifts = params[P_LIFT_ACTIONS]
    if action < lifts:
        return house_pit(mover, action, params)
    if params[P_SETTING_OUT] == SETTING_OUT_CENTRAL_CHOSEN or params[P_PIECE_GAME] == 1:
        return -1  # a setting-out action, or a decision about special pieces, lifts nothing
    if params[P_OPENING] != OPENING_NONE:
        return house_pit(mover, action - lifts, params)
    return house_pit(mover, (action - lifts) % params[P_HOUSES], params)
