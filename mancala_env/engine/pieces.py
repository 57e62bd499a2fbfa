"""10 Mighty Men: special pieces that keep their identity, sown among the regular seeds.

The pit counts (``state[pit]``) count every piece, special or regular; each special piece has a
slot that says what it is (``PIECE_KIND``) and where it is (``PIECE_AT``: a pit, a store, the
mover's hand while a move is under way). A move is a lift followed by the decisions its pieces
ask for, each an action ``P_LIFT_ACTIONS + v`` of the same player:

1. lift: a house of the mover's row; every special piece in it is in hand;
2. ``drop``: for each special piece in hand (in slot order), ``v`` = its place in the sowing
   (0 is the first piece sown); under the calm rules the first Trickster is sown first;
3. ``shift``: a Hunter (on) or Trickster (back) dropped with power moves ``v`` further pits,
   ``v`` up to the other pieces lifted with it (and less than a round of the board);
4. the sowing: a single lap past the emptied pit and the poisoned ones; the Hunter's and the
   Trickster's moves happen as they fall; a Wise Mother in the pit left or reached cancels them;
5. the powers, in the order the pieces fell (Maher: every piece sown; calm: the last only):
   Chieftain (``borrow``: ``v`` = the KIND_* he takes from an adjoining pit, asked when there
   is more than one), Farmer (the arc), Shepherd (``flock_count``: ``v`` pieces in his
   preceding pit, then in his own, the rest in the following pit; ``flock_piece``: ``v`` = 0,
   1, 2, which of the three pits each special piece among them goes to), Witch Doctor, Spy;
6. the capture of the pit opposite an empty pit of the mover's row that the last piece fell
   into, unless a Warrior guards it, or it takes the opponent's last pieces while another lift
   would not have.

A decision with a single choice is taken by the engine. Setting out (``place``, then ``side``):
one player puts each special piece in a pit (``v`` = the pit counted from their house 1), the
other keeps the board (``v`` = 0) or turns it round (``v`` = 1), and the first then moves first.
The rule page, docs/variants/mighty_men.md, gives the reason for every reading.
"""

import numpy as np

from .board import facing_pit, house_pit, owner, pit_count, row_seeds
from .capture import CAPTURED, EXTRA_TURN
from .jit import njit
from .layout import (
    AT_HAND,
    AT_NOWHERE,
    AT_STORE,
    CLOSED,
    KIND_ASSASSIN,
    KIND_CHIEFTAIN,
    KIND_FARMER,
    KIND_HUNTER,
    KIND_SHEPHERD,
    KIND_SPY,
    KIND_TRICKSTER,
    KIND_WARRIOR,
    KIND_WISE_MOTHER,
    KIND_WITCH_DOCTOR,
    LAST_CAPTURER,
    MAX_PIECES,
    MOVE,
    MOVE_CAPTURES,
    MOVE_FLOCK,
    MOVE_FLOCK_COUNTS,
    MOVE_HAND,
    MOVE_LAST_PIECE,
    MOVE_LAST_PIT,
    MOVE_ORIGIN,
    MOVE_PIECE,
    MOVE_RESOLVED,
    MOVE_SLAM_ALLOWED,
    MOVE_STAMP,
    P_CAPTURE_LAST_SEED,
    P_HOUSES,
    P_LIFT_ACTIONS,
    P_PIECE_KIND,
    P_PIECE_PIT,
    P_PIECE_RULES,
    P_PIECE_SETTING_OUT,
    P_PIECE_UNSOWN,
    P_PIECES,
    PHASE,
    PHASE_BORROW,
    PHASE_DROP,
    PHASE_FLOCK_COUNT,
    PHASE_FLOCK_PIECE,
    PHASE_PLACE,
    PHASE_PLAY,
    PHASE_SHIFT,
    PHASE_SIDE,
    PIECE_ACTS,
    PIECE_AS,
    PIECE_AT,
    PIECE_DROP,
    PIECE_FLOCK_FROM,
    PIECE_FOUND,
    PIECE_KIND,
    PIECE_RULES_CALM,
    PIECE_SETTING_OUT_GIVEN,
    PIECE_SETTING_OUT_PLAYERS,
    PIECE_SHIFT,
    PIECE_SINCE,
    PIECE_UNSOWN_STANDING,
    PIECES_PER_PIT,
    ROUND_STARTER,
    SETTING_OUT,
    SETTING_OUT_CHOICE,
    SETTING_OUT_DISTRIBUTOR,
    STATE_SIZE,
    STORE,
)
from .scratch import copy_into, stack_array
from .sowing import sow

