"""A whole turn: which actions are legal, playing one, and the end of the game.

The legal actions of the player to move are kept in the state (``LEGAL``), recomputed once
at the start of every turn, so that the mask an agent sees is by construction the set of
actions `step` accepts.

What each action number means is the rule set's list of action blocks
(`mancala_env.variants.actions`): the lifts first, then its special moves; `moves.make_move` plays
them by the same offsets.
"""

from .board import (
    board_seeds,
    has_pieces,
    has_uur,
    house_pit,
    is_pregnant,
    owner,
    pit_count,
    row_seeds,
    uur_holder,
)
from .capture import CAPTURED, EXTRA_TURN
from .jit import njit
from .layout import (
    BOARD_LOW,
    CONTINUE_NEVER,
    END_BOARD_EMPTY,
    END_CANNOT_FEED,
    END_FEW_SEEDS,
    END_MAJORITY,
    END_NO_MOVE,
    END_PENALTY,
    END_REASON,
    END_STALL,
    FEED_FORCED,
    FEED_NONE,
    FEED_PENALTY,
    FEED_POSSIBLE,
    KEPT,
    KEPT_SLOTS,
    LAST_ACTION,
    LAST_CAPTURER,
    LAST_PIT,
    LEGAL,
    MAX_ACTIONS,
    MAX_PITS,
    MOVE_NUMBER,
    NO_MOVE_PASS,
    NO_MOVE_RETALIATE,
    NO_OWNER,
    OVER,
    OWNER,
    P_CONTINUE,
    P_END_ANY_SIDE_AT_MOST,
    P_END_BOARD_AT_MOST,
    P_END_EACH_SIDE_AT_MOST,
    P_END_EACH_SIDE_EXACTLY,
    P_END_MAJORITY,
    P_FEEDING,
    P_HOUSES,
    P_LIFT_ACTIONS,
    P_MIN_LIFT,
    P_N_ACTIONS,
    P_NO_MOVE,
    P_PIECE_GAME,
    P_REMAINDER,
    P_SEEDS_PER_HOUSE,
    P_SETTING_OUT,
    P_STALL_LIMIT,
    P_STALL_NEW_LOW,
    P_STALL_REMAINDER,
    PHASE,
    PHASE_PLAY,
    REMAINDER_LAST_CAPTURER,
    REMAINDER_LAST_MOVER,
    REMAINDER_SPLIT,
    ROUND_OVER,
    ROUND_STARTER,
    SETTING_OUT_NONE,
    STALL_PLIES,
    STORE,
    TO_MOVE,
    TURNS,
    UUR,
    WINNER,
)
from .moves import lifted_pit, make_move, rule_candidates
from .pieces import pieces_follow, start_pieces
from .rounds import close_round
from .scratch import stack_array
from .setting_out import start_setting_out
from .sowing import ENDLESS

ILLEGAL = -1  # returned by `step` for an action the mask forbids, or a finished game


RECORD_SLOTS = KEPT + 1  # a move tried: its flags, then the state after it (see layout.KEPT)


@njit(cache=True, _nrt=False, inline="always")
def _record(state, action):
    """Where the result of the lift `action`, tried when the turn began, is kept."""
    start = KEPT + 1 + action * RECORD_SLOTS
    return state[start : start + RECORD_SLOTS]


@njit(cache=True, _nrt=False)
def _outcome(state, action, mover, params, record):
    """Play `action` on a copy, written into `record` (`make_move`'s flags, then the state
    after it): -1 if it never ends, else 1 when the opponent then has seeds."""
    after = record[1:]
    for i in range(KEPT):
        after[i] = state[i]
    record[0] = make_move(after, action, mover, params)
    if record[0] == ENDLESS:
        return -1
    return 1 if row_seeds(after, 1 - mover, params) > 0 else 0


@njit(cache=True, _nrt=False)
def _play_kept(state, action):
    """Play the lift `action` by taking its kept result; return its flags. The legal actions,
    which were being worked out when it was tried (`make_move` neither reads nor writes
    them), stay the state's."""
    record = _record(state, action)
    for i in range(KEPT):
        if i != FEED_POSSIBLE and not LEGAL <= i < LEGAL + MAX_ACTIONS:
            state[i] = record[1 + i]
    state[KEPT] = 0
    return record[0]


