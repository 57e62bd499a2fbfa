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

import inspect
from typing import Any

import pettingzoo

from . import registration
from ._version import __version__
from .game import Game, IllegalActionError, SnapshotError
from .registration import RetiredVersionError
from .variants import VARIANTS, Variant, get_variant


def list_variants() -> list[Variant]:
    """Every registered rule set, in registration order."""
    return list(VARIANTS.values())


def make(name: str, **kwargs: Any) -> pettingzoo.AECEnv:
    """The wrapped AEC environment of rule set `name`; `kwargs` are environment and rule options."""
    get_variant(name)
    return registration.env(name, **kwargs)


def __getattr__(name: str) -> Any:
    """An older version's module (`mancala_env.jerin_v0`) says what replaced it."""
    registration.retired_module(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


make.__signature__ = registration.WITH_VARIANT.replace(
    parameters=[inspect.Parameter("name", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    + list(registration.WITH_VARIANT.parameters.values())[1:]
)
globals().update(registration.register_all())

__all__ = [
    "Game",
    "IllegalActionError",
    "RetiredVersionError",
    "SnapshotError",
    "__version__",
    "list_variants",
    "make",
]
