"""Tianshou: a DQN learner against a random opponent on a mancala rule set (AEC, masked).

Tianshou's `PettingZooEnv` reads the AEC environment's ``{"observation", "action_mask"}``
dicts; `MultiAgentOffPolicyAlgorithm` gives each seat its own algorithm, here a DQN (which
only ever picks legal actions: the mask is applied to its Q-values) and Tianshou's masked
random player.

    pip install 'mancala_env[examples]'
    python docs/examples/tianshou_dqn.py --variant oware --steps 20000
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
import torch
from tianshou.algorithm import (
    DQN,
    MARLRandomDiscreteMaskedOffPolicyAlgorithm,
    MultiAgentOffPolicyAlgorithm,
)
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

import mancala_env


class MancalaEnv(PettingZooEnv):
    """Tianshou's wrapper without the `info` dicts: the environment names the end reason in
    the last step's info only, and Tianshou's buffer wants every step's info alike."""

    def reset(self, *args: Any, **kwargs: Any) -> tuple[dict, dict]:
        observation, _ = super().reset(*args, **kwargs)
        return observation, {}

    def step(self, action: Any) -> tuple[dict, list[int], bool, bool, dict]:
        observation, rewards, terminated, truncated, _ = super().step(action)
        return observation, rewards, terminated, truncated, {}


def make_env(variant: str) -> PettingZooEnv:
    return MancalaEnv(mancala_env.make(variant))


def build(variant: str, learner_seat: int) -> MultiAgentOffPolicyAlgorithm:
    """The learner (DQN) in `learner_seat`, Tianshou's masked random player in the other."""
    env = make_env(variant)
    n_observations = env.observation_space["observation"].shape[0]
    net = Net(state_shape=n_observations, action_shape=env.action_space.n, hidden_sizes=[128, 128])
    policy = DiscreteQLearningPolicy(
        model=net, action_space=env.action_space, eps_training=0.1, eps_inference=0.0
    )
    learner = DQN(
        policy=policy,
        optim=AdamOptimizerFactory(lr=1e-3),
        gamma=0.99,
        n_step_return_horizon=1,
        target_update_freq=200,
    )
    opponent = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
    seats = [learner, opponent] if learner_seat == 0 else [opponent, learner]
    return MultiAgentOffPolicyAlgorithm(algorithms=seats, env=env)


def train(variant: str = "oware", steps: int = 20_000, seed: int = 0) -> dict[str, float]:
    """Train for about `steps` environment steps; return the learner's mean test reward."""
    np.random.seed(seed)
    torch.manual_seed(seed)
    train_envs = DummyVectorEnv([lambda: make_env(variant) for _ in range(4)])
    test_envs = DummyVectorEnv([lambda: make_env(variant) for _ in range(2)])
    train_envs.seed(seed)
    test_envs.seed(seed + 1)
    algorithm = build(variant, learner_seat=0)
    buffer = VectorReplayBuffer(max(steps, 1000), len(train_envs))
    train_collector = Collector[CollectStats](algorithm, train_envs, buffer, exploration_noise=True)
    test_collector = Collector[CollectStats](algorithm, test_envs, exploration_noise=True)
    train_collector.reset()
    train_collector.collect(n_step=min(64 * len(train_envs), steps))  # a first batch to learn from
    epoch_steps = min(steps, 5_000)
    result = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=train_collector,
            test_collector=test_collector,
            max_epochs=max(steps // epoch_steps, 1),
            epoch_num_steps=epoch_steps,
            collection_step_num_env_steps=40,
            test_step_num_episodes=2,
            batch_size=64,
            update_step_num_gradient_steps_per_sample=0.1,
            test_in_training=False,
            show_progress=False,
            multi_agent_return_reduction=lambda returns: returns[:, 0],  # the learner's seat
        )
    )
    return {"env_steps": result.train_step, "test_reward": result.best_reward}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="oware")
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(train(args.variant, args.steps, args.seed))


if __name__ == "__main__":
    main()
