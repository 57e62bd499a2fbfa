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

import pytest

from mancala_env.agents.tournament import TournamentConfig, run_tournament

pytestmark = pytest.mark.integration  # tournaments in processes of their own, killed

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


def workers_of(pid: int) -> set[int]:
    """The pool workers `pid` started (Linux's /proc: its children that run spawn_main)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except OSError:  # ended meanwhile
            continue
        if parent == pid and b"spawn_main" in command:
            found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    """Running, and not a zombie waiting for its new parent to collect it."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def start_with_workers(db: Path) -> tuple[subprocess.Popen, set[int]]:
    """A tournament with two worker processes, once it has stored a few games."""
    process = subprocess.Popen(
        [*COMMAND, "--db", str(db), "--workers", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while len(stored(db)) < 3 or len(workers_of(process.pid)) < 2:
        assert process.poll() is None and time.monotonic() < deadline, "no games came"
        time.sleep(0.01)
    return process, workers_of(process.pid)


def test_workers_end_when_the_tournament_is_killed(tmp_path):
    process, workers = start_with_workers(tmp_path / "t.sqlite")
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in workers if alive(pid)]
    for pid in left:  # do not leave them to the next test
        os.kill(pid, signal.SIGKILL)
    assert not left, "the workers outlived the tournament"


def test_a_killed_worker_is_named_and_the_same_command_continues(tmp_path):
    db = tmp_path / "t.sqlite"
    process, workers = start_with_workers(db)
    os.kill(min(workers), signal.SIGKILL)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 1, err
    assert "Traceback" not in err
    assert "a worker process died (killed, or out of memory)" in err
    assert f"the finished games are in {db}: run the same command to continue" in err
    finish = subprocess.run([*COMMAND, "--db", str(db)], capture_output=True, text=True)
    assert finish.returncode == 0, finish.stderr
    assert sorted(stored(db)) == reference(tmp_path)
