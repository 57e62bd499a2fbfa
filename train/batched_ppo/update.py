"""The update: `n_epochs` passes over the rollout in shuffled minibatches of `batch_size`
moves (the last one of a pass shorter when they do not divide the rollout), each a step of
Adam on TorchRL's PPO loss with the gradient's norm clipped, as MaskablePPO updates (the
loss's forward passes in bfloat16 when `precision` asks for it)."""

from __future__ import annotations

from dataclasses import dataclass

import torch
from tensordict import TensorDict
from torchrl.objectives import ClipPPOLoss

from ..config import PPOSettings
from .config import BatchedSettings
from .loss import MASK, OBSERVATION, advantages
from .rollout import Rollout


@dataclass
class UpdateReport:
    """The last minibatch's losses and the mean entropy over the update."""

    policy_loss: float
    value_loss: float
    entropy: float


def new_optimizer(loss: ClipPPOLoss, learning_rate: float) -> torch.optim.Adam:
    """Adam over the loss's parameters (the policy's), with stable-baselines3's epsilon."""
    return torch.optim.Adam(loss.parameters(), lr=learning_rate, eps=1e-5)


def flat_batch(rollout: Rollout, ppo: PPOSettings) -> TensorDict:
    """The rollout's moves as one TensorDict of T x B rows, with their advantages."""
    advantage, target = advantages(rollout, ppo.gamma, ppo.gae_lambda)
    rows = rollout.steps
    return TensorDict(
        {
            OBSERVATION: rollout.observations.reshape(rows, -1),
            MASK: rollout.masks.reshape(rows, -1),
            "action": rollout.actions.reshape(rows),
            "action_log_prob": rollout.log_probs.reshape(rows),
            "state_value": rollout.values.reshape(rows, 1),
            "advantage": advantage.reshape(rows, 1),
            "value_target": target.reshape(rows, 1),
        },
        batch_size=[rows],
        device=rollout.actions.device,
    )


def update(
    loss: ClipPPOLoss,
    optimizer: torch.optim.Optimizer,
    rollout: Rollout,
    ppo: PPOSettings,
    batched: BatchedSettings,
) -> UpdateReport:
    """Fit the policy to `rollout` (see the module docstring); the minibatches are drawn from
    torch's generator."""
    data = flat_batch(rollout, ppo)
    rows = len(data)
    parameters = list(loss.parameters())
    entropy, count = 0.0, 0
    autocast = torch.autocast(
        data.device.type, dtype=torch.bfloat16, enabled=batched.precision == "bfloat16"
    )
    for _ in range(ppo.n_epochs):
        order = torch.randperm(rows, device=data.device)
        for start in range(0, rows, ppo.batch_size):
            with autocast:
                terms = loss(data[order[start : start + ppo.batch_size]])
            total = terms["loss_objective"] + terms["loss_critic"] + terms["loss_entropy"]
            optimizer.zero_grad(set_to_none=True)
            total.backward()
            torch.nn.utils.clip_grad_norm_(parameters, batched.max_grad_norm)
            optimizer.step()
            entropy += terms["entropy"].item()
            count += 1
    return UpdateReport(
        terms["loss_objective"].item(), terms["loss_critic"].item(), entropy / count
    )
