"""What a player sees: the observation vector of a position, from that player's side.

Every rule set's observation starts with the same sixteen numbers: the twelve pits counted in
sowing order from the observer's house 1 (their own row, then the opponent's), the observer's
store, the opponent's store, and whether each has used the once-a-game special move (own
first). Rule sets whose houses change hands or close between rounds add, in the same pit
order, whether the observer owns each pit and whether it is closed, then the number of rounds
finished and the rounds won by the observer and by the opponent. Rule sets with pregnant
(uur) pits (Layli Goobalay) then add, in the same pit order, who owns each pit's pregnancy:
0 for none, 1 for the observer, 2 for the opponent.
Rule sets whose players set out the seeds (Mangala) then add four numbers: the phase (0 play,
1 setting out the central holes, 2 accepting or turning the board round), whether the observer
is the player who sets out the seeds, the central holes filled so far, and the seeds still to
be set out (they wait in the central hole being filled).
"""

import numpy as np
from numba import njit

from .engine import layout as L
from .engine.setting_out import central_pit

MAX_OBSERVATION = 64  # more numbers than any rule set's observation has


@njit(cache=True)
def has_rounds(params):
    """Whether houses can change hands or close: a match of rounds, or lifts beyond one row."""
    return params[L.P_ROUNDS] != L.ROUNDS_NONE or params[L.P_LIFT_ACTIONS] > L.N_HOUSES


@njit(cache=True)
def has_uur(params):
    """Whether pits can become pregnant (uur) and held for a player (Layli Goobalay)."""
    return params[L.P_UUR] == 1


@njit(cache=True)
def has_setting_out(params):
    """Whether the players set out the seeds before play (Mangala's central holes)."""
    return params[L.P_SETUP] == L.SETUP_CENTRAL_CHOSEN


@njit(cache=True)
def write_observation(state, player, params, out, bounds):
    """Write the observation of `player` into `out` and return how many numbers it has; with
    `bounds`, write the highest value each number can take instead (the lowest is 0)."""
    other = 1 - player
    seeds = params[L.P_TOTAL_SEEDS]
    n = 0
    for k in range(L.N_PITS):
        out[n] = seeds if bounds else state[(k + player * L.N_HOUSES) % L.N_PITS]
        n += 1
    out[n] = seeds if bounds else state[L.STORE + player]
    out[n + 1] = seeds if bounds else state[L.STORE + other]
    out[n + 2] = 1 if bounds else state[L.SPECIAL_USED + player]
    out[n + 3] = 1 if bounds else state[L.SPECIAL_USED + other]
    n += 4
    if has_rounds(params):
        for k in range(L.N_PITS):
            pit = (k + player * L.N_HOUSES) % L.N_PITS
            out[n] = 1 if bounds else state[L.OWNER + pit] == player
            out[n + L.N_PITS] = 1 if bounds else state[L.CLOSED + pit]
            n += 1
        n += L.N_PITS
        rounds = params[L.P_MAX_ROUNDS]
        out[n] = rounds if bounds else state[L.ROUND]
        out[n + 1] = rounds if bounds else state[L.ROUNDS_WON + player]
        out[n + 2] = rounds if bounds else state[L.ROUNDS_WON + other]
        n += 3
    if has_uur(params):
        for k in range(L.N_PITS):
            uur = state[L.UUR + (k + player * L.N_HOUSES) % L.N_PITS]  # 1 + owner, 0 for none
            out[n] = 2 if bounds else (0 if uur == 0 else (1 if uur == 1 + player else 2))
            n += 1
    if has_setting_out(params):
        phase = state[L.PHASE]
        distributor = state[L.SETUP + L.SETUP_DISTRIBUTOR]
        filled = state[L.SETUP + L.SETUP_FILLED]
        waiting = state[central_pit(distributor, filled)] if phase == L.PHASE_SET_OUT else 0
        out[n] = 2 if bounds else phase
        out[n + 1] = 1 if bounds else distributor == player
        out[n + 2] = L.SETUP_CENTRAL_HOLES if bounds else filled
        out[n + 3] = seeds if bounds else waiting
        n += 4
    return n


def observation_high(params: np.ndarray) -> np.ndarray:
    """The highest value each number of the observation can take (the lowest is 0)."""
    out = np.zeros(MAX_OBSERVATION, dtype=np.int8)
    n = write_observation(np.zeros(L.STATE_SIZE, dtype=np.int32), 0, params, out, True)
    return out[:n]


def observe(state: np.ndarray, player: int, params: np.ndarray) -> np.ndarray:
    """The observation of `player` (0 or 1) as an int8 vector, bounded by `observation_high`."""
    out = np.zeros(MAX_OBSERVATION, dtype=np.int8)
    return out[: write_observation(state, player, params, out, False)]
