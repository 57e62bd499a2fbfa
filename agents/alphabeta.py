"""Alpha-beta search: negamax with iterative deepening, move ordering and a transposition table,
compiled with numba and run on copies of the engine's state arrays.

The search is derived, with the engine, for the rules of the game it is given
(`mancala_env.kernels.kernels_for`): it steps positions with the rule set's own `step`, the one
the game runs, so it plays by exactly those rules: extra turns (the same player moves again, and
the negamax sign flips only when the player to move changes), passes, the rounds of a match (a
match goes on across rounds; only the end of the whole game is final), special moves and
setting out.

- Values are from the view of the player to move. A finished game is worth ``+WIN`` to its
  winner (``-WIN`` to the loser, 0 for a draw), one point less for every ply it takes, so a
  quicker win is preferred and a loss is put off. Other positions at the search horizon get the
  evaluation: by default the store difference, from the view of the player to move.
- Move ordering: the previous iteration's best move (at the root) or the transposition table's
  move first, then the moves that win the game at once, then by the seeds they win this turn
  (store gain less the opponent's); at the root, moves that tie are shuffled by the agent's seed.
- The transposition table is keyed on a 64-bit hash of every slot of the state that affects
  legal moves and outcomes (the engine's `position.POSITION_SLOTS`), and stores a value, a
  bound and the best move.
  A stored value is used only for a search of the same depth, so a fixed-depth search returns
  exactly the minimax value of that depth, with the table or without it.
- With an endgame database (`tb`, see docs/endgames.md), a position it covers
  (in play, at most its seed count on the board) is not searched further nor evaluated: its
  value is the game's result under best play, the database's value (the seeds the mover still
  wins from the board) added to the stores (`_database_value`). At the root of such a position
  the move is the database's best (`AlphaBetaAgent._database_move`, played by the database's
  own probe, derived for its rules), as the `perfect` agent plays.
- While the seeds are set out (Mangala), the distributor's choices are limited to
  `set_out_choices` counts spread from the fewest to the most of the seeds left that the rules
  allow, and the even share (the setting out's own search hint,
  `engine.setting_out.set_out_sampled`).
"""

from __future__ import annotations

import os
import time
import types
from collections.abc import Callable
from functools import cache
from types import SimpleNamespace

import numpy as np
from numba.extending import is_jitted

from mancala_env import Game
from mancala_env.endgame.database import DatabaseFolder, EndgameDatabase
from mancala_env.endgame.index import BINOMIAL
from mancala_env.endgame.probe import board_half_seeds, level_list
from mancala_env.engine import layout as L
from mancala_env.engine.board import board_seeds
from mancala_env.engine.jit import njit
from mancala_env.engine.position import position_key
from mancala_env.engine.setting_out import set_out_sampled
from mancala_env.engine.turn import step
from mancala_env.inputs import integer
from mancala_env.kernels import kernels_for

from .search import SearchAgent

WIN = 1_000_000.0  # the value of a won game, less one a ply
WIN_ZONE = WIN / 2  # values beyond this are proven wins or losses
EVAL_BOUND = 100_000.0  # evaluations are clipped to +-EVAL_BOUND
MAX_DEPTH = 64  # deepest iteration (plies)
# A result the endgame database proves: below every win the search reaches itself (certain,
# where a database's assumes the stall counter has room), above WIN_ZONE, ordered by the final
# seed margin first (TB_SEED a seed), then by plies as every proven result.
TB_WIN = WIN - 10_000.0
TB_SEED = 100.0

EVAL_STORE = 0
EVAL_ROUNDS = 1
EVALUATIONS = {"store": EVAL_STORE, "rounds": EVAL_ROUNDS}

# Transposition table entry kinds.
EXACT = 0
LOWER = 1  # the value is a lower bound (the search failed high)
UPPER = 2  # the value is an upper bound (the search failed low)

# Search statistics and controls (one int64 array shared by the whole search).
NODES = 0  # positions made by `step`
NODE_LIMIT = 1  # stop (abort the iteration) once this many positions were made
ABORTED = 2  # 1 when the iteration was stopped by NODE_LIMIT
BEST = 3  # the root's best move
PV = 4  # the move to search first at the root (the previous iteration's best), -1 for none
LEAVES = 5  # positions evaluated at the horizon (0: the whole tree was searched)
N_STATS = 6


@njit(cache=True)
def store_difference(state, player, params):
    """The seeds `player` has captured less the opponent's: the default evaluation."""
    return float(state[L.STORE + player] - state[L.STORE + 1 - player])