VALUES = 49  # a decision's choices: actions P_LIFT_ACTIONS + v, v = 0..48 (0..every seed)
FARMER_ARC = 5  # the most pits of the Farmer's arc (`farmer_arc`)
SEED_BOUND = 2**31 - 1  # seeds of the random setting out are drawn from 0..SEED_BOUND - 1
SHIFT_UNDECIDED = -1


# ---- reading the pieces -----------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def acting_kind(state, i):
    """The kind piece `i` counts as this play: a Chieftain's borrowed kind, else its own."""
    borrowed = state[PIECE_AS + i]
    return borrowed if borrowed != 0 else state[PIECE_KIND + i]


@njit(cache=True, _nrt=False)
def pieces_at(state, place):
    """Special pieces at `place` (a pit, a store, the hand)."""
    count = 0
    for i in range(MAX_PIECES):
        if state[PIECE_KIND + i] != 0 and state[PIECE_AT + i] == place:
            count += 1
    return count


@njit(cache=True, _nrt=False)
def _standing_power_holds(state, i, params):
    """Whether the power of piece `i` that answers other pieces' actions (the Wise Mother's, the
    Assassin's) holds now: always, unless Gering's 'only if he is the last piece sown' is read
    strictly (P_PIECE_UNSOWN), when only the last piece sown in the move under way has it."""
    if params[P_PIECE_RULES] != PIECE_RULES_CALM or params[P_PIECE_UNSOWN] == PIECE_UNSOWN_STANDING:
        return True
    return state[MOVE + MOVE_RESOLVED] >= 0 and state[MOVE + MOVE_LAST_PIECE] == i


@njit(cache=True, _nrt=False)
def _shields(state, i, params):
    """Whether piece `i` counts as a Wise Mother with her power: she cancels special actions
    that would change her pit's count."""
    return acting_kind(state, i) == KIND_WISE_MOTHER and _standing_power_holds(state, i, params)


@njit(cache=True, _nrt=False)
def _shielded(state, pit, params):
    """Whether a Wise Mother with her power is in `pit`."""
    for i in range(MAX_PIECES):
        if state[PIECE_KIND + i] != 0 and state[PIECE_AT + i] == pit and _shields(state, i, params):
            return True
    return False


@njit(cache=True, _nrt=False)
def _in_hand(state, undecided_slot):
    """The first piece in hand whose `undecided_slot` value is unset (-1), or -1."""
    for i in range(MAX_PIECES):
        at_hand = state[PIECE_KIND + i] != 0 and state[PIECE_AT + i] == AT_HAND
        if at_hand and state[undecided_slot + i] == -1:
            return i
    return -1


@njit(cache=True, _nrt=False)
def _dropped_at(state, place):
    """The piece sown at `place` in the sowing under way, or -1 for a regular piece."""
    for i in range(MAX_PIECES):
        if state[PIECE_KIND + i] != 0 and state[PIECE_DROP + i] == place:
            return i
    return -1


@njit(cache=True, _nrt=False)
def _set_down(state, i, pit):
    """Put piece `i` in `pit`, stamped as the newest arrival there (the Spy asks who came first)."""
    state[PIECE_AT + i] = pit
    state[MOVE + MOVE_STAMP] += 1
    state[PIECE_SINCE + i] = state[MOVE + MOVE_STAMP]


# ---- the board's geometry ---------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def open_step(state, pit, direction, passed_over, params):
    """The next open pit from `pit` going `direction` (+1 on, -1 back), passing over the
    poisoned pits and `passed_over` (the emptied pit of the sowing, -1 for none)."""
    pits = pit_count(params)
    for _ in range(pits):
        pit = (pit + direction) % pits
        if state[CLOSED + pit] == 0 and pit != passed_over:
            return pit
    return pit


@njit(cache=True, _nrt=False)
def _open_pits(state, passed_over, params):
    count = 0
    for pit in range(pit_count(params)):
        if state[CLOSED + pit] == 0 and pit != passed_over:
            count += 1
    return count


@njit(cache=True, _nrt=False)
def farmer_arc(state, pit, out, params):
    """The pits of the Farmer's arc around `pit`, in order, into `out`; returns how many.

    Following pit, the pit across from it, the two next on that side (across from `pit` and
    from the preceding pit), then the preceding pit. At the end of a row the pits past it and
    across from them are left out (the arc is shortened), and so are poisoned pits."""
    house = pit % params[P_HOUSES]
    following = pit + 1 if house < params[P_HOUSES] - 1 else -1
    preceding = pit - 1 if house > 0 else -1
    arc = (
        following,
        facing_pit(following, params) if following >= 0 else -1,
        facing_pit(pit, params),
        facing_pit(preceding, params) if preceding >= 0 else -1,
        preceding,
    )
    n = 0
    for target in arc:
        if target >= 0 and state[CLOSED + target] == 0:
            out[n] = target
            n += 1
    return n


