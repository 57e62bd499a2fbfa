"""The conventions the compiler relies on to read the rule source, each checked loudly.

The compiler reads the kernel modules as source (`ast`), not as running code, so it trusts
their spelling. Each function here checks one part of it and raises `ConventionError`, one line
naming the module (and the function) and the convention broken, where the compiler would
otherwise derive code that silently runs the shared kernels, folds nothing or folds wrongly:

- a kernel is a function defined at a module's top level and decorated ``@njit`` (by that
  name), its name bound once there; a module asked for has at least one;
- the integer constants copied are top-level ``NAME = value`` assignments, bound once, named
  unlike the layout's constants, each name defined by one module of a derived module;
- a kernel takes plain positional arguments and binds its locals by ``=``, ``+=``, ``for`` or
  ``:=`` alone (the locals the folder sees);
- the rule parameters are one argument named ``params``, never rebound nor written, read as
  ``params[P_X]`` with ``P_X`` a constant of the layout or of the module (``L.P_X`` too); no
  other name is subscripted by a ``P_`` constant;
- the layout is the name ``L`` or its constants imported by their own names;
- a kernel calls a kernel of a module derived in the same call by its own name (not through
  its module, not under another name), and one of a module derived after it not at all.
"""

from __future__ import annotations

import ast
from collections import Counter
from types import FunctionType, ModuleType
from typing import NoReturn

from .. import layout

RULES = "params"  # the name of the rule parameters' vector in every kernel
_BINDS = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)
_UNSEEN = {  # constructs inside a kernel that bind names the folder does not follow
    ast.ListComp: "a comprehension",
    ast.SetComp: "a comprehension",
    ast.DictComp: "a comprehension",
    ast.GeneratorExp: "a generator",
    ast.Lambda: "a lambda",
    ast.FunctionDef: "a nested function",
    ast.ClassDef: "a class",
    ast.Global: "a global statement",
    ast.Nonlocal: "a nonlocal statement",
    ast.Match: "a match statement",
}


class ConventionError(ValueError):
    """Source the compiler would derive wrongly or silently not at all: a convention broken."""


def refuse(where: str, what: str, convention: str) -> NoReturn:
    raise ConventionError(f"{where}: {what}; {convention}")


def module_kernels(module: str, tree: ast.Module) -> list[ast.FunctionDef]:
    """The kernels of `module` (its source parsed: `tree`), in the order they are written."""
    kernels = [node for node in tree.body if isinstance(node, ast.FunctionDef) and _is_kernel(node)]
    top = {id(node) for node in kernels}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and _is_kernel(node) and id(node) not in top:
            refuse(
                f"{module}.{node.name}",
                "decorated @njit inside a block",
                "a kernel is defined at the module's top level",
            )
        compiler = _other_jit(node)
        if compiler is not None:
            name = node.name if isinstance(node, ast.FunctionDef) else ast.unparse(node)
            refuse(
                f"{module}.{name}",
                f"compiled by {compiler}, which the compiler does not read as a kernel",
                "a kernel is a top-level def decorated @njit",
            )
    if not kernels:
        refuse(module, "no kernels to derive", "a module derived has top-level @njit functions")
    return kernels


def check_bound_once(module: str, tree: ast.Module, copied: list[str]) -> None:
    """Each name the compiler copies from `module` (its kernels and integer constants) is
    bound once at its top level: a second binding would be lost in the derived module."""
    counts = Counter(_top_level_bindings(tree.body))
    for name in copied:
        if counts[name] > 1:
            refuse(
                f"{module}.{name}",
                f"bound {counts[name]} times at the top level",
                "a kernel's or an integer constant's name is bound once",
            )


def check_constant(module: str, name: str, owner: dict[str, str]) -> None:
    """The integer constant `name` of `module` is named unlike the layout's constants and
    defined by no other module derived with it (`owner`: name -> module defining it)."""
    if name in vars(layout):
        refuse(
            f"{module}.{name}",
            "named like a constant of the layout",
            "a module's constants do not shadow the layout's in the derived module",
        )
    check_one_owner(module, name, owner)


def check_one_owner(module: str, name: str, owner: dict[str, str]) -> None:
    """No other module of one derived module (`owner`) defines `name`; `module` now does."""
    if name in owner and owner[name] != module:
        refuse(
            f"{module}.{name}",
            f"also defined by {owner[name]}",
            "the modules derived together share one namespace: a name is defined once",
        )
    owner[name] = module


def check_annotated(module: str, node: ast.AnnAssign, value: int | None) -> None:
    """A top-level integer constant written with an annotation is not copied: refused."""
    if value is not None and isinstance(node.target, ast.Name):
        refuse(
            f"{module}.{node.target.id}",
            "an integer constant written with an annotation",
            "the compiler folds top-level constants written NAME = value",
        )


def check_kernel(module: str, function: ast.FunctionDef, constants: dict[str, int]) -> None:
    """The kernel `function` of `module` binds its names where the folder sees them and
    reads the rule parameters as ``params[P_X]`` with `constants` it knows."""
    where = f"{module}.{function.name}"
    arguments = function.args
    if arguments.posonlyargs or arguments.vararg or arguments.kwonlyargs or arguments.kwarg:
        refuse(where, "takes other than plain positional arguments", "kernels take (a, b, ...)")
    _check_bindings(where, function)
    if any(
        isinstance(n, ast.Name) and n.id == RULES and isinstance(n.ctx, ast.Store)
        for n in ast.walk(function)
    ):
        refuse(where, f"assigns {RULES}", f"{RULES} is the rule parameters, never rebound")
    local = kernel_locals(function)
    for node in ast.walk(function):
        if isinstance(node, ast.Subscript):
            _check_read(where, node, local, constants)


