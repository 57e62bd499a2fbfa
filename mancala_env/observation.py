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

from __future__ import annotations

import numpy as np

from .engine import layout as L
from .engine.setting_out import central_pit


def has_rounds(params: np.ndarray) -> bool:
    """Whether houses can change hands or close: a match of rounds, or lifts beyond one row."""
    return params[L.P_ROUNDS] != L.ROUNDS_NONE or params[L.P_LIFT_ACTIONS] > L.N_HOUSES


def has_uur(params: np.ndarray) -> bool:
    """Whether pits can become pregnant (uur) and held for a player (Layli Goobalay)."""
    return params[L.P_UUR] == 1


def has_setting_out(params: np.ndarray) -> bool:
    """Whether the players set out the seeds before play (Mangala's central holes)."""
    return params[L.P_SETUP] == L.SETUP_CENTRAL_CHOSEN


def _parts(state: np.ndarray, player: int, params: np.ndarray) -> list[tuple]:
    """The observation of `player` as (values, highest value) pairs, group by group."""
    order = (np.arange(L.N_PITS) + player * L.N_HOUSES) % L.N_PITS
    other = 1 - player
    seeds = int(params[L.P_TOTAL_SEEDS])
    parts = [
        (state[L.PITS + order], seeds),
        ([state[L.STORE + player], state[L.STORE + other]], seeds),
        ([state[L.SPECIAL_USED + player], state[L.SPECIAL_USED + other]], 1),
    ]
    if has_rounds(params):
        parts += [
            (state[L.OWNER + order] == player, 1),
            (state[L.CLOSED + order], 1),
            (
                [state[L.ROUND], state[L.ROUNDS_WON + player], state[L.ROUNDS_WON + other]],
                int(params[L.P_MAX_ROUNDS]),
            ),
        ]
    if has_uur(params):
        uur = state[L.UUR + order]  # 1 + the owner of the pregnancy, 0 for none
        parts.append((np.where(uur == 0, 0, np.where(uur == 1 + player, 1, 2)), 2))
    if has_setting_out(params):
        parts.append((_setting_out(state, player), [2, 1, L.SETUP_CENTRAL_HOLES, seeds]))
    return parts


def observation_high(params: np.ndarray) -> np.ndarray:
    """The highest value each number of the observation can take (the lowest is 0)."""
    parts = _parts(np.zeros(L.STATE_SIZE, dtype=np.int32), 0, params)
    return np.concatenate(
        [np.broadcast_to(high, np.shape(values)) for values, high in parts]
    ).astype(np.int8)


def observe(state: np.ndarray, player: int, params: np.ndarray) -> np.ndarray:
    """The observation of `player` (0 or 1) as an int8 vector, bounded by `observation_high`."""
    return np.concatenate([values for values, _ in _parts(state, player, params)]).astype(np.int8)


def _setting_out(state: np.ndarray, player: int) -> list[int]:
    """Phase, observer distributes, central holes filled, seeds still to be set out."""
    phase = int(state[L.PHASE])
    distributor = int(state[L.SETUP + L.SETUP_DISTRIBUTOR])
    filled = int(state[L.SETUP + L.SETUP_FILLED])
    hole = central_pit(distributor, filled)
    return [
        phase,
        int(distributor == player),
        filled,
        int(state[L.PITS + hole]) if phase == L.PHASE_SET_OUT else 0,
    ]
