"""The policy, one of two networks (the ``[batched]`` setting ``policy``), each in plain torch
so that one forward pass serves a whole batch:

- ``mlp``, `ActorCritic`: stable-baselines3's ``MlpPolicy``, saved as a MaskablePPO model file
  that the agent spec ``ppo:PATH`` plays (weights only, `mancala_env.agents.ppo`). It is
  MaskablePPO's default network for these settings: the observation as floats, a policy and a
  value network of `net_arch` tanh layers each, a linear head on each, the weights initialised
  as stable-baselines3 does (orthogonal; gains sqrt(2), 0.01 for the policy's head, 1 for the
  value's). The MaskablePPO route trains the same network, so the two trainers are compared
  like with like.
- ``network``, `NetworkPolicy`: the suite's policy-value network (`mancala_env.agents.network`,
  which ``--algo az`` fits too): each seed count also seen one-hot, `net_arch` ReLU layers
  shared by a policy and a value head, saved as the ``.npz`` network file that ``az:PATH``
  plays (its most likely legal move; with ``simulations``, its tree search). Seen one-hot, the
  counts say which sowings reach which pits, which raw counts in tanh layers hide.

Both have `inputs` (the network's inputs from the batch's observations), `forward` (logits and
values), `actor` and `critic` (modules: TorchRL's loss takes each), `save`, and the file
`suffix` and `agent` spec prefix of what they save.
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

from mancala_env import Game
from mancala_env.agents.network import (
    NetworkError,
    encode,
    encoded_size,
    network_meta,
    read_network,
)
from mancala_env.agents.ppo import ModelLoadError, load_maskable_ppo
from mancala_env.observation import observation_high
from mancala_env.outputs import write_atomically

from ..az.model import PolicyValueNet
from ..files import check_finite

# a saved model's members, as stable-baselines3 names them
DATA, WEIGHTS = "data", "policy.pth"


def _initialise(hidden: list[nn.Linear], head: nn.Linear, head_gain: float) -> None:
    """stable-baselines3's initialisation: orthogonal weights (gain sqrt(2) in the hidden
    layers, `head_gain` in the head), zero biases."""
    for layer, gain in [*((layer, math.sqrt(2)) for layer in hidden), (head, head_gain)]:
        nn.init.orthogonal_(layer.weight, gain)
        nn.init.zeros_(layer.bias)


def _tower(inputs: int, widths: list[int], outputs: int, head_gain: float) -> nn.Sequential:
    layers: list[nn.Module] = []
    for width in widths:
        layers += [nn.Linear(inputs, width), nn.Tanh()]
        inputs = width
    layers.append(nn.Linear(inputs, outputs))
    linear = [layer for layer in layers if isinstance(layer, nn.Linear)]
    _initialise(linear[:-1], linear[-1], head_gain)
    return nn.Sequential(*layers)


class ActorCritic(nn.Module):
    """The ``mlp`` policy: `actor` maps observations to one logit per action, `critic` to the
    value."""

    suffix, agent = ".zip", "ppo"

    def __init__(self, observation_size: int, n_actions: int, net_arch: list[int]) -> None:
        super().__init__()
        self.observation_size, self.n_actions = observation_size, n_actions
        self.input_size = observation_size
        self.net_arch = [int(width) for width in net_arch]
        self.actor = _tower(observation_size, self.net_arch, n_actions, 0.01)
        self.critic = _tower(observation_size, self.net_arch, 1, 1.0)

    def inputs(self, observations: np.ndarray, device: torch.device) -> torch.Tensor:
        """The observations as floats, as MaskablePPO's ``MlpPolicy`` reads them."""
        return torch.from_numpy(observations).to(device, torch.float32)

    def forward(self, inputs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The logits ([N, actions]) and the values ([N]) of `inputs`."""
        return self.actor(inputs), self.critic(inputs)[:, 0]

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


class _Head(nn.Module):
    """One output of a `PolicyValueNet` as a module of its own (the logits, or the value as
    [N, 1]), for TorchRL's loss, which takes the actor and the critic as modules; the two
    heads share the network's layers and their parameters."""

    def __init__(self, net: PolicyValueNet, value: bool) -> None:
        super().__init__()
        self.net, self.value = net, value

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        logits, value = self.net(inputs)
        return value.unsqueeze(-1) if self.value else logits


class NetworkPolicy(nn.Module):
    """The ``network`` policy: a `PolicyValueNet` of `net_arch`'s widths for `variant`,
    initialised as `ActorCritic` is (a near-uniform policy to start from)."""

    suffix, agent = ".npz", "az"

    def __init__(self, variant: str, net_arch: list[int]) -> None:
        super().__init__()
        self.net_arch = [int(width) for width in net_arch]
        self.net = PolicyValueNet(network_meta(Game(variant), self.net_arch))
        self.high = np.asarray(self.net.meta["observation_high"], dtype=np.int64)
        self.caps = np.asarray(self.net.meta["caps"], dtype=np.int64)
        self.input_size = encoded_size(self.caps)
        # the heads are kept out of the module's children: the network's weights are its own
        self._heads = (_Head(self.net, value=False), _Head(self.net, value=True))
        _initialise(list(self.net.layers), self.net.policy, 0.01)
        _initialise([], self.net.value, 1.0)

    @property
    def actor(self) -> nn.Module:
        return self._heads[0]

    @property
    def critic(self) -> nn.Module:
        return self._heads[1]

    def inputs(self, observations: np.ndarray, device: torch.device) -> torch.Tensor:
        """The network's inputs (`mancala_env.agents.network.encode`) of the observations."""
        return torch.from_numpy(encode(observations, self.high, self.caps)).to(device)

    def forward(self, inputs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The logits ([N, actions]) and the values ([N]) of `inputs`, in one pass."""
        return self.net(inputs)

    def save(self, path: str | Path) -> Path:
        """Write the network file (float32), whole or not at all; nothing, and
        TrainingDiverged, when its weights are not all finite."""
        check_finite(self.parameters(), f"when {Path(path).name} was to be saved")
        write_atomically(path, self.net.network().to_bytes())
        return Path(path)


KINDS = {"network": NetworkPolicy, "mlp": ActorCritic}  # the setting `policy`'s values


def new_policy(kind: str, variant: str, net_arch: list[int]) -> ActorCritic | NetworkPolicy:
    """A new policy of `kind` (one of `KINDS`) for `variant`, of `net_arch`'s widths."""
    if kind == "network":
        return NetworkPolicy(variant, net_arch)
    game = Game(variant)
    return ActorCritic(len(observation_high(game.params)), game.n_actions, net_arch)


def load_policy(
    kind: str, path: str | Path, variant: str, net_arch: list[int]
) -> ActorCritic | NetworkPolicy:
    """The policy of `kind` saved at `path` (as ``ppo:PATH`` or ``az:PATH`` reads it: no code
    from the file runs), which must be of `variant`'s sizes and of `net_arch`'s layers
    (ModelLoadError otherwise)."""
    policy = new_policy(kind, variant, net_arch)
    try:
        if kind == "network":
            network, _ = read_network(path)
            network.check_game(Game(variant), str(path))
            policy.net.load_network(network)
        else:
            saved, _ = load_maskable_ppo(path, variant)
            policy.load_sb3_state_dict(saved.state_dict())
    except (ModelLoadError, NetworkError) as error:
        raise ModelLoadError(str(error)) from None
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

    def __init__(self, policy: ActorCritic | NetworkPolicy, device: torch.device) -> None:
        self.policy = policy.to(device).eval()
        self.device = device

    def __call__(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            logits = self.policy.actor(self.policy.inputs(observations, self.device))
            return masked_actions(logits, torch.from_numpy(masks).to(self.device)).cpu().numpy()
