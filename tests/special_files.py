"""Paths that exist and are not regular files, for the tests of the output rule."""

from __future__ import annotations

import os
import stat
from pathlib import Path


def special(tmp_path: Path, kind: str) -> Path:
    """A path in `tmp_path` that exists and is not a regular file: a FIFO, a link to a regular
    file, a folder, or a character device (the null device's numbers; a FIFO where device
    nodes cannot be made)."""
    path = tmp_path / kind
    if kind == "link":
        (tmp_path / "target").write_text("kept")
        path.symlink_to(tmp_path / "target")
    elif kind == "folder":
        path.mkdir()
    elif kind == "device":
        try:
            os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        except PermissionError:
            os.mkfifo(path)
    else:
        os.mkfifo(path)
    return path


KINDS = ["fifo", "link", "folder", "device"]


def listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())
