"""A snapshot back into a state vector, every field checked first.

The compiled engine does no bounds checks and loops until the rules say a move is over, so a
snapshot is checked field by field against its rule set, its phase and its number of seeds
before any kernel sees it: each integer in its range (counters within int32), each field a rule
set never uses at the value a new game gives it, the seeds of the board, the stores and the
hand adding up to the rule set's total, and the fields of a setting out or of a move under way
consistent with the phase. A bad snapshot raises `SnapshotError` naming the field and the
values it may take.

The fields are the mechanics' (`engine.mechanics`): each declares its own, and the known
fields, the reader (`state_from_snapshot`) and the writer (`written_fields`, which
`Game.snapshot` asks) are derived here from those declarations.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from . import state_fields
from .engine import board
from .engine import layout as L
from .engine.mechanics import MECHANICS, Mechanic, PitField, StateFields
from .snapshot_fields import Rules, SnapshotError, choose, integer_list, unused
from .variants.mighty_men_snapshot import pieces_in_hand

RULE_SET_FIELDS = ("variant", "options")  # which game the snapshot is of, before any mechanic's
# Earlier names of fields, still read: an old snapshot restores as it was written.
RENAMED_FIELDS = {"plies_since_capture": "stall_plies"}


def declared_fields(
    mechanics: tuple[Mechanic, ...] = MECHANICS,
) -> tuple[PitField | StateFields, ...]:
    """Every snapshot field `mechanics` declare, in their order: the order of a snapshot's
    keys, of the known fields, and (but for those `read_last`) of their reading."""
    return tuple(field for mechanic in mechanics for field in mechanic.snapshot_fields)


FIELDS = declared_fields()
PIT_FIELDS: tuple[PitField, ...] = tuple(f for f in FIELDS if isinstance(f, PitField))


def check_keys(snapshot: Any, rules: Rules) -> None:
    """A dict of known fields, of this rule set and these options."""
    if not isinstance(snapshot, dict):
        raise SnapshotError(f"a snapshot is a dict of fields, got {type(snapshot).__name__}")
    known = known_fields(rules.params)
    unknown = sorted(map(str, set(snapshot) - set(known)))
    if unknown:
        raise SnapshotError(
            f"snapshot has field(s) {', '.join(unknown)} that {rules.name} does not use; "
            f"its fields: {', '.join(known)}"
        )
    variant = snapshot.get("variant", rules.name)
    if not isinstance(variant, str) or variant != rules.name:
        raise SnapshotError(f"snapshot is of variant {variant!r}, this game is {rules.name!r}")
    options = snapshot.get("options")
    if options is None:
        return
    if not isinstance(options, dict):
        raise SnapshotError(f"'options' must be a dict of option values, got {options!r}")
    try:
        given = rules.variant.options(**options)
    except (TypeError, ValueError) as error:
        raise SnapshotError(f"'options': {error}") from error
    if given != rules.options:
        ours = dataclasses.asdict(rules.options)
        differ = [
            f"{key}={value!r} (this game: {ours[key]!r})"
            for key, value in dataclasses.asdict(given).items()
            if ours[key] != value
        ]
        raise SnapshotError(f"'options' differ from this game's: {', '.join(differ)}")


def known_fields(params: np.ndarray) -> list[str]:
    """The fields a snapshot of the rule set with parameters `params` may hold: the rule set's,
    then each field a mechanic declares, but those whose `known_when` the rule set fails."""
    return [*RULE_SET_FIELDS, *(key for field in _known(params) for key in field.keys)]


def _known(params: np.ndarray) -> list[PitField | StateFields]:
    """The declared fields of a rule set's snapshots: every field of one entry a pit (at a new
    game's value where the rule set does not use it), the others where their predicate holds."""
    return [
        field
        for field in FIELDS
        if isinstance(field, PitField)
        or field.known_when is None
        or getattr(board, field.known_when)(params)
    ]


