"""Where the derived kernels' modules are kept, and whether that folder can be trusted.

The derived modules are Python source the suite writes and then imports, and numba keeps its
compiled code and a pickled index of it beside them (``kernels/__pycache__``): whoever can
write in that folder can run code in every process that plays. So a folder is used only when
it is safe: the folder (and ``kernels``, and numba's ``__pycache__`` when they exist) is owned
by the current user and writable by no one else, and every folder above it is owned by the
user or by root and writable by no one else unless it is sticky (as ``/tmp`` is: there, no one
can rename or replace another's entry). Where others can enter ``kernels`` or its
``__pycache__`` (a folder not of mode 0700, as the suite makes them), each file in it must be the
user's and writable by no one else too. Every entry is looked at with ``os.lstat``, both on the
path as named (a link on the way must be the user's or root's) and on the path it resolves to.

The folder asked for is ``$MANCALA_ENV_CACHE``, else ``$XDG_CACHE_HOME/mancala_env``, else
``~/.cache/mancala_env``. When it cannot be created, the user's own folder in the system's
temporary folder is used (``mancala_env-cache-<uid>``: not a name Python can import, so a
script run from there cannot import it in the package's place). When the folder there is not
safe, a private temporary folder (mode 0700, removed when the process ends) is used instead,
and one line on standard error says why: nothing is imported from a folder others could write.
"""

from __future__ import annotations

import atexit
import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path

_SUBFOLDERS = ("kernels", "kernels/__pycache__")  # the derived modules, numba's index of them
MAX_ENTRIES = 100_000  # files a kernels folder others can enter is searched for (some hundred)
_private: list[Path] = []  # this process's private folder, once made
_told: set[str] = set()  # the folders refused, said once a process


def cache_folder() -> Path:
    """The folder the derived modules live in (its ``kernels`` subfolder exists): the one
    asked for, else the user's folder in the temporary folder, each used only when `unsafe`
    finds nothing wrong with it, else a private temporary folder."""
    for folder in (_asked_for(), Path(tempfile.gettempdir()) / f"mancala_env-cache-{os.getuid()}"):
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            (folder / "kernels").mkdir(mode=0o700, exist_ok=True)
        except OSError:
            continue  # cannot be written: the next one
        why = unsafe(folder)
        if why is None:
            return folder
        return _private_folder(folder, why)
    return _private_folder(None, "no cache folder could be created")


def _asked_for() -> Path:
    if os.environ.get("MANCALA_ENV_CACHE"):
        return Path(os.environ["MANCALA_ENV_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mancala_env"


def unsafe(folder: Path) -> str | None:
    """Why code in `folder` could have been put there by someone else, or None when it could
    not: see the module's docstring."""
    user = os.getuid()
    named = Path(os.path.abspath(folder))
    real = Path(os.path.realpath(named))
    checks = [
        *(_not_guarded(path, user) for path in (named, *named.parents)),  # links on the way too
        *(_not_ours(path, user) for path in (real, *(real / name for name in _SUBFOLDERS))),
        *(_not_guarded(path, user) for path in real.parents),
        *(_entries_not_ours(real, name, user) for name in _SUBFOLDERS),
    ]
    return next((why for why in checks if why is not None), None)


def _not_ours(path: Path, user: int) -> str | None:
    """Why `path` is not a folder of `user`'s alone (None when it is, or does not exist)."""
    try:
        status = os.lstat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISDIR(status.st_mode):
        return f"{path} is not a folder"
    if status.st_uid != user:
        return f"{path} is owned by user {status.st_uid}, not by this user ({user})"
    if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"{path} can be written by others (mode {stat.S_IMODE(status.st_mode):o})"
    return None


def _entries_not_ours(cache: Path, name: str, user: int) -> str | None:
    """Why a file in the cache's subfolder `name` could have been changed by someone else:
    where others can reach it (every folder from `cache` down to it lets others enter: the
    suite makes them 0700), every entry must be a regular file or folder of `user`'s that no
    one else can write (None when the folder does not exist)."""
    folder = cache / name
    try:
        for path in (cache, *(cache / part for part in Path(name).parents[-2::-1]), folder):
            if not os.lstat(path).st_mode & (stat.S_IXGRP | stat.S_IXOTH):
                return None  # no one else reaches the files, whatever their modes
        entries = os.scandir(folder)
    except FileNotFoundError:
        return None
    with entries:
        for number, entry in enumerate(entries):
            if number == MAX_ENTRIES:
                return f"{folder} holds over {MAX_ENTRIES:,} entries"
            status = entry.stat(follow_symlinks=False)
            if not (stat.S_ISREG(status.st_mode) or stat.S_ISDIR(status.st_mode)):
                return f"{entry.path} is neither a regular file nor a folder"
            if status.st_uid != user:
                return f"{entry.path} is owned by user {status.st_uid}, not by this user ({user})"
            if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                mode = stat.S_IMODE(status.st_mode)
                return f"{entry.path} can be written by others (mode {mode:o})"
    return None


def _not_guarded(path: Path, user: int) -> str | None:
    """Why someone other than `user` and root could rename or replace what `path` holds."""
    status = os.lstat(path)
    if status.st_uid not in (user, 0):
        return f"{path} is owned by user {status.st_uid}"
    writable = status.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    if stat.S_ISDIR(status.st_mode) and writable and not status.st_mode & stat.S_ISVTX:
        return f"{path} can be written by others (mode {stat.S_IMODE(status.st_mode):o})"
    return None


def _private_folder(refused: Path | None, why: str) -> Path:
    """This process's private temporary folder, made once and removed at exit; one line on
    standard error says why `refused` is not used."""
    if not _private:
        folder = Path(tempfile.mkdtemp(prefix="mancala_env-cache-"))  # mode 0700
        (folder / "kernels").mkdir()
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        _private.append(folder)
    told = str(refused)
    if told not in _told:
        _told.add(told)
        where = f"the cache folder {refused}" if refused is not None else "a cache folder"
        print(
            f"mancala_env: not using {where} ({why}); the derived kernels go to the private "
            f"folder {_private[0]} for this process and compile again in the next",
            file=sys.stderr,
        )
    return _private[0]
