"""Ratings with honest error bars: Bradley-Terry fitted on every game, bootstrap intervals.

The Bradley-Terry model gives agent i a strength g_i with P(i beats j) = g_i / (g_i + g_j);
a draw counts as half a win for each side. Strengths are fitted by Hunter's minorise-maximise
iteration and reported on the Elo scale (400 log10 g, the agents' mean at 0, or anchored: see
below). A prior of a
quarter of a drawn game between every pair that met keeps the fit finite when an agent won or
lost all its games (the device of BayesElo's prior draws, kept small: a larger prior pulls
strong and weak agents together and the intervals, tested for their coverage on synthetic
tournaments, then miss the truth too often). Such an agent's fitted rating is the prior's
more than its games', and the bootstrap, which plays its games again from that rating, puts it
at its interval's upper end: it is shown as a one-sided bound (`elo_cells`), as is a perfect
record's Elo in ``mancala match``.

Intervals come from a parametric bootstrap, as chess-engine rating tools (Ordo) do it: each
pair's games are played again in simulation, as many as they played, from the fitted ratings
and the pair's own draw rate; the model is refitted on every simulated tournament and the 2.5%
and 97.5% quantiles read off. (Resampling the games themselves would give an agent that won
every game an interval of zero width.) The likelihood of superiority of an agent over the next
on the leaderboard is the share of simulated tournaments in which it rates higher.

Anchors fix the scale. A rating centred on its own field moves whenever the field changes (a
copy of a strong agent added lowers everyone else's), so two tournaments' numbers cannot be
compared. Given anchors (agents with fixed ratings, such as ``random=0``), the fit holds them
at their ratings and estimates the others against them, in the fit and in every bootstrap
refit alike: an anchor's interval is its rating, and another agent's interval says how well its
rating is known relative to the anchors (it widens with the distance from them). An extra copy of
an agent then leaves the others' ratings where they were, up to the weight its games give
results the model does not fit exactly.

Beside the ratings, when every pair of agents met, `rate` gives the Nash averaging of the
crosstable (`nash.nash_average`), which no copy of an agent and no weak agent beaten by a
wider margin moves.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mancala_env.inputs import number_text

from .nash import NashAveraging, nash_average

PRIOR_DRAWS = 0.25
MAX_ANCHOR = 100_000  # Elo: far beyond any rating a tournament measures
_TOLERANCE = 1e-10
_MAX_ITERATIONS = 100_000


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a proportion `score` observed over `n` trials."""
    if n == 0:
        return 0.0, 1.0
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def bradley_terry(
    points: np.ndarray, prior_draws: float = PRIOR_DRAWS, anchors: np.ndarray | None = None
) -> np.ndarray:
    """Elo-scale ratings from `points[..., i, j]`, what agent i scored against j (a win 1, a
    draw 1/2). Leading axes are independent problems (the bootstrap fits them all at once).
    `anchors` (a rating for each agent, NaN for the agents fitted; with leading axes as
    `points`' when each problem has anchors of its own, the same agents anchored in all) holds
    the anchored agents at their ratings; without anchors the agents' mean is 0."""
    points = np.asarray(points, dtype=float)
    fixed, offset, anchored = None, 0.0, 1.0
    if anchors is not None and not np.all(np.isnan(anchors)):
        anchors = np.asarray(anchors, dtype=float)
        fixed = ~np.isnan(anchors)
        # strengths stay near 1, whatever the ratings
        offset = np.nanmean(anchors, axis=-1, keepdims=True)
        anchored = 10 ** ((np.nan_to_num(anchors) - offset) / 400)
    games = points + np.swapaxes(points, -1, -2)
    met = games > 0
    points = points + met * prior_draws / 2
    games = games + met * prior_draws
    won = points.sum(axis=-1)
    strength = np.ones(points.shape[:-1])
    if fixed is not None:
        strength = np.where(fixed, anchored, strength)
    for _ in range(_MAX_ITERATIONS):
        pair_sum = strength[..., :, None] + strength[..., None, :]
        expected = (games / pair_sum).sum(axis=-1)
        played = expected > 0  # an agent without games keeps strength 1
        updated = np.where(played, won / np.where(played, expected, 1.0), 1.0)
        if fixed is None:
            updated /= np.exp(np.log(updated).mean(axis=-1, keepdims=True))
        else:
            updated = np.where(fixed, anchored, updated)
        converged = np.max(np.abs(updated - strength)) < _TOLERANCE
        strength = updated
        if converged:
            break
    return 400 * np.log10(strength) + offset


@dataclass
class Standing:
    """One agent's line of the leaderboard."""

    agent: str
    rating: float
    low: float
    high: float
    games: int
    points: float
    wins: int
    draws: int
    losses: int
    superiority: float | None  # likelihood of rating above the next agent; None for the last

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else 0.0


