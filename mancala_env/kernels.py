"""The engine handle: the one way in to a rule set's compiled kernels.

Everything that plays (a `Game`, the batched engine and the vector environments, the greedy
opponent, MCTS, alpha-beta, the `az` search and its training, the endgame builder and the
databases' probes) asks `kernels_for` for the kernels it runs. Under any rule options these are
the rule set's own, derived from the one written rule source with the structure of its
parameters folded in (`engine.compiler`: a new board size or mechanic derives, and compiles,
a module of its own; numbers such as seed counts or `stall_limit` are read at run time and
compile nothing new), compiled once and kept in numba's disk cache.

A module whose ``@njit`` code calls the engine (MCTS's simulations, alpha-beta's search, the
greedy opponent) is named in `modules`: it is derived after the engine and after the modules
before it in `modules`, and its calls into them go to their derived copies. Its calls into any
other module go to that module's kernels as written.

The shared kernels (`engine.turn` and the modules as written, one compiled copy for every rule
set and option, about half a minute to compile) run only when asked for by name: with
``shared=True``, or with the environment variable ``MANCALA_ENV_SHARED_KERNELS=1`` for a whole
process (for debugging, or for coverage measured on the written source). Both play the same
games.
"""

from __future__ import annotations

import importlib
import inspect
import os
from types import SimpleNamespace

import numba
import numpy as np
from numba.extending import is_jitted

from .engine import layout
from .engine.compiler import ENGINE, specialised
from .first_use import announce_compiling
from .variants import Variant

SHARED_SWITCH = "MANCALA_ENV_SHARED_KERNELS"  # "1": the shared kernels; "0" or unset: derived
OPPONENTS = ("mancala_env.opponents",)  # the greedy opponent and random moves in compiled loops
HOT_MODULES = (*OPPONENTS, "mancala_env.observation", "mancala_env.batch")  # the batched engine
ENGINE_KERNELS = ("new_game", "step")  # what a game runs, checked for the compiling line
COMPILE_SECONDS = 8  # a rule set's engine, or its batch kernels after it: 3-4 s for Oware
SHARED_COMPILE_SECONDS = 30  # the shared kernels: 26 s on two quiet cores


def kernels_for(
    variant: Variant,
    params: np.ndarray,
    modules: tuple[str, ...] = (),
    keep: bool = False,
    *,
    uses: tuple[str, ...] = ENGINE_KERNELS,
    seconds: int = COMPILE_SECONDS,
    shared: bool | None = None,
) -> SimpleNamespace:
    """The compiled kernels of `variant` under the rule parameters `params`: the engine's
    (`new_game`, `step`, `begin_turn`, ...), then those of each of `modules` (dotted names), in
    one namespace with the layout's constants (`layout`) and, derived, their files (`files`).
    `keep`: a relay rule set's states keep the lifts tried when a turn begins (MCTS's;
    `engine.compiler.specialised`). `shared`: the shared kernels instead of the rule set's
    own (None: as `MANCALA_ENV_SHARED_KERNELS` says). Says so on stderr, once, when one of the
    kernels named in `uses` has to compile (about `seconds`)."""
    if shared is None:
        shared = shared_switch()
    if shared:
        kernels = _shared(modules)
        what, seconds = "the rules engine's shared kernels", SHARED_COMPILE_SECONDS
    else:
        kernels = specialised(params, modules, keep)
        what = f"the {variant.name} kernels"
    if uses != ENGINE_KERNELS:
        what += f" ({', '.join(uses)}) for these rules"
    announce_compiling(what, [getattr(kernels, name) for name in uses], seconds)
    return kernels


def shared_switch() -> bool:
    """Whether `MANCALA_ENV_SHARED_KERNELS` asks for the shared kernels; ValueError, naming the
    allowed values, for any other value than "0" or "1"."""
    value = os.environ.get(SHARED_SWITCH, "0")
    if value not in ("0", "1"):
        raise ValueError(f"{SHARED_SWITCH} must be 0 or 1, got {value!r}")
    return value == "1"


def _kernel_of(value: object, module: str) -> bool:
    """Whether `value` is a kernel written in `module`: a numba dispatcher, or under
    ``NUMBA_DISABLE_JIT`` the plain function."""
    if getattr(value, "__module__", None) != module:
        return False
    return is_jitted(value) or (numba.config.DISABLE_JIT and inspect.isfunction(value))


_shared_loaded: dict[tuple[str, ...], SimpleNamespace] = {}


def _shared(modules: tuple[str, ...]) -> SimpleNamespace:
    """The kernels of the engine and of `modules` as written, in a namespace shaped as the
    derived one (`layout`: the layout's constants; no `files`)."""
    if modules not in _shared_loaded:
        kernels: dict[str, object] = {}
        for name in (*ENGINE, *modules):
            written = vars(importlib.import_module(name))
            kernels.update(
                (key, value) for key, value in written.items() if _kernel_of(value, name)
            )
        constants = {
            name: value
            for name, value in vars(layout).items()
            if name.isupper() and isinstance(value, int) and not isinstance(value, bool)
        }
        kernels["layout"] = SimpleNamespace(**constants)
        _shared_loaded[modules] = SimpleNamespace(**kernels)
    return _shared_loaded[modules]
