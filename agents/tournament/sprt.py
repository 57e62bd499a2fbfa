"""The sequential probability ratio test (SPRT) between two agents, on game pairs.

Two agents play pairs of games from the same opening, each agent once from each seat. A pair
scores 0, 0.5, 1, 1.5 or 2 points for the first agent (a win 1, a draw 0.5); the counts of the
five are the *pentanomial* statistics. Pairs, not games, are the independent trials: the two
games of a pair share an opening, so their results are correlated, and counting the pair as one
outcome gives the right variance (games counted one by one overstate it when openings favour a
seat).

The test is Wald's SPRT between H0, "the first agent is `elo0` Elo stronger", and H1, "it is
`elo1` Elo stronger", in its generalized form (GSPRT): the pair outcomes' distribution is not
known, so the log-likelihood ratio is that of the two maximum-likelihood distributions of the
five outcomes under each hypothesis,

    LLR = sum_i n_i * log(p1_i / p0_i),

where `p0` (`p1`) maximizes the likelihood of the counts `n` among the distributions whose
expected score is the one H0 (H1) names. The test accepts H1 when the LLR reaches
``log((1 - beta) / alpha)`` and H0 when it reaches ``log(beta / (1 - alpha))``: `alpha` is the
chance of accepting H1 when H0 holds, `beta` that of accepting H0 when H1 holds.

Two Elo models say what "x Elo stronger" means (`MODELS`):

- ``logistic``: the expected score per game is ``1 / (1 + 10 ** (-elo / 400))``, the Elo of
  the tournament's ratings. The maximum-likelihood distribution with a given mean is
  Proposition 1.1 of M. Van den Bergh, "Comparing the approximations for the generalized log
  likelihood ratio of a multinomial distribution".
- ``normalized``: normalized Elo (nElo), ``t = (score - 1/2) / sigma`` scaled so that 1 nElo
  is 1 logistic Elo for a perfectly balanced match without draws: with pentanomial statistics
  ``t = sqrt(2) * nelo * ln(10) / 800``, sigma the standard deviation of a pair's score per
  game. It measures the difference in standard deviations, so its bounds mean the same
  resolution whatever the draw rate. The maximum-likelihood distribution is found by the
  iteration of Section 4.1 of M. Van den Bergh, "Comments on normalized Elo".

These are the GSPRTs of fishtest (the Stockfish testing framework), fastchess and cutechess-ob;
the LLRs here agree with fastchess's (its ``app/src/matchmaking/sprt/sprt.cpp`` and its tests),
including its regularization: an outcome never seen counts as 1/1000 of a pair, so a
maximum-likelihood distribution is never 0 where the data are not. The Elo estimate and its
95% interval are fastchess's pentanomial ones (``elo_pentanomial.cpp``): the mean pair score
with the normal approximation of its standard error, mapped to Elo.

Every function takes counts of shape (..., 5) and works over the leading axes at once, so that
thousands of simulated tests run in one call.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .ratings import PERFECT_RECORD_NOTE, elo_cells, wilson

# a pair's score per game for the first agent: its points over the pair (0, 0.5, 1, 1.5, 2) / 2
PAIR_SCORES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)
OUTCOMES = ("LL", "LD", "WL+DD", "WD", "WW")  # the five, as fastchess names them
MODELS = ("logistic", "normalized")
# The largest bounds in size each model takes. Logistic: 2000 Elo is a score of 0.99999.
# Normalized: past about 230 nElo (t near 1) the iteration finds no distribution for many
# counts (the LLR is NaN and the test never decides); 200 (t = 0.81) leaves a margin.
MAX_BOUND = {"logistic": 2000, "normalized": 200}
NELO_SCALE = 800 / math.log(10)  # normalized Elo per unit of t (score difference over sigma)
Z95 = 1.959963984540054  # the normal distribution's two-sided 95% quantile
_REGULARIZE = 1e-3  # the count given to an outcome never seen (fastchess's and fishtest's)
_TOLERANCE = 1e-12  # of theta, relative
# where the iteration stops: the log-likelihood per pair moves by less (a probability next to
# an outcome never seen hangs on theta's last digits, and moves with them; the LLR does not)
_STILL = 1e-12
_ITERATIONS = 200

Decision = Literal["H0", "H1"]


def pentanomial(points: Iterable[float]) -> NDArray[np.int64]:
    """The counts of the five pair scores (0, 0.5, 1, 1.5, 2 points) among `points`, the
    first agent's points in each pair."""
    counts = np.zeros(5, dtype=np.int64)
    for value in points:
        index = round(float(value) * 2)
        if abs(value * 2 - index) > 1e-9 or not 0 <= index <= 4:
            raise ValueError(f"a pair scores 0, 0.5, 1, 1.5 or 2 points, got {value!r}")
        counts[index] += 1
    return counts


