"""Ayoayo (Nigeria, Yoruba) after John P. Pratt, and Tampoduo (Ghana).

Source: ``002_39c0c29210756e27.txt``. Numbered rules 1-5 and "A Variation". The differences of
``004_8ffe586423a61d8e.txt`` (section "Ayoayo - Nigeria") are options. Tampoduo (KIDS
Afterschool's section "Tampoduo - Ghana") is the same text as KIDS Afterschool's Ayoayo without
the rule on passing over the emptied house, so it is this rule set with KIDS Afterschool's
readings.

1. Four seeds in each pit (rule 1).
2. Seeds are sown counter-clockwise, not into the stores; the pit being played always stays
   empty, also when the seeds go round the board (rule 2).
3. When the last seed falls into a pit that already held seeds, that pit is lifted and sown in
   the same manner; the turn ends when the last seed falls into an empty pit (rule 3).
4. A last seed in an empty pit of the mover's row captures the seeds of the opposite pit, but
   not the sowing seed; nothing is captured on the opponent's row (rule 4).
5. A player whose opponent has no seeds should give them some. If no move can, the mover takes
   all their own seeds and the game ends. A move that captures the opponent's last seeds is
   allowed; the mover then takes their own seeds too. A player who could have given seeds and
   did not loses all their remaining seeds to the opponent (rule 5).
6. Variation: the mover's store is part of the sowing; a last seed in it ends the turn.
"""

from dataclasses import dataclass

import numpy as np

from ..engine import layout as L
from .base import (
    RELAY_BOUNDED,
    RELAY_REPEATS,
    SKIPS,
    STALL_STOP_LAST,
    UNBOUNDED_RELAYS,
    RelayOptions,
    Variant,
    choice,
    flag,
    guessed_first_player,
    rule_params,
    skip_origin_field,
)
from .sources import cite

__doc__ = cite(__doc__)  # the citation, where the docstring names the project's copy

ENDINGS = ("no_seeds", "two_left_or_majority", "one_each_side_or_majority")


@dataclass(frozen=True)
class AyoayoOptions(RelayOptions):
    skip_origin: str = skip_origin_field(
        "move", "Pratt: the pit played always remains empty", ("move", "lap", "none")
    )
    capture_sowing_seed: bool = flag(
        False, "a capture takes the sowing seed too (KIDS Afterschool's reading; Pratt leaves it)"
    )
    feeding: str = choice(
        "penalty",
        ("penalty", "forced"),
        "failing to feed a seedless opponent forfeits your seeds (Pratt), or only feeding "
        "moves are legal (KIDS Afterschool)",
    )
    ending: str = choice(
        "no_seeds",
        ENDINGS,
        "the game ends only when a player runs out of seeds (Pratt), or also when a player has "
        "captured 25 or two seeds are left (KIDS Afterschool): two anywhere, or one on each "
        "side (KIDS Afterschool's words read literally)",
    )
    sow_into_stores: bool = flag(False, "Pratt's variation: the mover's store is sown into")
    stranded: str = choice(
        "end",
        ("end", "feed"),
        "a player whose last seeds are captured: the game ends, or the capturer must sow "
        "seeds to them and play goes on while that is possible (KIDS Afterschool's 'Other "
        "Rules' read literally)",
    )


def to_params(options: AyoayoOptions) -> np.ndarray:
    ends_early = options.ending != "no_seeds"
    return rule_params(
        CONTINUE=L.CONTINUE_OCCUPIED,
        SKIP_ORIGIN=SKIPS[options.skip_origin],
        SOW_INTO_STORE=int(options.sow_into_stores),
        CAPTURE=L.CAPTURE_OPPOSITE,
        CAPTURE_LAST_SEED=int(options.capture_sowing_seed),
        FEEDING=L.FEED_PENALTY if options.feeding == "penalty" else L.FEED_FORCED,
        END_MAJORITY=int(ends_early),
        END_BOARD_AT_MOST=2 if options.ending == "two_left_or_majority" else -1,
        END_EACH_SIDE_EXACTLY=1 if options.ending == "one_each_side_or_majority" else -1,
        NO_MOVE=L.NO_MOVE_PASS if options.stranded == "feed" else L.NO_MOVE_END,
        REMAINDER=L.REMAINDER_OWNER,
        STALL_REMAINDER=L.REMAINDER_OWNER,
    )


@dataclass(frozen=True)
class TampoduoOptions(AyoayoOptions):
    first_player: str = guessed_first_player()
    skip_origin: str = skip_origin_field(
        "none", "Tampoduo's text, unlike Ayoayo's, has no such rule"
    )
    capture_sowing_seed: bool = flag(True, "a capture takes the sowing seed too")
    feeding: str = choice(
        "forced", ("forced", "penalty"), "only moves that feed a seedless opponent are legal"
    )
    ending: str = choice(
        "two_left_or_majority",
        ENDINGS,
        "the game also ends when a player has captured 25 or two seeds are left: two anywhere "
        "(KIDS Afterschool's 'too few seeds for any meaningful game'), or one on each side (its "
        "words read literally)",
    )


AYOAYO = Variant(
    name="ayoayo",
    title="Ayoayo",
    source="002_39c0c29210756e27.txt. Rules 1-5 and 'A Variation'. "
    "The options from 004_8ffe586423a61d8e.txt (section 'Ayoayo - Nigeria')",
    summary="Yoruba relay sowing, capture of the opposite pit, the feeding rule and its penalty",
    options_type=AyoayoOptions,
    readings=to_params,
    doc=__doc__,
    history=((STALL_STOP_LAST, RELAY_REPEATS), (RELAY_BOUNDED,)),
    earlier_versions={1: UNBOUNDED_RELAYS},
)

TAMPODUO = Variant(
    name="tampoduo",
    title="Tampoduo",
    source="004_8ffe586423a61d8e.txt. Section 'Tampoduo - Ghana'",
    summary="Ghana's relay game: the last seed in an empty own pit takes the pit opposite",
    options_type=TampoduoOptions,
    readings=to_params,
    doc=__doc__,
    history=((STALL_STOP_LAST, RELAY_REPEATS), (RELAY_BOUNDED,)),
    earlier_versions={1: UNBOUNDED_RELAYS},
)
