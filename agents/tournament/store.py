"""The tournament store: one SQLite file holding tournaments and every finished game.

Each game is written in its own transaction the moment it finishes, so a tournament killed at
any point (even with SIGKILL) loses at most the games that were still being played. A game is
keyed by its tournament and its number: writing a game twice keeps the first copy, so several
processes may run the same tournament on one file (SQLite's write-ahead log and lock timeout
make their writes safe) and still end with each game exactly once.

A store of version 1 (before games could begin from a start board) is read as it is, its games
from the rule set's start (``start`` {}), and a writer adds the column in the transaction that
opens it (version 2). Files that are not ours are left as they are: a writer reads an existing
file first, read-only, and refuses it (before writing a byte) unless it is a store, whole, or an
SQLite file holding nothing. The last writer to close a store folds the write-ahead log back into
it, so a store at rest is one file, and a reader opens it read-only without creating files
beside it.
"""

from __future__ import annotations

import json
import os
import reprlib
import sqlite3
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from mancala_env.outputs import refusal
from mancala_env.readers import parse_json

from .record import COLUMNS, JSON_COLUMNS, column_definitions
from .schedule import TournamentConfig

SCHEMA_VERSION = 2
# the columns a game record has gained since version 1, each with what an older game holds
ADDED_COLUMNS = {"start": "{}"}
SQLITE_HEADER = b"SQLite format 3\x00"  # how every SQLite file begins
_HEADER_JOURNAL = 18  # the header byte that is 2 in a file in write-ahead-log mode
_LOCK_TIMEOUT = 60  # seconds a process waits for another that holds the file
MAX_FIELD_BYTES = 16 * 1024 * 1024  # a field read or written: the longest game's moves are kB
_GAME_COLUMNS = "".join(f"    {definition},\n" for definition in column_definitions())
SCHEMA = f"""
CREATE TABLE IF NOT EXISTS tournaments (
    key TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
{_GAME_COLUMNS}    finished REAL NOT NULL,
    UNIQUE (tournament, game_index)
);
"""
_TABLES = {
    "tournaments": ("key", "config", "created"),
    "games": ("id", *COLUMNS, "finished"),
}


def _bound_fields(db: sqlite3.Connection) -> None:
    """Rows as `sqlite3.Row`, and no field of more than `MAX_FIELD_BYTES` read or written: SQLite
    refuses a longer one (``string or blob too big``) before it is in memory, so a store whose
    field holds a gigabyte is refused as a damaged one is (Python 3.11 and later: 3.10's
    sqlite3 cannot set the bound)."""
    db.row_factory = sqlite3.Row
    if hasattr(db, "setlimit"):
        db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_FIELD_BYTES)


class StoreError(ValueError):
    """A file that is not a tournament store, or a game or tournament it does not hold."""