def logistic_score(elo: float) -> float:
    """The expected score per game of a player `elo` logistic Elo stronger."""
    return 1 / (1 + 10 ** (-elo / 400))


def logistic_elo(score: float) -> float:
    """The logistic Elo difference of an expected score per game (infinite at 0 and 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def _frequencies(counts: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The regularized counts' total and their frequencies, checked."""
    n = np.asarray(counts, dtype=np.float64)
    if n.shape[-1:] != (5,) or not np.all(np.isfinite(n)) or np.any(n < 0):
        raise ValueError(f"pentanomial counts are 5 non-negative numbers, got {counts!r}")
    n = np.where(n == 0, _REGULARIZE, n)
    total = n.sum(axis=-1)
    return total, n / total[..., None]


def _root(frequencies: NDArray[np.float64], phi: NDArray[np.float64]) -> NDArray[np.float64]:
    """The theta with ``sum_i f_i * phi_i / (1 + theta * phi_i) = 0`` in the interval where
    every ``1 + theta * phi_i`` is positive (phi has both signs), by Newton's method kept
    inside a shrinking bracket (the function falls steadily across the interval)."""
    low = -1 / phi.max(axis=-1)
    high = -1 / phi.min(axis=-1)
    theta = np.zeros(phi.shape[:-1])
    for _ in range(_ITERATIONS):
        denominator = 1 + theta[..., None] * phi
        value = (frequencies * phi / denominator).sum(axis=-1)
        slope = -(frequencies * phi**2 / denominator**2).sum(axis=-1)
        low = np.where(value > 0, theta, low)
        high = np.where(value > 0, high, theta)
        step = theta - value / slope
        inside = ((step > low) & (step < high)) | (step == theta)  # converged: theta is an end
        step = np.where(inside, step, (low + high) / 2)
        if np.all(np.abs(step - theta) <= _TOLERANCE * (1 + np.abs(theta))):
            return step
        theta = step
    return theta


def mle_with_score(counts: ArrayLike, score: float | ArrayLike) -> NDArray[np.float64]:
    """The distribution of the five pair outcomes with expected score per game `score` that
    is likeliest to give `counts` (regularized): ``p_i = f_i / (1 + theta (a_i - score))``
    (Van den Bergh, Proposition 1.1)."""
    _, frequencies = _frequencies(counts)
    s = np.asarray(score, dtype=np.float64)[..., None]
    if np.any((s <= 0) | (s >= 1)):
        raise ValueError(f"an expected score is strictly between 0 and 1, got {score!r}")
    phi = np.broadcast_to(PAIR_SCORES - s, frequencies.shape)
    theta = _root(frequencies, phi)
    return frequencies / (1 + theta[..., None] * phi)