# ---- setting out ------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def _draw(seed):
    """The next value of a 31-bit linear congruential generator (the random setting out)."""
    return (seed * 1103515245 + 12345) & 0x7FFFFFFF


@njit(cache=True, _nrt=False)
def start_pieces(state, params, first_player, seed):
    """Give each slot its piece and set the pieces out as P_PIECE_SETTING_OUT says."""
    for i in range(MAX_PIECES):
        state[PIECE_KIND + i] = params[P_PIECE_KIND + i] if i < params[P_PIECES] else 0
        state[PIECE_AT + i] = AT_NOWHERE
        state[PIECE_DROP + i] = -1
        state[PIECE_FLOCK_FROM + i] = -1
    state[MOVE + MOVE_RESOLVED] = -1
    state[MOVE + MOVE_FLOCK] = -1
    setup = params[P_PIECE_SETTING_OUT]
    for i in range(params[P_PIECES]):
        if setup == PIECE_SETTING_OUT_PLAYERS:
            state[PIECE_AT + i] = AT_HAND
        elif setup == PIECE_SETTING_OUT_GIVEN:
            _set_down(state, i, params[P_PIECE_PIT + i])
        else:  # PIECE_SETTING_OUT_RANDOM: any pit with room, each equally likely
            seed = _draw(seed)
            room = 0
            for pit in range(pit_count(params)):
                if pieces_at(state, pit) < PIECES_PER_PIT:
                    room += 1
            choice = (seed >> 8) % room
            for pit in range(pit_count(params)):
                if pieces_at(state, pit) < PIECES_PER_PIT:
                    if choice == 0:
                        _set_down(state, i, pit)
                        break
                    choice -= 1
    if setup == PIECE_SETTING_OUT_PLAYERS and params[P_PIECES] > 0:
        state[PHASE] = PHASE_PLACE
        state[SETTING_OUT + SETTING_OUT_DISTRIBUTOR] = first_player
        state[MOVE + MOVE_PIECE] = 0


@njit(cache=True, _nrt=False)
def _place(state, v, mover, params):
    """The placing player puts the next piece in their pit `v` (counted from their house 1)."""
    _set_down(state, state[MOVE + MOVE_PIECE], house_pit(mover, v, params))
    nxt = _in_hand_any(state)
    if nxt >= 0:
        state[MOVE + MOVE_PIECE] = nxt
        return EXTRA_TURN
    state[PHASE] = PHASE_SIDE
    return 0  # the other player chooses a side


@njit(cache=True, _nrt=False)
def _in_hand_any(state):
    for i in range(MAX_PIECES):
        if state[PIECE_KIND + i] != 0 and state[PIECE_AT + i] == AT_HAND:
            return i
    return -1


@njit(cache=True, _nrt=False)
def _choose_side(state, v, params):
    """The other player keeps the board (0) or turns it round (1); the placer moves first."""
    if v == 1:
        for i in range(MAX_PIECES):
            at = state[PIECE_AT + i]
            if state[PIECE_KIND + i] != 0 and 0 <= at < pit_count(params):
                state[PIECE_AT + i] = (at + params[P_HOUSES]) % pit_count(params)
    state[PHASE] = PHASE_PLAY
    state[ROUND_STARTER] = state[SETTING_OUT + SETTING_OUT_DISTRIBUTOR]
    state[SETTING_OUT + SETTING_OUT_CHOICE] = 1 + v  # 1: the board kept, 2: turned round
    return 0  # the placer, the other player, moves first


# ---- a move: the lift ---------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def _plain_capture_takes_all(state, origin, mover, params, scratch):
    """Whether lifting `origin` and sowing it plainly (the shared single-lap sowing, the powers
    aside) ends in a capture of every piece left on the opponent's row."""
    copy_into(scratch, state)
    last = sow(scratch, origin, mover, params)
    facing = facing_pit(last, params)
    if owner(scratch, last, params) != mover or scratch[last] != 1 or scratch[facing] == 0:
        return False
    return scratch[facing] == row_seeds(scratch, 1 - mover, params)


