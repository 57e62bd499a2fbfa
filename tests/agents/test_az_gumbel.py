"""The az agent's Gumbel search (``search=gumbel``): its improved policy against a hand
computation of ``softmax(logits + sigma(completed Q))``, its interior choice, its sequential
halving, the move it plays, its seeding and its spec."""

import math

import numpy as np
import pytest
from rules.positions import position
from test_az_agent import biased_network, save
from test_az_network import make_network

from mancala_env import Game
from mancala_env.agents import load_agent
from mancala_env.agents.az import AZAgent
from mancala_env.agents.az_search import (
    Searcher,
    considered_visits,
    gumbel_search,
    search_kernels,
)
from mancala_env.agents.loader import SpecError
from mancala_env.engine import layout as L

C_VISIT, C_SCALE = 50.0, 1.0


def softmax(x: np.ndarray) -> np.ndarray:
    weights = np.exp(x - x.max())
    return weights / weights.sum()


def sigma(q: np.ndarray, most_visits: float) -> np.ndarray:
    """The paper's sigma of values from -1 to 1 counted from 0 to 1."""
    return (C_VISIT + most_visits) * C_SCALE * (q + 1) / 2


def test_sequential_halving_visits_by_hand():
    # 4 moves, 8 simulations: ceil(log2 4) = 2 rounds; the first gives each of the 4 moves
    # max(1, 8 // (2 * 4)) = 1 visit, the second each of the best 2 moves 8 // (2 * 2) = 2
    assert considered_visits(4, 8).tolist() == [0, 0, 0, 0, 1, 1, 2, 2]
    # 3 moves, 5 simulations: 2 rounds; 5 // 6 -> 1 visit each, then the best 2 go on
    assert considered_visits(3, 5).tolist() == [0, 0, 0, 1, 1]
    assert considered_visits(1, 4).tolist() == [0, 1, 2, 3]  # one move: it has them all


# Obridjie: player_0 to move; lifting house 6 takes player_1's last seeds, player_1 is passed
# over and player_0 moves again (tests/rules/test_obridjie.py).
STUCK = [0, 0, 2, 3, 0, 1, 3, 0, 0, 0, 0, 0]


def test_the_improved_policy_is_the_hand_computed_one_an_extra_turn_keeping_its_sign(tmp_path):
    game = position("obridjie", STUCK, [19, 20], to_move=0)
    assert game.legal_actions() == [2, 3, 5]
    logits = np.array([0, 0, 1.0, 0.2, 0, 2.0])
    value = 0.4  # the network's value of every position, for its mover: tanh(0.4)
    network = biased_network("obridjie", logits.tolist(), value)
    searcher = Searcher(network, capacity=64)
    # 2 simulations over the 3 legal moves: the 2 likeliest (no noise), houses 6 and 3, are
    # visited once each; house 4 is not
    action, policy = gumbel_search(
        searcher, search_kernels(game), game, 2, np.zeros(6), 16, C_VISIT, C_SCALE
    )
    v = math.tanh(np.float32(value))
    q = {}
    for move in (5, 2):  # each child's value for player_0, as the engine says who moves there
        child = game.copy()
        child.step(move)
        assert not child.over
        q[move] = v if child.to_move == 0 else -v
    assert q[5] == v  # the extra turn: the child's value is the mover's own
    assert q[2] == -v
    legal = [2, 3, 5]
    prior = softmax(logits[legal])  # of moves 2, 3, 5
    p = dict(zip(legal, prior, strict=True))
    mixed = (v + 2 * (p[5] * q[5] + p[2] * q[2]) / (p[5] + p[2])) / 3
    completed = np.array([q[2], mixed, q[5]])
    expected = np.zeros(6)
    expected[legal] = softmax(logits[legal] + sigma(completed, 1))
    assert np.allclose(policy, expected, rtol=1e-5, atol=1e-9)
    # the survivor: of the most visited moves (2 and 5), the higher logits + sigma(Q)
    assert action == 5


def test_below_the_root_it_visits_the_move_lagging_most_behind_the_improved_policy():
    game = Game("oware")
    game.reset()
    network = make_network("oware")
    searcher = Searcher(network, capacity=4)
    kernels = search_kernels(game)
    kernels.new_tree(game.state, game.params, searcher.net, searcher.tree, searcher.scratch)
    _, _, priors, visits, values, _, estimates = searcher.tree
    priors[0] = [0.3, 0.25, 0.2, 0.15, 0.1, 0.0]  # move 5 taken as illegal below
    game.state[L.LEGAL + 5] = 0
    searcher.tree[0][0] = game.state
    visits[0] = [12, 1, 0, 2, 0, 0]
    values[0] = [6.24, -0.5, 0, 1.0, 0, 0]  # mean values 0.52, -0.5, -, 0.5
    estimates[0] = 0.1
    out = np.empty(6)
    kernels.improved_logits(0, searcher.tree, C_VISIT, C_SCALE, out)
    n = visits[0, :5]
    q = np.divide(values[0, :5], n, out=np.zeros(5), where=n > 0)
    seen = n > 0
    weighted = (priors[0, :5][seen] * q[seen]).sum() / priors[0, :5][seen].sum()
    mixed = (0.1 + n.sum() * weighted) / (n.sum() + 1)
    completed = np.where(seen, q, mixed)
    improved = softmax(np.log(priors[0, :5]) + sigma(completed, n.max()))
    assert np.allclose(softmax(out[:5]), improved) and out[5] == -np.inf
    expected = int(np.argmax(improved - n / (1 + n.sum())))
    assert expected != int(np.argmax(improved))  # the most likely move has had its share
    assert kernels._gumbel_action(0, searcher.tree, C_VISIT, C_SCALE, np.empty(6)) == expected