@njit(cache=True)
def rounds_and_stores(state, player, params):
    """The store difference, plus the difference in rounds won counted as all the seeds of the
    game each (for matches won on rounds)."""
    rounds = state[L.ROUNDS_WON + player] - state[L.ROUNDS_WON + 1 - player]
    return store_difference(state, player, params) + float(rounds * params[L.P_TOTAL_SEEDS])


@njit(cache=True)
def _evaluate(state, player, params, kind):
    """The built-in evaluation `kind` (EVAL_*) of `state` from `player`'s view."""
    if kind == EVAL_ROUNDS:
        return rounds_and_stores(state, player, params)
    return store_difference(state, player, params)


@njit(cache=True)
def final_value(state):
    """The value of a finished game from the view of the player in state[TO_MOVE]."""
    winner = state[L.WINNER]
    if winner < 0:
        return 0.0
    return WIN if winner == state[L.TO_MOVE] else -WIN


@njit(cache=True)
def _widen(bound):
    """The bound on a child's value that gives `bound` on the parent once decayed."""
    if bound > WIN_ZONE:
        return bound + 1.0
    if bound < -WIN_ZONE:
        return bound - 1.0
    return bound


@njit(cache=True)
def _decay(value):
    """A win or loss one ply further away is worth one point less."""
    if value > WIN_ZONE:
        return value - 1.0
    if value < -WIN_ZONE:
        return value + 1.0
    return value


@njit(cache=True)
def _database_value(state, half_seeds, params):
    """The value, for the player to move, of the covered `state` of whose board they win
    `half_seeds` against best play: the final seed margin `m` (their stores plus what they win,
    less the opponent's) makes a proven win ``TB_WIN + TB_SEED * m``, a draw 0 or a loss
    ``-TB_WIN + TB_SEED * m``. A margin of one seed with a chase's odd seed counted half to each
    (`half_seeds` odd) is no proof: the stall stop gives that seed to one player, which the
    board alone cannot tell (docs/endgames.md); it is scored `m`, as the store difference."""
    mover = state[L.TO_MOVE]
    margin = (
        state[L.STORE + mover]
        - state[L.STORE + 1 - mover]
        - board_seeds(state, params)
        + half_seeds
    )
    if half_seeds % 2 == 1 and abs(margin) <= 1:
        return float(margin)
    if margin == 0:
        return 0.0
    return (TB_WIN if margin > 0 else -TB_WIN) + TB_SEED * margin


@njit(cache=True)
def _covered(state, endgames):
    """Whether the endgame database `endgames` holds the position `state` (one still on)."""
    max_seeds, database_rules = endgames[1], endgames[2]  # -1: no database
    return (
        max_seeds >= 0
        and state[L.PHASE] == L.PHASE_PLAY
        and board_seeds(state, database_rules) <= max_seeds
    )


