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
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
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
    """An output path that names something other than a regular file."""


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


def check_output(path: str | os.PathLike) -> None:
    """Refuse `path` (`OutputError`) when it exists and is not a regular file."""
    why = refusal(path)
    if why is not None:
        raise OutputError(why)


@contextmanager
def atomic_file(path: str | os.PathLike) -> Iterator[BinaryIO]:
    """A binary file to write `path`'s new content into; it becomes `path` when the block ends
    without an error, and is removed when it fails."""
    target = Path(path)
    check_output(target)
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


def write_atomically(path: str | os.PathLike, content: bytes) -> None:
    """Write `content` to `path` whole or not at all (`atomic_file`)."""
    with atomic_file(path) as file:
        file.write(content)
