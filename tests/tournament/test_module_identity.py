"""A `python:` agent is known by the contents of the files its module is imported from: a
package's every module, a zip archive's bytes. Run again after any of them changed, the same
tournament is a new one and plays its games afresh; a cache Python writes changes nothing."""

from __future__ import annotations

import importlib
import sys
import zipfile

import pytest
from scripted_agents import AGENT_SOURCE

from mancala_env.agents.loader import MAX_MODULE_ENTRIES, agent_identity
from mancala_env.agents.tournament import GameStore, TournamentConfig, run_tournament

PACKAGE = "identity_test_package"
SPEC = f"python:{PACKAGE}:Agent"


def forget(name: str) -> None:
    """Forget the modules of `name` this process imported, as a new command would not know
    them."""
    for module in [m for m in sys.modules if m == name or m.startswith(f"{name}.")]:
        del sys.modules[module]
    importlib.invalidate_caches()


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A user's agent package, its class in a module of its own, importable from `tmp_path`."""
    folder = tmp_path / PACKAGE
    folder.mkdir()
    (folder / "__init__.py").write_text("from .players import Agent\n")
    (folder / "players.py").write_text(AGENT_SOURCE.format(which="first", index=0))
    monkeypatch.syspath_prepend(str(tmp_path))
    forget(PACKAGE)
    yield folder
    forget(PACKAGE)


def play(db) -> tuple[str, int]:
    """The same tournament as the same command plays it: its key and the games it played."""
    forget(PACKAGE)
    config = TournamentConfig("oware", ("random", SPEC), games_per_pair=2, openings=1, seed=3)
    result = run_tournament(config, db=db, progress=False, bootstrap=20)
    return config.key, result.played


def test_a_package_agent_whose_module_changed_plays_a_new_tournament(tmp_path, package):
    db = tmp_path / "t.sqlite"
    first_key, played = play(db)
    assert played == 2
    assert play(db) == (first_key, 0)  # nothing changed: the games are found
    (package / "players.py").write_text(AGENT_SOURCE.format(which="last", index=-1))
    second_key, played = play(db)
    assert second_key != first_key and played == 2  # not joined to the first one's games
    with GameStore(db, read_only=True) as store:
        assert sorted(store.tournament_keys()) == sorted([first_key, second_key])
        assert len(store.games(first_key)) == len(store.games(second_key)) == 2


def test_any_module_of_the_package_is_part_of_the_identity(package):
    before = agent_identity(SPEC)
    (package / "tools").mkdir()
    (package / "tools" / "__init__.py").write_text("")
    assert agent_identity(SPEC) != before
    changed = agent_identity(SPEC)
    (package / "notes.txt").write_text("not a module")
    assert agent_identity(SPEC) == changed
    assert agent_identity(f"python:{PACKAGE}.players:Agent") == changed  # the whole package


def test_a_module_its_package_finds_in_another_folder_is_part_of_the_identity(tmp_path, package):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "extra.py").write_text(AGENT_SOURCE.format(which="first", index=0))
    (package / "__init__.py").write_text(f"__path__ = [*__path__, {str(elsewhere)!r}]\n")
    spec = f"python:{PACKAGE}.extra:Agent"
    before = agent_identity(spec)
    (elsewhere / "extra.py").write_text(AGENT_SOURCE.format(which="last", index=-1))
    assert agent_identity(spec) != before


def test_the_caches_python_writes_change_no_identity(package):
    before = agent_identity(SPEC)
    sys.dont_write_bytecode, writes = False, sys.dont_write_bytecode
    try:
        importlib.import_module(PACKAGE)
    finally:
        sys.dont_write_bytecode = writes
    (package / "__pycache__").mkdir(exist_ok=True)
    (package / "__pycache__" / "players.cpython-311.pyc").write_bytes(b"compiled")
    assert agent_identity(SPEC) == before


def test_a_module_in_a_zip_archive_is_known_by_the_archive(tmp_path, monkeypatch):
    archive = tmp_path / "agents.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("zipped_agent.py", AGENT_SOURCE.format(which="first", index=0))
    monkeypatch.syspath_prepend(str(archive))
    forget("zipped_agent")
    before = agent_identity("python:zipped_agent:Agent")
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("zipped_agent.py", AGENT_SOURCE.format(which="last", index=-1))
    forget("zipped_agent")
    assert agent_identity("python:zipped_agent:Agent") != before
    forget("zipped_agent")


def test_a_package_too_large_to_hash_is_refused_in_one_line(package):
    for number in range(MAX_MODULE_ENTRIES + 1):
        (package / f"data_{number}.txt").touch()
    with pytest.raises(ValueError) as error:
        agent_identity(SPEC)
    (line,) = str(error.value).splitlines()
    assert line == (
        f"{package}: holds more than {MAX_MODULE_ENTRIES:,} files and folders; at most "
        f"{MAX_MODULE_ENTRIES:,} are looked at"
    )
