"""Reading and moving the seeds of a board: the helpers every rule shares."""

from numba import njit

from .layout import LAST_CAPTURER, N_HOUSES, N_PITS, OWNER, STORE


@njit(cache=True)
def house_pit(player, house):
    """The pit of `player`'s house `house` (0-based, in sowing order from their house 1)."""
    return (player * N_HOUSES + house) % N_PITS


@njit(cache=True)
def take(state, pit, player):
    """Move every seed of `pit` into `player`'s store."""
    state[STORE + player] += state[pit]
    state[pit] = 0
    state[LAST_CAPTURER] = player


@njit(cache=True)
def row_seeds(state, player):
    """Seeds in the pits `player` owns."""
    total = 0
    for pit in range(N_PITS):
        if state[OWNER + pit] == player:
            total += state[pit]
    return total


@njit(cache=True)
def board_seeds(state):
    """Seeds in all the pits."""
    total = 0
    for pit in range(N_PITS):
        total += state[pit]
    return total
