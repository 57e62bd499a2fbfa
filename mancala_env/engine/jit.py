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
This `njit` stamps each cache entry with a hash of every module kernels are written in (and of
the engine's, constants included) and with whether numba checks bounds (which numba's own
cache does not tell apart), so any change there compiles afresh. Both tricks reach into numba's
internals, which `numba_internals` holds.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
from numba.extending import is_jitted

from .numba_internals import compile_by_type, stamp_cache

# the repository (agents/ beside mancala_env/) or, installed, site-packages (mancala_env/agents/)
ROOT = Path(__file__).resolve().parents[2]


def njit(function: Callable | None = None, **options: Any) -> Any:
    """`numba.njit(function, **options)`, or its decorator when `function` is not given, whose
    dispatcher compiles for the types of the arguments of a call, not for their values."""
    if function is None:
        return lambda function: njit(function, **options)
    cache = options.pop("cache", False)
    dispatcher = numba.njit(**options)(function)
    if is_jitted(dispatcher):  # not under NUMBA_DISABLE_JIT
        compile_by_type(dispatcher)
        if cache:
            stamp_cache(dispatcher, function, _stamp)
    return dispatcher


def _stamp() -> tuple[str, bool]:
    return sources_digest(), bool(numba.config.BOUNDSCHECK)


def kernel_sources(root: Path = ROOT) -> list[Path]:
    """The sources a kernel may read: the engine's modules, and every module of `mancala_env`
    and `agents` that writes kernels."""
    engine = sorted((root / "mancala_env" / "engine").glob("*.py"))
    writers = [
        path
        for package in ("mancala_env", "agents")
        for path in sorted((root / package).rglob("*.py"))
        if path not in engine and "njit" in path.read_text()
    ]
    return engine + writers


@functools.cache
def sources_digest(root: Path = ROOT) -> str:
    """A hash of `kernel_sources(root)`, read once a process."""
    digest = hashlib.sha256()
    for path in kernel_sources(root):
        digest.update(path.read_bytes())
    return digest.hexdigest()