@dataclass
class PairResult:
    """What agent `a` did against agent `b` (from `a`'s side)."""

    a: str
    b: str
    games: int
    points: float
    wins: int
    draws: int
    losses: int


@dataclass
class Ratings:
    """The leaderboard (best first), the crosstable and the first mover's score."""

    standings: list[Standing]
    crosstable: dict[tuple[str, str], PairResult]
    first_mover_points: float
    first_mover_games: int
    games: int
    anchors: dict[str, float] = field(default_factory=dict)  # the agents that fix the scale
    nash: NashAveraging | None = None  # None unless every pair of agents met

    @property
    def first_mover_score(self) -> float:
        return self.first_mover_points / self.first_mover_games if self.first_mover_games else 0.5

    @property
    def first_mover_interval(self) -> tuple[float, float]:
        return wilson(self.first_mover_score, self.first_mover_games)


def _seat_points(record: dict[str, Any]) -> tuple[float, float]:
    winner = record["winner"]
    if winner < 0:
        return 0.5, 0.5
    return (1.0, 0.0) if winner == 0 else (0.0, 1.0)


def rate(
    records: Sequence[dict[str, Any]],
    agents: Sequence[str],
    bootstrap: int = 1000,
    seed: int = 0,
    anchors: Mapping[str, float] | None = None,
) -> Ratings:
    """Fit the ratings of `agents` on the game `records` (as `play_game` writes them), with
    the `anchors` (agent: rating) held at their ratings."""
    index = {agent: i for i, agent in enumerate(agents)}
    n = len(agents)
    anchors = dict(anchors or {})
    fixed = anchor_vector(anchors, agents)
    by_pair: dict[tuple[int, int], list[float]] = {}
    first_points = 0.0
    for record in records:
        seats = index[record["agent_0"]], index[record["agent_1"]]
        points = _seat_points(record)
        i, j = sorted(seats)
        by_pair.setdefault((i, j), []).append(points[seats.index(i)])
        first_points += points[record["first_player"]]
    points = np.zeros((n, n))
    for (i, j), scores in by_pair.items():
        points[i, j] = sum(scores)
        points[j, i] = len(scores) - sum(scores)
    ratings = bradley_terry(points, anchors=fixed)
    samples = _bootstrap(by_pair, ratings, bootstrap, seed, fixed)
    low, high = np.percentile(samples, [2.5, 97.5], axis=0)
    unplayed = points.sum(axis=0) + points.sum(axis=1) == 0
    ratings[unplayed] = low[unplayed] = high[unplayed] = np.nan

    crosstable = {}
    for (i, j), scores in by_pair.items():
        for a, b, mine in ((i, j, scores), (j, i, [1 - s for s in scores])):
            crosstable[agents[a], agents[b]] = PairResult(
                a=agents[a],
                b=agents[b],
                games=len(mine),
                points=float(sum(mine)),
                wins=sum(s == 1 for s in mine),
                draws=sum(s == 0.5 for s in mine),
                losses=sum(s == 0 for s in mine),
            )
    order = sorted(range(n), key=lambda k: -np.nan_to_num(ratings[k], nan=-np.inf))
    standings = []
    for rank, k in enumerate(order):
        mine = [r for (a, _), r in crosstable.items() if a == agents[k]]
        following = order[rank + 1] if rank + 1 < n else None
        superiority = None
        if following is not None:
            above = samples[:, k] - samples[:, following]
            superiority = float(np.mean(above > 0) + 0.5 * np.mean(above == 0))
        standings.append(
            Standing(
                agent=agents[k],
                rating=float(ratings[k]),
                low=float(low[k]),
                high=float(high[k]),
                games=sum(r.games for r in mine),
                points=sum(r.points for r in mine),
                wins=sum(r.wins for r in mine),
                draws=sum(r.draws for r in mine),
                losses=sum(r.losses for r in mine),
                superiority=superiority,
            )
        )
    met = points + points.T > 0
    nash = None
    if np.all(met | np.eye(n, dtype=bool)):
        games = points + points.T
        scores = np.divide(points, games, out=np.full((n, n), 0.5), where=games > 0)
        nash = nash_average(agents, scores)
    return Ratings(standings, crosstable, first_points, len(records), len(records), anchors, nash)


PERFECT_RECORD_NOTE = (
    "> R: won every game, < R: lost every game; no finite rating fits such a record, so it is "
    "shown as a bound, R the end of its 95% interval that the games fix"
)


