"""What a player sees: the observation vector of a position, from that player's side.

Every rule set's observation starts with the same sixteen numbers: the twelve pits counted in
sowing order from the observer's house 1 (their own row, then the opponent's), the observer's
store, the opponent's store, and whether each has used the once-a-game special move (own
first). Rule sets whose houses change hands or close between rounds add, in the same pit
order, whether the observer owns each pit and whether it is closed, then the number of rounds
finished and the rounds won by the observer and by the opponent.
"""

from __future__ import annotations

import numpy as np

from .engine import layout as L


def has_rounds(params: np.ndarray) -> bool:
    """Whether houses can change hands or close: a match of rounds, or lifts beyond one row."""
    return params[L.P_ROUNDS] != L.ROUNDS_NONE or params[L.P_LIFT_ACTIONS] > L.N_HOUSES


def observation_size(params: np.ndarray) -> int:
    return L.N_PITS + 4 + (2 * L.N_PITS + 3 if has_rounds(params) else 0)


def observe(state: np.ndarray, player: int, params: np.ndarray) -> np.ndarray:
    """The observation of `player` (0 or 1) as an int8 vector of `observation_size` numbers."""
    order = (np.arange(L.N_PITS) + player * L.N_HOUSES) % L.N_PITS
    other = 1 - player
    parts = [
        state[L.PITS + order],
        [state[L.STORE + player], state[L.STORE + other]],
        [state[L.SPECIAL_USED + player], state[L.SPECIAL_USED + other]],
    ]
    if has_rounds(params):
        parts += [
            state[L.OWNER + order] == player,
            state[L.CLOSED + order],
            [state[L.ROUND], state[L.ROUNDS_WON + player], state[L.ROUNDS_WON + other]],
        ]
    return np.concatenate(parts).astype(np.int8)
