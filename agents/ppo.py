"""A trained policy: an sb3-contrib MaskablePPO model saved with ``model.save(path)``.

The model sees what it saw in training (`mancala_env.vec_env.MancalaVecEnv`): the observation of
the player to move (`mancala_env.observation.observe`) and the legal actions as a bool mask.
stable-baselines3 is imported only when a model is loaded (the ``train`` extra).

Loading runs no code from the file. A saved model is a zip: a ``data`` JSON whose values
stable-baselines3 may have pickled (base64 cloudpickle: unpickling them can run anything) and
the network's weights in ``policy.pth``. The default load reads only plain JSON values of
``data`` (the network's layer sizes, the sizes of the observation and of the action set), builds
the policy from the rule set's spaces and loads the weights with
``torch.load(weights_only=True)``. ``trust=True`` (the spec ``ppo:PATH,trust=yes``) does
stable-baselines3's full load instead, for models whose settings only a pickle can hold.
"""

from __future__ import annotations

import io
import os
import pickle
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from mancala_env import Game
from mancala_env.observation import observation_high, observe
from mancala_env.readers import content_identity, file_identity, parse_json, read_bytes

MAX_MODEL_BYTES = 256 * 1024 * 1024  # a model of the largest net_arch trained here is ~10 MB
MAX_DATA_BYTES = 16 * 1024 * 1024  # its settings (JSON) are some kB


class ModelLoadError(ValueError):
    """A saved model that cannot be loaded or does not fit the game."""


def model_file(path: str | os.PathLike) -> Path:
    """The file a model path names (stable-baselines3 adds ``.zip`` when it is left out)."""
    path = Path(path)
    for candidate in (path, Path(f"{path}.zip")):
        if candidate.is_file():
            return candidate
    from .network import shipped_policies

    shipped = ", ".join(shipped_policies()) or "none"
    raise ModelLoadError(
        f"cannot load a MaskablePPO model from {str(path)!r}: no such file (the shipped "
        f"policies, ppo:NAME: {shipped})"
    )


def model_identity(path: str | os.PathLike) -> str:
    """`content_identity` of the model file at `path`, read in chunks once the file is known
    to be no larger than a model."""
    file = model_file(path)
    try:
        return file_identity(file, MAX_MODEL_BYTES)
    except ValueError as error:
        raise ModelLoadError(f"cannot load a MaskablePPO model: {error}") from None


def _member(archive: zipfile.ZipFile, name: str, limit: int) -> bytes:
    """Member `name` of a model's zip, refused unread when it declares more than `limit` bytes."""
    size = archive.getinfo(name).file_size
    if size > limit:
        raise ValueError(f"its {name} is {size:,} bytes; at most {limit:,} are read")
    return archive.read(name)


def _import_sb3(path: Any) -> None:
    try:
        import sb3_contrib  # noqa: F401
    except ImportError as error:
        raise ModelLoadError(
            f"cannot load {str(path)!r}: loading a MaskablePPO model needs sb3-contrib "
            f'(pip install -e ".[train]"): {error}'
        ) from error


def _plain_size(value: Any, what: str) -> int:
    """A positive size that `data` keeps as plain JSON (an int, or its text)."""
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"its {what} is not a positive integer: {value!r}")
    return value


def _net_arch(policy_kwargs: Any) -> Any:
    """The layer sizes of ``policy_kwargs``, refusing anything that is not plain JSON."""
    if not isinstance(policy_kwargs, dict) or ":serialized:" in policy_kwargs:
        raise ValueError(
            "its policy settings are pickled Python objects, which only a trusted load "
            "reads (ppo:PATH,trust=yes runs code from the file)"
        )
    other = sorted(set(policy_kwargs) - {"net_arch"})
    if other:
        raise ValueError(
            f"its policy settings {', '.join(other)} are read only by a trusted load "
            "(ppo:PATH,trust=yes runs code from the file)"
        )
    net_arch = policy_kwargs.get("net_arch", [64, 64])
    layers = net_arch.values() if isinstance(net_arch, dict) else [net_arch]
    for sizes in layers:
        if not isinstance(sizes, list):
            raise ValueError(f"its net_arch is not a list of layer sizes: {net_arch!r}")
        for size in sizes:
            _plain_size(size, "net_arch layer size")
    if isinstance(net_arch, dict) and set(net_arch) != {"pi", "vf"}:
        raise ValueError(f"its net_arch has keys other than pi and vf: {sorted(net_arch)}")
    return net_arch


def _spaces(data: dict[str, Any], variant: str | None) -> tuple[Any, Any]:
    """The rule set's observation and action spaces (the saved sizes when no rule set is
    given); a model whose saved sizes do not fit the rule set is refused here."""
    from gymnasium import spaces

    shape = data.get("observation_space", {}).get("_shape")
    if not isinstance(shape, list) or len(shape) != 1:
        raise ValueError(f"its observation shape is not one size: {shape!r}")
    size = _plain_size(shape[0], "observation size")
    n = _plain_size(data.get("action_space", {}).get("n"), "number of actions")
    if variant is None:
        return spaces.Box(0, np.iinfo(np.int8).max, (size,), np.int8), spaces.Discrete(n)
    game = Game(variant)
    high = observation_high(game.params)
    if (size, n) != (len(high), game.n_actions):
        raise ValueError(
            f"it (observations ({size},), {n} actions) does not fit {game.variant.name} "
            f"(observations ({len(high)},), {game.n_actions} actions)"
        )
    return spaces.Box(np.zeros_like(high), high, dtype=np.int8), spaces.Discrete(n)


