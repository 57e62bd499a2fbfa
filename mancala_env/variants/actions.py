"""A rule set's actions as ordered blocks of consecutive numbers, each with its words.

A rule set lists its blocks (`Variant.actions`); the lifts come first, then its special moves.
The list is the one numbering of the rule set's actions that the Python side reads: the size
of the action space (`Variant.params`), `Game.describe_action`, the text a player types at the
keyboard and the question put to them (`mancala_env.agents.human`), and the action table of
`mancala variants NAME`. A block's size comes from the rule parameters, so an option can
empty it (Ayoyayo's `odu="none"`). The compiled engine plays the actions by the same offsets:
a block's value `v` is action `start + v`.

A block is made of small functions of the state and the rule parameters:

- `size(params)`: how many actions it holds under these rules;
- `describe(value, state, params)`: what its action `value` does, in words;
- `entry(value, state, params)`: the text that names it at the keyboard;
- `question(state, params)`: the question put to the player when the block's actions are the
  ones to choose from (None: "your move"), followed by the legal entries unless the question
  names its range itself (`lists_entries`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..engine import layout as L
from ..engine.pieces import VALUES
from ..engine.setting_out import central_pit

Words = Callable[[int, np.ndarray, np.ndarray], str]


def _no_question(state: np.ndarray, params: np.ndarray) -> str | None:
    return None


@dataclass(frozen=True)
class ActionBlock:
    """A run of consecutive actions with one meaning (see the module docstring)."""

    name: str
    size: Callable[[np.ndarray], int]
    describe: Words
    entry: Words
    question: Callable[[np.ndarray, np.ndarray], str | None] = _no_question
    lists_entries: bool = True  # the prompt lists the legal entries (not when it names a range)

    def __reduce__(self) -> str:
        """Pickle (and deep-copy) a block by reference, as the constant of this module it is: its
        functions are lambdas and closures, which pickle cannot name."""
        for name, value in globals().items():
            if value is self:
                return name
        raise TypeError(f"action block {self.name!r} is not a constant of {__name__}: unpicklable")


def layout(blocks: tuple[ActionBlock, ...], params: np.ndarray) -> list[tuple[ActionBlock, int]]:
    """Each block with the first action number it holds, skipping empty blocks."""
    placed, start = [], 0
    for block in blocks:
        size = block.size(params)
        if size > 0:
            placed.append((block, start))
            start += size
    return placed


def action_count(blocks: tuple[ActionBlock, ...], params: np.ndarray) -> int:
    """The size of the action space the blocks make under `params`."""
    return sum(block.size(params) for block in blocks)


def find(
    blocks: tuple[ActionBlock, ...], params: np.ndarray, action: int
) -> tuple[ActionBlock, int]:
    """The block holding `action` and the action's value within it."""
    for block, start in layout(blocks, params):
        if start <= action < start + block.size(params):
            return block, action - start
    raise ValueError(f"action {action} is outside the {action_count(blocks, params)} actions")


def describe_blocks(blocks: tuple[ActionBlock, ...], params: np.ndarray) -> list[dict]:
    """The action table of a rule set: each block's name, first and last action, and what its
    first action does (as `mancala variants NAME` and the rule pages show them)."""
    state = np.zeros(L.STATE_SIZE, np.int32)
    return [
        {
            "block": block.name,
            "first": start,
            "last": start + block.size(params) - 1,
            "first_does": block.describe(0, state, params),
        }
        for block, start in layout(blocks, params)
    ]


# ---- the lifts -----------------------------------------------------------------------------
def _lift_words(value: int, state: np.ndarray, params: np.ndarray) -> str:
    houses = int(params[L.P_HOUSES])
    if value < houses:
        return f"lifts house {value + 1}"
    return f"lifts the opponent's house {value - houses + 1}, now theirs"


LIFTS = ActionBlock(
    "lift",
    size=lambda params: int(params[L.P_LIFT_ACTIONS]),
    describe=_lift_words,
    entry=lambda value, state, params: str(value + 1),
)


# ---- Ayoyayo's odu: a house moved en bloc to the next or the previous own house ----------------
def _odu(step: int) -> ActionBlock:
    def describe(value: int, state: np.ndarray, params: np.ndarray) -> str:
        return f"moves house {value + 1} en bloc to house {value + 1 + step} (odu)"

    def size(params: np.ndarray) -> int:
        special = params[L.P_SPECIAL_MOVE]
        if step < 0:
            return int(params[L.P_HOUSES]) if special == L.SPECIAL_TRANSFER_EITHER else 0
        return int(params[L.P_HOUSES]) if special != L.SPECIAL_NONE else 0

    return ActionBlock(
        "odu forward" if step > 0 else "odu back",
        size=size,
        describe=describe,
        entry=lambda value, state, params: f"{value + 1}>{value + 1 + step}",
    )


ODU_FORWARD = _odu(+1)
ODU_BACK = _odu(-1)

