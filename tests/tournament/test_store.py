"""The store: every game written once, bad files named, records that replay."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time

import pytest

from mancala_env.agents.tournament import (
    GameRecord,
    GameStore,
    StoreError,
    TournamentConfig,
    play_game,
    schedule,
)
from mancala_env.agents.tournament.record import COLUMNS
from mancala_env.agents.tournament.replay import load_record, replay

CONFIG = TournamentConfig("oware", ("random", "greedy"), games_per_pair=4, openings=1)


def test_a_game_written_twice_is_kept_once(tmp_path):
    record = play_game(schedule(CONFIG)[0])
    with GameStore(tmp_path / "t.sqlite") as store:
        store.add_tournament(CONFIG)
        assert store.add_game(record) is True
        assert store.add_game({**record, "winner": 1 - record["winner"]}) is False
        (kept,) = store.games(CONFIG.key)
        assert kept["winner"] == record["winner"] and kept["moves"] == record["moves"]
        assert store.finished(CONFIG.key) == {0}
        assert store.tournaments() == [(CONFIG.key, CONFIG)]


def test_a_record_holds_the_whole_game_and_replays_to_its_result(tmp_path):
    task = schedule(CONFIG)[1]
    record = play_game(task)
    assert record["agent_0"] == task.agents[0] and record["opening"] == list(task.opening)
    assert record["moves"][: len(task.opening)] == list(task.opening)
    assert record["length"] == len(record["moves"]) > len(task.opening)
    assert record["options"]["grand_slam"] == "no_capture"  # every option, defaults too
    assert record["seconds"] >= record["think_0"] + record["think_1"] > 0
    *_, (game, _, _) = replay(record)
    assert game.over
    assert [int(s) for s in game.stores] == [record["score_0"], record["score_1"]]
    assert (game.winner() if game.winner() is not None else -1) == record["winner"]
    assert game.snapshot()["end_reason"] == record["end_reason"]


def test_the_same_task_plays_the_same_game():
    task = schedule(CONFIG)[2]
    assert play_game(task)["moves"] == play_game(task)["moves"]


def test_an_agent_that_plays_an_illegal_move_forfeits(monkeypatch):
    from mancala_env.agents import GreedyAgent

    monkeypatch.setattr(GreedyAgent, "act", lambda self, game: 99)
    task = schedule(CONFIG)[0]  # random as player_0, greedy as player_1
    record = play_game(task)
    assert record["end_reason"] == "illegal_action"
    assert record["winner"] == task.agents.index("random")


def test_files_that_are_not_stores_are_named(tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database at all, just text" * 10)
    with pytest.raises(StoreError, match="is not a tournament store"):
        GameStore(junk)
    with pytest.raises(StoreError, match="does not exist"):
        GameStore(tmp_path / "missing" / "t.sqlite")
    newer = tmp_path / "newer.sqlite"
    sqlite3.connect(newer).execute("PRAGMA user_version=7").connection.close()
    with pytest.raises(StoreError, match="version 7"):
        GameStore(newer)


def test_game_lookup_and_export(tmp_path):
    db = tmp_path / "t.sqlite"
    with GameStore(db) as store:
        store.add_tournament(CONFIG)
        for task in schedule(CONFIG)[:2]:
            store.add_game(play_game(task))
        with pytest.raises(StoreError, match="has no game with id 9; it holds ids 1..2"):
            store.game(9)
        lines = list(store.export_jsonl())
    assert len(lines) == 2
    export = tmp_path / "games.jsonl"
    export.write_text("\n".join(lines) + "\n")
    assert load_record(export, 2) == load_record(db, 2)
    with pytest.raises(StoreError, match="holds 2 games: give the id of one"):
        load_record(export)
    with pytest.raises(StoreError, match="give the id of a game"):
        load_record(db)
    (tmp_path / "bad.jsonl").write_text("{not json\n")
    with pytest.raises(StoreError, match="line 1 is not JSON"):
        load_record(tmp_path / "bad.jsonl")


def test_an_export_too_long_is_refused_by_its_size_or_its_lines(tmp_path, monkeypatch):
    from mancala_env.agents.tournament import replay as module

    export = tmp_path / "games.jsonl"
    export.write_text("\n" * 5)
    monkeypatch.setattr(module, "MAX_EXPORT_LINES", 4)
    with pytest.raises(StoreError, match="has over 4 lines; no export has more"):
        load_record(export)
    monkeypatch.setattr(module, "MAX_EXPORT_BYTES", 4)
    with pytest.raises(StoreError, match="is 5 bytes; at most 4 are read"):
        load_record(export)


@pytest.mark.integration
def test_processes_that_open_a_new_store_at_once_all_get_it(tmp_path):
    """Setting a new file up (tables, write-ahead log) while others do the same must wait
    for them, not fail with 'database is locked'."""
    code = (
        "import sys, time; from mancala_env.agents.tournament import GameStore, TournamentConfig\n"
        "config = TournamentConfig('oware', ('random', 'greedy'), games_per_pair=2)\n"
        "for k in range(30):  # all at once: each new file at the same moment\n"
        "    time.sleep(max(0.0, float(sys.argv[2]) + 0.1 * k - time.time()))\n"
        "    with GameStore(f'{sys.argv[1]}/{k}.sqlite') as store: store.add_tournament(config)\n"
    )
    start = str(time.time() + 3)
    processes = [
        subprocess.Popen([sys.executable, "-c", code, str(tmp_path), start], stderr=subprocess.PIPE)
        for _ in range(6)
    ]
    errors = [p.communicate(timeout=120)[1].decode() for p in processes]
    assert [p.returncode for p in processes] == [0] * 6, errors
    with GameStore(tmp_path / "29.sqlite") as store:
        assert len(store.tournaments()) == 1


# The games table as version 1 of the store wrote it: stores made then must stay readable.
VERSION_1_GAMES = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    tournament TEXT NOT NULL REFERENCES tournaments (key),
    game_index INTEGER NOT NULL, variant TEXT NOT NULL, options TEXT NOT NULL,
    agent_0 TEXT NOT NULL, agent_1 TEXT NOT NULL, seed INTEGER NOT NULL,
    opening TEXT NOT NULL, moves TEXT NOT NULL, first_player INTEGER NOT NULL,
    winner INTEGER NOT NULL, score_0 INTEGER NOT NULL, score_1 INTEGER NOT NULL,
    length INTEGER NOT NULL, seconds REAL NOT NULL, think_0 REAL NOT NULL,
    think_1 REAL NOT NULL, end_reason TEXT NOT NULL, finished REAL NOT NULL,
    UNIQUE (tournament, game_index)
);
CREATE TABLE tournaments (key TEXT PRIMARY KEY, config TEXT NOT NULL, created REAL NOT NULL);
PRAGMA user_version = 1;
"""


