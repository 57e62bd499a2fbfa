"""A setting out before play (Mangala's central holes; 10 Mighty Men's placing of the pieces
uses the same slots): who sets out, the holes filled so far, the other player's choice."""

from ..sizes import SETTING_OUT_SLOTS
from .declaration import Block, Mechanic, Number, StateFields

SETTING_OUT = Mechanic(
    "setting_out",
    blocks=(Block("SETTING_OUT", SETTING_OUT_SLOTS),),  # SETTING_OUT + SETTING_OUT_*
    snapshot_fields=(StateFields(("setup",), "read_setting_out", "write_setting_out"),),
    observation=lambda pits: [
        Number("phase", "0 play, 1 setting out the central holes, 2 accepting or turning", 3),
        Number("own_sets_out", "1 if the observer sets out the seeds"),
        Number("central_holes_filled", "central holes filled so far"),
        Number("seeds_to_set_out", "seeds still to be set out"),
    ],
    observed="has_setting_out",
)
