"""Nash averaging: a cyclic field rates its agents alike where Bradley-Terry does not, and
neither a copy of an agent nor a weak agent beaten by more moves it."""

from __future__ import annotations

import numpy as np
import pytest

from mancala_env.agents.tournament import rate
from mancala_env.agents.tournament.nash import max_entropy_equilibrium, nash_average, score_margins

# rock-paper-scissors: each beats the next 3 games in 4; R beats the weak W every game, P and S
# only 6 in 10
RPSW = ("R", "P", "S", "W")
SCORES = np.array(
    [
        [0.5, 0.75, 0.25, 1.0],
        [0.25, 0.5, 0.75, 0.6],
        [0.75, 0.25, 0.5, 0.6],
        [0.0, 0.4, 0.4, 0.5],
    ]
)


def records(agents, scores: np.ndarray, games: int = 20) -> list[dict]:
    """`games` games a pair, half from each seat, agent i winning scores[i, j] of them."""
    found = []
    for i, a in enumerate(agents):
        for j in range(i + 1, len(agents)):
            wins = round(scores[i, j] * games)
            for g in range(games):
                seat = g % 2  # a's seat
                winner = seat if g < wins else 1 - seat
                pair = (a, agents[j]) if seat == 0 else (agents[j], a)
                found.append(
                    {"agent_0": pair[0], "agent_1": pair[1], "winner": winner, "first_player": 0}
                )
    return found


def with_copy_of_r(scores: np.ndarray) -> np.ndarray:
    """The field with R2, a copy of R: the same scores against the others, even against R."""
    order = [0, 1, 2, 3, 0]
    copied = scores[np.ix_(order, order)]
    copied[0, 4] = copied[4, 0] = 0.5
    return copied


def test_a_cyclic_field_gets_equal_mass_and_equal_averages():
    nash = nash_average(RPSW[:3], SCORES[:3, :3])
    assert nash.mass == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    assert nash.average == pytest.approx((0, 0, 0), abs=1e-12)


def test_beating_a_weak_agent_by_more_lifts_bradley_terry_but_not_the_nash_average():
    ratings = rate(records(RPSW, SCORES), RPSW, bootstrap=20)
    elo = {s.agent: s.rating for s in ratings.standings}
    assert elo["R"] > max(elo["P"], elo["S"]) + 20  # the wins over W count
    nash = dict(zip(RPSW, ratings.nash.average, strict=True))
    mass = dict(zip(RPSW, ratings.nash.mass, strict=True))
    assert [nash[a] for a in "RPS"] == pytest.approx([0, 0, 0], abs=1e-9)
    assert mass["W"] == 0 and [mass[a] for a in "RPS"] == pytest.approx([1 / 3] * 3)
    assert nash["W"] == pytest.approx(-(1.0 + 0.2 + 0.2) / 3)  # its margins against the mix


def test_a_copy_of_an_agent_leaves_the_nash_averages_and_moves_the_mean_scores():
    plain = nash_average(RPSW, SCORES)
    copied = nash_average((*RPSW, "R2"), with_copy_of_r(SCORES))
    assert copied.average[:4] == pytest.approx(plain.average, abs=1e-9)
    assert copied.average[4] == pytest.approx(plain.average[0], abs=1e-9)
    assert copied.mass[0] == pytest.approx(copied.mass[4])  # maximum entropy: an even split
    assert copied.mass[0] + copied.mass[4] == pytest.approx(plain.mass[0])

    def mean_scores(agents, scores) -> dict[str, float]:
        ratings = rate(records(agents, scores), agents, bootstrap=10)
        return {s.agent: s.score for s in ratings.standings}

    before = mean_scores(RPSW, SCORES)
    after = mean_scores((*RPSW, "R2"), with_copy_of_r(SCORES))
    assert after["P"] < before["P"] - 0.05 and after["S"] > before["S"] + 0.05  # R beats P


def test_a_transitive_field_puts_all_mass_on_the_best():
    scores = np.array([[0.5, 0.7, 0.9], [0.3, 0.5, 0.8], [0.1, 0.2, 0.5]])
    nash = nash_average("ABC", scores)
    assert nash.mass == pytest.approx((1, 0, 0))
    assert nash.average == pytest.approx((0, -0.4, -0.8))
    assert [agent for agent, _, _ in nash.ranking()] == ["A", "B", "C"]


def test_random_fields_with_copies_give_an_equilibrium_that_splits_copies_evenly():
    rng = np.random.default_rng(0)
    for _ in range(100):
        n = int(rng.integers(2, 8))
        scores = rng.random((n, n))
        scores = (scores + 1 - scores.T) / 2
        order = [*range(n), int(rng.integers(n))]  # the last a copy of another
        scores = scores[np.ix_(order, order)]
        scores[order[-1], n] = scores[n, order[-1]] = 0.5
        np.fill_diagonal(scores, 0.5)
        margins = score_margins(scores)
        mass = max_entropy_equilibrium(margins)
        assert mass.min() >= 0 and mass.sum() == pytest.approx(1)
        assert (margins @ mass).max() < 1e-8  # no agent does better than even against it
        assert mass[n] == pytest.approx(mass[order[-1]], abs=1e-6)


def test_no_nash_averaging_where_a_pair_did_not_meet():
    gauntlet = [r for r in records(RPSW, SCORES) if "R" in (r["agent_0"], r["agent_1"])]
    assert rate(gauntlet, RPSW, bootstrap=10).nash is None


def test_tied_agents_are_ranked_by_rating_then_name_whatever_order_they_were_given_in():
    """Rock, paper and scissors tie on average and mass: the ranking breaks the tie by the
    leaderboard's rating, then by name, not by the order of the agents (or the solver's last
    digits)."""
    rps = SCORES[:3, :3]
    rankings = set()
    for order in ([0, 1, 2], [2, 0, 1], [1, 2, 0], [2, 1, 0]):
        nash = nash_average([RPSW[k] for k in order], rps[np.ix_(order, order)])
        rankings.add(tuple(agent for agent, _, _ in nash.ranking()))
        rated = nash.ranking({"R": 10.0, "P": 30.0, "S": 20.0})
        assert [agent for agent, _, _ in rated] == ["P", "S", "R"]
    assert rankings == {("P", "R", "S")}
