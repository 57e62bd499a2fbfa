"""Pregnant (uur) pits (Layli Goobalay): a pair of facing pits held for one player, who takes
what falls in them. The rule code asks `board.is_pregnant(state, pit, params)`, then
`board.uur_holder(state, pit)` for the player it holds its seeds for."""

from typing import Any

from ..sizes import MAX_PITS
from .declaration import Block, Mechanic, PitField, RuleSet, per_pit


def _in_facing_pairs(uur: list[Any], seeds: list[int], rules: RuleSet) -> str | None:
    n_pits = len(uur)
    for pit in range(n_pits):
        if uur[pit] != uur[n_pits - 1 - pit]:
            return (
                f"'uur': pregnant pits come in facing pairs held for one player; pit {pit} "
                f"is {uur[pit]!r}, the pit facing it {uur[n_pits - 1 - pit]!r}"
            )
    return None


PREGNANT_PITS = Mechanic(
    "pregnant_pits",
    # UUR + pit: 1 + the player a pregnant (uur) pit is held for, 0 for none
    blocks=(Block("UUR", MAX_PITS),),
    snapshot_fields=(
        PitField(
            "uur",
            "UUR",
            codes={None: 0, 0: 1, 1: 2},
            default=lambda houses: [None] * (2 * houses),
            in_use="has_uur",
            unused_why="it has no pregnant pits",
            checks=(_in_facing_pairs,),
        ),
    ),
    observation=per_pit(
        "uur", "pregnant (uur) pit held for: 0 nobody, 1 the observer, 2 the opponent", 3
    ),
    observed="has_uur",
)
