"""Obridjie (Nigeria).

Source: ``004_8ffe586423a61d8e.txt``. Section "Obridjie - Nigeria".

1. Four seeds in each house; the mover lifts one of their houses and sows counter-clockwise,
   never into the stores.
2. When the last seed falls into a house that already held seeds, those seeds are lifted and
   sown on, until the last seed falls into an empty house or makes a house four.
3. Whenever a house is made four by any seed but the last, the owner of the house takes the
   four at once, whoever is sowing.
4. A last seed that makes four captures it for the sower, on either row.
5. The game ends when fewer than four seeds are left; the most seeds captured wins.

Readings chosen where the source is silent (each an option):
- a house lifted again in a relay, or holding twelve seeds, is not passed over (`skip_origin`);
- a player with no seeds in their houses is passed over and the opponent moves again
  (`stuck`), as in the other games of fours;
- the seeds left at the end go to the owner of the row they are on (`remainder`);
- two players 'simply taking turns going around and around' agree to stop: after `stall_limit`
  plies without a capture.
"""

from dataclasses import dataclass

import numpy as np

from ..engine import layout as L
from .base import (
    RELAY_BOUNDED,
    RELAY_REPEATS,
    REMAINDERS,
    SKIPS,
    STALL_STOP_LAST,
    STUCK,
    UNBOUNDED_RELAYS,
    RelayOptions,
    Variant,
    choice,
    guessed_first_player,
    rule_params,
    skip_origin_field,
)
from .sources import cite

__doc__ = cite(__doc__)  # the citation, where the docstring names the project's copy


@dataclass(frozen=True)
class ObridjieOptions(RelayOptions):
    first_player: str = guessed_first_player()
    skip_origin: str = skip_origin_field("none", "the source names no such rule")
    stuck: str = choice(
        "pass",
        ("pass", "end"),
        "a player with empty houses is passed over, or the game ends",
    )
    remainder: str = choice(
        "owner",
        ("owner", "split"),
        "seeds left at the end go to the row's owner, or are split evenly",
    )


def to_params(options: ObridjieOptions, **overrides: int) -> np.ndarray:
    """Obridjie's parameters; Ncho passes its differences as `overrides`."""
    values = dict(
        CONTINUE=L.CONTINUE_OCCUPIED,
        STOP_AT_FOUR=1,
        FOUR_ON_THE_WAY=1,
        SKIP_ORIGIN=SKIPS[options.skip_origin],
        CAPTURE=L.CAPTURE_FOUR,
        NO_MOVE=STUCK[options.stuck],
        END_BOARD_AT_MOST=3,
        REMAINDER=REMAINDERS[options.remainder],
        STALL_REMAINDER=REMAINDERS[options.remainder],
    )
    return rule_params(**{**values, **overrides})


OBRIDJIE = Variant(
    name="obridjie",
    title="Obridjie",
    source="004_8ffe586423a61d8e.txt. Section 'Obridjie - Nigeria'",
    summary="Nigeria's game of fours: relay sowing, every four goes to its row's owner at once",
    options_type=ObridjieOptions,
    readings=to_params,
    doc=__doc__,
    history=((STALL_STOP_LAST, RELAY_REPEATS), (RELAY_BOUNDED,)),
    earlier_versions={1: UNBOUNDED_RELAYS},
)
