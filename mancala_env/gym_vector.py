"""Gymnasium's vector environment over the batched engine: `num_envs` games, a learner in one seat
of each against a built-in opponent, the opponent's moves made inside the batch.

| Creation          | `gymnasium.make_vec("mancala_env/<Title>-v<N>", num_envs=N)`     |
|-------------------|------------------------------------------------------------------|
| Action space      | `MultiDiscrete([n] * N)`; `single_action_space` is `Discrete(n)` |
| Observation space | `Box((N, k), int8)`, a row per game, from the learner's side     |
| Action mask       | `info["action_mask"]`, `(N, n)` int8; `action_masks()` as bool   |
| Autoreset         | same step, or `autoreset_mode="NextStep"` (``metadata``)         |

Every rule set's Gymnasium id has this class as its vector entry point, so `make_vec` without a
`vectorization_mode` (or with ``"vector_entry_point"``) makes it, and refuses a `num_envs` that
is not an integer of 1 or more in one line. ``"sync"`` and ``"async"`` are Gymnasium's own
`SyncVectorEnv` and `AsyncVectorEnv`, stepping one `mancala_env.gym_env.SingleAgentEnv` per game
in Python: Gymnasium makes their `num_envs` environments itself, without asking this suite, so
there a `num_envs` below 1 fails inside Gymnasium (an IndexError) before any code of the suite
runs. Its arguments are those of `mancala_env.vec_env.MancalaVecEnv`, the stable-baselines3
environment it shares its engine side with (`mancala_env.learner_batch.LearnerBatch`): `opponent`
(``"random"``, ``"greedy"``, an agent spec such as ``"alphabeta:depth=1"``, an agent, a callable
on observations and masks, or a list of these: a pool, one drawn for each game), `seat` (0, 1 or
``"random"``, drawn for each game), `reward` (``"win_loss"`` or ``"score"``), `observation`
(``"raw"`` or ``"common"``); any other keyword is a rule option (``make_vec(..., num_envs=64,
seeds=3)``).

Each step plays the learner's `actions`, one per game, then the opponent's moves until the
learner is to move in every game; an action that is not legal raises `ValueError` naming the
legal ones, before any game is stepped.

Autoreset (``metadata["autoreset_mode"]``, set by the argument `autoreset_mode`; games are never
truncated):

- ``AutoresetMode.SAME_STEP``, the default: a game that ends in a step is `terminated` and its
  slot starts a new game at once, so the step's observation, `action_mask` and `seat` are
  already the new game's (after the opponent's opening moves if it moves first). As Gymnasium's
  `SyncVectorEnv(..., autoreset_mode=AutoresetMode.SAME_STEP)` does, ``info["final_obs"]`` (an
  object array, None where no game ended) holds the learner's view of each final position and
  ``info["final_info"]`` the ended games' ``seat``, ``winner`` (the winning seat, -1 for a
  draw) and ``end_reason``, each key with its ``_key`` mask of the games that have it.
- ``AutoresetMode.NEXT_STEP`` (``autoreset_mode="NextStep"``), Gymnasium's default mode: the
  step in which a game ends returns its final observation, an all-zero mask, its ``seat`` and
  ``winner`` and ``end_reason`` in `info` (masked by ``_winner`` and ``_end_reason``); in the
  next step that slot's action is not looked at and the slot returns the new game (reward 0,
  not terminated). What older Gymnasium wrappers assume (1.2's `RecordEpisodeStatistics`
  counts a same-step game one step short).

Seeding: `reset(seed=...)` (an integer, or a list of integers taken together) seeds the first
players, the seats, the random settings out, the draws from a pool and the opponents' choices
(agents included), so a seeded reset and the same actions replay the same games. `reset`
restarts every game; `options` is not used.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .inputs import integer
from .learner_batch import Ends, LearnerBatch, Opponent


class MancalaVectorEnv(LearnerBatch, VectorEnv):
    """`num_envs` games of `variant`, the learner in seat `seat` against `opponent`.

    Keyword arguments other than the environment's own are the rule set's options.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1,
        variant: str = "oware",
        opponent: Opponent | list[Opponent] = "random",
        seat: int | str = "random",
        reward: str = "win_loss",
        observation: str = "raw",
        render_mode: str | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
        **options: Any,
    ) -> None:
        num_envs = integer(num_envs, "num_envs", 1)
        if render_mode is not None:
            raise ValueError(
                f"render_mode {render_mode!r} is not supported by the batched environment; "
                "render one game with gymnasium.make or use vectorization_mode='sync'"
            )
        modes = (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP)
        mode = next((m for m in modes if autoreset_mode in (m, m.value)), None)
        if mode is None:
            raise ValueError(
                f"autoreset_mode must be one of {[m.value for m in modes]} (or an AutoresetMode "
                f"of them); got {autoreset_mode!r}"
            )
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        LearnerBatch.__init__(
            self, variant, num_envs, opponent, seat, None, reward, observation, **options
        )
        self.single_observation_space = self.encoding.space
        self.single_action_space = spaces.Discrete(self.games.n_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.observation_names = self.encoding.names
        self._all = np.ones(self.num_envs, dtype=bool)
        self._pending = np.zeros(self.num_envs, dtype=bool)  # next step: games to show anew
        self._masks = np.zeros((self.num_envs, self.games.n_actions), dtype=np.int8)

    def reset(
        self,
        *,
        seed: int | Sequence[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new game in every slot (`options` is accepted for the API and not used);
        the learner's observations and the info (``action_mask``, ``seat``)."""
        if seed is not None:
            seed = _entropy(seed)
        observations = self._start(seed)
        self._pending[:] = False
        return observations, self._info()

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play the learner's `actions` (one per game), then the opponent's moves until the
        learner is to move in every game; see the module's docstring for games that end."""
        active = ~self._pending if self._pending.any() else None
        observations, rewards, terminations, ends = self._advance(actions, active)
        truncations = np.zeros(self.num_envs, dtype=bool)
        info = self._info()
        if len(ends.rows) and self.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP:
            rows = ends.rows
            observations[rows] = ends.observations
            info["action_mask"][rows] = 0
            self._masks[rows] = 0
            info["seat"][rows] = ends.seats
            final = self._final(ends)["final_info"]
            info.update({key: final[key] for key in ("winner", "_winner")})
            info.update({key: final[key] for key in ("end_reason", "_end_reason")})
        elif len(ends.rows):
            info.update(self._final(ends))
        self._pending[:] = terminations
        return observations, rewards.astype(np.float64), terminations, truncations, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every game as the last step showed them, (num_envs,
        n_actions) bool (with next-step autoreset, none in a game that has just ended)."""
        return self._masks.astype(bool)

    # ---- helpers -----------------------------------------------------------------------------
    def _info(self) -> dict[str, Any]:
        self._masks = self.games.masks.astype(np.int8)
        return {
            "action_mask": self._masks.copy(),
            "_action_mask": self._all.copy(),
            "seat": self.seats.astype(np.int64),
            "_seat": self._all.copy(),
        }

    def _final(self, ends: Ends) -> dict[str, Any]:
        """``final_obs`` and ``final_info`` of the games that ended, as `SyncVectorEnv` gives
        them in same-step autoreset."""
        n, rows = self.num_envs, ends.rows
        ended = np.zeros(n, dtype=bool)
        ended[rows] = True
        final_obs = np.full(n, None, dtype=object)
        for k, row in enumerate(rows):
            final_obs[row] = ends.observations[k]
        seats = np.zeros(n, dtype=np.int64)
        seats[rows] = ends.seats
        winners = np.zeros(n, dtype=np.int64)
        winners[rows] = ends.winners
        reasons = np.full(n, None, dtype=object)
        reasons[rows] = ends.reasons
        final_info = {
            "seat": seats,
            "_seat": ended.copy(),
            "winner": winners,
            "_winner": ended.copy(),
            "end_reason": reasons,
            "_end_reason": ended.copy(),
        }
        return {
            "final_obs": final_obs,
            "_final_obs": ended.copy(),
            "final_info": final_info,
            "_final_info": ended,
        }


def _entropy(seed: Any) -> int | list[int]:
    """`seed` checked: a non-negative integer or a list of them."""
    values = [seed] if isinstance(seed, (int, np.integer)) else seed
    if (
        isinstance(seed, (str, bytes, bool))
        or not isinstance(values, Sequence | np.ndarray)
        or not len(values)
        or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in values)
        or any(v < 0 for v in values)
    ):
        raise ValueError(f"seed must be a non-negative integer or a list of them, got {seed!r}")
    return int(seed) if isinstance(seed, (int, np.integer)) else [int(v) for v in values]


__all__ = ["MancalaVectorEnv"]