# South (to move) has 22 seeds stored; house 6's 2 seeds reach North's 1 and 2 seeds in houses 1
# and 2 (2 and 3 after sowing): capturing them (5) wins at once. Every other move sows one seed
# into South's own next house.
WINNING = ([1, 1, 1, 1, 1, 2, 1, 2, 1, 1, 1, 1], [22, 12])


@pytest.mark.parametrize("seed", range(4))
def test_with_a_budget_over_the_legal_moves_it_plays_the_winning_capture(tmp_path, seed):
    game = position("oware", *WINNING)
    after = game.copy()
    after.step(5)
    assert after.over and after.winner() == 0
    path = save(biased_network("oware", [0, 0, 0, 0, 1, 0]), tmp_path / "n.npz")
    agent = AZAgent(path, simulations=24, search="gumbel", seed=seed)  # 6 legal moves, 4 each
    assert agent.act(game) == 5
    assert agent.last_simulations == 24
    assert agent.last_policy[5] > 0.99  # the improved policy knows it too; the prior did not


def test_the_improved_policy_is_a_distribution_over_the_legal_moves_only(tmp_path):
    game = Game("oware")
    rng = np.random.default_rng(2)
    game.reset(rng)
    path = save(make_network("oware", seed=3), tmp_path / "n.npz")
    agent = AZAgent(path, simulations=16, search="gumbel", seed=1)
    for _ in range(40):
        if game.over:
            break
        action = agent.act(game)
        legal = game.legal_mask().astype(bool)
        assert legal[action]
        policy = agent.last_policy
        assert policy.shape == legal.shape and np.isclose(policy.sum(), 1)
        assert np.all(policy[~legal] == 0) and np.all(policy[legal] > 0)
        game.step(action)


def test_the_same_seed_plays_the_same_moves_and_targets():
    def game_of(seed: int) -> tuple[list[int], list[np.ndarray]]:
        agent = load_agent("az:oware,simulations=16,search=gumbel", "oware", seed=seed)
        game = Game("oware")
        game.reset(np.random.default_rng(0))
        moves, targets = [], []
        for _ in range(12):
            moves.append(agent.act(game))
            targets.append(agent.last_policy)
            game.step(moves[-1])
        return moves, targets

    first, again, other = game_of(5), game_of(5), game_of(6)
    assert first[0] == again[0]
    assert all(np.array_equal(a, b) for a, b in zip(first[1], again[1], strict=True))
    assert first[0] != other[0]  # the noise is the seed's: another seed samples other moves


def test_gumbel_scale_zero_plays_the_search_alone():
    game = Game("oware")
    game.reset(np.random.default_rng(4))
    moves = {
        load_agent("az:oware,simulations=16,search=gumbel,gumbel_scale=0", seed=s).act(game)
        for s in range(3)
    }
    assert len(moves) == 1


@pytest.mark.parametrize(
    "spec, problem",
    [
        ("az:oware,simulations=8,search=alphazero", "for search: must be one of puct, gumbel"),
        ("az:oware,simulations=8,search=gumbel,considered=0", "for considered: must be an "),
        ("az:oware,simulations=8,search=gumbel,considered=257", "from 1 to 256"),
        ("az:oware,simulations=8,search=gumbel,gumbel_scale=-1", "for gumbel_scale: must be"),
        ("az:oware,search=gumbel", "search=gumbel plans its simulations before it starts"),
        ("az:oware,simulations=8,time=1,search=gumbel", "give simulations=N, and no time"),
    ],
)
def test_bad_gumbel_specs_are_refused_in_one_line(spec, problem):
    with pytest.raises(ValueError) as error:
        load_agent(spec, "oware")
    message = str(error.value)
    assert problem in message and "\n" not in message
    assert isinstance(error.value, SpecError) or message.startswith("search=gumbel")


def test_puct_stays_the_default():
    agent = load_agent("az:oware,simulations=8", "oware", seed=0)
    assert agent.search == "puct" and agent.last_policy is None
    game = Game("oware")
    game.reset()
    agent.act(game)
    assert agent.last_policy is None
