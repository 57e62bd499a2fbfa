"""Stores and exports as untrusted input: `export` and `replay` read without writing, and every
odd file, record or store location gets a one-line error that names the problem."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import tracemalloc
from pathlib import Path

import pytest

from mancala_env.agents.tournament import GameStore, StoreError, TournamentConfig, run_tournament
from mancala_env.agents.tournament.store import MAX_FIELD_BYTES
from mancala_env.cli import main

CONFIG = TournamentConfig("ayoayo", ("random", "greedy"), games_per_pair=2)
# a folder in which no user, root included, can create a file
UNWRITABLE_FOLDER = Path("/proc")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def store(tmp_path) -> Path:
    """A real store of two games."""
    db = tmp_path / "t.sqlite"
    run_tournament(CONFIG, db=db, progress=False)
    return db


def change(db: Path, sql: str, *parameters) -> Path:
    with sqlite3.connect(db) as connection:
        connection.execute(sql, parameters)
    connection.close()
    return db


def folder(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in path.iterdir() if p.is_file()}


def test_export_and_replay_change_nothing_in_or_beside_the_store(store, capsys):
    # a store another tool has taken out of write-ahead-log mode: reading must not put it back
    connection = sqlite3.connect(store)
    connection.execute("PRAGMA journal_mode=DELETE")
    connection.close()
    before = folder(store.parent)
    status, out, err = run(capsys, "export", store)
    assert status == 0, err
    assert len(out.splitlines()) == 2
    status, out, err = run(capsys, "replay", store, 1, "--no-step", "--no-color")
    assert status == 0 and "result: player_0" in out, err
    assert folder(store.parent) == before  # the same files, byte for byte


def test_export_of_a_missing_file_creates_nothing(tmp_path, capsys):
    status, _, err = run(capsys, "export", tmp_path / "nosuch.sqlite")
    assert status == 2 and f"argument db: {tmp_path / 'nosuch.sqlite'}: no such file" in err
    assert list(tmp_path.iterdir()) == []


def test_a_store_on_read_only_media_is_replayed_and_exported(store, capsys):
    # SQLite cannot create the write-ahead log's files beside the store, as on read-only media
    store.with_name(store.name + "-wal").mkdir()
    store.with_name(store.name + "-shm").mkdir()
    status, out, err = run(capsys, "export", store)
    assert status == 0 and len(out.splitlines()) == 2, err
    status, out, err = run(capsys, "replay", store, 2, "--no-step", "--no-color")
    assert status == 0 and "result: player_0" in out, err


def plain_sqlite(db: Path) -> Path:
    """An SQLite file of another program."""
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    connection.close()
    return db


def other_schema(db: Path, games_columns: str) -> Path:
    """A file with the store's version mark and tables of other columns."""
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE tournaments (key TEXT, config TEXT, created REAL)")
        connection.execute(f"CREATE TABLE games ({games_columns})")
        connection.execute("PRAGMA user_version=1")
    connection.close()
    return db


STORE_COLUMNS = (
    "tournament, game_index, variant, options, agent_0, agent_1, seed, opening, moves, "
    "first_player, winner, score_0, score_1, length, seconds, think_0, think_1, end_reason, "
    "finished"
)


def record_line(**changes) -> str:
    record = {
        "id": 1, "variant": "ayoayo", "options": {}, "seed": 3, "moves": [0], "agent_0": "a",
        "agent_1": "b", "length": 1, "winner": -1, "end_reason": "none",
    }  # fmt: skip
    return json.dumps({**record, **changes})


def write(db: Path, name: str, text: str | bytes) -> Path:
    path = db.with_name(name)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


