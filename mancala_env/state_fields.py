"""The readers and writers of the mechanics' snapshot fields over the whole state
(`StateFields` in `engine.mechanics`), which name them here: a declaration imports nothing of
the engine, because the layout is built from it, and these read the layout and raise
`SnapshotError`. The special pieces' are 10 Mighty Men's own
(`variants.mighty_men_snapshot`).

A reader `read_*(snapshot, state, rules)` checks its fields against the rule set and against
the fields read before it (`snapshot.state_from_snapshot` says in which order) and writes them
into `state`; a writer `write_*(state, params)` gives them as a snapshot holds them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .engine import layout as L
from .engine.setting_out import central_pit
from .snapshot_fields import (
    COUNTER_MAX,
    INT32_MAX,
    Rules,
    SnapshotError,
    choose,
    integer,
    integer_list,
    optional_integer,
    unused,
)
from .variants.mighty_men_snapshot import read_pieces, write_pieces

__all__ = [
    "end_reason",
    "read_counters",
    "read_ending",
    "read_history",
    "read_pieces",
    "read_rounds",
    "read_setting_out",
    "read_turn",
    "winner",
    "write_counters",
    "write_ending",
    "write_history",
    "write_pieces",
    "write_rounds",
    "write_setting_out",
    "write_turn",
]

PHASE_CODES = {name: code for code, name in L.PHASE_NAMES.items()}
END_REASON_CODES = {name: code for code, name in L.END_REASON_NAMES.items()}


def _ints(state: np.ndarray, offset: int, size: int) -> list[int]:
    return [int(x) for x in state[offset : offset + size]]


# ---- the turn: the phase, the board, the stores and the player to move ------------------------
def read_turn(snapshot: dict[str, Any], s: np.ndarray, rules: Rules) -> None:
    """The phase first, then the board, the stores and the player to move (null: the game is
    over, `OVER`); the board's seeds are the fewest it is known to have held (`BOARD_LOW`)."""
    allowed = tuple(L.PHASE_NAMES[p] for p in rules.phases())
    phase = PHASE_CODES[choose(snapshot.get("phase", "play"), "phase", allowed)]
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
    s[L.OVER] = int(to_move is None)
    s[L.BOARD_LOW] = s[L.PITS : L.PITS + n_pits].sum()


def write_turn(state: np.ndarray, params: np.ndarray) -> dict[str, Any]:
    return {
        "pits": _ints(state, L.PITS, 2 * int(params[L.P_HOUSES])),
        "stores": _ints(state, L.STORE, 2),
        "to_move": None if state[L.OVER] else int(state[L.TO_MOVE]),
        "phase": L.PHASE_NAMES[int(state[L.PHASE])],
    }


# ---- the counters and the history -------------------------------------------------------------
def read_counters(snapshot: dict[str, Any], s: np.ndarray, rules: Rules) -> None:
    s[L.MOVE_NUMBER] = integer(snapshot.get("move_number", 0), "move_number", 0, COUNTER_MAX)
    s[L.STALL_PLIES] = integer(snapshot.get("stall_plies", 0), "stall_plies", 0, COUNTER_MAX)
    s[L.TURNS : L.TURNS + 2] = integer_list(snapshot, "turns", 2, COUNTER_MAX, [0, 0])


def write_counters(state: np.ndarray, params: np.ndarray) -> dict[str, Any]:
    return {
        "move_number": int(state[L.MOVE_NUMBER]),
        "stall_plies": int(state[L.STALL_PLIES]),
        "turns": _ints(state, L.TURNS, 2),
    }


def read_history(snapshot: dict[str, Any], s: np.ndarray, rules: Rules) -> None:
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


def write_history(state: np.ndarray, params: np.ndarray) -> dict[str, Any]:
    def optional(slot: int) -> int | None:
        return None if state[slot] < 0 else int(state[slot])

    return {
        "special_used": _ints(state, L.SPECIAL_USED, 2),
        "last_action": optional(L.LAST_ACTION),
        "last_pit": optional(L.LAST_PIT),
        "last_capturer": optional(L.LAST_CAPTURER),
    }


# ---- the rounds of a match --------------------------------------------------------------------
def read_rounds(snapshot: dict[str, Any], s: np.ndarray, rules: Rules) -> None:
    """The rounds of a match: rounds finished and won, the stores as the round began."""
    s[L.ROUND_STARTER] = choose(
        snapshot.get("round_starter", s[L.TO_MOVE].item()), "round_starter", (0, 1)
    )
    most = rules.p(L.P_MAX_ROUNDS) if rules.rounds else 0
    if not s[L.OVER]:  # a match still on has rounds left to play
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


def write_rounds(state: np.ndarray, params: np.ndarray) -> dict[str, Any]:
    return {
        "round": int(state[L.ROUND]),
        "rounds_won": _ints(state, L.ROUNDS_WON, 2),
        "round_starter": int(state[L.ROUND_STARTER]),
        "round_start_stores": _ints(state, L.ROUND_START_STORE, 2),
    }


# ---- the setting out --------------------------------------------------------------------------
def read_setting_out(snapshot: dict[str, Any], s: np.ndarray, rules: Rules) -> None:
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


def write_setting_out(state: np.ndarray, params: np.ndarray) -> dict[str, Any]:
    return {"setup": _ints(state, L.SETTING_OUT, 8)}


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


# ---- the ending ---------------------------------------------------------------------------------
def read_ending(snapshot: dict[str, Any], s: np.ndarray, rules: Rules) -> None:
    """The winner and why the game ended; a finished game has no seeds on the board."""
    winner = choose(snapshot.get("winner"), "winner", (0, 1, None))
    reason = snapshot.get("end_reason")
    if not s[L.OVER]:
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


def end_reason(state: np.ndarray) -> str | None:
    """Why the game ended (`engine.layout.END_REASON_NAMES`); None while it is on."""
    return L.END_REASON_NAMES[int(state[L.END_REASON])] if state[L.OVER] else None


def winner(state: np.ndarray) -> int | None:
    """0 or 1 once the game is over and has a winner; None for a draw or a game still on."""
    if not state[L.OVER] or state[L.WINNER] < 0:
        return None
    return int(state[L.WINNER])


def write_ending(state: np.ndarray, params: np.ndarray) -> dict[str, Any]:
    return {"end_reason": end_reason(state), "winner": winner(state)}
