"""Monte Carlo tree search: UCT with random rollouts, or PUCT with a learned prior and value.

The tree lives in flat arrays, and selection, expansion, rollouts and backing up are compiled
with numba; positions are not stored in the tree but replayed from the root with the engine's
`step` on the way down (the game is deterministic), so a node costs a few numbers.

- A node's player is the player to move in its position (state[TO_MOVE]); each node keeps the
  visits and the summed results of the player who chose its move (its parent's player to move),
  so extra turns, passes and the rounds of a match need nothing special. Results are 1 for a win,
  0.5 for a draw and 0 for a loss, for a whole game (a match goes on across rounds).
- UCT (default): children in random order, every child tried once, then
  ``Q + c * sqrt(ln N / n)``; the value of a new leaf is one random rollout to the end of the game.
- PUCT (with `prior_value`): ``prior_value(game) -> (priors, value)`` is called once for each new
  leaf with a `Game` at that position: priors over the action space (masked to the legal actions
  and renormalised; all zero means uniform) and the value of the position for its player to move
  in [-1, 1]. Children are chosen by ``Q + c * P * sqrt(N) / (1 + n)``, an unvisited child
  counting as Q = 0.5.
- The move played is the root child with the most visits (ties: the better mean result).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from mancala_env import Game
from mancala_env.engine import layout as L
from mancala_env.engine.turn import step
from mancala_env.opponents import random_legal_action

from .search import SearchAgent

PriorValue = Callable[[Game], tuple[Any, float]]

# Integer columns of a node.
FIRST = 0  # the first child's index (children are contiguous); -1 until expanded
COUNT = 1  # number of children
ACTION = 2  # the move from the parent to this node
# Float columns of a node.
VISITS = 0
TOTAL = 1  # summed results of the player who chose this node's move
PRIOR = 2

SIZE = 0  # meta[SIZE]: nodes in use
MAX_PATH = 100_000  # deepest path followed from the root


@njit(cache=True)
def seed_rollouts(seed):
    """Seed the random number generator of the compiled rollouts."""
    np.random.seed(seed)


@njit(cache=True)
def rollout(state, params):
    """Play uniformly random legal moves on `state` (in place) to the end of the game; return
    the winner (-1 for a draw)."""
    while state[L.OVER] == 0:
        step(state, random_legal_action(state, params), params)
    return state[L.WINNER]


@njit(cache=True)
def player_0_result(winner):
    """A game's result for player_0: 1 won, 0.5 drawn, 0 lost."""
    if winner < 0:
        return 0.5
    return 1.0 if winner == 0 else 0.0


@njit(cache=True)
def _best_child(node, ints, floats, c, puct):
    first = ints[node, FIRST]
    parent_visits = max(floats[node, VISITS], 1.0)
    log_visits = math.log(parent_visits)
    root_visits = math.sqrt(parent_visits)
    best = first
    best_score = -np.inf
    for child in range(first, first + ints[node, COUNT]):
        visits = floats[child, VISITS]
        if puct:
            mean = floats[child, TOTAL] / visits if visits > 0 else 0.5
            score = mean + c * floats[child, PRIOR] * root_visits / (1.0 + visits)
        else:
            if visits == 0:
                return child  # children were shuffled at expansion
            score = floats[child, TOTAL] / visits + c * math.sqrt(log_visits / visits)
        if score > best_score:
            best, best_score = child, score
    return best


@njit(cache=True)
def select(root, params, ints, floats, c, puct, leaf, path, movers):
    """Walk down from the root to a node not yet expanded (or a finished game), replaying the
    moves on `leaf`; return the path's length (path[k]: nodes, movers[k]: player to move at
    path[k])."""
    leaf[:] = root
    node = 0
    path[0] = 0
    length = 1
    while ints[node, FIRST] >= 0 and leaf[L.OVER] == 0 and length < path.shape[0]:
        child = _best_child(node, ints, floats, c, puct)
        movers[length - 1] = leaf[L.TO_MOVE]
        step(leaf, ints[child, ACTION], params)
        path[length] = child
        length += 1
        node = child
    return length