@njit(cache=True, _nrt=False)
def _every_lift_takes_all(state, mover, params):
    """Whether each lift the mover has would take the opponent's last pieces."""
    scratch = stack_array(STATE_SIZE)
    for house in range(params[P_HOUSES]):
        pit = house_pit(mover, house, params)
        liftable = state[CLOSED + pit] == 0 and state[pit] > 0
        if liftable and not _plain_capture_takes_all(state, pit, mover, params, scratch):
            return False
    return True


@njit(cache=True, _nrt=False)
def _lift(state, house, mover, params):
    origin = house_pit(mover, house, params)
    state[MOVE + MOVE_SLAM_ALLOWED] = 1 if _every_lift_takes_all(state, mover, params) else 0
    state[MOVE + MOVE_ORIGIN] = origin
    state[MOVE + MOVE_HAND] = state[origin]
    state[MOVE + MOVE_RESOLVED] = -1
    state[MOVE + MOVE_FLOCK] = -1
    state[origin] = 0
    first_trickster = params[P_PIECE_RULES] == PIECE_RULES_CALM
    for i in range(MAX_PIECES):
        state[PIECE_DROP + i] = -1
        state[PIECE_SHIFT + i] = 0
        if state[PIECE_KIND + i] != 0 and state[PIECE_AT + i] == origin:
            state[PIECE_AT + i] = AT_HAND
            if first_trickster and state[PIECE_KIND + i] == KIND_TRICKSTER:
                _choose_drop(state, i, 0, params)  # the calm rules: a Trickster is sown first
                first_trickster = False


@njit(cache=True, _nrt=False)
def _choose_drop(state, i, place, params):
    """Piece `i` falls at `place` in the sowing; a Hunter or Trickster with power will move."""
    state[PIECE_DROP + i] = place
    kind = state[PIECE_KIND + i]
    calm = params[P_PIECE_RULES] == PIECE_RULES_CALM
    last = place == state[MOVE + MOVE_HAND] - 1
    if (kind == KIND_HUNTER and (last or not calm)) or (
        kind == KIND_TRICKSTER and (place == 0 or not calm)
    ):
        state[PIECE_SHIFT + i] = SHIFT_UNDECIDED


@njit(cache=True, _nrt=False)
def _longest_shift(state, params):
    """The furthest the Hunter or Trickster in hand may move: the other pieces lifted with it,
    and less than once round the open pits."""
    return min(
        state[MOVE + MOVE_HAND] - 1, _open_pits(state, state[MOVE + MOVE_ORIGIN], params) - 1
    )


# ---- a move: the sowing -------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def _power_when_sown(kind):
    """The kind whose power a piece sown with power resolves after the sowing (0: none; the
    Hunter and Trickster act while sown, the others guard or wait to be captured)."""
    if kind in (KIND_FARMER, KIND_SHEPHERD, KIND_WITCH_DOCTOR, KIND_SPY, KIND_CHIEFTAIN):
        return kind
    return 0


@njit(cache=True, _nrt=False)
def _sow(state, mover, params):
    origin = state[MOVE + MOVE_ORIGIN]
    hand = state[MOVE + MOVE_HAND]
    calm = params[P_PIECE_RULES] == PIECE_RULES_CALM
    pit = origin
    for place in range(hand):
        pit = open_step(state, pit, 1, origin, params)
        target = pit
        i = _dropped_at(state, place)
        if i >= 0:
            distance = state[PIECE_SHIFT + i]
            if distance > 0:
                direction = -1 if state[PIECE_KIND + i] == KIND_TRICKSTER else 1
                reached = pit
                for _ in range(distance):
                    reached = open_step(state, reached, direction, origin, params)
                if not (_shielded(state, pit, params) or _shielded(state, reached, params)):
                    target = reached
            state[PIECE_FOUND + i] = state[target]
            _set_down(state, i, target)
            if not calm or place == hand - 1:
                state[PIECE_ACTS + i] = _power_when_sown(state[PIECE_KIND + i])
        if place == hand - 1:
            state[MOVE + MOVE_LAST_PIT] = target
            state[MOVE + MOVE_LAST_PIECE] = i
            empty_own = state[target] == 0 and owner(state, target, params) == mover
            state[MOVE + MOVE_CAPTURES] = 1 if empty_own else 0
        state[target] += 1
    state[MOVE + MOVE_RESOLVED] = 0