# (command, the bad input as a function of a real store, what the error says)
BAD_INPUTS = [
    (
        ["export", "{db}"],
        lambda db: other_schema(db.with_name("o.sqlite"), "a, b"),
        "its games table lacks id, tournament",
    ),
    (
        ["export", "{db}"],
        lambda db: other_schema(db.with_name("o.sqlite"), STORE_COLUMNS),
        "its games table lacks id",
    ),
    (
        ["export", "{db}"],
        lambda db: change(db, "UPDATE games SET moves = '[1,' WHERE id = 2"),
        "game id 2: moves is not JSON",
    ),
    (
        ["export", "{db}"],
        lambda db: change(db, "UPDATE games SET agent_0 = x'00ff' WHERE id = 1"),
        "game id 1: agent_0 holds bytes",
    ),
    (
        ["export", "{db}"],
        lambda db: plain_sqlite(db.with_name("p.sqlite")),
        "p.sqlite is not a tournament store: it holds notes",
    ),
    (["export", "{db}"], lambda db: db.parent, "is a folder; name a file"),
    (
        ["export", "{db}", "--tournament", "nope"],
        lambda db: db,
        f"holds no tournament 'nope'; its tournaments: {CONFIG.key}",
    ),
    (
        ["export", "{db}"],
        lambda db: write(db, "j.sqlite", b"SQLite format 3\0" + b"\x07" * 200),
        "is not a tournament store",
    ),
    (
        ["replay", "{db}", "1"],
        lambda db: change(db, "UPDATE games SET moves = '{\"a\": 1}'"),
        "moves must be a list",
    ),
    (
        ["replay", "{db}", "1"],
        lambda db: change(db, "UPDATE games SET moves = '[0, \"x\"]'"),
        "move 2 must be an integer action",
    ),
    (
        ["replay", "{db}", "1"],
        lambda db: change(db, "UPDATE games SET moves = '[0, 99]'"),
        "the record's move 2 (99) cannot be played",
    ),
    (
        ["replay", "{db}", "1"],
        lambda db: change(db, "UPDATE games SET options = '{\"stall_limit\": -5}'"),
        "not a game record: ",
    ),
    (
        ["replay", "{db}", "1"],
        lambda db: change(db, "UPDATE games SET options = '{\"stall_limit\": 1000000000000}'"),
        "not a game record: ",
    ),
    (
        ["replay", "{db}", "1"],
        lambda db: change(db, "UPDATE games SET variant = 'chess'"),
        "unknown variant 'chess'",
    ),
    (["replay", "{db}", str(10**30)], lambda db: db, f"has no game with id {10**30}"),
    (["replay", "{db}", "1", "--delay", "-1"], lambda db: db, "--delay: must be a number from 0"),
    (["replay", "{db}", "1", "--delay", "inf"], lambda db: db, "--delay: must be a number from 0"),
    (["replay", "{db}", "1", "--delay", "1e300"], lambda db: db, "to 3,600, got '1e300'"),
    (["replay", "{db}"], lambda db: db.parent, "is a folder; name a file"),
    (["export", "{db}", "--out", "{db}"], lambda db: db, "--out: {db} is the db it reads"),
    (
        ["replay", "{db}", "1"],
        lambda db: write(db, "g.jsonl", record_line() + "\n[1, 2]\n"),
        "line 2 is not a game record: a JSON object, not list",
    ),
    (
        ["replay", "{db}"],
        lambda db: write(db, "g.jsonl", "7\n"),
        "line 1 is not a game record: a JSON object, not int",
    ),
    (
        ["replay", "{db}"],
        lambda db: write(db, "g.jsonl", record_line(agent_1=None)),
        "agent_1 must be text, got None",
    ),
    (
        ["replay", "{db}"],
        lambda db: write(db, "g.jsonl", record_line(seed=True)),
        "seed must be an integer, got True",
    ),
    (
        ["replay", "{db}"],
        lambda db: write(db, "g.jsonl", json.dumps({"variant": "oware"})),
        "is not a game record: it has no 'options'",
    ),
    (
        ["replay", "{db}", "1"],
        lambda db: write(db, "corrupt.sqlite", os.urandom(4096)),
        "is neither a tournament store (SQLite) nor JSON lines",
    ),
    (
        ["replay", "{db}", "1"],
        lambda db: write(db, "g.jsonl", record_line() + "\n{oops\n"),
        "g.jsonl, line 2 is not JSON",
    ),
    (
        ["replay", "{db}"],
        lambda db: write(db, "g.jsonl", record_line(variant="\x1b]0;owned\x07\x1b[2J")),
        "unknown variant '\\x1b]0;owned\\x07\\x1b[2J'",
    ),
    (
        ["replay", "{db}"],
        lambda db: write(db, "g.jsonl", record_line(winner=99)),
        "winner must be one of -1, 0, 1 (-1: a draw), got 99",
    ),
    (["tournament", "oware", "--db", "{db}"], lambda db: db.parent, "is a folder, not a store"),
    (
        ["tournament", "oware", "--db", "{db}"],
        lambda db: write(db, "notes.txt", "mine"),
        "notes.txt is not a tournament store: not an SQLite file",
    ),
    (
        ["tournament", "oware", "--db", "{db}"],
        lambda db: UNWRITABLE_FOLDER / "t.sqlite",
        f"cannot create a store at {UNWRITABLE_FOLDER / 't.sqlite'}",
    ),
]


