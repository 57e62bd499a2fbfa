"""The cache folder rule: code or pickles are loaded only from a folder that the current user
owns and no one else can write (`mancala_env.engine.cache_folder`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mancala_env import Game
from mancala_env.engine import cache_folder
from mancala_env.engine.cache_folder import unsafe
from mancala_env.engine.compiler import assemble, cache, specialised

PLANT = "import pathlib\npathlib.Path({marker!r}).write_text('ran')\n"


@pytest.fixture
def fresh(monkeypatch, derive_afresh):
    """Derive afresh in this process: nothing found loaded, no private folder made yet."""
    monkeypatch.setattr(cache_folder, "_private", [])
    monkeypatch.setattr(cache_folder, "_told", set())


def derived_file(kernels) -> Path:
    return Path(kernels.step.py_func.__code__.co_filename)


def planted(tmp_path: Path, monkeypatch, name: str) -> tuple[Path, Path]:
    """A cache folder holding a module under the name the Oware engine's derived module has,
    which writes a marker file when it is imported."""
    shared, marker = tmp_path / "shared", tmp_path / "marker"
    (shared / "kernels").mkdir(parents=True)
    (shared / "kernels" / name).write_text(PLANT.format(marker=str(marker)))
    monkeypatch.setenv("MANCALA_ENV_CACHE", str(shared))
    return shared, marker


@pytest.fixture
def derived_name(tmp_path_factory, monkeypatch, fresh) -> str:
    """The file name of the Oware engine's derived module, derived in a safe folder."""
    monkeypatch.setenv("MANCALA_ENV_CACHE", str(tmp_path_factory.mktemp("safe")))
    name = derived_file(specialised(Game("oware").params)).name
    monkeypatch.setattr(assemble, "_loaded", {})  # the test derives it again, in its folder
    monkeypatch.setattr(cache, "_modules", {})
    return name


def test_a_module_planted_in_a_folder_others_can_write_is_never_imported(
    derived_name, tmp_path, monkeypatch, capsys
):
    shared, marker = planted(tmp_path, monkeypatch, derived_name)
    shared.chmod(0o777)
    kernels = specialised(Game("oware").params)
    assert not marker.exists()
    assert derived_file(kernels).parent.parent != shared
    assert derived_file(kernels).name == derived_name  # derived afresh, in the private folder
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and f"not using the cache folder {shared}" in err[0]
    assert "can be written by others" in err[0]


def test_a_module_planted_in_another_users_folder_is_never_imported(
    derived_name, tmp_path, monkeypatch, capsys
):
    shared, marker = planted(tmp_path, monkeypatch, derived_name)
    monkeypatch.setattr(os, "getuid", lambda: os.lstat(shared).st_uid + 1)  # someone else's
    kernels = specialised(Game("oware").params)
    assert not marker.exists()
    assert derived_file(kernels).parent.parent != shared
    assert "is owned by user" in capsys.readouterr().err


def test_a_folder_whose_numba_index_others_can_write_is_not_used(
    derived_name, tmp_path, monkeypatch, capsys
):
    shared, marker = planted(tmp_path, monkeypatch, derived_name)
    (shared / "kernels" / "__pycache__").mkdir(mode=0o777)
    (shared / "kernels" / "__pycache__").chmod(0o777)  # where numba's pickled index goes
    specialised(Game("oware").params)
    assert not marker.exists()
    assert "__pycache__ can be written by others" in capsys.readouterr().err


def test_a_file_others_can_write_counts_where_others_can_enter_its_folder(tmp_path):
    folder = tmp_path / "cache"
    (folder / "kernels" / "__pycache__").mkdir(parents=True)
    folder.chmod(0o755)
    (folder / "kernels").chmod(0o755)
    module = folder / "kernels" / "rules_0.py"
    module.write_text("x = 1\n")
    module.chmod(0o664)  # as a umask of 002 leaves it
    assert f"{module} can be written by others (mode 664)" in unsafe(folder)
    (folder / "kernels").chmod(0o700)  # as the suite makes it: no one else reaches the file
    assert unsafe(folder) is None
    index = folder / "kernels" / "__pycache__" / "rules_0.nbi"  # numba's pickled index
    index.write_bytes(b"")
    index.chmod(0o666)
    assert unsafe(folder) is None  # behind kernels, 0700
    module.chmod(0o644)
    (folder / "kernels").chmod(0o711)
    (folder / "kernels" / "__pycache__").chmod(0o711)
    assert f"{index} can be written by others (mode 666)" in unsafe(folder)
    index.unlink()
    (folder / "kernels" / "__pycache__" / "link").symlink_to(module)
    assert "link is neither a regular file nor a folder" in unsafe(folder)


def test_a_link_to_a_folder_others_can_write_is_not_used(tmp_path):
    shared = tmp_path / "shared"
    (shared / "kernels").mkdir(parents=True)
    shared.chmod(0o777)
    (tmp_path / "link").symlink_to(shared)
    assert "can be written by others" in unsafe(tmp_path / "link")
    assert "can be written by others" in unsafe(shared)


def test_a_folder_of_the_users_own_in_a_sticky_shared_folder_is_used(tmp_path):
    sticky = tmp_path / "tmp"
    sticky.mkdir()
    sticky.chmod(0o1777)  # as /tmp
    (sticky / "mine" / "kernels").mkdir(parents=True)
    (sticky / "mine").chmod(0o700)
    assert unsafe(sticky / "mine") is None
    sticky.chmod(0o777)  # not sticky: another user could rename "mine" and put their own there
    assert "can be written by others" in unsafe(sticky / "mine")
