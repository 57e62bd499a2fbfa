"""The one output rule (`mancala_env.outputs`): a file is written whole, with a normal file's
permissions, and a path that is not a regular file is refused, never replaced; nor is a file of
another kind than the one written, unless asked to."""

from __future__ import annotations

import io
import os
import sqlite3
import stat

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from special_files import KINDS, listing, special

from mancala_env.outputs import (
    ENDGAME_LEVEL,
    HEAD_BYTES,
    JSON_LINES,
    OPENING_SUITE,
    SQLITE_DATABASE,
    ZIP_ARCHIVE,
    OutputError,
    atomic_file,
    what_it_holds,
    write_atomically,
)


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


# ---- a file of another kind ------------------------------------------------------------------
OTHER_KINDS = {
    "SQLite database": b"SQLite format 3\0" + bytes(84),
    "endgame database file": b"MANCALA-ENDGAME\n{}" + bytes(30),
    "zip archive": b"PK\x03\x04" + bytes(60),
    "NumPy array": b"\x93NUMPY\x01\x00v\x00{'descr': '<f8'",
    "PNG picture": b"\x89PNG\r\n\x1a\n" + bytes(20),
    "opening suite": b'{\n  "format": {"name": "mancala-opening-suite", "version": 1},\n',
    "binary file": bytes(range(256)),
    "text file": b"notes to keep\n",
}


@pytest.mark.parametrize("what", OTHER_KINDS)
def test_a_file_of_another_kind_is_refused_and_left_as_it_is(tmp_path, what):
    path = tmp_path / "out"
    path.write_bytes(OTHER_KINDS[what])
    with pytest.raises(OutputError) as refused:
        write_atomically(path, b'{"game": 1}\n', JSON_LINES)
    message = str(refused.value)
    assert message.startswith(f"{path} is a") and what in message and len(message.splitlines()) == 1
    assert "not JSON lines" in message and "replace=True" in message
    assert path.read_bytes() == OTHER_KINDS[what]
    assert listing(tmp_path) == ["out"]
    write_atomically(path, b'{"game": 1}\n', JSON_LINES, replace=True)  # when asked to
    assert path.read_bytes() == b'{"game": 1}\n'


@pytest.mark.parametrize("old", [b"", b'{"game": 0}\n{"game": 1}\n'])
def test_an_empty_file_or_one_of_the_kind_written_is_replaced(tmp_path, old):
    path = tmp_path / "out"
    path.write_bytes(old)
    write_atomically(path, b'{"game": 2}\n', JSON_LINES)
    assert path.read_bytes() == b'{"game": 2}\n'


def test_the_signatures_are_those_the_writers_write(tmp_path):
    """What a store, an endgame level, a network and a picture begin with, as their own
    writers make them."""
    from mancala_env.endgame.files import MAGIC

    assert ENDGAME_LEVEL.signature == MAGIC
    with sqlite3.connect(tmp_path / "s.sqlite") as db:
        db.execute("create table t (x)")
    db.close()
    assert what_it_holds((tmp_path / "s.sqlite").read_bytes()[:HEAD_BYTES]) == SQLITE_DATABASE
    buffer = io.BytesIO()
    np.savez(buffer, weights=np.zeros(3))
    assert what_it_holds(buffer.getvalue()[:HEAD_BYTES]) == ZIP_ARCHIVE


@settings(max_examples=300, deadline=None)
@given(old=st.binary(max_size=200), kind=st.sampled_from([JSON_LINES, OPENING_SUITE]))
def test_any_existing_file_is_either_of_the_kind_and_replaced_or_refused_unchanged(
    tmp_path_factory, old, kind
):
    """Whatever an existing output holds, writing over it replaces it (it is empty, or of the
    kind written) or is refused with one line naming the path, the file as it was."""
    folder = tmp_path_factory.mktemp("any")
    path = folder / "out"
    path.write_bytes(old)
    new = b'{"format": {"name": "mancala-opening-suite"}}\n'
    try:
        write_atomically(path, new, kind)
    except OutputError as error:
        assert str(error).startswith(f"{path} ") and len(str(error).splitlines()) == 1
        assert old and what_it_holds(old[:HEAD_BYTES]) != kind
        assert path.read_bytes() == old
    else:
        assert not old or what_it_holds(old[:HEAD_BYTES]) == kind
        assert path.read_bytes() == new
    assert listing(folder) == ["out"]