# ---- a move: the powers -----------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def _borrowable(state, i, params):
    """Bit k set: a Mighty Man of kind k is in a pit adjoining the Chieftain `i` and he may take
    its power (the Hunter's and Trickster's powers belong to the sowing, which is over)."""
    pit = state[PIECE_AT + i]
    kinds = 0
    for side in (-1, 1):
        neighbour = open_step(state, pit, side, -1, params)
        for j in range(MAX_PIECES):
            if j != i and state[PIECE_KIND + j] != 0 and state[PIECE_AT + j] == neighbour:
                kind = state[PIECE_KIND + j]
                if kind not in (KIND_CHIEFTAIN, KIND_HUNTER, KIND_TRICKSTER):
                    kinds |= 1 << kind
    return kinds


@njit(cache=True, _nrt=False)
def _borrow(state, i, kind):
    state[PIECE_AS + i] = kind
    state[PIECE_ACTS + i] = _power_when_sown(kind)


@njit(cache=True, _nrt=False)
def _farm(state, i, params):
    """The Farmer dropped into an occupied pit spreads its regular pieces over the arc."""
    if state[PIECE_FOUND + i] == 0:
        return
    pit = state[PIECE_AT + i]
    arc = stack_array(FARMER_ARC)
    n = farmer_arc(state, pit, arc, params)
    spread = min(state[pit] - pieces_at(state, pit), n)
    if spread == 0 or _shielded(state, pit, params):
        return
    for k in range(spread):
        if _shielded(state, arc[k], params):
            return  # she cancels the whole arc
    state[pit] -= spread
    for k in range(spread):
        state[arc[k]] += 1


@njit(cache=True, _nrt=False)
def _heal(state, i, mover, params):
    """The Witch Doctor dropped into an empty pit frees three regular pieces the opponent
    captured (as many as there are, if fewer), into his pit."""
    if state[PIECE_FOUND + i] != 0:
        return
    pit = state[PIECE_AT + i]
    store = STORE + 1 - mover
    freed = min(3, state[store] - pieces_at(state, AT_STORE + 1 - mover))
    if freed > 0 and not _shielded(state, pit, params):
        state[store] -= freed
        state[pit] += freed


@njit(cache=True, _nrt=False)
def _unmask(state, i):
    """The Spy turns the Mighty Men that were in his pit before he came into regular pieces (a
    Wise Mother excepted, with or without her power): those with an earlier arrival stamp."""
    pit = state[PIECE_AT + i]
    for j in range(MAX_PIECES):
        if (
            j != i
            and state[PIECE_KIND + j] != 0
            and state[PIECE_AT + j] == pit
            and state[PIECE_SINCE + j] < state[PIECE_SINCE + i]
            and acting_kind(state, j) != KIND_WISE_MOTHER
        ):
            _revert(state, j)


@njit(cache=True, _nrt=False)
def _revert(state, j):
    state[PIECE_KIND + j] = 0
    state[PIECE_AT + j] = AT_NOWHERE
    state[PIECE_DROP + j] = -1
    state[PIECE_ACTS + j] = 0
    state[PIECE_AS + j] = 0


@njit(cache=True, _nrt=False)
def flock_pit(state, pit, k, params):
    """The Shepherd's pit `k` around his pit `pit`: 0 the open pit before it, 1 his own, 2 the
    open pit after it."""
    if k == 1:
        return pit
    return open_step(state, pit, k - 1, -1, params)


@njit(cache=True, _nrt=False)
def _gather_flock(state, i, params):
    """The Shepherd takes up the special pieces of his three pits, each remembering the pit it
    came from (a Wise Mother stays, and so does her pit's count), and takes the stamp of
    their arrival wherever he moves them; False when there are not three open pits."""
    pit = state[PIECE_AT + i]
    before, after = flock_pit(state, pit, 0, params), flock_pit(state, pit, 2, params)
    if before == after:
        return False
    state[MOVE + MOVE_FLOCK] = pit
    state[MOVE + MOVE_FLOCK_COUNTS] = -1
    state[MOVE + MOVE_FLOCK_COUNTS + 1] = -1
    state[MOVE + MOVE_STAMP] += 1
    for j in range(MAX_PIECES):
        at = state[PIECE_AT + j]
        in_flock = at == before or at == pit or at == after  # noqa: SIM109 (numba: mixed ints)
        in_flock = in_flock and state[PIECE_KIND + j] != 0
        if in_flock and not _shields(state, j, params):
            state[PIECE_FLOCK_FROM + j] = at
            state[PIECE_AT + j] = AT_HAND
    return True


@njit(cache=True, _nrt=False)
def _set_down_from_flock(state, j, pit):
    """The Shepherd puts piece `j` in `pit`. Left in the pit it came from, it keeps its arrival
    (the Spy asks who was there first); moved, it arrives with every piece he moves, at the stamp
    he took (nothing else is stamped while he holds them), so none came before another."""
    if state[PIECE_FLOCK_FROM + j] != pit:
        state[PIECE_SINCE + j] = state[MOVE + MOVE_STAMP]
    state[PIECE_AT + j] = pit
    state[PIECE_FLOCK_FROM + j] = -1