@pytest.mark.parametrize(("argv", "make", "message"), BAD_INPUTS)
def test_a_bad_store_record_or_place_gets_a_one_line_error(store, capsys, argv, make, message):
    path = make(store)
    argv = [str(path) if a == "{db}" else a for a in argv]
    message = message.replace("{db}", str(path))
    if argv[0] == "tournament":
        argv += ["--agents", "random", "greedy", "--games-per-pair", "2", "--no-progress"]
    status, _, err = run(capsys, *argv)
    assert status == 2, err
    assert message in err
    assert len(err.strip().splitlines()) == 1, err


def test_a_full_disk_is_named_not_a_traceback(tmp_path, capsys, monkeypatch):
    opened = GameStore._open_for_writing

    def full_after_setting_up(self):  # SQLite's own "disk full", from a page limit
        db = opened(self)
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages}")
        return db

    monkeypatch.setattr(GameStore, "_open_for_writing", full_after_setting_up)
    db = tmp_path / "t.sqlite"
    status, _, err = run(capsys, "tournament", "oware", "--agents", "random", "greedy",
                         "--games-per-pair", "40", "--workers", "1", "--db", db,
                         "--no-progress")  # fmt: skip
    assert status == 2
    assert f"cannot write to the store {db}: database or disk is full" in err
    assert len(err.strip().splitlines()) == 1, err


def test_a_store_opened_read_only_refuses_writes(store):
    with GameStore(store, read_only=True) as read_only:
        assert len(read_only.games()) == 2
        with pytest.raises(StoreError, match="cannot write to the store .* readonly"):
            read_only.add_tournament(TournamentConfig("oware", ("random", "greedy")))


def test_replay_prints_agent_names_escaped(tmp_path, capsys):
    games = write(tmp_path / "x", "g.jsonl", record_line(agent_0="evil\x1b[2J\x07", agent_1="ok"))
    status, out, err = run(capsys, "replay", games, "--no-step", "--no-color")
    assert status == 0, err
    assert "\x1b" not in out and "\x07" not in out
    assert "player_0 is evil\\x1b[2J\\x07, player_1 is ok" in out


def tournament_argv(db: Path) -> list[str]:
    return ["tournament", "oware", "--agents", "random", "greedy", "--games-per-pair", "2",
            "--workers", "1", "--no-progress", "--db", str(db)]  # fmt: skip


def test_a_tournament_refuses_an_sqlite_file_of_another_program(tmp_path, capsys):
    notes = plain_sqlite(tmp_path / "notes.sqlite")
    before = folder(tmp_path)
    status, _, err = run(capsys, *tournament_argv(notes))
    assert status == 2, err
    assert "notes.sqlite is not a tournament store: it holds notes" in err
    assert len(err.strip().splitlines()) == 1, err
    assert folder(tmp_path) == before


