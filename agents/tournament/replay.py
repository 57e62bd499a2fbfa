"""Stepping through a recorded game: from a tournament store or a JSON-lines export.

Both are read as untrusted input: the store is opened read-only, and a record is checked field
by field before any of it reaches the engine; a bad one is a StoreError naming the field.
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mancala_env import Game
from mancala_env.endgame.adjudicate import END_REASON as ADJUDICATED
from mancala_env.readers import ReadError, open_regular, parse_json
from mancala_env.variants import get_variant

from .match import start
from .store import SQLITE_HEADER, GameStore, StoreError

# what replaying needs of a record, and the type each field must have
RECORD_FIELDS: dict[str, type] = {
    "variant": str,
    "options": dict,
    "seed": int,
    "moves": list,
    "agent_0": str,
    "agent_1": str,
    "length": int,
    "winner": int,
    "end_reason": str,
}
WINNERS = (-1, 0, 1)  # a draw, player_0, player_1
_KIND_WORDS = {str: "text", dict: "an object", int: "an integer", list: "a list"}


def check_record(record: Any, where: str) -> dict[str, Any]:
    """`record` if it has every field a replay reads, each of the right type (the moves
    integers); otherwise a StoreError that names `where` and the field."""
    if not isinstance(record, dict):
        kind = type(record).__name__
        raise StoreError(f"{where} is not a game record: a JSON object, not {kind}")
    for name, kind in RECORD_FIELDS.items():
        if name not in record:
            raise StoreError(f"{where} is not a game record: it has no {name!r}")
        value = record[name]
        if isinstance(value, bool) or not isinstance(value, kind):
            raise StoreError(
                f"{where}: {name} must be {_KIND_WORDS[kind]}, got {reprlib.repr(value)}"
            )
    try:
        get_variant(record["variant"])  # its name is printed: an unknown one never is
    except ValueError as error:
        raise StoreError(f"{where}: {error}") from None
    if record["winner"] not in WINNERS:
        raise StoreError(
            f"{where}: winner must be one of {', '.join(map(str, WINNERS))} (-1: a draw), "
            f"got {reprlib.repr(record['winner'])}"
        )
    if record["end_reason"] == ADJUDICATED:  # its result is the record's, not the last position's
        for name in ("score_0", "score_1"):
            value = record.get(name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise StoreError(
                    f"{where}: an adjudicated game's {name} must be an integer, got "
                    f"{reprlib.repr(value)}"
                )
    for number, action in enumerate(record["moves"], 1):
        if isinstance(action, bool) or not isinstance(action, int):
            raise StoreError(
                f"{where}: move {number} must be an integer action, got {reprlib.repr(action)}"
            )
    return record


MAX_RECORD_BYTES = 16 * 1024 * 1024  # a line of JSON: the longest game holds some kB
MAX_EXPORT_BYTES = 4 * 1024**3  # an export of a million games of some kB
MAX_EXPORT_LINES = 1_000_000  # ten tournaments of the most games one plays


def _jsonl_records(path: Path) -> Iterator[dict[str, Any]]:
    """The records of a JSON-lines file, a line at a time; the first line decides whether it
    is one at all. A file of more than `MAX_EXPORT_BYTES` is refused unread, one of more than
    `MAX_EXPORT_LINES` lines at the line past them."""
    try:
        file = open_regular(path, MAX_EXPORT_BYTES)
    except ReadError as error:
        raise StoreError(str(error)) from None
    with file:
        for number, raw in enumerate(iter(lambda: file.readline(MAX_RECORD_BYTES + 1), b""), 1):
            if number > MAX_EXPORT_LINES:
                raise StoreError(f"{path} has over {MAX_EXPORT_LINES:,} lines; no export has more")
            if not raw.strip():
                continue
            try:
                if len(raw) > MAX_RECORD_BYTES:
                    raise ReadError(path, f"is over {MAX_RECORD_BYTES:,} bytes")
                record = parse_json(raw, path)
            except ReadError as error:
                reason = f"line {number} {error.problem}"
                if number == 1:
                    raise StoreError(
                        f"{path} is neither a tournament store (SQLite) nor JSON lines: {reason}"
                    ) from None
                raise StoreError(f"{path}, {reason}") from None
            if not isinstance(record, dict):
                raise StoreError(
                    f"{path}, line {number} is not a game record: a JSON object, "
                    f"not {type(record).__name__}"
                )
            yield record


def load_record(source: str | Path, game_id: int | None = None) -> dict[str, Any]:
    """The game `game_id` of a store (an SQLite file, read only) or of a JSON-lines export
    (each line one record, as `mancala export` writes); a file holding one record needs no id."""
    path = Path(source)
    if not path.is_file():
        raise StoreError(f"no such file: {path}")
    with path.open("rb") as file:
        is_sqlite = file.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    if is_sqlite:
        if game_id is None:
            raise StoreError(f"{path} is a tournament store: give the id of a game in it")
        with GameStore(path, read_only=True) as store:
            return check_record(store.game(game_id), f"{path}, game id {game_id}")
    found, count = None, 0
    for record in _jsonl_records(path):  # every line read: a bad one is named, wherever it is
        count += 1
        if found is None and (game_id is None or record.get("id") == game_id):
            found = record
    if game_id is None:
        if count != 1:
            raise StoreError(f"{path} holds {count} games: give the id of one")
        return check_record(found, str(path))
    if found is None:
        raise StoreError(f"{path} has no game with id {game_id}")
    return check_record(found, f"{path}, game id {game_id}")


def replay(record: dict[str, Any]) -> Iterator[tuple[Game, int | None, int | None]]:
    """The positions of a recorded game: first (game, None, None) at the start, then
    (game, player, action) after each move; the game object is the same, moved on."""
    check_record(record, "the record")
    try:
        game = start(record)
    except (TypeError, ValueError, OverflowError) as error:
        raise StoreError(f"not a game record: {error}") from None
    yield game, None, None
    for number, action in enumerate(record["moves"], 1):
        player = game.to_move
        try:
            game.step(action)
        except ValueError as error:  # IllegalActionError among them
            reason = f"the record's move {number} ({action}) cannot be played: {error}"
            raise StoreError(reason) from None
        yield game, player, action
