"""The game record: what `play_game` returns, a row of the store's ``games`` table and a line
of ``mancala export``, declared once.

The store's table and the columns it writes and reads are derived from `GameRecord`'s fields:
an ``int`` field is an ``INTEGER`` column, a ``float`` one ``REAL``, a ``str`` one ``TEXT``, and
a list or dict is kept as JSON text. A new field is a new column, so it needs a new
`store.SCHEMA_VERSION` (stores of the old version are refused, not misread).
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass, field
from typing import Any

_SQL_TYPES = {int: "INTEGER", float: "REAL", str: "TEXT"}


@dataclass(frozen=True)
class GameRecord:
    """One finished game of a tournament."""

    tournament: str = field(metadata={"references": "tournaments (key)"})
    game_index: int  # the game's number in the tournament's schedule
    variant: str
    options: dict[str, Any]  # every rule option, defaults too
    agent_0: str  # the spec of player_0's agent
    agent_1: str
    seed: int  # the seed of the game's start
    # the board the game began from (`starts.Start`: pits and to_move), or {} for the rule set's
    # starting position set out from `seed`
    start: dict[str, Any]
    opening: list[int]  # the moves played before the agents took over
    moves: list[int]  # every move of the game, the opening's first
    first_player: int
    winner: int  # 0 or 1; -1 for a draw
    score_0: int  # player_0's store at the end (adjudicated: the seeds the database gives)
    score_1: int
    length: int  # the number of moves
    seconds: float  # the whole game, wall clock
    think_0: float  # the seconds player_0's agent took to choose its moves
    think_1: float
    # the rule set's end reason, ``illegal_action`` for a forfeit, or ``adjudicated`` where the
    # tournament's endgame database ended the game (its moves stop at that position)
    end_reason: str

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _is_json(hint: Any) -> bool:
    return (typing.get_origin(hint) or hint) in (list, dict)


_HINTS = typing.get_type_hints(GameRecord)
COLUMNS = tuple(f.name for f in dataclasses.fields(GameRecord))
JSON_COLUMNS = tuple(name for name in COLUMNS if _is_json(_HINTS[name]))


def column_definitions() -> list[str]:
    """The SQL column definitions of the record's fields, in field order."""
    definitions = []
    for column in dataclasses.fields(GameRecord):
        hint = _HINTS[column.name]
        sql = "TEXT" if _is_json(hint) else _SQL_TYPES[hint]
        references = column.metadata.get("references")
        definitions.append(
            f"{column.name} {sql} NOT NULL" + (f" REFERENCES {references}" if references else "")
        )
    return definitions