@njit(cache=True, _nrt=False)
def _flock_total(state, params):
    """The pieces in the Shepherd's three pits."""
    total = 0
    for k in range(3):
        total += state[flock_pit(state, state[MOVE + MOVE_FLOCK], k, params)]
    return total


@njit(cache=True, _nrt=False)
def _write_flock_counts(state, params):
    """Both counts chosen: the Shepherd's pits take them, the following pit the rest."""
    centre = state[MOVE + MOVE_FLOCK]
    first, second = state[MOVE + MOVE_FLOCK_COUNTS], state[MOVE + MOVE_FLOCK_COUNTS + 1]
    rest = _flock_total(state, params) - first - second
    state[flock_pit(state, centre, 0, params)] = first
    state[flock_pit(state, centre, 1, params)] = second
    state[flock_pit(state, centre, 2, params)] = rest


@njit(cache=True, _nrt=False)
def _count_range(state, params):
    """The counts allowed for the next of the Shepherd's pits: (first, last)."""
    centre = state[MOVE + MOVE_FLOCK]
    k = 0 if state[MOVE + MOVE_FLOCK_COUNTS] < 0 else 1
    left = _flock_total(state, params)
    for j in range(k):
        left -= state[MOVE + MOVE_FLOCK_COUNTS + j]
    pit = flock_pit(state, centre, k, params)
    if _shielded(state, pit, params):
        return state[pit], state[pit]
    kept_later = 0
    free_later = False
    for j in range(k + 1, 3):
        later = flock_pit(state, centre, j, params)
        if _shielded(state, later, params):
            kept_later += state[later]
        else:
            free_later = True
    if not free_later:
        return left - kept_later, left - kept_later
    return 0, left - kept_later


@njit(cache=True, _nrt=False)
def _flock_room(state, k, params):
    """Special pieces the Shepherd's pit `k` can still take (its count is written)."""
    pit = flock_pit(state, state[MOVE + MOVE_FLOCK], k, params)
    return state[pit] - pieces_at(state, pit)


@njit(cache=True, _nrt=False)
def _resolve(state, i, mover, params):
    """Resolve the power of piece `i`; True when it waits for a decision of the mover."""
    while True:
        kind = state[PIECE_ACTS + i]
        if kind == KIND_CHIEFTAIN:
            kinds = _borrowable(state, i, params)
            if kinds == 0:
                break
            if kinds & (kinds - 1) != 0:  # more than one power to choose from
                state[PHASE] = PHASE_BORROW
                state[MOVE + MOVE_PIECE] = i
                return True
            for k in range(1, 11):
                if kinds == 1 << k:
                    _borrow(state, i, k)
            continue
        if kind == KIND_SHEPHERD:
            if state[MOVE + MOVE_FLOCK] < 0 and not _gather_flock(state, i, params):
                break
            if state[MOVE + MOVE_FLOCK_COUNTS + 1] < 0:
                state[PHASE] = PHASE_FLOCK_COUNT
                state[MOVE + MOVE_PIECE] = i
                return True
            j = _in_hand_any(state)
            if j >= 0:
                state[PHASE] = PHASE_FLOCK_PIECE
                state[MOVE + MOVE_PIECE] = j
                return True
            state[MOVE + MOVE_FLOCK] = -1
        elif kind == KIND_FARMER:
            _farm(state, i, params)
        elif kind == KIND_WITCH_DOCTOR:
            _heal(state, i, mover, params)
        elif kind == KIND_SPY:
            _unmask(state, i)
        break
    state[PIECE_ACTS + i] = 0
    return False


# ---- a move: the capture ------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def _guarded(state, pit, capturer):
    """Whether a Warrior in `pit` keeps it from being captured: unless the capture is made by
    another Mighty Man (`capturer`, the last piece sown; -1 for a regular piece)."""
    for j in range(MAX_PIECES):
        here = state[PIECE_KIND + j] != 0 and state[PIECE_AT + j] == pit
        if here and acting_kind(state, j) == KIND_WARRIOR and (capturer < 0 or capturer == j):
            return True
    return False


