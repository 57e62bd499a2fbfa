"""What a mechanic that carries state declares: its blocks of the state vector, its snapshot
fields and their checks, and its numbers of the observation.

The state layout (`engine.layout`), the position hash's slots (`engine.position`), the
snapshot's known fields, reader and writer (`mancala_env.snapshot`) and the observation's names
(`mancala_env.observation`) are derived from these declarations. A declaration is data and
plain functions: it imports nothing of the engine, because the layout is built from it. Where
it needs to know whether a rule set uses the mechanic it names a predicate of `engine.board`
over the rule parameters (`has_uur`, `closes_pits`, ...); where it needs code that reads the
layout (the readers and writers of `StateFields`) it names a function of
`mancala_env.state_fields`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol


@dataclass(frozen=True)
class Block:
    """`size` slots of the state vector; `name` is the layout's name of the first (the offset
    the kernels read). `hashed`: the slots decide the rest of the game, so they are part of the
    position (`engine.position`); records of what happened and what is worked out from the
    rest are not."""

    name: str
    size: int = 1
    hashed: bool = True


class Number(NamedTuple):
    """One number of the observation: its name, what it means, and how many values it takes
    as a category (0: it is a count); the common encoding gives a category one slot a value."""

    name: str
    meaning: str
    categories: int = 0


def per_pit(suffix: str, meaning: str, categories: int = 0) -> Callable[[list[str]], list[Number]]:
    """Numbers of the observation, one a pit in the observer's order (`{pit}_{suffix}`)."""
    return lambda pits: [Number(f"{pit}_{suffix}", meaning, categories) for pit in pits]


class RuleSet(Protocol):
    """What a snapshot field's check reads of the rule set (`mancala_env.snapshot_fields.Rules`)."""

    name: str
    houses: int
    n_pits: int
    pieces: bool


# A check of a snapshot field: its values (as the snapshot holds them), the seeds in each pit
# and the rule set, to the problem in one line, or None.
Check = Callable[[list[Any], list[int], RuleSet], "str | None"]


@dataclass(frozen=True)
class PitField:
    """A snapshot field of one entry a pit, kept in the block `block` (one slot a pit).

    `codes` maps each value the snapshot may hold to the slot's value; `default(houses)` is a
    new game's list (and what a rule set that does not use the field must hold); slots past a
    smaller board's end hold `beyond`. `in_use` names the `engine.board` predicate that says
    whether a rule set uses the field, and `unused_why` says why one does not."""

    key: str
    block: str
    codes: Mapping[Any, int]
    default: Callable[[int], list[Any]]
    in_use: str
    unused_why: str
    checks: tuple[Check, ...] = ()
    beyond: int = 0

    @property
    def keys(self) -> tuple[str, ...]:
        return (self.key,)

    def stored(self, value: Any) -> int:
        return self.codes[value]

    def shown(self, slot: int) -> Any:
        """The snapshot's value of a slot's value."""
        return next(value for value, code in self.codes.items() if code == slot)


@dataclass(frozen=True)
class StateFields:
    """Snapshot fields over the whole state (the counters, the rounds, the setting out, ...),
    read and written together because their checks cross each other and the board.

    `read` and `write` name functions of `mancala_env.state_fields`: `read(snapshot, state,
    rules)` checks the fields against the rule set and the fields read before them and writes
    them into `state` (`SnapshotError` names what does not fit); `write(state, params)` gives
    them as a snapshot holds them, under `keys`. They are named rather than held because they
    read the layout, which is built from the declarations. `known_when` names the
    `engine.board` predicate under which a rule set's snapshots have the fields (always if
    None). A reader with `read_last` runs after every other and after the check that the seeds
    add up, as its checks read the whole position (the ending)."""

    keys: tuple[str, ...]
    read: str
    write: str
    known_when: str | None = None
    read_last: bool = False


@dataclass(frozen=True)
class Mechanic:
    """A mechanic's bookkeeping: its state blocks in the state's order, its snapshot fields
    (one entry a pit, or over the whole state), and its numbers of the observation
    (`observation(pits)`, given the pits' names in the observer's order) when the
    `engine.board` predicate `observed` holds (always if None)."""

    name: str
    blocks: tuple[Block, ...]
    snapshot_fields: tuple[PitField | StateFields, ...] = ()
    observation: Callable[[list[str]], list[Number]] | None = None
    observed: str | None = None
