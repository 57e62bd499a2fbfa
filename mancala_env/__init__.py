"""mancala_env: African sowing games (the mancala family) as PettingZoo environments.

Every rule set is registered in PettingZoo's registry as ``mancala/<name>-v0``::

    import mancala_env, pettingzoo
    env = pettingzoo.make("aec", "mancala/oware-v0")

and has a versioned module, ``from mancala_env import oware_v0; env = oware_v0.env()``.
In Gymnasium's registry each is the single-agent ``mancala_env/<Title>-v0`` against a
built-in opponent (see `mancala_env.gym_env`)::

    env = gymnasium.make("mancala_env/Oware-v0", opponent="random")
"""

from __future__ import annotations

import sys
import types
from typing import Any

import gymnasium
import pettingzoo

from .env import env as _env
from .env import raw_env as _raw_env
from .game import Game, IllegalActionError, SnapshotError
from .gym_env import gym_id
from .variants import VARIANTS, Variant, get_variant

VERSION_SUFFIX = "_v0"
NAMESPACE = "mancala"


def list_variants() -> list[Variant]:
    """Every registered rule set, in registration order."""
    return list(VARIANTS.values())


def make(name: str, **kwargs: Any) -> pettingzoo.AECEnv:
    """The wrapped AEC environment of rule set `name`; `kwargs` are environment and rule options."""
    get_variant(name)
    return _env(variant=name, **kwargs)


def _versioned_module(variant: Variant) -> types.ModuleType:
    """`mancala_env.<name>_v0`: the rule set's `env` and `raw_env`, PettingZoo style."""
    module = types.ModuleType(f"{__name__}.{variant.name}{VERSION_SUFFIX}", variant.doc)

    def env(**kwargs: Any) -> pettingzoo.AECEnv:
        return _env(variant=variant.name, **kwargs)

    def raw_env(**kwargs: Any) -> _raw_env:
        return _raw_env(variant=variant.name, **kwargs)

    env.__doc__ = f"The wrapped AEC environment of {variant.title}."
    raw_env.__doc__ = f"The unwrapped AEC environment of {variant.title}."
    module.env = env
    module.raw_env = raw_env
    module.variant = variant
    return module


for _variant in VARIANTS.values():
    _module = _versioned_module(_variant)
    sys.modules[_module.__name__] = _module
    globals()[_variant.name + VERSION_SUFFIX] = _module
    _env_id = f"{NAMESPACE}/{_variant.name}-v0"
    if _env_id not in pettingzoo.aec_registry:
        pettingzoo.register("aec", _env_id, entry_point=f"{_module.__name__}:env")
    _gym_id = gym_id(_variant.name)  # the single-agent env against a built-in opponent
    if _gym_id not in gymnasium.registry:
        gymnasium.register(
            _gym_id,
            entry_point="mancala_env.gym_env:SingleAgentEnv",
            kwargs={"variant": _variant.name},
        )

__all__ = ["Game", "IllegalActionError", "SnapshotError", "list_variants", "make"]
