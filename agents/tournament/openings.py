"""Opening suites: positions a few plies into a game, or start boards, that a search (or an
endgame database, by perfect play) rates even.

A suite is made once (`build_suite`, ``mancala openings``) and saved as a JSON file
(`save_suite`); tournaments and SPRT matches read it (`read_suite`, ``--opening-suite``) and
play couple k of each pair from entry k modulo the suite's size, the seats swapped.

The file (format ``mancala-opening-suite``, version 1, or 2 where an entry has a start) holds::

    {
      "format": {"name": "mancala-opening-suite", "version": 1},
      "variant": "oware",            # the rule set
      "version": 1,                  # its version under the options (Variant.version_of)
      "options": {...},              # every rule option, defaults included
      "plies": 4,                    # moves in each entry's line
      "search": "alphabeta:depth=6", # the agent spec that rated the positions
      "margin": 1.0,                 # kept when |value| <= margin (seeds, the mover's view)
      "seed": 0,                     # the seed the lines were drawn from
      "tried": 57,                   # distinct positions rated
      "entries": [{"seed": 123, "moves": [3, 1, 4, 0], "value": 0.0}, ...]
    }

An entry's game is reset with ``numpy.random.default_rng(seed)`` (as a tournament resets
its games) and its moves are played from there; `value` is the search's value of the position
after them for the player to move. In version 2 an entry may hold a ``start`` too, a board to
begin from instead of the rule set's starting position (`starts`: ``{"pits": [...],
"to_move": 0}``, every seed on the board); its moves, often none (``plies`` 0), are played from
there. A suite of version-1 entries only is written as version 1, as before starts were known.
A suite read back is checked whole: its format and version, every field's type, the rule set
and its version and options (against a tournament's too), every start (`starts.read_start`),
and every entry replayed (each move legal, the game still going after them).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import reprlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mancala_env import Game
from mancala_env.inputs import derived_seed, integer, is_integer, is_number, number
from mancala_env.outputs import OPENING_SUITE, write_atomically
from mancala_env.readers import ReadError, parse_json, read_bytes
from mancala_env.variants import VARIANTS, get_variant

from ..loader import load_agent
from .starts import Start, read_start, set_out

FORMAT_NAME = "mancala-opening-suite"
FORMAT_VERSION = 2  # what this code writes where an entry has a start; 1 where none has
FORMAT_VERSIONS = (1, 2)  # what it reads: version 1 has no starts
DEFAULT_SEARCH = "alphabeta:depth=6"
MAX_SUITE_BYTES = 64 * 1024 * 1024  # a larger file is no suite this code writes
MAX_ENTRIES = 100_000  # what `mancala openings --count` keeps at most: each is replayed
ENTRY_FIELDS = ("seed", "moves", "value")  # an entry's, in every version; version 2 adds start
MAX_COUNT = 2**63 - 1  # plies, seed, tried: numpy's seeds take 64 bits
SUITES = Path(__file__).parent / "suites"  # shipped: VARIANT.json, and NAME.json by name
_FIELDS = (
    "format",
    *("variant", "version", "options", "plies", "search", "margin", "seed", "tried", "entries"),
)


class SuiteError(ValueError):
    """A suite file that cannot be read, or does not fit the games it is asked to open."""


@dataclass(frozen=True)
class Opening:
    """One entry: the game's reset seed, the moves played from there (from `start` when it is
    given), the search's value of the position after them for the player to move."""

    seed: int
    moves: tuple[int, ...]
    value: float
    start: Start | None = None

    def to_json(self) -> dict[str, Any]:
        """The entry as a file holds it."""
        entry: dict[str, Any] = {"seed": self.seed, "moves": list(self.moves), "value": self.value}
        if self.start is not None:
            entry["start"] = self.start.to_json()
        return entry


