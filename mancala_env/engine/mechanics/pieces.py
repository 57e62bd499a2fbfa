"""10 Mighty Men's special pieces, one slot each, and a move of pieces under way (the kernels
are `engine.pieces`; the snapshot's fields are read and written by
`mancala_env.variants.mighty_men_snapshot`)."""

from ..sizes import MAX_PIECES, MOVE_SLOTS
from .declaration import Block, Mechanic, StateFields

PIECES = Mechanic(
    "pieces",
    blocks=(
        Block("PIECE_KIND", MAX_PIECES),  # + i: the piece's KIND_*, 0 once it is a regular piece
        Block("PIECE_AT", MAX_PIECES),  # + i: a pit, AT_STORE + p, AT_HAND, or AT_NOWHERE
        Block("PIECE_SINCE", MAX_PIECES),  # + i: when the piece came to its pit (a stamp)
        Block("PIECE_DROP", MAX_PIECES),  # + i: its place in the sowing under way, or -1
        Block("PIECE_SHIFT", MAX_PIECES),  # + i: pits a Hunter or Trickster moves on
        Block("PIECE_FOUND", MAX_PIECES),  # + i: pieces in the pit it was dropped into
        Block("PIECE_ACTS", MAX_PIECES),  # + i: the KIND_* whose power it has to resolve
        Block("PIECE_AS", MAX_PIECES),  # + i: the kind a Chieftain is this play, 0: his own
        Block("PIECE_FLOCK_FROM", MAX_PIECES),  # + i: the pit the Shepherd took it from
        Block("MOVE", MOVE_SLOTS),  # MOVE + MOVE_*: a move of pieces under way
    ),
    snapshot_fields=(
        # `board_low` (ENDING's BOARD_LOW) is a field of these games only: only the Witch Doctor
        # brings seeds back to the board, so only they count the stall from new lows
        StateFields(
            ("pieces", "move", "board_low"), "read_pieces", "write_pieces", known_when="has_pieces"
        ),
    ),
)
