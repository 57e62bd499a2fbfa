"""The command line's one validation layer: argument types with their ranges, and paths checked
before a command begins its work.

argparse calls each type on the text given (and on a default given as text), so a bad value
stops the command before anything is read, computed or written, with exit status 2 and one line
on standard error: ``mancala solve: error: argument --max-seeds: must be an integer from 0 to
31, got '99'``. `Parser` is argparse's parser with that one line instead of the usage message
before it, and it keeps an output from naming one of the command's inputs (`keep_apart`) or
an existing file of another kind than the one written, unless ``--replace`` is given
(`writes`). What only the library can judge, once the command begins, is refused in the same
form by `fail`.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

from .inputs import integer_text, number_text
from .outputs import FileKind, kind_refusal, refusal
from .variants import VARIANTS

USAGE_ERROR = 2
SEED_MAX = 2**32 - 1  # numpy's legacy seeding (which training uses) takes 32 bits
REPLACE = "--replace"  # the flag that lets an output replace an existing file of another kind


def fail(command: str, message: object, status: int = USAGE_ERROR) -> int:
    """Say in one line on standard error why ``mancala command`` stops, and return `status`:
    2 (the default) when what it was asked is refused, 1 when it could not finish."""
    print(f"mancala {command}: error: {message}", file=sys.stderr)
    return status


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose errors are one line (``PROG: error: MESSAGE``) and exit 2; its
    subparsers are of this class too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._apart: list[tuple[str, tuple[str, ...]]] = []
        self._writes: list[tuple[str, FileKind | Mapping[str, FileKind]]] = []

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE_ERROR, f"{self.prog}: error: {' '.join(message.split())}\n")

    def keep_apart(self, output: str, *inputs: str) -> None:
        """Refuse the path of argument `output` (its dest) when it names the path of one of
        the arguments `inputs`: writing it would replace what the command reads."""
        self._apart.append((output, inputs))

    def writes(self, output: str, kind: FileKind | Mapping[str, FileKind]) -> None:
        """Argument `output` (its dest) names a file the command writes as `kind`, or a folder
        it writes files in (`kind`: each file's name and kind). An existing file of another
        kind there (`mancala_env.outputs.kind_refusal`: a store, a database, a network) is
        refused unless ``--replace`` is given; the command gets that flag here."""
        self._writes.append((output, kind))
        if not any(REPLACE in action.option_strings for action in self._actions):
            self.add_argument(
                REPLACE,
                action="store_true",
                help="replace an existing output that is not of the kind written (a store, a "
                "database, a network, another file); without it such a file is refused",
            )

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        namespace, extras = super().parse_known_args(args, namespace)
        for output, inputs in self._apart:
            path = getattr(namespace, output, None)
            for source in inputs:
                other = getattr(namespace, source, None)
                if path is not None and other is not None and same_file(path, other):
                    self.error(
                        f"argument {self._name(output)}: {path} is the {self._name(source)} "
                        "it reads; name another file"
                    )
        for output, kind in self._writes:
            path = getattr(namespace, output, None)
            if path is None or getattr(namespace, "replace", False):
                continue
            files = kind.items() if isinstance(kind, Mapping) else [("", kind)]
            for name, file_kind in files:
                why = kind_refusal(Path(path, name), file_kind, REPLACE)
                if why is not None:
                    self.error(f"argument {self._name(output)}: {why}")
        return namespace, extras

    def _name(self, dest: str) -> str:
        """How the user names the argument of `dest`: its option, or its name."""
        action = next(a for a in self._actions if a.dest == dest)
        return action.option_strings[-1] if action.option_strings else action.metavar or dest


def _shown(bound: float) -> str:
    """A bound as a reader writes it: 4,294,967,295 or 0.01."""
    return f"{bound:,}" if isinstance(bound, int) else f"{bound:,g}"


def _ranged(
    kind: str, convert: Callable[[str], float], low: float | None, high: float | None
) -> Callable[[str], float]:
    """A type that converts its text with `convert` and allows `low` to `high` (either bound
    open when None)."""
    if low is not None and high is not None:
        allowed = f"{kind} from {_shown(low)} to {_shown(high)}"
    elif low is not None:
        allowed = f"{kind} of {_shown(low)} or more"
    elif high is not None:
        allowed = f"{kind} of {_shown(high)} or less"
    else:
        allowed = kind

    def check(text: str) -> float:
        try:
            value = convert(text)
        except (ValueError, OverflowError):
            value = None
        if (
            value is None
            or (low is not None and value < low)
            or (high is not None and value > high)
            or (isinstance(value, float) and not math.isfinite(value))
        ):
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {text!r}")
        return value

    return check


def integer(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """The type of an integer argument from `low` to `high`."""
    return _ranged("an integer", integer_text, low, high)  # type: ignore[return-value]


def real(low: float | None = None, high: float | None = None) -> Callable[[str], float]:
    """The type of a finite number from `low` to `high`."""
    return _ranged("a number", number_text, low, high)


seed = integer(0, SEED_MAX)  # the type of a random seed


def _refuse(text: str, why: str) -> NoReturn:
    raise argparse.ArgumentTypeError(f"{text}: {why}")


def input_file(text: str) -> str:
    """An existing file that can be read."""
    path = Path(text)
    if path.is_dir():
        _refuse(text, "is a folder; name a file")
    if not path.exists():
        _refuse(text, "no such file")
    from .readers import ReadError, open_regular  # not on `mancala --help`'s path

    try:  # a FIFO or a device is refused, not waited on
        with open_regular(path, sys.maxsize):
            pass
    except ReadError as error:
        _refuse(text, error.problem)
    return text


def input_folder(text: str) -> str:
    """An existing folder."""
    if not Path(text).is_dir():
        _refuse(text, "is not a folder" if Path(text).exists() else "no such folder")
    return text


def _check_writable(folder: Path, text: str) -> None:
    """Whether a file can be created in `folder`: an anonymous file is made there and gone at
    once, so nothing in the folder changes (a folder where no one can write, such as /proc,
    is found as well, whoever runs the command)."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        _refuse(text, f"cannot write in {folder}: {error.strerror or error}")


def output_file(text: str) -> str:
    """A file to write: not a folder, in an existing folder where files can be created, and
    not something else than a regular file (`mancala_env.outputs.refusal`: a device, a FIFO,
    a link), which the writer would replace."""
    path = Path(text)
    if path.is_dir():
        _refuse(text, "is a folder; name a file")
    why = refusal(path)
    if why is not None:
        raise argparse.ArgumentTypeError(why)
    folder = path.parent
    if not folder.is_dir():
        _refuse(text, f"no such folder: {folder}")
    _check_writable(folder, text)
    return text


def output_folder(text: str) -> str:
    """A folder to write in: an existing folder, or one that can be created (its nearest
    existing parent a folder where files can be created)."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        _refuse(text, "is a file; name a folder")
    existing = next(p for p in (path, *path.parents) if p.exists() or p == Path(p.anchor))
    if not existing.is_dir():
        _refuse(text, f"{existing} is a file, not a folder")
    _check_writable(existing, text)
    return text


def same_file(one: str | os.PathLike, other: str | os.PathLike) -> bool:
    """Whether two paths name the same file: the same existing file (through links too), or
    the same path."""
    try:
        return os.path.samefile(one, other)
    except OSError:
        return Path(one).resolve() == Path(other).resolve()


# ---- rule options ------------------------------------------------------------------------------
def parse_option(text: str, variant: str | None = None) -> tuple[str, Any]:
    """``KEY=VALUE`` -> (key, value); the value becomes an int (`integer_text`: ASCII digits,
    no underscores), True, False, or stays a string (which an integer option refuses);
    ``none`` becomes None for an option of `variant` that may be None (as in
    ``relay_limit=none``), and stays text for the others (``odu=none``)."""
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise ValueError(f"option {text!r} is not of the form KEY=VALUE")
    lowered = raw.lower()
    if lowered in ("true", "false"):
        return key, lowered == "true"
    if lowered == "none" and variant is not None and key in nullable_options(variant):
        return key, None
    try:
        return key, integer_text(raw)
    except ValueError:
        return key, raw


def nullable_options(variant: str) -> set[str]:
    """The options of `variant` that may be None (an unknown variant has none)."""
    if variant not in VARIANTS:
        return set()
    fields = dataclasses.fields(VARIANTS[variant].options_type)
    return {f.name for f in fields if f.metadata.get("or_none")}


def parse_options(texts: list[str], variant: str) -> dict[str, Any]:
    """The ``--option KEY=VALUE`` arguments for a game of `variant` (`parse_option`)."""
    return dict(parse_option(text, variant) for text in texts)
