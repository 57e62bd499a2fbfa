"""The source of one derived module: the kernels and integer constants of some modules, folded
for a rule set's structure, with the imports that wire its calls.

A kernel derived before (`made`: the engine's `step`, the opponents' random move) is imported
from its derived module, so every derived caller calls the rule set's own copy; every other
name a kernel uses is imported from where it was written. The functions take the same
arguments as the originals (``params`` included, for the reads that stay) and must only ever be
given parameters of the structure they were derived from.
"""

from __future__ import annotations

import ast
import builtins
import importlib
from types import ModuleType

import numba

from .. import layout
from ..jit import INLINE_DERIVED
from . import conventions
from .fold import LAYOUT_INTS, fold_kernels, folded_constant

Made = dict[int, tuple[str, str]]  # a written kernel's id -> (its derived module, its name)
_BUILTINS = set(dir(builtins))


def derive(
    values: tuple[int, ...],
    names: tuple[str, ...],
    sources: list[str],
    made: Made | None = None,
    room: dict[str, int] | None = None,
    order: tuple[str, ...] = (),
) -> str:
    """The source of the derived module: the kernels and constants of the modules `names`
    (with their `sources`), their ``params`` reads replaced by `values`, with the state's room
    for kept lifts `room` (`layout.kept_layout`; none by default). A kernel already derived
    (`made`) is imported from its derived module; `order` names all the modules derived with
    it, in order (by default, `names` alone)."""
    room = room or {}
    made = made or {}
    constants = {**LAYOUT_INTS, **room}
    owner: dict[str, str] = {}  # a name the derived module defines -> the module it comes from
    kept: list[tuple[str, ast.stmt]] = []
    for name, source in zip(names, sources, strict=True):
        kept += [(name, node) for node in _copied(name, source, values, constants, owner)]
    defined = set(owner) | set(room)
    for name, node in kept:
        if isinstance(node, ast.FunctionDef):
            conventions.check_kernel(name, node, constants)
            _check_names(name, node, defined | set(LAYOUT_INTS), made, names, order or names)
    folded = iter(
        fold_kernels([n for _, n in kept if isinstance(n, ast.FunctionDef)], values, constants)
    )
    kept = [
        (name, next(folded) if isinstance(node, ast.FunctionDef) else node) for name, node in kept
    ]
    header = (
        f'"""Kernels derived from {", ".join(names)} for the rule parameters\n'
        f"{list(values)}\n(those read at run time shown as 0; `mancala_env.engine.compiler`; "
        f'do not edit)."""\n\n'
    )
    module = ast.Module(body=[node for _, node in kept], type_ignores=[])
    return (
        header
        + _imports(kept, defined | _BUILTINS, made)
        + "".join(f"{name} = {value}\n" for name, value in room.items())
        + "\n"
        + ast.unparse(ast.fix_missing_locations(module))
        + "\n"
    )


def _copied(
    module: str,
    source: str,
    values: tuple[int, ...],
    constants: dict[str, int],
    owner: dict[str, str],
) -> list[ast.stmt]:
    """The kernels and integer constants of `module` (its `source`), in their order, the
    constants folded; each constant's value is added to `constants`, each name to `owner`."""
    tree = ast.parse(source)
    kernels = {id(node) for node in conventions.module_kernels(module, tree)}
    conventions.check_layout_imports(module, tree)
    copied: list[ast.stmt] = []
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            # a literal, or arithmetic of the layout's and the module's constants before it
            found = folded_constant(node.value, values, constants)
            if isinstance(node, ast.AnnAssign):
                conventions.check_annotated(module, node, None if found is None else found[1])
            elif found is not None:
                copied.append(ast.Assign(node.targets, found[0], lineno=node.lineno))
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        conventions.check_constant(module, target.id, owner)
                        constants[target.id] = found[1]
        elif id(node) in kernels:
            assert isinstance(node, ast.FunctionDef)
            conventions.check_one_owner(module, node.name, owner)
            copied.append(_inlined_when_derived(node))
    bound = [node.name for node in copied if isinstance(node, ast.FunctionDef)]
    bound += [
        target.id
        for node in copied
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    ]
    conventions.check_bound_once(module, tree, bound)
    return copied


def _inlined_when_derived(kernel: ast.FunctionDef) -> ast.FunctionDef:
    """`kernel` with ``inline="derived"`` (`jit.INLINE_DERIVED`) in its decorator made
    ``inline="always"``: the derived kernels inline what the shared ones call."""
    for decorator in kernel.decorator_list:
        for keyword in decorator.keywords if isinstance(decorator, ast.Call) else ():
            value = keyword.value
            if (
                keyword.arg == "inline"
                and isinstance(value, ast.Constant)
                and value.value == INLINE_DERIVED
            ):
                keyword.value = ast.Constant("always")
    return kernel


def _check_names(
    module: str,
    kernel: ast.FunctionDef,
    defined: set[str],
    made: Made,
    group: tuple[str, ...],
    order: tuple[str, ...],
) -> None:
    """The names the kernel `kernel` of `module` reads from its module, as written (before
    folding drops the branches a rule set does not take), reach the layout as ``L`` and the
    kernels of this call through their derived copies."""
    namespace = vars(importlib.import_module(module))
    local = conventions.kernel_locals(kernel)
    where = f"{module}.{kernel.name}"
    for node in ast.walk(kernel):
        if not isinstance(node, ast.Name) or node.id in defined | local | _BUILTINS:
            continue
        if node.id not in namespace:
            continue
        value = namespace[node.id]
        if node.id == "L" or value is layout:
            conventions.check_layout_name(where, node.id, value)
        elif id(value) not in made:
            conventions.check_call(where, node.id, value, group, order)


def _imports(kept: list[tuple[str, ast.stmt]], defined: set[str], made: Made) -> str:
    """Import lines for the names the kept code uses but does not define: the layout's
    constants from the layout, numba's names from numba, kernels derived before (`made`) from
    their derived module, anything else from the module whose code uses it."""
    defined = set(defined)
    modules: dict[str, str] = {}
    taken: dict[str, set[str]] = {}
    for module_name, node in kept:
        namespace = vars(importlib.import_module(module_name))
        for name in ast.walk(node):
            if not isinstance(name, ast.Name) or name.id in defined:
                continue
            if name.id in LAYOUT_INTS:  # written ``L.X`` in the module that uses it
                defined.add(name.id)
                taken.setdefault(layout.__name__, set()).add(name.id)
                continue
            if name.id not in namespace:
                continue
            defined.add(name.id)
            value = namespace[name.id]
            if isinstance(value, ModuleType):
                modules[name.id] = value.__name__
                continue
            source, imported = module_name, name.id
            if id(value) in made:
                source, written = made[id(value)]
                imported = name.id if written == name.id else f"{written} as {name.id}"
            elif getattr(numba, name.id, None) is value:
                source = "numba"
            taken.setdefault(source, set()).add(imported)
    lines = [f"import {module} as {alias}" for alias, module in sorted(modules.items())]
    lines += [
        f"from {source} import {', '.join(sorted(names))}"
        for source, names in sorted(taken.items())
    ]
    return "".join(line + "\n" for line in lines) + "\n"