@njit(cache=True)
def expand(node, leaf, params, ints, floats, meta, priors, use_priors):
    """Give `node` (at position `leaf`) one child per legal action, in random order; their
    priors are `priors` masked to the legal actions (uniform if `use_priors` is False or the
    legal ones sum to zero)."""
    n_actions = params[L.P_N_ACTIONS]
    first = meta[SIZE]
    count = 0
    total = 0.0
    for action in range(n_actions):
        if leaf[L.LEGAL + action] == 1:
            ints[first + count, ACTION] = action
            count += 1
            if use_priors:
                total += max(priors[action], 0.0)
    for k in range(count - 1, 0, -1):  # Fisher-Yates shuffle
        j = np.random.randint(k + 1)
        ints[first + k, ACTION], ints[first + j, ACTION] = (
            ints[first + j, ACTION],
            ints[first + k, ACTION],
        )
    for child in range(first, first + count):
        ints[child, FIRST] = -1
        ints[child, COUNT] = 0
        floats[child, VISITS] = 0.0
        floats[child, TOTAL] = 0.0
        if use_priors and total > 0:
            floats[child, PRIOR] = max(priors[ints[child, ACTION]], 0.0) / total
        else:
            floats[child, PRIOR] = 1.0 / count
    ints[node, FIRST] = first
    ints[node, COUNT] = count
    meta[SIZE] = first + count


@njit(cache=True)
def backup(path, movers, length, floats, result_0):
    """Add one visit along the path, each node credited with the result (`result_0` is
    player_0's) of the player who chose its move."""
    floats[path[0], VISITS] += 1.0
    for k in range(1, length):
        node = path[k]
        floats[node, VISITS] += 1.0
        floats[node, TOTAL] += result_0 if movers[k - 1] == 0 else 1.0 - result_0


@njit(cache=True)
def run_uct(root, params, ints, floats, meta, c, simulations, leaf, path, movers):
    """Up to `simulations` UCT simulations with random rollouts; returns how many were run (fewer
    when the node arrays are nearly full)."""
    no_priors = np.zeros(1)
    for done in range(simulations):
        if meta[SIZE] + params[L.P_N_ACTIONS] > ints.shape[0]:
            return done
        length = select(root, params, ints, floats, c, False, leaf, path, movers)
        if leaf[L.OVER] == 0:
            if ints[path[length - 1], FIRST] < 0:  # (it is, unless the path filled up)
                expand(path[length - 1], leaf, params, ints, floats, meta, no_priors, False)
            rollout(leaf, params)
        backup(path, movers, length, floats, player_0_result(leaf[L.WINNER]))
    return simulations


_WARM: set[Callable] = set()  # {run_uct} once the compiled search is loaded in this process


