"""10 Mighty Men's special pieces, one slot each, and a move of pieces under way (the kernels
are `engine.pieces`; the snapshot's fields are read and written by
`mancala_env.variants.mighty_men_snapshot`)."""

from ..sizes import MAX_PIECES, MAX_PITS, MOVE_SLOTS
from .declaration import Block, Mechanic, Number, StateFields

PLACE_CODES = 16  # where a special piece is, as the observation tells it
PIT_CATEGORIES = MAX_PITS + 1  # a pit in the observer's order, or none


def piece_numbers(pits: list[str]) -> list[Number]:
    """The observation's numbers of the special pieces (`mancala_env.observation` writes them):
    five a piece slot, the poisoned pits, then the decision asked and the move under way."""
    from .. import layout as L  # the layout is laid out from these declarations: read it late

    fields = (
        Number("kind", "0 none or a regular piece, else 1 Farmer .. 10 Spy (`layout.KIND_*`)",
               len(L.KIND_NAMES) + 1),
        Number("place", "0..11 a pit (observer's order), 12 own store, 13 opponent's, 14 hand, "
               "15 none", PLACE_CODES),
        Number("earlier", "special pieces in its pit that came there before it"),
        Number("drop", "0 none, else 1 + its place in the sowing under way"),
        Number("shift", "0 none or undecided, else 1 + the Hunter's or Trickster's distance"),
    )  # fmt: skip
    return [
        *(Number(f"piece_{i}_{f.name}", f.meaning, f.categories)
          for i in range(MAX_PIECES) for f in fields),
        *(Number(f"{pit}_poisoned", "1 if the pit is poisoned") for pit in pits),
        Number("decision_phase", "the decision asked (`layout.PHASE_*`), 0 none",
               len(L.PHASE_NAMES)),
        Number("decision_piece", "0 none, else 1 + the slot of the piece it is about"),
        Number("pieces_in_hand", "pieces lifted and not yet sown"),
        Number("lifted_pit", "the pit lifted, in the observer's order; 12 none", PIT_CATEGORIES),
        Number("shepherd_pit", "the Shepherd's pit, in the observer's order; 12 none",
               PIT_CATEGORIES),
        Number("shepherd_count_1", "0 none, else 1 + the first count the Shepherd chose"),
        Number("shepherd_count_2", "0 none, else 1 + the second count he chose"),
    ]  # fmt: skip


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
    observation=piece_numbers,
    observed="has_pieces",
)