class GameStore:
    """A tournament store at `path` (created when missing), or with ``read_only=True`` an
    existing store opened for reading only: nothing in the file or beside it is changed, and a
    missing file or one that is not a store is an error."""

    def __init__(self, path: str | Path, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        if self.path.is_dir():
            raise StoreError(
                f"{self.path} is a folder, not a store: name a file, "
                f"such as {self.path / 'tournaments.sqlite'}"
            )
        if read_only:
            self._db = self._open_read_only()
        else:
            self._db = self._open_for_writing()
        with self._closed_on_failure(self._db):
            self._check_tables()

    @contextmanager
    def _closed_on_failure(self, db: sqlite3.Connection) -> Iterator[None]:
        """Close `db` when the block fails; an SQLite error there means the file is not a
        store."""
        try:
            yield
        except sqlite3.DatabaseError as error:
            db.close()
            raise StoreError(f"{self.path} is not a tournament store: {error}") from None
        except StoreError:
            db.close()
            raise

    def _open_for_writing(self) -> sqlite3.Connection:
        if self.path.parent and not self.path.parent.exists():
            raise StoreError(f"cannot create {self.path}: folder {self.path.parent} does not exist")
        not_a_file = refusal(self.path)  # SQLite would write through it and beside it
        if not_a_file is not None:
            raise StoreError(not_a_file)
        if self.path.exists() and self.path.stat().st_size > 0:
            self._check_before_writing()
        folder = self.path.parent if str(self.path.parent) else Path(".")
        for where in (self.path, folder):  # SQLite's log and lock files go beside the store
            if where.exists() and not os.access(where, os.W_OK):
                raise StoreError(f"cannot write to the store {self.path}: {where} is read-only")
        verb = "open the store" if self.path.exists() else "create a store at"
        try:
            db = sqlite3.connect(self.path, timeout=_LOCK_TIMEOUT, isolation_level=None)
        except sqlite3.Error as error:
            raise StoreError(f"cannot {verb} {self.path}: {error}") from None
        _bound_fields(db)
        deadline = time.monotonic() + _LOCK_TIMEOUT
        while True:
            with self._closed_on_failure(db):
                try:
                    self._set_up(db)
                    return db
                except sqlite3.OperationalError as error:
                    # Setting up (the switch to write-ahead logging above all) can find the file
                    # locked by another process setting it up, without SQLite waiting for it.
                    if "locked" not in str(error) or time.monotonic() > deadline:
                        raise StoreError(f"cannot {verb} {self.path}: {error}") from None
            time.sleep(0.05)

    def _check_before_writing(self) -> None:
        """Refuse an existing file, before anything is written to it, unless it is a whole
        store or an SQLite file holding nothing (SQLite would take a short file of anything
        for an empty database; a damaged one can fail only after its header is written)."""
        with self.path.open("rb") as file:
            if file.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
                raise StoreError(f"{self.path} is not a tournament store: not an SQLite file")
        db = self._open_read_only()
        with self._closed_on_failure(db):
            if self._held(db):
                self._check_tables(db)
                for table in _TABLES:
                    db.execute(f"SELECT * FROM {table}").fetchall()
                (verdict,) = db.execute("PRAGMA quick_check").fetchone()
                if verdict != "ok":
                    raise StoreError(f"{self.path} is a damaged tournament store: {verdict}")
        db.close()

    @staticmethod
    def _held(db: sqlite3.Connection) -> list[str]:
        """The names of the tables, views and triggers in `db` (SQLite's own excepted)."""
        rows = db.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view', 'trigger') "
            "AND name NOT LIKE 'sqlite_%'"
        )
        return [row[0] for row in rows]

    def _set_up(self, db: sqlite3.Connection) -> None:
        """Check the file's version and create the tables (once), or add a version-1 store's
        missing columns, in one transaction: another process opening the file meanwhile finds
        none of them or all (a file with some of a store's tables is refused as another
        program's)."""
        self._check_version(db)
        db.execute("PRAGMA journal_mode=WAL")
        try:
            db.execute("BEGIN IMMEDIATE")
            if db.execute("PRAGMA user_version").fetchone()[0] == 1:
                for column, held in ADDED_COLUMNS.items():
                    db.execute(
                        f"ALTER TABLE games ADD COLUMN {column} TEXT NOT NULL DEFAULT '{held}'"
                    )
            for statement in SCHEMA.split(";"):
                db.execute(statement)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute("COMMIT")
        except sqlite3.Error:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        db.execute("SELECT 1 FROM games LIMIT 1").fetchall()

    def _open_read_only(self) -> sqlite3.Connection:
        """SQLite's read-only mode. A file in write-ahead-log mode with no log beside it (a
        store whose last writer did not fold the log back) is read as immutable, as it is
        where SQLite cannot create the shared-memory file such a file needs (read-only
        media): SQLite would otherwise create the log files beside it."""
        if not self.path.is_file():
            raise StoreError(f"no such file: {self.path}")
        uri = f"file:{quote(str(self.path.resolve()))}?mode=ro"
        queries = (uri, uri + "&immutable=1")
        with self.path.open("rb") as file:
            logged = file.read(_HEADER_JOURNAL + 1)[_HEADER_JOURNAL:] == b"\x02"
        if logged and not Path(f"{self.path}-wal").exists():
            queries = queries[1:]
        for query in queries:
            db = sqlite3.connect(query, uri=True, timeout=_LOCK_TIMEOUT, isolation_level=None)
            _bound_fields(db)
            with self._closed_on_failure(db):
                try:
                    self._check_version(db)
                    return db
                except sqlite3.OperationalError as error:
                    if "unable to open" not in str(error):
                        raise StoreError(f"cannot read the store {self.path}: {error}") from None
            db.close()  # SQLite could not open it this way: try the next
        raise StoreError(f"cannot read the store {self.path}: SQLite cannot open it")

    def _check_version(self, db: sqlite3.Connection) -> None:
        """A new file is version 0; a store is SCHEMA_VERSION, or 1 (read as it is, its games
        from the rule set's start; its tables are checked apart)."""
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, 1, SCHEMA_VERSION):
            raise StoreError(
                f"{self.path} is a tournament store of version {version}; "
                f"this mancala_env reads versions 1 and {SCHEMA_VERSION}"
            )

    def _check_tables(self, db: sqlite3.Connection | None = None) -> None:
        """The tables hold every column this code reads, and the file holds nothing else (a
        file of another program or another schema is named now, not when a query fails)."""
        db = self._db if db is None else db
        others = sorted(set(self._held(db)) - set(_TABLES))
        if others:
            raise StoreError(
                f"{self.path} is not a tournament store: it holds {', '.join(others)} "
                f"(a store holds only {', '.join(_TABLES)})"
            )
        old = db.execute("PRAGMA user_version").fetchone()[0] == 1  # before ADDED_COLUMNS
        for table, needed in _TABLES.items():
            found = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            missing = [
                column
                for column in needed
                if column not in found and not (old and column in ADDED_COLUMNS)
            ]
            if missing:
                what = f"its {table} table lacks {', '.join(missing)}"
                if not found:
                    what = f"it has no {table} table"
                raise StoreError(f"{self.path} is not a tournament store: {what}")

    def close(self) -> None:
        """Close the store; the last writer to close it folds the write-ahead log back into
        the file (another process still holding the store keeps the log)."""
        if not self.read_only:
            try:
                self._db.execute("PRAGMA busy_timeout=0")
                self._db.execute("PRAGMA journal_mode=DELETE")
            except sqlite3.Error:
                pass  # another connection holds the store: the last one folds the log
        self._db.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _execute(self, sql: str, parameters: tuple = ()) -> list[sqlite3.Row] | sqlite3.Cursor:
        """Run `sql`; a SELECT's rows come back as a list. SQLite's errors (a full disk, a
        damaged file, a read-only store written to) become a StoreError naming the store."""
        try:
            cursor = self._db.execute(sql, parameters)
            return cursor.fetchall() if sql.startswith("SELECT") else cursor
        except sqlite3.Error as error:
            verb = "read from" if sql.startswith("SELECT") else "write to"
            raise StoreError(f"cannot {verb} the store {self.path}: {error}") from None

    # ---- tournaments --------------------------------------------------------------------------
    def add_tournament(self, config: TournamentConfig) -> str:
        """Record `config` (once); its key names its games."""
        self._execute(
            "INSERT OR IGNORE INTO tournaments (key, config, created) VALUES (?, ?, ?)",
            (config.key, json.dumps(config.to_json(), sort_keys=True), time.time()),
        )
        return config.key

    def tournament_keys(self) -> list[str]:
        """The keys of the tournaments held, oldest first (reading no config: a config's agents
        would be loaded to check it)."""
        return [row[0] for row in self._execute("SELECT key FROM tournaments ORDER BY created")]

    def tournaments(self) -> list[tuple[str, TournamentConfig]]:
        rows = self._execute("SELECT key, config FROM tournaments ORDER BY created")
        found = []
        for row in rows:
            try:
                config = parse_json(row["config"], "its config")
                found.append((row["key"], TournamentConfig.from_json(config)))
            except (TypeError, ValueError) as error:
                raise StoreError(
                    f"{self.path}: tournament {row['key']!r} has a config this code cannot "
                    f"read: {error}"
                ) from None
        return found

    # ---- games -----------------------------------------------------------------------------
    def add_game(self, record: Mapping[str, Any]) -> bool:
        """Write a finished game (a `GameRecord`'s dict); False if the store already held it
        (the first copy stays)."""
        values = [json.dumps(record[c]) if c in JSON_COLUMNS else record[c] for c in COLUMNS]
        cursor = self._execute(
            f"INSERT OR IGNORE INTO games ({', '.join(COLUMNS)}, finished) "
            f"VALUES ({', '.join('?' * len(COLUMNS))}, ?)",
            (*values, time.time()),
        )
        return cursor.rowcount == 1

    def finished(self, tournament: str) -> set[int]:
        """The numbers of the games of `tournament` the store holds."""
        rows = self._execute("SELECT game_index FROM games WHERE tournament = ?", (tournament,))
        return {row[0] for row in rows}

    def has_game(self, tournament: str, index: int) -> bool:
        sql = "SELECT 1 FROM games WHERE tournament = ? AND game_index = ?"
        return bool(self._execute(sql, (tournament, index)))

    def games(self, tournament: str | None = None) -> list[dict[str, Any]]:
        """The game records of `tournament` (of every tournament when None), in game order."""
        if tournament is None:
            rows = self._execute("SELECT * FROM games ORDER BY id")
        else:
            sql = "SELECT * FROM games WHERE tournament = ? ORDER BY game_index"
            rows = self._execute(sql, (tournament,))
        return [self._record(row) for row in rows]

    def game(self, game_id: int) -> dict[str, Any]:
        """The game with row id `game_id` (the id `mancala replay` takes)."""
        rows = []
        if -(2**63) <= game_id < 2**63:  # SQLite's integers
            rows = self._execute("SELECT * FROM games WHERE id = ?", (game_id,))
        if not rows:
            (count,) = self._execute("SELECT COUNT(*), MIN(id), MAX(id) FROM games")
            held = f"ids {count[1]}..{count[2]}" if count[0] else "no games"
            raise StoreError(f"{self.path} has no game with id {game_id}; it holds {held}")
        return self._record(rows[0])

    def export_jsonl(self, tournament: str | None = None) -> Iterator[str]:
        """Each game as one line of JSON."""
        for record in self.games(tournament):
            yield json.dumps(record, sort_keys=True)

    def _record(self, row: sqlite3.Row) -> dict[str, Any]:
        """A row as a game record; a column that does not hold what a store writes there is
        named with the game's id."""
        record = dict(row)
        for column, value in record.items():
            if isinstance(value, bytes):
                raise StoreError(f"{self.path}: game id {row['id']}: {column} holds bytes")
        for column, held in ADDED_COLUMNS.items():  # a version-1 store's games
            record.setdefault(column, held)
        for column in JSON_COLUMNS:
            try:
                record[column] = parse_json(record[column], column)
            except (TypeError, ValueError):
                raise StoreError(
                    f"{self.path}: game id {row['id']}: {column} is not JSON: "
                    f"{reprlib.repr(record[column])}"
                ) from None
        return record
