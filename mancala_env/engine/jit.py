"""`njit`: numba's, with kernels compiled once per type of argument, not once per constant.

When a compiled function calls another with a constant argument (``_finish(state, 0,
REASON_MAJORITY, params)``), numba types that argument as the literal value and compiles the
callee, and everything it calls, once for each value it is called with: the engine's kernels
were compiled five times over for some functions. The kernels of this project are decorated by
this `njit` instead, whose dispatchers see every argument by its type (an int is an int64), so a
kernel compiles once for each signature. The constants still reach the code: LLVM inlines the
small callees and folds them there. A cold start compiles about a fifth less (measured in
docs/engine.md).
"""

from __future__ import annotations

from collections.abc import Callable
from types import MethodType
from typing import Any

import numba
from numba.core import types
from numba.core.dispatcher import Dispatcher


def njit(function: Callable | None = None, **options: Any) -> Any:
    """`numba.njit(function, **options)`, or its decorator when `function` is not given, whose
    dispatcher compiles for the types of the arguments of a call, not for their values."""
    if function is None:
        return lambda function: njit(function, **options)
    dispatcher = numba.njit(**options)(function)
    if isinstance(dispatcher, Dispatcher):  # not under NUMBA_DISABLE_JIT
        dispatcher.get_call_template = MethodType(_call_template_by_type, dispatcher)
    return dispatcher


def _call_template_by_type(
    dispatcher: Dispatcher, args: tuple, kws: dict
) -> tuple[Any, Any, Any, Any]:
    """`Dispatcher.get_call_template` (how a compiled caller types a call) with every literal
    argument type replaced by its plain type."""
    return Dispatcher.get_call_template(
        dispatcher,
        tuple(types.unliteral(a) for a in args),
        {key: types.unliteral(value) for key, value in kws.items()},
    )