@njit(cache=True, _nrt=False, inline="derived")
def legal_actions(state, params, out):
    """Fill `out` (length MAX_ACTIONS) with the legal actions of the player to move.

    Returns 1 when one of them gives seeds to an opponent who has none, else 0.
    """
    mover = state[TO_MOVE]
    rule_candidates(state, mover, params, out)
    feeding = params[P_FEEDING]
    opponent_empty = row_seeds(state, 1 - mover, params) == 0
    keep = KEPT_SLOTS > 0  # MCTS's states of a relay rule set keep the lifts' results
    if keep:
        state[KEPT] = 0
    if params[P_CONTINUE] == CONTINUE_NEVER and not (opponent_empty and feeding != FEED_NONE):
        return 0  # single laps always end, and no feeding to check: no move need be tried
    scratch = stack_array(RECORD_SLOTS)
    lifts = params[P_LIFT_ACTIONS]
    feeds = 0
    for action in range(params[P_N_ACTIONS]):
        if out[action] == 0:
            continue
        record = _record(state, action) if keep and action < lifts else scratch
        result = _outcome(state, action, mover, params, record)
        if result < 0:
            out[action] = 0
        elif result == 1:
            feeds = 1
        elif opponent_empty and feeding == FEED_FORCED:
            out[action] = 0
    if opponent_empty and feeding == FEED_FORCED and feeds == 0 and params[P_MIN_LIFT] > 1:
        # The feeding obligation outranks the rule against lifting single seeds.
        for house in range(params[P_LIFT_ACTIONS]):
            pit = house_pit(mover, house, params)
            record = _record(state, house) if keep else scratch
            if (
                owner(state, pit, params) == mover
                and state[pit] > 0
                and _outcome(state, house, mover, params, record) == 1
            ):
                out[house] = 1
                feeds = 1
    if keep:
        state[KEPT] = 1  # every legal lift has been tried
    return feeds


@njit(cache=True, _nrt=False)
def free_row_seeds(state, player, params):
    """Seeds `player` could still move: those in their pits that are not pregnant (uur)."""
    if not has_uur(params):
        return row_seeds(state, player, params)
    total = 0
    for pit in range(pit_count(params)):
        if owner(state, pit, params) == player and not is_pregnant(state, pit, params):
            total += state[pit]
    return total


@njit(cache=True, _nrt=False)
def _before_handing_out(state, player, params):
    """A round is over: each pregnant (uur) pit's seeds go to the pit's owner, on either row,
    and the special pieces follow the seeds of their pit to `player` (-1: the pit's owner).
    Only rule sets with those mechanics get here (a rule set's own kernels drop the call)."""
    for pit in range(pit_count(params)):
        if is_pregnant(state, pit, params):
            state[STORE + uur_holder(state, pit)] += state[pit]
            state[pit] = 0
            state[UUR + pit] = 0
    if has_pieces(params):
        for pit in range(pit_count(params)):
            pieces_follow(state, pit, owner(state, pit, params) if player < 0 else player)


@njit(cache=True, _nrt=False)
def _finish(state, remainder, reason, params):
    """End the game: hand out the seeds still on the board and record why it ended."""
    if remainder == REMAINDER_LAST_MOVER:  # the player to move has none: the other moved last
        _award_board(state, 1 - state[TO_MOVE], reason, params)
        return
    if has_uur(params) or has_pieces(params):
        _before_handing_out(state, -1, params)
    if remainder == REMAINDER_LAST_CAPTURER and state[LAST_CAPTURER] >= 0:
        state[STORE + state[LAST_CAPTURER]] += board_seeds(state, params)
    elif remainder == REMAINDER_SPLIT:
        left = board_seeds(state, params)
        half = left // 2
        state[STORE] += half
        state[STORE + 1] += half
        if left % 2 == 1:
            fuller = 0 if row_seeds(state, 0, params) > row_seeds(state, 1, params) else 1
            state[STORE + fuller] += 1
    else:
        for player in range(2):
            state[STORE + player] += row_seeds(state, player, params)
    _end_round(state, reason, params)


