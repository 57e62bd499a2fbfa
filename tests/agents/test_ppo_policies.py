"""The shipped PPO policies (``ppo:NAME``, `mancala_env.agents.network.POLICIES`): found by a
rule set's name, played as a network without search, known by their file's bytes, within their
size budget, each with the results file that measured it; and a batched-PPO network file played
by its path."""

from __future__ import annotations

import numpy as np
import pytest

from mancala_env import Game
from mancala_env.agents import load_agent
from mancala_env.agents.az import AZAgent
from mancala_env.agents.loader import agent_identity, parse_spec
from mancala_env.agents.network import (
    POLICIES,
    network_identity,
    read_network,
    shipped_policies,
    shipped_policy,
)
from mancala_env.observation import observe

SHIPPED = sorted(path.stem for path in POLICIES.glob("*.npz"))
RESULTS = POLICIES.parents[1] / "benchmarks" / "results"
MAX_TOTAL_BYTES = 10 * 1024 * 1024  # the whole set


def test_some_policy_ships_and_kpo_plays_oware_s():
    assert "oware" in SHIPPED
    assert shipped_policy("kpo") == shipped_policy("oware") == POLICIES / "oware.npz"
    assert "kpo" in shipped_policies() and shipped_policy("nosuch") is None
    assert shipped_policy("oware.npz") is None  # a name, not a file name


@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_policy_plays_its_most_likely_legal_move_by_name(name):
    agent = load_agent(f"ppo:{name}", name, seed=0)
    assert isinstance(agent, AZAgent) and not agent.searches
    network, _ = read_network(POLICIES / f"{name}.npz")
    game, rng = Game(name), np.random.default_rng(0)
    for _ in range(30):
        if game.over:
            break
        logits, _ = network.forward(observe(game.state, game.to_move, game.params)[None])
        legal = game.legal_mask() > 0
        assert agent.act(game) == int(np.argmax(np.where(legal, logits[0], -np.inf)))
        game.step(int(rng.choice(game.legal_actions())))
    assert agent_identity(f"ppo:{name}") == network_identity(POLICIES / f"{name}.npz")


@pytest.mark.parametrize("name", SHIPPED)
def test_each_shipped_policy_has_the_results_file_that_measured_it(name):
    measured = RESULTS / f"batched_ppo_{name}_network.json"
    assert measured.is_file(), f"{name}'s policy ships without {measured.name}"


def test_the_shipped_policies_together_stay_within_10_mb():
    assert sum(path.stat().st_size for path in POLICIES.glob("*.npz")) <= MAX_TOTAL_BYTES


def test_a_network_file_plays_by_its_path_and_an_unknown_name_lists_the_shipped(tmp_path):
    path = tmp_path / "final_model.npz"
    path.write_bytes((POLICIES / "oware.npz").read_bytes())
    assert parse_spec(f"ppo:{path}") == ("ppo", {"network": str(path)})
    assert load_agent(f"ppo:{path}", "oware").act(Game("oware")) in range(6)
    with pytest.raises(ValueError, match=r"no such file \(the shipped policies, ppo:NAME: .*oware"):
        load_agent("ppo:nosuch", "oware")
