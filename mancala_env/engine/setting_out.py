"""Setting out the seeds before play (Mangala): one player fills the central holes, the other
accepts the position or turns the board round; or a given or random layout.

The seeds still to set out wait in the central hole being filled, so the board holds every seed
at every step. Action ``P_LIFT_ACTIONS + c`` leaves ``c`` of them in that hole and moves the
rest on to the next central hole; ``P_LIFT_ACTIONS + P_TOTAL_SEEDS + 1`` accepts the position
and ``... + 2`` turns the board round.
"""

from .board import house_pit, pit_count
from .capture import EXTRA_TURN
from .jit import njit
from .layout import (
    P_HOUSES,
    P_LIFT_ACTIONS,
    P_SETTING_OUT,
    P_SETTING_OUT_LAYOUT,
    P_SETTING_OUT_LEAST,
    P_SETTING_OUT_STARTER,
    P_TOTAL_SEEDS,
    PHASE,
    PHASE_CHOOSE,
    PHASE_PLAY,
    PHASE_SET_OUT,
    ROUND_STARTER,
    SETTING_OUT,
    SETTING_OUT_CENTRAL_CHOSEN,
    SETTING_OUT_CENTRAL_GIVEN,
    SETTING_OUT_CENTRAL_HOLES,
    SETTING_OUT_CHOICE,
    SETTING_OUT_CHOICE_ACCEPTED,
    SETTING_OUT_CHOICE_TURNED,
    SETTING_OUT_DISTRIBUTOR,
    SETTING_OUT_FILLED,
    SETTING_OUT_NONE,
    SETTING_OUT_STARTER_DISTRIBUTOR,
)