def mle_with_t(counts: ArrayLike, t: float) -> NDArray[np.float64]:
    """The distribution of the five pair outcomes with ``(mean - 1/2) / sigma = t`` that is
    likeliest to give `counts` (regularized), by Van den Bergh's iteration ("Comments on
    normalized Elo", Section 4.1): from the uniform distribution, repeatedly
    ``p_i = f_i / (1 + theta * phi_i)`` with ``phi_i = a_i - 1/2 - t sigma (1 + ((a_i - mean) /
    sigma) ** 2) / 2`` of the previous p, until the log-likelihood stands still."""
    _, frequencies = _frequencies(counts)
    p = np.full(frequencies.shape, 1 / 5)
    for _ in range(_ITERATIONS):
        mean = (p * PAIR_SCORES).sum(axis=-1, keepdims=True)
        sigma = np.sqrt((p * (PAIR_SCORES - mean) ** 2).sum(axis=-1, keepdims=True))
        phi = PAIR_SCORES - 0.5 - 0.5 * t * sigma * (1 + ((PAIR_SCORES - mean) / sigma) ** 2)
        theta = _root(frequencies, phi)
        new = frequencies / (1 + theta[..., None] * phi)
        if np.all((frequencies * np.abs(np.log(new) - np.log(p))).sum(axis=-1) <= _STILL):
            return new
        p = new
    return p


def llr(
    counts: ArrayLike, elo0: float, elo1: float, model: str = "logistic"
) -> float | NDArray[np.float64]:
    """The generalized log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`) given the
    pentanomial `counts` (LL, LD, WL+DD, WD, WW), under the Elo `model`; 0 for no pairs. A
    float for one set of counts, an array for an array of them."""
    if model not in MODELS:
        raise ValueError(f"unknown Elo model {model!r}; models: {', '.join(MODELS)}")
    raw = np.asarray(counts, dtype=np.float64)
    total, frequencies = _frequencies(raw)
    if model == "logistic":
        p0 = mle_with_score(raw, logistic_score(elo0))
        p1 = mle_with_score(raw, logistic_score(elo1))
    else:
        p0 = mle_with_t(raw, math.sqrt(2) * elo0 / NELO_SCALE)
        p1 = mle_with_t(raw, math.sqrt(2) * elo1 / NELO_SCALE)
    ratio = total * (frequencies * (np.log(p1) - np.log(p0))).sum(axis=-1)
    ratio = np.where(raw.sum(axis=-1) == 0, 0.0, ratio)
    return float(ratio) if ratio.ndim == 0 else ratio


@dataclass(frozen=True)
class Sprt:
    """An SPRT of H0 "`elo0` Elo stronger" against H1 "`elo1` Elo stronger", with error
    rates `alpha` (accepting H1 when H0 holds) and `beta` (accepting H0 when H1 holds), in
    the Elo `model` (``logistic`` or ``normalized``)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "logistic"

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1", "alpha", "beta"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
                raise ValueError(f"{name} must be a number, got {value!r}")
            if not math.isfinite(value):
                raise ValueError(f"{name} must be finite, got {value!r}")
        if self.elo0 >= self.elo1:
            raise ValueError(
                f"elo0 must be below elo1 (H0 says weaker than H1), got elo0={self.elo0:g} "
                f"and elo1={self.elo1:g}"
            )
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 0.5:
                raise ValueError(f"{name} must be between 0 and 0.5 (exclusive), got {value:g}")
        if self.model not in MODELS:
            raise ValueError(f"unknown Elo model {self.model!r}; models: {', '.join(MODELS)}")
        largest = MAX_BOUND[self.model]
        if max(abs(self.elo0), abs(self.elo1)) > largest:
            raise ValueError(
                f"{self.model} Elo bounds are from -{largest} to {largest}, got elo0="
                f"{self.elo0:g} and elo1={self.elo1:g}"
            )

    @property
    def lower(self) -> float:
        """The LLR at which H0 is accepted: ``log(beta / (1 - alpha))``."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at which H1 is accepted: ``log((1 - beta) / alpha)``."""
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, counts: ArrayLike) -> float | NDArray[np.float64]:
        """The log-likelihood ratio of the pentanomial `counts` (see `llr`)."""
        return llr(counts, self.elo0, self.elo1, self.model)

    def decide(self, ratio: float) -> Decision | None:
        """``H1`` at or above the upper bound, ``H0`` at or below the lower, else None."""
        if ratio >= self.upper:
            return "H1"
        if ratio <= self.lower:
            return "H0"
        return None


