"""A snapshot back into a state vector, every field checked first.

The compiled engine does no bounds checks and loops until the rules say a move is over, so a
snapshot is checked field by field against its rule set, its phase and its number of seeds
before any kernel sees it: each integer in its range (counters within int32), each field a rule
set never uses at the value a new game gives it, the seeds of the board, the stores and the
hand adding up to the rule set's total, and the fields of a setting out or of a move under way
consistent with the phase. A bad snapshot raises `SnapshotError` naming the field and the
values it may take.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .engine import board
from .engine import layout as L
from .engine.mechanics import MECHANICS, PitField
from .engine.setting_out import central_pit
from .snapshot_fields import (
    COUNTER_MAX,
    INT32_MAX,
    SnapshotError,
    choose,
    integer,
    integer_list,
    optional_integer,
    unused,
)
from .variants.mighty_men_snapshot import restore_pieces

PHASE_CODES = {name: code for code, name in L.PHASE_NAMES.items()}
END_REASON_CODES = {name: code for code, name in L.END_REASON_NAMES.items()}
PIT_FIELDS: tuple[PitField, ...] = tuple(f for m in MECHANICS for f in m.snapshot_fields)
COMMON_FIELDS = [
    *("variant", "options", "pits", "stores", "to_move", "move_number", "stall_plies"),
    *("special_used", "last_action", "last_pit", "last_capturer", "end_reason", "winner"),
    *(field.key for field in PIT_FIELDS),  # owners, closed, uur, ...
    *("turns", "round", "rounds_won", "round_starter", "round_start_stores", "setup", "phase"),
]
PIECE_FIELDS = ("pieces", "move", "board_low")
# Earlier names of fields, still read: an old snapshot restores as it was written.
RENAMED_FIELDS = {"plies_since_capture": "stall_plies"}


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


def check_keys(snapshot: Any, rules: Rules) -> None:
    """A dict of known fields, of this rule set and these options."""
    if not isinstance(snapshot, dict):
        raise SnapshotError(f"a snapshot is a dict of fields, got {type(snapshot).__name__}")
    known = COMMON_FIELDS + list(PIECE_FIELDS if rules.pieces else ())
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


def phase_of(snapshot: dict[str, Any], rules: Rules) -> int:
    phase = snapshot.get("phase", "play")
    allowed = tuple(L.PHASE_NAMES[p] for p in rules.phases())
    return PHASE_CODES[choose(phase, "phase", allowed)]


def state_from_snapshot(snapshot: Any, rules: Rules) -> np.ndarray:
    """The state vector `snapshot` describes, before the start-of-turn rules run on it."""
    if isinstance(snapshot, dict):
        snapshot = {RENAMED_FIELDS.get(key, key): value for key, value in snapshot.items()}
    check_keys(snapshot, rules)
    s = np.zeros(L.STATE_SIZE, dtype=np.int32)
    phase = phase_of(snapshot, rules)
    s[L.PHASE] = phase
    total, n_pits = rules.total, rules.n_pits
    s[L.PITS : L.PITS + n_pits] = integer_list(snapshot, "pits", n_pits, total)
    s[L.STORE : L.STORE + 2] = integer_list(snapshot, "stores", 2, total)
    to_move = choose(snapshot.get("to_move"), "to_move", (0, 1, None))
    if to_move is None and phase != L.PHASE_PLAY:
        raise SnapshotError(
            f"a finished game ('to_move': null) is in phase 'play', not {L.PHASE_NAMES[phase]!r}"
        )
    s[L.TO_MOVE] = 0 if to_move is None else to_move
    _counters(snapshot, s)
    _history(snapshot, s, rules)
    _pit_fields(snapshot, s, rules)
    _rounds(snapshot, s, rules, over=to_move is None)
    _setting_out(snapshot, s, rules)
    in_hand = 0
    if rules.pieces:
        in_hand = restore_pieces(snapshot, s, rules.params)
    else:
        s[L.BOARD_LOW] = s[L.PITS : L.PITS + n_pits].sum()
    held = int(s[L.PITS : L.PITS + n_pits].sum() + s[L.STORE] + s[L.STORE + 1]) + in_hand
    if held != total:
        raise SnapshotError(f"snapshot holds {held} seeds; {rules.name} is played with {total}")
    _ending(snapshot, s, rules, over=to_move is None)
    return s


def _counters(snapshot: dict[str, Any], s: np.ndarray) -> None:
    s[L.MOVE_NUMBER] = integer(snapshot.get("move_number", 0), "move_number", 0, COUNTER_MAX)
    s[L.STALL_PLIES] = integer(snapshot.get("stall_plies", 0), "stall_plies", 0, COUNTER_MAX)
    s[L.TURNS : L.TURNS + 2] = integer_list(snapshot, "turns", 2, COUNTER_MAX, [0, 0])


def _history(snapshot: dict[str, Any], s: np.ndarray, rules: Rules) -> None:
    """The last move and the once-a-game special move."""
    s[L.LAST_ACTION] = optional_integer(
        snapshot.get("last_action"), "last_action", rules.n_actions - 1
    )
    s[L.LAST_PIT] = optional_integer(snapshot.get("last_pit"), "last_pit", rules.n_pits - 1)
    s[L.LAST_CAPTURER] = optional_integer(snapshot.get("last_capturer"), "last_capturer", 1)
    used = integer_list(snapshot, "special_used", 2, 1, [0, 0])
    if rules.p(L.P_SPECIAL_MOVE) == L.SPECIAL_NONE:
        unused("special_used", used, [0, 0], rules.name, "it has no once-a-game move")
    s[L.SPECIAL_USED : L.SPECIAL_USED + 2] = used


def pit_fields_snapshot(state: np.ndarray, n_pits: int) -> dict[str, list[Any]]:
    """The snapshot's fields of one entry a pit (`owners`, `closed`, `uur`, ...), as the
    mechanics declare them (`engine.mechanics`)."""
    return {
        field.key: [field.shown(int(x)) for x in state[_slots(field, n_pits)]]
        for field in PIT_FIELDS
    }


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


def _pit_fields(snapshot: dict[str, Any], s: np.ndarray, rules: Rules) -> None:
    """Who owns each pit, the closed pits, the pregnant (uur) pits: each field a mechanic
    declares, in the rule set's range, at a new game's value where the rule set does not use
    it, and through the mechanic's checks."""
    seeds = [int(x) for x in s[L.PITS : L.PITS + rules.n_pits]]
    for field in PIT_FIELDS:
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


