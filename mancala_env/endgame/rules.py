"""Which rule sets an endgame database can solve, and the rules it is built under.

A database stores one value per board and player to move, so a rule set qualifies when a
position's future depends on those alone: its state is the pits, the stores and the player to
move, with no rounds, houses changing hands or closing, special pieces, setting out, pregnant
pits, once-a-game or first-turn moves, and no rule that reads who captured last or lets a
player pass (see `unsolvable_reason`). Oware, Kpo, Ouri, Ayoayo and Tampoduo do, relays
included: a build plays every move with the rule set's own engine. Two more readings make the
value a function of the board:

- the majority end (a player holding more than half the seeds) is left out: it stops a game
  whose winner is already decided, so it changes how many seeds each player ends with but
  never who wins, and the stores would otherwise be part of the position;
- the stall counter is not part of a board. Where the stall stop splits the seeds left (the
  *chase* reading, Oware's), play that never captures again is scored as that stop scores it,
  half the seeds each, with an odd seed counted as half to each player (which row is fuller
  when the limit stops a chase depends on the counter). Where it gives each row to its owner
  (the *stall* reading, Ayoayo's), a board's value is the exact one with the counter at zero,
  as after any capture: the stop after `stall_limit` plies without a capture is played as the
  rules play it, so `stall_limit` is one of the rules the database is built for.
"""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any

import numpy as np

from ..engine import layout as L
from ..engine.board import has_pieces, has_rounds, has_uur
from ..kernels import kernels_for
from ..variants import VARIANTS, RuleOptions, Variant

FIRST_PLAYER = "first_player"  # no part of a board's value
STALL_LIMIT = "stall_limit"  # part of it in the stall reading only (see above)
NEVER_STOP = np.iinfo(np.int32).max  # a stall limit no move of a build reaches
MAX_STALL_PASSES = 1000  # the most plies of a stall limit a build plays out (a pass a ply)


def _mechanics_reason(params: np.ndarray) -> str | None:
    """Which part of the state beyond the pits, the stores and the mover the rules read."""
    if has_pieces(params):
        return "its special pieces are part of a position"
    if params[L.P_SETTING_OUT] != L.SETTING_OUT_NONE:
        return "the players set out the seeds before play"
    if has_rounds(params):
        return "houses change hands or close, so the owners of the pits are part of a position"
    if has_uur(params):
        return "pregnant (uur) pits are part of a position"
    if params[L.P_SPECIAL_MOVE] != L.SPECIAL_NONE:
        return (
            "its once-a-game odu transfer makes a position's future depend on whether each "
            "player has used it, not on the board alone"
        )
    if params[L.P_OPENING] != L.OPENING_NONE or params[L.P_FIRST_TURN] != L.FIRST_TURN_NONE:
        return "a player's first turn has a rule of its own, so the turns played are part of it"
    last_capturer = L.REMAINDER_LAST_CAPTURER
    if (
        last_capturer in (params[L.P_REMAINDER], params[L.P_STALL_REMAINDER])
        or params[L.P_LAST_FOUR_TO_TAKER] == 1
    ):
        return "who captured last decides where seeds go, so it is part of a position"
    if params[L.P_NO_MOVE] == L.NO_MOVE_PASS:
        return "a player who cannot move passes, so a move can keep the turn without a capture"
    return None


def unsolvable_reason(variant: Variant, options: RuleOptions) -> str | None:
    """Why `variant` under `options` has no endgame database, or None when it can have one."""
    params = variant.params(options)
    reason = _mechanics_reason(params)
    if reason is not None:
        return reason
    if stall_passes(params) is not None and params[L.P_STALL_LIMIT] > MAX_STALL_PASSES:
        return (
            f"a build plays out the stall limit a ply a pass, so stall_limit must be from 1 to "
            f"{MAX_STALL_PASSES}, got {int(params[L.P_STALL_LIMIT])}"
        )
    return None


def stall_passes(params: np.ndarray) -> int | None:
    """The settling passes of the stall reading (the rule set's stall limit), or None for the
    chase reading (a stall stop that splits the seeds left: see the module docstring)."""
    if params[L.P_STALL_REMAINDER] == L.REMAINDER_SPLIT:
        return None
    return int(params[L.P_STALL_LIMIT])


def solvable_rule_sets() -> list[str]:
    """The rule sets that have endgame databases under their default options (some others do
    under other options: docs/endgames.md)."""
    return sorted(
        name for name, rules in VARIANTS.items() if not unsolvable_reason(rules, rules.options())
    )


def check_solvable(variant: Variant, options: RuleOptions) -> None:
    """Raise ValueError naming why `variant` under `options` cannot have a database, and the
    rule sets that can."""
    reason = unsolvable_reason(variant, options)
    if reason is not None:
        raise ValueError(
            f"no endgame database for {variant.name}: {reason}; databases are built for "
            f"{', '.join(solvable_rule_sets())} under their default rules (docs/endgames.md)"
        )


def solving_params(variant: Variant, options: RuleOptions) -> np.ndarray:
    """The rule parameters the database's moves are played under: the rule set's own, without
    the majority end and the stall stop (the stall reading plays the stop out by its settling
    passes; see the module docstring)."""
    params = variant.params(options).copy()
    params[L.P_END_MAJORITY] = 0
    params[L.P_STALL_LIMIT] = NEVER_STOP
    return params


def solving_template(variant: Variant, params: np.ndarray) -> np.ndarray:
    """A settled game state of `variant` under the rules `params` with player_0 to move and
    empty stores, whose pits a build overwrites."""
    state = np.zeros(L.STATE_SIZE, dtype=np.int32)
    kernels_for(variant, params).new_game(params, 0, state)
    return state


def relevant_options(variant: Variant, options: RuleOptions) -> dict[str, Any]:
    """The options a database's values depend on: all but the first player, and the stall
    limit in the chase reading."""
    ignored = {FIRST_PLAYER}
    if stall_passes(variant.params(options)) is None:
        ignored.add(STALL_LIMIT)
    values = dataclasses.asdict(options)
    return {name: value for name, value in values.items() if name not in ignored}


def rules_key(variant: Variant, options: RuleOptions) -> str:
    """A fingerprint of the rules a database is built under: equal for rule sets that play
    alike (Oware and Kpo), different as soon as one rule differs (the stall limit too, in the
    stall reading)."""
    rules = solving_params(variant, options).tobytes()
    passes = stall_passes(variant.params(options))
    if passes is not None:
        rules += f"stall_limit={passes}".encode()
    return hashlib.sha256(rules).hexdigest()[:16]
