"""Scratch arrays on the stack: the engine's kernels allocate nothing on the heap.

The kernels are compiled without numba's reference counting (``_nrt=False``): an array handed
from one kernel to another is otherwise counted on entry and on exit with atomic operations,
and those took more time than the rules themselves (`docs/engine.md`). Without it a kernel
cannot allocate arrays, so the few that need room to work in (a copy of the state to try a
move on, the boards a relay saw) take it from the stack frame of the function that calls
`stack_array`, sized by a constant: the array lives until that function returns (an intrinsic,
in `numba_internals`). Run as plain Python (``NUMBA_DISABLE_JIT=1``), `stack_array` is an
ordinary numpy allocation.
"""

import numpy as np
from numba import config, njit

from .numba_internals import stack_array as _on_the_stack


def _on_the_heap(count: int) -> np.ndarray:
    """`stack_array` run as plain Python: an ordinary numpy array."""
    return np.empty(count, np.int32)


stack_array = _on_the_heap if config.DISABLE_JIT else _on_the_stack


@njit(inline="always", _nrt=False)
def copy_into(target, source):
    """Copy `source` into `target` (as long), slot by slot: a slice assignment would need the
    reference counting the kernels are compiled without."""
    for i in range(source.shape[0]):
        target[i] = source[i]