def _rounds(snapshot: dict[str, Any], s: np.ndarray, rules: Rules, over: bool) -> None:
    """The rounds of a match: rounds finished and won, the stores as the round began."""
    s[L.ROUND_STARTER] = choose(
        snapshot.get("round_starter", s[L.TO_MOVE].item()), "round_starter", (0, 1)
    )
    most = rules.p(L.P_MAX_ROUNDS) if rules.rounds else 0
    if not over:  # a match still on has rounds left to play
        most = max(most - 1, 0)
    played = integer(snapshot.get("round", 0), "round", 0, most)
    won = integer_list(snapshot, "rounds_won", 2, played, [0, 0])
    if sum(won) > played:
        raise SnapshotError(f"'rounds_won' {won} add up to more than the {played} rounds played")
    starts = integer_list(snapshot, "round_start_stores", 2, rules.total, [0, 0])
    if not rules.rounds:
        unused("round_start_stores", starts, [0, 0], rules.name, "an episode is one round")
    for player in range(2):
        if starts[player] > s[L.STORE + player]:
            raise SnapshotError(
                f"'round_start_stores': player_{player} held {starts[player]} as the round "
                f"began, more than the {s[L.STORE + player]} in their store now"
            )
    s[L.ROUND] = played
    s[L.ROUNDS_WON : L.ROUNDS_WON + 2] = won
    s[L.ROUND_START_STORE : L.ROUND_START_STORE + 2] = starts


def _setting_out(snapshot: dict[str, Any], s: np.ndarray, rules: Rules) -> None:
    """The setting out's slots: who sets out, the central holes filled, the other's choice."""
    setup = integer_list(snapshot, "setup", 8, INT32_MAX, [0] * 8)
    phase = int(s[L.PHASE])
    if rules.chosen_setting_out:
        _central_holes(setup, s, phase, rules)
    elif rules.p(L.P_SETTING_OUT) != L.SETTING_OUT_NONE:
        given = [0, L.SETTING_OUT_CENTRAL_HOLES] + [0] * 6
        unused("setup", setup, given, rules.name, "its setting out is given")
    elif rules.pieces:
        distributor = integer(setup[L.SETTING_OUT_DISTRIBUTOR], "setup[0] (the placer)", 0, 1)
        # the players set the pieces out, and choose a side, only when there are pieces
        by_players = (
            rules.p(L.P_PIECE_SETTING_OUT) == L.PIECE_SETTING_OUT_PLAYERS
            and rules.p(L.P_PIECES) > 0
        )
        choices = (1, 2) if by_players else (0,)
        if phase in (L.PHASE_PLACE, L.PHASE_SIDE):
            choices = (0,)
            wanted = distributor if phase == L.PHASE_PLACE else 1 - distributor
            _mover_is(s, wanted, phase, "the placer" if phase == L.PHASE_PLACE else "the other")
        choose(setup[L.SETTING_OUT_CHOICE], "setup[2] (the side chosen)", choices)
        unused("setup", setup[3:], [0] * 5, rules.name, "slots 3..7 are not used")
        unused("setup[1]", setup[1], 0, rules.name, "slot 1 is not used")
    else:
        unused("setup", setup, [0] * 8, rules.name, "it has no setting out")
    s[L.SETTING_OUT : L.SETTING_OUT + 8] = setup


