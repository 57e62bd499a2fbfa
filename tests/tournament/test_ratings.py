"""Ratings: Bradley-Terry recovers known strengths within its intervals."""

from __future__ import annotations

import numpy as np
import pytest

from mancala_env.agents.tournament import bradley_terry, rate, wilson
from mancala_env.agents.tournament.ratings import expected_score, parse_anchor

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


def games(a: str, b: str, wins: int, losses: int) -> list[dict]:
    """`wins` + `losses` games of a against b, seats alternating."""
    found = []
    for g in range(wins + losses):
        won = g < wins
        seat = g % 2
        pair = (a, b) if seat == 0 else (b, a)
        winner = seat if won else 1 - seat
        found.append({"agent_0": pair[0], "agent_1": pair[1], "winner": winner, "first_player": 0})
    return found


# A, B, C about 0, 200 and 400 Elo: each pair 100 games at the scores those ratings expect
FIELD = games("B", "A", 76, 24) + games("C", "A", 91, 9) + games("C", "B", 76, 24)
# C2, a copy of C: C's games against A and B again, and even with C
COPY = [
    {**r, "agent_0": r["agent_0"].replace("C", "C2"), "agent_1": r["agent_1"].replace("C", "C2")}
    for r in FIELD
    if "C" in (r["agent_0"], r["agent_1"])
] + games("C", "C2", 50, 50)


def test_with_anchors_a_copy_of_an_agent_leaves_the_other_ratings_where_they_were():
    def elo(records, agents, anchors=None) -> dict[str, float]:
        ratings = rate(records, agents, bootstrap=10, anchors=anchors)
        return {s.agent: s.rating for s in ratings.standings}

    anchored = elo(FIELD, "ABC", {"A": 0})
    padded = elo(FIELD + COPY, ["A", "B", "C", "C2"], {"A": 0})
    assert anchored["A"] == padded["A"] == 0
    assert anchored["B"] == pytest.approx(200, abs=10) and anchored["C"] == pytest.approx(
        400, abs=10
    )
    for agent in "BC":
        assert padded[agent] == pytest.approx(anchored[agent], abs=1.5)
    floating, moved = elo(FIELD, "ABC"), elo(FIELD + COPY, ["A", "B", "C", "C2"])
    assert floating["B"] - moved["B"] > 40  # centred on the field, everyone else drops


def test_an_anchor_is_fixed_and_the_others_intervals_hold_the_truth_relative_to_it():
    ratings = rate(
        synthetic_games(400, seed=1), list(TRUE), bootstrap=400, seed=2, anchors={"c": 0}
    )
    assert ratings.anchors == {"c": 0}
    for s in ratings.standings:
        if s.agent == "c":
            assert s.rating == s.low == s.high == 0
        else:
            assert s.low <= TRUE[s.agent] <= s.high, (s.agent, s.low, s.high)
    high = rate(synthetic_games(400, seed=1), list(TRUE), bootstrap=50, seed=2, anchors={"c": 1000})
    by_agent = {s.agent: s.rating for s in high.standings}
    assert by_agent["c"] == 1000 and by_agent["a"] == pytest.approx(1300, abs=60)


@pytest.mark.parametrize(
    ("text", "parsed"),
    [("random=0", ("random", 0.0)), ("alphabeta:depth=1=1000", ("alphabeta:depth=1", 1000.0))],
)
def test_an_anchor_splits_at_its_last_equals_sign(text, parsed):
    assert parse_anchor(text) == parsed


@pytest.mark.parametrize(
    "text", ["random", "=0", "random=x", "random=nan", "random=", "random=1e9"]
)
def test_a_bad_anchor_is_refused_with_its_form(text):
    with pytest.raises(ValueError, match="an anchor is SPEC=RATING, such as random=0"):
        parse_anchor(text)


def test_an_anchor_that_is_no_agent_names_the_agents():
    with pytest.raises(ValueError, match="anchor 'greedy' is not an agent .*agents: a, b, c, d"):
        rate(synthetic_games(2, seed=1), list(TRUE), anchors={"greedy": 0})
