"""Folding a rule set's structure into the kernels: the partial evaluator of the compiler.

Every ``params[P_X]`` read of the rule set's structure (its board's shape and the mechanics it
uses) is replaced by its value; the numbers among the parameters (`layout.RUNTIME_PARAMS`: seed
counts, stall and relay limits, round targets) stay reads of ``params``. Conditions that became
constant are decided, the branches they rule out dropped (with them the calls into mechanics the
rule set does not use, which are then never compiled), locals set once to a constant are folded
in, and a call of a kernel found to return a constant is that constant.
"""

from __future__ import annotations

import ast
import operator

from .. import layout

LAYOUT_INTS = {
    name: value
    for name, value in vars(layout).items()
    if name.isupper() and isinstance(value, int) and not isinstance(value, bool)
}
MAX_PASSES = 10  # folding passes a function gets (the engine's need three)


def folded_constant(
    node: ast.expr, values: tuple[int, ...], constants: dict[str, int]
) -> tuple[ast.expr, int] | None:
    """A top-level expression folded and the integer it comes to, when it is a literal or
    arithmetic of the layout's and the module's `constants` (with the structure's `values`
    for ``params`` reads); else None."""
    folded = Fold(values, constants).visit(node)
    value = _literal(folded) if isinstance(folded, ast.expr) else None
    return None if value is None else (folded, value)


def fold_kernels(
    kernels: list[ast.FunctionDef], values: tuple[int, ...], constants: dict[str, int]
) -> list[ast.FunctionDef]:
    """`kernels` folded for the structure `values`, with the integer `constants` they read;
    again while kernels are found to return a constant, for their calls fold too."""
    fold = Fold(values, constants)
    while True:
        kernels = [fold.fold_function(node) for node in kernels]
        found = {
            node.name: value for node in kernels if (value := _constant_result(node)) is not None
        }
        if found == fold.kernels:
            return kernels
        fold.kernels = found


def _literal(node: ast.expr) -> int | None:
    """The value of an integer expression made of literals alone (``-1``, ``2**31 - 1``)."""
    if not all(
        isinstance(n, (ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop))
        for n in ast.walk(node)
    ):
        return None
    value = eval(compile(ast.Expression(node), "<literal>", "eval"), {"__builtins__": {}})
    return value if isinstance(value, int) and not isinstance(value, bool) else None


_COMPARE = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}
_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}


class Fold(ast.NodeTransformer):
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
            and node.attr in LAYOUT_INTS
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
        if isinstance(node.op, ast.Not):  # `not` looks at the truth of its operand alone
            node.operand = self.in_condition(node.operand)
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
        """Fold the constants of an ``and`` or ``or`` where the value (not only its truth) stays
        the same: the leading ones (evaluated before any call), a deciding True (or False) after
        operands that call nothing and are True or False, and those that cannot decide."""
        self.generic_visit(node)
        decisive = isinstance(node.op, ast.Or)  # the truth that decides an `or`
        for k, operand in enumerate(node.values):
            if any(isinstance(n, ast.Call) for n in ast.walk(operand)):
                break
            value = self._constant(operand)
            if (
                k > 0
                and value is not None
                and value == decisive
                and all(_is_boolean(before) for before in node.values[:k])
            ):
                return ast.copy_location(ast.Constant(decisive), node)
        values = list(node.values)
        passed = None  # the value of the last leading constant that passed on
        while values:
            value = self._constant(values[0])
            if value is None:
                break
            if bool(value) == decisive:
                return values[0]
            passed = values.pop(0)
        if not values:
            return passed
        # A constant that cannot decide changes nothing before the last operand (`a and True and
        # b` is `a and b`), nor as the last when it is True (or False) after operands that are
        # True or False (`x == 1 and True` is `x == 1`).
        last = len(values) - 1
        after_booleans = all(_is_boolean(value) for value in values[:last])
        values = [
            value
            for k, value in enumerate(values)
            if (constant := self._constant(value)) is None
            or bool(constant) == decisive
            or (k == last and not (after_booleans and constant == (not decisive)))
        ]
        if len(values) == 1:
            return values[0]
        node.values = values
        return node

    def visit_If(self, node: ast.If) -> ast.stmt | list[ast.stmt]:
        self.generic_visit(node)
        node.test = self.in_condition(node.test)
        decided = self._constant(node.test)
        if decided is None:
            if not node.body:
                node.body = [ast.Pass()]
            return node
        kept = node.body if decided else node.orelse
        return kept or [ast.Pass()]

    def visit_While(self, node: ast.While) -> ast.stmt:
        self.generic_visit(node)
        node.test = self.in_condition(node.test)
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        self.generic_visit(node)
        node.test = self.in_condition(node.test)
        decided = self._constant(node.test)
        if decided is None:
            return node
        return node.body if decided else node.orelse

    def in_condition(self, test: ast.expr) -> ast.expr:
        """`test` (folded) where only its truth counts, as an ``if``'s, a ``while``'s or a
        ``not``'s: every operand of an ``and`` or ``or`` in it counts by its truth too, so a
        constant that cannot decide goes, and one that decides ends it (a True after operands
        that call nothing makes an ``or`` True; ``slam and False`` is False)."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test.operand = self.in_condition(test.operand)
            value = self._constant(test.operand)
            return test if value is None else ast.copy_location(ast.Constant(not value), test)
        if not isinstance(test, ast.BoolOp):
            return test
        decisive = isinstance(test.op, ast.Or)
        kept: list[ast.expr] = []
        for operand in (self.in_condition(value) for value in test.values):
            value = self._constant(operand)
            if value is None:
                kept.append(operand)
            elif bool(value) == decisive:
                if not any(isinstance(n, ast.Call) for k in kept for n in ast.walk(k)):
                    return ast.copy_location(ast.Constant(decisive), test)
                kept.append(ast.Constant(decisive))  # the calls before it are still made
                break
        if not kept:
            return ast.copy_location(ast.Constant(not decisive), test)
        if len(kept) == 1:
            return kept[0]
        test.values = kept
        return test


def _is_boolean(node: ast.expr) -> bool:
    """Whether `node` is True or False whatever its operands (a comparison, a ``not``, or an
    ``and`` or ``or`` of such)."""
    if isinstance(node, ast.BoolOp):
        return all(_is_boolean(value) for value in node.values)
    return isinstance(node, ast.Compare) or (
        isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
    )


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
