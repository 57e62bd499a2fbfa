"""A rule set's own kernels, derived from the one written rule source by a build step.

The rules are written once, in the modules of this package, as kernels that read the rule
set's parameters from the ``params`` vector at run time, so one compiled copy serves every
rule set. A hot loop (the batched engine, the benchmark, a search's play-outs) gains when the
compiler knows the rule set instead: `specialised(params, modules)` writes a module in which
every ``params[P_X]`` read of the rule set's structure (its board's shape and the mechanics it
uses) is replaced by its value, conditions that became constant are decided, the branches they
rule out are dropped (with them the calls into mechanics the rule set does not use, which are
then never compiled), and locals set once to a constant are folded in. The numbers among the
parameters (`layout.RUNTIME_PARAMS`: seed counts, stall and relay limits, round targets) stay
reads of ``params``, so the same compiled module serves every value of them. numba compiles
that module like any other and caches it on disk.

The derived module is named by a hash of everything it is made from: the structure's values,
the key (`source_keys.module_key`) of every module it copies and of this file (each key hashes
the module's source and that of every module of this package it imports, directly or not),
the derived modules it calls and numba's version. A changed rule, constant or parameter
therefore names a new module, which compiles by itself, and nothing stale can be loaded; an
edit to a module none of its sources import (an agent's, say) leaves its name, and its
compiled code, as they were. The modules live in the user's cache folder
(``$MANCALA_ENV_CACHE``, else ``$XDG_CACHE_HOME/mancala_env``, else ``~/.cache/mancala_env``),
used only when no one else can write it (`cache_folder`), written atomically; the folder may be
deleted at any time.

What is derived: this package's kernel modules (`ENGINE`) as one module, then each of the
`modules` asked for (for example `mancala_env.batch`) as a module of its own, each with its
``@njit`` functions and its top-level integer constants (folded). A kernel derived before
(the engine's `step`, the opponents' random move) is imported from its derived module, so
every derived caller calls the rule set's own copy and a rule set's engine is compiled once
for all its loops; every other name its code uses is imported from where it was written.
The functions take the same arguments as the originals (``params`` included, for the reads
that stay) and must only ever be given parameters of the structure they were derived from.
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import importlib
import importlib.util
import inspect
import operator
import sys
from types import ModuleType, SimpleNamespace
from typing import Any

import numba
import numpy as np

from ..outputs import write_atomically
from . import layout
from .cache_folder import cache_folder
from .source_keys import module_key

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
PACKAGE = "mancala_env.specialised"  # the derived modules' names: PACKAGE + ".rules_" + hash

_LAYOUT_INTS = {
    name: value
    for name, value in vars(layout).items()
    if name.isupper() and isinstance(value, int) and not isinstance(value, bool)
}
MAX_PASSES = 10  # folding passes a function gets (the engine's need three)
_loaded: dict[tuple[tuple[int, ...], tuple[str, ...], bool], SimpleNamespace] = {}
_modules: dict[str, ModuleType] = {}  # by name: what it is made of, the modules it calls too


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
    values = layout.structure(params)
    if (values, modules, keep) in _loaded:
        return _loaded[values, modules, keep]
    room = layout.kept_layout(values, keep)
    made: dict[int, tuple[str, str]] = {}  # a written kernel's id -> (derived module, name)
    kernels: dict[str, Any] = {}
    files: dict[str, str] = {}  # "engine", or a module's name -> its derived module's file
    for group in (ENGINE, *((name,) for name in modules if name not in ENGINE)):
        module = _derived_module(values, room, group, made)
        files["engine" if group == ENGINE else group[0]] = str(module.__file__)
        for name in group:
            written = vars(importlib.import_module(name))
            for kernel in _kernel_names(inspect.getsource(sys.modules[name])):
                if kernel in kernels:
                    raise ValueError(
                        f"kernels of the same name in {', '.join(ENGINE + modules)}: {kernel}"
                    )
                made[id(written[kernel])] = (module.__name__, kernel)
                kernels[kernel] = getattr(module, kernel)
    kernels["layout"] = SimpleNamespace(**{**_LAYOUT_INTS, **room})
    kernels["files"] = files
    _loaded[values, modules, keep] = SimpleNamespace(**kernels)
    return _loaded[values, modules, keep]


def _derived_module(
    values: tuple[int, ...],
    room: dict[str, int],
    names: tuple[str, ...],
    made: dict[int, tuple[str, str]],
) -> ModuleType:
    """The module derived from the modules `names` for `values`, with the state's room for
    kept lifts `room` (`layout.kept_layout`), written and imported once; its calls to the
    kernels in `made` go to their derived copies."""
    written = [importlib.import_module(name) for name in names]
    callees = sorted({module for module, _ in made.values()})
    laid_out = repr(sorted(room.items()))
    keys = [module_key(name) for name in (*names, __name__)]  # this file derives it
    module_name = derived_name(values, names, [*keys, laid_out, *callees])
    if module_name in _modules:
        return _modules[module_name]
    path = cache_folder() / "kernels" / f"{module_name}.py"
    if not path.exists():
        sources = [inspect.getsource(module) for module in written]
        write_atomically(path, derive(values, names, sources, made, room).encode())
    spec = importlib.util.spec_from_file_location(f"{PACKAGE}.{module_name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # before running it: the modules after it import from it
    spec.loader.exec_module(module)
    _modules[module_name] = module
    return module


def _kernel_names(source: str) -> list[str]:
    return [
        node.name
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef) and _is_kernel(node)
    ]


def derived_name(values: tuple[int, ...], names: tuple[str, ...], sources: list[str]) -> str:
    """The name of the module derived from `sources` (the keys of what it is made from) for
    `values`: a hash of both, of the modules' names and of numba's version (rule sets with
    equal parameters share it)."""
    made_of = repr((values, names, sources, numba.__version__)).encode()
    return f"rules_{hashlib.sha256(made_of).hexdigest()[:20]}"


def derive(
    values: tuple[int, ...],
    names: tuple[str, ...],
    sources: list[str],
    made: dict[int, tuple[str, str]] | None = None,
    room: dict[str, int] | None = None,
) -> str:
    """The source of the derived module: the kernels and constants of the modules `names`
    (with their `sources`), their ``params`` reads replaced by `values`, with the state's room
    for kept lifts `room` (`layout.kept_layout`; none by default). A kernel already derived
    (`made`: its id -> its derived module and name) is imported from its derived module; every
    other name a kernel uses from the module it was written in."""
    room = room or {}
    constants = {**_LAYOUT_INTS, **room}
    kept: list[tuple[str, ast.stmt]] = []
    for name, source in zip(names, sources, strict=True):
        for node in ast.parse(source).body:
            value = (
                _Fold(values, constants).visit(node.value) if isinstance(node, ast.Assign) else None
            )
            if isinstance(value, ast.expr) and _literal(value) is not None:
                # a literal, or arithmetic of the layout's and the module's constants before it
                kept.append((name, ast.Assign(node.targets, value, lineno=node.lineno)))
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        constants[target.id] = _literal(value)
            elif isinstance(node, ast.FunctionDef) and _is_kernel(node):
                kept.append((name, node))
    kernels = [node.name for _, node in kept if isinstance(node, ast.FunctionDef)]
    twice = sorted({name for name in kernels if kernels.count(name) > 1})
    if twice:
        raise ValueError(f"kernels of the same name in {', '.join(names)}: {', '.join(twice)}")
    defined = set(constants) | set(kernels)
    fold = _Fold(values, constants)
    while True:  # again while kernels are found to return a constant: their calls fold too
        kept = [
            (name, fold.fold_function(node) if isinstance(node, ast.FunctionDef) else node)
            for name, node in kept
        ]
        found = {
            node.name: value
            for _, node in kept
            if isinstance(node, ast.FunctionDef) and (value := _constant_result(node)) is not None
        }
        if found == fold.kernels:
            break
        fold.kernels = found
    header = (
        f'"""Kernels derived from {", ".join(names)} for the rule parameters\n'
        f"{list(values)}\n(those read at run time shown as 0; `mancala_env.engine.specialise`; "
        f'do not edit)."""\n\n'
    )
    module = ast.Module(body=[node for _, node in kept], type_ignores=[])
    imported = set(_LAYOUT_INTS) - set(room)  # the layout's values, but for the kept lifts' room
    return (
        header
        + _imports(kept, (defined - imported) | set(dir(builtins)), made or {})
        + "".join(f"{name} = {value}\n" for name, value in room.items())
        + "\n"
        + ast.unparse(ast.fix_missing_locations(module))
        + "\n"
    )