@dataclass(frozen=True)
class OpeningSuite:
    """A suite as its file holds it; `sha256` is the hash of the file's bytes (what a
    tournament's key holds: a changed file makes another tournament)."""

    variant: str
    version: int
    options: dict[str, Any]
    plies: int
    search: str
    margin: float
    seed: int
    tried: int
    entries: tuple[Opening, ...]
    sha256: str = ""

    @property
    def has_starts(self) -> bool:
        """Whether an entry begins from a start board (the file is then of version 2)."""
        return any(entry.start is not None for entry in self.entries)

    def to_document(self) -> dict[str, Any]:
        """The suite as its file holds it."""
        version = FORMAT_VERSION if self.has_starts else 1
        return {
            "format": {"name": FORMAT_NAME, "version": version},
            "variant": self.variant,
            "version": self.version,
            "options": self.options,
            "plies": self.plies,
            "search": self.search,
            "margin": self.margin,
            "seed": self.seed,
            "tried": self.tried,
            "entries": [entry.to_json() for entry in self.entries],
        }

    def to_bytes(self) -> bytes:
        """The file's bytes: JSON, one line for each field and for each entry."""
        document = self.to_document()
        entries = document.pop("entries")
        lines = [f"  {json.dumps(key)}: {json.dumps(value)}," for key, value in document.items()]
        rows = ",\n".join(f"    {json.dumps(entry)}" for entry in entries)
        text = "{\n" + "\n".join(lines) + '\n  "entries": [\n' + rows + "\n  ]\n}\n"
        return text.encode()

    def check_fits(self, variant: str, options: dict[str, Any]) -> None:
        """SuiteError unless the suite was made for `variant` under `options` (the options in
        play, defaults included or not)."""
        if self.variant != variant:
            raise SuiteError(
                f"the opening suite is for {self.variant}, not {variant}; "
                f"make one with 'mancala openings {variant}'"
            )
        complete = _complete_options(variant, options)
        if complete != self.options:
            differ = sorted(
                key
                for key in set(complete) | set(self.options)
                if complete.get(key) != self.options.get(key)
            )
            shown = ", ".join(
                f"{k}: suite {self.options.get(k)!r}, games {complete.get(k)!r}" for k in differ
            )
            raise SuiteError(f"the opening suite was made under other {variant} options ({shown})")


def _complete_options(variant: str, options: dict[str, Any]) -> dict[str, Any]:
    """Every option of `variant` under `options`, defaults included, as JSON holds them."""
    complete = dataclasses.asdict(get_variant(variant).options(**options))
    return json.loads(json.dumps(complete))


def _version(variant: str, options: dict[str, Any]) -> int:
    rules = get_variant(variant)
    return int(rules.version_of(rules.options(**options)))


def random_line(
    variant: str, options: dict[str, Any], plies: int, seed: int, tries: int = 1000
) -> tuple[int, ...]:
    """`plies` random legal moves from the start of a game of `variant` reset with `seed`,
    chosen so that the game is still going after them (the way a tournament draws its random
    openings); ValueError when `tries` lines all end the game."""
    chooser = np.random.default_rng(seed)
    for _ in range(tries):
        game = Game(variant, **options)
        game.reset(np.random.default_rng(seed))
        moves: list[int] = []
        while len(moves) < plies and not game.over:
            action = int(chooser.choice(game.legal_actions()))
            game.step(action)
            moves.append(action)
        if not game.over:
            return tuple(moves)
    raise ValueError(
        f"no opening of {plies} moves leaves a {variant} game going; ask for fewer opening plies"
    )


def _position(variant: str, options: dict[str, Any], seed: int, moves: tuple[int, ...]) -> Game:
    game = Game(variant, **options)
    game.reset(np.random.default_rng(seed))
    for move in moves:
        game.step(move)
    return game


