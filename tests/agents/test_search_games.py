"""Seeded search agents play exactly the games they played when these were recorded.

`search_games.json` holds the move lists of a few seeded games between alpha-beta and MCTS
agents: built-in, rounds and custom (numba and plain Python) evaluations, the table off, UCT
and PUCT, setting out (Mangala), special pieces (10 Mighty Men) and a match of rounds. A change
to the searches' code that changes a single choice of theirs shows here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from mancala_env import Game
from mancala_env.agents import AlphaBetaAgent, MCTSAgent, load_agent
from mancala_env.engine import layout as L

RECORDED = json.loads((Path(__file__).parents[1] / "search_games.json").read_text())


@njit
def _stores_and_own_store(state, player, params):
    mine = state[L.STORE + player]
    return float(mine - state[L.STORE + 1 - player]) + 0.1 * mine


def _stores_less_pit_zero(state, player, params):
    return float(state[L.STORE + player] - state[L.STORE + 1 - player]) - 0.01 * float(state[0])


def _rising_priors_and_store_lead(game: Game) -> tuple[np.ndarray, float]:
    mover = game.to_move
    lead = game.stores[mover] - game.stores[1 - mover]
    return np.arange(1, game.n_actions + 1, dtype=float), float(np.tanh(lead / 10))


# name -> (rule set, options, seed of the start, the two agents)
GAMES: dict[str, tuple[str, dict, int, Callable[[], list]]] = {
    "oware": (
        "oware",
        {},
        11,
        lambda: [AlphaBetaAgent(depth=4, seed=3), MCTSAgent(simulations=200, seed=5)],
    ),
    "mangala": (
        "mangala",
        {},
        12,
        lambda: [MCTSAgent(simulations=100, seed=7), AlphaBetaAgent(depth=3, seed=8)],
    ),
    "mighty_men": (
        "mighty_men",
        {},
        13,
        lambda: [AlphaBetaAgent(depth=2, seed=1), MCTSAgent(simulations=100, seed=2)],
    ),
    "ncho_match": (
        "ncho",
        {"match": True, "max_rounds": 2},
        14,
        lambda: [
            load_agent("alphabeta:depth=3,eval=rounds,tt=off", seed=4),
            load_agent("mcts:simulations=80,c=0.7", seed=6),
        ],
    ),
    "custom": (
        "ayoayo",
        {},
        15,
        lambda: [
            AlphaBetaAgent(depth=3, evaluate=_stores_and_own_store, seed=9),
            AlphaBetaAgent(depth=2, evaluate=_stores_less_pit_zero, seed=10),
        ],
    ),
    "puct": (
        "kpo",
        {},
        16,
        lambda: [
            MCTSAgent(simulations=60, prior_value=_rising_priors_and_store_lead, seed=11),
            AlphaBetaAgent(depth=3, seed=12),
        ],
    ),
}


def test_every_recorded_game_is_played():
    assert set(GAMES) == set(RECORDED)


# a numba evaluation compiles a search of its own in every process
COMPILES_A_SEARCH = {"custom"}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=pytest.mark.integration) if name in COMPILES_A_SEARCH else name
        for name in sorted(GAMES)
    ],
)
def test_seeded_search_agents_play_the_recorded_game(name):
    variant, options, seed, make_agents = GAMES[name]
    game = Game(variant, **options)
    game.reset(np.random.default_rng(seed))
    agents = make_agents()
    moves = []
    while not game.over:
        moves.append(int(agents[game.to_move].act(game)))
        game.step(moves[-1])
    assert moves == RECORDED[name]
