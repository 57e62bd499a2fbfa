"""Who owns each pit: houses change hands between the rounds of a match (Ncho, J'erin)."""

from ..sizes import MAX_PITS
from .declaration import Block, Mechanic, PitField, per_pit

NO_OWNER = -1  # the owner of a pit past a smaller board's end


def starting_owners(houses: int) -> list[int]:
    """Each player owns their own row."""
    return [0] * houses + [1] * houses


OWNERSHIP = Mechanic(
    "ownership",
    blocks=(Block("OWNER", MAX_PITS),),  # OWNER + pit: the player who owns the pit
    snapshot_fields=(
        PitField(
            "owners",
            "OWNER",
            codes={0: 0, 1: 1},
            default=starting_owners,
            in_use="changes_hands",
            unused_why="its pits never change hands",
            beyond=NO_OWNER,
        ),
    ),
    observation=per_pit("owned", "1 if the observer owns the pit"),
    observed="has_rounds",
)