def _rate(agent: Any, game: Game) -> float | None:
    """The search's value of `game` for the player to move. A search agent plays a move
    that is the only one legal without searching (and reports no value): such moves are
    played first, on a copy, and the position after them rated (None when they end the
    game: its result is settled, not even)."""
    mover, probe = game.to_move, game
    while not probe.over and len(probe.legal_actions()) == 1:
        probe = probe.copy() if probe is game else probe
        probe.step(int(probe.legal_actions()[0]))
    if probe.over:
        return None
    agent.act(probe)
    value = float(agent.last_value)
    return value if probe.to_move == mover else -value


def build_suite(
    variant: str,
    options: dict[str, Any] | None = None,
    count: int = 50,
    plies: int = 4,
    search: str = DEFAULT_SEARCH,
    margin: float = 1.0,
    seed: int = 0,
    max_tries: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> OpeningSuite:
    """Draw random lines of `plies` moves (each from a game reset with its own seed under
    `seed`), rate each new position with the agent `search` (one whose `last_value` is its
    search's value for the mover, as alpha-beta's; forced moves are followed, see `_rate`),
    and keep those it rates within `margin`
    of even, until `count` are kept; ValueError when `max_tries` positions (default 50 times
    `count`) were rated first. `progress(kept, tried)` is called after each position rated."""
    options = dict(options or {})
    complete = _complete_options(variant, options)  # an unknown rule set or option: ValueError
    for name, value, low in (("count", count, 1), ("plies", plies, 1), ("seed", seed, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(f"{name} must be an integer of {low} or more, got {value!r}")
    if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not margin >= 0:
        raise ValueError(f"margin must be a number of 0 or more, got {margin!r}")
    if not math.isfinite(margin):
        raise ValueError(f"margin must be finite, got {margin!r}")
    tries = 50 * count if max_tries is None else max_tries
    agent = load_agent(search, variant, seed=seed)
    if not hasattr(agent, "last_value"):
        raise ValueError(
            f"{search} reports no value of the positions it searches; "
            "rate the openings with a search such as alphabeta:depth=6"
        )
    seen: set[bytes] = set()
    kept: list[Opening] = []
    tried = index = 0
    while len(kept) < count:
        if tried >= tries:
            raise ValueError(
                f"{len(kept)} of {tried} {variant} positions {plies} plies in were rated within "
                f"{margin:g} of even by {search}, short of {count}: ask for fewer, a wider "
                "--margin or other --plies"
            )
        if index >= 20 * tries:
            raise ValueError(
                f"only {len(seen)} distinct {variant} positions {plies} plies in were found; "
                "ask for fewer or more --plies"
            )
        line_seed = derived_seed(seed, index)
        index += 1
        moves = random_line(variant, options, plies, line_seed)
        game = _position(variant, options, line_seed, moves)
        position = game.state.tobytes()
        if position in seen:
            continue
        seen.add(position)
        agent.reset(line_seed)
        value = _rate(agent, game)
        tried += 1
        if value is not None and abs(value) <= margin:
            kept.append(Opening(line_seed, moves, value))
        if progress is not None:
            progress(len(kept), tried)
    suite = OpeningSuite(
        variant=variant,
        version=_version(variant, options),
        options=complete,
        plies=plies,
        search=search,
        margin=float(margin),
        seed=seed,
        tried=tried,
        entries=tuple(kept),
    )
    return dataclasses.replace(suite, sha256=hashlib.sha256(suite.to_bytes()).hexdigest())


def save_suite(suite: OpeningSuite, path: str | os.PathLike, replace: bool = False) -> str:
    """Write `suite` to `path` (`mancala_env.outputs.write_atomically`: an existing file that
    is not an opening suite is replaced only when `replace`); the hash of the bytes written."""
    data = suite.to_bytes()
    write_atomically(path, data, OPENING_SUITE, replace)
    return hashlib.sha256(data).hexdigest()


def shipped_names() -> list[str]:
    """The names of the suites shipped with the package: a rule set's (its lines rated even by
    a search) and others (``oware-3x3-fair``: start boards of a draw by perfect play)."""
    return sorted(path.stem for path in SUITES.glob("*.json"))


def shipped_suite(name: str) -> Path | None:
    """The suite shipped with the package under `name` (a rule set's name for its suite of
    lines, or another shipped suite's name), or None."""
    if name not in shipped_names():
        return None
    path = SUITES / f"{name}.json"
    return path if path.is_file() else None


def distinct_openings(
    variant: str, options: dict[str, Any], couples: int, plies: int
) -> dict[str, Any]:
    """The openings a tournament plays when none are asked for, so that no two couples of a
    pair start alike: the suite shipped for `variant` when it was made under `options` with
    lines of `plies` moves and has an entry for each of the `couples` (``opening_suite``),
    else one random line of `plies` moves for each couple (``openings``). As
    `TournamentConfig` fields."""
    shipped = shipped_suite(variant)
    if shipped is not None:
        try:
            suite = read_suite(shipped, variant, options)
        except SuiteError:  # made under other options
            suite = None
        if suite is not None and suite.plies == plies and len(suite.entries) >= couples:
            return {"opening_suite": suite, "openings": 0}
    return {"openings": couples}


def read_suite(
    path: str | os.PathLike,
    variant: str | None = None,
    options: dict[str, Any] | None = None,
) -> OpeningSuite:
    """The suite in the file at `path` (opened read-only), checked whole (see the module's
    docstring); with `variant`, checked to fit games of it under `options` too. SuiteError
    (a ValueError) names the file and what is wrong."""
    try:
        data = read_bytes(path, MAX_SUITE_BYTES)
    except ReadError as error:
        raise SuiteError(str(error)) from None
    try:
        suite = parse_suite(data)
        if variant is not None:
            suite.check_fits(variant, options or {})
    except SuiteError as error:
        raise SuiteError(f"{path}: {error}") from None
    return suite


def parse_suite(data: bytes) -> OpeningSuite:
    """The suite in a file's bytes, checked whole; SuiteError says what is wrong."""
    if len(data) > MAX_SUITE_BYTES:
        raise SuiteError(f"larger than {MAX_SUITE_BYTES:,} bytes: not an opening suite")
    try:
        document = parse_json(data, "the suite")
    except ReadError as error:
        raise SuiteError(error.problem) from None
    return from_document(document, hashlib.sha256(data).hexdigest())


def from_document(document: Any, sha256: str) -> OpeningSuite:
    """The suite a file's JSON `document` holds, checked whole (`sha256`: the file's hash)."""
    if not isinstance(document, dict):
        raise SuiteError("not an opening suite: a JSON object was expected")
    fmt = document.get("format")
    if not isinstance(fmt, dict) or fmt.get("name") != FORMAT_NAME:
        raise SuiteError(
            f"not an opening suite: its format is {reprlib.repr(fmt)}, not {FORMAT_NAME!r}"
        )
    if not is_integer(fmt.get("version"), numpy=False) or fmt["version"] not in FORMAT_VERSIONS:
        raise SuiteError(
            f"opening suite format version {reprlib.repr(fmt.get('version'))} is not known to "
            f"this code (it reads versions {', '.join(map(str, FORMAT_VERSIONS))})"
        )
    missing = [name for name in _FIELDS if name not in document]
    extra = sorted(set(document) - set(_FIELDS))
    if missing or extra:
        raise SuiteError(
            "the opening suite "
            + "; ".join(
                part
                for part in (
                    missing and f"lacks {', '.join(missing)}",
                    extra and f"has unknown fields {', '.join(extra)}",
                )
                if part
            )
        )
    variant = document["variant"]
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise SuiteError(f"unknown rule set {variant!r}")
    options = document["options"]
    if not isinstance(options, dict):
        raise SuiteError(f"options must be an object, got {options!r}")
    try:
        complete = _complete_options(variant, options)
        version = _version(variant, options)
    except (TypeError, ValueError) as error:
        raise SuiteError(f"its {variant} options are not valid: {error}") from None
    if complete != options:
        raise SuiteError(f"its options must name every {variant} option: {sorted(complete)}")
    if not is_integer(document["version"]) or document["version"] != version:
        raise SuiteError(
            f"it was made under {variant} version {document['version']!r}; these rules are "
            f"version {version}: make it again with 'mancala openings {variant}'"
        )
    try:
        for name in ("plies", "seed", "tried"):
            integer(document[name], name, 0, MAX_COUNT)
        margin = number(document["margin"], "margin", 0, math.inf)
    except ValueError as error:
        raise SuiteError(str(error)) from None
    if not isinstance(document["search"], str):
        raise SuiteError(f"search must be an agent spec, got {document['search']!r}")
    raw = document["entries"]
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_ENTRIES:
        raise SuiteError(f"entries must be a list of 1 to {MAX_ENTRIES:,} entries")
    game = Game(variant, **options)  # reset afresh for each entry
    fields = ENTRY_FIELDS if fmt["version"] == 1 else (*ENTRY_FIELDS, "start")
    entries = tuple(_entry(game, document["plies"], fields, i, e) for i, e in enumerate(raw))
    return OpeningSuite(
        variant=variant,
        version=version,
        options=options,
        plies=document["plies"],
        search=document["search"],
        margin=float(margin),
        seed=document["seed"],
        tried=document["tried"],
        entries=entries,
        sha256=sha256,
    )


def _entry(game: Game, plies: int, fields: tuple[str, ...], index: int, raw: Any) -> Opening:
    """Entry `index` of a suite, of the `fields` its version knows, replayed in `game` (from
    its start, checked first, where it has one): each move legal, the game going after them."""
    where = f"entry {index}"
    if not isinstance(raw, dict) or not set(ENTRY_FIELDS) <= set(raw) <= set(fields):
        raise SuiteError(
            f"{where} must be an object of {', '.join(ENTRY_FIELDS)}"
            + (" and, if it has one, its start" if len(fields) > len(ENTRY_FIELDS) else "")
            + f", got {reprlib.repr(raw)}"
        )
    seed, moves, value = raw["seed"], raw["moves"], raw["value"]
    if not is_integer(seed, numpy=False) or not 0 <= seed < 2**63:
        raise SuiteError(f"{where}: seed must be a non-negative integer, got {reprlib.repr(seed)}")
    if not isinstance(moves, list) or not all(is_integer(m, numpy=False) for m in moves):
        raise SuiteError(f"{where}: moves must be a list of integers, got {reprlib.repr(moves)}")
    if len(moves) != plies:
        raise SuiteError(f"{where} has {len(moves)} moves; the suite's lines have {plies}")
    if not is_number(value):
        raise SuiteError(f"{where}: value must be a finite number, got {reprlib.repr(value)}")
    game.reset(np.random.default_rng(seed))
    start = None
    if "start" in raw:
        try:
            start = read_start(raw["start"], game)
            set_out(game, start)
        except ValueError as error:  # a SnapshotError among them
            raise SuiteError(f"{where}: {error}") from None
    for ply, move in enumerate(moves):
        if game.over:
            raise SuiteError(f"{where}: the game is over before move {ply} ({move})")
        if move not in game.legal_actions():
            raise SuiteError(
                f"{where}: move {ply} ({move}) is not legal there; "
                f"legal: {list(map(int, game.legal_actions()))}"
            )
        game.step(move)
    if game.over:
        raise SuiteError(f"{where}: the game is over after its moves")
    return Opening(seed, tuple(moves), float(value), start)


def resolve_suite(text: str) -> Path:
    """The file `text` names: a path, or a rule set's name for its shipped suite (a file of
    that name wins); FileNotFoundError when neither."""
    path = Path(text)
    if path.is_file():
        return path
    shipped = shipped_suite(text)
    if shipped is not None:
        return shipped
    raise FileNotFoundError(text)
