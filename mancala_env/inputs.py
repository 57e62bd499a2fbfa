"""The one rule for integers and numbers a user hands in (actions, integer options, snapshot
fields, settings, fields of files), the random seeds it allows and the seeds derived from them,
and the check that a request fits in the machine's memory.

Python and numpy integers are integers, and so is a numpy integer array of one element (what
a policy returns for one action); bools are not, though Python counts them as integers, and
neither are floats or strings, however whole. Where a value is written to JSON as it was given
(a training config), Python integers alone are taken: numpy's are not JSON.
"""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np

INT32_MAX = 2**31 - 1  # the engine's state and rule parameters are int32
MAX_MEMINFO_BYTES = 1 << 20  # /proc/meminfo: some kB
MAX_WORKERS = 1024  # processes a command starts at most: more could only exhaust the machine


def is_integer(value: Any, numpy: bool = True) -> bool:
    """Whether `value` is a Python integer or, with `numpy`, a numpy one (never a bool)."""
    kinds = (int, np.integer) if numpy else int
    return isinstance(value, kinds) and not isinstance(value, (bool, np.bool_))


def is_number(value: Any) -> bool:
    """Whether `value` is a finite Python int or float (not a bool)."""
    kind = isinstance(value, (int, float)) and not isinstance(value, bool)
    return kind and math.isfinite(value)


def integer(value: Any, name: str, low: int, high: int | None = None, numpy: bool = True) -> int:
    """`value` as an int when it is an integer (`is_integer`) of `low` or more and at most
    `high` (None: no bound); else a ValueError naming `name` and the range."""
    if not is_integer(value, numpy) or value < low or (high is not None and value > high):
        allowed = f"of {low:,} or more" if high is None else f"from {low:,} to {high:,}"
        raise ValueError(f"{name} must be an integer {allowed}, got {value!r}")
    return int(value)


def number(
    value: Any, name: str, low: float, high: float | None = None, low_open: bool = False
) -> float:
    """`value` as a float when it is a finite number (`is_number`) from `low` (above it, when
    `low_open`) to `high` (None: no bound); else a ValueError naming `name` and the range."""
    if (
        not is_number(value)
        or value < low
        or (low_open and value == low)
        or (high is not None and value > high)
    ):
        allowed = f"above {low:g}" if low_open else f"of {low:g} or more"
        if high is not None:
            allowed = f"{allowed} and at most {high:g}" if low_open else f"from {low:g} to {high:g}"
        raise ValueError(f"{name} must be a number {allowed}, got {value!r}")
    return float(value)


def as_integer(value: Any) -> int | None:
    """`value` as an int when it is an integer or a one-element integer array, else None."""
    if isinstance(value, np.ndarray) and value.size == 1 and value.dtype.kind in "iu":
        value = value.reshape(()).item()
    return int(value) if is_integer(value) else None


def integer_text(text: str) -> int:
    """An integer a user typed: decimal digits (a sign allowed), at most 100 of them, no
    underscores, no other digits than 0-9 (int() takes '1_000' and '١٢'); else ValueError."""
    digits = text.strip().removeprefix("-").removeprefix("+")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 100:
        raise ValueError(f"not an integer in the digits 0-9: {text!r}")
    return int(text)


def number_text(text: str) -> float:
    """A number a user typed, as Python writes one, in ASCII: no underscores, no other digits
    than 0-9 (float() takes '١' and '1_0'); else ValueError."""
    if not text.isascii() or "_" in text:
        raise ValueError(f"not a number in the digits 0-9: {text!r}")
    return float(text)


def check_seed(seed: Any) -> int | None:
    """A random seed (of `reset` and the batches): None or an integer of 0 or more (numpy
    integers too, bools not), as a Python int."""
    if seed is None:
        return None
    if not is_integer(seed) or seed < 0:
        raise ValueError(f"seed must be an integer of 0 or more, or None; got {seed!r}")
    return int(seed)


def derived_seeds(seed: int, path: tuple[int, ...], count: int) -> tuple[int, ...]:
    """`count` independent 32-bit seeds for `path` under `seed` (numpy's SeedSequence with
    `path` as its spawn key): stored games and their keys depend on these numbers."""
    state = np.random.SeedSequence(seed, spawn_key=path).generate_state(count)
    return tuple(int(word) for word in state)


def derived_seed(seed: int, *path: int) -> int:
    """An independent 32-bit seed for `path` under `seed` (`derived_seeds`' first)."""
    return derived_seeds(seed, path, 1)[0]


def check_batch_seed(seed: Any) -> Any:
    """A batch's seed: a seed (`check_seed`), a list of integers of 0 or more (taken together,
    as numpy does), or a numpy SeedSequence."""
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, (list, tuple)) and seed and all(is_integer(s) and s >= 0 for s in seed):
        return [int(s) for s in seed]
    try:
        return check_seed(seed)
    except ValueError:
        raise ValueError(
            "seed must be an integer of 0 or more, a list of them, a numpy SeedSequence or "
            f"None; got {seed!r}"
        ) from None


def check_max_moves(max_moves: Any) -> int | None:
    """The environments' `max_moves`: a positive integer or None."""
    if max_moves is None:
        return None
    if not is_integer(max_moves) or max_moves < 1:
        raise ValueError(f"max_moves must be a positive integer or None, got {max_moves!r}")
    return int(max_moves)


REWARDS = ("win_loss", "score")  # +1/-1/0 at the end, or the final score difference
SEATS = (0, 1, "random")  # a single learner's seat


def check_reward(reward: Any) -> str:
    """`reward` if it is one of `REWARDS`, else a ValueError naming them."""
    if reward not in REWARDS:
        raise ValueError(f"reward {reward!r} is not supported; choose one of {REWARDS}")
    return reward


def check_seat(seat: Any) -> int | str:
    """`seat` if it is one of `SEATS` (an integer 0 or 1, not True or False), else a
    ValueError naming them."""
    if isinstance(seat, bool) or not (seat == "random" or (is_integer(seat) and seat in (0, 1))):
        raise ValueError(f"seat must be 0, 1 or 'random', got {seat!r}")
    return seat


def available_memory() -> int | None:
    """Bytes of memory this machine can give now: Linux's MemAvailable, else its physical
    memory, else None (not known)."""
    try:
        with open("/proc/meminfo", "rb") as file:  # a kernel file: a read of at most the limit
            text = file.read(MAX_MEMINFO_BYTES).decode()
        for line in text.splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def byte_size(count: int) -> str:
    """A number of bytes as a reader writes it: 14.3 GiB."""
    size = float(count)
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if size < 1024 or unit == "PiB":
            return f"{size:,.0f} {unit}" if unit == "bytes" else f"{size:,.1f} {unit}"
        size /= 1024
    raise AssertionError  # pragma: no cover - the loop returns


def check_memory(needed: int, what: str) -> None:
    """Refuse work that needs more memory than this machine has available now, before it
    allocates any: `what` names the argument that asks for it (``max_seeds 31``)."""
    available = available_memory()
    if available is not None and needed > available:
        raise ValueError(
            f"{what} needs {byte_size(needed)} of memory and this machine has "
            f"{byte_size(available)} available; ask for less"
        )
