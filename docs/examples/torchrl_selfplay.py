"""TorchRL: self-play REINFORCE with one masked policy for both seats, on TorchRL's PettingZoo
wrapper of a mancala rule set (AEC).

`PettingZooWrapper(..., use_mask=True)` turns the turn-based environment into one group per
player, each with its `observation`, its `action_mask` and a `mask` saying whether that player
moved at a step. Both seats share one network (observations are seen from the mover's side), so
every move of a game is a sample: its log-probability weighted by the game's result for the
player who made it (+1, -1 or 0 at the end).

    pip install 'mancala_env[examples]'
    python docs/examples/torchrl_selfplay.py --variant oware --steps 50000
"""

from __future__ import annotations

import argparse

import torch
from tensordict.nn import TensorDictModule, TensorDictSequential
from torch import nn
from torchrl.collectors import Collector
from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.envs.utils import MarlGroupMapType
from torchrl.modules import MaskedCategorical, ProbabilisticActor

import mancala_env

SEATS = ("player_0", "player_1")


def make_env(variant: str, seed: int) -> PettingZooWrapper:
    return PettingZooWrapper(
        env=mancala_env.make(variant),
        use_mask=True,  # turn-based: a `mask` per group says who moved
        categorical_actions=True,
        group_map=MarlGroupMapType.ONE_GROUP_PER_AGENT,
        seed=seed,
    )


class Scorer(nn.Module):
    """One network for both seats (observations are seen from the mover's side): action
    logits from the observation scaled to 0..1 by the observation space's bounds."""

    def __init__(self, high: torch.Tensor, n_actions: int) -> None:
        super().__init__()
        self.register_buffer("high", high.float().clamp(min=1))
        self.net = nn.Sequential(nn.Linear(len(high), 128), nn.Tanh(), nn.Linear(128, n_actions))

    def forward(self, observation: torch.Tensor) -> torch.Tensor:
        return self.net(observation.float() / self.high)


def make_policy(env: PettingZooWrapper, scorer: Scorer) -> TensorDictSequential:
    """Each seat samples from the scorer's logits, masked to its legal actions."""
    actors = []
    for seat in SEATS:
        logits = TensorDictModule(
            scorer, in_keys=[(seat, "observation", "observation")], out_keys=[(seat, "logits")]
        )
        actors.append(
            ProbabilisticActor(
                logits,
                in_keys={"logits": (seat, "logits"), "mask": (seat, "action_mask")},
                out_keys=[(seat, "action")],
                distribution_class=MaskedCategorical,
                spec=env.full_action_spec[seat, "action"],
            )
        )
    return TensorDictSequential(*actors)


def reinforce_loss(batch, scorer: Scorer) -> tuple[torch.Tensor, int]:
    """Minus the mean of log pi(move) * (the mover's result in that game), over the moves of
    the games that ended in `batch`; and how many games that was."""
    trajectories = batch["collector", "traj_ids"]
    ended = trajectories[batch["next", "done"].reshape(-1)].unique()
    terms = []
    for seat in SEATS:
        moved = batch[seat, "mask"].reshape(-1)
        logits = scorer(batch[seat, "observation", "observation"].reshape(len(batch), -1))
        mask = batch[seat, "action_mask"].reshape(len(batch), -1)
        action = batch[seat, "action"].reshape(-1)
        reward = batch["next", seat, "reward"].reshape(-1)
        for game in ended:
            steps = (trajectories == game) & moved
            distribution = MaskedCategorical(logits=logits[steps], mask=mask[steps])
            result = reward[trajectories == game].sum()  # +1, -1 or 0, at the game's end
            terms.append(-distribution.log_prob(action[steps]) * result)
    if not terms:
        return torch.zeros((), requires_grad=True), 0
    return torch.cat(terms).mean(), len(ended)


def train(variant: str = "oware", steps: int = 50_000, seed: int = 0) -> dict[str, float]:
    """About `steps` moves of self-play; return the moves and games seen and the last loss."""
    torch.manual_seed(seed)
    env = make_env(variant, seed)
    high = torch.as_tensor(env.observation_spec[SEATS[0], "observation", "observation"].high)
    n_actions = env.full_action_spec[SEATS[0], "action"].space.n
    scorer = Scorer(high.reshape(-1), n_actions)
    optimiser = torch.optim.Adam(scorer.parameters(), lr=1e-3)
    collector = Collector(
        env,
        make_policy(env, scorer),
        frames_per_batch=min(steps, 1000),
        total_frames=steps,
        auto_register_policy_transforms=True,
    )
    moves = games = 0
    loss = torch.zeros(())
    for batch in collector:
        loss, ended = reinforce_loss(batch, scorer)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        moves, games = moves + batch.numel(), games + ended
    collector.shutdown()
    return {"moves": moves, "games": games, "loss": loss.item()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="oware")
    parser.add_argument("--steps", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(train(args.variant, args.steps, args.seed))


if __name__ == "__main__":
    main()
