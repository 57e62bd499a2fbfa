"""A stable-baselines3 `VecEnv` over the batched engine: one learner against an opponent in
every game of a batch, the opponent's moves made inside the batch.

Needs the ``train`` extra (``pip install -e ".[train]"``: stable-baselines3, sb3-contrib and
torch); the rest of the package does not import this module.

    from sb3_contrib import MaskablePPO
    from mancala_env.vec_env import MancalaVecEnv

    env = MancalaVecEnv("oware", n_envs=64, opponent="greedy", seed=0)
    model = MaskablePPO("MlpPolicy", env).learn(100_000)

Each of the ``n_envs`` slots is one game of `BatchedGames`. The learner sits in seat `seat` of
every game (0 or 1, or ``"random"``: drawn for each game whenever it starts); who moves first
is the rule option `first_player`. After the learner's actions are played, the opponent's moves
are made for all the games where the opponent is to move at once, again until the learner is
to move in every game; so `reset` and `step` always return the learner's observations.

The opponent is ``"random"``, ``"greedy"`` (see `mancala_env.opponents`), an agent spec
(``"alphabeta:depth=2"``, ``"ppo:PATH"``; loaded through the entry points of
`mancala_env.opponents`) or an agent object (anything with ``act(game)``: `AgentOpponent` plays
it in each game where it is to move, one game after the other; an agent loaded from a spec is
seeded from `seed`), any callable
``(observations, masks) -> actions`` evaluated on all the games where it is to move at once
(observations as the learner's, from the opponent's side; masks bool) -- `policy_opponent`
makes one of a MaskablePPO model, for play against a frozen copy of a policy -- or an object
with a method ``act_on_states(states, params, masks) -> actions`` that reads the engine's state
rows instead (a search agent; the states in the layout every rule set shares, as `Game.state`).
A list of opponents is a pool: each game draws one when it starts (with probabilities
`opponent_weights`, uniform when None) and keeps it to its end. Opponents can be changed
between steps (``env.opponent = ...``); games under way keep their draw when the pool is only
extended.

Rewards are the learner's: +1 / -1 / 0 when its game ends, else 0 (``reward="win_loss"``), or
with ``reward="score"`` the change in (learner's store - opponent's store) / total seeds since
the learner's previous step (counted from the start of the game in its first step). A game that
ends is `done`, and its slot starts a new game at once, stable-baselines3 style: the step's
observation is already the new game's (after the opponent's opening moves if it moves first),
and ``infos[i]`` holds ``terminal_observation`` (the learner's view of the final position),
``seat``, ``winner`` (0, 1, or None for a draw) and ``end_reason``.

`action_masks()` returns the learner's legal actions, one bool row per game, which is what
sb3-contrib's MaskablePPO reads; an illegal action raises `ValueError` naming the legal ones.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn

from .inputs import integer
from .learner_batch import AgentOpponent, LearnerBatch, Opponent


def policy_opponent(model: Any, deterministic: bool = False) -> Callable:
    """An opponent that plays the moves of `model`, a MaskablePPO (or anything with its
    ``predict(observations, action_masks=...)``), evaluated on all its games at once."""

    def play(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        actions, _ = model.predict(observations, action_masks=masks, deterministic=deterministic)
        return actions

    return play


class MancalaVecEnv(LearnerBatch, VecEnv):
    """`n_envs` games of `variant` for one learner in seat `seat` against `opponent`.

    Keyword arguments other than the environment's own are the rule set's options (see
    `BatchedGames`). `seed` seeds the first player, the seats and the built-in opponents; a
    seed given by `seed()` (as stable-baselines3 models do) applies at the next `reset`.
    """

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
        n_envs = integer(n_envs, "n_envs", 1)
        LearnerBatch.__init__(
            self, variant, n_envs, opponent, seat, seed, reward, observation, **options
        )
        self.render_mode = None
        self._actions = np.zeros(n_envs, dtype=np.int64)
        VecEnv.__init__(self, n_envs, self.encoding.space, spaces.Discrete(self.games.n_actions))

    # ---- the VecEnv API ----------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        """Start a new game in every slot; returns the learner's observations."""
        observations = self._start(self._seeds[0])
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return observations

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> VecEnvStepReturn:
        observations, rewards, dones, ends = self._advance(self._actions)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for k, row in enumerate(ends.rows):
            infos[row] = {
                "terminal_observation": ends.observations[k],
                "seat": int(ends.seats[k]),
                "winner": None if ends.winners[k] < 0 else int(ends.winners[k]),
                "end_reason": ends.reasons[k],
            }
        return observations, rewards, dones, infos

    def close(self) -> None:
        pass

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The attribute `attr_name` of this environment (shared by all games), once per game."""
        value = getattr(self, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set `attr_name` for all the games (they share their attributes)."""
        if sorted(self._get_indices(indices)) != list(range(self.num_envs)):
            raise ValueError(f"{attr_name!r} is shared by all the games; set it for all of them")
        setattr(self, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs
    ) -> list[Any]:
        """``env_method("action_masks")`` gives each game's mask (how sb3-contrib reads masks);
        any other method of this environment is called once and its result given to each."""
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        rows = self._get_indices(indices)
        if method_name == "action_masks":
            return [result[i] for i in rows]
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None for _ in range(self.num_envs)]


__all__ = ["AgentOpponent", "MancalaVecEnv", "policy_opponent"]
