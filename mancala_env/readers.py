"""The one rule for every file the suite reads (stores' JSON fields, JSON-lines records, opening
suites, network files, training checkpoints and configs, endgame database headers).

A file is measured before it is read (the size of the open file, so a 2 GB file is refused
without a byte of it in memory) and hashed in chunks; JSON and TOML are scanned for how deeply
they nest before a parser (which recurses) sees them; a numpy ``.npz`` archive's members are
checked against the names its format defines, and each member's declared dtype and shape (read
from its ``.npy`` header, nothing inflated) against the sizes expected, before any is inflated;
numbers are range-checked (`mancala_env.inputs.integer` and `number`), bools being no integers
and floats no integers, however whole. Every refusal is a `ReadError`: one line naming the file
and the field.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import re
import stat
import sys
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, BinaryIO

import numpy as np

MAX_NESTING = 32  # brackets deep: no file the suite writes nests more than 6
CHUNK = 1 << 20  # bytes hashed at a time


class ReadError(ValueError):
    """A file that is not what it should be: one line, the file and the field named."""

    def __init__(self, where: Any, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where, self.problem = where, problem


def open_regular(path: str | os.PathLike, limit: int) -> BinaryIO:
    """`path` opened for reading once it is known to be a regular file of at most `limit`
    bytes (a FIFO is opened without waiting for a writer, then refused)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise ReadError(path, f"cannot be read: {error.strerror or error}") from None
    file = os.fdopen(fd, "rb")
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise ReadError(path, "is not a regular file")
        if status.st_size > limit:
            raise ReadError(path, f"is {status.st_size:,} bytes; at most {limit:,} are read")
    except BaseException:
        file.close()
        raise
    return file


def read_bytes(path: str | os.PathLike, limit: int) -> bytes:
    """The bytes of the regular file at `path`, refused unread when it holds more than `limit`."""
    with open_regular(path, limit) as file:
        size = os.fstat(file.fileno()).st_size
        data = file.read(size + 1)  # a read allocates what it asks for: ask for what is there
        data += file.read(limit + 1 - len(data)) if len(data) > size else b""
    if len(data) > limit:  # it grew while being read
        raise ReadError(path, f"is over {limit:,} bytes; at most {limit:,} are read")
    return data


def file_sha256(path: str | os.PathLike, limit: int) -> str:
    """The SHA-256 of the file at `path` (hex), read in chunks once its size is checked."""
    digest = hashlib.sha256()
    read = 0
    with open_regular(path, limit) as file:
        while chunk := file.read(CHUNK):
            read += len(chunk)
            if read > limit:
                raise ReadError(path, f"is over {limit:,} bytes; at most {limit:,} are read")
            digest.update(chunk)
    return digest.hexdigest()


def content_identity(content: bytes) -> str:
    """What a file's content is, whatever its path: ``sha256:`` and the hash of its bytes."""
    return "sha256:" + hashlib.sha256(content).hexdigest()


def file_identity(path: str | os.PathLike, limit: int) -> str:
    """`content_identity` of the file at `path`, read in chunks (`file_sha256`)."""
    return "sha256:" + file_sha256(path, limit)


_JSON_STRINGS = re.compile(r'"(?:\\.|[^"\\])*"')
_TOML_SKIPPED = re.compile(
    r'"""(?:\\.|[^\\])*?""""{0,2}'  # multi-line basic strings
    r"|'''[\s\S]*?''''{0,2}"  # multi-line literal strings
    r'|"(?:\\.|[^"\\\n])*"'  # basic strings
    r"|'[^'\n]*'"  # literal strings
    r"|#[^\n]*"  # comments
)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")


def nesting(text: str, toml: bool = False) -> int:
    """How deeply the arrays and objects (tables) of a JSON (or, with `toml`, TOML) text nest:
    its brackets counted outside strings (and TOML's comments). A string the scan cannot close
    leaves its brackets counted, so the scan never says less than a parser meets."""
    skipped = (_TOML_SKIPPED if toml else _JSON_STRINGS).sub("", text)
    brackets = np.frombuffer(_NOT_BRACKETS.sub("", skipped).encode(), dtype=np.uint8)
    depth = deepest = 0
    for start in range(0, len(brackets), CHUNK):
        part = brackets[start : start + CHUNK]
        levels = depth + np.cumsum(np.where((part == 91) | (part == 123), 1, -1))  # [ {
        deepest, depth = max(deepest, int(levels.max())), int(levels[-1])
    return deepest


def _check_nesting(text: str, where: Any, toml: bool = False) -> None:
    depth = nesting(text, toml)
    if depth > MAX_NESTING:
        raise ReadError(where, f"nests {depth} levels deep; at most {MAX_NESTING} are read")