def kernel_locals(function: ast.FunctionDef) -> set[str]:
    """The names `function` binds: its arguments and the names it assigns."""
    return {argument.arg for argument in function.args.args} | {
        node.id
        for node in ast.walk(function)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
    }


def _check_bindings(where: str, function: ast.FunctionDef) -> None:
    """`function` binds its locals by the statements the folder follows (`_BINDS`) alone."""
    seen = {
        id(name)
        for node in ast.walk(function)
        if isinstance(node, _BINDS)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        for name in ast.walk(target)
    }
    for node in ast.walk(function):
        construct = _UNSEEN.get(type(node)) if node is not function else None
        if isinstance(node, ast.ExceptHandler) and node.name:
            construct = "an except ... as"
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and id(node) not in seen:
            construct = "a with ... as"
        if construct is not None:
            refuse(
                where,
                f"binds names in {construct}",
                "the folder follows locals bound by =, +=, for and := alone",
            )


def check_layout_name(where: str, name: str, value: object) -> None:
    """A name a kernel reads is ``L`` exactly when it is the layout module."""
    if (name == "L") != (value is layout):
        what = "L is not the layout" if name == "L" else f"the layout is named {name}"
        refuse(where, what, "kernels read the layout as L.X or its constants by their names")


def check_call(
    where: str, name: str, value: object, group: tuple[str, ...], order: tuple[str, ...]
) -> None:
    """A name a kernel of the modules `group` reads that is not defined in their derived module
    nor imported from an earlier one: not a module or a kernel derived in this call (`order`:
    all the modules derived, in order), whose derived copy the call would miss."""
    if isinstance(value, ModuleType) and value.__name__ in order:
        refuse(
            where,
            f"reaches {value.__name__} through the name {name}",
            "a kernel calls a derived kernel by its name (from module import kernel)",
        )
    later = order[order.index(group[-1]) + 1 :]
    function = getattr(value, "py_func", value)
    origin = getattr(function, "__module__", None) if isinstance(function, FunctionType) else None
    if origin in group:
        refuse(
            where,
            f"calls {origin}.{function.__name__} as {name}",
            "a kernel of the modules derived together is called by its own name",
        )
    if origin in later:
        refuse(
            where,
            f"calls {origin}.{function.__name__}, derived after it",
            "a module's kernels call those of the modules listed before it",
        )


def check_layout_imports(module: str, tree: ast.Module) -> None:
    """The layout's constants are imported by their own names (the compiler knows them so)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("layout"):
            for alias in node.names:
                if alias.asname not in (None, alias.name) and alias.name in vars(layout):
                    refuse(
                        module,
                        f"imports the layout's {alias.name} as {alias.asname}",
                        "the layout's constants are imported by their own names",
                    )


def _check_read(where: str, node: ast.Subscript, local: set[str], known: dict[str, int]) -> None:
    """``params[...]`` names its index by constants the folder knows; the rule parameters are
    read from no other name."""
    index = ast.unparse(node.slice)
    parts = list(_index_parts(node.slice))
    if not (isinstance(node.value, ast.Name) and node.value.id == RULES):
        if any(ast.unparse(part).rpartition(".")[2].startswith("P_") for part in parts):
            refuse(
                where, f"reads {ast.unparse(node)}", f"the rule parameters are read as {RULES}[P_X]"
            )
        return
    if not isinstance(node.ctx, ast.Load):
        refuse(where, f"writes {RULES}[{index}]", f"{RULES} is the rule parameters, only read")
    for part in parts:
        if isinstance(part, ast.Name):
            seen = part.id in local or part.id in known
        else:
            seen = isinstance(part.value, ast.Name) and part.value.id == "L" and part.attr in known
        if not seen:
            refuse(
                where,
                f"reads {RULES}[{index}] with {ast.unparse(part)}, not a constant the folder knows",
                f"{RULES}[P_X] is read with constants of the layout or the module",
            )


def _index_parts(index: ast.expr) -> list[ast.Name | ast.Attribute]:
    """The names and attributes an index is made of, not those of the reads inside it."""
    if isinstance(index, (ast.Name, ast.Attribute)):
        return [index]
    if isinstance(index, ast.Subscript):
        return []
    return [part for child in ast.iter_child_nodes(index) for part in _index_parts(child)]


def _is_kernel(node: ast.FunctionDef) -> bool:
    return any(_decorator_name(decorator) == "njit" for decorator in node.decorator_list)


def _decorator_name(decorator: ast.expr) -> str:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return ast.unparse(target)


def _other_jit(node: ast.AST) -> str | None:
    """How `node` compiles a function by a numba compiler other than the name ``njit`` on a
    def (``@numba.njit``, ``@jit``, ``f = njit(g)``), else None."""
    if isinstance(node, ast.FunctionDef):
        for decorator in node.decorator_list:
            name = _decorator_name(decorator)
            if name != "njit" and name.rpartition(".")[2] in ("njit", "jit"):
                return f"@{name}"
    if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
        name = ast.unparse(node.value.func)
        if name.rpartition(".")[2] in ("njit", "jit"):
            return f"a call of {name}"
    return None


def _top_level_bindings(body: list[ast.stmt]) -> list[str]:
    """The names bound by the statements `body`, in the blocks of its compound statements too
    (not inside functions or classes)."""
    names: list[str] = []
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names += [(a.asname or a.name).partition(".")[0] for a in node.names]
            continue
        if isinstance(node, _BINDS):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names += [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        for field in ("body", "orelse", "finalbody"):
            names += _top_level_bindings(getattr(node, field, []))
        for handler in getattr(node, "handlers", []):
            names += _top_level_bindings(handler.body)
    return names