NELO_NOTE = "nElo -: every pair scored the same, so there is no spread to normalize by"


@dataclass(frozen=True)
class EloEstimate:
    """The first agent's strength from pentanomial counts: its mean score per game, the
    logistic Elo of that score with a 95% interval, and the normalized Elo with the half-width
    of its interval."""

    pairs: int
    score: float
    elo: float
    elo_low: float
    elo_high: float
    nelo: float
    nelo_error: float

    @property
    def elo_text(self) -> str:
        """The Elo and its 95% interval as ``mancala match`` shows them: a perfect record's
        as a bound, as on a tournament's leaderboard (`ratings.elo_cells`)."""
        return " ".join(elo_cells(self.elo, self.elo_low, self.elo_high, self.score, 1))

    @property
    def nelo_text(self) -> str:
        """The normalized Elo and its half-width; ``-`` where every pair scored the same, so
        that there is no spread to normalize by (`NELO_NOTE`)."""
        if not math.isfinite(self.nelo):
            return "-"
        return f"{self.nelo:+.1f} ± {self.nelo_error:.1f}"

    @property
    def notes(self) -> tuple[str, ...]:
        """What a bound in `elo_text` and a dash in `nelo_text` mean, for those they show."""
        notes = []
        if self.score in (0, 1):
            notes.append(PERFECT_RECORD_NOTE)
        if not math.isfinite(self.nelo):
            notes.append(NELO_NOTE)
        return tuple(notes)

    def __str__(self) -> str:
        return f"Elo {self.elo_text} (nElo {self.nelo_text})"


def elo_estimate(counts: ArrayLike) -> EloEstimate:
    """The first agent's Elo from the (unregularized) pentanomial `counts`, as fastchess
    estimates it: the mean pair score per game and its standard error over pairs, the 95%
    interval ``score ± 1.96 * se`` mapped to logistic Elo, and normalized Elo
    ``(score - 1/2) / sqrt(2 * variance) * 800 / ln 10``. Where every pair scored the same
    (a clean sweep, say) the standard error is 0 and the interval is Wilson's for as many
    trials instead, so that ten sweeps do not claim an infinite Elo for certain."""
    n = np.asarray(counts, dtype=np.float64)
    if n.shape != (5,) or not np.all(np.isfinite(n)) or np.any(n < 0):
        raise ValueError(f"pentanomial counts are 5 non-negative numbers, got {counts!r}")
    pairs = int(n.sum())
    if pairs == 0:
        raise ValueError("no pairs: no estimate")
    frequencies = n / pairs
    score = float(frequencies @ PAIR_SCORES)
    variance = float(frequencies @ (PAIR_SCORES - score) ** 2)
    error = Z95 * math.sqrt(variance / pairs)
    if variance == 0:  # every pair scored the same: the normal approximation has no width
        low, high = wilson(score, pairs, Z95)
        low, high = (0.0 if score == 0 else low), (1.0 if score == 1 else high)  # exactly
    else:
        low, high = score - error, score + error
    if variance == 0:
        nelo = math.copysign(math.inf, score - 0.5) if score != 0.5 else 0.0
        nelo_error = 0.0
    else:
        nelo = (score - 0.5) / math.sqrt(2 * variance) * NELO_SCALE
        nelo_error = error / math.sqrt(2 * variance) * NELO_SCALE
    return EloEstimate(
        pairs=pairs,
        score=score,
        elo=logistic_elo(score),
        elo_low=logistic_elo(low),
        elo_high=logistic_elo(high),
        nelo=nelo,
        nelo_error=nelo_error,
    )
