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

from ..engine import layout as L
from ..engine.board import house_pit
from ..engine.pieces import decision_asked, first_flock_count_range, flock_pit
from ..snapshot_fields import COUNTER_MAX, Rules, SnapshotError, choose, integer
from .base import SOURCE_HOUSES

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

PITS = 2 * SOURCE_HOUSES  # 10 Mighty Men's board: two rows of six


SOWING_PHASES = (L.PHASE_DROP, L.PHASE_SHIFT)  # a lifted hand is not sown yet


def pieces_in_hand(state: np.ndarray) -> int:
    """Pieces lifted and not yet sown while a move waits for a decision about them; they are
    on neither the board nor a store."""
    return int(state[L.MOVE + L.MOVE_HAND]) if state[L.PHASE] in SOWING_PHASES else 0


def _place_name(at: int) -> int | str | None:
    if at == L.AT_HAND:
        return "hand"
    if at >= L.AT_STORE:
        return f"store_{at - L.AT_STORE}"
    return None if at < 0 else int(at)


def _place_code(value: Any) -> int:
    names = {"hand": L.AT_HAND, "store_0": L.AT_STORE, "store_1": L.AT_STORE + 1}
    if isinstance(value, str) and value in names:
        return names[value]
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < PITS:
        return value
    raise SnapshotError(
        f"a piece's 'at' must be a pit 0..{PITS - 1}, 'store_0', 'store_1' or 'hand', got {value!r}"
    )


def _kind_name(kind: int) -> str | None:
    return L.KIND_NAMES.get(int(kind))


def _kind_code(value: Any, key: str) -> int:
    if value is None:
        return 0
    if not isinstance(value, str) or value not in KIND_CODES:
        raise SnapshotError(
            f"a piece's '{key}' must be null or one of {', '.join(KIND_CODES)}, got {value!r}"
        )
    return KIND_CODES[value]


def write_pieces(state: np.ndarray, params: np.ndarray) -> dict[str, Any]:
    """The `pieces`, `move` and `board_low` entries of a snapshot (the writer the pieces'
    declaration, `engine.mechanics.pieces`, names)."""
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


SETTING_PHASES = (L.PHASE_PLACE, L.PHASE_SIDE)
AFTER_SOWING_PHASES = (L.PHASE_BORROW, L.PHASE_FLOCK_COUNT, L.PHASE_FLOCK_PIECE)
FLOCK_PHASES = (L.PHASE_FLOCK_COUNT, L.PHASE_FLOCK_PIECE)
BORROWED_KINDS = tuple(
    k for k in L.KIND_NAMES if k not in (L.KIND_CHIEFTAIN, L.KIND_HUNTER, L.KIND_TRICKSTER)
)
POWER_KINDS = (L.KIND_FARMER, L.KIND_SHEPHERD, L.KIND_WITCH_DOCTOR, L.KIND_SPY, L.KIND_CHIEFTAIN)
MOVE_DEFAULTS = {"resolved": -1, "flock": -1, "last_piece": -1}


def read_pieces(snapshot: dict[str, Any], state: np.ndarray, rules: Rules) -> None:
    """Write the pieces and the move under way of `snapshot` into `state` (its board, phase,
    player to move and closed pits written already; the reader the pieces' declaration names).
    SnapshotError names what does not fit."""
    params = rules.params
    n = int(params[L.P_PIECES])
    phase = int(state[L.PHASE])
    total = int(params[L.P_TOTAL_SEEDS])
    _restore_move(snapshot, state, n, total)
    pieces = snapshot.get("pieces")
    if not isinstance(pieces, list) or len(pieces) != n:
        raise SnapshotError(f"'pieces' must be a list of {n} entries, one per special piece")
    for i in range(L.MAX_PIECES):
        state[L.PIECE_AT + i] = L.AT_NOWHERE
        state[L.PIECE_DROP + i] = -1
        state[L.PIECE_FLOCK_FROM + i] = -1
    for i, entry in enumerate(pieces):
        _restore_piece(entry, i, state, params, phase)
    _check_places(state, n, phase)
    board = int(state[:PITS].sum())
    lowest = total if snapshot.get("to_move") is None else board  # the end empties the board
    state[L.BOARD_LOW] = integer(snapshot.get("board_low", board), "board_low", 0, lowest)
    if phase in SOWING_PHASES or phase in AFTER_SOWING_PHASES:
        _check_move(state, params, n, phase, total)
    elif phase == L.PHASE_PLACE:
        first = next(i for i in range(n) if _at(state, i) == L.AT_HAND)
        choose(int(state[L.MOVE + L.MOVE_PIECE]), "move.piece (the next piece placed)", (first,))


