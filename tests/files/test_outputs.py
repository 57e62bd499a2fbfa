"""The one output rule (`mancala_env.outputs`): a file is written whole, with a normal file's
permissions, and a path that is not a regular file is refused, never replaced."""

from __future__ import annotations

import os
import stat

import pytest
from special_files import KINDS, listing, special

from mancala_env.outputs import OutputError, atomic_file, write_atomically


@pytest.mark.parametrize("kind", KINDS)
def test_a_path_that_is_not_a_regular_file_is_refused_and_left_as_it_is(tmp_path, kind):
    path = special(tmp_path, kind)
    before = os.lstat(path)
    names = listing(tmp_path)
    with pytest.raises(OutputError, match="not a regular file"):
        write_atomically(path, b"new")
    after = os.lstat(path)
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    assert listing(tmp_path) == names  # no temporary file left beside it
    if kind == "link":
        assert (tmp_path / "target").read_text() == "kept"


def test_a_new_file_gets_the_permissions_any_new_file_gets(tmp_path):
    old = os.umask(0o027)
    try:
        write_atomically(tmp_path / "out", b"content")
    finally:
        os.umask(old)
    assert (tmp_path / "out").read_bytes() == b"content"
    assert stat.S_IMODE(os.stat(tmp_path / "out").st_mode) == 0o640  # 0o666 less the umask


def test_a_replaced_file_keeps_its_permissions(tmp_path):
    path = tmp_path / "out"
    path.write_bytes(b"old")
    path.chmod(0o604)
    write_atomically(path, b"new")
    assert path.read_bytes() == b"new"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o604


def test_a_failed_write_leaves_the_old_file_and_nothing_beside_it(tmp_path):
    path = tmp_path / "out"
    path.write_bytes(b"old")
    with pytest.raises(RuntimeError), atomic_file(path) as file:
        file.write(b"half")
        raise RuntimeError("stopped")
    assert path.read_bytes() == b"old"
    assert listing(tmp_path) == ["out"]
