"""J'erin (Yoruba) after R. J. Newberry.

Source: ``001_9cf8f14e7fe6ff20.txt``. Section "J'erin".

1. Four seeds in each house, as for Ayoyayo.
2. The opening move takes the contents of two adjoining houses of the mover's side, four in each
   hand, and drops them one by one into the houses that follow counter-clockwise; when one hand
   is empty the other hand goes on from where the first left off.
3. When the last seed falls into a house that was not empty, the mover lifts that house and
   sows on; the move ends when the last seed falls into an empty house.
4. Fours made while sowing are taken off the board and the sowing goes on; a last seed that
   makes four is taken and ends the move. A player takes fours only from the houses of their
   own side, never from the opponent's.
5. The game ends with eight seeds on the board: all of them go to the first player to make a
   four anywhere with their last seed.
6. Rounds (option `match`): the seeds are put back four to a house; a player with more than six
   houses' worth fills some of the opponent's houses too, and takes fours from them in the next
   game.

Readings chosen where the source is silent (each an option where there is another reading):
each player's first move of a round is a two-house opening (`opening`); a lifted house is not
passed over (`skip_origin`); a last seed making four on the opponent's side is not taken and
ends the move; once eight seeds are left, no four is taken on the way; a player with no seeds is
passed over (`stuck`); a chase of the last eight seeds is stopped after `stall_limit` plies
without a four, each player keeping the seeds on their side; the houses gained, the order of
starting the rounds and the end of a match follow Ncho (fours buy houses, the players alternate
in starting, a player with fewer than four seeds has lost).
"""

from dataclasses import dataclass

import numpy as np

from ..engine import layout as L
from .actions import LIFTS, TWO_HOUSE_OPENING
from .base import (
    RELAY_BOUNDED,
    RELAY_REPEATS,
    SKIPS,
    STALL_STOP_LAST,
    STUCK,
    UNBOUNDED_RELAYS,
    RelayOptions,
    Variant,
    choice,
    match_flag,
    max_rounds_field,
    rule_params,
    skip_origin_field,
)
from .ncho import fours_buy_houses
from .sources import cite

__doc__ = cite(__doc__)  # the citation, where the docstring names the project's copy

# Who takes a four made during a move, by the reading of 'a player cannot take seeds from his
# opponent's houses ... but only from his own side'.
FOURS_ON_THE_WAY = {"own_side": L.FOUR_ON_THE_WAY_MOVER_OWN, "owner": L.FOUR_ON_THE_WAY_OWNER}
FOURS = {"own_side": L.FOUR_LAST_OWN_ONLY, "owner": L.FOUR_LAST_OWNER}

OPENINGS = {
    "each_player": L.OPENING_TWO_HOUSES,
    "first_move": L.OPENING_TWO_HOUSES_ROUND_START,
}


@dataclass(frozen=True)
class JerinOptions(RelayOptions):
    opening: str = choice(
        "each_player",
        ("each_player", "first_move"),
        "the two-house opening is each player's first move of a round, or only the round's "
        "very first move",
    )
    skip_origin: str = skip_origin_field("none", "the source names no such rule")
    fours: str = choice(
        "own_side",
        ("own_side", "owner"),
        "fours made during a move: the mover takes those on their own side and the rest stay "
        "on the board, or each house's owner takes the fours made in it (as in Ncho)",
    )
    stuck: str = choice(
        "pass", ("pass", "end"), "a player with no seeds is passed over, or the round ends"
    )
    match: bool = match_flag()
    max_rounds: int = max_rounds_field()


def to_params(options: JerinOptions) -> np.ndarray:
    return rule_params(
        CONTINUE=L.CONTINUE_OCCUPIED,
        STOP_AT_FOUR=1,
        SKIP_ORIGIN=SKIPS[options.skip_origin],
        FOUR_ON_THE_WAY=FOURS_ON_THE_WAY[options.fours],
        CAPTURE=L.CAPTURE_FOUR,
        FOUR_LAST=FOURS[options.fours],
        FINAL_POT=8,
        OPENING=OPENINGS[options.opening],
        NO_MOVE=STUCK[options.stuck],
        REMAINDER=L.REMAINDER_OWNER,
        STALL_REMAINDER=L.REMAINDER_OWNER,
        **fours_buy_houses(options),
    )


JERIN = Variant(
    name="jerin",
    title="J'erin",
    source='001_9cf8f14e7fe6ff20.txt. Section "J\'erin"',
    summary="Yoruba game of fours: a two-house opening, relay sowing, fours from your own "
    "side, the last eight to the first last-seed four",
    options_type=JerinOptions,
    readings=to_params,
    doc=__doc__,
    actions=(LIFTS, TWO_HOUSE_OPENING),
    history=(
        (
            STALL_STOP_LAST,
            RELAY_REPEATS,
            "an opening lifts two adjoining houses that both hold seeds (a pair with one empty "
            "house was an opening)",
            "the eight seeds of the end are counted with the seeds in hand (fours made on the way "
            "were left once eight were on the board, whatever was still in hand)",
            "option fours='owner': each player takes the fours made in their own houses",
        ),
        (RELAY_BOUNDED,),
    ),
    earlier_versions={1: UNBOUNDED_RELAYS},
)
