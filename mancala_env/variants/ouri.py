"""Ouri (Cape Verde).

Source: ``004_8ffe586423a61d8e.txt``. Section "OURI - Cape Verde". Oware's rules (see
``oware``) with two differences:

1. Single seeds may not be lifted unless every seeded house of the mover holds a single seed.
2. A grand slam is allowed: the mover captures the whole of the opponent's row, moves again,
   and must then give the opponent seeds; if no move can, the game ends.

Reading chosen where the source is silent: when the opponent has no seeds and no house of two
or more can give them any, a single seed that can is lifted (the feeding rule outranks the
rule on single seeds).
"""

from dataclasses import dataclass

import numpy as np

from . import oware
from .base import STALL_STOP_LAST, Variant, choice, flag
from .sources import cite

__doc__ = cite(__doc__)  # the citation, where the docstring names the project's copy

SOURCE = "004_8ffe586423a61d8e.txt. Section 'OURI - Cape Verde'"


@dataclass(frozen=True)
class OuriOptions(oware.OwareOptions):
    grand_slam: str = choice(
        "extra_turn",
        ("extra_turn", "capture", "no_capture"),
        "a capture of every seed on the opponent's row: taken and the mover moves again "
        "(the source), taken, or not taken",
    )
    singles_rule: bool = flag(True, "single seeds may be lifted only when all houses hold one")


def to_params(options: OuriOptions) -> np.ndarray:
    return oware.to_params(options, MIN_LIFT=2 if options.singles_rule else 1)


OURI = Variant(
    name="ouri",
    title="Ouri",
    source=SOURCE,
    summary="Cape Verde's Oware: single seeds stay put, a grand slam captures and moves again",
    options_type=OuriOptions,
    readings=to_params,
    doc=__doc__,
    history=((STALL_STOP_LAST,),),
)
