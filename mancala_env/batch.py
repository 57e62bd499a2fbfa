"""Many games at once: one 2-D array of states stepped by one compiled call.

`BatchedGames` holds ``n_games`` games of one rule set as rows of an ``int32`` array and steps
them all with one compiled call spread over the machine's cores (numba ``prange``, on as many
threads as gain by measure: `mancala_env.thread_count`): the rule set's own kernels, derived
from the rules the single environment runs with its parameters folded in
(`mancala_env.kernels`). A finished game reports its result in the step
that ended it and is set out again at once, so every row always holds a game in play.

    games = BatchedGames("oware", 4096, seed=0)
    obs, masks, to_move = games.reset()
    out = games.step(actions)  # one action per game, for the player to move in it
    actions, out = games.step_random()  # a random legal move in every game, in the same call

The batch's random choices (random first players, `step_random`'s moves) come from one key a
call, drawn from its generator, mixed with the game's row number inside the compiled call: the
same seed gives the same games on any number of threads.

Each row is a state as a `Game` holds it (`engine.layout`; `BatchedGames.layout` is that
module); `BatchedGames.position` and `BatchedGames.set_position` carry a game between a row and
a `Game`.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType, SimpleNamespace
from typing import Any

import numpy as np
from numba import prange

from .engine import layout as L
from .engine.jit import njit
from .engine.scratch import copy_into
from .engine.starts import random_start_seeds
from .engine.turn import new_game, step
from .game import Game, IllegalActionError, action_number
from .inputs import check_batch_seed, check_memory, is_integer
from .kernels import HOT_MODULES, kernels_for
from .observation import MAX_OBSERVATION, observation_high, write_observation
from .opponents import DRAW_BOUND, drawn_legal_action
from .thread_count import ThreadCount
from .variants import get_variant

NO_RESULT = -2  # final_winner of a game that did not end in this step (-1: a draw)
KEY_BOUND = 2**62  # a call's key is drawn below it


@dataclass
class BatchStep:
    """What one call of `BatchedGames.step` returns, one row per game.

    `observations` and `masks` are those of the player to move after the step (in a game that
    ended, of the first player of the new game). `rewards[:, p]` is player p's reward: +1 / -1 /
    0 when the game ended in this step, else 0. `final_winner` is the winner of a game that ended
    (-1 for a draw, NO_RESULT if it did not end), `final_stores` its final scores and
    `final_states` the position it ended in, in the batch's layout (`BatchedGames.layout`; rows
    of games that did not end hold stale values).
    A game left out of the step (`active`) reports no reward, no end and keeps its view.
    """

    observations: np.ndarray
    masks: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    to_move: np.ndarray
    final_winner: np.ndarray
    final_stores: np.ndarray
    final_states: np.ndarray


@njit(cache=True, _nrt=False)
def observe_rows(states, players, params, out):
    """The observation of `players[i]` in `states[i]`, written into `out[i]`, for every row."""
    for i in range(states.shape[0]):
        write_observation(states[i], players[i], params, out[i], False)


@njit(cache=True, _nrt=False)
def write_view(state, params, observation, mask, n_actions):
    player = state[L.TO_MOVE]
    write_observation(state, player, params, observation, False)
    for a in range(n_actions):
        mask[a] = state[L.LEGAL + a]


@njit(cache=True, _nrt=False)
def _row_draw(key, i):
    """A random integer below 2**62 for draw `i` of the call whose key is `key`: the splitmix64
    output function of ``key + (i + 1) * golden gamma``, so that it depends on them alone, not
    on the thread that asks."""
    z = np.uint64(key) + np.uint64(i + 1) * np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return np.int64((z ^ (z >> np.uint64(31))) >> np.uint64(2))


@njit(cache=True, _nrt=False)
def _first_player(first, key, i):
    """Game i's first player: `first` (0 or 1), or a random one when `first` is -1."""
    return first if first >= 0 else _row_draw(key, 2 * i + 1) & 1


