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

import array
import hashlib
import io
import json
import math
import os
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
    bytes (a FIFO is opened without waiting for a writer, then refused; a folder is refused
    before Python's file object, which raises IsADirectoryError on one, is made)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise ReadError(path, f"cannot be read: {error.strerror or error}") from None
    try:
        status = os.fstat(fd)
        if stat.S_ISDIR(status.st_mode):
            raise ReadError(path, "is a folder, not a regular file")
        if not stat.S_ISREG(status.st_mode):
            raise ReadError(path, "is not a regular file")
        if status.st_size > limit:
            raise ReadError(path, f"is {status.st_size:,} bytes; at most {limit:,} are read")
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


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


SCAN_CHUNK = 1 << 18  # bytes of JSON scanned for nesting at a time (a few MB of work arrays)
_QUOTE, _APOSTROPHE, _HASH, _BACKSLASH, _NEWLINE = b'"', b"'", b"#", b"\\", b"\n"


def nesting(text: str | bytes, toml: bool = False) -> int:
    """How deeply the arrays and objects (tables) of a JSON (or, with `toml`, TOML) text nest:
    its brackets counted outside strings (and TOML's comments), in time linear in the text's
    length. The scan follows the text as a parser reads it up to the first point where a parser
    must fail (a string never closed, a backslash outside a string), so it never says less than
    a parser meets; what it counts past that point only makes the figure larger."""
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogatepass")
    # A multi-byte UTF-8 character holds no ASCII byte: quotes and brackets are found as bytes.
    return _toml_nesting(text) if toml else _json_nesting(text)


def _bytes(data: bytes) -> np.ndarray:
    return np.frombuffer(data, dtype=np.uint8)


def _is(chunk: np.ndarray, char: bytes) -> np.ndarray:
    return chunk == char[0]


def _where(marks: np.ndarray) -> np.ndarray:
    """The positions of `marks` that are set, as int32 (a scanned text is under 2**31 bytes)."""
    return np.flatnonzero(marks).astype(np.int32)


def _unescaped(chunk: np.ndarray, escaping: bool) -> tuple[np.ndarray, bool]:
    """Which bytes of `chunk` follow an even run of backslashes (`escaping`: the run before the
    chunk is odd), and whether the run at its end is odd."""
    positions = np.arange(len(chunk), dtype=np.int32)
    last_other = np.maximum.accumulate(np.where(_is(chunk, _BACKSLASH), -1, positions))
    run = np.empty(len(chunk), dtype=np.int32)  # the backslashes just before each byte
    run[0] = escaping
    run[1:] = positions[:-1] - last_other[:-1] + np.where(last_other[:-1] < 0, escaping, 0)
    trailing = len(chunk) - 1 - int(last_other[-1]) + (escaping if last_other[-1] < 0 else 0)
    return run % 2 == 0, bool(trailing % 2)


def _depths(chunk: np.ndarray, counted: np.ndarray, depth: int) -> np.ndarray:
    """The depth after each byte of `chunk`, from `depth`, counting its brackets where `counted`."""
    opens = (_is(chunk, b"[") | _is(chunk, b"{")) & counted
    closes = (_is(chunk, b"]") | _is(chunk, b"}")) & counted
    return depth + np.cumsum(opens.astype(np.int64) - closes)


def _json_nesting(data: bytes) -> int:
    """JSON's nesting, scanned in chunks: a quote after an odd run of backslashes is escaped,
    every other quote opens or closes a string."""
    in_string, escaping, depth, deepest = False, False, 0, 0
    for start in range(0, len(data), SCAN_CHUNK):
        chunk = _bytes(data[start : start + SCAN_CHUNK])
        unescaped, escaping = _unescaped(chunk, escaping)
        quotes = _is(chunk, _QUOTE) & unescaped
        inside = (np.cumsum(quotes) + in_string) % 2 == 1
        levels = _depths(chunk, ~inside & ~quotes, depth)
        deepest, depth = max(deepest, int(levels.max())), int(levels[-1])
        in_string = bool((np.count_nonzero(quotes) + in_string) % 2)
    return deepest


def _toml_nesting(data: bytes) -> int:
    """TOML's nesting: where each string or comment that could begin ends is found at once (by
    binary search over the bytes that can end it), then a walk from token to token (a step of
    plain Python each) picks those a parser meets, and the brackets outside them are counted."""
    chunk = _bytes(data)
    if not len(chunk):
        return 0
    starts, ends = _toml_token_bounds(data, chunk)
    following = array.array("i", np.searchsorted(starts, ends).astype(np.int32).tobytes())
    met = bytearray(len(starts))
    token = 0
    while token < len(starts):
        met[token] = 1
        token = following[token]
    met_tokens = np.frombuffer(bytes(met), dtype=bool)
    edges = np.zeros(len(chunk) + 1, dtype=np.int8)
    edges[starts[met_tokens]] += 1
    edges[ends[met_tokens]] -= 1
    levels = _depths(chunk, np.cumsum(edges)[:-1] == 0, 0)
    return max(0, int(levels.max()))


def _toml_token_bounds(data: bytes, chunk: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each byte that would begin a string or a comment, and where that token would end (the
    text's length for a string that never closes: a parser reads no further)."""
    size = len(chunk)
    newlines = _where(_is(chunk, _NEWLINE))
    starts = _where(_is(chunk, _QUOTE) | _is(chunk, _APOSTROPHE) | _is(chunk, _HASH))
    opening = chunk[starts]

    def first(found: np.ndarray, at: np.ndarray) -> np.ndarray:  # from `at` on; `size` if none
        return np.append(found, np.int32(size))[np.searchsorted(found, at)]

    def end_of_strings(quote: bytes, closing: np.ndarray) -> np.ndarray:
        """Where the strings opened by `quote` end: one-line strings at their next closing
        quote unless a line ends first, multi-line ones after their closing three and the
        (at most two) quotes before those three that the string keeps."""
        marks = np.append(_is(chunk, quote), [False, False, False])
        three = marks[:-3] & marks[1:-2] & marks[2:-1]
        one_line = first(closing, starts + 1)
        one_line = np.where(first(newlines, starts) < one_line, size, one_line + 1)
        last = first(closing[three[closing]], starts + 3) + 3
        last += marks[np.minimum(last, size)] * (1 + marks[np.minimum(last + 1, size)])
        return np.where(three[starts], last, one_line)

    unescaped = _where(_is(chunk, _QUOTE) & _unescaped(chunk, False)[0])
    ends = np.where(
        opening == _QUOTE[0],
        end_of_strings(_QUOTE, unescaped),
        end_of_strings(_APOSTROPHE, _where(_is(chunk, _APOSTROPHE))),
    )
    ends = np.where(opening == _HASH[0], first(newlines, starts), ends)
    return starts, np.minimum(ends, size)


def _check_nesting(text: str | bytes, where: Any, toml: bool = False) -> None:
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
    _check_nesting(data, where)
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