def _policy_from_weights(content: bytes, variant: str | None) -> Any:
    """The policy of a saved model, built from plain settings and weights only."""
    import torch
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        data = parse_json(_member(archive, "data", MAX_DATA_BYTES), "its data")
        if not isinstance(data, dict):
            raise ValueError("its data is not a JSON object")
        weights = torch.load(
            io.BytesIO(_member(archive, "policy.pth", MAX_MODEL_BYTES)),
            map_location="cpu",
            weights_only=True,
        )
    observation_space, action_space = _spaces(data, variant)
    policy = MaskableActorCriticPolicy(
        observation_space,
        action_space,
        lr_schedule=lambda _: 0.0,
        net_arch=_net_arch(data.get("policy_kwargs", {})),
    )
    try:
        policy.load_state_dict(weights)
    except (RuntimeError, TypeError, AttributeError):
        raise ValueError("its weights do not fit the network its settings describe") from None
    policy.set_training_mode(False)
    return policy


# The state dicts a MaskablePPO checkpoint holds, as stable-baselines3's set_parameters names them.
SAVED_STATES = ("policy", "policy.optimizer")


def saved_states(path: str | os.PathLike) -> dict[str, Any]:
    """The policy's and its optimiser's state dicts in the model saved at `path` (what
    ``set_parameters`` takes), read from a file of bounded size as tensors only: no code from
    the file runs. ModelLoadError names the path and the reason."""
    import torch

    file = model_file(path)
    try:
        content = read_bytes(file, MAX_MODEL_BYTES)
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            return {
                name: torch.load(
                    io.BytesIO(_member(archive, f"{name}.pth", MAX_MODEL_BYTES)),
                    map_location="cpu",
                    weights_only=True,
                )
                for name in SAVED_STATES
            }
    except Exception as error:  # whatever the file holds, say what went wrong with it
        reason = str(error) if isinstance(error, ValueError) else f"{type(error).__name__}: {error}"
        raise ModelLoadError(f"cannot read {str(file)!r}: {reason.splitlines()[0]}") from None


def load_maskable_ppo(
    path: str | os.PathLike, variant: str | None = None, trust: bool = False
) -> tuple[Any, str]:
    """The policy saved at `path` (anything with MaskablePPO's ``predict``, and its
    ``observation_space`` and ``action_space``) and the identity of the bytes it was read
    from. With `variant`, the policy gets that rule set's spaces. Without `trust`, no code
    from the file runs (see the module docstring); with it, the whole MaskablePPO comes back.
    ModelLoadError names the path and the reason."""
    file = model_file(path)
    _import_sb3(file)
    try:
        content = read_bytes(file, MAX_MODEL_BYTES)
    except ValueError as error:
        raise ModelLoadError(f"cannot load a MaskablePPO model: {error}") from None
    try:
        if trust:
            from sb3_contrib import MaskablePPO

            model = MaskablePPO.load(io.BytesIO(content), device="cpu")
        else:
            model = _policy_from_weights(content, variant)
    except pickle.UnpicklingError:
        raise ModelLoadError(
            f"cannot load a MaskablePPO model from {str(file)!r}: its weights (policy.pth) "
            "hold more than tensors, which a load that runs no code refuses"
        ) from None
    except Exception as error:  # whatever the file holds, say what went wrong with it
        reason = str(error) if isinstance(error, ValueError) else f"{type(error).__name__}: {error}"
        raise ModelLoadError(
            f"cannot load a MaskablePPO model from {str(file)!r}: {reason.splitlines()[0]}"
        ) from error
    return model, content_identity(content)


class PPOAgent:
    """Plays the moves of the MaskablePPO model saved at `path` (its most likely legal move, or
    a sampled one with ``deterministic=False``). With `variant`, the model is checked against
    that rule set when it is loaded; it is checked against every game it plays anyway.
    `identity` is the hash of the model file's bytes it was loaded from; `trust` loads a model
    the way stable-baselines3 does, running code the file holds (see the module docstring)."""

    def __init__(
        self,
        path: str | os.PathLike,
        variant: str | None = None,
        deterministic: bool = True,
        seed: int | None = None,
        trust: bool = False,
    ) -> None:
        self.path = os.fspath(path)
        self.model, self.identity = load_maskable_ppo(self.path, variant, trust)
        self.deterministic = deterministic
        if variant is not None:
            game = Game(variant)
            self._check(game, len(observation_high(game.params)))
        self.reset(seed)

    def __repr__(self) -> str:
        return f"PPOAgent({self.path!r})"

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            from stable_baselines3.common.utils import set_random_seed

            set_random_seed(seed)

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
