"""Ncho, the Igbo and Lagos game of fours.

Source: ``003_27373f1e89548b8e.txt``. Sections "The Objective of the Game", "Rules of Play"
and "Example of Play".

1. Each player owns the six houses on their side, four seeds in each.
2. A player with no seeds in any of their houses is passed over: play reverts to the opponent.
3. Otherwise the player lifts all the seeds of one of their houses and sows them one by one
   anti-clockwise into the houses that follow.
4. Any seed but the last that makes a house up to four wins those four, at once, for the
   house's owner.
5. The last seed ends the turn if its house was empty; if it makes the house four, the sower
   wins those four wherever the house is, and the turn ends; otherwise the sower lifts the
   house's seeds and sows on.
6. The player who wins the eleventh four also wins the last.
7. Rounds (option `match`): each four a player won gains them a house for the next round; the
   players alternate in starting the rounds; a player who wins all the seeds has won the game.

Readings chosen where the source is silent (each an option where there is another reading): a
lifted house is not passed over on the way round (`skip_origin`); two players circling the last
eight seeds for ever are stopped after `stall_limit` plies without a four, each keeping the seeds
on their side (`remainder`); a player with more than six houses takes the opponent's houses that
follow their own row in the sowing direction, the opponent keeping the far end of their row;
a player left with fewer than four seeds cannot own a house and has lost the match.
"""

from dataclasses import dataclass

import numpy as np

from ..engine import layout as L
from . import obridjie
from .base import (
    RELAY_BOUNDED,
    RELAY_REPEATS,
    SOURCE_HOUSES,
    STALL_STOP_LAST,
    UNBOUNDED_RELAYS,
    RuleOptions,
    Variant,
    choice,
    first_player_field,
    match_flag,
    max_rounds_field,
)
from .sources import cite

__doc__ = cite(__doc__)  # the citation, where the docstring names the project's copy


@dataclass(frozen=True)
class NchoOptions(obridjie.ObridjieOptions):
    first_player: str = first_player_field(
        "random", "who starts; the source has the players draw lots, so 'random'"
    )
    stuck: str = choice(
        "pass",
        ("pass", "end"),
        "a player with no seeds is passed over (the source), or the round ends",
    )
    remainder: str = choice(
        "owner",
        ("owner", "split"),
        "seeds left when a chase is stopped go to the row's owner, or are split evenly",
    )
    match: bool = match_flag()
    max_rounds: int = max_rounds_field()


def fours_buy_houses(options: RuleOptions) -> dict[str, int]:
    """The parameters of a game whose captured fours buy houses for the next round."""
    return {
        "LIFT_ACTIONS": 2 * SOURCE_HOUSES,  # any pit the mover owns, on either row
        "ROUNDS": L.ROUNDS_FOURS_BUY_HOUSES if options.match else L.ROUNDS_NONE,
        "MAX_ROUNDS": options.max_rounds,
        "MATCH_END": L.MATCH_CANNOT_FILL,
        "ROUND_STARTER": L.STARTER_ALTERNATE,
    }


def to_params(options: NchoOptions) -> np.ndarray:
    return obridjie.to_params(
        options,
        END_BOARD_AT_MOST=4,
        REMAINDER=L.REMAINDER_LAST_CAPTURER,
        LAST_FOUR_TO_TAKER=1,
        **fours_buy_houses(options),
    )


NCHO = Variant(
    name="ncho",
    title="Ncho",
    source="003_27373f1e89548b8e.txt. Sections 'The Objective of the Game', 'Rules of Play' "
    "and 'Example of Play'",
    summary="the Igbo game of fours: relay sowing, fours to the house's owner, the last to "
    "whoever wins the eleventh; rounds in which fours buy houses",
    options_type=NchoOptions,
    readings=to_params,
    doc=__doc__,
    history=(
        (
            STALL_STOP_LAST,
            RELAY_REPEATS,
            "the player who takes the eleventh four during a sowing wins the last four at once "
            "(the sowing went on, and its last seed could make a twelfth four for the sower)",
        ),
        (RELAY_BOUNDED,),
    ),
    earlier_versions={1: UNBOUNDED_RELAYS},
)
