"""Repeated games: the games of a tournament that are copies of one another.

Two agents that choose alike from the same position play the same game each time they start
from it, and a rating counts every copy as new evidence. A game repeats another when the same
agents sit in the same seats, start from the same position (its start board, and its reset
seed where the rule set draws its first player or its start) and play the same moves.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .match import start


def distinct_games(records: Sequence[dict[str, Any]]) -> int:
    """How many of the game `records` (as `play_game` writes them) differ from one another."""
    positions: dict[tuple[str, str, int, str], bytes] = {}
    games = set()
    for record in records:
        where = (
            record["variant"],
            json.dumps(record["options"], sort_keys=True),
            record["seed"],
            json.dumps(record.get("start", {}), sort_keys=True),  # a version-1 store's: none
        )
        if where not in positions:
            positions[where] = start(record).state.tobytes()
        games.add((record["agent_0"], record["agent_1"], positions[where], tuple(record["moves"])))
    return len(games)


def repeat_warning(games: int, distinct: int) -> str | None:
    """A line saying that only `distinct` of `games` games differ; None when none repeats."""
    if distinct == games:
        return None
    return (
        f"warning: only {distinct} of the {games} games differ; the ratings count each repeat "
        "as a game of its own (give the games distinct openings: --openings or --opening-suite)"
    )
