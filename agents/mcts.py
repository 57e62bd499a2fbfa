"""Monte Carlo tree search: UCT with random rollouts, or PUCT with a learned prior and value.

The tree lives in flat arrays, and selection, expansion, rollouts and backing up are compiled
with numba; positions are not stored in the tree but replayed from the root with the engine's
`step` on the way down (the game is deterministic), so a node costs a few numbers.

- A node's player is the player to move in its position (state[TO_MOVE]); each node keeps the
  visits and the summed results of the player who chose its move (its parent's player to move),
  so extra turns, passes and the rounds of a match need nothing special. Results are 1 for a win,
  0.5 for a draw and 0 for a loss, for a whole game (a match goes on across rounds).
- UCT (default): children in random order, every child tried once, then
  ``Q' + c * sqrt(ln N / n)``; the value of a new leaf is one random rollout to the end of the
  game. Implicit minimax backups (Lanctot, Winands, Pepels and Sturtevant, 2014): each new child
  is also given the evaluation of its position (`evaluate`: 1/2 plus half the store difference
  over the seeds in play, or the result of a finished game), and a node's evaluation is backed
  up from its children by minimax; ``Q' = (1 - mix) * Q + mix * V``, mixing the mean result Q
  with that minimax value V.
- Solver (MCTS-solver, Winands, Bjornsson and Saito, 2008): a finished game is a proven result,
  and a node is proven once a child is a proven win for its player to move, or all its children
  are proven (the best of them for that player). A proven child counts its proven result in
  selection, with no exploration term; a proven node is not searched below, its result is
  backed up as a rollout's would be; the search stops once the root is proven.
- PUCT (with `prior_value`): ``prior_value(game) -> (priors, value)`` is called once for each new
  leaf with a `Game` at that position: priors over the action space (masked to the legal actions
  and renormalised; all zero means uniform) and the value of the position for its player to move
  in [-1, 1]. Children are chosen by ``Q + c * P * sqrt(N) / (1 + n)``, an unvisited child
  counting as Q = 0.5.
- The move played: a proven win, or else the root child with the most visits (ties: the better
  mean result), a proven loss only when every move loses (as OpenSpiel's `MCTSBot` chooses).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import numpy as np

from mancala_env import Game
from mancala_env.engine import layout as L
from mancala_env.engine.jit import njit
from mancala_env.engine.scratch import copy_into
from mancala_env.engine.turn import step
from mancala_env.inputs import number
from mancala_env.kernels import HOT_MODULES, kernels_for
from mancala_env.opponents import random_legal_action

from .search import MAX_C, MAX_SIMULATIONS, SearchAgent

PriorValue = Callable[[Game], tuple[Any, float]]

# Integer columns of a node.
FIRST = 0  # the first child's index (children are contiguous); -1 until expanded
COUNT = 1  # number of children
ACTION = 2  # the move from the parent to this node
# Float columns of a node.
VISITS = 0
TOTAL = 1  # summed results of the player who chose this node's move
PRIOR = 2
PROVEN = 3  # player_0's result once proven (a finished game, or by the solver); UNPROVEN until
HEURISTIC = 4  # player_0's minimax value of the evaluation over the node's subtree in the tree
N_FLOATS = 5
UNPROVEN = -1.0

DEFAULT_C = 0.5  # UCT's exploration constant (results in [0, 1])
DEFAULT_MIX = 0.5  # UCT's weight of the evaluation's minimax value
SIZE = 0  # meta[SIZE]: nodes in use
MAX_PATH = 100_000  # deepest path followed from the root


@njit(cache=True, _nrt=False)
def seed_rollouts(seed):
    """Seed the random number generator of the compiled rollouts."""
    np.random.seed(seed)


@njit(cache=True, _nrt=False)
def rollout(state, params):
    """Play uniformly random legal moves on `state` (in place) to the end of the game; return
    the winner (-1 for a draw)."""
    while state[L.OVER] == 0:
        step(state, random_legal_action(state, params), params)
    return state[L.WINNER]


@njit(cache=True, _nrt=False)
def player_0_result(winner):
    """A game's result for player_0: 1 won, 0.5 drawn, 0 lost."""
    if winner < 0:
        return 0.5
    return 1.0 if winner == 0 else 0.0


