"""Outputs the commands refuse: a path that is not a regular file is never replaced, and a
command refused for any reason leaves no new file (no store, no journal beside one)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from special_files import listing, special

from mancala_env.agents import network
from mancala_env.agents.tournament import (
    BackendError,
    GameStore,
    StoreError,
    TournamentConfig,
    run_tournament,
)
from mancala_env.cli import main


def run(capsys, *argv: object) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def unchanged(path: Path) -> tuple[int, int]:
    status = os.lstat(path)
    return status.st_mode, status.st_ino


@pytest.fixture
def store(tmp_path) -> Path:
    db = tmp_path / "s.sqlite"
    run_tournament(TournamentConfig("oware", ("random", "greedy"), games_per_pair=2), db=db,
                   progress=False)  # fmt: skip
    return db


@pytest.mark.parametrize("kind", ["fifo", "link", "device"])
def test_export_refuses_an_out_that_is_not_a_regular_file(store, tmp_path, capsys, kind):
    out = special(tmp_path, kind)
    before, names = unchanged(out), listing(tmp_path)
    status, _, err = run(capsys, "export", store, "--out", out)
    assert status == 2 and "not a regular file" in err and len(err.splitlines()) == 1
    assert unchanged(out) == before and listing(tmp_path) == names


@pytest.mark.parametrize("kind", ["fifo", "link", "device"])
def test_openings_refuses_an_out_that_is_not_a_regular_file(tmp_path, capsys, kind):
    out = special(tmp_path, kind)
    before = unchanged(out)
    status, _, err = run(capsys, "openings", "oware", "--count", "2", "--search",
                         "alphabeta:depth=2", "--no-progress", "--out", out)  # fmt: skip
    assert status == 2 and "not a regular file" in err
    assert unchanged(out) == before


@pytest.mark.parametrize("kind", ["link", "device"])
def test_a_store_that_is_not_a_regular_file_is_refused_with_nothing_beside_it(tmp_path, kind):
    db = special(tmp_path, kind)
    names = listing(tmp_path)
    with pytest.raises(StoreError, match="not a regular file"):
        GameStore(db)
    assert listing(tmp_path) == names  # no -journal, -wal or -shm beside it


def test_a_tournament_on_a_device_store_leaves_no_journal(tmp_path, capsys):
    db = special(tmp_path, "device")
    names = listing(tmp_path)
    status, _, err = run(capsys, "tournament", "oware", "--agents", "random", "greedy",
                         "--games-per-pair", "2", "--workers", "1", "--no-progress",
                         "--db", db)  # fmt: skip
    assert status == 2 and "not a regular file" in err
    assert listing(tmp_path) == names


def test_a_tournament_with_an_agent_of_other_rules_leaves_no_store(tmp_path, capsys):
    db = tmp_path / "a.sqlite"
    status, _, err = run(capsys, "tournament", "ayoayo", "--agents", "az:oware", "random",
                         "--games-per-pair", "2", "--workers", "1", "--no-progress",
                         "--db", db)  # fmt: skip
    assert status == 2 and "plays oware, not ayoayo" in err
    assert listing(tmp_path) == []


def test_a_network_over_the_size_cap_leaves_no_store(tmp_path, monkeypatch):
    monkeypatch.setattr(network, "MAX_NETWORK_BYTES", 1000)  # the shipped network is larger
    with pytest.raises(ValueError, match="at most 1,000 are read"):  # its identity is refused
        config = TournamentConfig("oware", ("az:oware", "random"), games_per_pair=2)
        run_tournament(config, db=tmp_path / "n.sqlite", progress=False)
    assert listing(tmp_path) == []


def test_a_match_with_an_agent_of_other_rules_leaves_no_store(tmp_path, capsys):
    db = tmp_path / "m.sqlite"
    status, _, err = run(capsys, "match", "az:oware", "random", "--variant", "ayoayo",
                         "--workers", "1", "--max-pairs", "2", "--db", db)  # fmt: skip
    assert status == 2 and "plays oware, not ayoayo" in err
    assert listing(tmp_path) == []


def test_a_backend_that_cannot_run_leaves_no_store(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    config = TournamentConfig("oware", ("random", "greedy"), games_per_pair=2)
    with pytest.raises(BackendError, match="needs Ray"):
        run_tournament(config, db=tmp_path / "r.sqlite", backend="ray", progress=False)
    assert listing(tmp_path) == []