@njit(cache=True, _nrt=False)
def central_pit(distributor, i, params):
    """The `i`-th central hole in setting-out order: the distributor's houses 3 and 4, then
    the other player's houses 3 and 4."""
    player = distributor if i < 2 else 1 - distributor
    return house_pit(player, params[P_HOUSES] // 2 - 1 + i % 2, params)


LAYOUT_BITS = 8  # bits of a random start's seed for each drawn hole count (a count below 256)


@njit(cache=True, _nrt=False)
def layout_hole(seed, hole):
    """The count of central hole `hole` (0..2) that a random start's seed holds."""
    return (seed >> (LAYOUT_BITS * hole)) & ((1 << LAYOUT_BITS) - 1)


@njit(cache=True, _nrt=False)
def start_setting_out(state, params, first_player, seed):
    """Set out the board as P_SETTING_OUT says: the first step of a setting out by the players
    (`first_player` distributes), a given layout of the central holes, or the random layout
    `seed` holds (`starts.random_start_seeds`)."""
    setup = params[P_SETTING_OUT]
    if setup == SETTING_OUT_NONE:
        return
    state[: pit_count(params)] = 0
    if setup == SETTING_OUT_CENTRAL_CHOSEN:  # the seeds to set out wait in the next central hole
        state[PHASE] = PHASE_SET_OUT
        state[SETTING_OUT + SETTING_OUT_DISTRIBUTOR] = first_player
        state[central_pit(first_player, 0, params)] = params[P_TOTAL_SEEDS]
        return
    left = params[P_TOTAL_SEEDS]
    for i in range(SETTING_OUT_CENTRAL_HOLES - 1):
        count = (
            params[P_SETTING_OUT_LAYOUT + i]
            if setup == SETTING_OUT_CENTRAL_GIVEN
            else layout_hole(seed, i)
        )
        state[central_pit(0, i, params)] = count
        left -= count
    state[central_pit(0, SETTING_OUT_CENTRAL_HOLES - 1, params)] = left
    state[SETTING_OUT + SETTING_OUT_FILLED] = SETTING_OUT_CENTRAL_HOLES


@njit(cache=True, _nrt=False)
def set_out(state, choice, mover, params):
    """A setting-out action: `choice` seeds stay in the central hole being filled (the rest
    move on to the next one), or the other player's decision (accept, or turn the board
    round); EXTRA_TURN when `mover` acts next."""
    total = params[P_TOTAL_SEEDS]
    distributor = state[SETTING_OUT + SETTING_OUT_DISTRIBUTOR]
    if state[PHASE] == PHASE_SET_OUT:
        filled = state[SETTING_OUT + SETTING_OUT_FILLED]
        hole = central_pit(distributor, filled, params)
        state[central_pit(distributor, filled + 1, params)] += state[hole] - choice
        state[hole] = choice
        filled += 1
        if filled == SETTING_OUT_CENTRAL_HOLES - 1:  # the last hole keeps the seeds left
            filled += 1
            state[PHASE] = PHASE_CHOOSE
        state[SETTING_OUT + SETTING_OUT_FILLED] = filled
        return EXTRA_TURN if state[PHASE] == PHASE_SET_OUT else 0
    turned = choice == total + 2
    if turned:  # the board turned round: each row's seeds go to the other side
        houses = params[P_HOUSES]
        for pit in range(houses):
            kept = state[pit]
            state[pit] = state[pit + houses]
            state[pit + houses] = kept
    state[SETTING_OUT + SETTING_OUT_CHOICE] = (
        SETTING_OUT_CHOICE_TURNED if turned else SETTING_OUT_CHOICE_ACCEPTED
    )
    state[PHASE] = PHASE_PLAY
    starter = 1 - distributor
    if turned or params[P_SETTING_OUT_STARTER] == SETTING_OUT_STARTER_DISTRIBUTOR:
        starter = distributor
    state[ROUND_STARTER] = starter
    return EXTRA_TURN if starter == mover else 0


@njit(cache=True, _nrt=False)
def count_range(state, params):
    """The fewest and the most of the seeds left that may stay in the central hole being
    filled: each central hole gets at least P_SETTING_OUT_LEAST, so the holes after this one
    keep that many each."""
    filled = state[SETTING_OUT + SETTING_OUT_FILLED]
    left = state[central_pit(state[SETTING_OUT + SETTING_OUT_DISTRIBUTOR], filled, params)]
    least = params[P_SETTING_OUT_LEAST]
    most = min(left, params[P_TOTAL_SEEDS]) - least * (SETTING_OUT_CENTRAL_HOLES - 1 - filled)
    return least, most


@njit(cache=True, _nrt=False)
def setting_out_candidates(state, params, out):
    """Mark the setting-out actions allowed now (`out` is the whole action mask)."""
    lifts = params[P_LIFT_ACTIONS]
    if state[PHASE] == PHASE_SET_OUT:  # how many of the seeds left stay in this central hole
        least, most = count_range(state, params)
        for count in range(least, most + 1):
            out[lifts + count] = 1
    elif state[PHASE] == PHASE_CHOOSE:  # accept the position, or turn the board round
        out[lifts + params[P_TOTAL_SEEDS] + 1] = 1
        out[lifts + params[P_TOTAL_SEEDS] + 2] = 1


@njit(cache=True, _nrt=False)
def set_out_sampled(state, action, params, choices):
    """A search hint of the setting out: whether a search tries the setting-out action
    `action`. It keeps the even share of the seeds left and `choices` counts spread from the
    fewest to the most allowed (0: every count), as 71 counts a hole make a setting out too
    wide to search."""
    if choices <= 0:
        return True
    count = action - params[P_LIFT_ACTIONS]
    filled = state[SETTING_OUT + SETTING_OUT_FILLED]
    here = state[central_pit(state[SETTING_OUT + SETTING_OUT_DISTRIBUTOR], filled, params)]
    if count == here // (SETTING_OUT_CENTRAL_HOLES - filled):
        return True
    if choices == 1:
        return False
    least, most = count_range(state, params)
    span = most - least
    for i in range(choices):  # noqa: SIM110 (a loop compiles; any() over a generator may not)
        if count == least + (i * span + (choices - 1) // 2) // (choices - 1):
            return True
    return False