@njit(cache=True, _nrt=False)
def mover_result(result_0, mover):
    """Player_0's result `result_0` seen by `mover`."""
    return result_0 if mover == 0 else 1.0 - result_0


@njit(cache=True, _nrt=False)
def evaluate(state, params):
    """Player_0's result of a finished game, or else 1/2 plus half the store difference over
    the seeds in play (in [0, 1] like a result)."""
    if state[L.OVER] == 1:
        return player_0_result(state[L.WINNER])
    difference = state[L.STORE] - state[L.STORE + 1]
    return 0.5 + 0.5 * difference / max(params[L.P_TOTAL_SEEDS], 1)


@njit(cache=True, _nrt=False)
def _best_child(node, mover, ints, floats, c, mix, puct):
    """The child of `node` (where `mover` is to move) to follow: a proven child is worth its
    proven result, with no exploration term; in UCT the mean result is mixed with weight `mix`
    with the minimax value of the evaluation."""
    first = ints[node, FIRST]
    parent_visits = max(floats[node, VISITS], 1.0)
    log_visits = math.log(parent_visits)
    root_visits = math.sqrt(parent_visits)
    best = first
    best_score = -np.inf
    for child in range(first, first + ints[node, COUNT]):
        visits = floats[child, VISITS]
        if floats[child, PROVEN] != UNPROVEN:
            score = mover_result(floats[child, PROVEN], mover)
        elif puct:
            mean = floats[child, TOTAL] / visits if visits > 0 else 0.5
            score = mean + c * floats[child, PRIOR] * root_visits / (1.0 + visits)
        else:
            if visits == 0:
                return child  # children were shuffled at expansion
            mean = floats[child, TOTAL] / visits
            if mix > 0:
                mean = (1.0 - mix) * mean + mix * mover_result(floats[child, HEURISTIC], mover)
            score = mean + c * math.sqrt(log_visits / visits)
        if score > best_score:
            best, best_score = child, score
    return best


@njit(cache=True, _nrt=False)
def select(root, params, ints, floats, c, mix, puct, leaf, path, movers):
    """Walk down from the root to a node not yet expanded, a finished game or a proven node,
    replaying the moves on `leaf`; return the path's length (path[k]: nodes, movers[k]: player
    to move at path[k])."""
    copy_into(leaf, root)
    node = 0
    path[0] = 0
    length = 1
    while (
        ints[node, FIRST] >= 0
        and floats[node, PROVEN] == UNPROVEN
        and leaf[L.OVER] == 0
        and length < path.shape[0]
    ):
        child = _best_child(node, leaf[L.TO_MOVE], ints, floats, c, mix, puct)
        movers[length - 1] = leaf[L.TO_MOVE]
        step(leaf, ints[child, ACTION], params)
        path[length] = child
        length += 1
        node = child
    movers[length - 1] = leaf[L.TO_MOVE]
    return length


@njit(cache=True, _nrt=False)
def expand(node, leaf, params, ints, floats, meta, priors, use_priors, mix, scratch):
    """Give `node` (at position `leaf`) one child per legal action, in random order; their
    priors are `priors` masked to the legal actions (uniform if `use_priors` is False or the
    legal ones sum to zero). With `mix` > 0 each child's position is evaluated (on
    `scratch`)."""
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
        floats[child, PROVEN] = UNPROVEN
        floats[child, HEURISTIC] = 0.5
        if mix > 0:
            copy_into(scratch, leaf)
            step(scratch, ints[child, ACTION], params)
            floats[child, HEURISTIC] = evaluate(scratch, params)
        if use_priors and total > 0:
            floats[child, PRIOR] = max(priors[ints[child, ACTION]], 0.0) / total
        else:
            floats[child, PRIOR] = 1.0 / count
    ints[node, FIRST] = first
    ints[node, COUNT] = count
    meta[SIZE] = first + count


@njit(cache=True, _nrt=False)
def _prove(node, mover, ints, floats):
    """Mark `node` proven if its children prove it: one of them is a proven win for `mover`
    (the player to move there), or all are proven (the best for `mover` is its result).
    Returns whether it is proven."""
    best = UNPROVEN
    proven_all = True
    for child in range(ints[node, FIRST], ints[node, FIRST] + ints[node, COUNT]):
        proven = floats[child, PROVEN]
        if proven == UNPROVEN:
            proven_all = False
        elif best == UNPROVEN or mover_result(proven, mover) > mover_result(best, mover):
            best = proven
    if best != UNPROVEN and (proven_all or mover_result(best, mover) == 1.0):
        floats[node, PROVEN] = best
        return True
    return False


