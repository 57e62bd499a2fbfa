"""Hypothesis strategies shared by the property tests, and how many examples each draws."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from mancala_env.engine.layout import KIND_NAMES, MAX_PIECES
from mancala_env.variants import VARIANTS, describe_options

# every test run draws each property test's examples in full; the developer's loop a quarter
# (tests/conftest.py sets this from --integration, before any test module is imported)
FULL_EXAMPLES = True
LOOP_SHARE = 4
LOOP_DEFAULT = 25  # a property test that names no count: Hypothesis's 100 in full


def examples(full: int) -> int:
    """A property test's examples: `full` in every test run (CI's), a quarter of them (at
    least 5) in the developer's loop."""
    return full if FULL_EXAMPLES else max(5, full // LOOP_SHARE)


# what is no count of games (of environments, of a batch): every one refused by name
NOT_A_COUNT = st.one_of(
    st.integers(max_value=0),
    st.booleans(),
    st.floats(allow_nan=True),
    st.text(max_size=3),
    st.none(),
    st.lists(st.integers(1, 3), max_size=2),
    st.just(np.int64(0)),
)
PIECE_LISTS = st.lists(st.sampled_from(sorted(KIND_NAMES.values())), max_size=MAX_PIECES)


@st.composite
def rule_options(draw: st.DrawFn, name: str) -> dict:
    """Any combination of a rule set's options (a short stall limit keeps games brief)."""
    values = {}
    for row in describe_options(VARIANTS[name].options_type):
        if row["choices"] is not None:
            values[row["name"]] = draw(st.sampled_from(row["choices"]))
        elif row["name"] == "stall_limit":
            values["stall_limit"] = draw(st.integers(1, 60))
        elif row["name"] == "houses":
            values["houses"] = draw(st.integers(1, 6))
        elif row["name"] == "seeds":
            values["seeds"] = draw(st.integers(1, 8))
        elif row["name"] == "max_houses":
            values["max_houses"] = draw(st.integers(1, 6))
        elif row["name"] == "max_rounds":
            values["max_rounds"] = draw(st.integers(1, 6))
        elif row["name"] == "pieces":
            values["pieces"] = draw(st.one_of(st.just("all"), PIECE_LISTS.map(_joined)))
    return values


def random_playout(game, rng: np.random.Generator, limit: int):
    """Play uniformly random legal moves; yield the game before each move and the move."""
    while not game.over and game.move_number < limit:
        action = int(rng.choice(game.legal_actions()))
        yield action
        game.step(action)


def _joined(names: list[str]) -> str:
    return ",".join(names) or "none"
