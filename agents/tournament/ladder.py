"""Rating ladders: a rating comparable across papers, reached against fixed opponents.

A ladder is a rule set's fixed set of anchor agents (random, greedy, alpha-beta at fixed depths,
the shipped network without and with search) whose ratings a round robin calibrated once, on
the Elo scale with ``random`` at 0 (`calibrate`). Rating an agent on it (`rate_on_ladder`)
plays `games_per_anchor` games against each anchor, both seats, from the rule set's shipped
opening suite and the ladder's seed, so its cost grows with the ladder's size only, and fits
the agent's rating with the anchors held at their calibrated ratings: two agents rated on the
same ladder version are on the same scale however far apart they were rated.

Two intervals come with a rating (`ratings` says why a parametric bootstrap). The ladder's
calibrated ratings define its scale, so two agents rated on one version differ only by their
own games: the first interval, from the agent's games played again in simulation with the
anchors held, is the one to compare ratings on a version with. The second also plays the
calibration's round robin again (refitting the anchors, ``random`` at 0) and refits the agent
against each replicate's anchors: how well the rating is known as Elo above random play,
wider, since the calibration's uncertainty is in it.

A ladder file (``ladders/VARIANT-vN.json``, shipped) holds the anchors (spec, rating, interval,
and each one's identity when it was calibrated: its code version, or its network's hash), the
calibration's pairs (games, points, draws), the suite's hash, the seed, the games per anchor,
and the date, machine and command of the calibration. A new calibration is a new version; an
old version stays, and rates as it did as long as its anchors and suite are what they were
(a changed anchor or suite is refused: it would be another ladder).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mancala_env.inputs import integer, number
from mancala_env.readers import ReadError, parse_json, read_bytes
from mancala_env.variants import get_variant

from ..loader import agent_identity
from .openings import read_suite, shipped_suite
from .ratings import bradley_terry, expected_score, simulated_points
from .runner import run_tournament
from .schedule import MAX_GAMES, TournamentConfig

FORMAT_NAME = "mancala-ladder"
FORMAT_VERSION = 1
LADDERS = Path(__file__).parent / "ladders"  # LADDERS/VARIANT-vN.json
SCALE = "Elo (400 log10 of the Bradley-Terry strength), random at 0"
ZERO = "random"  # the anchor at 0
MAX_LADDER_BYTES = 1 << 20  # a ladder of a dozen anchors is some kB
MAX_ANCHORS = 64
MAX_VERSION = 10_000
BOOTSTRAP = 1000


class LadderError(ValueError):
    """A ladder that cannot be read, or that no longer is what it was calibrated as."""


@dataclass(frozen=True)
class Anchor:
    """An anchor agent, its calibrated rating and 95% interval, and what it was then."""

    spec: str
    rating: float
    low: float
    high: float
    identity: str


@dataclass(frozen=True)
class Pair:
    """A pair of the calibration's round robin: anchors `a` and `b` (indices), `a`'s points."""

    a: int
    b: int
    games: int
    points: float
    draws: int


@dataclass(frozen=True)
class Ladder:
    """A ladder version: its anchors and their calibrated ratings, the calibration's pairs,
    and what a rating on it plays (the suite's hash, the seed, the games against each anchor)."""

    variant: str
    version: int
    anchors: tuple[Anchor, ...]
    pairs: tuple[Pair, ...]
    suite_sha256: str
    seed: int
    games_per_anchor: int
    calibration: dict[str, Any]  # date, machine, command, games_per_pair, minutes

    @property
    def specs(self) -> tuple[str, ...]:
        return tuple(anchor.spec for anchor in self.anchors)

    def to_document(self) -> dict[str, Any]:
        return {
            "format": {"name": FORMAT_NAME, "version": FORMAT_VERSION},
            "variant": self.variant,
            "version": self.version,
            "scale": SCALE,
            "suite_sha256": self.suite_sha256,
            "seed": self.seed,
            "games_per_anchor": self.games_per_anchor,
            "calibration": self.calibration,
            "anchors": [asdict(anchor) for anchor in self.anchors],
            "pairs": [asdict(pair) for pair in self.pairs],
        }


def default_anchors(variant: str, depths: list[int], simulations: int = 100) -> list[str]:
    """random, greedy, alpha-beta at each of `depths`, and the shipped network (if the rule
    set has one) without search and with `simulations` of its tree search."""
    from ..network import network_file

    anchors = [ZERO, "greedy", *(f"alphabeta:depth={depth}" for depth in depths)]
    try:
        network_file(variant)
    except ValueError:
        return anchors
    return [*anchors, f"az:{variant}", f"az:{variant},simulations={simulations}"]


def _suite(variant: str) -> Any:
    path = shipped_suite(variant)
    return None if path is None else read_suite(path, variant)


def calibrate(
    variant: str,
    anchors: list[str],
    games_per_pair: int,
    games_per_anchor: int,
    db: str | Path,
    version: int,
    calibration: Mapping[str, Any],
    seed: int = 0,
    workers: int = 1,
    progress: bool = True,
) -> Ladder:
    """Play the anchors' round robin (`games_per_pair` games a pair, from the shipped suite)
    and make ladder `version` of its ratings (``random`` at 0). `calibration` (date, machine,
    command) is kept in the ladder with the minutes it took."""
    if ZERO not in anchors:
        raise ValueError(f"a ladder's anchors include {ZERO}, the rating 0")
    suite = _suite(variant)
    config = TournamentConfig(
        variant, tuple(anchors), games_per_pair=games_per_pair, seed=seed,
        opening_suite=suite, openings=0 if suite is not None else None,
    )  # fmt: skip
    result = run_tournament(config, db=db, workers=workers, progress=progress, anchors={ZERO: 0})
    standing = {line.agent: line for line in result.ratings.standings}
    index = {spec: i for i, spec in enumerate(anchors)}
    pairs = []
    for (a, b), pair in sorted(result.ratings.crosstable.items()):
        if index[a] < index[b]:
            pairs.append(Pair(index[a], index[b], pair.games, pair.points, pair.draws))
    return Ladder(
        variant=variant,
        version=version,
        anchors=tuple(
            Anchor(
                spec,
                standing[spec].rating,
                standing[spec].low,
                standing[spec].high,
                agent_identity(spec),
            )
            for spec in anchors
        ),  # fmt: skip
        pairs=tuple(sorted(pairs, key=lambda pair: (pair.a, pair.b))),
        suite_sha256="" if suite is None else suite.sha256,
        seed=seed,
        games_per_anchor=games_per_anchor,
        calibration={**calibration, "games_per_pair": games_per_pair},
    )


def ladder_path(variant: str, version: int) -> Path:
    """Where `variant`'s shipped ladder of `version` is (one folder: a package's data files)."""
    return LADDERS / f"{variant}-v{version}.json"


def _shipped() -> dict[str, list[int]]:
    """Every shipped ladder's rule set and its versions, oldest first."""
    versions: dict[str, list[int]] = {}
    for path in LADDERS.glob("*-v*.json"):
        variant, _, version = path.stem.rpartition("-v")
        if version.isdigit():
            versions.setdefault(variant, []).append(int(version))
    return {variant: sorted(found) for variant, found in sorted(versions.items())}


def shipped_ladders() -> list[str]:
    """The rule sets with a shipped ladder."""
    return list(_shipped())


def ladder_versions(variant: str) -> list[int]:
    """The versions of `variant`'s shipped ladder, oldest first."""
    return _shipped().get(variant, [])


def read_ladder(variant: str, version: int | None = None) -> Ladder:
    """`variant`'s shipped ladder of `version` (default its newest); LadderError names what
    is missing or wrong."""
    get_variant(variant)
    versions = ladder_versions(variant)
    if not versions:
        shipped = ", ".join(shipped_ladders()) or "none"
        raise LadderError(f"{variant} has no ladder; the rule sets with one: {shipped}")
    if version is None:
        version = versions[-1]
    if version not in versions:
        shown = ", ".join(str(v) for v in versions)
        raise LadderError(f"{variant}'s ladder has no version {version}; its versions: {shown}")
    return read_ladder_file(ladder_path(variant, version), variant)


def read_ladder_file(path: str | Path, variant: str) -> Ladder:
    """The ladder in the file at `path`, every field checked (bounded before it is parsed)."""
    try:
        document = parse_json(read_bytes(path, MAX_LADDER_BYTES), path)
        return _ladder(document, variant)
    except ReadError as error:
        raise LadderError(str(error)) from None
    except (ValueError, KeyError, TypeError) as error:
        reason = f"a field is missing: {error}" if isinstance(error, KeyError) else error
        raise LadderError(f"{path} is not a ladder of {variant}: {reason}") from None


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or len(value) > 1000:
        raise ValueError(f"its {what} is not a text of at most 1,000 characters")
    return value


def _ladder(document: Any, variant: str) -> Ladder:
    if not isinstance(document, dict):
        raise ValueError("it is not a JSON object")
    if document["format"] != {"name": FORMAT_NAME, "version": FORMAT_VERSION}:
        raise ValueError(f"its format is not {FORMAT_NAME} version {FORMAT_VERSION}")
    if document["variant"] != variant:
        raise ValueError(f"it is a ladder of {_text(document['variant'], 'rule set')}")
    anchors, pairs = document["anchors"], document["pairs"]
    if not isinstance(anchors, list) or not 2 <= len(anchors) <= MAX_ANCHORS:
        raise ValueError(f"its anchors are not a list of 2 to {MAX_ANCHORS}")
    if not isinstance(pairs, list) or len(pairs) > len(anchors) ** 2:
        raise ValueError("its pairs are not a list of the anchors' pairs")
    read_anchors = tuple(
        Anchor(
            spec=_text(anchor["spec"], "anchor spec"),
            rating=number(anchor["rating"], "rating", -1e5, 1e5),
            low=number(anchor["low"], "low", -1e5, 1e5),
            high=number(anchor["high"], "high", -1e5, 1e5),
            identity=_text(anchor["identity"], "anchor identity"),
        )
        for anchor in anchors
    )
    if ZERO not in [anchor.spec for anchor in read_anchors]:
        raise ValueError(f"{ZERO} is not among its anchors")
    last = len(anchors) - 1
    read_pairs = []
    for pair in pairs:
        games = integer(pair["games"], "games", 1, MAX_GAMES)
        read_pairs.append(
            Pair(
                a=integer(pair["a"], "a", 0, last),
                b=integer(pair["b"], "b", 0, last),
                games=games,
                points=number(pair["points"], "points", 0, games),
                draws=integer(pair["draws"], "draws", 0, games),
            )
        )
    calibration = document["calibration"]
    if not isinstance(calibration, dict):
        raise ValueError("its calibration is not a JSON object")
    return Ladder(
        variant=variant,
        version=integer(document["version"], "version", 1, MAX_VERSION),
        anchors=read_anchors,
        pairs=tuple(read_pairs),
        suite_sha256=_text(document["suite_sha256"], "suite hash"),
        seed=integer(document["seed"], "seed", 0, 2**63 - 1),
        games_per_anchor=integer(document["games_per_anchor"], "games_per_anchor", 2, MAX_GAMES),
        calibration=calibration,
    )


@dataclass(frozen=True)
class LadderRating:
    """An agent's rating on a ladder version, its 95% interval on the version's scale (`low`,
    `high`: its own games' uncertainty), the interval with the calibration's uncertainty too
    (`calibrated_low`, `calibrated_high`), and its games."""

    spec: str
    variant: str
    version: int
    rating: float
    low: float
    high: float
    calibrated_low: float
    calibrated_high: float
    games: int
    points: float
    scores: dict[str, tuple[int, float]]  # by anchor: games, points

    @property
    def score(self) -> float:
        return self.points / self.games


def check_unchanged(ladder: Ladder) -> None:
    """LadderError when an anchor or the shipped suite is not what the ladder was calibrated
    with: its ratings would then be another ladder's."""
    for anchor in ladder.anchors:
        now = agent_identity(anchor.spec)
        if now != anchor.identity:
            raise LadderError(
                f"{ladder.variant}'s ladder v{ladder.version}: its anchor {anchor.spec} has "
                f"changed since it was calibrated ({anchor.identity} then, {now} now); rate "
                "on a ladder calibrated with it (benchmarks/ladder.py makes a new version)"
            )
    suite = _suite(ladder.variant)
    if (suite.sha256 if suite is not None else "") != ladder.suite_sha256:
        raise LadderError(
            f"{ladder.variant}'s ladder v{ladder.version}: the shipped opening suite has changed "
            "since it was calibrated; rate on a ladder calibrated with it"
        )


def rate_on_ladder(
    ladder: Ladder,
    spec: str,
    db: str | Path,
    workers: int = 1,
    games_per_anchor: int | None = None,
    bootstrap: int = BOOTSTRAP,
    progress: bool = True,
    backend: str = "local",
    ray_address: str | None = None,
) -> LadderRating:
    """Play `spec` against every anchor of `ladder` (`games_per_anchor` each, default the
    ladder's) and rate it with the anchors held at their ratings (the module docstring)."""
    check_unchanged(ladder)
    if spec in ladder.specs:
        raise ValueError(f"{spec} is an anchor of the ladder (rated {_anchor(ladder, spec):+.0f})")
    games = ladder.games_per_anchor if games_per_anchor is None else games_per_anchor
    suite = _suite(ladder.variant)
    config = TournamentConfig(
        ladder.variant, (spec, *ladder.specs), games_per_pair=games, format="gauntlet",
        seed=ladder.seed, opening_suite=suite, openings=0 if suite is not None else None,
    )  # fmt: skip
    fixed = {anchor.spec: anchor.rating for anchor in ladder.anchors}
    result = run_tournament(
        config, db=db, backend=backend, workers=workers, ray_address=ray_address,
        bootstrap=bootstrap, progress=progress, anchors=fixed,
    )  # fmt: skip
    crosstable = result.ratings.crosstable
    scores = {
        anchor: (crosstable[spec, anchor].games, crosstable[spec, anchor].points)
        for anchor in ladder.specs
    }
    draws = {anchor: crosstable[spec, anchor].draws for anchor in ladder.specs}
    line = next(line for line in result.ratings.standings if line.agent == spec)
    low, high = _interval(ladder, line.rating, scores, draws, bootstrap, ladder.seed)
    return LadderRating(
        spec=spec, variant=ladder.variant, version=ladder.version, rating=line.rating,
        low=line.low, high=line.high, calibrated_low=low, calibrated_high=high,
        games=sum(g for g, _ in scores.values()), points=sum(p for _, p in scores.values()),
        scores=scores,
    )  # fmt: skip


def _anchor(ladder: Ladder, spec: str) -> float:
    return next(anchor.rating for anchor in ladder.anchors if anchor.spec == spec)


def _interval(
    ladder: Ladder,
    rating: float,
    scores: Mapping[str, tuple[int, float]],
    draws: Mapping[str, int],
    samples: int,
    seed: int,
) -> tuple[float, float]:
    """The 95% interval of `rating` with the calibration's uncertainty: the calibration's
    games and the agent's, both played again in simulation (the module docstring)."""
    rng = np.random.default_rng(seed)
    n = len(ladder.anchors)
    calibrated = np.array([anchor.rating for anchor in ladder.anchors])
    replayed = simulated_points(
        rng, [(p.a, p.b, p.games, p.draws / p.games) for p in ladder.pairs], calibrated, samples
    )
    zero = np.full(n, math.nan)
    zero[ladder.specs.index(ZERO)] = 0.0
    anchors = bradley_terry(replayed, anchors=zero)  # (samples, n)
    ratings = np.append(calibrated, rating)
    pairs = [
        (n, j, scores[spec][0], draws[spec] / scores[spec][0])
        for j, spec in enumerate(ladder.specs)
        if scores[spec][0] > 0
    ]
    agent = simulated_points(rng, pairs, ratings, samples)
    held = np.concatenate([anchors, np.full((samples, 1), math.nan)], axis=1)
    refitted = bradley_terry(agent, anchors=held)[:, n]
    low, high = np.percentile(refitted, [2.5, 97.5])
    return float(low), float(high)


def expected_against(ladder: Ladder, rating: float) -> dict[str, float]:
    """The score the model expects of an agent of `rating` against each anchor."""
    return {a.spec: float(expected_score(rating - a.rating)) for a in ladder.anchors}
