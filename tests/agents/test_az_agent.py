"""The az agent: the network's most likely legal move, PUCT search with it, its spec and its
identity in tournaments."""

import numpy as np
import pytest
from rules.positions import position
from test_az_network import make_network

from mancala_env import Game
from mancala_env.agents import load_agent
from mancala_env.agents.az import AZAgent
from mancala_env.agents.loader import SpecError, agent_identity, parse_spec
from mancala_env.agents.network import Network, network_meta
from mancala_env.engine import layout as L
from mancala_env.observation import observe


def biased_network(variant: str, bias: list[float], value: float = 0.0) -> Network:
    """A network whose every output is its biases: logits `bias`, value tanh(`value`)."""
    network = make_network(variant, hidden=(4,))
    zero = tuple((np.zeros_like(w), np.zeros_like(b)) for w, b in network.layers)
    policy = (np.zeros_like(network.policy[0]), np.array(bias, dtype=np.float32))
    head = (np.zeros_like(network.value[0]), np.array([value], dtype=np.float32))
    return Network(network.meta, zero, policy, head)


def save(network: Network, path) -> str:
    path.write_bytes(network.to_bytes())
    return str(path)


def test_without_search_it_plays_the_most_likely_legal_move(tmp_path):
    path = save(biased_network("oware", [9, 0, 1, 2, 3, 4]), tmp_path / "n.npz")
    agent = AZAgent(path, variant="oware")
    game = Game("oware", first_player="player_0")
    game.reset()
    assert agent.act(game) == 0
    # house 1 empty: its move is illegal however likely, the next best is played
    game = position("oware", [0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 8], [0, 0])
    assert game.legal_mask()[0] == 0
    assert agent.act(game) == 5
    probabilities, value = agent.policy(game)
    assert probabilities[0] == 0 and np.isclose(probabilities.sum(), 1) and value == 0.0


def test_search_finds_the_winning_capture_a_uniform_network_does_not_see(tmp_path):
    # South (to move) has 24 seeds stored; house 6's 2 seeds reach North's 1 and 2 seeds in
    # houses 1 and 2 (2 and 3 after sowing): capturing them wins the game at once.
    game = position("oware", [0, 0, 0, 0, 1, 2, 1, 2, 5, 5, 5, 5], [20, 2])
    winning = 5
    before = game.copy()
    before.step(winning)
    assert before.over and before.winner() == 0
    path = save(biased_network("oware", [0, 0, 0, 0, 1, 0]), tmp_path / "n.npz")
    plain = AZAgent(path)
    assert plain.act(game) == 4  # the prior's favourite
    searching = AZAgent(path, simulations=50, seed=0)
    assert searching.act(game) == winning
    assert searching.last_simulations == 50
    assert searching.last_value > 0.5


def test_a_time_limited_search_stops(tmp_path):
    path = save(make_network(), tmp_path / "n.npz")
    agent = AZAgent(path, time_limit=0.05, seed=1)
    game = Game("oware")
    game.reset(np.random.default_rng(0))
    action = agent.act(game)
    assert game.legal_mask()[action] == 1
    assert agent.last_simulations >= 1


@pytest.mark.parametrize("variant", ["ayoayo", "mangala", "mighty_men", "layli_goobalay"])
def test_it_plays_whole_games_of_other_rule_sets_with_and_without_search(tmp_path, variant):
    path = save(make_network(variant), tmp_path / f"{variant}.npz")
    agents = [AZAgent(path, seed=0), AZAgent(path, simulations=8, seed=1)]
    game = Game(variant)
    game.reset(np.random.default_rng(3))
    moves = 0
    while not game.over and moves < 3000:
        action = agents[game.to_move].act(game)
        assert game.legal_mask()[action] == 1
        game.step(action)
        moves += 1
    assert game.over


