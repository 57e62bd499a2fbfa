"""Which rule sets an endgame database can solve, and the rules it is built under.

A database stores one value per board and player to move, so a rule set qualifies when a
position's future depends on those alone. Oware and Kpo (the same rules) and Ouri do; Ayoyayo
does not (see `unsolvable_reason`). Two readings make the value a function of the board:

- the majority end (a player holding more than half the seeds) is left out: it stops a game
  whose winner is already decided, so it changes how many seeds each player ends with but
  never who wins, and the stores would otherwise be part of the position;
- the stall counter is not part of a board: play that never captures again is scored as the
  rule set's stall stop scores it, the split, with an odd seed counted as half to each player
  (which row is fuller when the limit stops a chase depends on the counter).
"""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any

import numpy as np

from ..engine import layout as L
from ..engine.turn import new_game
from ..variants import RuleOptions, Variant

OWARE_FAMILY = ("oware", "kpo", "ouri", "ayoyayo")  # single laps, 2s and 3s captured
IGNORED_OPTIONS = ("first_player", "stall_limit")  # no part of a board's value (see above)
NEVER_STOP = np.iinfo(np.int32).max  # a stall limit no build reaches


def unsolvable_reason(variant: Variant, options: RuleOptions) -> str | None:
    """Why `variant` under `options` has no endgame database, or None when it can have one."""
    if variant.name not in OWARE_FAMILY:
        return f"endgame databases cover the Oware family ({', '.join(OWARE_FAMILY)})"
    params = variant.params(options)
    if params[L.P_SPECIAL_MOVE] != L.SPECIAL_NONE:
        return (
            f"{variant.name}'s once-a-game odu transfer makes a position's future depend on "
            "whether each player has used it, not on the board alone"
        )
    if params[L.P_STALL_REMAINDER] != L.REMAINDER_SPLIT:
        return (
            f"{variant.name} scores a stopped chase by the seeds on each row when the stall "
            "limit stops it, which depends on the stall counter, not on the board alone "
            "(only the split, stall_remainder=split, has a board value)"
        )
    return None


def check_solvable(variant: Variant, options: RuleOptions) -> None:
    """Raise ValueError naming why `variant` under `options` cannot have a database."""
    reason = unsolvable_reason(variant, options)
    if reason is not None:
        raise ValueError(f"no endgame database for {variant.name}: {reason}")


def solving_params(variant: Variant, options: RuleOptions) -> np.ndarray:
    """The rule parameters the database is built under: the rule set's own, without the
    majority end and the stall stop (see the module docstring)."""
    params = variant.params(options).copy()
    params[L.P_END_MAJORITY] = 0
    params[L.P_STALL_LIMIT] = NEVER_STOP
    return params


def solving_template(params: np.ndarray) -> np.ndarray:
    """A settled game state of the rules `params` with player_0 to move and empty stores, whose
    pits a build overwrites."""
    state = np.zeros(L.STATE_SIZE, dtype=np.int32)
    new_game(params, 0, state)
    return state


def relevant_options(options: RuleOptions) -> dict[str, Any]:
    """The options a database's values depend on (all but `IGNORED_OPTIONS`)."""
    values = dataclasses.asdict(options)
    return {name: value for name, value in values.items() if name not in IGNORED_OPTIONS}


def rules_key(variant: Variant, options: RuleOptions) -> str:
    """A fingerprint of the rules a database is built under: equal for rule sets that play
    alike (Oware and Kpo), different as soon as one rule differs."""
    return hashlib.sha256(solving_params(variant, options).tobytes()).hexdigest()[:16]