def _imports(
    kept: list[tuple[str, ast.stmt]], defined: set[str], made: dict[int, tuple[str, str]]
) -> str:
    """Import lines for the names the kept code uses but does not define: the layout's
    constants from the layout, numba's names from numba, kernels derived before (`made`) from
    their derived module, anything else from the module whose code uses it."""
    modules: dict[str, str] = {}
    taken: dict[str, set[str]] = {}
    for module_name, node in kept:
        namespace = vars(importlib.import_module(module_name))
        for name in ast.walk(node):
            if not isinstance(name, ast.Name) or name.id in defined:
                continue
            if name.id in _LAYOUT_INTS:  # written ``L.X`` in the module that uses it
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


def _literal(node: ast.expr) -> int | None:
    """The value of an integer expression made of literals alone (``-1``, ``2**31 - 1``)."""
    if not all(
        isinstance(n, (ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop))
        for n in ast.walk(node)
    ):
        return None
    value = eval(compile(ast.Expression(node), "<literal>", "eval"), {"__builtins__": {}})
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _is_kernel(node: ast.FunctionDef) -> bool:
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Name) and target.id == "njit":
            return True
    return False


_COMPARE = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}
_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}


class _Fold(ast.NodeTransformer):
    """Replace ``params[P_X]`` by its value and decide what became constant."""

    def __init__(self, values: tuple[int, ...], constants: dict[str, int]) -> None:
        self.values = values
        self.constants = constants
        self.locals: dict[str, int] = {}
        self.kernels: dict[str, int] = {}  # kernels that return a constant, with it

    def fold_function(self, node: ast.FunctionDef) -> ast.FunctionDef:
        """Fold until nothing changes: a local found constant in one pass folds in the next."""
        self.locals = {}
        for _ in range(MAX_PASSES):
            node = self.visit(node)
            _drop_unreachable(node)
            found = {
                name: value.value
                for name, value in _assigned_once(node).items()
                if isinstance(value, ast.Constant) and isinstance(value.value, int)
            }
            if found == self.locals:
                break
            self.locals = found
        _tidy(node, set(self.locals))
        return node

    def _constant(self, node: ast.expr) -> int | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, bool)):
            return int(node.value)
        if isinstance(node, ast.Name):
            if node.id in self.locals:
                return self.locals[node.id]
            return self.constants.get(node.id)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            return self.constants.get(node.attr) if node.value.id == "L" else None
        return None

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
        """``L.X`` of a layout constant is ``X``: the derived module imports the layout's
        constants (and defines the kept lifts' room, `layout.kept_layout`)."""
        self.generic_visit(node)
        if (
            isinstance(node.value, ast.Name)
            and node.value.id == "L"
            and node.attr in _LAYOUT_INTS
            and isinstance(node.ctx, ast.Load)
        ):
            return ast.copy_location(ast.Name(node.attr, ast.Load()), node)
        return node

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if isinstance(node.ctx, ast.Load) and node.id in self.locals:
            return ast.copy_location(ast.Constant(self.locals[node.id]), node)
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        self.generic_visit(node)
        if (
            isinstance(node.ctx, ast.Load)
            and isinstance(node.value, ast.Name)
            and node.value.id == "params"
        ):
            index = self._constant(node.slice)
            if index is not None and index not in layout.RUNTIME_PARAMS:
                return ast.copy_location(ast.Constant(self.values[index]), node)
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)
        left, right = self._constant(node.left), self._constant(node.right)
        op = _BINARY.get(type(node.op))
        if op is not None and left is not None and right is not None:
            return ast.copy_location(ast.Constant(op(left, right)), node)
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        self.generic_visit(node)
        operands = [self._constant(n) for n in [node.left, *node.comparators]]
        ops = [_COMPARE.get(type(op)) for op in node.ops]
        if None in operands or None in ops:
            return node
        result = all(op(a, b) for op, a, b in zip(ops, operands, operands[1:], strict=False))
        return ast.copy_location(ast.Constant(result), node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        self.generic_visit(node)
        value = self._constant(node.operand)
        if value is None:
            return node
        if isinstance(node.op, ast.Not):
            return ast.copy_location(ast.Constant(not value), node)
        if isinstance(node.op, ast.USub):
            return ast.copy_location(ast.Constant(-value), node)
        return node

    def visit_Call(self, node: ast.Call) -> ast.expr:
        """A call of a kernel that returns a constant, with arguments that call nothing,
        is that constant (the kernel is then not compiled)."""
        self.generic_visit(node)
        if (
            isinstance(node.func, ast.Name)
            and node.func.id in self.kernels
            and not any(isinstance(n, ast.Call) for arg in node.args for n in ast.walk(arg))
        ):
            return ast.copy_location(ast.Constant(self.kernels[node.func.id]), node)
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
        """Fold the leading constant operands (the ones evaluated before any call), and a
        deciding constant after operands that call nothing."""
        self.generic_visit(node)
        decisive = isinstance(node.op, ast.Or)  # the value that decides an `or`
        for k, operand in enumerate(node.values):
            if any(isinstance(n, ast.Call) for n in ast.walk(operand)):
                break
            value = self._constant(operand)
            if k > 0 and value is not None and bool(value) == decisive:
                return ast.copy_location(ast.Constant(decisive), node)
        values = list(node.values)
        while values:
            value = self._constant(values[0])
            if value is None:
                break
            if bool(value) == decisive:
                return ast.copy_location(ast.Constant(decisive), node)
            values.pop(0)
        if not values:
            return ast.copy_location(ast.Constant(not decisive), node)
        if len(values) == 1:
            return values[0]
        node.values = values
        return node

    def visit_If(self, node: ast.If) -> ast.stmt | list[ast.stmt]:
        self.generic_visit(node)
        node.test = _condition(node.test)
        decided = self._constant(node.test)
        if decided is None:
            if not node.body:
                node.body = [ast.Pass()]
            return node
        kept = node.body if decided else node.orelse
        return kept or [ast.Pass()]

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        self.generic_visit(node)
        decided = self._constant(node.test)
        if decided is None:
            return node
        return node.body if decided else node.orelse


def _condition(test: ast.expr) -> ast.expr:
    """A condition without the constants at the end of an ``and`` or ``or`` that cannot decide
    it (``slam and True`` is ``slam``: an ``if`` looks at the truth of the value only)."""
    if not isinstance(test, ast.BoolOp):
        return test
    decisive = isinstance(test.op, ast.Or)
    values = list(test.values)
    while len(values) > 1:
        last = values[-1]
        if not (isinstance(last, ast.Constant) and bool(last.value) != decisive):
            break
        values.pop()
    if len(values) == 1:
        return values[0]
    test.values = values
    return test


def _tidy(function: ast.FunctionDef, folded: set[str]) -> None:
    """Drop what folding left behind: the assignments of locals whose constant value was put
    where they are read (`folded`), and ``pass`` in a block that has other statements."""
    for node in ast.walk(function):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if not isinstance(block, list) or not block:
                continue
            kept = [
                statement
                for statement in block
                if not (
                    isinstance(statement, ast.Assign)
                    and len(statement.targets) == 1
                    and isinstance(statement.targets[0], ast.Name)
                    and statement.targets[0].id in folded
                    and isinstance(statement.value, ast.Constant)
                )
            ]
            kept = [statement for statement in kept if not isinstance(statement, ast.Pass)]
            block[:] = kept or [ast.Pass()]


def _drop_unreachable(function: ast.FunctionDef) -> None:
    """Cut every block after its first ``return``, ``raise``, ``break`` or ``continue`` (a
    decided branch can leave one in the middle of its parent's block)."""
    ends = (ast.Return, ast.Raise, ast.Break, ast.Continue)
    for node in ast.walk(function):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                end = next((k for k, s in enumerate(block) if isinstance(s, ends)), None)
                if end is not None:
                    del block[end + 1 :]


def _constant_result(function: ast.FunctionDef) -> bool | int | None:
    """The constant a folded kernel returns when its body does nothing else (a docstring,
    ``pass``, constants assigned to locals, then ``return <constant>``), else None."""
    *before, last = function.body
    if not (isinstance(last, ast.Return) and isinstance(last.value, ast.Constant)):
        return None
    if not isinstance(last.value.value, (bool, int)):
        return None
    for statement in before:
        if isinstance(statement, ast.Pass) or (
            isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
        ):
            continue
        if not (
            isinstance(statement, ast.Assign)
            and isinstance(statement.value, ast.Constant)
            and all(isinstance(target, ast.Name) for target in statement.targets)
        ):
            return None
    return last.value.value


def _assigned_once(function: ast.FunctionDef) -> dict[str, ast.expr]:
    """The locals of `function` bound exactly once, by a plain assignment, and never as an
    argument: name -> the value assigned."""
    counts: dict[str, int] = {}
    values: dict[str, ast.expr] = {}
    for argument in function.args.args:
        counts[argument.arg] = 2
    for node in ast.walk(function):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
            if len(targets) == 1 and isinstance(targets[0], ast.Name):
                values[targets[0].id] = node.value
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)):
            targets = [node.target]
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name):
                    counts[name.id] = counts.get(name.id, 0) + 1
    return {name: value for name, value in values.items() if counts.get(name) == 1}
