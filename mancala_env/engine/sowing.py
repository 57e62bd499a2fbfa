"""Lifting and sowing: the one sowing routine every rule set shares.

Its parameters cover the sowing rules of the sources: the direction, whether the mover's store
is part of the circuit (Pratt's variation of Ayoayo), which lifted pit a lap passes over (Oware's
twelve-seed rule, Pratt's 'the pit being played always remains empty'), single laps or relay laps
(Ayoayo, Tampoduo, Obridjie, Ncho; Mangala's relay on even counts), and fours taken while seeds
are sown (by a pit's owner in Obridjie and Ncho, by the mover from their own pits in J'erin).
Closed pits are passed over. A relay's last seed in a pregnant (uur) pit ends the turn, or
lifts the pit like any other, as P_UUR_RELAY says (Layli Goobalay).

A relay is endless exactly when it comes back to a board and starting pit it has been at before:
the next lap depends on nothing else. `relay` finds such a repeat with Brent's cycle finding,
and one that never ends is known as such after at most a few times its cycle's length in laps.
Some endless relays take millions of laps to repeat, so a rule set may also bound a relay
(P_RELAY_LIMIT, the option `relay_limit`): one still going on after that many laps counts as
endless. The bound is chosen far above the longest relay that ends (`docs/relays.md`, measured
by `benchmarks/relay_lengths.py`); without it (0), the repeat alone decides.
"""

from .board import board_seeds, is_closed, is_pregnant, owner, take
from .capture import even_pair, even_pairs, in_final_pot
from .jit import njit
from .layout import (
    CAPTURE_EVEN_PAIRS,
    CONTINUE_EVEN,
    CONTINUE_NEVER,
    CONTINUE_OCCUPIED,
    CONTINUE_UNTIL_TAKEN,
    FOUR_ON_THE_WAY_NONE,
    FOUR_ON_THE_WAY_OWNER,
    MAX_PITS,
    P_CAPTURE,
    P_CONTINUE,
    P_DIRECTION,
    P_END_BOARD_AT_MOST,
    P_FOUR_ON_THE_WAY,
    P_HOUSES,
    P_LAST_FOUR_TO_TAKER,
    P_RELAY_LIMIT,
    P_SKIP_ORIGIN,
    P_SOW_INTO_STORE,
    P_STOP_AT_FOUR,
    P_UUR_RELAY,
    SKIP_LAP_ORIGIN,
    SKIP_MOVE_ORIGIN,
    STORE,
    UUR_RELAY_END,
)
from .scratch import stack_array

ENDLESS = -1  # returned by `sow` for a relay that never ends
SEEN_SLOTS = MAX_PITS + 1  # a relay's saved board and starting pit (`sow_relay`)


@njit(cache=True, _nrt=False, inline="always")
def next_position(state, pos, mover, params):
    """The position after `pos` on the mover's sowing circuit (a pit, or the mover's store)."""
    direction = params[P_DIRECTION]
    into_store = params[P_SOW_INTO_STORE] == 1
    houses = params[P_HOUSES]
    while True:
        if into_store and pos == STORE:
            pos = houses
        elif into_store and pos == STORE + 1:
            pos = 0
        elif into_store and mover == 0 and pos == houses - 1:
            pos = STORE
        elif into_store and mover == 1 and pos == 2 * houses - 1:
            pos = STORE + 1
        else:  # the next pit round the board, without a division (one on every seed sown)
            pos += direction
            if pos == 2 * houses:
                pos = 0
            elif pos < 0:
                pos = 2 * houses - 1
        if pos >= STORE or not is_closed(state, pos, params):
            return pos


@njit(cache=True, _nrt=False)
def _take_four_on_the_way(state, pit, mover, hand, params):
    """A pit just made four by a seed that is not the last (`hand` seeds are still to sow):
    its owner takes it (Obridjie, Ncho), or the mover does when it is one of their own pits
    (J'erin). Returns the player who took it, or -1."""
    if state[pit] != 4 or is_pregnant(state, pit, params) or in_final_pot(state, hand, params):
        return -1
    holder = owner(state, pit, params)
    if params[P_FOUR_ON_THE_WAY] == FOUR_ON_THE_WAY_OWNER or holder == mover:
        take(state, pit, holder)
        return holder
    return -1


@njit(cache=True, _nrt=False)
def _decides_the_rest(state, hand, params):
    """Whether the four just taken leaves so few seeds in play (board and hand) that its taker
    wins them all at once: Ncho's 'the player who wins the eleventh four also wins the last'."""
    return (
        params[P_LAST_FOUR_TO_TAKER] == 1
        and board_seeds(state, params) + hand <= params[P_END_BOARD_AT_MOST]
    )


@njit(cache=True, _nrt=False, inline="derived")
def sow_lap(state, start, hand, mover, move_origin, params):
    """Sow `hand` seeds one by one after `start`; return the position of the last seed.

    When a four taken on the way decides the rest of the seeds (`_decides_the_rest`), the
    seeds still in hand go to its taker's store and the sowing stops there: the position
    returned is that store, and the seeds left on the board go to the taker as the game ends.
    """
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
        if fours_on_the_way != FOUR_ON_THE_WAY_NONE and hand > 0 and pos < STORE:
            taker = _take_four_on_the_way(state, pos, mover, hand, params)
            if taker >= 0 and _decides_the_rest(state, hand, params):
                state[STORE + taker] += hand
                return STORE + taker
    return pos


