"""The one line a process prints before numba compiles kernels that are not in its disk cache.

numba compiles a kernel on its first call and, with ``cache=True``, keeps the machine code on
disk (next to the source, or under ``NUMBA_CACHE_DIR``) in an index file per kernel. The index
names the source file's time stamp, so an index that is missing or stale means the next call
compiles. Looking at the index costs a file read; compiling costs seconds, so a user who waits
is told why, once, and a warm start prints nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from .engine.numba_internals import has_cached_code

_announced: set[str] = set()


def announce_compiling(what: str, kernels: Sequence[Any], seconds: int) -> None:
    """Print "compiling `what`, once, ~`seconds` s" to stderr when one of `kernels` is not in
    the disk cache; at most once per process for each `what`."""
    if what in _announced:
        return
    _announced.add(what)
    if not all(has_cached_code(kernel) for kernel in kernels):
        print(
            f"mancala_env: compiling {what}, once, ~{seconds} s (later runs load them from "
            "numba's disk cache)",
            file=sys.stderr,
            flush=True,
        )