def _version_1_columns(path) -> list[tuple]:
    """The games table's columns but `start` (the column version 2 added), without positions."""
    with sqlite3.connect(path) as db:
        rows = db.execute("PRAGMA table_info(games)").fetchall()
    return [row[1:] for row in rows if row[1] != "start"]


def test_the_games_table_is_the_record_type_and_version_1_stores_read_and_grow(tmp_path):
    """The store's columns come from `GameRecord`: a new store's table is version 1's (names,
    types, NOT NULL, key) with the start column; a version-1 store's game reads back (read
    only, the file unchanged) as one from the rule set's start, and a writer adds the column
    in place, then takes and gives back a played game."""
    old = tmp_path / "v1.sqlite"
    with sqlite3.connect(old) as db:
        db.executescript(VERSION_1_GAMES)
    GameStore(tmp_path / "new.sqlite").close()
    assert _version_1_columns(tmp_path / "new.sqlite") == _version_1_columns(old)
    with sqlite3.connect(tmp_path / "new.sqlite") as db:
        names = [row[1] for row in db.execute("PRAGMA table_info(games)")]
    assert names == ["id", *COLUMNS, "finished"]
    first, second = (play_game(task) for task in schedule(CONFIG)[:2])
    assert set(first) == set(COLUMNS) and first["start"] == {}
    assert GameRecord(**first).to_dict() == first
    held = {column: value for column, value in first.items() if column != "start"}
    with sqlite3.connect(old) as db:  # a game as version 1 wrote it
        values = [json.dumps(v) if isinstance(v, (list, dict)) else v for v in held.values()]
        db.execute(
            f"INSERT INTO games ({', '.join(held)}, finished) VALUES "
            f"({', '.join('?' * len(held))}, 0)",
            values,
        )
    before = old.read_bytes()
    with GameStore(old, read_only=True) as store:
        (kept,) = store.games(CONFIG.key)
    assert old.read_bytes() == before
    assert {column: kept[column] for column in COLUMNS} == first
    assert [action for _, _, action in replay(kept)][1:] == first["moves"]
    with GameStore(old) as store:
        store.add_tournament(CONFIG)
        assert store.add_game(second)
        kept = store.games(CONFIG.key)
    assert [{column: game[column] for column in COLUMNS} for game in kept] == [first, second]
    with sqlite3.connect(old) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 2
