"""The SPRT's statistics: its log-likelihood ratio against fastchess's
published numbers and against a maximum-likelihood computation made here another way, its
Elo estimate, its bounds, and its error rates over many simulated tests."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mancala_env.agents.tournament.sprt import (
    MAX_BOUND,
    NELO_SCALE,
    PAIR_SCORES,
    Z95,
    Sprt,
    elo_estimate,
    llr,
    logistic_score,
    pentanomial,
)

# fastchess's tests (app/tests/sprt_test.cpp): Stats(LL, LD, WL, DD, WD, WW), elo0, elo1,
# model and the LLR they expect to 1%; here as the counts of 0, 0.5, 1, 1.5 and 2 points
FASTCHESS_LLR = [
    ((365, 16618, 36029 + 200, 16974, 390), 0, 2, "normalized", 2.25),
    ((127, 4883, 10311 + 401, 5150, 104), -1.75, 0.25, "normalized", 3.01),
    ((0, 0, 0, 0, 5550), 0, 5, "normalized", 111.82),
    ((223, 9863, 20279 + 1000, 10037, 246), 0.5, 2.5, "logistic", -3.07),
    ((871, 26175, 55003 + 980, 26678, 821), 0, 2, "logistic", -4.98),
]
# fastchess's tests of its Elo estimate (app/tests/elo_test.cpp): Elo ± error, nElo ± error
FASTCHESS_ELO = [
    ((34, 54, 31 + 32, 64, 75), 55.58, 27.65, 57.94, 28.28),
    ((332, 433, 457 + 41, 333, 334), -8.64, 10.33, -9.17, 10.96),
    ((7895, 8757, 5485 + 200, 568, 9999), -21.04, 2.95, -19.01, 2.65),
]


@pytest.mark.parametrize(("counts", "elo0", "elo1", "model", "expected"), FASTCHESS_LLR)
def test_the_llr_is_fastchess_s(counts, elo0, elo1, model, expected):
    assert llr(counts, elo0, elo1, model) == pytest.approx(expected, rel=0.01)


# ---- the maximum-likelihood distributions found another way ----------------------------------
def constrained_mle(frequencies, features, targets):
    """The distribution p maximizing sum f_i log p_i subject to ``features @ p == targets``
    (the first row all ones), by damped Newton's method on the convex dual problem over the
    multipliers (p_i = f_i / (lambda . features_i))."""

    def dual(multipliers):
        return multipliers @ targets - frequencies @ np.log(multipliers @ features)

    multipliers = np.zeros(len(targets))
    multipliers[0] = 1.0
    for _ in range(200):
        denominators = multipliers @ features
        gradient = targets - features @ (frequencies / denominators)
        hessian = (features * (frequencies / denominators**2)) @ features.T
        step = np.linalg.solve(hessian, gradient)
        size = 1.0
        while np.any((multipliers - size * step) @ features <= 0) or dual(
            multipliers - size * step
        ) > dual(multipliers):
            size /= 2
        multipliers = multipliers - size * step
        if np.abs(size * step).max() < 1e-13:
            break
    return frequencies / (multipliers @ features)


def mle_with_mean(frequencies, mean):
    features = np.vstack([np.ones(5), PAIR_SCORES])
    return constrained_mle(frequencies, features, np.array([1.0, mean]))


def mle_with_t(frequencies, t):
    """For t != 0 the mean m fixes the variance, ((m - 1/2) / t) ** 2: the constraints are
    linear for each m, and the best m is found by a scan and a golden-section search."""
    if t == 0:
        return mle_with_mean(frequencies, 0.5)
    features = np.vstack([np.ones(5), PAIR_SCORES, PAIR_SCORES**2])

    def best_for(mean):
        variance = ((mean - 0.5) / t) ** 2
        return constrained_mle(frequencies, features, np.array([1.0, mean, variance + mean**2]))

    def likelihood(mean):
        try:
            return frequencies @ np.log(best_for(mean))
        except np.linalg.LinAlgError:  # next to the largest variance: the likelihood is 0
            return -math.inf

    # the means whose variance a distribution on [0, 1] can have with room to spare:
    # (m - 1/2) ** 2 < c * m * (1 - m) with c = 0.9 t ** 2
    c = 0.9 * t**2
    widest = 0.5 * math.sqrt(c / (1 + c))
    offsets = np.linspace(0, widest, 32)[1:-1]
    means = 0.5 + math.copysign(1, t) * offsets
    best = max(means, key=likelihood)
    spacing = offsets[1] - offsets[0]
    low, high = best - spacing, best + spacing
    golden = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        left, right = high - golden * (high - low), low + golden * (high - low)
        if likelihood(left) > likelihood(right):
            high = right
        else:
            low = left
    return best_for((low + high) / 2)


def direct_llr(counts, elo0, elo1, model):
    n = np.asarray(counts, dtype=float)
    n = np.where(n == 0, 1e-3, n)  # fastchess's and fishtest's regularization
    frequencies = n / n.sum()
    if model == "logistic":
        p0 = mle_with_mean(frequencies, logistic_score(elo0))
        p1 = mle_with_mean(frequencies, logistic_score(elo1))
    else:
        p0 = mle_with_t(frequencies, math.sqrt(2) * elo0 / NELO_SCALE)
        p1 = mle_with_t(frequencies, math.sqrt(2) * elo1 / NELO_SCALE)
    return n.sum() * frequencies @ (np.log(p1) - np.log(p0))


@pytest.mark.parametrize(
    ("counts", "elo0", "elo1"),
    [
        ((365, 16618, 36229, 16974, 390), 0, 2),
        ((127, 4883, 10712, 5150, 104), -1.75, 0.25),
        ((3, 10, 30, 12, 5), -10, 40),
        ((30, 2, 41, 1, 26), 0, 50),
        ((1, 0, 6, 3, 9), 0, 100),
        ((12, 0, 40, 0, 8), -30, 10),
    ],
)
@pytest.mark.parametrize("model", ["logistic", "normalized"])
def test_the_llr_is_the_log_ratio_of_the_two_constrained_maximum_likelihoods(
    counts, elo0, elo1, model
):
    assert llr(counts, elo0, elo1, model) == pytest.approx(
        direct_llr(counts, elo0, elo1, model), rel=1e-6, abs=1e-8
    )


def test_the_llr_is_vectorized_and_zero_before_any_pair():
    counts = np.array([[3, 10, 30, 12, 5], [0, 0, 0, 0, 0], [30, 2, 41, 1, 26]])
    for model in ("logistic", "normalized"):
        together = llr(counts, 0, 50, model)
        assert together.shape == (3,) and together[1] == 0
        assert together == pytest.approx([llr(c, 0, 50, model) for c in counts], rel=1e-9)


@pytest.mark.parametrize(("counts", "elo", "error", "nelo", "nelo_error"), FASTCHESS_ELO)
def test_the_elo_estimate_is_fastchess_s(counts, elo, error, nelo, nelo_error):
    estimate = elo_estimate(counts)
    assert estimate.pairs == sum(counts)
    assert estimate.elo == pytest.approx(elo, rel=0.01)
    assert (estimate.elo_high - estimate.elo_low) / 2 == pytest.approx(error, rel=0.01)
    assert estimate.elo_low < estimate.elo < estimate.elo_high
    assert estimate.nelo == pytest.approx(nelo, rel=0.01)
    assert estimate.nelo_error == pytest.approx(nelo_error, rel=0.01)


def test_the_elo_estimate_of_a_clean_sweep_is_infinite_with_a_finite_lower_bound():
    estimate = elo_estimate([0, 0, 0, 0, 10])
    assert estimate.elo == math.inf and estimate.score == 1 and estimate.nelo == math.inf
    # Wilson's interval of 10 successes in 10 trials: from 10 / (10 + 1.96^2) = 0.722
    assert estimate.elo_low == pytest.approx(-400 * math.log10(1 / (10 / (10 + Z95**2)) - 1))
    assert estimate.elo_high == math.inf
    low = f"{estimate.elo_low:+.1f}"  # shown as a bound, as a tournament shows a perfect record
    assert str(estimate) == f"Elo > {low} [{low}, +inf) (nElo -)"


def test_pentanomial_counts_the_five_pair_scores():
    assert pentanomial([2, 1, 1.5, 0, 1, 0.5, 2]).tolist() == [1, 1, 2, 1, 2]
    with pytest.raises(ValueError, match="0, 0.5, 1, 1.5 or 2 points"):
        pentanomial([2.5])


def test_the_bounds_are_wald_s():
    sprt = Sprt(0, 10, alpha=0.05, beta=0.1)
    assert sprt.lower == pytest.approx(math.log(0.1 / 0.95))
    assert sprt.upper == pytest.approx(math.log(0.9 / 0.05))
    assert (sprt.decide(3.0), sprt.decide(-2.3), sprt.decide(0.0)) == ("H1", "H0", None)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"elo0": 5, "elo1": 5}, "elo0 must be below elo1"),
        ({"elo0": 10, "elo1": 0}, "elo0 must be below elo1"),
        ({"elo0": 0, "elo1": 5, "alpha": 0}, "alpha must be between 0 and 0.5"),
        ({"elo0": 0, "elo1": 5, "alpha": 0.5}, "alpha must be between 0 and 0.5"),
        ({"elo0": 0, "elo1": 5, "beta": 1.2}, "beta must be between 0 and 0.5"),
        ({"elo0": 0, "elo1": 5, "beta": -0.1}, "beta must be between 0 and 0.5"),
        ({"elo0": 0, "elo1": math.nan}, "elo1 must be finite"),
        ({"elo0": 0, "elo1": 5, "model": "bayesian"}, "unknown Elo model 'bayesian'"),
        ({"elo0": 0, "elo1": 2001}, "logistic Elo bounds are from -2000 to 2000"),
        (
            {"elo0": -1e6, "elo1": 1e6, "model": "normalized"},
            "normalized Elo bounds are from -200 to 200, got elo0=-1e[+]06",
        ),
    ],
)
def test_bad_bounds_are_refused(arguments, message):
    with pytest.raises(ValueError, match=message):
        Sprt(**arguments)


COUNTS = [(1, 0, 0, 0, 0), (0, 0, 0, 0, 1), (0, 0, 0, 1, 100), (100, 1, 0, 0, 0), (3, 0, 0, 0, 4),
          (5, 3, 10, 2, 1), (365, 16618, 36229, 16974, 390)]  # fmt: skip


@pytest.mark.parametrize("model", sorted(MAX_BOUND))
def test_the_llr_is_finite_for_any_bounds_a_model_takes(model):
    """The largest bounds a model takes still give a number for extreme counts, so a test
    with them can decide."""
    b = MAX_BOUND[model]
    for elo0, elo1 in ((-b, b), (0, b), (-b, 0), (b - 1, b)):
        assert np.all(np.isfinite(Sprt(elo0, elo1, model=model).llr(np.array(COUNTS))))


# ---- error rates over many simulated tests ---------------------------------------------------
# Equal agents of a game with few draws: a pair is mostly a win each (1 point), sometimes a
# sweep either way; the stronger agent's distributions are this one tilted to a higher mean.
EVEN = np.array([0.2, 0.05, 0.5, 0.05, 0.2])
RUNS = 1000


def tilted(mean: float) -> np.ndarray:
    """EVEN tilted (p_i proportional to EVEN_i exp(k a_i)) to an expected score of `mean`."""
    low, high = -60.0, 60.0
    for _ in range(200):
        k = (low + high) / 2
        p = EVEN * np.exp(k * PAIR_SCORES)
        p /= p.sum()
        low, high = (k, high) if p @ PAIR_SCORES < mean else (low, k)
    return p


def simulate(sprt: Sprt, outcomes: np.ndarray, seed: int, max_pairs: int = 5000) -> np.ndarray:
    """`RUNS` independent tests, each drawing pairs from the distribution `outcomes` and
    deciding after every pair; the decision of each ('H0', 'H1', or '' at `max_pairs`)."""
    rng = np.random.default_rng(seed)
    counts = np.zeros((RUNS, 5))
    decisions = np.full(RUNS, "", dtype="<U2")
    going = np.arange(RUNS)
    for _ in range(max_pairs):
        counts[going, rng.choice(5, size=going.size, p=outcomes)] += 1
        ratio = sprt.llr(counts[going])
        decisions[going[ratio >= sprt.upper]] = "H1"
        decisions[going[ratio <= sprt.lower]] = "H0"
        going = going[(ratio > sprt.lower) & (ratio < sprt.upper)]
        if not going.size:
            break
    return decisions


@pytest.mark.parametrize(("model", "elo1"), [("logistic", 50), ("normalized", 100)])
def test_equal_agents_accept_h0_at_the_rate_one_minus_alpha(model, elo1):
    sprt = Sprt(0, elo1, alpha=0.1, beta=0.1, model=model)
    decisions = simulate(sprt, EVEN, seed=1)
    assert (decisions != "").all()
    # 1 - alpha within 3 standard errors of 1000 runs (0.0095) and the GSPRT's small bias
    assert (decisions == "H0").mean() == pytest.approx(1 - sprt.alpha, abs=0.03)


def test_an_agent_elo1_stronger_accepts_h1_at_the_rate_one_minus_beta():
    sprt = Sprt(0, 50, alpha=0.1, beta=0.1)
    decisions = simulate(sprt, tilted(logistic_score(50)), seed=2)
    assert (decisions != "").all()
    assert (decisions == "H1").mean() == pytest.approx(1 - sprt.beta, abs=0.03)


def test_a_clearly_stronger_agent_accepts_h1():
    sprt = Sprt(0, 50, alpha=0.05, beta=0.05)
    decisions = simulate(sprt, tilted(logistic_score(200)), seed=3)
    assert (decisions == "H1").mean() >= 0.999