@njit(cache=True, _nrt=False)
def _end_round(state, reason, params):
    for pit in range(pit_count(params)):
        state[pit] = 0
    state[ROUND_OVER] = 1
    state[END_REASON] = reason
    state[LEGAL : LEGAL + MAX_ACTIONS] = 0


@njit(cache=True, _nrt=False)
def _award_board(state, player, reason, params):
    """End the game with every seed left on the board going to `player`."""
    if has_uur(params) or has_pieces(params):
        _before_handing_out(state, player, params)
    state[STORE + player] += board_seeds(state, params)
    _end_round(state, reason, params)


@njit(cache=True, _nrt=False, inline="derived")
def count_legal(state, params):
    """How many legal actions the player to move in `state` has."""
    total = 0
    for action in range(params[P_N_ACTIONS]):
        total += state[LEGAL + action]
    return total


@njit(cache=True, _nrt=False, inline="derived")
def nth_legal_action(state, params, n):
    """The legal action number `n` (from 0) of the player to move, in the order of the action
    numbers; -1 when there are no more than `n`."""
    for action in range(params[P_N_ACTIONS]):
        if state[LEGAL + action] == 1:
            if n == 0:
                return action
            n -= 1
    return -1


@njit(cache=True, _nrt=False)
def _too_few_seeds(state, seeds, params):
    """The end rules on how many seeds are left: on the board, on both rows, on either, or
    exactly so many on each row."""
    row_0, row_1 = free_row_seeds(state, 0, params), free_row_seeds(state, 1, params)
    return (
        seeds <= params[P_END_BOARD_AT_MOST]
        or max(row_0, row_1) <= params[P_END_EACH_SIDE_AT_MOST]
        or min(row_0, row_1) <= params[P_END_ANY_SIDE_AT_MOST]
        or row_0 == row_1 == params[P_END_EACH_SIDE_EXACTLY]
    )


@njit(cache=True, _nrt=False, inline="derived")
def _ended_by_position(state, params):
    """Apply the end rules that depend on the position alone; True if the game ended."""
    seeds = board_seeds(state, params)
    total = seeds + state[STORE] + state[STORE + 1]
    if seeds == 0:
        _finish(state, params[P_REMAINDER], END_BOARD_EMPTY, params)
    elif params[P_END_MAJORITY] == 1 and (
        2 * max(state[STORE], state[STORE + 1]) > total
        or (state[STORE] == state[STORE + 1] and 2 * state[STORE] == total)
    ):
        _finish(state, params[P_REMAINDER], END_MAJORITY, params)
    elif (
        params[P_END_BOARD_AT_MOST] >= 0
        or params[P_END_EACH_SIDE_AT_MOST] >= 0
        or params[P_END_ANY_SIDE_AT_MOST] >= 0
        or params[P_END_EACH_SIDE_EXACTLY] >= 0
    ) and _too_few_seeds(state, seeds, params):
        _finish(state, params[P_REMAINDER], END_FEW_SEEDS, params)
    return state[ROUND_OVER] == 1


@njit(cache=True, _nrt=False, inline="derived")
def begin_turn(state, params):
    """Settle the turn of the player to move: their legal actions, or the end of the round
    (and then the next round of a match, or the end of the game)."""
    while True:
        if state[ROUND_OVER] == 0:
            _settle_turn(state, params)
        if state[ROUND_OVER] == 0:
            return
        close_round(state, params)
        if state[OVER] == 1:
            return


