"""The end of a round: who won it, whether the match is over, and setting out the next round.

Four of the games are played in rounds in which the seeds a player captured are set out again
for the next round. How they are set out is a parameter (P_ROUNDS):

- fours buy houses (Ncho, J'erin): each four a player holds fills one house; a player with more
  than six houses takes the opponent's houses that follow their own row in the sowing order;
- own holes refilled (Rio Kadalis): each player fills the holes of their row four to a hole and
  closes the holes they cannot fill; seeds left over stay in their store;
- equal rows (Layli Goobalay): the player with fewer seeds deals them one at a time into the
  holes of their row, and the other player deals the same number into theirs.

With P_ROUNDS = ROUNDS_NONE an episode is a single round. A match still undecided after
P_MAX_ROUNDS rounds is decided on the seeds each player holds (on rounds won, for a match of
won rounds), so that every match ends.
"""

from .board import house_pit
from .jit import njit
from .layout import (
    CLOSED,
    END_REASON,
    LAST_CAPTURER,
    MATCH_ROUNDS_WON,
    MATCH_SEEDS,
    OVER,
    OWNER,
    P_HOUSES,
    P_MATCH_END,
    P_MATCH_TARGET,
    P_MAX_ROUNDS,
    P_ROUND_STARTER,
    P_ROUNDS,
    ROUND,
    ROUND_OVER,
    ROUND_START_STORE,
    ROUND_STARTER,
    ROUNDS_EQUAL_ROWS,
    ROUNDS_NONE,
    ROUNDS_REFILL_OWN_ROW,
    ROUNDS_WON,
    SPECIAL_USED,
    STALL_PLIES,
    STARTER_ROUND_LOSER,
    STORE,
    TO_MOVE,
    TURNS,
    UUR,
    WINNER,
)


@njit(cache=True, _nrt=False)
def _leader(a, b):
    """0 if a > b, 1 if b > a, -1 for a tie."""
    if a > b:
        return 0
    if b > a:
        return 1
    return -1


@njit(cache=True, _nrt=False)
def round_winner(state):
    """The player who captured more in the round just ended (-1 for a tie)."""
    return _leader(
        state[STORE] - state[ROUND_START_STORE], state[STORE + 1] - state[ROUND_START_STORE + 1]
    )


@njit(cache=True, _nrt=False)
def min_seeds(state):
    return min(state[STORE], state[STORE + 1])


@njit(cache=True, _nrt=False)
def _match_over(state, params):
    rule = params[P_MATCH_END]
    target = params[P_MATCH_TARGET]
    seeds = min_seeds(state)
    if state[ROUND] >= params[P_MAX_ROUNDS]:
        return True
    if rule == MATCH_ROUNDS_WON:
        return max(state[ROUNDS_WON], state[ROUNDS_WON + 1]) >= target or seeds < 4
    if rule == MATCH_SEEDS:
        return max(state[STORE], state[STORE + 1]) >= target or seeds == 0
    return seeds < 4  # MATCH_CANNOT_FILL


@njit(cache=True, _nrt=False)
def _fill(state, player, pit, count):
    state[pit] = count
    state[OWNER + pit] = player
    state[CLOSED + pit] = 0
    state[STORE + player] -= count


@njit(cache=True, _nrt=False)
def _set_out(state, params):
    """Put the seeds back on the board for the next round."""
    row = params[P_HOUSES]
    for pit in range(2 * row):
        state[OWNER + pit] = 0 if pit < row else 1
        state[CLOSED + pit] = 1
        state[UUR + pit] = 0
    rule = params[P_ROUNDS]
    if rule == ROUNDS_EQUAL_ROWS:
        dealt = min(state[STORE], state[STORE + 1])
        for player in range(2):
            for house in range(row):
                count = dealt // row + (1 if house < dealt % row else 0)
                _fill(state, player, house_pit(player, house, params), count)
        return
    houses = (state[STORE] // 4, state[STORE + 1] // 4)  # bought before any is filled
    if rule == ROUNDS_REFILL_OWN_ROW:
        for player in range(2):
            for house in range(min(houses[player], row)):
                _fill(state, player, house_pit(player, house, params), 4)
        return
    # ROUNDS_FOURS_BUY_HOUSES: the richer player's houses run on into the poorer player's row.
    rich = 0 if houses[0] >= houses[1] else 1
    poor = 1 - rich
    for house in range(houses[rich]):
        _fill(state, rich, house_pit(rich, house, params), 4)
    for house in range(houses[poor]):
        _fill(state, poor, house_pit(poor, row - 1 - house, params), 4)


@njit(cache=True, _nrt=False)
def close_round(state, params):
    """Settle a round that has just ended: end the match, or set out the next round."""
    state[ROUND_OVER] = 0
    if params[P_ROUNDS] == ROUNDS_NONE:
        state[OVER] = 1
        state[WINNER] = _leader(state[STORE], state[STORE + 1])
        return
    winner = round_winner(state)
    if winner >= 0:
        state[ROUNDS_WON + winner] += 1
    state[ROUND] += 1
    if _match_over(state, params):
        state[OVER] = 1
        by_rounds = _leader(state[ROUNDS_WON], state[ROUNDS_WON + 1])
        if params[P_MATCH_END] == MATCH_ROUNDS_WON and by_rounds >= 0 and min_seeds(state) >= 4:
            state[WINNER] = by_rounds
        else:
            state[WINNER] = _leader(state[STORE], state[STORE + 1])
        return
    _set_out(state, params)
    if params[P_ROUND_STARTER] == STARTER_ROUND_LOSER and winner >= 0:
        starter = 1 - winner
    else:
        starter = 1 - state[ROUND_STARTER]
    state[ROUND_STARTER] = starter
    state[TO_MOVE] = starter
    for player in range(2):
        state[ROUND_START_STORE + player] = state[STORE + player]
        state[TURNS + player] = 0
        state[SPECIAL_USED + player] = 0
    state[STALL_PLIES] = 0
    state[LAST_CAPTURER] = -1
    state[END_REASON] = 0