def test_a_store_at_rest_is_one_file_and_readers_add_none(store, capsys):
    """The writer folds its log back when it closes; `export` and `replay` then read the
    store without creating its log files beside it."""
    assert sorted(folder(store.parent)) == [store.name]
    before = folder(store.parent)
    assert run(capsys, "export", store)[0] == 0
    assert run(capsys, "replay", store, 1, "--no-step", "--no-color")[0] == 0
    assert folder(store.parent) == before


def test_a_store_left_in_log_mode_is_read_without_log_files(store, capsys):
    """A store whose writer did not fold its log back (an older version of this code): readers
    read it as it is, creating nothing beside it."""
    connection = sqlite3.connect(store)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.close()
    before = folder(store.parent)
    assert sorted(before) == [store.name] and before[store.name][18] == 2
    status, out, err = run(capsys, "export", store)
    assert status == 0 and len(out.splitlines()) == 2, err
    assert folder(store.parent) == before


def test_a_store_that_cannot_be_written_is_refused_before_it_is_touched(store, capsys, monkeypatch):
    """A read-only store (its mode, as root sees no file as read-only, given by `os.access`)
    is refused with nothing created beside it."""
    from mancala_env.agents.tournament import store as store_module

    real_access = os.access
    monkeypatch.setattr(
        store_module.os,
        "access",
        lambda path, mode: Path(path) != store and real_access(path, mode),
    )
    before = folder(store.parent)
    status, _, err = run(capsys, *tournament_argv(store))
    assert status == 2 and f"cannot write to the store {store}: {store} is read-only" in err
    assert folder(store.parent) == before


def test_a_refused_damaged_store_is_left_byte_for_byte(store, capsys):
    """A store whose games table is damaged is refused before a byte of it is written (SQLite
    would first switch it to log mode and count a change in its header)."""
    with sqlite3.connect(store) as connection:
        (root,) = connection.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'games'"
        ).fetchone()
        (size,) = connection.execute("PRAGMA page_size").fetchone()
    connection.close()
    data = bytearray(store.read_bytes())
    data[(root - 1) * size : (root - 1) * size + 8] = b"\xff" * 8  # the page's header
    store.write_bytes(bytes(data))
    before = folder(store.parent)
    status, _, err = run(capsys, *tournament_argv(store))
    assert status == 2 and "not a tournament store" in err, err
    assert len(err.strip().splitlines()) == 1, err
    assert folder(store.parent) == before


def test_replay_prints_nothing_of_a_record_with_an_unknown_variant(tmp_path, capsys):
    """A variant field that would drive the terminal is refused before anything is printed."""
    games = write(tmp_path / "x", "g.jsonl", record_line(variant="\x1b]0;owned\x07\x1b[2J"))
    status, out, err = run(capsys, "replay", games, "--no-step", "--no-color")
    assert status == 2 and out == ""
    assert "\x1b" not in err and "\x07" not in err


@pytest.mark.skipif(sys.version_info < (3, 11), reason="sqlite3 sets SQLite's limits from 3.11")
@pytest.mark.parametrize("argv", [["export", "{db}"], ["replay", "{db}", "1"]])
def test_a_store_field_over_its_bound_is_refused_before_it_is_read(store, capsys, argv):
    """A game whose moves hold 20 MB (no game's hold more than some kB) is refused by SQLite
    before the field is in memory, in one line, and the store is left as it was."""
    change(store, "UPDATE games SET moves = '[' || printf('%.*c', ?, '0') || ']'", 20 * 2**20)
    before = folder(store.parent)
    tracemalloc.start()
    status, _, err = run(capsys, *[str(store) if a == "{db}" else a for a in argv])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert status == 2 and "string or blob too big" in err, err
    assert len(err.strip().splitlines()) == 1, err
    assert peak < MAX_FIELD_BYTES and folder(store.parent) == before
