"""Every rule set in PettingZoo's and Gymnasium's registries, and its versioned module.

Registration names its environments by string entry points, so that registering imports no
environment, renderer or command-line module: `mancala_env.env` (and with it PIL) is imported
the first time an environment is made.
"""

from __future__ import annotations

import inspect
import sys
import types
from typing import Any, NoReturn

import gymnasium
import pettingzoo

from .variants import VARIANTS, Variant, get_variant


class RetiredVersionError(ValueError):
    """The id of a rule set's older version: its play has changed since; the message names the
    current id and the changes."""


def retired(variant: str, version: int, **_: Any) -> NoReturn:
    """The entry point of an older version's ids: an error naming the current one."""
    raise RetiredVersionError(get_variant(variant).retired(version))


# The environment's own arguments (those of `mancala_env.env.raw_env`, a test keeps them equal),
# shown by help() and signature() for the functions that make one without importing it.
_ENV_ARGUMENTS = [
    inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default)
    for name, default in (
        ("render_mode", None),
        ("reward", "win_loss"),
        ("max_moves", None),
        ("scale", 1),
        ("observation", "raw"),
    )
]
_OPTIONS = inspect.Parameter("options", inspect.Parameter.VAR_KEYWORD)
_VARIANT = inspect.Parameter("variant", inspect.Parameter.POSITIONAL_OR_KEYWORD)
WITH_VARIANT = inspect.Signature([_VARIANT, *_ENV_ARGUMENTS, _OPTIONS])
WITHOUT_VARIANT = inspect.Signature([*_ENV_ARGUMENTS, _OPTIONS])


def env(variant: str, **kwargs: Any) -> pettingzoo.AECEnv:
    """The wrapped AEC environment of rule set `variant` (imports the environment module)."""
    from .env import env as wrapped_env

    return wrapped_env(variant=variant, **kwargs)


def raw_env(variant: str, **kwargs: Any) -> pettingzoo.AECEnv:
    """The unwrapped AEC environment of rule set `variant`."""
    from .env import raw_env as unwrapped_env

    return unwrapped_env(variant=variant, **kwargs)


def versioned_module(variant: Variant, version: int | None = None) -> types.ModuleType:
    """`mancala_env.<name>_v<version>`: the rule set's `env` and `raw_env`, PettingZoo style
    (of an earlier version that stays playable: with the options that play it)."""
    doc = f"{variant.doc}\nVersion History\n---------------\n\n{variant.version_history()}\n"
    module = types.ModuleType(f"mancala_env.{variant.module_name(version)}", doc)
    played = variant.earlier_versions.get(version, {}) if version is not None else {}

    def module_env(**kwargs: Any) -> pettingzoo.AECEnv:
        return env(variant.name, **{**played, **kwargs})

    def module_raw_env(**kwargs: Any) -> pettingzoo.AECEnv:
        return raw_env(variant.name, **{**played, **kwargs})

    title = f"{variant.title} v{version}" if played else variant.title
    module_env.__doc__ = f"The wrapped AEC environment of {title}."
    module_raw_env.__doc__ = f"The unwrapped AEC environment of {title}."
    module_env.__signature__ = module_raw_env.__signature__ = WITHOUT_VARIANT
    module.env = module_env
    module.raw_env = module_raw_env
    module.variant = variant
    return module


def retired_module(name: str) -> types.ModuleType | None:
    """Raise `RetiredVersionError` if `name` is an older version's module name (`jerin_v0`)."""
    for variant in VARIANTS.values():
        for version in range(variant.version):
            if name == variant.module_name(version) and version not in variant.earlier_versions:
                retired(variant.name, version)
    return None


def _register_aec(env_id: str, entry_point: str, kwargs: dict[str, Any]) -> None:
    if env_id not in pettingzoo.aec_registry:
        pettingzoo.register("aec", env_id, entry_point=entry_point, kwargs=kwargs)


def _register_gym(
    env_id: str, entry_point: str, vector_entry_point: str, kwargs: dict[str, Any]
) -> None:
    if env_id not in gymnasium.registry:
        gymnasium.register(
            env_id, entry_point=entry_point, vector_entry_point=vector_entry_point, kwargs=kwargs
        )


def register_all() -> dict[str, types.ModuleType]:
    """Register every rule set's current, earlier playable and retired ids; return the
    versioned modules."""
    modules = {}
    for variant in VARIANTS.values():
        named = {"variant": variant.name}
        # the current version, then the earlier ones still played (with their options)
        for version, options in ((None, {}), *variant.earlier_versions.items()):
            module = versioned_module(variant, version)
            sys.modules[module.__name__] = module
            modules[variant.module_name(version)] = module
            kwargs = {**named, **options}
            _register_aec(variant.env_id(version), "mancala_env.registration:env", kwargs)
            # the single-agent env against a built-in opponent, and make_vec's batched one
            single, batched = (
                "mancala_env.gym_env:SingleAgentEnv",
                "mancala_env.gym_vector:MancalaVectorEnv",
            )
            _register_gym(variant.gym_id(version), single, batched, kwargs)
        for old in set(range(variant.version)) - set(variant.earlier_versions):
            # retired ids say what replaced them
            refusal = {"variant": variant.name, "version": old}
            _register_aec(variant.env_id(old), "mancala_env.registration:retired", refusal)
            refuse = "mancala_env.registration:retired"
            _register_gym(variant.gym_id(old), refuse, refuse, refusal)
    return modules


env.__signature__ = raw_env.__signature__ = WITH_VARIANT