@njit(cache=True)
def _negamax(state, depth, ply, alpha, beta, params, rules, table, plies, control):
    """The value of `state` for its player to move, searched `depth` plies (fail-soft).

    `params` are the rule parameters; the rest travels in tuples: `rules` (the evaluation kind,
    the set-out choices, the endgame database: its levels, largest seed count, rules and a
    scratch board; -1 seeds: none), `table` (the transposition table's keys, values, depths,
    flags and moves; empty: no table), `plies` (each ply's children, their order keys, actions
    and indices) and `control` (the statistics and controls `stats`, the root's tie-breaking
    noise)."""
    kind, set_out_choices, endgames = rules
    tt_keys, tt_values, tt_depths, tt_flags, tt_moves = table
    children, keys, actions, index = plies
    stats, noise = control
    if state[L.OVER] == 1:
        return final_value(state)
    mover = state[L.TO_MOVE]
    if _covered(state, endgames):  # exact: no horizon, searching deeper changes nothing
        # (a covered root is not searched: `AlphaBetaAgent._database_move` plays it)
        levels, _, database_params, board = endgames
        half_seeds = board_half_seeds(state, database_params, levels, BINOMIAL, board)
        return _database_value(state, half_seeds, params)
    if depth == 0:
        stats[LEAVES] += 1
        value = _evaluate(state, mover, params, kind)
        return min(max(value, -EVAL_BOUND), EVAL_BOUND)
    if stats[NODES] >= stats[NODE_LIMIT]:
        stats[ABORTED] = 1
        return 0.0
    use_table = tt_keys.shape[0] > 0
    key = np.uint64(0)
    slot = 0
    first = -1
    if use_table:
        key = position_key(state)
        slot = np.int64(key & np.uint64(tt_keys.shape[0] - 1))
        if tt_keys[slot] == key:
            first = tt_moves[slot]
            if ply > 0 and tt_depths[slot] == depth:
                value = tt_values[slot]
                flag = tt_flags[slot]
                if (
                    flag == EXACT
                    or (flag == LOWER and value >= beta)
                    or (flag == UPPER and value <= alpha)
                ):
                    stats[LEAVES] += 1  # a stored search that may have reached its horizon
                    return value
    if ply == 0 and stats[PV] >= 0:
        first = stats[PV]

    # Make every child and order them.
    opponent = 1 - mover
    setting_out = state[L.PHASE] == L.PHASE_SET_OUT
    n = 0
    for action in range(params[L.P_N_ACTIONS]):
        if state[L.LEGAL + action] == 0:
            continue
        if setting_out and not set_out_sampled(state, action, params, set_out_choices):
            continue
        child = children[ply, n]
        child[:] = state
        step(child, action, params)
        stats[NODES] += 1
        gain = (child[L.STORE + mover] - state[L.STORE + mover]) - (
            child[L.STORE + opponent] - state[L.STORE + opponent]
        )
        order_key = float(gain)
        if child[L.OVER] == 1 and child[L.WINNER] == mover:
            order_key += 1e8
        if action == first:
            order_key += 1e9
        if ply == 0:
            order_key += noise[action]
        keys[ply, n] = order_key
        actions[ply, n] = action
        index[ply, n] = n
        n += 1
    if n == 0:  # not reached: a game still on always has a legal move
        return min(max(_evaluate(state, mover, params, kind), -EVAL_BOUND), EVAL_BOUND)

    alpha_in = alpha
    best = -np.inf
    best_move = -1
    for i in range(n):
        # Selection sort, one step at a time: a cut-off spares sorting the rest.
        top = i
        for j in range(i + 1, n):
            if keys[ply, j] > keys[ply, top]:
                top = j
        if top != i:
            keys[ply, i], keys[ply, top] = keys[ply, top], keys[ply, i]
            actions[ply, i], actions[ply, top] = actions[ply, top], actions[ply, i]
            index[ply, i], index[ply, top] = index[ply, top], index[ply, i]
        child = children[ply, index[ply, i]]
        # An extra turn (or the opponent passes) keeps the mover's view; else the view flips.
        sign = 1.0 if child[L.TO_MOVE] == mover else -1.0
        low, high = (_widen(alpha), _widen(beta)) if sign > 0 else (-_widen(beta), -_widen(alpha))
        value = sign * _negamax(
            child, depth - 1, ply + 1, low, high, params, rules, table, plies, control
        )
        if stats[ABORTED] == 1:
            return 0.0
        value = _decay(value)
        if value > best:
            best = value
            best_move = actions[ply, i]
        if value > alpha:
            alpha = value
        if alpha >= beta:
            break

    if use_table:
        tt_keys[slot] = key
        tt_values[slot] = best
        tt_depths[slot] = depth
        tt_moves[slot] = best_move
        if best <= alpha_in:
            tt_flags[slot] = UPPER
        elif best >= beta:
            tt_flags[slot] = LOWER
        else:
            tt_flags[slot] = EXACT
    if ply == 0:
        stats[BEST] = best_move
    return best


def _kernels(game: Game) -> SimpleNamespace:
    """This module's kernels for `game`'s rules (`mancala_env.kernels`): the search steps
    positions with the rule set's own `step`."""
    return kernels_for(game.variant, game.params, (__name__,), uses=("_negamax",))


# (a user's evaluation, a rule set's `_negamax`) -> the search that uses both
_SEARCHES: dict[tuple[Callable, Callable], Callable] = {}


def _search_with(evaluate: Callable, compiled: bool, negamax: Callable) -> Callable:
    """`negamax` (this module's, for a rule set) with a user's evaluation
    ``evaluate(state, player, params) -> float``: compiled when `evaluate` is a numba function,
    plain Python (much slower) otherwise."""
    if (evaluate, negamax) not in _SEARCHES:
        _SEARCHES[evaluate, negamax] = _build_search(evaluate, compiled, negamax)
    return _SEARCHES[evaluate, negamax]


def _build_search(evaluate: Callable, compiled: bool, negamax: Callable) -> Callable:
    def adapter(state, player, params, kind):
        return evaluate(state, player, params)

    python = getattr(negamax, "py_func", negamax)  # (NUMBA_DISABLE_JIT=1: no py_func)
    namespace = dict(python.__globals__)
    function = types.FunctionType(python.__code__, namespace, "_negamax")
    search = njit(function) if compiled else function
    namespace["_negamax"] = search  # the recursion calls this search
    namespace["_evaluate"] = njit(adapter) if compiled else adapter
    return search


