"""Any agent is an opponent: the Gymnasium environments and the VecEnv take agent objects, agent
specs (each kind loaded through its entry point) and pools of them."""

import subprocess
import sys

import gymnasium
import numpy as np
import pytest

from mancala_env import Game
from mancala_env.agents import AlphaBetaAgent, MCTSAgent, load_agent
from mancala_env.agents.loader import BUILT_INS
from mancala_env.gym_env import SingleAgentEnv
from mancala_env.opponents import agent_loaders
from mancala_env.vec_env import AgentOpponent, MancalaVecEnv

# Oware after player_0 lifts house 1 (four seeds sown into houses 2 to 5)
AFTER_HOUSE_1 = [0, 5, 5, 5, 5, 4] + [4] * 6


class LowestHouse:
    """Plays the lowest legal action; records the seeds it was reset with."""

    def __init__(self) -> None:
        self.seeds: list[int | None] = []

    def reset(self, seed: int | None = None) -> None:
        self.seeds.append(seed)

    def act(self, game: Game) -> int:
        return min(game.legal_actions())


def play_out(env: SingleAgentEnv, seed: int) -> dict:
    """An episode of random legal agent moves; the last info."""
    _, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    return info


def test_an_agent_object_plays_the_opponent_seat_and_is_reset_from_the_seed():
    agent = LowestHouse()
    env = SingleAgentEnv("oware", opponent=agent, seat=1, first_player="player_0")
    env.reset(seed=5)
    assert env.game.pits.tolist() == AFTER_HOUSE_1  # the opponent opened with house 1
    env.reset(seed=5)
    assert len(agent.seeds) == 2 and agent.seeds[0] == agent.seeds[1] is not None


def test_gymnasium_make_takes_an_agent_spec():
    env = gymnasium.make("mancala_env/Oware-v1", opponent="alphabeta:depth=2", seat=0)
    opponent = env.unwrapped._current
    assert isinstance(opponent, AlphaBetaAgent) and opponent.depth == 2
    info = play_out(env.unwrapped, seed=1)
    assert info["end_reason"] is not None  # a whole game against the search


def test_a_pool_draws_one_opponent_per_game():
    env = SingleAgentEnv("oware", opponent=["random", "mcts:simulations=20"], seat=0)
    drawn = set()
    for seed in range(12):
        env.reset(seed=seed)
        drawn.add(type(env._current).__name__ if not isinstance(env._current, str) else "random")
    assert drawn == {"random", MCTSAgent.__name__}


def test_any_agent_spec_is_an_opponent_with_nothing_imported_but_gymnasium_and_mancala_env():
    code = """
import sys
import gymnasium
import mancala_env
assert "mancala_env.agents" not in sys.modules
env = gymnasium.make("mancala_env/Oware-v1", opponent="alphabeta:depth=1", seat=1)
observation, info = env.reset(seed=0)
done = False
while not done:
    action = env.action_space.sample(mask=info["action_mask"])
    observation, reward, terminated, truncated, info = env.step(action)
    done = terminated or truncated
print(type(env.unwrapped._current).__name__, info["end_reason"] is not None)
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [AlphaBetaAgent.__name__, "True"]


def test_the_entry_points_load_every_kind_of_agent_spec():
    loaders = agent_loaders()
    assert set(loaders) == {*BUILT_INS, "ppo", "az", "python"}
    assert {point.load() for point in loaders.values()} == {load_agent}


@pytest.mark.parametrize("make", [SingleAgentEnv, lambda **kw: MancalaVecEnv(n_envs=2, **kw)])
def test_an_unknown_kind_of_agent_spec_gets_one_line_listing_the_known_kinds(make):
    with pytest.raises(ValueError) as error:
        make(variant="oware", opponent="minimax:depth=3")
    message = str(error.value)
    assert "\n" not in message and message.startswith("unknown opponent 'minimax:depth=3'")
    kinds = "random, greedy, alphabeta, az, human, mcts, perfect, ppo, python"
    assert message.endswith(f"the known kinds are {kinds}")


@pytest.mark.parametrize(
    "opponent, message",
    [
        ("alphabeta:depth=x", "bad agent spec 'alphabeta:depth=x'"),
        (3, "an opponent must be 'random', 'greedy', an agent spec"),
        ([], "an opponent pool needs at least one opponent"),
    ],
)
def test_bad_opponents_are_named(opponent, message):
    with pytest.raises(ValueError, match=message):
        SingleAgentEnv("oware", opponent=opponent)


@pytest.mark.parametrize("spec", ["az:oware", "az:oware,simulations=4"])
def test_the_shipped_network_is_an_opponent_by_its_spec(spec):
    env = gymnasium.make("mancala_env/Oware-v1", opponent=spec)
    info = play_out(env.unwrapped, seed=4)
    assert info["end_reason"] is not None


def test_the_vec_env_plays_an_agent_object_in_every_game():
    env = MancalaVecEnv("oware", 4, opponent=LowestHouse(), seat=1, first_player="player_0")
    env.reset()
    assert isinstance(env._pool[0], AgentOpponent)
    assert env.games.states[:, :12].tolist() == [AFTER_HOUSE_1] * 4


def test_the_vec_env_takes_agent_specs_and_pools_of_them():
    env = MancalaVecEnv("oware", 8, opponent=["greedy", "alphabeta:depth=1"], seat=0, seed=3)
    members = env._pool
    assert members[0] == "greedy" and isinstance(members[1].agent, AlphaBetaAgent)
    env.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(200):
        masks = env.action_masks()
        _, _, dones, _ = env.step((rng.random(masks.shape) * masks).argmax(axis=1))
        ended += int(dones.sum())
    assert ended > 0 and set(env.opponent_of.tolist()) <= {0, 1}