@njit(cache=True, _nrt=False)
def batch_reset(states, params, first, key, seeds, observations, masks, to_move):
    """Set out a new game in every row (`first`, `key`: `_first_player`'s; `seeds`: for a
    random setting out of special pieces). One thread: a batch is reset once, its games start
    again inside `batch_step`, and a serial loop compiles in a fraction of a parallel one's
    time."""
    n_actions = masks.shape[1]
    for i in range(states.shape[0]):
        new_game(params, _first_player(first, key, i), states[i], seeds[i])
        write_view(states[i], params, observations[i], masks[i], n_actions)
        to_move[i] = states[i, L.TO_MOVE]


@njit(cache=True, _nrt=False)
def _step_game(i, active, states, actions, params, first, key, choose, seed, out):
    """Game `i` of `batch_step` (played when `active`): a function of its own, compiled without
    reference counting, so that the rows it reads and writes cost no atomic counts
    (`engine.scratch`). `out`: the arrays `batch_step` writes, from `observations` to
    `final_states`, in its order."""
    observations, masks, rewards, terminated, to_move, final_winner, final_stores, final_states = (
        out
    )
    rewards[i, 0] = 0.0
    rewards[i, 1] = 0.0
    terminated[i] = False
    final_winner[i] = NO_RESULT
    if not active:
        return
    if choose:
        actions[i] = drawn_legal_action(states[i], params, _row_draw(key, 2 * i))
    state = states[i]
    step(state, actions[i], params)
    terminated[i] = state[L.OVER] == 1
    if terminated[i]:
        winner = state[L.WINNER]
        final_winner[i] = winner
        final_stores[i, 0] = state[L.STORE]
        final_stores[i, 1] = state[L.STORE + 1]
        copy_into(final_states[i], state)
        if winner >= 0:
            rewards[i, winner] = 1.0
            rewards[i, 1 - winner] = -1.0
        new_game(params, _first_player(first, key, i), state, seed)
    write_view(state, params, observations[i], masks[i], masks.shape[1])
    to_move[i] = state[L.TO_MOVE]


@njit(cache=True, parallel=True)
def batch_step(states, actions, active, params, first, key, choose, seeds, out):
    """Play one action in every game whose `active` flag is set (the others are left as they
    are); finished games report their result and start again (`first`, `key`:
    `_first_player`'s). `out`: the arrays the step writes (observations, masks, rewards,
    terminated, to_move, final_winner, final_stores, final_states; `BatchStep` names them).

    `actions` holds the actions, and the number of the first active row whose action is
    illegal is returned (no game is played then), else -1; with `choose`, each active game
    plays a uniformly random legal action instead, written to `actions`, and the first active
    row that had none (-1 written; only a row written by hand) is returned.
    """
    n_actions = out[1].shape[1]  # the masks'
    n = states.shape[0]
    for i in range(0 if choose else n):  # refuse an illegal action before any play
        a = actions[i]
        if active[i] and (a < 0 or a >= n_actions or states[i, L.LEGAL + a] == 0):
            return i
    # The rows are written by _step_game alone: numba's parallel loop loses writes made in its
    # own body to arrays taken out of a tuple argument (tests/engine/test_batch.py would fail).
    for i in prange(n):
        row = np.int64(i)  # prange's index is unsigned: one signature for the row kernels
        _step_game(row, active[i], states, actions, params, first, key, choose, seeds[i], out)
    for i in range(n if choose else 0):
        if active[i] and actions[i] < 0:
            return i
    return -1