@njit(cache=True, _nrt=False)
def _minimax(node, mover, ints, floats):
    """Set the evaluation of `node` to its best child's for `mover` (to move there)."""
    first = ints[node, FIRST]
    best = floats[first, HEURISTIC]
    for child in range(first + 1, first + ints[node, COUNT]):
        if mover_result(floats[child, HEURISTIC], mover) > mover_result(best, mover):
            best = floats[child, HEURISTIC]
    floats[node, HEURISTIC] = best


@njit(cache=True, _nrt=False)
def backup(path, movers, length, ints, floats, result_0, solved, mix):
    """Add one visit along the path, each node credited with the result (`result_0` is
    player_0's) of the player who chose its move. With `solved` (the result is exact: a
    finished game, or a proven node), the leaf is marked proven with it and its ancestors as
    far as they are proven too (the MCTS-solver of Winands, Bjornsson and Saito, 2008). With
    `mix` > 0 the evaluations are backed up by minimax (the implicit minimax backups of
    Lanctot, Winands, Pepels and Sturtevant, 2014)."""
    if solved:
        floats[path[length - 1], PROVEN] = result_0
    for k in range(length - 1, -1, -1):
        node = path[k]
        floats[node, VISITS] += 1.0
        if k > 0:
            floats[node, TOTAL] += mover_result(result_0, movers[k - 1])
        if solved and k < length - 1:
            solved = _prove(node, movers[k], ints, floats)
        if mix > 0 and ints[node, FIRST] >= 0:
            _minimax(node, movers[k], ints, floats)


@njit(cache=True, _nrt=False)
def run_uct(root, params, ints, floats, meta, c, mix, simulations, leaf, path, movers, scratch):
    """Up to `simulations` UCT simulations with random rollouts; returns how many were run (fewer
    when the node arrays are nearly full, or the root's result is proven)."""
    no_priors = floats[0]  # any float row: without priors `expand` reads none
    for done in range(simulations):
        if meta[SIZE] + params[L.P_N_ACTIONS] > ints.shape[0]:
            return done
        length = select(root, params, ints, floats, c, mix, False, leaf, path, movers)
        node = path[length - 1]
        if floats[node, PROVEN] != UNPROVEN:
            backup(path, movers, length, ints, floats, floats[node, PROVEN], True, mix)
        else:
            solved = leaf[L.OVER] == 1
            if not solved:
                if ints[node, FIRST] < 0:  # (it is, unless the path filled up)
                    expand(node, leaf, params, ints, floats, meta, no_priors, False, mix, scratch)
                rollout(leaf, params)
            result_0 = player_0_result(leaf[L.WINNER])
            backup(path, movers, length, ints, floats, result_0, solved, mix)
        if floats[0, PROVEN] != UNPROVEN:
            return done + 1
    return simulations


_WARM: set[Callable] = set()  # {run_uct} once the compiled search is loaded in this process


