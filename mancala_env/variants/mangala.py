"""Mangala (Egypt): 70 seeds set out in the four central holes, clockwise relay sowing, even
pairs captured.

Source: ``004_8ffe586423a61d8e.txt``. Section "Mangala - Egypt" (Object of the game, Starting,
Setup, Sowing seeds, Capturing seeds).

1. Seventy seeds; each player owns the six holes on their side. The player who wins the guess
   (`first_player`) distributes all the seeds in the four central holes (houses 3 and 4 of
   each row), the eight end holes staying empty.
2. The other player accepts the position, or has the board turned round (each row's seeds go
   to the other side). Accepted: the accepting player sows first; turned round: the player who
   distributed sows first.
3. Sowing goes clockwise, one seed to a hole (the action numbers do not change with it).
4. Each player's first turn lifts the rightmost filled hole of their row (house 6 side) and
   relays while the last seed falls into an occupied hole, until it falls into an empty one;
   nothing is captured.
5. Later turns lift any hole of the mover's row. Once a lap's last seed has fallen, every two
   facing holes that both hold an even number (2, 4, 6, ...) are captured by the mover, on
   either side. The sowing goes on from the last hole while its last seed made an even number
   there and the hole facing it is not even too (that pair is captured and the turn ends).
6. The game ends when the player to move has no seeds on their side; the player who captured
   more wins.

Readings chosen (each an option, see docs/variants/mangala.md): who sows first after the
position is accepted (`accepted_starter`); the sowing rule of the text over its example, which
sows on from a last hole that made an odd number (`continuation`); seeds left on the board go
to the row's owner (`remainder`); a game whose seeds circle with no capture is stopped after
`stall_limit` plies; the setting out by the players, a fixed layout or a random one
(`setting_out`); any count in a central hole, none included, or at least one seed in each
(`central_holes`).

Actions: 0..5 lift houses 1..6. With the setting out by the players, the seeds still to set out
wait in the central hole being filled (the distributor's houses 3 and 4, then the other
player's houses 3 and 4); 6 + c (c = 0..70, at most the seeds there) leaves c of them there and
moves the rest on to the next hole; after three such choices, 77 accepts the position and 78
turns the board round.
"""

from dataclasses import dataclass

import numpy as np

from ..engine import layout as L
from .actions import LIFTS, SETTING_OUT_CHOICE, SETTING_OUT_COUNT
from .base import (
    RELAY_BOUNDED,
    RELAY_REPEATS,
    REMAINDERS,
    STALL_STOP_LAST,
    UNBOUNDED_RELAYS,
    RelayOptions,
    Variant,
    choice,
    first_player_field,
    rule_params,
)
from .sources import cite

__doc__ = cite(__doc__)  # the citation, where the docstring names the project's copy

SOURCE = "004_8ffe586423a61d8e.txt. Section 'Mangala - Egypt'"
TOTAL_SEEDS = 70
FIXED_LAYOUT = (18, 17, 17)  # player_0's houses 3, 4, player_1's house 3 (house 4: the rest, 18)


@dataclass(frozen=True)
class MangalaOptions(RelayOptions):
    first_player: str = first_player_field(
        "random",
        "who sets out the seeds (with a fixed or random layout: who sows first); the source has "
        "it guessed from a closed fist, so 'random'",
    )
    setting_out: str = choice(
        "agents",
        ("agents", "fixed", "random"),
        "the players set out the central holes and accept or turn the board round (the "
        "source), or a fixed layout 18/17 | 17/18, or a layout drawn from the reset seed",
    )
    central_holes: str = choice(
        "any_count",
        ("any_count", "at_least_one"),
        "how many seeds a central hole may get when the seeds are set out: any number, none "
        "or all (the source gives no limit), or at least one each (every one of the four "
        "holes gets seeds)",
    )
    accepted_starter: str = choice(
        "chooser",
        ("chooser", "distributor"),
        "who sows first when the position is accepted: the accepting player, or the player "
        "who set out the seeds (turned round, the distributor sows first either way)",
    )
    continuation: str = choice(
        "even",
        ("even", "until_captured"),
        "after a lap, sow on only when the last seed made an even number and no even pair "
        "(the sowing rule), or sow on from the last hole whatever its count until its pair "
        "is captured (the capture text's example)",
    )
    remainder: str = choice(
        "owner",
        ("owner", "split"),
        "seeds left on the board at the end go to the row's owner, or are split evenly",
    )


CONTINUATIONS = {"even": L.CONTINUE_EVEN, "until_captured": L.CONTINUE_UNTIL_TAKEN}
SETTINGS_OUT = {
    "agents": L.SETTING_OUT_CENTRAL_CHOSEN,
    "fixed": L.SETTING_OUT_CENTRAL_GIVEN,
    "random": L.SETTING_OUT_CENTRAL_RANDOM,
}
CENTRAL_HOLES_LEAST = {"any_count": 0, "at_least_one": 1}
STARTERS = {
    "chooser": L.SETTING_OUT_STARTER_CHOOSER,
    "distributor": L.SETTING_OUT_STARTER_DISTRIBUTOR,
}


def to_params(options: MangalaOptions) -> np.ndarray:
    params = rule_params(
        SEEDS_PER_HOUSE=0,
        TOTAL_SEEDS=TOTAL_SEEDS,
        SETTING_OUT=SETTINGS_OUT[options.setting_out],
        SETTING_OUT_STARTER=STARTERS[options.accepted_starter],
        SETTING_OUT_LEAST=CENTRAL_HOLES_LEAST[options.central_holes],
        FIRST_TURN=L.FIRST_TURN_RIGHTMOST,
        DIRECTION=-1,
        SKIP_ORIGIN=L.SKIP_NONE,
        CONTINUE=CONTINUATIONS[options.continuation],
        CAPTURE=L.CAPTURE_EVEN_PAIRS,
        NO_MOVE=L.NO_MOVE_END,
        REMAINDER=REMAINDERS[options.remainder],
        STALL_REMAINDER=REMAINDERS[options.remainder],
    )
    params[L.P_SETTING_OUT_LAYOUT : L.P_SETTING_OUT_LAYOUT + 3] = FIXED_LAYOUT
    return params


MANGALA = Variant(
    name="mangala",
    title="Mangala",
    source=SOURCE,
    summary="Egypt's game of 70 seeds: set out in the central holes (or the board turned "
    "round), clockwise relays on even counts, even pairs captured",
    options_type=MangalaOptions,
    readings=to_params,
    doc=__doc__,
    actions=(LIFTS, SETTING_OUT_COUNT, SETTING_OUT_CHOICE),
    history=((STALL_STOP_LAST, RELAY_REPEATS), (RELAY_BOUNDED,)),
    earlier_versions={1: UNBOUNDED_RELAYS},
)
