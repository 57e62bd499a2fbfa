"""The ``az`` agent: a policy-value network (`agents.network`) that plays its most likely legal
move, or searches with it.

Without a budget the agent plays the network's most likely legal move: no search, one forward
pass a move. With ``simulations`` and/or ``time`` it runs PUCT tree search, AlphaZero's: each
simulation walks down the tree choosing ``argmax Q + c * P * sqrt(N) / (1 + n)`` (P the
network's prior, n a move's visits, N the node's), asks the network for the value of the
position it reaches (a finished game counts its result), and backs that value up, its sign
flipping where the player to move changes (an extra turn keeps it). The move played is the
most visited one.
"""

from __future__ import annotations

import math
import os
import time

import numpy as np

from mancala_env import Game
from mancala_env.engine import layout as L
from mancala_env.engine.turn import step
from mancala_env.observation import observe

from .network import Network, read_network

DEFAULT_C = 1.5


class _Node:
    """A position in the tree: its state, mover, the network's priors over its legal moves,
    and each move's visits and summed value (the mover's view)."""

    __slots__ = ("state", "mover", "priors", "visits", "values", "children", "value")

    def __init__(self, state: np.ndarray, network: Network, params: np.ndarray) -> None:
        self.state = state
        self.mover = int(state[L.TO_MOVE])
        n_actions = int(params[L.P_N_ACTIONS])
        self.children: dict[int, _Node] = {}
        self.visits = np.zeros(n_actions)
        self.values = np.zeros(n_actions)
        if state[L.OVER] == 1:
            winner = int(state[L.WINNER])
            self.value = 0.0 if winner < 0 else (1.0 if winner == self.mover else -1.0)
            self.priors = np.zeros(n_actions)
            return
        logits, value = network.forward(observe(state, self.mover, params)[None, :])
        legal = state[L.LEGAL : L.LEGAL + n_actions] != 0
        self.priors = _masked_softmax(logits[0], legal)
        self.value = float(value[0])

    @property
    def over(self) -> bool:
        return self.state[L.OVER] == 1


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
        if simulations is not None and (type(simulations) is not int or simulations < 1):
            raise ValueError(f"simulations must be an integer of 1 or more, got {simulations!r}")
        if time_limit is not None and not 0 < time_limit < math.inf:
            raise ValueError(f"time must be a positive number of seconds, got {time_limit!r}")
        if not 0 <= c < math.inf:
            raise ValueError(f"c must be a number of 0 or more, got {c!r}")
        self.path = os.fspath(network)
        self.network, self.identity = read_network(network)
        self.simulations = simulations
        self.time_limit = time_limit
        self.c = float(c)
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
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        params = game.params
        root = _Node(game.state.copy(), self.network, params)
        done = 0
        while self.simulations is None or done < self.simulations:
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            self._simulate(root, params)
            done += 1
        self.last_simulations = done
        self.last_value = float(root.values.sum() / max(root.visits.sum(), 1))
        most = np.flatnonzero(root.visits == root.visits.max())
        return int(most[np.argmax(root.priors[most])])

    def _simulate(self, root: _Node, params: np.ndarray) -> None:
        path: list[tuple[_Node, int]] = []
        node = root
        while not node.over:
            total = node.visits.sum()
            q = np.divide(
                node.values, node.visits, out=np.zeros_like(node.values), where=node.visits > 0
            )
            score = q + self.c * node.priors * math.sqrt(total + 1) / (1 + node.visits)
            score[node.priors == 0] = -np.inf
            action = int(np.argmax(score))
            path.append((node, action))
            child = node.children.get(action)
            if child is None:
                state = node.state.copy()
                step(state, action, params)
                node.children[action] = child = _Node(state, self.network, params)
                node = child
                break
            node = child
        value, seen_by = node.value, node.mover
        for parent, action in reversed(path):
            parent.visits[action] += 1
            parent.values[action] += value if parent.mover == seen_by else -value
