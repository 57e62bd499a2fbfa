"""Ratings: Bradley-Terry recovers known strengths within its intervals."""

from __future__ import annotations

import numpy as np
import pytest
from mancala_env.agents.tournament import bradley_terry, rate, wilson
from mancala_env.agents.tournament.ratings import expected_score

TRUE = {"a": 300.0, "b": 100.0, "c": 0.0, "d": -400.0}


def synthetic_games(games_per_pair: int, seed: int, draw: float = 0.0) -> list[dict]:
    """Games between agents of known Elo: each pair from both seats, draws at rate `draw`."""
    rng = np.random.default_rng(seed)
    names = list(TRUE)
    records = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            score = expected_score(TRUE[a] - TRUE[b])
            draws = min(draw, 2 * min(score, 1 - score))  # keeps the expected score
            for g in range(games_per_pair):
                u = rng.random()
                outcome = 0.5 if u < draws else (1.0 if u < draws / 2 + score else 0.0)
                seat_a = g % 2
                winner = -1 if outcome == 0.5 else (seat_a if outcome == 1.0 else 1 - seat_a)
                agents = (a, b) if seat_a == 0 else (b, a)
                records.append(
                    {
                        "agent_0": agents[0],
                        "agent_1": agents[1],
                        "winner": winner,
                        "first_player": g % 2,
                    }
                )
    return records


def test_known_strengths_are_recovered_in_order_and_within_the_intervals():
    ratings = rate(synthetic_games(400, seed=1), list(TRUE), bootstrap=400, seed=2)
    assert [s.agent for s in ratings.standings] == ["a", "b", "c", "d"]
    mean = np.mean(list(TRUE.values()))
    for s in ratings.standings:
        truth = TRUE[s.agent] - mean  # ratings are reported with their mean at 0
        assert s.low <= truth <= s.high, (s.agent, s.low, truth, s.high)
        assert s.high - s.low < 120  # 1200 games per agent pin a rating to some tens of Elo
    gaps = {s.agent: s.rating for s in ratings.standings}
    assert gaps["a"] - gaps["d"] == pytest.approx(700, abs=80)
    assert all(s.superiority > 0.97 for s in ratings.standings[:-1])
    assert ratings.standings[-1].superiority is None


@pytest.mark.parametrize("draw", [0.0, 0.3])
def test_the_95_percent_intervals_cover_the_truth_about_95_percent_of_the_time(draw):
    """Over 100 synthetic tournaments (400 ratings), the intervals hold the true rating at
    close to their nominal rate: neither too narrow (dishonest) nor uselessly wide."""
    mean = np.mean(list(TRUE.values()))
    covered = total = 0
    widths = []
    for seed in range(100):
        ratings = rate(synthetic_games(60, seed, draw), list(TRUE), bootstrap=200, seed=seed)
        for s in ratings.standings:
            covered += s.low <= TRUE[s.agent] - mean <= s.high
            total += 1
            widths.append(s.high - s.low)
    assert 0.88 <= covered / total <= 0.995, covered / total
    assert np.median(widths) < 300


def test_equal_agents_get_wide_overlapping_intervals_and_no_superiority():
    records = [
        {"agent_0": "x", "agent_1": "y", "winner": g % 2, "first_player": 0} for g in range(20)
    ]
    ratings = rate(records, ["x", "y"], bootstrap=500)
    x, y = ratings.standings
    assert x.rating == pytest.approx(0) and y.rating == pytest.approx(0)
    assert x.low < -50 and x.high > 50
    assert 0.3 < x.superiority < 0.7
    assert ratings.first_mover_score == 0.5


def test_draws_count_half_and_the_crosstable_adds_up():
    records = [
        {"agent_0": "x", "agent_1": "y", "winner": 0, "first_player": 0},
        {"agent_0": "y", "agent_1": "x", "winner": -1, "first_player": 0},
        {"agent_0": "y", "agent_1": "x", "winner": -1, "first_player": 1},
    ]
    ratings = rate(records, ["x", "y"], bootstrap=50)
    pair = ratings.crosstable["x", "y"]
    assert (pair.points, pair.games, pair.wins, pair.draws, pair.losses) == (2.0, 3, 1, 2, 0)
    assert ratings.crosstable["y", "x"].points == 1.0
    assert ratings.standings[0].agent == "x" and ratings.standings[0].score == pytest.approx(2 / 3)
    assert ratings.first_mover_points == 2.0  # the win by the first mover and two halves


def test_a_perfect_record_gets_a_finite_rating_and_a_real_interval():
    records = [{"agent_0": "w", "agent_1": "l", "winner": 0, "first_player": 0}] * 10
    ratings = rate(records, ["w", "l"], bootstrap=300)
    top = ratings.standings[0]
    assert top.agent == "w" and np.isfinite(top.rating) and top.rating > 200
    assert top.high - top.low > 50


def test_an_agent_without_games_is_unrated():
    records = [{"agent_0": "x", "agent_1": "y", "winner": 0, "first_player": 0}] * 4
    ratings = rate(records, ["x", "y", "z"], bootstrap=50)
    z = ratings.standings[-1]
    assert z.agent == "z" and np.isnan(z.rating) and z.games == 0


def test_bradley_terry_matches_the_closed_form_for_two_agents():
    # Two agents, a scored 15 of 20: with the prior draw, p = 15.125 / 20.25 and the gap is
    # its logit.
    ratings = bradley_terry(np.array([[0, 15], [5, 0]]))
    p = 15.125 / 20.25
    assert ratings[0] - ratings[1] == pytest.approx(400 * np.log10(p / (1 - p)))
    assert ratings.sum() == pytest.approx(0)


def test_wilson_interval():
    low, high = wilson(0.5, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(1.0, 10)[1] == 1.0 and wilson(0.0, 10)[0] == 0.0
