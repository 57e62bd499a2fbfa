"""Rio Kadalis (Somalia).

Source: ``004_8ffe586423a61d8e.txt``. Section "Rio Kadalis - Somalia".

1. Four seeds in each hole; a move lifts one of the mover's holes and sows counter-clockwise,
   relaying from a hole that held seeds, until the last seed falls into an empty hole or makes a
   hole four (Obridjie's sowing).
2. A hole made four by any seed but the last goes at once to its owner; a last seed making four
   goes to the sower, on either row (Obridjie's fours).
3. The round ends when the player to move cannot move; the seeds left go to the player on whose
   side they are. The round is won by the player who captured more in it.
4. Rounds (option `match`): each player refills the holes of their row four to a hole from the
   seeds they hold; the holes a player cannot fill are closed for the round (passed over by the
   sowing, never lifted) and reopen when they can be filled again; seeds left over stay in the
   player's store. The first player to win four rounds wins the match.

Readings chosen where the source is silent (each an option where there is another reading):
a lifted hole is not passed over (`skip_origin`); the players take turns to start the rounds
(`round_starter`); a round in which neither captured more counts for neither; a player who
cannot fill a single hole has lost the match; a chase that never makes a four is stopped after
`stall_limit` plies, each keeping the seeds on their side.
"""

from dataclasses import dataclass

import numpy as np

from ..engine import layout as L
from . import obridjie
from .base import (
    RELAY_BOUNDED,
    STALL_STOP_LAST,
    UNBOUNDED_RELAYS,
    Variant,
    choice,
    match_flag,
    max_rounds_field,
)
from .sources import cite

__doc__ = cite(__doc__)  # the citation, where the docstring names the project's copy

STARTERS = {"alternate": L.STARTER_ALTERNATE, "loser": L.STARTER_ROUND_LOSER}


@dataclass(frozen=True)
class RioKadalisOptions(obridjie.ObridjieOptions):
    stuck: str = choice(
        "end",
        ("end", "pass"),
        "a player who cannot move ends the round (the source), or is passed over",
    )
    round_starter: str = choice(
        "alternate",
        ("alternate", "loser"),
        "the players take turns to start the rounds, or the loser of a round starts the next",
    )
    match: bool = match_flag()
    max_rounds: int = max_rounds_field()


def to_params(options: RioKadalisOptions) -> np.ndarray:
    return obridjie.to_params(
        options,
        END_BOARD_AT_MOST=-1,
        ROUNDS=L.ROUNDS_REFILL_OWN_ROW if options.match else L.ROUNDS_NONE,
        MATCH_END=L.MATCH_ROUNDS_WON,
        MATCH_TARGET=4,
        MAX_ROUNDS=options.max_rounds,
        ROUND_STARTER=STARTERS[options.round_starter],
    )


RIO_KADALIS = Variant(
    name="rio_kadalis",
    title="Rio Kadalis",
    source="004_8ffe586423a61d8e.txt. Section 'Rio Kadalis - Somalia'",
    summary="Somalia's game of fours in rounds: unfilled holes close, the first to win four "
    "rounds wins",
    options_type=RioKadalisOptions,
    readings=to_params,
    doc=__doc__,
    history=((STALL_STOP_LAST,), (RELAY_BOUNDED,)),
    earlier_versions={1: UNBOUNDED_RELAYS},
)
