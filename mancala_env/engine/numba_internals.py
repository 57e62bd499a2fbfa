"""Every use of numba's internals, in one place, for the numba versions in `TESTED`.

numba's public API lacks five things the engine needs; each is done here and nowhere else:

1. `compile_by_type`: a compiled caller that passes a constant (``_finish(state, 0, ...)``)
   makes numba compile the callee once for each literal value, and once more for each width
   of integer it is passed (an int32 read from a state, an int64 count). The engine's kernels
   are typed by argument type, every integer as int64, instead
   (`Dispatcher.get_call_template`, replaced per dispatcher).
2. `stamp_cache`: numba's disk cache checks the kernel's own source file alone, so a kernel
   cached before a constant it reads in another module changed would be loaded stale. The cache
   entries are stamped with the key of the sources the kernel is built from (`caching`
   locators).
3. `has_cached_code`: whether a call will compile, read from the disk cache's index, so a user
   who waits is told why (`first_use`).
4. `stack_array`: scratch room on the stack frame, for kernels compiled without reference
   counting (`engine.scratch`): an intrinsic that fills numba's array structure.
5. `compile_once`: processes started together (a training run's or a tournament's workers,
   the test processes) would each compile the same kernel when it is not yet in the disk
   cache. A cached kernel compiles under a lock file beside its cache index: the first process
   compiles and saves, the others wait for it and load what it saved
   (`Dispatcher.compile`, replaced per dispatcher).

`tests/engine/test_numba_internals.py` checks each against the installed numba and fails, naming the
version, when numba is outside `TESTED` or one of these internals moved; ``pyproject.toml``
bounds numba to the same range.
"""

from __future__ import annotations

import functools
import os
import time
import warnings
from collections.abc import Callable
from types import MethodType
from typing import Any

import numba
from numba import types
from numba.core import caching, cgutils, sigutils
from numba.core.dispatcher import Dispatcher
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

# The numba releases these internals were checked against: (lowest, highest), as in
# pyproject.toml's bound ``numba>=0.66,<0.69``.
TESTED = ((0, 66), (0, 68))


def numba_version() -> tuple[int, int]:
    """The installed numba's (major, minor)."""
    major, minor = numba.__version__.split(".")[:2]
    return int(major), int(minor)


def is_tested(version: tuple[int, int]) -> bool:
    """Whether `version` (major, minor) is within `TESTED`."""
    return TESTED[0] <= version <= TESTED[1]


if not is_tested(numba_version()):
    warnings.warn(
        f"mancala_env was tested with numba {TESTED[0][0]}.{TESTED[0][1]} to "
        f"{TESTED[1][0]}.{TESTED[1][1]}, not {numba.__version__}: its kernels use numba "
        "internals (mancala_env/engine/numba_internals.py) that may have changed; run "
        "tests/engine/test_numba_internals.py",
        RuntimeWarning,
        stacklevel=2,
    )


# ---- 1. typing a call by its arguments' types ---------------------------------------------


def compile_by_type(dispatcher: Dispatcher) -> None:
    """Make compiled callers of `dispatcher` type their calls by the arguments' plain types,
    so it compiles once per signature whatever constants it is given."""
    dispatcher.get_call_template = MethodType(_call_template_by_type, dispatcher)


def _call_template_by_type(
    dispatcher: Dispatcher, args: tuple, kws: dict
) -> tuple[Any, Any, Any, Any]:
    return Dispatcher.get_call_template(
        dispatcher,
        tuple(_plain(a) for a in args),
        {key: _plain(value) for key, value in kws.items()},
    )


def _plain(argument: Any) -> Any:
    """The type `argument` is compiled for: its type without the literal value, and int64
    for any integer int64 holds (an int32 read from a state array and an int64 count passed
    to the same kernel compile it once, the int32 widened where it is passed)."""
    argument = types.unliteral(argument)
    if isinstance(argument, types.Integer) and (argument.signed or argument.bitwidth < 64):
        return types.int64
    return argument


# ---- 2. cache entries stamped by more than the kernel's own file ----------------------------


def stamp_cache(dispatcher: Dispatcher, function: Callable, stamp: Callable[[], Any]) -> None:
    """Cache `dispatcher` (compiled from `function`) on disk, each entry stamped by `stamp()`
    besides numba's own stamp of the source file: an entry stamped otherwise is not loaded."""
    dispatcher._cache = _stamped_cache(stamp)(function)  # what `enable_caching` sets