def _mover_is(s: np.ndarray, player: int, phase: int, who: str) -> None:
    if s[L.TO_MOVE] != player:
        raise SnapshotError(
            f"'to_move' must be {player} in phase {L.PHASE_NAMES[phase]!r} ({who} acts)"
        )


def _central_holes(setup: list[int], s: np.ndarray, phase: int, rules: Rules) -> None:
    """Mangala's setting out: the holes filled so far, the one being filled, the rest empty."""
    distributor = integer(setup[L.SETTING_OUT_DISTRIBUTOR], "setup[0] (the distributor)", 0, 1)
    holes = L.SETTING_OUT_CENTRAL_HOLES
    if phase == L.PHASE_SET_OUT:
        filled = integer(setup[L.SETTING_OUT_FILLED], "setup[1] (holes filled)", 0, holes - 2)
        choose(setup[L.SETTING_OUT_CHOICE], "setup[2] (the choice)", (0,))
        _mover_is(s, distributor, phase, "the distributor")
    else:
        filled = integer(setup[L.SETTING_OUT_FILLED], "setup[1] (holes filled)", holes, holes)
        choice = (0,) if phase == L.PHASE_CHOOSE else (1, 2)
        choose(setup[L.SETTING_OUT_CHOICE], "setup[2] (the choice)", choice)
        if phase == L.PHASE_CHOOSE:
            _mover_is(s, 1 - distributor, phase, "the other player")
    unused("setup", setup[3:], [0] * 5, "mangala", "slots 3..7 are not used")
    if phase == L.PHASE_PLAY:
        return
    reached = [central_pit(distributor, i, rules.params) for i in range(min(filled + 1, holes))]
    if s[L.STORE] or s[L.STORE + 1] or any(s[p] for p in range(rules.n_pits) if p not in reached):
        raise SnapshotError(
            "'pits': while the seeds are set out only the central holes filled so far and "
            f"the one being filled ({', '.join(map(str, reached))}) hold seeds"
        )
    least = int(rules.params[L.P_SETTING_OUT_LEAST])
    # the hole being filled holds the seeds still to set out: a least for it and each after it
    wanted = [least] * filled + [least * (holes - filled)] * (filled < holes)
    short = [p for p, n in zip(reached, wanted, strict=True) if s[p] < n]
    if short:
        raise SnapshotError(
            "'pits': with central_holes='at_least_one' every central hole gets a seed (the "
            "hole being filled holds one for itself and each hole after it); too few in pit(s) "
            + ", ".join(map(str, short))
        )


def _ending(snapshot: dict[str, Any], s: np.ndarray, rules: Rules, over: bool) -> None:
    """The winner and why the game ended; a finished game has no seeds on the board."""
    winner = choose(snapshot.get("winner"), "winner", (0, 1, None))
    reason = snapshot.get("end_reason")
    if not over:
        choose(winner, "winner", (None,))
        choose(reason, "end_reason", (None, "none"))
        return
    if s[L.PITS : L.PITS + rules.n_pits].any():
        raise SnapshotError("a finished game ('to_move': null) has no seeds on the board")
    reasons = tuple(name for name in END_REASON_CODES if name != "none")
    s[L.END_REASON] = END_REASON_CODES[choose(reason, "end_reason", reasons)]
    if not rules.rounds:
        stores = int(s[L.STORE]), int(s[L.STORE + 1])
        leader = None if stores[0] == stores[1] else int(stores[1] > stores[0])
        choose(winner, "winner (the player with more seeds, null for a draw)", (leader,))
    s[L.WINNER] = -1 if winner is None else winner
    s[L.OVER] = 1