class MCTSAgent(SearchAgent):
    """Monte Carlo tree search with `simulations` simulations a move and/or `time_limit` seconds
    (default: 800 simulations), exploration constant `c`.

    Without `prior_value` it is UCT with random rollouts; with it, PUCT (see the module). After
    each move, `last_simulations`, `last_seconds` and `last_root` (action -> (visits, mean
    result for the mover)) describe the search.
    """

    simulations: int | None  # the work budget (None: the time limit alone)
    code_version = 1  # part of its identity: raise it when its play changes
    budget_key = "simulations"
    default_budget = 800
    warmed = _WARM

    def __init__(
        self,
        simulations: int | None = None,
        time_limit: float | None = None,
        c: float | None = None,
        prior_value: PriorValue | None = None,
        seed: int | None = None,
    ) -> None:
        self.prior_value = prior_value
        self.c = (1.5 if prior_value is not None else math.sqrt(2)) if c is None else float(c)
        if not self.c >= 0:
            raise ValueError(f"c must be a non-negative number, got {c}")
        super().__init__(simulations, time_limit, seed)

    def _settings(self) -> list[str]:
        return [f"c={self.c:g}"]

    def _forget_last_move(self) -> None:
        self.last_simulations = 0
        self.last_root: dict[int, tuple[int, float]] = {}

    def _search_key(self) -> Callable:
        return run_uct

    def _warm_up(self, game: Game) -> None:
        """One simulation of each kind on a throwaway tree."""
        tree = _Tree(game.n_actions)
        run_uct(game.state, game.params, *tree.arrays(), 1.0, 1, *tree.walk)
        ints, floats, meta = tree.arrays()
        leaf, path, movers = tree.walk
        length = select(game.state, game.params, ints, floats, 1.0, True, leaf, path, movers)
        priors = np.ones(game.n_actions)
        expand(path[length - 1], leaf, game.params, ints, floats, meta, priors, True)
        backup(path, movers, length, floats, 0.5)

    def _best_action(self, game: Game, legal: list[int], deadline: float | None) -> int:
        seed_rollouts(int(self.rng.integers(2**31 - 1)))
        tree = _Tree(int(game.params[L.P_N_ACTIONS]))
        budget = self.simulations if self.simulations is not None else np.iinfo(np.int64).max
        if self.prior_value is None:
            self._search_uct(game, tree, budget, deadline)
        else:
            self._search_puct(game, tree, budget, deadline)
        return self._most_visited(tree)

    def _search_uct(self, game: Game, tree: _Tree, budget: int, deadline: float | None) -> None:
        chunk = 256 if deadline is not None else budget
        while self.last_simulations < budget:
            tree.make_room()
            began = time.perf_counter()
            want = min(chunk, budget - self.last_simulations)
            done = run_uct(game.state, game.params, *tree.arrays(), self.c, want, *tree.walk)
            self.last_simulations += done
            if deadline is not None:
                now = time.perf_counter()
                if now >= deadline:
                    break
                rate = max(done, 1) / max(now - began, 1e-6)  # simulations a second
                chunk = max(1, min(int(rate * (deadline - now)), int(rate * 0.05)))

    def _search_puct(self, game: Game, tree: _Tree, budget: int, deadline: float | None) -> None:
        n_actions = int(game.params[L.P_N_ACTIONS])
        leaf, path, movers = tree.walk
        while self.last_simulations < budget:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            tree.make_room()
            ints, floats, meta = tree.arrays()
            length = select(game.state, game.params, ints, floats, self.c, True, leaf, path, movers)
            if leaf[L.OVER] == 1:
                winner = int(leaf[L.WINNER])
                result_0 = 0.5 if winner < 0 else float(winner == 0)
            elif ints[path[length - 1], FIRST] >= 0:  # the path filled up: no new leaf
                result_0 = 0.5
            else:
                position = game.copy()
                position.state[:] = leaf
                priors, value = self.prior_value(position)
                priors = np.asarray(priors, dtype=np.float64).reshape(-1)
                if priors.shape[0] != n_actions:
                    raise ValueError(
                        f"prior_value returned {priors.shape[0]} priors; "
                        f"the action space has {n_actions}"
                    )
                mover_result = (min(max(float(value), -1.0), 1.0) + 1.0) / 2.0
                result_0 = mover_result if leaf[L.TO_MOVE] == 0 else 1.0 - mover_result
                expand(path[length - 1], leaf, game.params, ints, floats, meta, priors, True)
            backup(path, movers, length, floats, result_0)
            self.last_simulations += 1

    def _most_visited(self, tree: _Tree) -> int:
        ints, floats, _ = tree.arrays()
        first, count = ints[0, FIRST], ints[0, COUNT]
        best, best_key = -1, (-1.0, -1.0)
        for child in range(first, first + count):
            visits = floats[child, VISITS]
            mean = floats[child, TOTAL] / visits if visits > 0 else 0.0
            self.last_root[int(ints[child, ACTION])] = (int(visits), float(mean))
            if (visits, mean) > best_key:
                best, best_key = int(ints[child, ACTION]), (visits, mean)
        return best


class _Tree:
    """The node arrays of one search, grown as needed."""

    def __init__(self, n_actions: int, capacity: int = 4096) -> None:
        self.n_actions = n_actions
        self.ints = np.zeros((max(capacity, 2 * n_actions + 1), 3), dtype=np.int32)
        self.floats = np.zeros((self.ints.shape[0], 3), dtype=np.float64)
        self.meta = np.array([1], dtype=np.int64)  # the root is node 0
        self.ints[0] = (-1, 0, -1)
        self.walk = (
            np.zeros(L.STATE_SIZE, dtype=np.int32),
            np.zeros(MAX_PATH, dtype=np.int64),
            np.zeros(MAX_PATH, dtype=np.int64),
        )

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.ints, self.floats, self.meta

    def make_room(self) -> None:
        """Double the arrays when another expansion might not fit."""
        if self.meta[SIZE] + 2 * self.n_actions <= self.ints.shape[0]:
            return
        size = 2 * self.ints.shape[0]
        ints = np.zeros((size, 3), dtype=np.int32)
        floats = np.zeros((size, 3), dtype=np.float64)
        ints[: self.ints.shape[0]] = self.ints
        floats[: self.floats.shape[0]] = self.floats
        self.ints, self.floats = ints, floats
