"""Reading and moving the seeds of a board: the helpers every rule shares.

A board has ``2 * params[P_HOUSES]`` pits; the rule set's own kernels (`engine.compiler`)
read that as a constant.
"""

from .jit import njit
from .layout import (
    CLOSED,
    LAST_CAPTURER,
    OWNER,
    P_HOUSES,
    P_LIFT_ACTIONS,
    P_PIECE_GAME,
    P_ROUNDS,
    P_SETTING_OUT,
    P_UUR,
    ROUNDS_FOURS_BUY_HOUSES,
    ROUNDS_NONE,
    ROUNDS_REFILL_OWN_ROW,
    SETTING_OUT_CENTRAL_CHOSEN,
    STORE,
    UUR,
)


@njit(cache=True, _nrt=False, inline="always")
def pit_count(params):
    """Pits on the board: the rule set's houses a player, on both rows."""
    return 2 * params[P_HOUSES]


@njit(cache=True, _nrt=False, inline="always")
def facing_pit(pit, params):
    """The pit across the board from `pit`."""
    return 2 * params[P_HOUSES] - 1 - pit


@njit(cache=True, _nrt=False)
def house_pit(player, house, params):
    """The pit of `player`'s house `house` (0-based, in sowing order from their house 1; up to
    ``2 * houses - 1``, past their row into the opponent's, where lifts go beyond one row).

    One comparison instead of Python's modulo and its sign test: with it, Oware's one-core
    random play (`mancala bench`'s `engine_1_core`) ran a quarter faster in one run, 9.9
    against 7.9 million moves a second."""
    houses = params[P_HOUSES]
    pit = player * houses + house
    return pit - 2 * houses if pit >= 2 * houses else pit


# What the rules ask of a pit about the mechanics that mark pits (`engine.mechanics`). Each
# asks first whether the rule set has the mechanic at all, so a rule set's own kernels, where
# that folds to a constant, read no flag.
@njit(cache=True, _nrt=False, inline="always")
def owner(state, pit, params):
    """The player who owns `pit`: the player of its row, unless houses change hands between
    rounds (`changes_hands`), when the `OWNER` block says."""
    if changes_hands(params):
        return state[OWNER + pit]
    return 0 if pit < params[P_HOUSES] else 1


@njit(cache=True, _nrt=False, inline="always")
def is_closed(state, pit, params):
    """Whether `pit` is out of play (left unfilled between rounds, or poisoned)."""
    return closes_pits(params) and state[CLOSED + pit] != 0


@njit(cache=True, _nrt=False, inline="always")
def is_pregnant(state, pit, params):
    """Whether `pit` is a pregnant (uur) pit, its seeds held for a player (Layli Goobalay)."""
    return has_uur(params) and state[UUR + pit] != 0


@njit(cache=True, _nrt=False, inline="always")
def uur_holder(state, pit):
    """The player a pregnant (uur) pit holds its seeds for, -1 for an ordinary pit."""
    return state[UUR + pit] - 1


@njit(cache=True, _nrt=False)
def take(state, pit, player):
    """Move every seed of `pit` into `player`'s store."""
    state[STORE + player] += state[pit]
    state[pit] = 0
    state[LAST_CAPTURER] = player


@njit(cache=True, _nrt=False, inline="derived")
def row_seeds(state, player, params):
    """Seeds in the pits `player` owns: their row, unless houses change hands."""
    total = 0
    if changes_hands(params):
        for pit in range(pit_count(params)):
            if owner(state, pit, params) == player:
                total += state[pit]
        return total
    first = player * params[P_HOUSES]
    for pit in range(first, first + params[P_HOUSES]):
        total += state[pit]
    return total


@njit(cache=True, _nrt=False, inline="derived")
def board_seeds(state, params):
    """Seeds in all the pits."""
    total = 0
    for pit in range(pit_count(params)):
        total += state[pit]
    return total


# Which of the mechanics that only some rule sets have a rule set uses; a rule set's own kernels
# fold each call to its answer and drop the code it rules out (`engine.compiler`). The
# mechanics' declarations (`engine.mechanics`) name them for their snapshot fields and
# observation numbers.
@njit(cache=True, _nrt=False)
def has_rounds(params):
    """Whether houses can change hands or close: a match of rounds, or lifts beyond one row."""
    return params[P_ROUNDS] != ROUNDS_NONE or params[P_LIFT_ACTIONS] > params[P_HOUSES]


@njit(cache=True, _nrt=False)
def changes_hands(params):
    """Whether houses change hands between rounds (Ncho, J'erin)."""
    return params[P_ROUNDS] == ROUNDS_FOURS_BUY_HOUSES


@njit(cache=True, _nrt=False)
def has_uur(params):
    """Whether pits can become pregnant (uur) and held for a player (Layli Goobalay)."""
    return params[P_UUR] == 1


@njit(cache=True, _nrt=False)
def has_setting_out(params):
    """Whether the players set out the seeds before play (Mangala's central holes)."""
    return params[P_SETTING_OUT] == SETTING_OUT_CENTRAL_CHOSEN


@njit(cache=True, _nrt=False)
def has_pieces(params):
    """Whether the game has special pieces (10 Mighty Men)."""
    return params[P_PIECE_GAME] == 1


@njit(cache=True, _nrt=False)
def closes_pits(params):
    """Whether pits can be closed: between rounds (unfilled holes) or by a poisoning (10 Mighty
    Men). Where they cannot, the sowing reads no pit's `CLOSED` flag (`snapshot.Rules`, the
    snapshot reader, refuses closed pits there)."""
    rounds = params[P_ROUNDS]
    # (==, not `in`: the rule sets' own kernels fold comparisons of constants)
    refills = rounds == ROUNDS_FOURS_BUY_HOUSES or rounds == ROUNDS_REFILL_OWN_ROW  # noqa: SIM109
    return refills or has_pieces(params)
