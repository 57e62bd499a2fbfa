"""Outputs the commands refuse: a path that is not a regular file is never replaced, nor a file
of another kind than the one written unless --replace is given, and a command refused for any
reason leaves no new file (no store, no journal beside one)."""

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
    build_suite,
    run_tournament,
    save_suite,
)
from mancala_env.cli import main
from mancala_env.outputs import OutputError


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


# ---- an output of another kind ---------------------------------------------------------------
NETWORK_HEAD = b"PK\x03\x04" + bytes(60)  # a network's .npz, a checkpoint: zip archives
ENDGAME_HEAD = b"MANCALA-ENDGAME\n" + b'{"format": 1}'.ljust(64, b"\0")


def test_export_refuses_to_replace_another_store(store, tmp_path, capsys):
    other = tmp_path / "other.sqlite"
    other.write_bytes(store.read_bytes())
    status, _, err = run(capsys, "export", store, "--out", other)
    assert status == 2 and len(err.splitlines()) == 1
    assert f"{other} is a SQLite database" in err and "not JSON lines" in err
    assert "--replace" in err
    assert other.read_bytes() == store.read_bytes()
    status, out, _ = run(capsys, "export", store, "--out", other, "--replace")  # when asked to
    assert status == 0 and "2 games written" in out
    assert other.read_text().startswith('{"')


@pytest.mark.parametrize(
    "head", [NETWORK_HEAD, ENDGAME_HEAD, b"my notes\n"], ids=["network", "endgame", "notes"]
)
def test_export_refuses_to_replace_a_file_of_another_kind(store, tmp_path, capsys, head):
    out = tmp_path / "kept"
    out.write_bytes(head)
    status, _, err = run(capsys, "export", store, "--out", out)
    assert status == 2 and "not JSON lines" in err and out.read_bytes() == head


def test_export_replaces_an_earlier_export(store, tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    assert run(capsys, "export", store, "--out", out)[0] == 0
    out.write_text(out.read_text().splitlines()[0] + "\n")
    status = run(capsys, "export", store, "--out", out)[0]
    assert status == 0 and len(out.read_text().splitlines()) == 2


def test_openings_refuses_to_replace_a_store_before_it_builds(store, capsys):
    before = store.read_bytes()
    status, _, err = run(capsys, "openings", "oware", "--count", "2", "--search",
                         "alphabeta:depth=1", "--no-progress", "--out", store)  # fmt: skip
    assert status == 2 and len(err.splitlines()) == 1
    assert f"{store} is a SQLite database" in err and "not an opening suite" in err
    assert "--replace" in err and store.read_bytes() == before


def test_a_suite_is_saved_over_a_suite_but_not_over_a_network(tmp_path):
    suite = build_suite("oware", count=1, plies=1, search="alphabeta:depth=1", margin=100)
    path = tmp_path / "suite.json"
    save_suite(suite, path)
    save_suite(suite, path)  # an opening suite over an opening suite
    network = tmp_path / "net.npz"
    network.write_bytes(NETWORK_HEAD)
    with pytest.raises(OutputError, match="is a zip archive .*, not an opening suite"):
        save_suite(suite, network)
    assert network.read_bytes() == NETWORK_HEAD


def test_a_report_that_would_replace_a_store_is_refused_before_the_store(tmp_path, capsys):
    report = tmp_path / "report"
    report.mkdir()
    (report / "report.md").write_bytes(b"SQLite format 3\0" + bytes(84))
    db = tmp_path / "t.sqlite"
    status, _, err = run(capsys, "tournament", "oware", "--agents", "random", "greedy",
                         "--games-per-pair", "2", "--workers", "1", "--no-progress",
                         "--db", db, "--report", report)  # fmt: skip
    assert status == 2 and len(err.splitlines()) == 1
    assert "report.md is a SQLite database" in err and "not a Markdown page" in err
    assert not db.exists() and listing(report) == ["report.md"]


def test_replace_is_on_the_help_of_each_command_that_writes_a_file(capsys):
    for command in ("export", "openings", "tournament"):
        status, out, _ = run(capsys, command, "--help")
        assert status == 0 and "--replace" in out


# ---- agents that read a database, refused before the store -----------------------------------
def _corrupt_database(folder: Path) -> Path:
    folder.mkdir()
    (folder / "seeds_00.egdb").write_bytes(b"junk" + bytes(100))
    return folder


@pytest.mark.parametrize("spec", ["perfect:db={}", "alphabeta:depth=1,tb={}"])
def test_a_tournament_with_a_corrupt_database_leaves_no_store(tmp_path, capsys, spec):
    agent = spec.format(_corrupt_database(tmp_path / "db"))
    db = tmp_path / "t.sqlite"
    status, _, err = run(capsys, "tournament", "oware", "--agents", agent, "random",
                         "--games-per-pair", "2", "--workers", "1", "--no-progress",
                         "--db", db)  # fmt: skip
    assert status == 2 and "not an endgame database file" in err and len(err.splitlines()) == 1
    assert listing(tmp_path) == ["db"]


def test_a_match_with_a_perfect_agent_of_no_database_leaves_no_store(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    db = tmp_path / "m.sqlite"
    status, _, err = run(capsys, "match", f"perfect:db={tmp_path / 'empty'}", "random",
                         "--workers", "1", "--max-pairs", "2", "--db", db)  # fmt: skip
    assert status == 2 and "holds no endgame database" in err
    assert listing(tmp_path) == ["empty"]


def test_a_perfect_agent_of_other_rules_leaves_no_store(oware_db, tmp_path):
    config = TournamentConfig("ouri", (f"perfect:db={oware_db.directory}", "random"),
                              games_per_pair=2)  # fmt: skip
    with pytest.raises(ValueError, match="was built for oware"):
        run_tournament(config, db=tmp_path / "o.sqlite", progress=False)
    assert listing(tmp_path) == []
