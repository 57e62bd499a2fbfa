"""The ``az`` agent: a policy-value network (`mancala_env.agents.network`) that plays its most
likely legal move, or searches with it.

Without a budget the agent plays the network's most likely legal move: no search, one forward
pass a move. With ``simulations`` and/or ``time`` it runs the compiled PUCT tree search of
`mancala_env.agents.az_search` (AlphaZero's, without its noise) and plays the most visited move,
ties going to the network's favourite.
"""

from __future__ import annotations

import os
import time

import numpy as np

from mancala_env import Game
from mancala_env.inputs import integer, number
from mancala_env.observation import observe

from .az_search import Searcher, search_kernels
from .network import read_network
from .search import MAX_C, MAX_SIMULATIONS, check_time_limit

DEFAULT_C = 1.5
CHUNK = 64  # simulations between two looks at the clock


def _masked_softmax(logits: np.ndarray, legal: np.ndarray) -> np.ndarray:
    shifted = np.where(legal, logits - np.max(logits[legal]), -np.inf)
    weights = np.exp(shifted)
    return weights / weights.sum()


class AZAgent:
    """Plays with the network `network` names (a shipped network's rule-set name such as
    ``oware``, or an ``.npz`` path): its most likely legal move, or, with `simulations` and/or
    `time_limit` (seconds a move), the most visited move of a PUCT search with exploration
    constant `c`. `identity` is the hash of the network file's bytes."""

    code_version = 1  # part of its identity: raise it when its play changes

    def __init__(
        self,
        network: str | os.PathLike,
        simulations: int | None = None,
        time_limit: float | None = None,
        c: float = DEFAULT_C,
        variant: str | None = None,
        seed: int | None = None,
    ) -> None:
        if simulations is not None:
            simulations = integer(simulations, "simulations", 1, MAX_SIMULATIONS)
        check_time_limit(time_limit)
        c = number(c, "c", 0, MAX_C)
        self.path = os.fspath(network)
        self.network, self.identity = read_network(network)
        self.simulations = simulations
        self.time_limit = time_limit
        self.c = float(c)
        self._searcher: Searcher | None = None  # the tree's arrays, made at the first search
        if variant is not None:
            self.network.check_game(Game(variant), repr(self.path))
        self.reset(seed)

    def __repr__(self) -> str:
        keys = [repr(self.path)]
        keys += [f"simulations={self.simulations}"] if self.simulations is not None else []
        keys += [f"time={self.time_limit}"] if self.time_limit is not None else []
        return f"AZAgent({', '.join(keys)})"

    @property
    def searches(self) -> bool:
        return self.simulations is not None or self.time_limit is not None

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        self.last_simulations = 0
        self.last_value = 0.0

    def policy(self, game: Game) -> tuple[np.ndarray, float]:
        """The network's probabilities of the legal moves (zero elsewhere) and its value of
        the position, for the player to move."""
        self.network.check_game(game, repr(self.path))
        logits, value = self.network.forward(observe(game.state, game.to_move, game.params))
        return _masked_softmax(logits[0], game.legal_mask().astype(bool)), float(value[0])

    def act(self, game: Game) -> int:
        legal = game.legal_actions()
        if not legal:
            raise ValueError("the game is over: there is no move to choose")
        self.network.check_game(game, repr(self.path))
        if not self.searches or len(legal) == 1:
            priors, self.last_value = self.policy(game)
            self.last_simulations = 0
            return int(np.argmax(priors))
        return self._search(game)

    def _search(self, game: Game) -> int:
        params = game.params
        kernels = search_kernels(game)
        if self._searcher is None:  # compile (or load) and warm up before the clock starts
            self._searcher = Searcher(self.network)
            warm = self._searcher
            kernels.new_tree(game.state, params, warm.net, warm.tree, warm.scratch)
            kernels.simulate(1, 1, self.c, params, warm.net, warm.tree, warm.scratch, *warm.path)
        searcher = self._searcher
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        nodes = kernels.new_tree(game.state, params, searcher.net, searcher.tree, searcher.scratch)
        done = 0
        while self.simulations is None or done < self.simulations:
            chunk = CHUNK if self.simulations is None else min(CHUNK, self.simulations - done)
            grown = kernels.simulate(chunk, nodes, self.c, params, searcher.net, searcher.tree,
                             searcher.scratch, *searcher.path)  # fmt: skip
            done += chunk
            if grown == nodes and nodes >= len(searcher.tree[0]):
                break  # the tree is full
            nodes = grown
            if deadline is not None and time.perf_counter() >= deadline:
                break
        priors, visits, values = searcher.root_stats()
        self.last_simulations = done
        self.last_value = float(values.sum() / max(visits.sum(), 1))
        most = np.flatnonzero(visits == visits.max())
        return int(most[np.argmax(priors[most])])
