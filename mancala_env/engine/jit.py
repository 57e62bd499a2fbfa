"""`njit`: numba's, compiled once per type of argument, and cached by the sources it reads.

When a compiled function calls another with a constant argument (``_finish(state, 0,
REASON_MAJORITY, params)``), numba types that argument as the literal value and compiles the
callee, and everything it calls, once for each value it is called with: the engine's kernels
were compiled five times over for some functions. The kernels of this project are decorated by
this `njit` instead, whose dispatchers see every argument by its type (an int is an int64), so a
kernel compiles once for each signature. The constants still reach the code: LLVM inlines the
small callees and folds them there. A cold start compiles about a fifth less (measured in
docs/engine.md).

numba's disk cache checks the source file of the kernel alone: a kernel cached before a
constant of `layout.py` or a kernel it calls in another module changed would be loaded stale.
This `njit` stamps each cache entry with the key of the module the kernel is written in
(`source_keys.module_key`: its source and that of every module of this package it imports,
directly or not), numba's version and whether numba checks bounds (which numba's own cache does
not tell apart), so a change there compiles afresh, and a change anywhere else does not.

Processes started together (a training run's or a tournament's workers) would each compile a
kernel missing from the disk cache; a cached kernel compiles under a lock file beside its cache
index, so one of them compiles it and the others load it. The three tricks reach into numba's
internals, which `numba_internals` holds.

``inline="derived"`` marks a small kernel on the path of every move (the sowing's lap, the
capture, counting the legal moves): a rule set's own kernels (`engine.compiler`), where its
folded body is a few lines, inline it (numba's ``inline="always"``); the shared kernels, where
its body holds every rule set's branches, call it: inlining those there lengthens the compile
of a build used in the tests and for debugging.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numba
from numba.extending import is_jitted

from .numba_internals import compile_by_type, compile_once, stamp_cache
from .source_keys import module_key

INLINE_DERIVED = "derived"  # inlined in a rule set's own kernels, called in the shared ones


def njit(function: Callable | None = None, **options: Any) -> Any:
    """`numba.njit(function, **options)`, or its decorator when `function` is not given, whose
    dispatcher compiles for the types of the arguments of a call, not for their values."""
    if function is None:
        return lambda function: njit(function, **options)
    cache = options.pop("cache", False)
    if options.get("inline") == INLINE_DERIVED:
        options["inline"] = "never"
    dispatcher = numba.njit(**options)(function)
    if is_jitted(dispatcher):  # not under NUMBA_DISABLE_JIT
        compile_by_type(dispatcher)
        if cache:
            stamp_cache(dispatcher, function, _stamp(function.__module__))
            compile_once(dispatcher)
    return dispatcher


@functools.cache
def _stamp(module: str) -> Callable[[], tuple[str, str, bool]]:
    """The stamp of the cache entries of the kernels written in `module`, worked out when a
    kernel is first called (the module is loaded by then)."""
    return lambda: (module_key(module), numba.__version__, bool(numba.config.BOUNDSCHECK))