class MCTSAgent(SearchAgent):
    """Monte Carlo tree search with `simulations` simulations a move and/or `time_limit` seconds
    (default: 800 simulations), exploration constant `c`.

    Without `prior_value` it is UCT with random rollouts and the evaluation mixed in with weight
    `mix`; with it, PUCT (see the module). The defaults (c 0.5, mix 0.5; PUCT: c 1.5) were
    measured on Oware against OpenSpiel's MCTSBot (`benchmarks/vs_openspiel.py`). After each
    move, `last_simulations`, `last_seconds`, `last_root` (action -> (visits, mean result for
    the mover)) and `last_proven` (action -> proven result for the mover) describe the search.
    """

    simulations: int | None  # the work budget (None: the time limit alone)
    code_version = 2  # part of its identity: raise it when its play changes
    budget_key = "simulations"
    default_budget = 800
    max_budget = MAX_SIMULATIONS
    warmed = _WARM

    def __init__(
        self,
        simulations: int | None = None,
        time_limit: float | None = None,
        c: float | None = None,
        prior_value: PriorValue | None = None,
        seed: int | None = None,
        mix: float | None = None,
    ) -> None:
        self.prior_value = prior_value
        if mix is not None and prior_value is not None:
            raise ValueError("mix is for UCT: with prior_value the value is the prior_value's")
        self.mix = (DEFAULT_MIX if prior_value is None else 0.0) if mix is None else mix
        self.mix = number(self.mix, "mix", 0, 1)
        self.c = (1.5 if prior_value is not None else DEFAULT_C) if c is None else c
        self.c = number(self.c, "c", 0, MAX_C)
        super().__init__(simulations, time_limit, seed)

    def _settings(self) -> list[str]:
        return [f"c={self.c:g}", f"mix={self.mix:g}"]

    def _forget_last_move(self) -> None:
        self.last_simulations = 0
        self.last_root: dict[int, tuple[int, float]] = {}
        self.last_proven: dict[int, float] = {}

    def _search_key(self, game: Game) -> Callable:
        return _uct_kernels(game).run_uct

    def _warm_up(self, game: Game) -> None:
        """One simulation of each kind on a throwaway tree."""
        kernels = _uct_kernels(game)
        tree = _Tree(game.n_actions, kernels.layout.STATE_SIZE)
        kernels.run_uct(
            _own_root(kernels, game), game.params, *tree.arrays(), 1.0, 0.5, 1, *tree.walk
        )
        puct = _puct_kernels(game)
        tree = _Tree(game.n_actions, L.STATE_SIZE)
        ints, floats, meta = tree.arrays()
        leaf, path, movers, scratch = tree.walk
        params = game.params
        length = puct.select(game.state, params, ints, floats, 1.0, 0.0, True, leaf, path, movers)
        priors = np.ones(game.n_actions)
        node = path[length - 1]
        puct.expand(node, leaf, params, ints, floats, meta, priors, True, 0.0, scratch)
        puct.backup(path, movers, length, ints, floats, 0.5, False, 0.0)

    def _best_action(self, game: Game, legal: list[int], deadline: float | None) -> int:
        seed_rollouts(int(self.rng.integers(2**31 - 1)))  # one generator for all compiled code
        n_actions = int(game.params[L.P_N_ACTIONS])
        budget = self.simulations if self.simulations is not None else np.iinfo(np.int64).max
        if self.prior_value is None:
            tree = _Tree(n_actions, _uct_kernels(game).layout.STATE_SIZE)
            self._search_uct(game, tree, budget, deadline)
        else:
            tree = _Tree(n_actions, L.STATE_SIZE)
            self._search_puct(game, tree, budget, deadline)
        return self._choose(tree, int(game.to_move))

    def _search_uct(self, game: Game, tree: _Tree, budget: int, deadline: float | None) -> None:
        chunk = 256 if deadline is not None else budget
        kernels = _uct_kernels(game)
        root = _own_root(kernels, game)
        while self.last_simulations < budget and not tree.solved():
            tree.make_room()
            began = time.perf_counter()
            want = min(chunk, budget - self.last_simulations)
            done = kernels.run_uct(
                root, game.params, *tree.arrays(), self.c, self.mix, want, *tree.walk
            )
            self.last_simulations += done
            if deadline is not None:
                now = time.perf_counter()
                if now >= deadline:
                    break
                rate = max(done, 1) / max(now - began, 1e-6)  # simulations a second
                chunk = max(1, min(int(rate * (deadline - now)), int(rate * 0.05)))

    def _search_puct(self, game: Game, tree: _Tree, budget: int, deadline: float | None) -> None:
        n_actions = int(game.params[L.P_N_ACTIONS])
        puct = _puct_kernels(game)
        leaf, path, movers, scratch = tree.walk
        while self.last_simulations < budget and not tree.solved():
            if deadline is not None and time.perf_counter() >= deadline:
                break
            tree.make_room()
            ints, floats, meta = tree.arrays()
            length = puct.select(
                game.state, game.params, ints, floats, self.c, 0.0, True, leaf, path, movers
            )
            node = path[length - 1]
            solved = floats[node, PROVEN] != UNPROVEN or leaf[L.OVER] == 1
            if floats[node, PROVEN] != UNPROVEN:
                result_0 = floats[node, PROVEN]
            elif leaf[L.OVER] == 1:
                result_0 = player_0_result(leaf[L.WINNER])
            elif ints[node, FIRST] >= 0:  # the path filled up: no new leaf
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
                result = (min(max(float(value), -1.0), 1.0) + 1.0) / 2.0
                result_0 = mover_result(result, leaf[L.TO_MOVE])
                puct.expand(node, leaf, game.params, ints, floats, meta, priors, True, 0.0, scratch)
            puct.backup(path, movers, length, ints, floats, result_0, solved, 0.0)
            self.last_simulations += 1

    def _choose(self, tree: _Tree, mover: int) -> int:
        """The root child to play: a proven win first, then the most visited (ties: the better
        mean result), proven losses last (the proven result of an unproven child counts as a
        draw's, so a proven draw is played when it is the most visited)."""
        ints, floats, _ = tree.arrays()
        first, count = ints[0, FIRST], ints[0, COUNT]
        best, best_key = -1, (-1.0, -1.0, -1.0)
        for child in range(first, first + count):
            action = int(ints[child, ACTION])
            visits = floats[child, VISITS]
            mean = floats[child, TOTAL] / visits if visits > 0 else 0.0
            self.last_root[action] = (int(visits), float(mean))
            proven = 0.5
            if floats[child, PROVEN] != UNPROVEN:
                proven = mover_result(floats[child, PROVEN], mover)
                self.last_proven[action] = proven
            if (proven, visits, mean) > best_key:
                best, best_key = action, (proven, visits, mean)
        return best


