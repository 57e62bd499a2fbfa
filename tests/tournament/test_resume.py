"""Nothing lost, nothing twice: a tournament killed with SIGKILL resumes; several processes
and workers share one store."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from agents.tournament import TournamentConfig, run_tournament

AGENTS = ("random", "greedy")
GAMES = 60
CONFIG = TournamentConfig("oware", AGENTS, games_per_pair=GAMES, openings=3, seed=5)
COMMAND = [
    sys.executable, "-m", "mancala_env.cli", "tournament", "oware",
    "--agents", *AGENTS, "--games-per-pair", str(GAMES), "--openings", "3", "--seed", "5",
    "--no-progress",
]  # fmt: skip


def stored(db: Path) -> list[tuple]:
    """(game number, moves, winner) of every stored game, in the order written."""
    if not db.exists():
        return []
    with sqlite3.connect(db, timeout=30) as connection:
        try:
            rows = connection.execute("SELECT game_index, moves, winner FROM games ORDER BY id")
            return [(index, json.loads(moves), winner) for index, moves, winner in rows]
        except sqlite3.OperationalError:  # the tables are not created yet
            return []


def reference(tmp_path: Path) -> list[tuple]:
    """The games of an uninterrupted run, in game order."""
    result = run_tournament(CONFIG, db=tmp_path / "reference.sqlite", progress=False)
    return [(r["game_index"], r["moves"], r["winner"]) for r in result.records]


def test_a_tournament_killed_with_sigkill_resumes_with_exactly_its_games(tmp_path):
    db = tmp_path / "t.sqlite"
    command = [*COMMAND, "--db", str(db), "--workers", "1"]
    kills = 0
    for wanted in (5, 25):  # kill it twice, at different moments
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 120
        while len(stored(db)) < wanted and process.poll() is None:
            assert time.monotonic() < deadline, "the tournament wrote no games"
            time.sleep(0.01)
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
            kills += 1
        process.wait()
    assert kills >= 1
    before = len(stored(db))
    assert 0 < before < GAMES
    finish = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert finish.returncode == 0, finish.stderr
    assert f"{GAMES} games in {db}" in finish.stdout
    assert f"{GAMES - before} played now, {before} found there" in finish.stdout
    rows = stored(db)
    assert len(rows) == GAMES and {r[0] for r in rows} == set(range(GAMES))
    assert sorted(rows) == reference(tmp_path)


def test_two_processes_with_two_workers_each_share_one_store(tmp_path):
    db = tmp_path / "shared.sqlite"
    command = [*COMMAND, "--db", str(db), "--workers", "2"]
    processes = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outputs = [p.communicate(timeout=300) for p in processes]
    assert [p.returncode for p in processes] == [0, 0], [err for _, err in outputs]
    rows = stored(db)
    assert len(rows) == GAMES and {r[0] for r in rows} == set(range(GAMES))
    assert sorted(rows) == reference(tmp_path)
    for out, _ in outputs:  # each saw the whole tournament at the end
        assert f"{GAMES} games in {db}" in out


def test_a_finished_tournament_run_again_plays_nothing(tmp_path):
    db = tmp_path / "t.sqlite"
    first = run_tournament(CONFIG, db=db, workers=2, progress=False)
    again = run_tournament(CONFIG, db=db, progress=False)
    assert first.played == GAMES and again.played == 0
    assert again.records == first.records
    other = TournamentConfig("oware", AGENTS, games_per_pair=2, seed=6)
    assert run_tournament(other, db=db, progress=False).played == 2  # a second one, beside it
    assert len(stored(db)) == GAMES + 2
