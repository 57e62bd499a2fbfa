"""The tournament store: one SQLite file holding tournaments and every finished game.

Each game is written in its own transaction the moment it finishes, so a tournament killed at
any point (even with SIGKILL) loses at most the games that were still being played. A game is
keyed by its tournament and its number: writing a game twice keeps the first copy, so several
processes may run the same tournament on one file (SQLite's write-ahead log and lock timeout
make their writes safe) and still end with each game exactly once.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .schedule import TournamentConfig

SCHEMA_VERSION = 1
_LOCK_TIMEOUT = 60  # seconds a process waits for another that holds the file
SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    key TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    tournament TEXT NOT NULL REFERENCES tournaments (key),
    game_index INTEGER NOT NULL,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,
    agent_0 TEXT NOT NULL,
    agent_1 TEXT NOT NULL,
    seed INTEGER NOT NULL,
    opening TEXT NOT NULL,
    moves TEXT NOT NULL,
    first_player INTEGER NOT NULL,
    winner INTEGER NOT NULL,
    score_0 INTEGER NOT NULL,
    score_1 INTEGER NOT NULL,
    length INTEGER NOT NULL,
    seconds REAL NOT NULL,
    think_0 REAL NOT NULL,
    think_1 REAL NOT NULL,
    end_reason TEXT NOT NULL,
    finished REAL NOT NULL,
    UNIQUE (tournament, game_index)
);
"""
_JSON_COLUMNS = ("options", "opening", "moves")
_COLUMNS = (
    "tournament",
    "game_index",
    "variant",
    "options",
    "agent_0",
    "agent_1",
    "seed",
    "opening",
    "moves",
    "first_player",
    "winner",
    "score_0",
    "score_1",
    "length",
    "seconds",
    "think_0",
    "think_1",
    "end_reason",
)


class StoreError(ValueError):
    """A file that is not a tournament store, or a game or tournament it does not hold."""


class GameStore:
    """A tournament store at `path` (created when missing)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if self.path.parent and not self.path.parent.exists():
            raise StoreError(f"cannot create {self.path}: folder {self.path.parent} does not exist")
        self._db = sqlite3.connect(self.path, timeout=_LOCK_TIMEOUT, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        deadline = time.monotonic() + _LOCK_TIMEOUT
        while True:
            try:
                self._set_up()
                return
            except sqlite3.OperationalError as error:
                # Setting up (the switch to write-ahead logging above all) can find the file
                # locked by another process setting it up, without SQLite waiting for it.
                if "locked" not in str(error) or time.monotonic() > deadline:
                    self._db.close()
                    raise StoreError(f"cannot open the store {self.path}: {error}") from None
                time.sleep(0.05)
            except sqlite3.DatabaseError as error:
                self._db.close()
                raise StoreError(f"{self.path} is not a tournament store: {error}") from None

    def _set_up(self) -> None:
        """Check the file's version and create the tables (once)."""
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, SCHEMA_VERSION):
            raise StoreError(
                f"{self.path} is a tournament store of version {version}; "
                f"this mancala_env reads version {SCHEMA_VERSION}"
            )
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)
        self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        self._db.execute("SELECT 1 FROM games LIMIT 1").fetchall()

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- tournaments --------------------------------------------------------------------------
    def add_tournament(self, config: TournamentConfig) -> str:
        """Record `config` (once); its key names its games."""
        self._db.execute(
            "INSERT OR IGNORE INTO tournaments (key, config, created) VALUES (?, ?, ?)",
            (config.key, json.dumps(config.to_json(), sort_keys=True), time.time()),
        )
        return config.key

    def tournaments(self) -> list[tuple[str, TournamentConfig]]:
        rows = self._db.execute("SELECT key, config FROM tournaments ORDER BY created").fetchall()
        return [(row["key"], TournamentConfig.from_json(json.loads(row["config"]))) for row in rows]

    # ---- games -----------------------------------------------------------------------------
    def add_game(self, record: dict[str, Any]) -> bool:
        """Write a finished game; False if the store already held it (the first copy stays)."""
        values = [json.dumps(record[c]) if c in _JSON_COLUMNS else record[c] for c in _COLUMNS]
        cursor = self._db.execute(
            f"INSERT OR IGNORE INTO games ({', '.join(_COLUMNS)}, finished) "
            f"VALUES ({', '.join('?' * len(_COLUMNS))}, ?)",
            (*values, time.time()),
        )
        return cursor.rowcount == 1

    def finished(self, tournament: str) -> set[int]:
        """The numbers of the games of `tournament` the store holds."""
        rows = self._db.execute("SELECT game_index FROM games WHERE tournament = ?", (tournament,))
        return {row[0] for row in rows}

    def has_game(self, tournament: str, index: int) -> bool:
        row = self._db.execute(
            "SELECT 1 FROM games WHERE tournament = ? AND game_index = ?", (tournament, index)
        ).fetchone()
        return row is not None

    def games(self, tournament: str | None = None) -> list[dict[str, Any]]:
        """The game records of `tournament` (of every tournament when None), in game order."""
        if tournament is None:
            rows = self._db.execute("SELECT * FROM games ORDER BY id")
        else:
            rows = self._db.execute(
                "SELECT * FROM games WHERE tournament = ? ORDER BY game_index", (tournament,)
            )
        return [_record(row) for row in rows]

    def game(self, game_id: int) -> dict[str, Any]:
        """The game with row id `game_id` (the id `mancala replay` takes)."""
        row = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            count = self._db.execute("SELECT COUNT(*), MIN(id), MAX(id) FROM games").fetchone()
            held = f"ids {count[1]}..{count[2]}" if count[0] else "no games"
            raise StoreError(f"{self.path} has no game with id {game_id}; it holds {held}")
        return _record(row)

    def export_jsonl(self, tournament: str | None = None) -> Iterator[str]:
        """Each game as one line of JSON."""
        for record in self.games(tournament):
            yield json.dumps(record, sort_keys=True)


def _record(row: sqlite3.Row) -> dict[str, Any]:
    record = dict(row)
    for column in _JSON_COLUMNS:
        record[column] = json.loads(record[column])
    return record