def _uct_kernels(game: Game) -> SimpleNamespace:
    """This module's kernels for `game`'s rules (`mancala_env.kernels`): the simulations of
    UCT, rollouts above all, run the rule set's own `step`, and a relay rule set's states keep
    the lifts tried when a turn begins, to play the chosen one."""
    modules = (*HOT_MODULES, __name__)
    return kernels_for(game.variant, game.params, modules, keep=True, uses=("run_uct",))


def _puct_kernels(game: Game) -> SimpleNamespace:
    """This module's kernels for `game`'s rules, on the states of a game (PUCT's leaves are
    handed to `prior_value` as games): the walk down and the expansion of PUCT."""
    modules = (*HOT_MODULES, __name__)
    return kernels_for(game.variant, game.params, modules, uses=("select", "expand"))


def _own_root(kernels: SimpleNamespace, game: Game) -> np.ndarray:
    """`game`'s position as its rule set's derived `kernels` play on it: with room for the
    lifts a relay rule set keeps, none kept yet."""
    root = np.zeros(kernels.layout.STATE_SIZE, dtype=np.int32)
    root[: L.STATE_SIZE] = game.state
    return root


class _Tree:
    """The node arrays of one search, grown as needed; `state_size`: the slots of the states
    its simulations play on."""

    def __init__(self, n_actions: int, state_size: int, capacity: int = 4096) -> None:
        self.n_actions = n_actions
        self.ints = np.zeros((max(capacity, 2 * n_actions + 1), 3), dtype=np.int32)
        self.floats = np.zeros((self.ints.shape[0], N_FLOATS), dtype=np.float64)
        self.floats[0, PROVEN] = UNPROVEN
        self.meta = np.array([1], dtype=np.int64)  # the root is node 0
        self.ints[0] = (-1, 0, -1)
        self.walk = (
            np.zeros(state_size, dtype=np.int32),
            np.zeros(MAX_PATH, dtype=np.int64),
            np.zeros(MAX_PATH, dtype=np.int64),
            np.zeros(state_size, dtype=np.int32),
        )

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.ints, self.floats, self.meta

    def solved(self) -> bool:
        """Whether the root's result is proven."""
        return bool(self.floats[0, PROVEN] != UNPROVEN)

    def make_room(self) -> None:
        """Double the arrays when another expansion might not fit."""
        if self.meta[SIZE] + 2 * self.n_actions <= self.ints.shape[0]:
            return
        size = 2 * self.ints.shape[0]
        ints = np.zeros((size, 3), dtype=np.int32)
        floats = np.zeros((size, N_FLOATS), dtype=np.float64)
        ints[: self.ints.shape[0]] = self.ints
        floats[: self.floats.shape[0]] = self.floats
        self.ints, self.floats = ints, floats
