"""Stepping through a recorded game: from a tournament store or a JSON-lines export."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mancala_env import Game

from .match import start
from .store import GameStore, StoreError


def load_record(source: str | Path, game_id: int | None = None) -> dict[str, Any]:
    """The game `game_id` of a store (an SQLite file) or of a JSON-lines export (each line
    one record, as `mancala export` writes); a file holding one record needs no id."""
    path = Path(source)
    if not path.is_file():
        raise StoreError(f"no such file: {path}")
    with path.open("rb") as file:
        is_sqlite = file.read(16) == b"SQLite format 3\x00"
    if is_sqlite:
        if game_id is None:
            raise StoreError(f"{path} is a tournament store: give the id of a game in it")
        with GameStore(path) as store:
            return store.game(game_id)
    records = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise StoreError(f"{path}, line {number} is not JSON: {error}") from None
    if game_id is None:
        if len(records) != 1:
            raise StoreError(f"{path} holds {len(records)} games: give the id of one")
        return records[0]
    for record in records:
        if record.get("id") == game_id:
            return record
    raise StoreError(f"{path} has no game with id {game_id}")


def replay(record: dict[str, Any]) -> Iterator[tuple[Game, int | None, int | None]]:
    """The positions of a recorded game: first (game, None, None) at the start, then
    (game, player, action) after each move; the game object is the same, moved on."""
    try:
        game = start(record)
    except (KeyError, TypeError, ValueError) as error:
        raise StoreError(f"not a game record: {error}") from None
    yield game, None, None
    for action in record["moves"]:
        player = game.to_move
        game.step(action)
        yield game, player, action