def _restore_move(snapshot: dict[str, Any], state: np.ndarray, n: int, total: int) -> None:
    move = snapshot.get("move", {})
    if not isinstance(move, dict) or set(move) - set(MOVE_FIELDS):
        raise SnapshotError(f"'move' must be a dict with entries {', '.join(MOVE_FIELDS)}")
    ranges = {
        "origin": (0, PITS - 1),
        "hand": (0, total),
        "piece": (0, max(n - 1, 0)),
        "last_pit": (0, PITS - 1),
        "last_piece": (-1, max(n - 1, 0)),  # a game without pieces starts at 0
        "captures": (0, 1),
        "slam_allowed": (0, 1),
        "resolved": (-1, total),
        "stamps": (0, COUNTER_MAX),
        "flock": (-1, PITS - 1),
        "flock_first": (-1, total),
        "flock_second": (-1, total),
    }
    for key, slot in MOVE_FIELDS.items():
        low, high = ranges[key]
        value = move.get(key, MOVE_DEFAULTS.get(key, 0))
        state[L.MOVE + slot] = integer(value, f"move.{key}", low, high)
    phase = int(state[L.PHASE])
    if phase not in AFTER_SOWING_PHASES:
        choose(int(state[L.MOVE + L.MOVE_RESOLVED]), "move.resolved (no sowing under way)", (-1,))
    if phase not in FLOCK_PHASES:
        choose(int(state[L.MOVE + L.MOVE_FLOCK]), "move.flock (no Shepherd at work)", (-1,))


def _restore_piece(entry: Any, i: int, state: np.ndarray, params: np.ndarray, phase: int) -> None:
    if not isinstance(entry, dict) or set(entry) - {"kind", "at", "acts", "as", *PIECE_FIELDS}:
        raise SnapshotError(
            f"piece {i} must be a dict with entries kind, at, {', '.join(PIECE_FIELDS)}, acts, "
            f"as; got {entry!r}"
        )
    own = L.KIND_NAMES[int(params[L.P_PIECE_KIND + i])]
    kinds = (own,) if phase in SETTING_PHASES else (own, None)  # None: the Spy unmasked it
    kind = _kind_code(choose(entry.get("kind"), f"pieces[{i}].kind", kinds), "kind")
    state[L.PIECE_KIND + i] = kind
    if kind:
        state[L.PIECE_AT + i] = _place_code(entry.get("at"))
    else:
        choose(entry.get("at"), f"pieces[{i}].at (a regular piece now)", (None,))
    in_move = phase in SOWING_PHASES or phase in AFTER_SOWING_PHASES
    stamps = int(state[L.MOVE + L.MOVE_STAMP])
    hand = int(state[L.MOVE + L.MOVE_HAND]) if in_move else 0
    ranges = {
        "since": (0, stamps),
        "drop": (-1, hand - 1),
        "shift": (-1 if phase in SOWING_PHASES else 0, PITS - 1 if in_move else 0),
        "found": (0, int(params[L.P_TOTAL_SEEDS]) if phase in AFTER_SOWING_PHASES else 0),
        "flock_from": (-1, PITS - 1 if phase in FLOCK_PHASES else -1),
    }
    for key, slot in PIECE_FIELDS.items():
        low, high = ranges[key]
        value = entry.get(key, -1 if key in UNSET_AS_MINUS_ONE else 0)
        state[slot + i] = integer(value, f"pieces[{i}].{key}", low, high)
    after_sowing = phase in AFTER_SOWING_PHASES
    acts = choose(
        entry.get("acts"),
        f"pieces[{i}].acts",
        (None, *(L.KIND_NAMES[k] for k in POWER_KINDS)) if after_sowing else (None,),
    )
    chieftain = after_sowing and kind == L.KIND_CHIEFTAIN
    borrowed = choose(
        entry.get("as"),
        f"pieces[{i}].as",
        (None, *(L.KIND_NAMES[k] for k in BORROWED_KINDS)) if chieftain else (None,),
    )
    state[L.PIECE_ACTS + i] = _kind_code(acts, "acts")
    state[L.PIECE_AS + i] = _kind_code(borrowed, "as")


def _at(state: np.ndarray, i: int) -> int:
    return int(state[L.PIECE_AT + i]) if state[L.PIECE_KIND + i] else L.AT_NOWHERE


def _check_places(state: np.ndarray, n: int, phase: int) -> None:
    """Each piece where its phase allows, in an open pit, no more pieces than a place holds."""
    hand_allowed = phase in (L.PHASE_PLACE, *SOWING_PHASES, *FLOCK_PHASES)
    store_allowed = phase not in SETTING_PHASES
    for i in range(n):
        at = _at(state, i)
        if (at == L.AT_HAND and not hand_allowed) or (
            L.AT_STORE <= at < L.AT_HAND and not store_allowed
        ):
            raise SnapshotError(
                f"pieces[{i}].at: no piece is {_place_name(at)!r} in phase {L.PHASE_NAMES[phase]!r}"
            )
        if 0 <= at < PITS and state[L.CLOSED + at]:
            raise SnapshotError(f"pieces[{i}].at: pit {at} is closed (poisoned)")
    for place in range(PITS + 2):
        held = sum(1 for i in range(n) if _at(state, i) == place)
        most = int(state[place])
        if phase in SETTING_PHASES and place < PITS:
            most = min(most, L.PIECES_PER_PIT)
        if held > most:
            where = f"pit {place}" if place < PITS else _place_name(place)
            raise SnapshotError(
                f"{held} special pieces are in {where}, which holds {state[place]} pieces"
                + (f" (at most {L.PIECES_PER_PIT} when set out)" if phase in SETTING_PHASES else "")
            )
    if phase == L.PHASE_PLACE and not any(_at(state, i) == L.AT_HAND for i in range(n)):
        raise SnapshotError("phase 'place' needs a piece in hand ('at': 'hand') to place")


