"""One game of a rule set: the state vector, its rule parameters, and a readable view of both.

`Game` is the single-game handle the environments, the command line and the tests use. It
owns nothing the kernels do not: every rule lives in `mancala_env.engine`, and a game runs its
rule set's own kernels under any options (`mancala_env.kernels.kernels_for`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .engine import layout as L
from .engine.starts import random_start_seeds
from .engine.turn import ILLEGAL
from .inputs import as_integer
from .kernels import kernels_for
from .snapshot import Rules, state_from_snapshot, written_fields
from .snapshot_fields import PLAY_COUNTER_MAX, SnapshotError
from .state_fields import end_reason, winner
from .variants import RuleOptions, Variant, get_variant
from .variants.actions import find
from .variants.mighty_men_snapshot import pieces_in_hand


class IllegalActionError(ValueError):
    """An action the rules do not allow in the current position."""


# The state's counts of plies, turns and stamps (see `snapshot_fields.COUNTER_MAX`).
COUNTS = np.array([L.MOVE_NUMBER, L.STALL_PLIES, L.TURNS, L.TURNS + 1, L.MOVE + L.MOVE_STAMP])
# Counts a game reaches only after a billion moves of play: a game restored with a count above
# this checks its counts before each move; a game played from its start does not need to.
HIGH_COUNT = 2**30


class Game:
    """A game of `variant` under `options` (its rule options, or a dict of option values;
    keyword options override them and the defaults)."""

    _high_counts = False  # restored with a count above HIGH_COUNT (see `step`)

    def __init__(
        self,
        variant: str | Variant,
        options: RuleOptions | dict[str, Any] | None = None,
        **option_values: Any,
    ) -> None:
        self.variant = variant if isinstance(variant, Variant) else get_variant(variant)
        self.options = rule_options(self.variant, options, option_values)
        self.params = self.variant.params(self.options)
        self.n_actions = int(self.params[L.P_N_ACTIONS])
        self.total_seeds = int(self.params[L.P_TOTAL_SEEDS])
        self.houses = int(self.params[L.P_HOUSES])  # houses a player
        self.n_pits = 2 * self.houses
        self.state = np.zeros(L.STATE_SIZE, dtype=np.int32)
        self.kernels = kernels_for(self.variant, self.params)
        self.reset()

    def reset(self, rng: np.random.Generator | None = None) -> None:
        """Set out the starting position; `rng` draws the first player when that is random,
        and then the rule set's random start, if it has one (`engine.starts`)."""
        rng = rng if rng is not None else np.random.default_rng()
        first = self.options.first_player
        player = int(rng.integers(2)) if first == "random" else int(first[-1])
        seed = int(random_start_seeds(self.params, rng, 1)[0])
        self.kernels.new_game(self.params, player, self.state, seed)
        self._high_counts = False

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
        return self.state[L.PITS : L.PITS + self.n_pits]

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
        return pieces_in_hand(self.state)

    def legal_mask(self) -> np.ndarray:
        """int8 mask over the action space: 1 for each action the player to move may play."""
        return self.state[L.LEGAL : L.LEGAL + self.n_actions].astype(np.int8)

    def legal_actions(self) -> list[int]:
        return [int(a) for a in np.flatnonzero(self.legal_mask())]

    @property
    def end_reason(self) -> str | None:
        """Why the game ended (`engine.layout.END_REASON_NAMES`: 'majority', 'stall', ...);
        None while it is on."""
        return end_reason(self.state)

    def winner(self) -> int | None:
        """0 or 1 once the game is over and has a winner; None for a draw or a game still on."""
        return winner(self.state)

    def describe_action(self, action: int) -> str:
        """What `action` does, in words, for the player it belongs to (e.g. "lifts house 3")."""
        block, value = find(self.variant.actions, self.params, action)
        return block.describe(value, self.state, self.params)

    # ---- playing ---------------------------------------------------------------------------
    def step(self, action: int) -> None:
        """Play `action` for the player to move; IllegalActionError names the legal ones."""
        if self.over:
            raise IllegalActionError("the game is over; reset it to play again")
        action = action_number(action, self.n_actions)
        if self._high_counts and int(self.state[COUNTS].max()) > PLAY_COUNTER_MAX:
            names = ("move_number", "stall_plies", "turns", "turns", "move.stamps")
            full = names[int(self.state[COUNTS].argmax())]
            raise ValueError(
                f"the game's count {full!r} is {int(self.state[COUNTS].max()):,}, past the "
                f"{PLAY_COUNTER_MAX:,} a game plays on from: the engine counts in 32 bits; "
                "restore the position with smaller counts to play on"
            )
        if self.kernels.step(self.state, action, self.params) == ILLEGAL:
            raise IllegalActionError(
                f"action {action} is not legal for player_{self.to_move} now; "
                f"legal actions: {self.legal_actions()}"
            )

    def __getstate__(self) -> dict[str, Any]:
        """A deep-copied (or cloudpickled) game holds no compiled code; it derives its kernels
        again."""
        return {key: value for key, value in self.__dict__.items() if key != "kernels"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.kernels = kernels_for(self.variant, self.params)

    def copy(self) -> Game:
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.state = self.state.copy()
        return other

    # ---- snapshots -------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The whole position as a JSON-ready dict (the board convention of the design notes):
        the rule set and its options, then each field the mechanics declare, as their writers
        give it (`snapshot.written_fields`)."""
        return {
            "variant": self.variant.name,
            "options": dataclasses.asdict(self.options),
            **written_fields(self.state, self.params),
        }

    @classmethod
    def from_snapshot(cls, snapshot: dict[str, Any]) -> Game:
        """Rebuild a game from `snapshot`; SnapshotError says what is wrong with a bad one."""
        if not isinstance(snapshot, dict) or "variant" not in snapshot:
            raise SnapshotError(
                f"a snapshot is a dict with at least a 'variant' key, got {type(snapshot).__name__}"
            )
        options = snapshot.get("options", {})
        if not isinstance(options, dict):
            raise SnapshotError(f"'options' must be a dict of option values, got {options!r}")
        try:
            game = cls(snapshot["variant"], **options)
        except (TypeError, ValueError) as error:
            raise SnapshotError(f"snapshot names a bad variant or option: {error}") from error
        game.restore(snapshot)
        return game

    def restore(self, snapshot: dict[str, Any]) -> None:
        """Put the game back exactly as `snapshot` describes it (same variant and options);
        SnapshotError names the first field that does not fit the rule set (see
        `mancala_env.snapshot`)."""
        rules = Rules(self.variant, self.options, self.params, self.n_actions)
        state = state_from_snapshot(snapshot, rules)
        if not state[L.OVER]:
            self.kernels.begin_turn(state, self.params)
        self.state[:] = state
        self._high_counts = int(state[COUNTS].max()) > HIGH_COUNT


def rule_options(variant: Variant, options: Any, values: dict[str, Any]) -> RuleOptions:
    """The options of a game of `variant`: `options` (the rule set's options, a dict of option
    values, or None for the defaults) with the option `values` given as keywords over them;
    ValueError names an unknown option or a bad value, and the known ones."""
    kind = variant.options_type
    if isinstance(options, dict):
        if not all(isinstance(key, str) for key in options):
            raise ValueError(f"the options of {variant.name} are named by text, got {options!r}")
        return variant.options(**{**options, **values})
    if options is None:
        return variant.options(**values)
    if type(options) is not kind:
        raise ValueError(
            f"options must be {variant.name}'s rule options ({kind.__name__}, from "
            f"get_variant({variant.name!r}).options(...)), a dict of option values or None; "
            f"got {type(options).__name__}"
        )
    if not values:
        return options
    given = {f.name: getattr(options, f.name) for f in dataclasses.fields(options)}
    return variant.options(**{**given, **values})


def action_number(action: Any, n_actions: int) -> int:
    """`action` as an int in 0..n_actions-1 (see `mancala_env.inputs` for what is an integer);
    IllegalActionError says what is wrong."""
    number = as_integer(action)
    if number is None:
        raise IllegalActionError(
            f"an action must be an integer 0..{n_actions - 1}, got {action!r} "
            f"({type(action).__name__})"
        )
    if not 0 <= number < n_actions:
        raise IllegalActionError(
            f"action {number} is out of range; actions are integers 0..{n_actions - 1}"
        )
    return number
