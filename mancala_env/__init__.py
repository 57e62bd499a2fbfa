"""mancala_env: African sowing games (the mancala family) as PettingZoo environments.

Every rule set is registered in PettingZoo's registry as ``mancala/<name>-v<version>``::

    import mancala_env, pettingzoo
    env = pettingzoo.make("aec", "mancala/oware-v1")  # or "mancala/oware": the newest

and has a versioned module, ``from mancala_env import oware_v1; env = oware_v1.env()``.
In Gymnasium's registry each is the single-agent ``mancala_env/<Title>-v<version>`` against a
built-in opponent (see `mancala_env.gym_env`)::

    env = gymnasium.make("mancala_env/Oware-v1", opponent="random")

A rule set whose play changes gets the next version (its rule page's Version History says
what changed); the ids of older versions raise `RetiredVersionError` saying so.
"""

from __future__ import annotations

import functools
import sys
import types
from typing import Any, NoReturn

import gymnasium
import pettingzoo

from .env import env as _env
from .env import raw_env as _raw_env
from .game import Game, IllegalActionError, SnapshotError
from .variants import VARIANTS, Variant, get_variant


class RetiredVersionError(ValueError):
    """The id of a rule set's older version: its play has changed since; the message names the
    current id and the changes."""


def list_variants() -> list[Variant]:
    """Every registered rule set, in registration order."""
    return list(VARIANTS.values())


def make(name: str, **kwargs: Any) -> pettingzoo.AECEnv:
    """The wrapped AEC environment of rule set `name`; `kwargs` are environment and rule options."""
    get_variant(name)
    return _env(variant=name, **kwargs)


def _retired(variant: Variant, version: int, **_: Any) -> NoReturn:
    raise RetiredVersionError(variant.retired(version))


def __getattr__(name: str) -> Any:
    """An older version's module (`mancala_env.jerin_v0`) says what replaced it."""
    for variant in VARIANTS.values():
        for version in range(variant.version):
            if name == variant.module_name(version):
                _retired(variant, version)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _versioned_module(variant: Variant) -> types.ModuleType:
    """`mancala_env.<name>_v<version>`: the rule set's `env` and `raw_env`, PettingZoo style."""
    doc = f"{variant.doc}\nVersion History\n---------------\n\n{variant.version_history()}\n"
    module = types.ModuleType(f"{__name__}.{variant.module_name()}", doc)

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
    globals()[_variant.module_name()] = _module
    if _variant.env_id() not in pettingzoo.aec_registry:
        pettingzoo.register("aec", _variant.env_id(), entry_point=f"{_module.__name__}:env")
    if _variant.gym_id() not in gymnasium.registry:  # single-agent, against a built-in opponent
        gymnasium.register(
            _variant.gym_id(),
            entry_point="mancala_env.gym_env:SingleAgentEnv",
            kwargs={"variant": _variant.name},
        )
    for _old in range(_variant.version):  # retired ids say what replaced them
        _refuse = functools.partial(_retired, _variant, _old)
        if _variant.env_id(_old) not in pettingzoo.aec_registry:
            pettingzoo.register("aec", _variant.env_id(_old), entry_point=_refuse)
        if _variant.gym_id(_old) not in gymnasium.registry:
            gymnasium.register(_variant.gym_id(_old), entry_point=_refuse)

__all__ = [
    "Game",
    "IllegalActionError",
    "RetiredVersionError",
    "SnapshotError",
    "list_variants",
    "make",
]
