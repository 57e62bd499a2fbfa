"""The value of a small board solved whole: a database that holds every seed of the game holds
its start, and so the first player's result under perfect play."""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass

from ..game import Game
from ..variants import RuleOptions, Variant
from .database import EndgameDatabase


@dataclass(frozen=True)
class StartValue:
    """What the first player wins from the start with both playing for the most seeds
    (docs/endgames.md: the majority end left out, an endless chase split, an odd seed counted
    half to each)."""

    seeds: float  # the first player's seeds from the board
    total: int  # the game's seeds

    @property
    def margin(self) -> float:
        """The first player's seeds less the other's."""
        return 2 * self.seeds - self.total

    @property
    def result(self) -> str:
        """``win``, ``draw``, ``loss``, or ``draw_or_win`` / ``draw_or_loss`` where an endless
        chase's odd seed decides (the stall stop gives it by the rows, not the board)."""
        if abs(self.margin) == 1:
            return "draw_or_win" if self.margin > 0 else "draw_or_loss"
        return "win" if self.margin > 0 else "draw" if self.margin == 0 else "loss"

    @property
    def verdict(self) -> str:
        """The result in words, as `mancala solve` prints it."""
        if abs(self.margin) == 1:
            other = "win" if self.margin > 0 else "loss"
            return f"a draw or a {other} (an endless chase's odd seed decides)"
        return f"a {self.result}"


def start_value(
    directory: str | os.PathLike, variant: Variant, options: RuleOptions
) -> StartValue | None:
    """The start's value from the database in `directory`, or None when it does not hold
    every seed of the game (DatabaseError when it holds none, or one of other rules)."""
    database = EndgameDatabase(directory, variant, options)
    start = Game(variant, dataclasses.replace(options, first_player="player_0"))
    if not database.covers(start):
        return None
    return StartValue(database.value(start.pits, 0), start.total_seeds)