def state_from_snapshot(snapshot: Any, rules: Rules) -> np.ndarray:
    """The state vector `snapshot` describes, before the start-of-turn rules run on it.

    The order of reading is decided here, and it matters: each field is checked against the
    rule set and the fields read before it. The mechanics' fields are read in MECHANICS order,
    which puts the turn first (the phase, then the board, the stores and the player to move:
    every other field is checked against them) and the closed pits before the pieces; the
    rounds read the stores and the player to move, the setting out the phase. Then the seeds
    of the board, the stores and the hand must add up to the rule set's total, and last come
    the fields `read_last` (the ending), whose checks read the whole position."""
    if isinstance(snapshot, dict):
        snapshot = {RENAMED_FIELDS.get(key, key): value for key, value in snapshot.items()}
    check_keys(snapshot, rules)
    s = np.zeros(L.STATE_SIZE, dtype=np.int32)
    known = _known(rules.params)
    last = [field for field in known if isinstance(field, StateFields) and field.read_last]
    for field in known:
        if field not in last:
            _read(field, snapshot, s, rules)
    held = int(s[L.PITS : L.PITS + rules.n_pits].sum() + s[L.STORE] + s[L.STORE + 1])
    held += pieces_in_hand(s)
    if held != rules.total:
        raise SnapshotError(
            f"snapshot holds {held} seeds; {rules.name} is played with {rules.total}"
        )
    for field in last:
        _read(field, snapshot, s, rules)
    return s


def _read(
    field: PitField | StateFields, snapshot: dict[str, Any], s: np.ndarray, rules: Rules
) -> None:
    if isinstance(field, PitField):
        _read_pit_field(field, snapshot, s, rules)
    else:
        getattr(state_fields, field.read)(snapshot, s, rules)


def written_fields(state: np.ndarray, params: np.ndarray) -> dict[str, Any]:
    """Every field of the position a rule set's snapshots hold (`known_fields` but the rule
    set's own), in MECHANICS order, as each mechanic's writer gives it."""
    written: dict[str, Any] = {}
    for field in _known(params):
        if isinstance(field, PitField):
            slots = _slots(field, 2 * int(params[L.P_HOUSES]))
            written[field.key] = [field.shown(int(x)) for x in state[slots]]
        else:
            written.update(getattr(state_fields, field.write)(state, params))
    return written


def _slots(field: PitField, n_pits: int) -> slice:
    offset = getattr(L, field.block)
    return slice(offset, offset + n_pits)


def _pit_field_values(snapshot: dict[str, Any], field: PitField, rules: Rules) -> list[Any]:
    """The field's list in `snapshot` (a new game's when absent), each entry checked."""
    n_pits = rules.n_pits
    values = snapshot.get(field.key, field.default(rules.houses))
    if None in field.codes:  # entries that may be null
        entries = ", ".join(map(str, [c for c in field.codes if c is not None])) + " or null"
        if not isinstance(values, list) or len(values) != n_pits:
            raise SnapshotError(
                f"'{field.key}' must be a list of {n_pits} entries {entries}, got {values!r}"
            )
        return [choose(v, field.key, tuple(field.codes)) for v in values]
    return integer_list(snapshot, field.key, n_pits, max(field.codes), field.default(rules.houses))


def _read_pit_field(field: PitField, snapshot: dict[str, Any], s: np.ndarray, rules: Rules) -> None:
    """Who owns each pit, the closed pits, the pregnant (uur) pits: a field a mechanic declares,
    in the rule set's range, at a new game's value where the rule set does not use it, and
    through the mechanic's checks."""
    seeds = [int(x) for x in s[L.PITS : L.PITS + rules.n_pits]]
    values = _pit_field_values(snapshot, field, rules)
    if not getattr(board, field.in_use)(rules.params):
        unused(field.key, values, field.default(rules.houses), rules.name, field.unused_why)
    for check in field.checks:
        problem = check(values, seeds, rules)
        if problem:
            raise SnapshotError(problem)
    offset = getattr(L, field.block)
    s[offset : offset + rules.n_pits] = [field.stored(v) for v in values]
    s[offset + rules.n_pits : offset + L.MAX_PITS] = field.beyond  # past the board's end