_WARM: set[Callable] = set()  # searches compiled in this process


@cache
def _no_database() -> tuple[object, int, np.ndarray, np.ndarray]:
    """The endgame database argument of a search without one."""
    return level_list([]), -1, np.zeros(1, np.int32), np.zeros(L.MAX_PITS, np.int64)


def _probe(database: EndgameDatabase) -> tuple[object, int, np.ndarray, np.ndarray]:
    """The endgame database argument of a search with `database`."""
    board = np.zeros(database.n_pits, np.int64)
    return database.compiled_levels, database.max_seeds, database.params, board


def _stats() -> np.ndarray:
    stats = np.zeros(N_STATS, dtype=np.int64)
    stats[NODE_LIMIT] = np.iinfo(np.int64).max
    stats[PV] = -1
    return stats


class AlphaBetaAgent(SearchAgent):
    """Negamax alpha-beta with iterative deepening to `depth` plies and/or for `time_limit`
    seconds a move (default: depth 6).

    `evaluate` is a built-in evaluation (``"store"``: store difference; ``"rounds"``: store
    difference plus rounds won, each worth all the seeds of the game) or a callable
    ``evaluate(state, player, params) -> float`` of the engine's state and rule parameter arrays,
    from `player`'s view (a numba ``@njit`` function keeps the search compiled; a plain Python one
    runs it in Python). `table` turns the transposition table (2**`table_bits` entries) on or off.
    `tb` is the directory of an endgame database (docs/endgames.md) whose positions get their
    exact value; it is opened, and checked against the rules, at the first move of a game of
    those rules (a database of other rules raises DatabaseError, a ValueError).
    After each move, `last_nodes`, `last_depth`, `last_value` and `last_seconds` describe the
    search.
    """

    depth: int | None  # the work budget: plies (None: the time limit alone)
    code_version = 1  # part of its identity: raise it when its play changes
    budget_key = "depth"
    default_budget = 6
    max_budget = MAX_DEPTH
    warmed = _WARM

    def __init__(
        self,
        depth: int | None = None,
        time_limit: float | None = None,
        evaluate: str | Callable = "store",
        table: bool = True,
        table_bits: int = 20,
        set_out_choices: int = 5,
        tb: str | os.PathLike | None = None,
        seed: int | None = None,
    ) -> None:
        if isinstance(evaluate, str):
            if evaluate not in EVALUATIONS:
                raise ValueError(
                    f"unknown evaluation {evaluate!r}; built-in: {', '.join(EVALUATIONS)}"
                )
            self._kind = EVALUATIONS[evaluate]
        elif callable(evaluate):
            self._kind = -1
        else:
            raise ValueError(f"evaluate must be a name or a callable, got {evaluate!r}")
        self.evaluate = evaluate
        self.table = table
        self.table_bits = table_bits
        self.set_out_choices = set_out_choices
        self.tb = None if tb is None else DatabaseFolder(tb)
        self._databases: dict[bytes, EndgameDatabase] = {}  # rule parameters -> database
        self._table: tuple[np.ndarray, ...] | None = None
        self._table_params: np.ndarray | None = None
        self._buffers: tuple[np.ndarray, ...] | None = None
        super().__init__(depth, time_limit, seed)

    def _settings(self) -> list[str]:
        return [] if self.tb is None else [f"tb={self.tb.directory}"]

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        if self._table is not None:
            self._table[0][:] = 0  # forget the last game's positions

    def _forget_last_move(self) -> None:
        self.last_nodes = 0
        self.last_depth = 0
        self.last_value = 0.0

    def _arrays(self, params: np.ndarray) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
        n_actions = int(params[L.P_N_ACTIONS])
        if self._table is None:
            size = 1 << self.table_bits if self.table else 0
            self._table = (
                np.zeros(size, dtype=np.uint64),
                np.zeros(size, dtype=np.float64),
                np.zeros(size, dtype=np.int16),
                np.zeros(size, dtype=np.int8),
                np.zeros(size, dtype=np.int16),
            )
            self._table_params = params.copy()
        if self._table_params is None or not np.array_equal(self._table_params, params):
            self._table[0][:] = 0  # the stored values hold for one rule set only
            self._table_params = params.copy()
        if self._buffers is None or self._buffers[0].shape[1] < n_actions:
            plies = MAX_DEPTH + 1
            self._buffers = (
                np.zeros((plies, n_actions, L.STATE_SIZE), dtype=np.int32),
                np.zeros((plies, n_actions), dtype=np.float64),
                np.zeros((plies, n_actions), dtype=np.int64),
                np.zeros((plies, n_actions), dtype=np.int64),
            )
        return self._table, self._buffers

    def search(
        self, game: Game, depth: int, node_limit: int | None = None
    ) -> tuple[float, int] | None:
        """One fixed-depth search of `game`'s position: its value for the player to move and
        the best move (uses and fills the transposition table; with `tb`, probes the database
        opened for these rules by `open_database`). With `node_limit`, None when the search
        would make more positions than that; `last_nodes` says how many it made."""
        stats = _stats()
        if node_limit is not None:
            stats[NODE_LIMIT] = integer(node_limit, "node_limit", 0, int(stats[NODE_LIMIT]))
        noise = np.zeros(game.n_actions)
        value = self._run(game, game.state.copy(), depth, stats, noise)
        self.last_nodes = int(stats[NODES])
        if stats[ABORTED] == 1:
            return None
        return value, int(stats[BEST])

    def open_database(self, game: Game) -> EndgameDatabase | None:
        """The agent's endgame database for `game`'s rules (None without `tb`), opened once;
        DatabaseError when it was built for other rules."""
        if self.tb is None:
            return None
        database = self.tb.for_game(game)
        self._databases[game.params.tobytes()] = database
        return database

    def _search_for(self, game: Game) -> Callable:
        """The search of `game`'s rules: this module's `_negamax` for them, with the agent's
        own evaluation where it has one."""
        negamax = _kernels(game)._negamax
        if isinstance(self.evaluate, str):
            return negamax
        return _search_with(self.evaluate, is_jitted(self.evaluate), negamax)

    def _run(self, game, state, depth, stats, noise) -> float:
        """The value of `state`, a position of `game`'s rules, searched `depth` plies deep:
        the database's where it covers the position."""
        database = self._databases.get(game.params.tobytes())
        if database is not None and database.covers_state(state):
            return self._database_move(game, database, state, stats, noise)
        endgames = _no_database() if database is None else _probe(database)
        return self._tree_search(game, state, depth, stats, noise, endgames)

    def _tree_search(self, game, state, depth, stats, noise, endgames) -> float:
        """`_negamax` of `game`'s rules on `state`, with the endgame database `endgames`."""
        table, buffers = self._arrays(game.params)
        rules = (self._kind, self.set_out_choices, endgames)
        search = self._search_for(game)
        return float(
            search(
                state, depth, 0, -np.inf, np.inf, game.params, rules, table, buffers, (stats, noise)
            )
        )

    def _database_move(self, game, database, state, stats, noise) -> float:
        """The move at a root the database covers: its best by the database (ties broken by
        `noise`, the first of equals), and the position's value."""
        won = database.move_values(state)
        best = max(won, key=lambda action: won[action] + noise[action])
        stats[NODES] += len(won)
        stats[BEST] = best
        return float(_kernels(game)._database_value(state, won[best], game.params))

    def _search_key(self, game: Game) -> Callable:
        return self._search_for(game)

    def _warm_up(self, game: Game) -> None:
        noise = np.zeros(game.n_actions)
        self._tree_search(game, game.state.copy(), 1, _stats(), noise, _no_database())
        self._table[0][:] = 0  # the warm-up's entries would steer this game's search

    def _best_action(self, game: Game, legal: list[int], deadline: float | None) -> int:
        """Iterative deepening until the depth or the time runs out, or the result is proven."""
        self.open_database(game)
        state = game.state.copy()
        noise = self.rng.random(game.n_actions) * 0.5
        stats = np.zeros(N_STATS, dtype=np.int64)
        limit = np.iinfo(np.int64).max
        best, pv = legal[0], -1
        for depth in range(1, (self.depth or MAX_DEPTH) + 1):
            stats[:] = 0
            stats[NODE_LIMIT] = limit
            stats[PV] = pv
            began = time.perf_counter()
            value = self._run(game, state, depth, stats, noise)
            ended = time.perf_counter()
            self.last_nodes += int(stats[NODES])
            if stats[ABORTED] == 1:
                break
            best = pv = int(stats[BEST])
            self.last_depth = depth
            self.last_value = value
            if abs(value) > WIN_ZONE or stats[LEAVES] == 0:
                break  # proven, or every line was searched to the end
            if deadline is not None:
                if ended >= deadline:
                    break
                rate = stats[NODES] / max(ended - began, 1e-6)
                limit = int(rate * (deadline - ended)) + 1
        return best
