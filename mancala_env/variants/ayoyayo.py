"""Ayoyayo (Yoruba) after R. J. Newberry.

Source: ``001_9cf8f14e7fe6ff20.txt``. Section "Ayoyayo".

1. Four seeds in each house; a move lifts one of the mover's houses and sows the seeds one by
   one counter-clockwise until the hand is empty (a single lap).
2. A last seed that makes the house it reaches two or three, on the opponent's side, captures
   it, with the adjoining houses before it on that side that also hold two or three: a house
   with any other count is a 'bar' that stops the chain, and at most five houses are emptied
   (diagrams (i) and (ii)).
3. Once in a game each player may move the seeds of one house en bloc to the house next to it
   (the odu transfer) instead of sowing.
4. A player left with no seeds by the opponent's move takes all the seeds on the other side,
   and the game ends (the retaliation).
5. The game ends when two seeds or fewer remain on either side; each player counts the seeds
   they captured and those on their side, and the one with more wins.

Readings chosen where the source is silent (each an option): twelve or more seeds pass over the
emptied house (`skip_origin`); the odu goes to the next house of the player's own row in the
sowing direction (`odu`); 'on either side' means on each side (`end_rows`).
"""

from dataclasses import dataclass

import numpy as np

from ..engine import layout as L
from .actions import LIFTS, ODU_BACK, ODU_FORWARD
from .base import (
    SKIPS,
    STALL_STOP_LAST,
    RuleOptions,
    Variant,
    choice,
    counts_mask,
    number,
    rule_params,
    skip_origin_field,
)
from .sources import cite

__doc__ = cite(__doc__)  # the citation, where the docstring names the project's copy

ODU = {
    "forward": L.SPECIAL_TRANSFER_FORWARD,
    "either": L.SPECIAL_TRANSFER_EITHER,
    "none": L.SPECIAL_NONE,
}


@dataclass(frozen=True)
class AyoyayoOptions(RuleOptions):
    skip_origin: str = skip_origin_field(
        "move", "twelve or more seeds pass over the emptied house, as in Oware", ("move", "none")
    )
    max_houses: int = number(5, 1, "most houses one capture may empty")
    odu: str = choice(
        "forward",
        ("forward", "either", "none"),
        "the once-a-game transfer goes to the next own house, to either neighbour, or is "
        "not allowed",
    )
    end_rows: str = choice(
        "both",
        ("both", "either"),
        "the game ends when both rows, or when either row, hold two seeds or fewer",
    )


def to_params(options: AyoyayoOptions) -> np.ndarray:
    return rule_params(
        SKIP_ORIGIN=SKIPS[options.skip_origin],
        CAPTURE=L.CAPTURE_CHAIN,
        CAPTURE_COUNTS=counts_mask(2, 3),
        CHAIN_MAX=options.max_houses,
        GRAND_SLAM=L.SLAM_ALLOWED,
        NO_MOVE=L.NO_MOVE_RETALIATE,
        SPECIAL_MOVE=ODU[options.odu],
        END_EACH_SIDE_AT_MOST=2 if options.end_rows == "both" else -1,
        END_ANY_SIDE_AT_MOST=2 if options.end_rows == "either" else -1,
        REMAINDER=L.REMAINDER_OWNER,
        STALL_REMAINDER=L.REMAINDER_OWNER,
    )


AYOYAYO = Variant(
    name="ayoyayo",
    title="Ayoyayo",
    source="001_9cf8f14e7fe6ff20.txt. Section 'Ayoyayo'",
    summary="Yoruba Ayo: 2s and 3s chained back over at most five houses, the once-a-game odu",
    options_type=AyoyayoOptions,
    readings=to_params,
    doc=__doc__,
    actions=(LIFTS, ODU_FORWARD, ODU_BACK),
    history=((STALL_STOP_LAST,),),
)