def parse_json(data: bytes | str, where: Any) -> Any:
    """The JSON in `data`, refused when it is no JSON or nests over `MAX_NESTING` levels."""
    try:
        text = data.decode("utf-8") if isinstance(data, (bytes, bytearray)) else data
    except UnicodeDecodeError as error:
        raise ReadError(
            where, f"is not UTF-8 text ({error.reason} at byte {error.start})"
        ) from None
    _check_nesting(text, where)
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:
        raise ReadError(where, f"is not JSON: {str(error).splitlines()[0]}") from None


def parse_toml(data: bytes | str, where: Any) -> dict[str, Any]:
    """The TOML in `data`, refused when it is no TOML or nests over `MAX_NESTING` levels."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # Python 3.10: the train extra brings tomli
        import tomli as tomllib
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ReadError(
            where, f"is not UTF-8 text ({error.reason} at byte {error.start})"
        ) from None
    _check_nesting(text, where, toml=True)
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as error:
        raise ReadError(where, f"is not valid TOML: {str(error).splitlines()[0]}") from None


@dataclass(frozen=True)
class Member:
    """An ``.npz`` member as its ``.npy`` header declares it."""

    shape: tuple[int, ...]
    dtype: np.dtype

    @property
    def nbytes(self) -> int:
        return math.prod(self.shape) * self.dtype.itemsize


class NpzArchive:
    """A numpy ``.npz`` archive whose members are known by their headers before any is inflated:
    `members` maps each array's name to its declared shape and dtype. The declared sizes add up
    to at most `limit` bytes; every member is a plain ``.npy`` array (no objects, no pickles).
    """

    def __init__(self, source: bytes, where: Any, limit: int) -> None:
        self.where = where
        try:
            self.zip = zipfile.ZipFile(io.BytesIO(source))
            infos = self.zip.infolist()
        except (zipfile.BadZipFile, OSError, ValueError, EOFError) as error:
            raise ReadError(where, f"is not a numpy .npz file ({error})") from None
        declared = sum(info.file_size for info in infos)
        if declared > limit:
            raise ReadError(where, f"its members hold {declared:,} bytes; at most {limit:,}")
        self.members: dict[str, Member] = {}
        for info in infos:
            name = info.filename.removesuffix(".npy")
            if name == info.filename or name in self.members:
                raise ReadError(where, f"member {info.filename!r} is not one numpy array")
            self.members[name] = self._header(info)

    def _header(self, info: zipfile.ZipInfo) -> Member:
        try:
            with self.zip.open(info) as stream:
                version = np.lib.format.read_magic(stream)
                read = {
                    (1, 0): np.lib.format.read_array_header_1_0,
                    (2, 0): np.lib.format.read_array_header_2_0,
                }.get(version)
                if read is None:
                    raise ValueError(f"npy format version {version}")
                shape, _, dtype = read(stream)
        except (ValueError, OSError, EOFError, zipfile.BadZipFile, RuntimeError) as error:
            problem = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise ReadError(self.where, f"member {info.filename!r}: {problem}") from None
        member = Member(tuple(shape), dtype)
        if dtype.hasobject or dtype.fields is not None or member.nbytes > info.file_size:
            raise ReadError(
                self.where,
                f"member {info.filename!r} declares {dtype} of shape {tuple(shape)}, which "
                f"its {info.file_size:,} bytes do not hold",
            )
        return member

    def expect(self, shapes: Mapping[str, tuple[tuple[int, ...], str]]) -> None:
        """Refuse the archive unless it holds exactly the arrays of `shapes` (name -> shape and
        dtype kinds, ``"f"`` floats, ``"iu"`` integers, ``"b"`` bools, ``"u"`` bytes)."""
        names = set(self.members)
        if names != set(shapes):
            extra, missing = sorted(names - set(shapes)), sorted(set(shapes) - names)
            said = "; ".join(
                part
                for part in (
                    extra and f"has unknown members {', '.join(extra)}",
                    missing and f"lacks {', '.join(missing)}",
                )
                if part
            )
            raise ReadError(self.where, said)
        for name, (shape, kinds) in shapes.items():
            member = self.members[name]
            if member.shape != shape or member.dtype.kind not in kinds:
                raise ReadError(
                    self.where,
                    f"{name} is {member.dtype} of shape {member.shape}, not of kind {kinds!r} "
                    f"and shape {shape}",
                )

    def array(self, name: str) -> np.ndarray:
        """Member `name`, inflated (its header was checked when the archive was opened)."""
        try:
            with self.zip.open(f"{name}.npy") as stream:
                return np.lib.format.read_array(stream, allow_pickle=False)
        except (ValueError, OSError, EOFError, zipfile.BadZipFile) as error:
            raise ReadError(self.where, f"{name}: {str(error).splitlines()[0]}") from None

    def close(self) -> None:
        self.zip.close()

    def __enter__(self) -> NpzArchive:
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()
