"""The special pieces of a game (10 Mighty Men) in a snapshot, and back.

A snapshot lists one entry per piece slot of the rule set: the piece's kind (null once the Spy
made it a regular piece), where it is (a pit 0..11, ``"store_0"``, ``"store_1"``, or ``"hand"``
while a move or the setting out has it), and the stamp of its arrival there; and, while a move
is under way, the decisions taken so far and, while the Shepherd holds it, the pit it came
from (``flock_from``). ``move`` holds the rest of a move under way.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .engine import layout as L

KIND_CODES = {name: kind for kind, name in L.KIND_NAMES.items()}
MOVE_FIELDS = {
    "origin": L.MOVE_ORIGIN,
    "hand": L.MOVE_HAND,
    "piece": L.MOVE_PIECE,
    "last_pit": L.MOVE_LAST_PIT,
    "last_piece": L.MOVE_LAST_PIECE,
    "captures": L.MOVE_CAPTURES,
    "slam_allowed": L.MOVE_SLAM_ALLOWED,
    "resolved": L.MOVE_RESOLVED,
    "stamps": L.MOVE_STAMP,
    "flock": L.MOVE_FLOCK,
    "flock_first": L.MOVE_FLOCK_COUNTS,
    "flock_second": L.MOVE_FLOCK_COUNTS + 1,
}
PIECE_FIELDS = {
    "since": L.PIECE_SINCE,
    "drop": L.PIECE_DROP,
    "shift": L.PIECE_SHIFT,
    "found": L.PIECE_FOUND,
    "flock_from": L.PIECE_FLOCK_FROM,
}
UNSET_AS_MINUS_ONE = ("drop", "flock_from")  # piece fields that are -1 when not in use


SOWING_PHASES = (L.PHASE_DROP, L.PHASE_SHIFT)  # a lifted hand is not sown yet


class PieceSnapshotError(ValueError):
    """A snapshot whose pieces do not fit its position."""


def _place_name(at: int) -> int | str | None:
    if at == L.AT_HAND:
        return "hand"
    if at >= L.AT_STORE:
        return f"store_{at - L.AT_STORE}"
    return None if at < 0 else int(at)


def _place_code(value: Any) -> int:
    names = {"hand": L.AT_HAND, "store_0": L.AT_STORE, "store_1": L.AT_STORE + 1}
    if value in names:
        return names[value]
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < L.N_PITS:
        return value
    raise PieceSnapshotError(
        f"a piece's 'at' must be a pit 0..{L.N_PITS - 1}, 'store_0', 'store_1' or 'hand', "
        f"got {value!r}"
    )


def _kind_name(kind: int) -> str | None:
    return L.KIND_NAMES.get(int(kind))


def _kind_code(value: Any, key: str) -> int:
    if value is None:
        return 0
    if value not in KIND_CODES:
        raise PieceSnapshotError(
            f"a piece's '{key}' must be null or one of {', '.join(KIND_CODES)}, got {value!r}"
        )
    return KIND_CODES[value]


def pieces_snapshot(state: np.ndarray, params: np.ndarray) -> dict[str, Any]:
    """The `pieces`, `move` and `board_low` entries of a snapshot."""
    pieces = []
    for i in range(int(params[L.P_PIECES])):
        entry: dict[str, Any] = {
            "kind": _kind_name(state[L.PIECE_KIND + i]),
            "at": _place_name(int(state[L.PIECE_AT + i])),
        }
        entry.update({key: int(state[slot + i]) for key, slot in PIECE_FIELDS.items()})
        entry["acts"] = _kind_name(state[L.PIECE_ACTS + i])
        entry["as"] = _kind_name(state[L.PIECE_AS + i])
        pieces.append(entry)
    return {
        "pieces": pieces,
        "move": {key: int(state[L.MOVE + slot]) for key, slot in MOVE_FIELDS.items()},
        "board_low": int(state[L.BOARD_LOW]),
    }


def restore_pieces(snapshot: dict[str, Any], state: np.ndarray, params: np.ndarray) -> None:
    """Write the pieces of `snapshot` into `state`; PieceSnapshotError names what is wrong."""
    n = int(params[L.P_PIECES])
    pieces = snapshot.get("pieces")
    if not isinstance(pieces, list) or len(pieces) != n:
        raise PieceSnapshotError(f"'pieces' must be a list of {n} entries, one per special piece")
    for i in range(L.MAX_PIECES):
        state[L.PIECE_AT + i] = L.AT_NOWHERE
        state[L.PIECE_DROP + i] = -1
        state[L.PIECE_FLOCK_FROM + i] = -1
    for i, entry in enumerate(pieces):
        if not isinstance(entry, dict):
            raise PieceSnapshotError(f"piece {i} must be a dict, got {entry!r}")
        kind = _kind_code(entry.get("kind"), "kind")
        state[L.PIECE_KIND + i] = kind
        if kind:
            state[L.PIECE_AT + i] = _place_code(entry.get("at"))
        for key, slot in PIECE_FIELDS.items():
            value = entry.get(key, -1 if key in UNSET_AS_MINUS_ONE else 0)
            if isinstance(value, bool) or not isinstance(value, int) or value < -1:
                raise PieceSnapshotError(f"piece {i}'s '{key}' must be an integer, got {value!r}")
            state[slot + i] = value
        state[L.PIECE_ACTS + i] = _kind_code(entry.get("acts"), "acts")
        state[L.PIECE_AS + i] = _kind_code(entry.get("as"), "as")
    move = snapshot.get("move", {})
    if not isinstance(move, dict):
        raise PieceSnapshotError("'move' must be a dict")
    for key, slot in MOVE_FIELDS.items():
        value = move.get(key, -1 if key in ("resolved", "flock") else 0)
        high = 2**31 - 1 if key == "stamps" else 48
        if isinstance(value, bool) or not isinstance(value, int) or not -1 <= value <= high:
            raise PieceSnapshotError(f"'move' entry '{key}' is out of range: {value!r}")
        state[L.MOVE + slot] = value
    for place in range(L.N_PITS + 2):
        held = sum(
            1 for i in range(n) if state[L.PIECE_KIND + i] and state[L.PIECE_AT + i] == place
        )
        if held > state[place]:
            where = f"pit {place}" if place < L.N_PITS else _place_name(place)
            raise PieceSnapshotError(
                f"{held} special pieces are in {where}, which holds {state[place]} pieces"
            )
    low = snapshot.get("board_low", int(state[: L.N_PITS].sum()))
    if isinstance(low, bool) or not isinstance(low, int) or low < 0:
        raise PieceSnapshotError(f"'board_low' must be a non-negative integer, got {low!r}")
    state[L.BOARD_LOW] = low


def pieces_in_hand(snapshot: dict[str, Any]) -> int:
    """Pieces lifted and not yet sown (they are on neither the board nor a store)."""
    if snapshot.get("phase") in (L.PHASE_NAMES[p] for p in SOWING_PHASES):
        move = snapshot.get("move", {})
        return int(move.get("hand", 0)) if isinstance(move, dict) else 0
    return 0