@njit(cache=True, _nrt=False, inline="derived")
def sow(state, pit, mover, params):
    """Lift `pit` and sow it, relaying as the rules say; return the last position or ENDLESS."""
    hand = state[pit]
    state[pit] = 0
    return sow_hand(state, pit, hand, mover, params)


@njit(cache=True, _nrt=False, inline="derived")
def sow_hand(state, origin, hand, mover, params):
    """Sow `hand` seeds after the lifted pit `origin`, relaying as P_CONTINUE says."""
    if params[P_CONTINUE] == CONTINUE_NEVER:  # one lap (the rule sets without relays compile
        return sow_lap(state, origin, hand, mover, origin, params)  # no relay code)
    return sow_relay(state, origin, hand, mover, params, params[P_CONTINUE])


@njit(cache=True, _nrt=False)
def relay_goes_on(state, last, mover, params, rule):
    """Whether a lap that ended at `last` is followed by another, by the relay rule `rule`
    (CONTINUE_*); a lap from `last` follows:
    - CONTINUE_OCCUPIED: while that pit was not empty (and, with P_STOP_AT_FOUR, did not just
      become four);
    - CONTINUE_EVEN: while the last seed made an even number there, unless the pit facing it
      is even too (an even pair, which the capture takes: the turn ends);
    - CONTINUE_UNTIL_TAKEN: until the last seed makes an even pair, whatever its count.
    With the even-pairs capture, the pairs the lap made are taken before the relay goes on.
    """
    if rule == CONTINUE_NEVER or last >= STORE:
        return False
    count = state[last]
    if rule == CONTINUE_OCCUPIED and (count <= 1 or (params[P_STOP_AT_FOUR] == 1 and count == 4)):
        return False
    if rule in (CONTINUE_EVEN, CONTINUE_UNTIL_TAKEN):
        if even_pair(state, last, params) or (rule == CONTINUE_EVEN and count % 2 == 1):
            return False
        if params[P_CAPTURE] == CAPTURE_EVEN_PAIRS:
            even_pairs(state, mover, params)  # the other even pairs, before the next lap
    # a pregnant pit keeps its seeds for its owner, or is lifted like any other
    return not is_pregnant(state, last, params) or params[P_UUR_RELAY] != UUR_RELAY_END


@njit(cache=True, _nrt=False)
def relay_lap(state, start, origin, mover, params):
    """Lift `start` and sow its seeds as the next lap of a move begun at `origin`."""
    hand = state[start]
    state[start] = 0
    return sow_lap(state, start, hand, mover, origin, params)


@njit(cache=True, _nrt=False, inline="always")
def _same_lap(state, last, seen):
    """Whether the board and the pit the next lap starts from are those saved in `seen`."""
    if seen[MAX_PITS] != last:
        return False
    for pit in range(MAX_PITS):  # noqa: SIM110 - a loop, not a generator, in compiled code
        if state[pit] != seen[pit]:
            return False
    return True


@njit(cache=True, _nrt=False)
def sow_relay(state, origin, hand, mover, params, rule):
    """Sow `hand` seeds after the lifted pit `origin`, relaying by the rule `rule` (CONTINUE_*,
    see `relay_goes_on`). Returns the last position, or ENDLESS for a relay that circles for
    ever or outlasts the rule set's bound (the caller treats such a move as illegal)."""
    last, _, _ = relay(state, origin, hand, mover, params, rule, params[P_RELAY_LIMIT])
    return last


@njit(cache=True, _nrt=False)
def relay(state, origin, hand, mover, params, rule, limit):
    """`sow_relay` with the bound `limit` (laps; 0: none). Returns the last position or
    ENDLESS, the laps sown, and 1 when a repeat of board and starting pit was found (else 0:
    the relay ended, or reached `limit` laps still going on).

    The laps after the first are a function of (board, starting pit): Brent's cycle finding
    keeps one saved pair, renewed at laps 1, 2, 4, 8, ... and compared with every later one.
    """
    last = sow_lap(state, origin, hand, mover, origin, params)
    if not relay_goes_on(state, last, mover, params, rule):
        return last, 1, 0
    seen = stack_array(SEEN_SLOTS)
    power = 1
    since_saved = 0
    laps = 1
    while True:
        if laps == limit:
            return ENDLESS, laps, 0
        if since_saved == power - 1:  # Brent: save the pair, then look twice as far ahead
            for pit in range(MAX_PITS):
                seen[pit] = state[pit]
            seen[MAX_PITS] = last
            power *= 2
            since_saved = 0
        else:
            since_saved += 1
        last = relay_lap(state, last, origin, mover, params)
        laps += 1
        if not relay_goes_on(state, last, mover, params, rule):
            return last, laps, 0
        if _same_lap(state, last, seen):
            return ENDLESS, laps, 1
