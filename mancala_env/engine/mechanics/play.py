"""The state every rule set has: the board and the turn, the record of the last move, the legal
moves kept current, the phase, and how the game ended."""

from ..sizes import MAX_ACTIONS, MAX_PITS
from .declaration import Block, Mechanic, Number, StateFields


def _board_numbers(pits: list[str]) -> list[Number]:
    return [
        *(Number(pit, "seeds in the pit") for pit in pits),
        Number("own_store", "seeds captured by the observer"),
        Number("opponent_store", "seeds captured by the opponent"),
    ]


BOARD = Mechanic(
    "board",
    blocks=(
        Block("PITS", MAX_PITS),  # seed counts
        Block("STORE", 2),  # STORE + p: seeds captured by player p
        Block("TO_MOVE"),  # 0 or 1
        Block("MOVE_NUMBER", hashed=False),  # plies (turns) played so far
        Block("OVER"),  # 1 once the game has ended
        # plies towards stall_limit: since seeds last left the board (or a new low)
        Block("STALL_PLIES"),
    ),
    snapshot_fields=(
        # the phase, the board, the stores and the player to move, read first: the other
        # fields are checked against them
        StateFields(("pits", "stores", "to_move", "phase"), "read_turn", "write_turn"),
        # the counts of plies and turns (the rounds' TURNS among them)
        StateFields(("move_number", "stall_plies", "turns"), "read_counters", "write_counters"),
    ),
    observation=_board_numbers,
)

SPECIAL_MOVE = Mechanic(
    "special_move",
    blocks=(Block("SPECIAL_USED", 2),),  # SPECIAL_USED + p: 1 once p made the once-a-game move
    observation=lambda pits: [
        Number("own_special_used", "1 once the observer has used the once-a-game special move"),
        Number("opponent_special_used", "1 once the opponent has used it"),
    ],
)

LAST_MOVE = Mechanic(
    "last_move",
    blocks=(
        Block("LAST_ACTION", hashed=False),  # the last action played, -1 before the first
        Block("END_REASON", hashed=False),  # one of the layout's END_* codes
        Block("LAST_PIT", hashed=False),  # the pit the last move lifted, -1 before the first
    ),
    snapshot_fields=(
        # the last move, the last capturer and the once-a-game special move
        StateFields(
            ("special_used", "last_action", "last_pit", "last_capturer"),
            "read_history",
            "write_history",
        ),
    ),
)

LEGAL_MOVES = Mechanic(
    "legal_moves",
    blocks=(
        # LEGAL + action: 1 when the player to move may play it (kept current)
        Block("LEGAL", MAX_ACTIONS, hashed=False),
        # 1 when the player to move could feed a seedless opponent
        Block("FEED_POSSIBLE", hashed=False),
    ),
)

LAST_CAPTURER = Mechanic(
    "last_capturer",
    blocks=(Block("LAST_CAPTURER"),),  # the player who last took seeds off the board, -1 if none
)

PHASE = Mechanic("phase", blocks=(Block("PHASE"),))  # PHASE_*: play, or a step before it

ENDING = Mechanic(
    "ending",
    blocks=(
        Block("WINNER"),  # once the game is over: the winning player, -1 for a draw
        Block("BOARD_LOW"),  # the fewest seeds the board has held this game (P_STALL_NEW_LOW)
    ),
    snapshot_fields=(
        StateFields(("end_reason", "winner"), "read_ending", "write_ending", read_last=True),
    ),
)
