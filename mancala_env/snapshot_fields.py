"""What a snapshot's fields are checked against (`Rules`), and the checks they go through: each
names the field and the values it may take."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .engine import layout as L
from .inputs import INT32_MAX, is_integer

# The engine counts plies, turns and stamps in int32. A snapshot may hold counts up to
# COUNTER_MAX; a game plays on only while every count is at most PLAY_COUNTER_MAX (`Game.step`
# refuses a move past it), and one move adds far fewer than their difference, so every snapshot
# a game makes restores and no count wraps round.
COUNTER_MAX = INT32_MAX - 2**16
PLAY_COUNTER_MAX = COUNTER_MAX - 2**16

__all__ = [
    "COUNTER_MAX",
    "INT32_MAX",
    "PLAY_COUNTER_MAX",
    "Rules",
    "SnapshotError",
    "choose",
    "integer",
    "integer_list",
    "unused",
]


class SnapshotError(ValueError):
    """A snapshot that does not describe a valid position of its rule set."""


@dataclasses.dataclass
class Rules:
    """What a snapshot is checked against: the rule set, its options and parameters."""

    variant: Any
    options: Any
    params: np.ndarray
    n_actions: int

    @property
    def name(self) -> str:
        return self.variant.name

    def p(self, index: int) -> int:
        return int(self.params[index])

    @property
    def total(self) -> int:
        return self.p(L.P_TOTAL_SEEDS)

    @property
    def houses(self) -> int:
        return self.p(L.P_HOUSES)

    @property
    def n_pits(self) -> int:
        return 2 * self.houses

    @property
    def pieces(self) -> bool:
        return self.p(L.P_PIECE_GAME) == 1

    @property
    def rounds(self) -> bool:
        return self.p(L.P_ROUNDS) != L.ROUNDS_NONE

    @property
    def chosen_setting_out(self) -> bool:
        return self.p(L.P_SETTING_OUT) == L.SETTING_OUT_CENTRAL_CHOSEN

    def phases(self) -> tuple[int, ...]:
        """The phases a game of this rule set can be in."""
        if self.pieces:
            moves = tuple(range(L.PHASE_DROP, L.PHASE_FLOCK_PIECE + 1))
            if self.p(L.P_PIECE_SETTING_OUT) == L.PIECE_SETTING_OUT_PLAYERS:
                return (L.PHASE_PLAY, L.PHASE_PLACE, L.PHASE_SIDE, *moves)
            return (L.PHASE_PLAY, *moves)
        if self.chosen_setting_out:
            return (L.PHASE_PLAY, L.PHASE_SET_OUT, L.PHASE_CHOOSE)
        return (L.PHASE_PLAY,)


def integer(value: Any, key: str, low: int, high: int) -> int:
    """`value` as an int in low..high (a Python or numpy integer, not a bool)."""
    if not is_integer(value) or not low <= value <= high:
        raise SnapshotError(f"'{key}' must be an integer from {low} to {high}, got {value!r}")
    return int(value)


def optional_integer(value: Any, key: str, high: int) -> int:
    """`value` as an int in 0..high, or -1 for null."""
    if value is None:
        return -1
    try:
        return integer(value, key, 0, high)
    except SnapshotError:
        raise SnapshotError(
            f"'{key}' must be null or an integer from 0 to {high}, got {value!r}"
        ) from None


def integer_list(
    snapshot: dict[str, Any], key: str, length: int, high: int, default: list[int] | None = None
) -> list[int]:
    """The list `snapshot[key]` of `length` integers in 0..high."""
    values = snapshot.get(key, default)
    if not isinstance(values, (list, tuple)) or len(values) != length:
        raise SnapshotError(
            f"'{key}' must be a list of {length} integers from 0 to {high}, got {values!r}"
        )
    return [integer(v, key, 0, high) for v in values]


def unused(key: str, values: Any, neutral: Any, variant: str, why: str) -> None:
    """Refuse a field the rule set never uses unless it holds the value a new game gives it."""
    if values != neutral:
        raise SnapshotError(f"'{key}' must be {neutral!r} in {variant} ({why}), got {values!r}")


def choose(value: Any, key: str, allowed: tuple) -> Any:
    """`value` if it is one of `allowed`, of the same type (the type is compared first, so that
    an array is refused rather than compared element by element)."""
    if not any(type(value) is type(a) and value == a for a in allowed):
        names = ", ".join("null" if a is None else repr(a) for a in allowed)
        raise SnapshotError(f"'{key}' must be one of {names}, got {value!r}")
    return value
