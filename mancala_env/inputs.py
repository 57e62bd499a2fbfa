"""The one rule for integers a user hands in (actions, integer options, snapshot fields).

Python and numpy integers are integers, and so is a numpy integer array of one element (what
a policy returns for one action); bools are not, though Python counts them as integers, and
neither are floats or strings, however whole.
"""

from __future__ import annotations

from typing import Any

import numpy as np

INT32_MAX = 2**31 - 1  # the engine's state and rule parameters are int32


def is_integer(value: Any) -> bool:
    """Whether `value` is a Python or numpy integer (not a bool)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def as_integer(value: Any) -> int | None:
    """`value` as an int when it is an integer or a one-element integer array, else None."""
    if isinstance(value, np.ndarray) and value.size == 1 and value.dtype.kind in "iu":
        value = value.reshape(()).item()
    return int(value) if is_integer(value) else None


def check_max_moves(max_moves: Any) -> int | None:
    """The environments' `max_moves`: a positive integer or None."""
    if max_moves is None:
        return None
    if not is_integer(max_moves) or max_moves < 1:
        raise ValueError(f"max_moves must be a positive integer or None, got {max_moves!r}")
    return int(max_moves)
