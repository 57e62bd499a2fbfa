"""The ``az`` agent: a policy-value network (`mancala_env.agents.network`) that plays its most
likely legal move, or searches with it.

Without a budget the agent plays the network's most likely legal move: no search, one forward
pass a move. With ``simulations`` and/or ``time`` it runs the compiled PUCT tree search of
`mancala_env.agents.az_search` (AlphaZero's, without its noise) and plays the most visited move,
ties going to the network's favourite. With ``search=gumbel`` and ``simulations`` it runs Gumbel
AlphaZero's search there instead (sequential halving over ``considered`` root moves drawn by
Gumbel-top-k with the agent's seeded generator) and plays the move that survives the halving;
`last_policy` keeps that search's improved policy, the target of self-play training.
"""

from __future__ import annotations

import os
import time

import numpy as np

from mancala_env import Game
from mancala_env.inputs import integer, number
from mancala_env.observation import observe

from .az_search import Searcher, gumbel_search, most_visited, search_kernels
from .network import read_network
from .search import AZ_SEARCHES, MAX_C, MAX_CONSIDERED, MAX_SIMULATIONS, check_time_limit

DEFAULT_C = 1.5
CHUNK = 64  # simulations between two looks at the clock
# Gumbel search's numbers: the paper's and mctx's (`max_num_considered_actions`, `maxvisit_init`)
# and the paper's scale of sigma for values from 0 to 1 (`az_search.improved_logits`)
DEFAULT_CONSIDERED = 16
DEFAULT_C_VISIT = 50.0
DEFAULT_C_SCALE = 1.0
MAX_C_VISIT = 1e6


def _masked_softmax(logits: np.ndarray, legal: np.ndarray) -> np.ndarray:
    shifted = np.where(legal, logits - np.max(logits[legal]), -np.inf)
    weights = np.exp(shifted)
    return weights / weights.sum()


class AZAgent:
    """Plays with the network `network` names (a shipped network's rule-set name such as
    ``oware``, or an ``.npz`` path): its most likely legal move, or, with `simulations` and/or
    `time_limit` (seconds a move), the most visited move of a PUCT search with exploration
    constant `c`; or, `search` ``"gumbel"``, the move of a Gumbel search of `simulations`
    simulations over `considered` root moves with sigma's constants `c_visit` and `c_scale`
    (`az_search.gumbel_search`; its Gumbel noise from `seed`, times `gumbel_scale`: 0 plays the
    search's best move, as mctx suggests for evaluation in perfect-information games).
    `identity` is the hash of the network file's bytes."""

    code_version = 1  # part of its identity: raise it when its play changes

    def __init__(
        self,
        network: str | os.PathLike,
        simulations: int | None = None,
        time_limit: float | None = None,
        c: float = DEFAULT_C,
        variant: str | None = None,
        seed: int | None = None,
        search: str = "puct",
        considered: int = DEFAULT_CONSIDERED,
        c_visit: float = DEFAULT_C_VISIT,
        c_scale: float = DEFAULT_C_SCALE,
        gumbel_scale: float = 1.0,
    ) -> None:
        if simulations is not None:
            simulations = integer(simulations, "simulations", 1, MAX_SIMULATIONS)
        check_time_limit(time_limit)
        c = number(c, "c", 0, MAX_C)
        if search not in AZ_SEARCHES:
            raise ValueError(f"search must be one of {', '.join(AZ_SEARCHES)}, got {search!r}")
        if search == "gumbel" and (simulations is None or time_limit is not None):
            raise ValueError(
                "search=gumbel plans its simulations before it starts: give simulations=N, "
                "and no time"
            )
        self.search = search
        self.considered = integer(considered, "considered", 1, MAX_CONSIDERED)
        self.c_visit = number(c_visit, "c_visit", 0, MAX_C_VISIT)
        self.c_scale = number(c_scale, "c_scale", 0, MAX_C)
        self.gumbel_scale = number(gumbel_scale, "gumbel_scale", 0, MAX_C)
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
        keys += [f"search={self.search}"] if self.search != "puct" else []
        return f"AZAgent({', '.join(keys)})"

    @property
    def searches(self) -> bool:
        return self.simulations is not None or self.time_limit is not None

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        self.last_simulations = 0
        self.last_value = 0.0
        self.last_policy: np.ndarray | None = None  # a Gumbel search's improved policy

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
            action = int(np.argmax(priors))
            if self.search == "gumbel":  # one legal move: the improved policy is that move
                self.last_policy = np.eye(len(priors))[action]
            return action
        if self.search == "gumbel":
            return self._gumbel(game)
        return self._search(game)

    def _tree(self, game: Game) -> Searcher:
        """The tree's arrays, made at the first search, with the kernels compiled (or loaded)
        and warmed up then, before any clock starts."""
        if self._searcher is None:
            kernels = search_kernels(game)
            self._searcher = Searcher(self.network)
            warm, params = self._searcher, game.params
            kernels.new_tree(game.state, params, warm.net, warm.tree, warm.scratch)
            kernels.simulate(1, 1, self.c, params, warm.net, warm.tree, warm.scratch, *warm.path)
        return self._searcher

    def _gumbel(self, game: Game) -> int:
        assert self.simulations is not None  # __init__ refuses a Gumbel search without
        searcher = self._tree(game)
        gumbel = self.gumbel_scale * self.rng.gumbel(size=len(game.legal_mask()))
        action, self.last_policy = gumbel_search(
            searcher, search_kernels(game), game, self.simulations, gumbel, self.considered,
            self.c_visit, self.c_scale,
        )  # fmt: skip
        _, visits, values = searcher.root_stats()
        self.last_simulations = int(visits.sum())
        self.last_value = float(values.sum() / max(visits.sum(), 1))
        return action

    def _search(self, game: Game) -> int:
        params = game.params
        kernels = search_kernels(game)
        searcher = self._tree(game)
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
        return most_visited(priors, visits)
