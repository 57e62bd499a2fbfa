"""The targets and the loss, from TorchRL: the advantages by generalized advantage estimation
(`torchrl.objectives.value.functional.generalized_advantage_estimate`) and PPO's clipped
objective with its value and entropy terms (`torchrl.objectives.ClipPPOLoss`) over the policy's
masked categorical (`torchrl.modules.MaskedCategorical`), set as MaskablePPO sets them: the
advantages normalised in each minibatch, the value fitted by squared error, no value clipping.
"""

from __future__ import annotations

import torch
from tensordict.nn import TensorDictModule
from torchrl.modules import MaskedCategorical, ProbabilisticActor, ValueOperator
from torchrl.objectives import ClipPPOLoss
from torchrl.objectives.value.functional import generalized_advantage_estimate

from ..config import PPOSettings
from .config import BatchedSettings
from .policy import ActorCritic, NetworkPolicy
from .rollout import Rollout

# the keys of a minibatch (a TensorDict), as ClipPPOLoss reads them
OBSERVATION, MASK, LOGITS = "observation", "mask", "logits"


def advantages(rollout: Rollout, gamma: float, gae_lambda: float) -> tuple[torch.Tensor, ...]:
    """The advantage and the value target of every move of `rollout` ([T, B] each): a game that
    ended after a move adds no value of the position after it, and the last move of each game
    starts from the value of the observation after it (its game goes on)."""
    values = rollout.values.unsqueeze(-1)
    following = torch.cat([rollout.values[1:], rollout.next_values.unsqueeze(0)]).unsqueeze(-1)
    dones = rollout.dones.unsqueeze(-1)
    advantage, target = generalized_advantage_estimate(
        gamma,
        gae_lambda,
        values,
        following,
        rollout.rewards.unsqueeze(-1),
        done=dones,
        terminated=dones,
        time_dim=0,
    )
    return advantage.squeeze(-1), target.squeeze(-1)


def ppo_loss(
    policy: ActorCritic | NetworkPolicy, ppo: PPOSettings, batched: BatchedSettings
) -> ClipPPOLoss:
    """TorchRL's clipped PPO loss of `policy`: minibatches of ``observation``, ``mask``,
    ``action``, ``action_log_prob``, ``advantage``, ``value_target`` and ``state_value``."""
    actor = ProbabilisticActor(
        TensorDictModule(policy.actor, in_keys=[OBSERVATION], out_keys=[LOGITS]),
        in_keys={"logits": LOGITS, "mask": MASK},
        distribution_class=MaskedCategorical,
        return_log_prob=True,
    )
    critic = ValueOperator(policy.critic, in_keys=[OBSERVATION])
    return ClipPPOLoss(
        actor,
        critic,
        clip_epsilon=ppo.clip_range,
        entropy_coeff=ppo.ent_coef,
        critic_coeff=batched.vf_coef,
        loss_critic_type="l2",
        normalize_advantage=True,
    )