@njit(cache=True, _nrt=False)
def take_pieces(state, pit, count, only, player, params):
    """Move `count` pieces of `pit` to `player`'s store: the special piece `only` when it is
    given (>= 0; MAX_PIECES: a regular piece), else every piece of the pit. A captured Assassin
    poisons the pit he is taken from (the capturing piece's, when he made the capture): it is
    closed, and what is left in it goes with him."""
    poisoned = False
    for j in range(MAX_PIECES):
        if (only < 0 or j == only) and state[PIECE_KIND + j] != 0 and state[PIECE_AT + j] == pit:
            assassin = acting_kind(state, j) == KIND_ASSASSIN
            poisoned = poisoned or (assassin and _standing_power_holds(state, j, params))
    if poisoned:
        only = -1
        count = state[pit]
        state[CLOSED + pit] = 1
    for j in range(MAX_PIECES):
        if (only < 0 or j == only) and state[PIECE_KIND + j] != 0 and state[PIECE_AT + j] == pit:
            state[PIECE_AT + j] = AT_STORE + player
    state[pit] -= count
    state[STORE + player] += count
    state[LAST_CAPTURER] = player


@njit(cache=True, _nrt=False)
def _capture(state, mover, params):
    if state[MOVE + MOVE_CAPTURES] == 0:
        return 0
    last = state[MOVE + MOVE_LAST_PIT]
    facing = facing_pit(last, params)
    capturer = state[MOVE + MOVE_LAST_PIECE]
    if capturer >= 0 and state[PIECE_KIND + capturer] == 0:
        capturer = -1  # the Spy made it a regular piece
    if state[facing] == 0 or state[CLOSED + facing] == 1 or _guarded(state, facing, capturer):
        return 0
    if state[MOVE + MOVE_SLAM_ALLOWED] == 0 and state[facing] == row_seeds(
        state, 1 - mover, params
    ):
        return 0  # not the opponent's last pieces, while another lift would not take them
    take_pieces(state, facing, state[facing], -1, mover, params)
    if params[P_CAPTURE_LAST_SEED] == 1 and not _guarded(state, last, capturer):
        if capturer >= 0 and state[PIECE_AT + capturer] == last:
            take_pieces(state, last, 1, capturer, mover, params)
        elif capturer < 0 and state[last] > pieces_at(state, last):
            take_pieces(state, last, 1, MAX_PIECES, mover, params)
    return CAPTURED


@njit(cache=True, _nrt=False)
def _end_move(state, mover, params):
    flags = _capture(state, mover, params)
    for i in range(MAX_PIECES):
        state[PIECE_DROP + i] = -1
        state[PIECE_SHIFT + i] = 0
        state[PIECE_FOUND + i] = 0
        state[PIECE_ACTS + i] = 0
        state[PIECE_AS + i] = 0
    state[MOVE + MOVE_RESOLVED] = -1
    state[PHASE] = PHASE_PLAY
    return flags


# ---- the decisions ----------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def _next_decision(state, mover, params):
    """Do the work of the move that asks nothing, up to the next decision (its phase set,
    True) or to the end of the sowing and the powers (False)."""
    if state[MOVE + MOVE_RESOLVED] < 0:
        i = _in_hand(state, PIECE_SHIFT)
        if i >= 0:
            state[PHASE] = PHASE_SHIFT
            state[MOVE + MOVE_PIECE] = i
            return True
        i = _in_hand(state, PIECE_DROP)
        if i >= 0:
            state[PHASE] = PHASE_DROP
            state[MOVE + MOVE_PIECE] = i
            return True
        return False  # ready to sow
    while state[MOVE + MOVE_RESOLVED] < state[MOVE + MOVE_HAND]:
        i = _dropped_at(state, state[MOVE + MOVE_RESOLVED])
        if i >= 0 and state[PIECE_ACTS + i] != 0 and _resolve(state, i, mover, params):
            return True
        state[MOVE + MOVE_RESOLVED] += 1
    return False


@njit(cache=True, _nrt=False)
def choices(state, mover, params, out):
    """Mark in `out` (length VALUES) the values the decision now asked allows; return how many."""
    out[:] = 0
    phase = state[PHASE]
    i = state[MOVE + MOVE_PIECE]
    if phase == PHASE_PLACE:
        for v in range(pit_count(params)):
            out[v] = 1 if pieces_at(state, house_pit(mover, v, params)) < PIECES_PER_PIT else 0
    elif phase == PHASE_SIDE:
        out[0] = 1
        out[1] = 1
    elif phase == PHASE_DROP:
        for v in range(state[MOVE + MOVE_HAND]):
            out[v] = 1 if _dropped_at(state, v) < 0 else 0
    elif phase == PHASE_SHIFT:
        out[: _longest_shift(state, params) + 1] = 1
    elif phase == PHASE_BORROW:
        kinds = _borrowable(state, i, params)
        for v in range(1, 11):
            out[v] = (kinds >> v) & 1
    elif phase == PHASE_FLOCK_COUNT:
        first, last = _count_range(state, params)
        out[first : last + 1] = 1
    elif phase == PHASE_FLOCK_PIECE:
        for k in range(3):
            out[k] = 1 if _flock_room(state, k, params) > 0 else 0
    return out.sum()


