"""The observation tables of docs/observations.md, one per rule set under its default options
(a test keeps the page in sync). Regenerate the page with
``python -m mancala_env.observation_doc > docs/observations.md``."""

from __future__ import annotations

from .common_observation import COMMON_SIZE, COMMON_VERSION
from .game import Game
from .observation import observation_high, observation_spec
from .variants import VARIANTS

INTRO = """\
# Observations, rule set by rule set

Every observation is an int8 vector seen from the observing player's side: pits in sowing order
from the observer's house 1 (own row, then the opponent's), own store before the opponent's.
`env.unwrapped.observation_names` names each number under the options the environment was made
with (an option that turns on a match of rounds adds the rounds block, as in Ncho's tables);
`env.unwrapped.state()` is player_0's observation followed by `to_move` (0 or 1).
The lowest value of every number is 0.

This page is generated: `python -m mancala_env.observation_doc > docs/observations.md`.

## One encoding for every rule set

`observation="common"` (the AEC, Gymnasium and vectorised environments) shows instead the same
{size} float32 numbers, each in [0, 1], for every rule set, so that one network can play several:
every number any rule set's observation has, in one order (a number the rule set lacks is 0),
counts divided by their largest value under the rule set, categories one-hot (`name=k`: a
pregnant pit's holder, the phases, a special piece's kind and place, the lifted and the
Shepherd's pit), and last one number per rule set, 1 for the one being played (`variant=NAME`).
`mancala_env.common_observation.common_names()` names them all. The encoding is version
{version} (`mancala_env.common_observation.COMMON_VERSION`): every release of one version
gives the same numbers, in the same places and scaled alike, so a network fitted on it plays on
any of them; a rule set or a number added, or a largest value changed, comes with the next.
"""


def observation_tables() -> str:
    """The page: its introduction and a table per rule set (index, name, values, meaning)."""
    parts = [INTRO.format(size=COMMON_SIZE, version=COMMON_VERSION)]
    for name, variant in VARIANTS.items():
        game = Game(name)
        spec, high = observation_spec(game.params), observation_high(game.params)
        rows = [
            f"| {i} | `{feature}` | 0..{int(top)} | {meaning} |"
            for i, ((feature, meaning, _), top) in enumerate(zip(spec, high, strict=True))
        ]
        parts.append(
            f"## {variant.title} (`{name}`): {len(spec)} numbers\n\n"
            "| index | name | values | meaning |\n|---|---|---|---|\n" + "\n".join(rows) + "\n"
        )
    return "\n".join(parts)


if __name__ == "__main__":
    print(observation_tables(), end="")
