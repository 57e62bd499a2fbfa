"""Layli Goobalay (Somalia): relay sowing, the opposite capture and pregnant (uur) pits.

Source: ``004_8ffe586423a61d8e.txt``. Section "Layli Goobalay - Somalia" (Starting, Setup,
Sowing seeds, "Pregnant" cups, Capturing seeds, End of game, Other Rules).

1. The first player is chosen by guessing which fist holds a seed; four seeds in each house,
   each player owns the six houses on their side.
2. A turn lifts all the seeds of one of the mover's houses and sows them one by one
   counter-clockwise, not into stores; when the last seed falls into a house that already held
   seeds, that house is lifted and sown on, until the last seed falls into an empty house.
3. A last seed in an empty house of the mover's row whose opposite house holds 1, 2, 4 or more
   seeds captures them together with the last seed; nothing is captured from an empty opposite
   house, nor on the opponent's row.
4. If the opposite house holds 3, one of them is moved into the mover's house: both then hold
   2 and become pregnant ('uur'), owned by the mover. Seeds that later fall into a pregnant
   house belong to its owner, and no turn may start from a pregnant house.
5. The round ends when the player to move cannot move because the houses on their side hold no
   seeds outside pregnant houses. Each player then takes the contents of the pregnant houses
   they own, on both sides, and the seeds left on their side.
6. Rounds (option `match`): the player with fewer seeds deals all of them one at a time into
   the houses of their row, the other places the same number on their side and keeps the extra
   in their store; rounds go on until a player holds 43 seeds or more.

Readings chosen where the source is silent (each an option): a lifted house is not passed over
when the seeds go round (`skip_origin`); a relay whose last seed falls into a pregnant house
ends there, the seed staying with the house's owner (`uur_relay`); the round ends when the
player to move is stuck (`round_end`); the players take turns to start the rounds
(`round_starter`). Two players whose seeds circle without a capture are stopped after
`stall_limit` plies, each keeping their side; a match is stopped after `max_rounds` rounds.
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
    guessed_first_player,
    match_flag,
    max_rounds_field,
    rule_params,
    skip_origin_field,
)
from .sources import cite

__doc__ = cite(__doc__)  # the citation, where the docstring names the project's copy

MATCH_TARGET = 43  # "until one player captures 43 or more seeds"


@dataclass(frozen=True)
class LayliGoobalayOptions(RelayOptions):
    first_player: str = guessed_first_player()
    skip_origin: str = skip_origin_field("none", "the source names no such rule")
    uur_relay: str = choice(
        "end",
        ("end", "lift"),
        "a relay's last seed in a pregnant house ends the turn, the seed staying with the "
        "house's owner, or the pregnant house is lifted and sown on like any other",
    )
    round_end: str = choice(
        "stuck",
        ("stuck", "row_empty"),
        "the round ends when the player to move has no seeds outside pregnant houses, or as "
        "soon as either player has none",
    )
    match: bool = match_flag()
    round_starter: str = choice(
        "alternate",
        ("alternate", "loser"),
        "in a match, the players take turns to start the rounds, or the player who captured "
        "fewer seeds in the last round starts the next (turns on a tie)",
    )
    max_rounds: int = max_rounds_field()


def to_params(options: LayliGoobalayOptions) -> np.ndarray:
    return rule_params(
        CONTINUE=L.CONTINUE_OCCUPIED,
        SKIP_ORIGIN=SKIPS[options.skip_origin],
        CAPTURE=L.CAPTURE_OPPOSITE,
        CAPTURE_LAST_SEED=1,
        UUR=1,
        UUR_RELAY=L.UUR_RELAY_END if options.uur_relay == "end" else L.UUR_RELAY_LIFT,
        FEEDING=L.FEED_NONE,
        NO_MOVE=L.NO_MOVE_END,
        END_ANY_SIDE_AT_MOST=0 if options.round_end == "row_empty" else -1,
        REMAINDER=L.REMAINDER_OWNER,
        STALL_REMAINDER=L.REMAINDER_OWNER,
        ROUNDS=L.ROUNDS_EQUAL_ROWS if options.match else L.ROUNDS_NONE,
        MATCH_END=L.MATCH_SEEDS,
        MATCH_TARGET=MATCH_TARGET,
        MAX_ROUNDS=options.max_rounds,
        ROUND_STARTER=(
            L.STARTER_ALTERNATE if options.round_starter == "alternate" else L.STARTER_ROUND_LOSER
        ),
    )


LAYLI_GOOBALAY = Variant(
    name="layli_goobalay",
    title="Layli Goobalay",
    source="004_8ffe586423a61d8e.txt. Section 'Layli Goobalay - Somalia'",
    summary="Somali relay game: the opposite capture with the last seed; an opposite three "
    "makes a pair of pregnant (uur) houses; rounds to 43 seeds",
    options_type=LayliGoobalayOptions,
    readings=to_params,
    doc=__doc__,
    history=((STALL_STOP_LAST, RELAY_REPEATS), (RELAY_BOUNDED,)),
    earlier_versions={1: UNBOUNDED_RELAYS},
)
