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
from pathlib import Path
from typing import Any

import numpy as np

from ..escaping import for_terminal
from ..inputs import is_integer
from ..outputs import atomic_file
from ..readers import ReadError, open_regular, parse_json
from .index import level_size

FORMAT = 1
MAGIC = b"MANCALA-ENDGAME\n"
HEADER_SIZE = 4096
UNITS = "half seeds won by the player to move, from the board seen from their side"


class DatabaseError(ValueError):
    """A database file that is missing, corrupt, or built for other rules."""


# a level file is memory-mapped, never read whole: this only bounds what a header may claim
MAX_LEVEL_BYTES = 1 << 40


def level_path(directory: str | os.PathLike, seeds: int) -> Path:
    """The file of the boards of `seeds` seeds in `directory`."""
    return Path(directory) / f"seeds_{seeds:02d}.egdb"


def headers_digest(directory: str | os.PathLike) -> str:
    """The SHA-256 of the headers of the level files in `directory`: each holds its values'
    checksum, so a database rebuilt or replaced gets a new digest, and no value is read."""
    digest = hashlib.sha256()
    for path in sorted(Path(directory).glob("seeds_*.egdb")):
        try:
            with open_regular(path, MAX_LEVEL_BYTES) as file:
                digest.update(file.read(HEADER_SIZE))
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


def _read_header(path: Path) -> dict[str, Any]:
    try:
        with open_regular(path, MAX_LEVEL_BYTES) as file:
            head = file.read(HEADER_SIZE)
    except ReadError as error:
        raise DatabaseError(f"endgame database file {error}") from None
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


def read_level(path: Path, seeds: int, rules: dict[str, Any]) -> np.ndarray:
    """The values of level `seeds`, memory-mapped from `path` after checking that the file was
    built for `rules` and is whole; DatabaseError says what is wrong."""
    header = _read_header(path)
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
    with open_regular(path, MAX_LEVEL_BYTES) as file:  # not a link's target's size
        size = os.fstat(file.fileno()).st_size - HEADER_SIZE
    if size != expected:
        raise DatabaseError(
            f"{path} is corrupt: it holds {size} values, {expected} expected (truncated?)"
        )
    values = np.memmap(path, dtype=np.uint8, mode="r", offset=HEADER_SIZE, shape=(expected,))
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