@njit(cache=True, _nrt=False, inline="derived")
def _settle_turn(state, params):
    """The legal actions of the player to move, or the end of the round.

    The rule set's own endings come first (the position, the feeding rule, a player who cannot
    move); the stall limit, the players' agreed stop, only ends a round that could go on.
    """
    for _ in range(2):  # a pass hands the turn over at most once
        if state[PHASE] == PHASE_PLAY and _ended_by_position(state, params):
            return
        mover = state[TO_MOVE]
        out = state[LEGAL : LEGAL + MAX_ACTIONS]
        state[FEED_POSSIBLE] = legal_actions(state, params, out)
        if (
            params[P_FEEDING] == FEED_PENALTY
            and state[FEED_POSSIBLE] == 0
            and row_seeds(state, 1 - mover, params) == 0
        ):
            _award_board(state, mover, END_CANNOT_FEED, params)
            return
        if count_legal(state, params) > 0:
            if state[PHASE] == PHASE_PLAY and state[STALL_PLIES] >= params[P_STALL_LIMIT]:
                _finish(state, params[P_STALL_REMAINDER], END_STALL, params)
            return
        if free_row_seeds(state, mover, params) > 0:  # seeds, but every move is forbidden
            unfed = row_seeds(state, 1 - mover, params) == 0
            _finish(state, params[P_REMAINDER], END_CANNOT_FEED if unfed else END_NO_MOVE, params)
            return
        rule = params[P_NO_MOVE]
        if rule == NO_MOVE_RETALIATE:
            _award_board(state, mover, END_NO_MOVE, params)
            return
        if rule != NO_MOVE_PASS:
            _finish(state, params[P_REMAINDER], END_NO_MOVE, params)
            return
        state[TO_MOVE] = 1 - mover
    _finish(state, params[P_REMAINDER], END_NO_MOVE, params)


@njit(cache=True, _nrt=False)
def step(state, action, params):
    """Play `action` for the player to move and settle the next turn; ILLEGAL if forbidden."""
    if (
        state[OVER] == 1
        or action < 0
        or action >= params[P_N_ACTIONS]
        or state[LEGAL + action] == 0
    ):
        return ILLEGAL
    mover = state[TO_MOVE]
    opponent = 1 - mover
    penalty = params[P_FEEDING] == FEED_PENALTY  # (the only reader of the two below)
    opponent_was_empty = penalty and row_seeds(state, opponent, params) == 0
    could_feed = state[FEED_POSSIBLE] == 1
    seeds_before = board_seeds(state, params)
    decision = state[PHASE] != PHASE_PLAY  # a setting-out step, or a decision within a move
    if KEPT_SLOTS > 0 and state[KEPT] == 1 and action < params[P_LIFT_ACTIONS]:
        flags = _play_kept(state, action)
    else:
        flags = make_move(state, action, mover, params)
    state[MOVE_NUMBER] += 1
    state[LAST_ACTION] = action
    if not decision:  # a decision is no turn, and no ply towards the stall limit
        state[LAST_PIT] = lifted_pit(action, mover, params)
        state[TURNS + mover] += 1
    seeds = board_seeds(state, params)
    if params[P_STALL_NEW_LOW] == 1:  # seeds can come back (the Witch Doctor): count new lows
        taken = seeds < state[BOARD_LOW]
        state[BOARD_LOW] = min(seeds, state[BOARD_LOW])
    else:
        taken = seeds < seeds_before
    if taken:
        state[STALL_PLIES] = 0
    elif not decision:
        state[STALL_PLIES] += 1
    if opponent_was_empty and row_seeds(state, opponent, params) == 0:
        if flags & CAPTURED:
            # The opponent's last seeds were captured: the mover keeps their own.
            _finish(state, params[P_REMAINDER], END_NO_MOVE, params)
        elif could_feed:
            _award_board(state, opponent, END_PENALTY, params)
    if state[ROUND_OVER] == 0:
        state[TO_MOVE] = mover if flags & EXTRA_TURN else opponent
    begin_turn(state, params)
    return 0


@njit(cache=True, _nrt=False)
def new_game(params, first_player, out, seed=0):
    """Write the starting position into `out` and settle the first turn (`seed`: the rule
    set's random start, from `starts.random_start_seeds`)."""
    out[:] = 0
    for pit in range(pit_count(params)):
        out[pit] = params[P_SEEDS_PER_HOUSE]
        out[OWNER + pit] = 0 if pit < params[P_HOUSES] else 1
    out[OWNER + pit_count(params) : OWNER + MAX_PITS] = NO_OWNER  # past a smaller board's end
    out[TO_MOVE] = first_player
    out[ROUND_STARTER] = first_player
    out[LAST_ACTION] = -1
    out[LAST_PIT] = -1
    out[LAST_CAPTURER] = -1
    out[WINNER] = -1
    if params[P_SETTING_OUT] != SETTING_OUT_NONE:
        start_setting_out(out, params, first_player, seed)
    if params[P_PIECE_GAME] == 1:
        start_pieces(out, params, first_player, seed)
    out[BOARD_LOW] = board_seeds(out, params)
    begin_turn(out, params)
