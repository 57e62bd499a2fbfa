"""The policy: stable-baselines3's ``MlpPolicy`` network, built in plain torch so that one
forward pass serves a whole batch, and saved as a MaskablePPO model file that the agent spec
``ppo:PATH`` plays (weights only, `mancala_env.agents.ppo`).

The network is MaskablePPO's default for these settings: the observation as floats, a policy
and a value network of `net_arch` tanh layers each, a linear head on each, the weights
initialised as stable-baselines3 does (orthogonal; gains sqrt(2), 0.01 for the policy's head,
1 for the value's). The MaskablePPO route trains the same network, so the two trainers are
compared like with like.
"""

from __future__ import annotations

import io
import json
import math
import zipfile
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torchrl.modules import MaskedCategorical

from mancala_env.agents.ppo import load_maskable_ppo
from mancala_env.outputs import write_atomically

from ..files import check_finite

# a saved model's members, as stable-baselines3 names them
DATA, WEIGHTS = "data", "policy.pth"


def _tower(inputs: int, widths: list[int], outputs: int, head_gain: float) -> nn.Sequential:
    layers: list[nn.Module] = []
    for width in widths:
        layers += [nn.Linear(inputs, width), nn.Tanh()]
        inputs = width
    layers.append(nn.Linear(inputs, outputs))
    for layer in layers[:-1]:
        if isinstance(layer, nn.Linear):
            nn.init.orthogonal_(layer.weight, math.sqrt(2))
            nn.init.zeros_(layer.bias)
    nn.init.orthogonal_(layers[-1].weight, head_gain)
    nn.init.zeros_(layers[-1].bias)
    return nn.Sequential(*layers)


class ActorCritic(nn.Module):
    """`actor` maps observations to one logit per action, `critic` to the value."""

    def __init__(self, observation_size: int, n_actions: int, net_arch: list[int]) -> None:
        super().__init__()
        self.observation_size, self.n_actions = observation_size, n_actions
        self.net_arch = [int(width) for width in net_arch]
        self.actor = _tower(observation_size, self.net_arch, n_actions, 0.01)
        self.critic = _tower(observation_size, self.net_arch, 1, 1.0)

    def sb3_state_dict(self) -> dict[str, torch.Tensor]:
        """The weights under the names of sb3-contrib's ``MaskableActorCriticPolicy``."""
        renamed = {}
        for tower, body, head in (("actor", "policy_net", "action_net"),
                                  ("critic", "value_net", "value_net")):  # fmt: skip
            last = len(getattr(self, tower)) - 1
            for name, tensor in getattr(self, tower).state_dict().items():
                index, kind = name.split(".")
                where = head if int(index) == last else f"mlp_extractor.{body}.{index}"
                renamed[f"{where}.{kind}"] = tensor.detach().cpu().clone()
        return renamed

    def load_sb3_state_dict(self, weights: dict[str, torch.Tensor]) -> None:
        """Take the weights of a ``MaskableActorCriticPolicy`` of the same sizes."""
        names = dict(zip(self.sb3_state_dict(), self.state_dict(), strict=True))
        self.load_state_dict({names[name]: tensor for name, tensor in weights.items()})

    def model_bytes(self) -> bytes:
        """A MaskablePPO model file's bytes: the plain settings the weights-only load reads
        and the weights. (stable-baselines3's own load, ``trust=yes``, needs what only
        MaskablePPO writes; this file holds weights and sizes alone.)"""
        data = {
            "observation_space": {"_shape": [self.observation_size]},
            "action_space": {"n": self.n_actions},
            "policy_kwargs": {"net_arch": self.net_arch},
        }
        weights = io.BytesIO()
        torch.save(self.sb3_state_dict(), weights)
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(DATA, json.dumps(data))
            archive.writestr(WEIGHTS, weights.getvalue())
        return buffer.getvalue()

    def save(self, path: str | Path) -> Path:
        """Write the policy as a model file (`model_bytes`), whole or not at all; nothing, and
        TrainingDiverged, when its weights are not all finite (a checkpoint's too: it is
        written after its model file)."""
        check_finite(self.parameters(), f"when {Path(path).name} was to be saved")
        write_atomically(path, self.model_bytes())
        return Path(path)


def load_policy(path: str | Path, variant: str, net_arch: list[int]) -> ActorCritic:
    """The policy saved at `path` (as ``ppo:PATH`` reads it: no code from the file runs),
    which must be of `variant`'s sizes and of `net_arch`'s layers (ModelLoadError otherwise)."""
    from mancala_env.agents.ppo import ModelLoadError

    saved, _ = load_maskable_ppo(path, variant)
    policy = ActorCritic(saved.observation_space.shape[0], saved.action_space.n, net_arch)
    try:
        policy.load_sb3_state_dict(saved.state_dict())
    except (RuntimeError, KeyError, ValueError):
        raise ModelLoadError(
            f"the model at {str(path)!r} does not have the layers {net_arch} of this run"
        ) from None
    return policy


def masked_actions(logits: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    """An action per row drawn from the masked categorical of `logits` (only legal actions,
    `masks` True, have probability)."""
    return MaskedCategorical(logits=logits, mask=masks).sample()


class SnapshotOpponent:
    """A frozen policy as a batch opponent: one forward pass for all the games where it is to
    move, a move drawn from its masked categorical in each (as the pool's snapshots play)."""

    def __init__(self, policy: ActorCritic, device: torch.device) -> None:
        self.policy = policy.to(device).eval()
        self.device = device

    def __call__(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            seen = torch.from_numpy(observations).to(self.device, torch.float32)
            logits = self.policy.actor(seen)
            return masked_actions(logits, torch.from_numpy(masks).to(self.device)).cpu().numpy()
