"""The mechanics that carry state, each declared once (`declaration.Mechanic`): its state
blocks, its snapshot fields and their checks, its observation numbers, and which of its slots
the position hash reads. `MECHANICS` is their order in the state vector and in the observation;
`engine.layout` lays the blocks out from it and `engine.position` hashes their slots.

A new mechanic goes into its own module here and into `MECHANICS`, last before the kept lifts
(which run on past the state's end in MCTS's relay simulations): the offsets before it are a
stored format, pinned by tests/engine/test_layout_pins.py. See docs/adding-a-mechanic.md.
"""

from .closed_pits import CLOSED_PITS
from .declaration import Block, Mechanic, Number, PitField, StateFields
from .ownership import OWNERSHIP
from .pieces import PIECES
from .play import BOARD, ENDING, LAST_CAPTURER, LAST_MOVE, LEGAL_MOVES, PHASE, SPECIAL_MOVE
from .pregnant_pits import PREGNANT_PITS
from .relays import KEPT_LIFTS
from .rounds import ROUNDS
from .setting_out import SETTING_OUT

__all__ = [
    "MECHANICS",
    "Block",
    "Mechanic",
    "Number",
    "PitField",
    "StateFields",
    "state_offsets",
]

MECHANICS: tuple[Mechanic, ...] = (
    BOARD,
    SPECIAL_MOVE,
    LAST_MOVE,
    OWNERSHIP,
    CLOSED_PITS,
    LEGAL_MOVES,
    LAST_CAPTURER,
    PHASE,
    ROUNDS,
    PREGNANT_PITS,
    SETTING_OUT,
    ENDING,
    PIECES,
    KEPT_LIFTS,
)


def state_offsets(mechanics: tuple[Mechanic, ...] = MECHANICS) -> dict[str, int]:
    """Each block's offset, the blocks one after another in `mechanics`' order, and the
    state's size (`STATE_SIZE`)."""
    offsets: dict[str, int] = {}
    at = 0
    for mechanic in mechanics:
        for block in mechanic.blocks:
            if block.name in offsets:
                raise ValueError(f"two blocks of the state are named {block.name}")
            offsets[block.name] = at
            at += block.size
    offsets["STATE_SIZE"] = at
    return offsets
