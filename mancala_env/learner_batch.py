"""The engine side of the vector environments: the games of a batch, a learner in one seat of
each, an opponent in the other, the opponent's moves made inside the batch.

`LearnerBatch` holds what `mancala_env.vec_env.MancalaVecEnv` (stable-baselines3's `VecEnv`) and
`mancala_env.gym_vector.MancalaVectorEnv` (Gymnasium's `VectorEnv`) share: the batch, the seats,
the opponent pool, the rewards and the games that ended in a step. Each of them only puts these
in its library's shape; see `mancala_env.vec_env` for the opponents and the rewards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .batch import BatchedGames, BatchStep
from .common_observation import ObservationEncoding
from .engine import layout as L
from .game import Game
from .inputs import check_reward, check_seat
from .observation import MAX_OBSERVATION
from .opponents import OPPONENTS, load_opponent, opponent_actions, random_actions

SEED_RANGE = 2**31  # seeds drawn for agents loaded from specs

Opponent = str | Callable[[np.ndarray, np.ndarray], Any] | Any


class AgentOpponent:
    """An agent (anything with ``act(game)``) as a batch opponent: it plays each game of the
    batch where it is to move, one after the other, on a `Game` of the batch's rule set."""

    def __init__(self, agent: Any, game: Game) -> None:
        self.agent = agent
        self.game = game

    def __repr__(self) -> str:
        return f"AgentOpponent({self.agent!r})"

    def act_on_states(self, states: np.ndarray, params: np.ndarray, masks: np.ndarray) -> Any:
        actions = np.empty(len(states), dtype=np.int64)
        for i, state in enumerate(states):
            self.game.state = state.copy()
            actions[i] = self.agent.act(self.game)
        return actions


def _split(seed: Any) -> tuple[int, np.random.SeedSequence]:
    """Two independent seeds from `seed` (an integer, a list of them, or None: fresh entropy):
    an integer for the batch, a seed sequence for the learner's side."""
    games, own = np.random.SeedSequence(seed).spawn(2)
    return int(games.generate_state(1, np.uint64)[0]), own


@dataclass
class Ends:
    """The games that ended in a step (their slots already hold new games), in the order they
    ended: each game's slot, the learner's view of its final position, the learner's seat, the
    winner (-1 for a draw) and the end reason."""

    rows: np.ndarray
    observations: np.ndarray
    seats: np.ndarray
    winners: np.ndarray
    reasons: list[str]


