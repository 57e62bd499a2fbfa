"""The board's helpers: which pit a player's house is."""

import numpy as np

from mancala_env.engine import layout as L
from mancala_env.engine.board import house_pit


def test_a_house_counts_on_round_the_board_from_the_players_row():
    """House h of a player is pit ``(player * N + h) mod 2N`` for every house a lift can name,
    up to ``2N - 1`` (lifts beyond one row run on into the opponent's row)."""
    for houses in range(1, L.MAX_HOUSES + 1):
        params = np.zeros(L.PARAMS_SIZE, dtype=np.int64)
        params[L.P_HOUSES] = houses
        for player in (0, 1):
            pits = [house_pit(player, house, params) for house in range(2 * houses)]
            assert pits == [(player * houses + house) % (2 * houses) for house in range(2 * houses)]