def elo_cells(
    rating: float, low: float, high: float, score: float, decimals: int = 0
) -> tuple[str, str]:
    """A rating and its 95% interval as the leaderboard and ``mancala match`` show them, in one
    convention for a perfect record: an agent that won every game (`score` 1) has no finite
    maximum-likelihood rating, so it is shown as the bound ``> low`` with the interval
    ``[low, +inf)``, and one that lost every game (`score` 0) as ``< high`` with
    ``(-inf, high]`` (`PERFECT_RECORD_NOTE` says so in words). ``-`` for an agent without games
    (NaN)."""

    def elo(value: float) -> str:
        return f"{value:+.{decimals}f}"

    if math.isnan(rating):
        return "-", "-"
    if score == 1:
        return f"> {elo(low)}", f"[{elo(low)}, +inf)"
    if score == 0:
        return f"< {elo(high)}", f"(-inf, {elo(high)}]"
    return elo(rating), f"[{elo(low)}, {elo(high)}]"


def parse_anchor(text: str) -> tuple[str, float]:
    """``SPEC=RATING`` (split at the last '=', as a spec holds '=' itself) as (spec, rating)."""
    spec, equals, rating = text.rpartition("=")
    try:
        value = number_text(rating)
    except ValueError:
        value = math.nan
    if not equals or not spec or not math.isfinite(value) or abs(value) > MAX_ANCHOR:
        raise ValueError(
            f"an anchor is SPEC=RATING, such as random=0 or alphabeta:depth=1=1000, its rating "
            f"from {-MAX_ANCHOR} to {MAX_ANCHOR}; got {text!r}"
        )
    return spec, value


def anchors_given(pairs: Iterable[tuple[str, float]]) -> dict[str, float]:
    """The anchors of `pairs` (`parse_anchor`'s, as ``--anchor`` gives them) by agent;
    ValueError for an agent anchored twice, which one rating would otherwise quietly settle."""
    anchors: dict[str, float] = {}
    for agent, rating in pairs:
        if agent in anchors:
            raise ValueError(
                f"{agent} is anchored twice ({agent}={anchors[agent]:g} and {agent}={rating:g}); "
                "give each agent one rating"
            )
        anchors[agent] = rating
    return anchors


def anchor_vector(anchors: Mapping[str, float], agents: Sequence[str]) -> np.ndarray | None:
    """Each agent's anchored rating, NaN for the others (None without anchors); ValueError
    for an anchor that is no agent of the tournament or a rating that is not a finite number."""
    if not anchors:
        return None
    vector = np.full(len(agents), np.nan)
    for agent, rating in anchors.items():
        if agent not in agents:
            raise ValueError(
                f"anchor {agent!r} is not an agent of the tournament; agents: {', '.join(agents)}"
            )
        if isinstance(rating, bool) or not isinstance(rating, (int, float)):
            raise ValueError(f"the anchor rating of {agent} must be a number, got {rating!r}")
        if not math.isfinite(rating) or abs(rating) > MAX_ANCHOR:
            raise ValueError(
                f"the anchor rating of {agent} must be from {-MAX_ANCHOR} to {MAX_ANCHOR}, "
                f"got {rating!r}"
            )
        vector[list(agents).index(agent)] = float(rating)
    return vector


def expected_score(difference: np.ndarray | float) -> np.ndarray | float:
    """The Bradley-Terry expected score of an agent rated `difference` Elo above its opponent."""
    return 1 / (1 + 10 ** (-np.asarray(difference) / 400))


def _bootstrap(
    by_pair: dict[tuple[int, int], list[float]],
    ratings: np.ndarray,
    samples: int,
    seed: int,
    anchors: np.ndarray | None = None,
) -> np.ndarray:
    """Ratings refitted on `samples` simulated tournaments; shape (samples, n)."""
    rng = np.random.default_rng(seed)
    pairs = [
        (i, j, len(scores), float(np.mean(np.asarray(scores) == 0.5)))
        for (i, j), scores in by_pair.items()
    ]
    return bradley_terry(simulated_points(rng, pairs, ratings, samples), anchors=anchors)


def simulated_points(
    rng: np.random.Generator,
    pairs: Iterable[tuple[int, int, int, float]],
    ratings: np.ndarray,
    samples: int,
) -> np.ndarray:
    """`samples` tournaments played again in simulation (the parametric bootstrap's): each of
    `pairs` (i, j, games, draw rate) plays its games again from `ratings` and its own draw
    rate; the points, shape (samples, n, n) as `bradley_terry` reads them."""
    n = len(ratings)
    points = np.zeros((samples, n, n))
    for i, j, games, draw in pairs:
        score = float(expected_score(ratings[i] - ratings[j]))
        win = min(max(score - draw / 2, 0.0), 1.0 - draw)
        outcomes = rng.multinomial(games, [win, draw, 1.0 - draw - win], size=samples)
        drawn = outcomes[:, 0] + 0.5 * outcomes[:, 1]
        points[:, i, j] = drawn
        points[:, j, i] = games - drawn
    return points
