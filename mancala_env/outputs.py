"""The one way the suite writes a file it makes (a store's export, an opening suite, a report, a
training run's models and checkpoints, an endgame level, a derived kernels' module): whole or
not at all, and never over something that is not a regular file.

- An output path that exists and is not a regular file (a device such as ``/dev/null``, a FIFO,
  a socket, a folder, or a symbolic link, whatever it points to) is refused with one line
  (`OutputError`): renaming a new file over it would replace the device or the link itself,
  and writing through it is not what naming an output means. The command line checks this
  before a command begins (`mancala_env.arguments.output_file`); the writer checks it again.
- The content goes to a new file beside the path, opened exclusively and without following a
  link, flushed to disk, then renamed over the path: a run stopped at any moment leaves the old
  file or the new one, never half of one. A write that fails removes its temporary file.
- The new file gets the permissions any new file gets (0o666 less the process's umask), or the
  permissions of the regular file it replaces.
- A writer that names the kind of file it writes (`FileKind`: JSON lines, an opening suite, a
  report's page or picture) replaces an existing file of that kind, or an empty one, and
  refuses with one line any other (a SQLite store, an endgame database level, a network's or a
  checkpoint's archive, a text of another kind) unless asked to replace it: what a file is is
  told from its first `HEAD_BYTES` bytes, read without following a link or waiting on a FIFO.
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

_KINDS = (
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
)


class OutputError(OSError):
    """An output path that names something other than a regular file, or a file of another
    kind than the one written."""


HEAD_BYTES = 64  # what is read of an existing output to tell what it is
_CONTROL = frozenset(range(32)) - frozenset(b"\t\n\r\f") | {0x7F}  # none of these is in a text


@dataclass(frozen=True)
class FileKind:
    """A kind of file, told by its first bytes: they begin with `signature` and hold `mark`,
    and, for a text (`text`), no control character but tabs and line ends."""

    name: str  # as a sentence names it: "JSON lines", "a SQLite database"
    signature: bytes = b""
    text: bool = False
    mark: bytes = b""

    def holds(self, head: bytes) -> bool:
        """Whether a file whose first bytes are `head` is of this kind."""
        if not head.startswith(self.signature) or self.mark not in head:
            return False
        return not self.text or not any(byte in _CONTROL for byte in head)


# What the suite writes and reads, the most particular first: the first kind that holds a
# file's head is what the file is. The endgame level's signature is its MAGIC
# (`mancala_env.endgame.files`); npz files, PyTorch checkpoints and stable-baselines3 models
# are zip archives.
SQLITE_DATABASE = FileKind("a SQLite database (such as a tournament store)", b"SQLite format 3\0")
ENDGAME_LEVEL = FileKind("an endgame database file", b"MANCALA-ENDGAME\n")
ZIP_ARCHIVE = FileKind("a zip archive (a network, a model or a checkpoint)", b"PK\x03\x04")
EMPTY_ZIP_ARCHIVE = FileKind("a zip archive", b"PK\x05\x06")
NUMPY_ARRAY = FileKind("a NumPy array", b"\x93NUMPY")
PNG_PICTURE = FileKind("a PNG picture", b"\x89PNG\r\n\x1a\n")
OPENING_SUITE = FileKind("an opening suite", b"{", text=True, mark=b'"mancala-opening-suite"')
LADDER_RATINGS = FileKind("ladder ratings", b"{", text=True, mark=b'"mancala-ladder-ratings"')
HTML_PAGE = FileKind("an HTML page", b"<!DOCTYPE html>", text=True)
MARKDOWN_PAGE = FileKind("a Markdown page", b"#", text=True)
JSON_LINES = FileKind("JSON lines", b"{", text=True)
_TEXT = FileKind("a text file", text=True)
_KNOWN = (
    SQLITE_DATABASE,
    ENDGAME_LEVEL,
    ZIP_ARCHIVE,
    EMPTY_ZIP_ARCHIVE,
    NUMPY_ARRAY,
    PNG_PICTURE,
    OPENING_SUITE,
    LADDER_RATINGS,
    HTML_PAGE,
    MARKDOWN_PAGE,
    JSON_LINES,
    _TEXT,
)


def what_it_holds(head: bytes) -> FileKind | None:
    """The kind of a file whose first bytes are `head` (`_KNOWN`, the most particular first),
    or None for a file of none of them (binary data of another kind)."""
    return next((kind for kind in _KNOWN if kind.holds(head)), None)


def _head(path: str | os.PathLike) -> bytes:
    """The first `HEAD_BYTES` bytes of the regular file `path`: opened without following a
    link or waiting for a FIFO's writer; OSError when it cannot be read or is not a regular
    file."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    descriptor = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OSError(f"{path} is not a regular file")
        return os.read(descriptor, HEAD_BYTES)
    finally:
        os.close(descriptor)


def refusal(path: str | os.PathLike) -> str | None:
    """Why `path` cannot be written as an output (one line), or None when it is a regular file
    or does not exist. A link is looked at, not followed."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"{path}: {error.strerror or error}"
    if stat.S_ISREG(mode):
        return None
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    return f"{path} is {kind}, not a regular file: name a new or regular file to write"


def kind_refusal(
    path: str | os.PathLike, kind: FileKind, replacing: str = "replace=True"
) -> str | None:
    """Why the regular file `path` is not replaced by a file of `kind` (one line, saying that
    `replacing` replaces it anyway), or None when it does not exist, is empty or is of `kind`
    already (`what_it_holds`: JSON lines are not an opening suite, though both begin with
    a brace)."""
    try:
        head = _head(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        what = f"cannot be read to tell what it is ({error.strerror or error})"
    else:
        found = what_it_holds(head)
        if not head or found == kind:
            return None
        what = f"is {'a binary file' if found is None else found.name}"
    return f"{path} {what}, not {kind.name}: name another file, or give {replacing} to replace it"


def check_output(
    path: str | os.PathLike, kind: FileKind | None = None, replace: bool = False
) -> None:
    """Refuse `path` (`OutputError`) when it exists and is not a regular file, or, with `kind`
    and without `replace`, when it is a file of another kind (`kind_refusal`)."""
    why = refusal(path)
    if why is None and kind is not None and not replace:
        why = kind_refusal(path, kind)
    if why is not None:
        raise OutputError(why)


@contextmanager
def atomic_file(
    path: str | os.PathLike, kind: FileKind | None = None, replace: bool = False
) -> Iterator[BinaryIO]:
    """A binary file to write `path`'s new content into; it becomes `path` when the block ends
    without an error, and is removed when it fails. With `kind`, an existing file of another
    kind is refused unless `replace` (`check_output`)."""
    target = Path(path)
    check_output(target, kind, replace)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = None  # a new file: 0o666 less the umask, as open() gives it
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    descriptor = os.open(temporary, flags, 0o666)
    try:
        with os.fdopen(descriptor, "wb") as file:
            if mode is not None:
                os.chmod(file.fileno(), mode)
            yield file
            file.flush()
            os.fsync(file.fileno())
        check_output(target)  # made something else while the content was written
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def write_atomically(
    path: str | os.PathLike, content: bytes, kind: FileKind | None = None, replace: bool = False
) -> None:
    """Write `content` to `path` whole or not at all (`atomic_file`): a file of `kind`, which
    replaces an existing file of another kind only when `replace`."""
    with atomic_file(path, kind, replace) as file:
        file.write(content)
