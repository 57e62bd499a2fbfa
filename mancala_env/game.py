"""One game of a rule set: the state vector, its rule parameters, and a readable view of both.

`Game` is the single-game handle the environments, the command line and the tests use. It
owns nothing the kernels do not: every rule lives in `mancala_env.engine`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .engine import layout as L
from .engine.pieces import random_setting_out_seed
from .engine.setting_out import random_layout
from .engine.turn import ILLEGAL, begin_turn, new_game, step
from .piece_snapshot import (
    SOWING_PHASES,
    PieceSnapshotError,
    pieces_in_hand,
    pieces_snapshot,
    restore_pieces,
)
from .variants import RuleOptions, Variant, get_variant


class IllegalActionError(ValueError):
    """An action the rules do not allow in the current position."""


class SnapshotError(ValueError):
    """A snapshot that does not describe a valid position of its rule set."""


class Game:
    """A game of `variant` under `options` (keyword options override the defaults)."""

    def __init__(
        self, variant: str | Variant, options: RuleOptions | None = None, **option_values: Any
    ) -> None:
        self.variant = get_variant(variant) if isinstance(variant, str) else variant
        if options is None:
            options = self.variant.options(**option_values)
        elif option_values:
            options = dataclasses.replace(options, **option_values)
        self.options = options
        self.params = self.variant.to_params(options)
        self.n_actions = self.variant.n_actions(options)
        self.total_seeds = int(self.params[L.P_TOTAL_SEEDS])
        self.state = np.zeros(L.STATE_SIZE, dtype=np.int32)
        self.reset()

    def reset(self, rng: np.random.Generator | None = None) -> None:
        """Set out the starting position; `rng` draws the first player when that is random,
        and then a random layout of the central holes (Mangala's `setting_out="random"`) or of
        the special pieces (10 Mighty Men's)."""
        rng = rng if rng is not None else np.random.default_rng()
        first = self.options.first_player
        player = int(rng.integers(2)) if first == "random" else int(first[-1])
        params = self.params
        seed = 0
        if params[L.P_SETUP] == L.SETUP_CENTRAL_RANDOM:
            params = random_layout(params, rng)
        if params[L.P_PIECE_GAME] == 1 and params[L.P_PIECE_SETUP] == L.PIECE_SETUP_RANDOM:
            seed = random_setting_out_seed(rng)
        new_game(params, player, self.state, seed)

    # ---- reading the position -------------------------------------------------------------
    @property
    def over(self) -> bool:
        return bool(self.state[L.OVER])

    @property
    def to_move(self) -> int:
        """The player to move (0 or 1); after the game ends, the player who would have moved."""
        return int(self.state[L.TO_MOVE])

    @property
    def pits(self) -> np.ndarray:
        return self.state[L.PITS : L.PITS + L.N_PITS]

    @property
    def stores(self) -> np.ndarray:
        return self.state[L.STORE : L.STORE + 2]

    @property
    def move_number(self) -> int:
        return int(self.state[L.MOVE_NUMBER])

    @property
    def in_hand(self) -> int:
        """Pieces lifted and not yet sown while a move waits for a decision about them (10
        Mighty Men); they are on neither the board nor a store."""
        if self.state[L.PHASE] in SOWING_PHASES:
            return int(self.state[L.MOVE + L.MOVE_HAND])
        return 0

    def legal_mask(self) -> np.ndarray:
        """int8 mask over the action space: 1 for each action the player to move may play."""
        return self.state[L.LEGAL : L.LEGAL + self.n_actions].astype(np.int8)

    def legal_actions(self) -> list[int]:
        return [int(a) for a in np.flatnonzero(self.legal_mask())]

    def winner(self) -> int | None:
        """0 or 1 once the game is over and has a winner; None for a draw or a game still on."""
        if not self.over or self.state[L.WINNER] < 0:
            return None
        return int(self.state[L.WINNER])

    def describe_action(self, action: int) -> str:
        """What `action` does, in words, for the player it belongs to (e.g. "lifts house 3")."""
        p = self.params
        lifts = int(p[L.P_LIFT_ACTIONS])
        extra = action - lifts
        if action < lifts:
            if action < L.N_HOUSES:
                return f"lifts house {action + 1}"
            return f"lifts the opponent's house {action - L.N_HOUSES + 1}, now theirs"
        if p[L.P_PIECE_GAME] == 1:
            return describe_decision(self.state, extra)
        if p[L.P_SETUP] == L.SETUP_CENTRAL_CHOSEN:
            total = int(p[L.P_TOTAL_SEEDS])
            if extra <= total:
                return f"leaves {extra} seeds in the central hole being filled"
            return "accepts the position" if extra == total + 1 else "turns the board round"
        if p[L.P_OPENING] != L.OPENING_NONE:
            return f"opens with houses {extra + 1} and {extra + 2} together"
        house = extra % L.N_HOUSES + 1
        if extra < L.N_HOUSES:
            return f"moves house {house} en bloc to house {house + 1} (odu)"
        return f"moves house {house} en bloc to house {house - 1} (odu)"

    # ---- playing ---------------------------------------------------------------------------
    def step(self, action: int) -> None:
        """Play `action` for the player to move; IllegalActionError names the legal ones."""
        if self.over:
            raise IllegalActionError("the game is over; reset it to play again")
        if not isinstance(action, (int, np.integer)) or not 0 <= action < self.n_actions:
            raise IllegalActionError(
                f"action {action!r} is out of range; actions are integers 0..{self.n_actions - 1}"
            )
        if step(self.state, int(action), self.params) == ILLEGAL:
            raise IllegalActionError(
                f"action {action} is not legal for player_{self.to_move} now; "
                f"legal actions: {self.legal_actions()}"
            )

    def copy(self) -> Game:
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.state = self.state.copy()
        return other

    # ---- snapshots -------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The whole position as a JSON-ready dict (the board convention of the design notes)."""
        s = self.state
        last, last_pit = int(s[L.LAST_ACTION]), int(s[L.LAST_PIT])
        return {
            "variant": self.variant.name,
            "options": dataclasses.asdict(self.options),
            "pits": [int(x) for x in self.pits],
            "stores": [int(x) for x in self.stores],
            "to_move": None if self.over else self.to_move,
            "move_number": self.move_number,
            "plies_since_capture": int(s[L.STALL]),
            "special_used": [int(s[L.SPECIAL_USED]), int(s[L.SPECIAL_USED + 1])],
            "last_action": None if last < 0 else last,
            "last_pit": None if last_pit < 0 else last_pit,
            "last_capturer": None if s[L.LAST_CAPTURER] < 0 else int(s[L.LAST_CAPTURER]),
            "end_reason": L.END_REASON_NAMES[int(s[L.END_REASON])] if self.over else None,
            "winner": self.winner(),
            "owners": [int(x) for x in s[L.OWNER : L.OWNER + L.N_PITS]],
            "closed": [int(x) for x in s[L.CLOSED : L.CLOSED + L.N_PITS]],
            "uur": [int(x) - 1 if x else None for x in s[L.UUR : L.UUR + L.N_PITS]],
            "turns": [int(x) for x in s[L.TURNS : L.TURNS + 2]],
            "round": int(s[L.ROUND]),
            "rounds_won": [int(x) for x in s[L.ROUNDS_WON : L.ROUNDS_WON + 2]],
            "round_starter": int(s[L.ROUND_STARTER]),
            "round_start_stores": [
                int(x) for x in s[L.ROUND_START_STORE : L.ROUND_START_STORE + 2]
            ],
            "setup": [int(x) for x in s[L.SETUP : L.SETUP + 8]],
            "phase": L.PHASE_NAMES[int(s[L.PHASE])],
            **(pieces_snapshot(s, self.params) if self.params[L.P_PIECE_GAME] == 1 else {}),
        }

    @classmethod
    def from_snapshot(cls, snapshot: dict[str, Any]) -> Game:
        """Rebuild a game from `snapshot`; SnapshotError says what is wrong with a bad one."""
        if not isinstance(snapshot, dict) or "variant" not in snapshot:
            raise SnapshotError("a snapshot is a dict with at least a 'variant' key")
        try:
            game = cls(snapshot["variant"], **snapshot.get("options", {}))
        except (TypeError, ValueError) as error:
            raise SnapshotError(f"snapshot names a bad variant or option: {error}") from error
        game.restore(snapshot)
        return game

    def restore(self, snapshot: dict[str, Any]) -> None:
        """Put the game back exactly as `snapshot` describes it (same variant and options)."""
        if snapshot.get("variant", self.variant.name) != self.variant.name:
            raise SnapshotError(
                f"snapshot is of variant {snapshot.get('variant')!r}, "
                f"this game is {self.variant.name!r}"
            )
        pits = _int_list(snapshot, "pits", L.N_PITS)
        stores = _int_list(snapshot, "stores", 2)
        to_move = snapshot.get("to_move")
        if to_move not in (0, 1, None):
            raise SnapshotError(f"'to_move' must be 0, 1 or null, got {to_move!r}")
        phase = _phase(snapshot.get("phase", "play"))
        if phase not in self._phases():
            names = ", ".join(L.PHASE_NAMES[p] for p in self._phases())
            raise SnapshotError(f"{self.variant.name}'s 'phase' must be one of {names}")
        held = sum(pits) + sum(stores) + pieces_in_hand(snapshot)
        if held != self.total_seeds:
            raise SnapshotError(
                f"snapshot holds {held} seeds; "
                f"{self.variant.name} is played with {self.total_seeds}"
            )
        s = np.zeros(L.STATE_SIZE, dtype=np.int32)
        s[L.PITS : L.PITS + L.N_PITS] = pits
        s[L.STORE : L.STORE + 2] = stores
        s[L.MOVE_NUMBER] = _non_negative(snapshot.get("move_number", 0), "move_number")
        s[L.STALL] = _non_negative(snapshot.get("plies_since_capture", 0), "plies_since_capture")
        s[L.SPECIAL_USED : L.SPECIAL_USED + 2] = _int_list(
            snapshot, "special_used", 2, default=[0, 0], high=1
        )
        for key, slot, high in (
            ("last_action", L.LAST_ACTION, self.n_actions - 1),
            ("last_pit", L.LAST_PIT, L.N_PITS - 1),
            ("last_capturer", L.LAST_CAPTURER, 1),
        ):
            value = snapshot.get(key)
            if value is not None and not 0 <= _non_negative(value, key) <= high:
                raise SnapshotError(f"'{key}' must be null or between 0 and {high}, got {value!r}")
            s[slot] = -1 if value is None else value
        s[L.OWNER : L.OWNER + L.N_PITS] = _int_list(
            snapshot, "owners", L.N_PITS, default=[0] * L.N_HOUSES + [1] * L.N_HOUSES, high=1
        )
        s[L.CLOSED : L.CLOSED + L.N_PITS] = _int_list(
            snapshot, "closed", L.N_PITS, default=[0] * L.N_PITS, high=1
        )
        uur = snapshot.get("uur", [None] * L.N_PITS)
        if (
            not isinstance(uur, list)
            or len(uur) != L.N_PITS
            or any(u not in (None, 0, 1) for u in uur)
        ):
            raise SnapshotError(f"'uur' must be a list of {L.N_PITS} entries 0, 1 or null")
        s[L.UUR : L.UUR + L.N_PITS] = [0 if u is None else u + 1 for u in uur]
        for key, slot, length in (
            ("turns", L.TURNS, 2),
            ("rounds_won", L.ROUNDS_WON, 2),
            ("round_start_stores", L.ROUND_START_STORE, 2),
            ("setup", L.SETUP, 8),
        ):
            s[slot : slot + length] = _int_list(snapshot, key, length, default=[0] * length)
        s[L.ROUND] = _non_negative(snapshot.get("round", 0), "round")
        s[L.PHASE] = phase
        starter = snapshot.get("round_starter", to_move if to_move is not None else 0)
        if starter not in (0, 1):
            raise SnapshotError(f"'round_starter' must be 0 or 1, got {starter!r}")
        s[L.ROUND_STARTER] = starter
        winner = snapshot.get("winner")
        if winner not in (0, 1, None):
            raise SnapshotError(f"'winner' must be 0, 1 or null, got {winner!r}")
        s[L.WINNER] = -1 if winner is None else winner
        if self.params[L.P_PIECE_GAME] == 1:
            try:
                restore_pieces(snapshot, s, self.params)
            except PieceSnapshotError as error:
                raise SnapshotError(str(error)) from error
        else:
            s[L.BOARD_LOW] = sum(pits)
        if to_move is None:
            if any(pits):
                raise SnapshotError("a finished game ('to_move': null) has no seeds on the board")
            s[L.OVER] = 1
            s[L.END_REASON] = _end_reason(snapshot.get("end_reason"))
        else:
            s[L.TO_MOVE] = to_move
            begin_turn(s, self.params)
        self.state[:] = s

    def _phases(self) -> tuple[int, ...]:
        """The phases a game of this rule set can be in."""
        if self.params[L.P_PIECE_GAME] == 1:
            return tuple(range(L.PHASE_PLACE, L.PHASE_FLOCK_PIECE + 1)) + (L.PHASE_PLAY,)
        if self.params[L.P_SETUP] == L.SETUP_CENTRAL_CHOSEN:
            return (L.PHASE_PLAY, L.PHASE_SET_OUT, L.PHASE_CHOOSE)
        return (L.PHASE_PLAY,)


def describe_decision(state: np.ndarray, value: int) -> str:
    """What the value `value` of the decision now asked in a game of special pieces means."""
    phase = int(state[L.PHASE])
    piece = L.KIND_NAMES.get(int(state[L.PIECE_KIND + state[L.MOVE + L.MOVE_PIECE]]), "piece")
    if phase == L.PHASE_PLACE:
        return f"places the {piece} in pit {value + 1} counted from their house 1"
    if phase == L.PHASE_SIDE:
        return "keeps the board as it is" if value == 0 else "turns the board round"
    if phase == L.PHASE_DROP:
        return f"sows the {piece} as piece {value + 1} of the hand"
    if phase == L.PHASE_SHIFT:
        return f"moves the {piece} {value} pits further"
    if phase == L.PHASE_BORROW:
        return f"gives the chieftain the power of the {L.KIND_NAMES.get(value, '?')}"
    if phase == L.PHASE_FLOCK_COUNT:
        return f"has the shepherd leave {value} pieces in the next of his pits"
    if phase == L.PHASE_FLOCK_PIECE:
        pit = ("preceding", "own", "following")[value] if value < 3 else "?"
        return f"has the shepherd set the {piece} in his {pit} pit"
    return f"decision value {value}"


def _phase(name: str) -> int:
    codes = {v: k for k, v in L.PHASE_NAMES.items()}
    if name not in codes:
        raise SnapshotError(f"'phase' must be one of {sorted(codes)}, got {name!r}")
    return codes[name]


def _end_reason(name: str | None) -> int:
    codes = {v: k for k, v in L.END_REASON_NAMES.items()}
    if name not in codes:
        raise SnapshotError(f"'end_reason' must be one of {sorted(codes)}, got {name!r}")
    return codes[name]


def _non_negative(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise SnapshotError(f"'{key}' must be a non-negative integer, got {value!r}")
    return int(value)


def _int_list(
    snapshot: dict[str, Any],
    key: str,
    length: int,
    default: list[int] | None = None,
    high: int | None = None,
) -> list[int]:
    values = snapshot.get(key, default)
    if values is None:
        raise SnapshotError(f"snapshot lacks '{key}'")
    if not isinstance(values, (list, tuple)) or len(values) != length:
        raise SnapshotError(f"'{key}' must be a list of {length} integers, got {values!r}")
    out = [_non_negative(v, key) for v in values]
    if high is not None and any(v > high for v in out):
        raise SnapshotError(f"'{key}' values must be between 0 and {high}, got {values!r}")
    return out
