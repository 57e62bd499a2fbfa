"""A trained policy: an sb3-contrib MaskablePPO model saved with ``model.save(path)``.

The model sees what it saw in training (`mancala_env.vec_env.MancalaVecEnv`): the observation of
the player to move (`mancala_env.observation.observe`) and the legal actions as a bool mask.
stable-baselines3 is imported only when a model is loaded (the ``train`` extra).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from mancala_env import Game
from mancala_env.observation import observation_high, observe


class ModelLoadError(ValueError):
    """A saved model that cannot be loaded or does not fit the game."""


def load_maskable_ppo(path: str) -> Any:
    """`MaskablePPO.load(path)` on the CPU; ModelLoadError names the path and the reason."""
    if not os.path.exists(path) and not os.path.exists(path + ".zip"):
        raise ModelLoadError(f"cannot load a MaskablePPO model from {path!r}: no such file")
    try:
        from sb3_contrib import MaskablePPO
    except ImportError as error:
        raise ModelLoadError(
            f"cannot load {path!r}: loading a MaskablePPO model needs sb3-contrib "
            f'(pip install -e ".[train]"): {error}'
        ) from error
    try:
        return MaskablePPO.load(path, device="cpu")
    except Exception as error:  # whatever the file holds, say what went wrong with it
        raise ModelLoadError(
            f"cannot load a MaskablePPO model from {path!r}: {type(error).__name__}: {error}"
        ) from error


class PPOAgent:
    """Plays the moves of the MaskablePPO model saved at `path` (its most likely legal move, or
    a sampled one with ``deterministic=False``). With `variant`, the model is checked against
    that rule set when it is loaded; it is checked against every game it plays anyway."""

    def __init__(
        self,
        path: str | os.PathLike,
        variant: str | None = None,
        deterministic: bool = True,
        seed: int | None = None,
    ) -> None:
        self.path = os.fspath(path)
        self.model = load_maskable_ppo(self.path)
        self.deterministic = deterministic
        if variant is not None:
            game = Game(variant)
            self._check(game, len(observation_high(game.params)))
        self.reset(seed)

    def __repr__(self) -> str:
        return f"PPOAgent({self.path!r})"

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.model.set_random_seed(seed)

    def _check(self, game: Game, observation_size: int) -> None:
        shape = getattr(self.model.observation_space, "shape", None)
        n = getattr(self.model.action_space, "n", None)
        if shape != (observation_size,) or n != game.n_actions:
            raise ModelLoadError(
                f"the model at {self.path!r} (observations {shape}, {n} actions) does not fit "
                f"{game.variant.name} (observations ({observation_size},), "
                f"{game.n_actions} actions)"
            )

    def act(self, game: Game) -> int:
        observation = observe(game.state, game.to_move, game.params)
        self._check(game, observation.shape[0])
        mask = game.legal_mask().astype(bool)
        if not mask.any():
            raise ValueError("the game is over: there is no move to choose")
        action, _ = self.model.predict(
            observation, action_masks=mask, deterministic=self.deterministic
        )
        return int(np.asarray(action).reshape(-1)[0])
