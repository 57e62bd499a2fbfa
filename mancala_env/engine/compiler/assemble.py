"""A rule set's derived modules, in order, and the namespace of their kernels.

The engine's kernel modules (`ENGINE`) are derived as one module, then each module asked for
as a module of its own, in the order given: a module's kernels call the derived kernels of the
engine and of the modules before it. Each derived module is named by a hash of everything it is
made from: the structure's values, the key (`source_keys.module_key`) of every module it copies
and of the compiler (this module and those it imports), the derived modules it calls and
numba's version; an edit to a module none of these import (an agent's, say) leaves its name,
and its compiled code, as they were.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
from types import ModuleType, SimpleNamespace
from typing import Any

import numpy as np

from .. import layout
from ..source_keys import module_key
from .cache import derived_module, derived_name
from .conventions import ConventionError, module_kernels
from .derive import Made, derive
from .fold import LAYOUT_INTS

ENGINE = (
    "mancala_env.engine.board",
    "mancala_env.engine.capture",
    "mancala_env.engine.sowing",
    "mancala_env.engine.setting_out",
    "mancala_env.engine.pieces",
    "mancala_env.engine.rounds",
    "mancala_env.engine.moves",
    "mancala_env.engine.turn",
)
_loaded: dict[tuple[tuple[int, ...], tuple[str, ...], bool], SimpleNamespace] = {}


def specialised(
    params: np.ndarray, modules: tuple[str, ...] = (), keep: bool = False
) -> SimpleNamespace:
    """The kernels derived for the structure (`layout.structure`) of the rule parameters
    `params`, loaded once a process: the engine's, then those of each of `modules` (dotted
    names; a module's kernels call the derived kernels of the engine and of the modules before
    it). Kernels of one name in two of them are refused: the namespace returned holds them all,
    the layout's constants they read (`layout`: with `keep`, `STATE_SIZE` holds the kept lifts)
    and the derived modules' files (`files`: "engine", then each of `modules`, to the path of
    the source that runs). With `keep`, a relay rule set's states keep the results of the lifts
    tried when a turn begins (`layout.kept_layout`), for MCTS's simulations."""
    _check_modules(modules)
    values = layout.structure(params)
    if (values, modules, keep) in _loaded:
        return _loaded[values, modules, keep]
    room = layout.kept_layout(values, keep)
    groups = [ENGINE, *((name,) for name in modules if name not in ENGINE)]
    made: Made = {}
    kernels: dict[str, Any] = {}
    owner: dict[str, str] = {}  # a kernel's name -> the module it is written in
    files: dict[str, str] = {}  # "engine", or a module's name -> its derived module's file
    order = tuple(name for group in groups for name in group)
    for group in groups:
        module = _derived(values, room, group, made, order)
        files["engine" if group == ENGINE else group[0]] = str(module.__file__)
        for name in group:
            written = vars(importlib.import_module(name))
            for kernel in module_kernels(name, ast.parse(inspect.getsource(sys.modules[name]))):
                if kernel.name in owner:
                    raise ConventionError(
                        f"{name}.{kernel.name}: a kernel of the same name in {owner[kernel.name]};"
                        " the kernels of one rule set are reached by their names, one each"
                    )
                owner[kernel.name] = name
                made[id(written[kernel.name])] = (module.__name__, kernel.name)
                kernels[kernel.name] = getattr(module, kernel.name)
    kernels["layout"] = SimpleNamespace(**{**LAYOUT_INTS, **room})
    kernels["files"] = files
    _loaded[values, modules, keep] = SimpleNamespace(**kernels)
    return _loaded[values, modules, keep]


def _check_modules(modules: tuple[str, ...]) -> None:
    if not isinstance(modules, tuple) or not all(isinstance(name, str) for name in modules):
        raise TypeError(f"modules must be a tuple of dotted module names, not {modules!r}")
    twice = sorted({name for name in modules if modules.count(name) > 1})
    if twice:
        raise ValueError(f"modules lists {twice[0]} twice; each module is derived once")


def _derived(
    values: tuple[int, ...],
    room: dict[str, int],
    names: tuple[str, ...],
    made: Made,
    order: tuple[str, ...],
) -> ModuleType:
    """The module derived from the modules `names` for `values`, with the state's room for
    kept lifts `room` (`layout.kept_layout`), written and imported once; its calls to the
    kernels in `made` go to their derived copies (`order`: all the modules derived, in order)."""
    written = [importlib.import_module(name) for name in names]
    callees = sorted({module for module, _ in made.values()})
    laid_out = repr(sorted(room.items()))
    keys = [module_key(name) for name in (*names, __name__)]  # the compiler derives it
    module_name = derived_name(values, names, [*keys, laid_out, *callees])
    return derived_module(
        module_name,
        lambda: derive(values, names, [inspect.getsource(m) for m in written], made, room, order),
    )