class BatchedGames:
    """`n_games` games of `variant` under the rule options `options`, stepped together."""

    def __init__(self, variant: str, n_games: int, seed: int | None = None, **options: Any) -> None:
        if not is_integer(n_games) or n_games < 1:
            raise ValueError(f"n_games must be a positive integer, got {n_games!r}")
        self.variant = get_variant(variant)
        self.options = self.variant.options(**options)
        self.params = self.variant.params(self.options)
        self.kernels = self._own_kernels()
        self.n_games = int(n_games)
        self.n_actions = int(self.params[L.P_N_ACTIONS])
        self.observation_high = observation_high(self.params)
        self._rng = np.random.default_rng(check_batch_seed(seed))
        first = self.options.first_player
        self._first = -1 if first == "random" else int(first[-1])  # see _first_player
        # the arrays below, a game's share: two states, its observation, mask and results
        per_game = 8 * self.layout.STATE_SIZE + MAX_OBSERVATION + self.n_actions + 26
        check_memory(self.n_games * per_game, f"n_games={self.n_games:,} ({per_game} bytes a game)")
        self.states = np.zeros((n_games, self.layout.STATE_SIZE), dtype=np.int32)
        self._observations = np.zeros((n_games, MAX_OBSERVATION), dtype=np.int8)
        self.masks = np.zeros((n_games, self.n_actions), dtype=np.int8)
        self.to_move = np.zeros(n_games, dtype=np.int32)
        self._rewards = np.zeros((n_games, 2), dtype=np.float32)
        self._terminated = np.zeros(n_games, dtype=np.bool_)
        self._final_winner = np.zeros(n_games, dtype=np.int32)
        self._final_stores = np.zeros((n_games, 2), dtype=np.int32)
        self._final_states = np.zeros((n_games, self.layout.STATE_SIZE), dtype=np.int32)
        self._all_active = np.ones(n_games, dtype=np.bool_)
        self._threads = ThreadCount(n_games)  # the compiled steps' numba threads
        self._out = (  # what batch_step writes, in its order
            self._observations,
            self.masks,
            self._rewards,
            self._terminated,
            self.to_move,
            self._final_winner,
            self._final_stores,
            self._final_states,
        )

    def __getstate__(self) -> dict[str, Any]:
        """A pickled or deep-copied batch holds no compiled code (numba would serialise every
        kernel by value, megabytes of it); it asks for its kernels again."""
        return {k: v for k, v in self.__dict__.items() if k not in ("kernels", "_threads")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.kernels = self._own_kernels()
        self._threads = ThreadCount(self.n_games)

    def _own_kernels(self) -> SimpleNamespace:
        return kernels_for(
            self.variant, self.params, HOT_MODULES, uses=("batch_reset", "batch_step")
        )

    @property
    def layout(self) -> ModuleType:
        """The rows' offsets: `engine.layout` (a row is a state as a `Game` holds it)."""
        return L

    @property
    def observations(self) -> np.ndarray:
        """The observation of the player to move in each game (n_games, observation size)."""
        return self._observations[:, : len(self.observation_high)]

    def position(self, i: int) -> np.ndarray:
        """Game `i`'s state (a copy, as `Game.state` holds it)."""
        return self.states[self._row(i)].copy()

    def set_position(self, i: int, game: Game) -> None:
        """Put the position of `game` (a `Game` of this batch's rule set and options, in play,
        set up by play or by `Game.restore`) into row `i`, with its observation and mask."""
        if not isinstance(game, Game) or not np.array_equal(game.params, self.params):
            raise ValueError(
                f"set_position takes a Game of {self.variant.name} under the batch's options "
                f"({self.options}), got {game!r}"
            )
        if game.state.shape != (L.STATE_SIZE,) or game.state.dtype != np.int32:
            raise ValueError(
                f"the game's state must be int32 of shape ({L.STATE_SIZE},), as a Game sets "
                f"it; got shape {game.state.shape} of {game.state.dtype}"
            )
        if game.over:
            raise ValueError("set_position takes a game in play (a batch's rows always are)")
        i = self._row(i)
        self.states[i] = game.state
        self.kernels.write_view(
            self.states[i], self.params, self._observations[i], self.masks[i], self.n_actions
        )
        self.to_move[i] = self.states[i, self.layout.TO_MOVE]

    def _row(self, i: Any) -> int:
        if not is_integer(i) or not 0 <= i < self.n_games:
            raise ValueError(f"a game's row is an integer 0..{self.n_games - 1}, got {i!r}")
        return int(i)

    def _key(self) -> int:
        """A call's key for its random choices (`_row_draw`)."""
        return int(self._rng.integers(KEY_BOUND))

    def _start_seeds(self) -> np.ndarray:
        """A seed per game for the rule set's random start (`engine.starts`; else zeros)."""
        return random_start_seeds(self.params, self._rng, self.n_games)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Start every game afresh; returns observations, masks and the players to move."""
        seed = check_batch_seed(seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.kernels.batch_reset(
            self.states,
            self.params,
            self._first,
            self._key(),
            self._start_seeds(),
            self._observations,
            self.masks,
            self.to_move,
        )
        return self.observations, self.masks, self.to_move

    def reset_rows(self, rows: np.ndarray) -> None:
        """Start new games in `rows` only (a game ended from outside, as an adjudicated one
        is), drawn as `reset` draws a start; the other games keep their positions."""
        rows = np.unique(np.asarray(rows, dtype=np.int64))
        if len(rows) == 0:
            return
        if rows[0] < 0 or rows[-1] >= self.n_games:
            raise ValueError(f"rows must be games 0..{self.n_games - 1}, got {rows.tolist()}")
        states = np.zeros((len(rows), self.layout.STATE_SIZE), dtype=np.int32)
        observations = np.zeros((len(rows), MAX_OBSERVATION), dtype=np.int8)
        masks = np.zeros((len(rows), self.n_actions), dtype=np.int8)
        to_move = np.zeros(len(rows), dtype=np.int32)
        seeds = random_start_seeds(self.params, self._rng, len(rows))
        self.kernels.batch_reset(
            states, self.params, self._first, self._key(), seeds, observations, masks, to_move
        )
        self.states[rows], self._observations[rows] = states, observations
        self.masks[rows], self.to_move[rows] = masks, to_move

    def step(self, actions: np.ndarray, active: np.ndarray | None = None) -> BatchStep:
        """Play `actions[i]` in game i (for its player to move); see `BatchStep`.

        With `active` (one bool per game), only the games where it is True are played; the
        others keep their position and view, and their entries of `actions` are not looked at.
        """
        actions = np.asarray(actions)
        if actions.shape != (self.n_games,) or not np.issubdtype(actions.dtype, np.integer):
            raise IllegalActionError(
                f"actions must be an integer array of shape ({self.n_games},), one action per "
                f"game; got shape {actions.shape} of {actions.dtype}"
            )
        bad = self._play(actions.astype(np.int64), active, choose=False)
        if bad >= 0:
            action_number(actions[bad], self.n_actions)  # out of range: says the range
            legal_at = self.layout.LEGAL
            legal = np.flatnonzero(self.states[bad, legal_at : legal_at + self.n_actions]).tolist()
            raise IllegalActionError(
                f"action {int(actions[bad])} is not legal in game {bad}; legal actions: {legal} "
                "(no game was stepped)"
            )
        return BatchStep(self.observations, *self._out[1:])  # the observations cut to size

    def step_random(self, active: np.ndarray | None = None) -> tuple[np.ndarray, BatchStep]:
        """Play a uniformly random legal action in every game (or in the `active` ones), chosen
        inside the compiled step; returns the actions played (-1 for a game left out) and the
        step (`BatchStep`)."""
        actions = np.full(self.n_games, -1, dtype=np.int64)
        stuck = self._play(actions, active, choose=True)
        if stuck >= 0:  # a game on always has a move: only a row written by hand has none
            raise ValueError(f"game {stuck} has no legal move; reset it")
        return actions, BatchStep(self.observations, *self._out[1:])

    def _play(self, actions: np.ndarray, active: np.ndarray | None, choose: bool) -> int:
        """One compiled step of every active game (`batch_step`): the first illegal (or, with
        `choose`, moveless) row, or -1."""
        if active is None:
            active = self._all_active
        else:
            active = np.asarray(active)
            if active.shape != (self.n_games,) or active.dtype != np.bool_:
                raise ValueError(
                    f"active must be {self.n_games} bools, one per game; got shape "
                    f"{active.shape} of {active.dtype}"
                )
        key, seeds = self._key(), self._start_seeds()
        with self._threads.use():
            return self.kernels.batch_step(
                self.states, actions, active, self.params, self._first, key, choose, seeds,
                self._out,
            )  # fmt: skip

    def random_actions(self, rng: np.random.Generator | None = None) -> np.ndarray:
        """A uniformly random legal action in every game."""
        rng = rng if rng is not None else self._rng
        out = np.empty(self.n_games, dtype=np.int64)
        draws = rng.integers(0, DRAW_BOUND, size=self.n_games, dtype=np.int64)
        with self._threads.use():
            self.kernels.random_legal_actions(self.states, self.params, draws, out)
        return out


__all__ = ["BatchStep", "BatchedGames", "NO_RESULT"]