def _check_move(state: np.ndarray, params: np.ndarray, n: int, phase: int, total: int) -> None:
    """A move under way: its lifted pit, its hand, the places its pieces fell at, and the
    decision it asks, which must be the one the rules ask in its position."""
    mover = int(state[L.TO_MOVE])
    move = L.MOVE
    hand = int(state[move + L.MOVE_HAND])
    origin = int(state[move + L.MOVE_ORIGIN])
    own_pits = [house_pit(mover, h, params) for h in range(SOURCE_HOUSES)]
    choose(origin, "move.origin (a pit of the mover's row)", tuple(own_pits))
    integer(hand, "move.hand (the pieces lifted)", 1, total)
    in_hand = [i for i in range(n) if _at(state, i) == L.AT_HAND]
    drops = [int(state[L.PIECE_DROP + i]) for i in range(n) if state[L.PIECE_DROP + i] >= 0]
    if len(set(drops)) != len(drops):
        raise SnapshotError(f"pieces: two pieces fall at the same place in the sowing: {drops}")
    if phase in SOWING_PHASES:
        if state[origin] or len(in_hand) > hand:
            raise SnapshotError(
                f"move: the lifted pit {origin} must be empty and the hand of {hand} hold "
                f"the {len(in_hand)} pieces in hand"
            )
        for i in range(n):
            if i not in in_hand and (state[L.PIECE_DROP + i] >= 0 or state[L.PIECE_SHIFT + i]):
                raise SnapshotError(f"pieces[{i}]: only a piece in hand has a drop or shift")
    else:
        integer(int(state[move + L.MOVE_RESOLVED]), "move.resolved", 0, hand - 1)
        _check_after_sowing(state, params, n, phase, in_hand)
    asked = decision_asked(state, mover, params)
    expected = (int(asked[0]), int(asked[1]))
    if expected != (phase, int(state[move + L.MOVE_PIECE])):
        want = (
            "no decision"
            if expected[0] == L.PHASE_PLAY
            else f"phase {L.PHASE_NAMES[expected[0]]!r} about move.piece = {expected[1]}"
        )
        raise SnapshotError(
            f"'phase' and 'move.piece': the move under way asks for {want} in this position"
        )


def _check_after_sowing(
    state: np.ndarray, params: np.ndarray, n: int, phase: int, in_hand: list[int]
) -> None:
    """The pieces sown are in pits (the Shepherd's flock in hand), and the Shepherd's pits
    are three open pits that can take the pieces he holds."""
    resolved = int(state[L.MOVE + L.MOVE_RESOLVED])
    for i in range(n):
        waiting = state[L.PIECE_ACTS + i] != 0
        if waiting and state[L.PIECE_DROP + i] < resolved:
            raise SnapshotError(f"pieces[{i}].acts: its power was resolved already")
        if state[L.PIECE_DROP + i] >= 0 and _at(state, i) >= PITS and i not in in_hand:
            raise SnapshotError(f"pieces[{i}].at: a piece sown this move is in a pit")
    if phase not in FLOCK_PHASES:
        return
    centre = int(state[L.MOVE + L.MOVE_FLOCK])
    integer(centre, "move.flock (the Shepherd's pit)", 0, PITS - 1)
    pits = [int(flock_pit(state, centre, k, params)) for k in range(3)]
    if len(set(pits)) < 3 or any(state[L.CLOSED + p] for p in pits):
        raise SnapshotError(f"move.flock: pit {centre} and its neighbours are not three open pits")
    for i in range(n):
        came_from = int(state[L.PIECE_FLOCK_FROM + i])
        allowed = tuple(pits) if i in in_hand else (-1,)
        choose(came_from, f"pieces[{i}].flock_from (a pit of the Shepherd's, in hand)", allowed)
    room = sum(int(state[p]) - sum(1 for i in range(n) if _at(state, i) == p) for p in pits)
    if room < len(in_hand):
        raise SnapshotError(
            f"move: the Shepherd's pits {pits} have room for {room} of the "
            f"{len(in_hand)} pieces in hand"
        )
    first, second = (int(state[L.MOVE + L.MOVE_FLOCK_COUNTS + k]) for k in range(2))
    if phase == L.PHASE_FLOCK_COUNT:
        choose(second, "move.flock_second (not chosen yet)", (-1,))
        if first >= 0:
            low, high = (int(x) for x in first_flock_count_range(state, params))
            integer(first, "move.flock_first", low, high)
    elif first < 0 or second < 0:
        raise SnapshotError("move.flock_first and flock_second are chosen before 'flock_piece'")
