"""The files of an endgame database: one per seed count, a header and the values.

``seeds_NN.egdb`` holds the values of every board of ``NN`` seeds:

- bytes ``0 .. 4095``: the magic line ``MANCALA-ENDGAME`` and a JSON header padded with
  zero bytes: ``format``, ``variant`` and its ``version``, the ``options`` the values depend
  on, ``rules`` (a fingerprint of the rule parameters), ``seeds``, ``positions``, ``units``
  and ``checksum`` (CRC-32 of the values);
- then one unsigned byte a board, in the order of `index.rank`: the most half seeds the
  player to move wins from the board against best play (the board seen from their side).

A build writes each level whole or not at all (`mancala_env.outputs.atomic_file`), so a file
with the final name is always whole.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from ..engine.layout import MAX_PITS
from ..escaping import for_terminal
from ..inputs import is_integer
from ..outputs import atomic_file
from ..readers import ReadError, file_sha256, open_regular, parse_json
from .index import MAX_SEEDS, level_size

FORMAT = 1
MAGIC = b"MANCALA-ENDGAME\n"
HEADER_SIZE = 4096
UNITS = "half seeds won by the player to move, from the board seen from their side"


class DatabaseError(ValueError):
    """A database file that is missing, corrupt, or built for other rules."""


def level_path(directory: str | os.PathLike, seeds: int) -> Path:
    """The file of the boards of `seeds` seeds in `directory`."""
    return Path(directory) / f"seeds_{seeds:02d}.egdb"


def level_paths(directory: str | os.PathLike) -> Iterator[Path]:
    """The level files a database in `directory` is made of: ``seeds_00.egdb`` and those after
    it up to the first seed count without one (a link in a level's place counts, to be
    refused when read)."""
    for seeds in range(MAX_SEEDS + 1):
        path = level_path(directory, seeds)
        if not os.path.lexists(path):
            return
        yield path


def max_level_bytes(seeds: int) -> int:
    """The most bytes a level file of `seeds` seeds can hold: its header and a byte a board of
    the largest board (twelve pits), whose boards a build numbers in 32 bits. A file larger
    than this is refused unread."""
    return HEADER_SIZE + min(level_size(seeds, MAX_PITS), 2**32 - 1)


def database_identity(directory: str | os.PathLike) -> str:
    """What the database in `directory` is: the SHA-256 of every byte of its level files
    (`level_paths`), headers and values, so values changed under an unchanged header (whose
    checksum is a CRC, which can be forged) make a new identity, as a rebuilt database does.
    Each file is measured first (at most `max_level_bytes`) and hashed in chunks: the cost is
    one pass over the files, as opening the database makes (its checksums read every value)."""
    digest = hashlib.sha256()
    for seeds, path in enumerate(level_paths(directory)):
        try:
            digest.update(f"{seeds}:{file_sha256(path, max_level_bytes(seeds))}\n".encode())
        except ReadError as error:
            raise DatabaseError(f"endgame database file {error}") from None
    return f"sha256:{digest.hexdigest()}"


def checksum(values: np.ndarray) -> str:
    return f"crc32:{zlib.crc32(memoryview(np.ascontiguousarray(values))) & 0xFFFFFFFF:08x}"


def identity(header: dict[str, Any]) -> str:
    """The rules a header names, in words: ``oware v1 (grand_slam=no_capture, ...)``."""
    options = ", ".join(f"{k}={v}" for k, v in sorted(header["options"].items()))
    return for_terminal(f"{header['variant']} v{header['version']} ({options})")


def write_level(
    directory: str | os.PathLike, seeds: int, rules: dict[str, Any], values: np.ndarray
) -> Path:
    """Write level `seeds` (`rules`: variant, version, options, rules) and return its path."""
    header = {
        "format": FORMAT,
        **rules,
        "seeds": seeds,
        "positions": int(values.shape[0]),
        "units": UNITS,
        "checksum": checksum(values),
    }
    text = MAGIC + json.dumps(header).encode()
    path = level_path(directory, seeds)
    with atomic_file(path) as file:  # a full disk, a kill: no part of a level is left behind
        file.write(text.ljust(HEADER_SIZE, b"\0"))
        file.write(np.ascontiguousarray(values, dtype=np.uint8).tobytes())
    return path


# The header's entries and what each must be (a JSON header may hold anything).
HEADER_TYPES: dict[str, tuple[type | tuple[type, ...], str]] = {
    "variant": (str, "a rule set's name"),
    "version": (int, "an integer"),
    "options": (dict, "an object of option values"),
    "rules": (str, "a text"),
    "seeds": (int, "an integer"),
    "positions": (int, "an integer"),
    "checksum": (str, "a text"),
}


def _read_header(path: Path, file: BinaryIO | None = None) -> dict[str, Any]:
    """The header of the level file at `path`, read from `file` (that file, open) when given,
    checked for every entry a database reads."""
    if file is None:
        with _open_level(path, MAX_SEEDS) as opened:
            return _read_header(path, opened)
    head = file.read(HEADER_SIZE)
    if len(head) < HEADER_SIZE or not head.startswith(MAGIC):
        raise DatabaseError(f"{path} is not an endgame database file (no header)")
    try:
        header = parse_json(head[len(MAGIC) :].rstrip(b"\0"), path)
        if not isinstance(header, dict) or not is_integer(header.get("format")):
            raise ValueError
        if header["format"] != FORMAT:
            raise ValueError
        for key in HEADER_TYPES:
            header[key]  # noqa: B018 - each key must be there
    except (ValueError, KeyError, UnicodeDecodeError):
        raise DatabaseError(
            f"{path} is corrupt or of another format: its header cannot be read "
            f"(format {FORMAT} expected)"
        ) from None
    for key, (kinds, what) in HEADER_TYPES.items():
        value = header[key]
        if not isinstance(value, kinds) or isinstance(value, bool):
            raise DatabaseError(
                f"{path} is corrupt: its header's {key!r} must be {what}, got {value!r}"[:300]
            )
    return header


def _open_level(path: Path, seeds: int) -> BinaryIO:
    """The level file at `path` opened once it is known to be a regular file (a link is
    followed to one) of at most `max_level_bytes(seeds)`; else DatabaseError."""
    try:
        return open_regular(path, max_level_bytes(seeds))
    except ReadError as error:
        raise DatabaseError(f"endgame database file {error}") from None


def read_level(path: Path, seeds: int, rules: dict[str, Any]) -> np.ndarray:
    """The values of level `seeds`, memory-mapped from `path` after checking that the file was
    built for `rules` and is whole; DatabaseError says what is wrong. The file is opened once:
    its header, its size and its values are those of one file, whatever replaces it meanwhile."""
    with _open_level(path, seeds) as file:
        header = _read_header(path, file)
        if header["rules"] != rules["rules"] or header["version"] != rules["version"]:
            raise DatabaseError(
                f"{path} was built for {identity(header)}, not for {identity(rules)}: "
                "build a database for these rules with 'mancala solve'"
            )
        expected = level_size(seeds, rules["pits"])
        if header["seeds"] != seeds or header["positions"] != expected:
            raise DatabaseError(
                f"{path} is corrupt: its header says {header['seeds']} seeds and "
                f"{header['positions']} positions, its name {seeds} seeds ({expected} positions)"
            )
        size = os.fstat(file.fileno()).st_size - HEADER_SIZE
        if size != expected:
            raise DatabaseError(
                f"{path} is corrupt: it holds {size} values, {expected} expected (truncated?)"
            )
        values = np.memmap(file, dtype=np.uint8, mode="r", offset=HEADER_SIZE, shape=(expected,))
    if checksum(values) != header["checksum"]:
        raise DatabaseError(f"{path} is corrupt: its values do not match their checksum")
    # a board of `seeds` seeds is worth 0 to `seeds` seeds (2 * seeds half seeds) to either player
    most = int(values.max()) if expected else 0
    if most > 2 * seeds:
        raise DatabaseError(
            f"{path} is corrupt: it holds a value of {most} half seeds, and a board of {seeds} "
            f"seeds is worth 0 to {2 * seeds}"
        )
    return values