@functools.cache
def _stamped_cache(stamp: Callable[[], Any]) -> type:
    class Stamped:
        def get_source_stamp(self) -> tuple[Any, Any]:
            return (super().get_source_stamp(), stamp())  # type: ignore[misc]

    def stamped(name: str) -> type:  # spelt with a leading underscore before numba 0.68
        locator = getattr(caching, name, None) or getattr(caching, "_" + name)
        return type(f"Stamped{name}", (Stamped, locator), {})

    impl = type(
        "StampedCacheImpl",
        (caching.CompileResultCacheImpl,),
        {
            "_locator_classes": [
                stamped(name)
                for name in (
                    "UserProvidedCacheLocator",
                    "InTreeCacheLocator",
                    "UserWideCacheLocator",
                )
            ]
        },
    )
    return type("StampedCache", (caching.FunctionCache,), {"_impl_class": impl})


# ---- 3. whether a call will compile ---------------------------------------------------------


def has_cached_code(dispatcher: Any) -> bool:
    """Whether `dispatcher` needs no compiling: compiled in this process, run as plain Python
    (``NUMBA_DISABLE_JIT``), or in numba's disk cache for its current source."""
    cache = getattr(dispatcher, "_cache", None)
    if cache is None or dispatcher.overloads:
        return True
    return bool(cache._cache_file._load_index())


# ---- 4. arrays on the stack -----------------------------------------------------------------

SCRATCH = types.Array(types.int32, 1, "C")


@intrinsic
def stack_array(typingctx, count):
    """An int32 array of `count` slots (a constant), uninitialised, in the calling function's
    stack frame: it lives until that function returns."""
    if not isinstance(count, types.IntegerLiteral):
        return None
    slots = count.literal_value

    def codegen(context, builder, signature, args):
        data = cgutils.alloca_once(builder, context.get_value_type(types.int32), size=slots)
        array = context.make_array(SCRATCH)(context, builder)
        intp = context.get_value_type(types.intp)
        populate_array(
            array,
            data=data,
            shape=[intp(slots)],
            strides=[intp(4)],
            itemsize=intp(4),
            meminfo=None,
        )
        return array._getvalue()

    return SCRATCH(count), codegen


# ---- 5. one compile of a kernel for processes started together -----------------------------

try:
    import fcntl
except ImportError:  # Windows: each process compiles for itself
    fcntl = None

LOCK_WAIT_SECONDS = 600  # a process that held a lock longer is taken to be stuck: compile anyway
_held: set[str] = set()  # the lock files this process holds (a recursive kernel re-enters)


def compile_once(dispatcher: Dispatcher) -> None:
    """Make processes that compile cached `dispatcher` at the same time compile it once: each
    compiles under a lock file beside the kernel's cache index, so a process that waited
    loads from the disk cache what the first one saved."""
    if fcntl is None:
        return
    dispatcher.compile = MethodType(
        functools.partial(_compile_locked, lock=lock_path(dispatcher)), dispatcher
    )


def lock_path(dispatcher: Dispatcher) -> str:
    """The lock file a cached `dispatcher` compiles under: its cache index's name, ``.lock``
    added, in the same folder."""
    cache = dispatcher._cache
    return os.path.join(cache._cache_path, cache._cache_file._index_name + ".lock")


def _compile_locked(dispatcher: Dispatcher, sig: Any, lock: str) -> Any:
    args, _ = sigutils.normalize_signature(sig)
    if tuple(args) in dispatcher.overloads or lock in _held:
        return Dispatcher.compile(dispatcher, sig)
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    except OSError:  # the cache folder cannot be written: numba will not save there either
        return Dispatcher.compile(dispatcher, sig)
    try:
        _lock(fd)
        _held.add(lock)
        return Dispatcher.compile(dispatcher, sig)
    finally:
        _held.discard(lock)
        os.close(fd)  # closing the file releases its lock


def _lock(fd: int) -> None:
    """Take the lock on `fd`, waiting for the process holding it at most `LOCK_WAIT_SECONDS`."""
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() > deadline:
                return
            time.sleep(0.05)