@njit(cache=True, _nrt=False)
def _decide(state, v, mover, params):
    """Apply the value `v` to the decision now asked (no further work)."""
    phase = state[PHASE]
    i = state[MOVE + MOVE_PIECE]
    if phase == PHASE_DROP:
        _choose_drop(state, i, v, params)
    elif phase == PHASE_SHIFT:
        state[PIECE_SHIFT + i] = v
    elif phase == PHASE_BORROW:
        _borrow(state, i, v)
    elif phase == PHASE_FLOCK_COUNT:
        k = 0 if state[MOVE + MOVE_FLOCK_COUNTS] < 0 else 1
        state[MOVE + MOVE_FLOCK_COUNTS + k] = v
        if k == 1:
            _write_flock_counts(state, params)
    elif phase == PHASE_FLOCK_PIECE:
        _set_down_from_flock(state, i, flock_pit(state, state[MOVE + MOVE_FLOCK], v, params))


@njit(cache=True, _nrt=False)
def _advance(state, mover, params):
    """Carry the move on to the next decision with a real choice (EXTRA_TURN: the mover acts
    again), taking the decisions that have one choice only, or to its end (capture flags)."""
    values = stack_array(VALUES)
    values[:] = 0
    while True:
        if not _next_decision(state, mover, params):
            if state[MOVE + MOVE_RESOLVED] < 0:
                _sow(state, mover, params)
                continue
            return _end_move(state, mover, params)
        if choices(state, mover, params, values) > 1:
            return EXTRA_TURN
        _decide(state, int(np.argmax(values)), mover, params)


@njit(cache=True, _nrt=False)
def make_piece_move(state, action, mover, params):
    """Make the action `action` of `mover` in a game with special pieces; return capture flags
    (EXTRA_TURN while the mover has a decision still to make)."""
    lifts = params[P_LIFT_ACTIONS]
    phase = state[PHASE]
    if phase == PHASE_PLACE:
        return _place(state, action - lifts, mover, params)
    if phase == PHASE_SIDE:
        return _choose_side(state, action - lifts, params)
    if phase == PHASE_PLAY:
        _lift(state, action, mover, params)
    else:
        _decide(state, action - lifts, mover, params)
    return _advance(state, mover, params)


@njit(cache=True, _nrt=False)
def piece_candidates(state, mover, params, out):
    """Mark the actions allowed now (`out` is the whole action mask): the lifts of the mover's
    open houses with pieces, or the values of the decision asked."""
    lifts = params[P_LIFT_ACTIONS]
    if state[PHASE] == PHASE_PLAY:
        for house in range(lifts):
            pit = house_pit(mover, house, params)
            out[house] = state[CLOSED + pit] == 0 and state[pit] > 0
        return
    values = stack_array(VALUES)
    values[:] = 0
    choices(state, mover, params, values)
    for v in range(VALUES):
        out[lifts + v] = values[v]


@njit(cache=True, _nrt=False)
def pieces_follow(state, pit, player):
    """The special pieces of `pit` go to `player`'s store with the pit's seeds (the end)."""
    for i in range(MAX_PIECES):
        if state[PIECE_KIND + i] != 0 and state[PIECE_AT + i] == pit:
            state[PIECE_AT + i] = AT_STORE + player


# ---- checking a restored move under way -------------------------------------------------------
@njit(cache=True, _nrt=False)
def decision_asked(state, mover, params):
    """The phase and piece of the decision a move under way asks next, worked out afresh on a
    copy of `state` (PHASE_PLAY, -1 when it asks none): a restored move must ask the one its
    snapshot says."""
    scratch = stack_array(STATE_SIZE)
    copy_into(scratch, state)
    if _next_decision(scratch, mover, params):
        return scratch[PHASE], scratch[MOVE + MOVE_PIECE]
    return PHASE_PLAY, -1


@njit(cache=True, _nrt=False)
def first_flock_count_range(state, params):
    """The counts the Shepherd's first pit may be given: (first, last)."""
    scratch = stack_array(STATE_SIZE)
    copy_into(scratch, state)
    scratch[MOVE + MOVE_FLOCK_COUNTS] = -1
    return _count_range(scratch, params)