class LearnerBatch:
    """`n_envs` games of `variant` for one learner in seat `seat` against `opponent` (see
    `mancala_env.vec_env`); keyword arguments other than these are the rule set's options."""

    def __init__(
        self,
        variant: str,
        n_envs: int,
        opponent: Opponent = "random",
        seat: int | str = "random",
        seed: int | None = None,
        reward: str = "win_loss",
        observation: str = "raw",
        **options: Any,
    ) -> None:
        check_seat(seat)
        check_reward(reward)
        games_seed, own_seed = _split(seed)
        self.games = BatchedGames(variant, n_envs, seed=games_seed, **options)
        self.num_envs = n_envs
        self._rng = np.random.default_rng(own_seed)
        self.opponent_weights: Sequence[float] | None = None
        # an `mancala_env.endgame.adjudicate.Adjudicator`: a game that reaches a position its
        # database knows the result of ends there with that result (reason "adjudicated")
        self.adjudicator: Any = None
        self.opponent_of = np.zeros(n_envs, dtype=np.int64)  # each game's opponent in the pool
        self.opponent = opponent
        self.seat_option = seat
        self.reward_mode = reward
        self.seats = np.zeros(n_envs, dtype=np.int32)  # the learner's player in each game
        self._score = np.zeros(n_envs, dtype=np.int64)  # learner's store difference, last step
        self._rows = np.arange(n_envs)
        self._final_obs = np.zeros((n_envs, MAX_OBSERVATION), dtype=np.int8)
        self.encoding = ObservationEncoding(observation, self.games.params, self.games.variant.name)
        self._raw_width = len(self.games.observation_high)
        self._started = False

    # ---- the opponent ------------------------------------------------------------------------
    @property
    def opponent(self) -> Opponent | list[Opponent]:
        """An opponent (see the module's docstring), or a list of them: a pool."""
        return self._opponent

    @opponent.setter
    def opponent(self, opponent: Opponent | list[Opponent]) -> None:
        pool = list(opponent) if isinstance(opponent, (list, tuple)) else [opponent]
        if not pool:
            raise ValueError("an opponent pool needs at least one opponent")
        members = [self._member(one) for one in pool]
        self._opponent = opponent
        self._pool = members
        stale = self.opponent_of >= len(pool)
        self.opponent_of[stale] = self._draw_opponents(int(stale.sum()))

    def _member(self, opponent: Opponent) -> Any:
        """What plays for `opponent` in the batch: a built-in's name, a callable, or an object
        with ``act_on_states`` (agents and agent specs become an `AgentOpponent`)."""
        if isinstance(opponent, str) and opponent not in OPPONENTS:
            seed = int(self._rng.integers(SEED_RANGE))
            opponent = load_opponent(opponent, self.games.variant.name, seed=seed)
        if isinstance(opponent, str) or hasattr(opponent, "act_on_states"):
            return opponent
        if callable(getattr(opponent, "act", None)):
            return AgentOpponent(opponent, Game(self.games.variant, self.games.options))
        if callable(opponent):
            return opponent
        raise ValueError(
            f"an opponent must be one of {', '.join(OPPONENTS)}, an agent spec, an agent with "
            "act(game), a callable (observations, masks) -> actions or an object with "
            f"act_on_states(states, params, masks); got {opponent!r}"
        )

    # ---- playing ---------------------------------------------------------------------------
    def _start(self, seed: int | None) -> np.ndarray:
        """Start a new game in every slot (reseeding the batch and the draws when `seed` is
        given); the learner's observations."""
        games_seed = None
        if seed is not None:
            games_seed, own_seed = _split(seed)
            self._rng = np.random.default_rng(own_seed)
            for member in self._pool:  # agents reseeded too: a seeded start replays the games
                if isinstance(member, AgentOpponent) and hasattr(member.agent, "reset"):
                    member.agent.reset(int(self._rng.integers(SEED_RANGE)))
        self.games.reset(games_seed)
        self.seats[:] = self._draw_seats(self.num_envs)
        self.opponent_of[:] = self._draw_opponents(self.num_envs)
        self._score[:] = self._learner_score()
        self._play_opponent(None)
        self._started = True
        return self._observations()

    def _advance(
        self, actions: Any, active: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, Ends]:
        """Play the learner's `actions` (in the `active` games only, when given: the others'
        actions are not looked at), then the opponent's moves until the learner is to move in
        every game: the observations, rewards and dones, and the games that ended."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        actions = self._learner_actions(actions, active)
        n = self.num_envs
        rewards = np.zeros(n, dtype=np.float32)
        dones = np.zeros(n, dtype=bool)
        ends: list[tuple] = []
        self._collect_ends(self.games.step(actions, active=active), rewards, dones, ends)
        self._play_opponent((rewards, dones, ends))
        score = self._learner_score()
        if self.reward_mode == "score":
            going = ~dones
            total = self.games.params[L.P_TOTAL_SEEDS]
            rewards[going] = (score[going] - self._score[going]) / total
            self._score[going] = score[going]
        if self.adjudicator is not None:
            self._adjudicate(rewards, dones, ends)
        return self._observations(), rewards, dones, self._joined(ends)

    def _adjudicate(self, rewards: np.ndarray, dones: np.ndarray, ends: list[tuple]) -> None:
        """End the games going on (not ended in this step) whose position the adjudicator
        knows the result of, with that result: the reward of the game's end (a win or a loss,
        or the rest of the seed difference the database gives), the end recorded, a new game
        in the slot (the opponent's opening moves made)."""
        games = self.games
        verdicts = self.adjudicator.verdicts(games.states)
        ended = np.flatnonzero(verdicts.covered & ~dones)
        if len(ended) == 0:
            return
        seats = self.seats[ended]
        winners = verdicts.winner[ended].astype(np.int32)
        dones[ended] = True
        if self.reward_mode == "win_loss":
            rewards[ended] = np.where(winners < 0, 0.0, np.where(winners == seats, 1.0, -1.0))
        else:
            scores = verdicts.scores[ended]
            own = scores[np.arange(len(ended)), seats]
            final = own - scores[np.arange(len(ended)), 1 - seats]
            rewards[ended] += (final - self._score[ended]) / games.params[L.P_TOTAL_SEEDS]
        final_obs = self._final_obs[: len(ended)]
        games.kernels.observe_rows(games.states[ended], seats, games.params, final_obs)
        seen = self.encoding.encode(final_obs[:, : self._raw_width])
        ends.append((ended, seen.copy(), seats.copy(), winners, ["adjudicated"] * len(ended)))
        games.reset_rows(ended)
        self.seats[ended] = self._draw_seats(len(ended))
        self.opponent_of[ended] = self._draw_opponents(len(ended))
        self._score[ended] = self._learner_score(ended)
        self._play_opponent(None)

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every game, (n_envs, n_actions) bool."""
        return self.games.masks.astype(bool)

    # ---- helpers -----------------------------------------------------------------------------
    def _draw_seats(self, count: int) -> np.ndarray:
        if self.seat_option == "random":
            return self._rng.integers(0, 2, size=count, dtype=np.int32)
        return np.full(count, self.seat_option, dtype=np.int32)

    def _draw_opponents(self, count: int) -> np.ndarray:
        n = len(self._pool)
        if n == 1:
            return np.zeros(count, dtype=np.int64)
        weights = self.opponent_weights
        if weights is None:
            return self._rng.integers(0, n, size=count)
        weights = np.asarray(weights, dtype=float)
        if weights.shape != (n,) or (weights < 0).any() or weights.sum() <= 0:
            raise ValueError(
                f"opponent_weights must be {n} non-negative numbers, not all 0; got {weights}"
            )
        return self._rng.choice(n, size=count, p=weights / weights.sum())

    def _learner_score(self, rows: np.ndarray | slice = slice(None)) -> np.ndarray:
        states, seats = self.games.states[rows], self.seats[rows]
        index = np.arange(len(states))
        store = self.games.layout.STORE
        own = states[index, store + seats].astype(np.int64)
        return own - states[index, store + 1 - seats]

    def _observations(self) -> np.ndarray:
        return self.encoding.encode(self.games.observations.copy())

    def _learner_actions(self, actions: Any, active: np.ndarray | None = None) -> np.ndarray:
        actions = np.asarray(actions)
        if actions.size != self.num_envs or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(
                f"actions must be {self.num_envs} integers, one per game; got shape "
                f"{actions.shape} of {actions.dtype}"
            )
        actions = actions.reshape(self.num_envs).astype(np.int64)
        rows = self._rows if active is None else np.flatnonzero(active)
        self._check_legal(actions[rows], rows, "the learner")
        return actions

    def _check_legal(self, actions: np.ndarray, rows: np.ndarray, who: str) -> None:
        masks = self.games.masks
        inside = (actions >= 0) & (actions < masks.shape[1])
        legal = inside & (masks[rows, np.where(inside, actions, 0)] == 1)
        if not legal.all():
            k = int(np.flatnonzero(~legal)[0])
            row = int(rows[k])
            raise ValueError(
                f"{who} played action {int(actions[k])} in game {row}, which is not legal; "
                f"legal actions: {np.flatnonzero(masks[row]).tolist()} (no game was stepped)"
            )

    def _opponent_actions(self, rows: np.ndarray) -> np.ndarray:
        """The moves of each game's opponent, one call per opponent of the pool."""
        actions = np.zeros(len(rows), dtype=np.int64)
        which = self.opponent_of[rows]
        for k in np.unique(which):
            mine = which == k
            actions[mine] = self._actions_of(self._pool[k], rows[mine])
        return actions

    def _actions_of(self, opponent: Opponent, rows: np.ndarray) -> np.ndarray:
        games = self.games
        masks = games.masks[rows]
        if isinstance(opponent, str) and opponent == "random":
            return random_actions(masks, self._rng)
        if isinstance(opponent, str):
            states = games.states[rows]
            return opponent_actions(opponent, states, games.params, masks, self._rng, games.kernels)
        if hasattr(opponent, "act_on_states"):
            states = games.states[rows]  # a copy: rows are states as a Game holds them
            actions = np.asarray(opponent.act_on_states(states, games.params, masks))
        else:
            seen = self.encoding.encode(games.observations[rows])
            actions = np.asarray(opponent(seen, masks.astype(bool)))
        if actions.size != len(rows) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(
                f"the opponent must return {len(rows)} integer actions, one per game it is to "
                f"move in; got shape {actions.shape} of {actions.dtype}"
            )
        return actions.reshape(len(rows)).astype(np.int64)

    def _play_opponent(self, out: tuple | None) -> None:
        """The opponent's moves, for all the games where it is to move at once, until the
        learner is to move in every game; games that end are recorded in `out`."""
        games = self.games
        while True:
            active = games.to_move != self.seats
            if not active.any():
                return
            rows = np.flatnonzero(active)
            moves = self._opponent_actions(rows)
            self._check_legal(moves, rows, "the opponent")
            actions = np.zeros(self.num_envs, dtype=np.int64)
            actions[rows] = moves
            step = games.step(actions, active=active)
            if out is None:  # opening moves at reset: a game that ends there is set out anew
                ended = np.flatnonzero(step.terminated)
                self.seats[ended] = self._draw_seats(len(ended))
                self.opponent_of[ended] = self._draw_opponents(len(ended))
                self._score[ended] = self._learner_score(ended)
            else:
                self._collect_ends(step, *out)

    def _collect_ends(
        self, step: BatchStep, rewards: np.ndarray, dones: np.ndarray, ends: list[tuple]
    ) -> None:
        """Rewards and dones of the games that ended in `step`, their ends appended to `ends`
        (as `Ends`' fields); new seats for them."""
        ended = np.flatnonzero(step.terminated)
        if len(ended) == 0:
            return
        if dones[ended].any():
            raise RuntimeError("a game started and ended without a move of the learner")
        games = self.games
        seats = self.seats[ended]
        final = step.final_states[ended]
        dones[ended] = True
        if self.reward_mode == "win_loss":
            rewards[ended] = step.rewards[ended, seats]
        else:
            own = step.final_stores[ended, seats].astype(np.int64)
            score = own - step.final_stores[ended, 1 - seats]
            total = games.params[L.P_TOTAL_SEEDS]
            rewards[ended] = (score - self._score[ended]) / total
        final_obs = self._final_obs[: len(ended)]
        games.kernels.observe_rows(final, seats, games.params, final_obs)
        seen = self.encoding.encode(final_obs[:, : self._raw_width])
        reasons = [L.END_REASON_NAMES[int(r)] for r in final[:, games.layout.END_REASON]]
        ends.append((ended, seen.copy(), seats.copy(), step.final_winner[ended].copy(), reasons))
        self.seats[ended] = self._draw_seats(len(ended))
        self.opponent_of[ended] = self._draw_opponents(len(ended))
        self._score[ended] = self._learner_score(ended)

    def _joined(self, ends: list[tuple]) -> Ends:
        """The ends collected over a step, as one `Ends`."""
        if not ends:
            space, empty = self.encoding.space, np.zeros(0, dtype=np.int64)
            return Ends(empty, np.zeros((0, *space.shape), space.dtype), empty, empty, [])
        rows, seen, seats, winners, reasons = zip(*ends, strict=True)
        return Ends(
            np.concatenate(rows),
            np.concatenate(seen),
            np.concatenate(seats),
            np.concatenate(winners),
            [reason for part in reasons for reason in part],
        )