# ---- J'erin's opening: two adjoining houses lifted together ---------------------------------
TWO_HOUSE_OPENING = ActionBlock(
    "opening",
    size=lambda params: (
        int(params[L.P_LIFT_ACTIONS]) - 1 if params[L.P_OPENING] != L.OPENING_NONE else 0
    ),
    describe=lambda value, state, params: f"opens with houses {value + 1} and {value + 2} together",
    entry=lambda value, state, params: f"{value + 1}+{value + 2}",
)


# ---- Mangala's setting out: the seeds left in each central hole, then accept or turn ----------
def _hole_question(state: np.ndarray, params: np.ndarray) -> str:
    filled = int(state[L.SETTING_OUT + L.SETTING_OUT_FILLED])
    distributor = int(state[L.SETTING_OUT + L.SETTING_OUT_DISTRIBUTOR])
    seeds = int(state[central_pit(distributor, filled, params)])
    return f"how many of the {seeds} seeds stay in central hole {filled + 1}? (0-{seeds})"


def _sets_out(params: np.ndarray) -> bool:
    return params[L.P_SETTING_OUT] == L.SETTING_OUT_CENTRAL_CHOSEN


SETTING_OUT_COUNT = ActionBlock(
    "seeds left in a central hole",
    size=lambda params: int(params[L.P_TOTAL_SEEDS]) + 1 if _sets_out(params) else 0,
    describe=lambda value, state, params: f"leaves {value} seeds in the central hole being filled",
    entry=lambda value, state, params: str(value),
    question=_hole_question,
    lists_entries=False,
)
SETTING_OUT_CHOICE = ActionBlock(
    "accept or turn round",
    size=lambda params: 2 if _sets_out(params) else 0,
    describe=lambda value, state, params: (
        "accepts the position" if value == 0 else "turns the board round"
    ),
    entry=lambda value, state, params: ("accept", "turn")[value],
    question=lambda state, params: "accept the position or turn the board round?",
)


# ---- 10 Mighty Men: the value of the decision a move asks ------------------------------------
FLOCK_PITS = ("before", "own", "after")
QUESTIONS = {
    L.PHASE_PLACE: "in which of your pits 1-12 goes the {piece}?",
    L.PHASE_SIDE: "keep the board or turn it round?",
    L.PHASE_DROP: "which piece of the hand is the {piece} (1 = sown first)?",
    L.PHASE_SHIFT: "how many pits further does the {piece} move?",
    L.PHASE_BORROW: "whose power does the chieftain take?",
    L.PHASE_FLOCK_COUNT: "how many pieces stay in the shepherd's next pit?",
    L.PHASE_FLOCK_PIECE: "which of the shepherd's pits gets the {piece}?",
}


def _piece(state: np.ndarray) -> str:
    """The kind of the piece the decision now asked is about, in words."""
    slot = int(state[L.MOVE + L.MOVE_PIECE])
    return L.KIND_NAMES.get(int(state[L.PIECE_KIND + slot]), "piece").replace("_", " ")


def _decision_words(value: int, state: np.ndarray, params: np.ndarray) -> str:
    phase, piece = int(state[L.PHASE]), _piece(state)
    if phase == L.PHASE_PLACE:
        return f"places the {piece} in pit {value + 1} counted from their house 1"
    if phase == L.PHASE_SIDE:
        return "keeps the board as it is" if value == 0 else "turns the board round"
    if phase == L.PHASE_DROP:
        return f"sows the {piece} as piece {value + 1} of the hand"
    if phase == L.PHASE_SHIFT:
        return f"moves the {piece} {value} pits further"
    if phase == L.PHASE_BORROW:
        return f"gives the chieftain the power of the {L.KIND_NAMES.get(value, '?')}"
    if phase == L.PHASE_FLOCK_COUNT:
        return f"has the shepherd leave {value} pieces in the next of his pits"
    if phase == L.PHASE_FLOCK_PIECE:
        pit = ("preceding", "own", "following")[value] if value < 3 else "?"
        return f"has the shepherd set the {piece} in his {pit} pit"
    return f"decision value {value}"


def _decision_entry(value: int, state: np.ndarray, params: np.ndarray) -> str:
    phase = int(state[L.PHASE])
    if phase in (L.PHASE_PLACE, L.PHASE_DROP):
        return str(value + 1)
    if phase == L.PHASE_SIDE:
        return ("keep", "turn")[value]
    if phase == L.PHASE_BORROW:
        return L.KIND_NAMES[value]
    if phase == L.PHASE_FLOCK_PIECE:
        return FLOCK_PITS[value]
    return str(value)


def _decision_question(state: np.ndarray, params: np.ndarray) -> str | None:
    question = QUESTIONS.get(int(state[L.PHASE]))
    return question.format(piece=_piece(state)) if question else None


PIECE_DECISION = ActionBlock(
    "decision",
    size=lambda params: VALUES if params[L.P_PIECE_GAME] == 1 else 0,
    describe=_decision_words,
    entry=_decision_entry,
    question=_decision_question,
)
