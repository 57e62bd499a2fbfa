"""Oware (Ghana) and Kpo (Liberia).

Source: ``004_8ffe586423a61d8e.txt``. Sections "OWARE - Ghana" and "KPO - Liberia" (the two
texts are the same rules, so one implementation serves both names).

1. Four seeds in each of the twelve houses; a player owns the row of six nearest them.
2. A move lifts all the seeds of one of the mover's houses and sows them one by one
   counter-clockwise; the turn ends with the last seed (a single lap).
3. Twelve or more seeds pass over the emptied house.
4. A last seed that makes 2 or 3 in an opponent's house captures it, together with the unbroken
   run of houses before it on the opponent's row that also hold 2 or 3.
5. A move that would capture every seed of the opponent's row (a grand slam) captures nothing.
6. A player whose opponent has no seeds must give them some; if no move can, the game ends and
   the mover keeps the seeds on their row.
7. The game ends when a player has captured more than half the seeds (25), or both have 24;
   each player takes the seeds left on their row.
8. Two or three seeds chasing each other for ever: the players agree to stop and split the
   seeds left evenly, the player with more on their row keeping the odd one. Here the game is
   stopped after `stall_limit` plies without a capture.

Options `houses` and `seeds` play the same rules on a smaller board or with fewer or more seeds
(OpenSpiel's ``num_houses_per_player`` and ``num_seeds_per_house``): the source's game is six
houses of four. The majority is then more than half of ``2 * houses * seeds``, and a chain may
run the length of the opponent's row. Small boards can be solved whole (`mancala solve`).
"""

from dataclasses import dataclass

import numpy as np

from ..engine import layout as L
from .base import (
    REMAINDERS,
    SLAMS,
    SOURCE_HOUSES,
    STALL_STOP_LAST,
    RuleOptions,
    Variant,
    bounded,
    choice,
    counts_mask,
    guessed_first_player,
    rule_params,
)
from .sources import cite

__doc__ = cite(__doc__)  # the citation, where the docstring names the project's copy

SOURCE = "004_8ffe586423a61d8e.txt. Section 'OWARE - Ghana' (and 'KPO - Liberia')"


@dataclass(frozen=True)
class OwareOptions(RuleOptions):
    first_player: str = guessed_first_player()
    grand_slam: str = choice(
        "no_capture",
        ("no_capture", "capture"),
        "a move that would take every seed of the opponent's row captures nothing, or all",
    )
    stall_remainder: str = choice(
        "split",
        ("split", "owner"),
        "seeds left when a chase is stopped: split evenly (odd one to the fuller row), "
        "or each player's row to its owner",
    )
    houses: int = bounded(
        SOURCE_HOUSES, 1, L.MAX_HOUSES, "houses a player (the source's board has six)"
    )
    # At most 8: 96 seeds on six houses, within the observations' int8 counts and the endgame
    # databases' numbering (`endgame.index.MAX_SEEDS`).
    seeds: int = bounded(4, 1, 8, "seeds in each house at the start (the source has four)")


def to_params(options: OwareOptions, **overrides: int) -> np.ndarray:
    """Oware's parameters; Ouri passes its differences as `overrides`."""
    return rule_params(
        HOUSES=options.houses,
        SEEDS_PER_HOUSE=options.seeds,
        CAPTURE=L.CAPTURE_CHAIN,
        CAPTURE_COUNTS=counts_mask(2, 3),
        GRAND_SLAM=SLAMS[options.grand_slam],
        FEEDING=L.FEED_FORCED,
        END_MAJORITY=1,
        REMAINDER=L.REMAINDER_OWNER,
        STALL_REMAINDER=REMAINDERS[options.stall_remainder],
        **overrides,
    )


OWARE = Variant(
    name="oware",
    title="Oware",
    source=SOURCE,
    summary="Ghana's single-lap game: capture 2s and 3s chained back, feed a seedless opponent",
    options_type=OwareOptions,
    readings=to_params,
    doc=__doc__,
    history=((STALL_STOP_LAST,),),
)

KPO = Variant(
    name="kpo",
    title="Kpo",
    source="004_8ffe586423a61d8e.txt. Section 'KPO - Liberia' (the same text as Oware)",
    summary="Liberia's name for Oware's rules, played exactly as Oware",
    options_type=OwareOptions,
    readings=to_params,
    doc=__doc__,
    history=((STALL_STOP_LAST,),),
)