def test_it_refuses_a_game_of_other_rules(tmp_path):
    path = save(make_network("oware"), tmp_path / "n.npz")
    with pytest.raises(ValueError, match="plays oware, not ayoayo"):
        AZAgent(path, variant="ayoayo")
    agent = AZAgent(path)
    game = Game("ayoayo")
    game.reset()
    with pytest.raises(ValueError, match="plays oware, not ayoayo"):
        agent.act(game)


@pytest.mark.parametrize(
    "arguments, message",
    [
        ({"simulations": 0}, "simulations must be an integer from 1 to 1,000,000"),
        ({"time_limit": -1.0}, "time must be a number above 0 and at most 86400"),
        ({"c": -0.1}, "c must be a number from 0 to 1000"),
    ],
)
def test_bad_budgets_are_refused(tmp_path, arguments, message):
    path = save(make_network(), tmp_path / "n.npz")
    with pytest.raises(ValueError, match=message):
        AZAgent(path, **arguments)


def test_specs_name_the_network_and_the_search(tmp_path):
    assert parse_spec("az:oware") == ("az", {"network": "oware"})
    assert parse_spec("az:oware,simulations=200,c=1") == (
        "az",
        {"network": "oware", "simulations": 200, "c": 1.0},
    )
    assert parse_spec("az:runs/a,b.npz,time=0.5") == (
        "az",
        {"network": "runs/a,b.npz", "time_limit": 0.5},
    )
    for spec, problem in [
        ("az:", "needs a shipped network"),
        ("az:oware,simulations=0", "must be an integer from 1 to 1,000,000"),
        ("az:oware,simulations=10,simulations=20", "given twice"),
    ]:
        with pytest.raises(SpecError, match=problem):
            parse_spec(spec)
    with pytest.raises(ValueError, match="no network at"):
        load_agent("az:no/such/file.npz", "oware")


def test_loaded_by_spec_and_keyed_by_content(tmp_path):
    path = tmp_path / "n.npz"
    save(make_network(seed=1), path)
    agent = load_agent(f"az:{path},simulations=4", "oware", seed=0)
    assert isinstance(agent, AZAgent) and agent.simulations == 4
    first = agent_identity(f"az:{path}")
    assert first == agent.identity
    save(make_network(seed=2), path)
    assert agent_identity(f"az:{path}") != first


def test_the_shipped_network_plays_by_name():
    agent = load_agent("az:oware", "oware", seed=0)
    game = Game("oware")
    game.reset(np.random.default_rng(0))
    assert game.legal_mask()[agent.act(game)] == 1
    assert game.state[L.OVER] == 0
    assert network_meta(game, [1])["variant"] == agent.network.variant


@pytest.mark.parametrize("hidden", [(8,), (16, 8, 4)])
def test_the_compiled_forward_pass_is_the_networks(hidden):
    from mancala_env.agents.az_search import Searcher, forward

    network = make_network("oware", hidden=hidden, seed=4)
    searcher = Searcher(network, capacity=4)
    observation, logits, hidden_a, hidden_b = searcher.scratch
    game = Game("oware")
    rng = np.random.default_rng(6)
    game.reset(rng)
    for _ in range(30):
        seen = observe(game.state, game.to_move, game.params)
        observation[: len(seen)] = seen
        value = forward(observation, len(seen), searcher.net, logits, hidden_a, hidden_b)
        expected_logits, expected_value = network.forward(seen[None, :])
        assert np.allclose(logits, expected_logits[0], rtol=1e-4, atol=1e-3)
        assert np.isclose(value, expected_value[0], atol=1e-4)
        game.step(int(rng.choice(game.legal_actions())))
        if game.over:
            break


def test_a_search_whose_tree_fills_up_stops_and_plays_a_legal_move(tmp_path):
    from mancala_env.agents.az_search import Searcher

    path = save(make_network(), tmp_path / "n.npz")
    agent = AZAgent(path, simulations=10_000, seed=0)
    agent._searcher = Searcher(agent.network, capacity=50)
    game = Game("oware")
    game.reset(np.random.default_rng(0))
    action = agent.act(game)
    assert game.legal_mask()[action] == 1
    assert agent.last_simulations < 10_000
