"""Closed pits: out of play, left unfilled between rounds (Ncho, J'erin, Rio Kadalis) or
poisoned (10 Mighty Men). The rule code asks `board.is_closed(state, pit, params)`."""

from typing import Any

from ..sizes import MAX_PITS
from .declaration import Block, Mechanic, PitField, RuleSet, per_pit


def _closed_pits_are_empty(closed: list[Any], seeds: list[int], rules: RuleSet) -> str | None:
    for pit, is_closed in enumerate(closed):
        if is_closed and seeds[pit]:
            return f"'closed': pit {pit} is closed but holds {seeds[pit]} seeds"
    return None


def _each_row_has_an_open_pit(closed: list[Any], seeds: list[int], rules: RuleSet) -> str | None:
    """Every sowing needs an open pit on each row to land in (but 10 Mighty Men's, which
    passes over poisoned pits)."""
    if rules.pieces:
        return None
    for row in range(2):
        if all(closed[row * rules.houses : (row + 1) * rules.houses]):
            return f"'closed': every pit of player_{row}'s row is closed"
    return None


CLOSED_PITS = Mechanic(
    "closed_pits",
    blocks=(Block("CLOSED", MAX_PITS),),  # CLOSED + pit: 1 when the pit is out of play
    snapshot_fields=(
        PitField(
            "closed",
            "CLOSED",
            codes={0: 0, 1: 1},
            default=lambda houses: [0] * (2 * houses),
            in_use="closes_pits",
            unused_why="its pits never close",
            checks=(_closed_pits_are_empty, _each_row_has_an_open_pit),
        ),
    ),
    observation=per_pit("closed", "1 if the pit is closed"),
    observed="has_rounds",
)
