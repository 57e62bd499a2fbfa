"""The policy-value network in torch, for fitting: its layers are
`mancala_env.agents.network.Network`'s, so a fitted network is written as the numpy file the ``az``
agent plays."""

from __future__ import annotations

import itertools

import numpy as np
import torch
from torch import nn

from mancala_env.agents.network import Network, encode, encoded_size

from .games import Batch


class PolicyValueNet(nn.Module):
    """ReLU layers of `meta['hidden']` widths, a policy head (a logit an action) and a value
    head (tanh)."""

    def __init__(self, meta: dict) -> None:
        super().__init__()
        self.meta = meta
        widths = [encoded_size(np.array(meta["caps"])), *meta["hidden"]]
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in itertools.pairwise(widths))
        self.policy = nn.Linear(widths[-1], meta["n_actions"])
        self.value = nn.Linear(widths[-1], 1)

    def forward(self, inputs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        hidden = inputs
        for layer in self.layers:
            hidden = torch.relu(layer(hidden))
        return self.policy(hidden), torch.tanh(self.value(hidden))[:, 0]

    def network(self) -> Network:
        """The numpy network of these weights."""

        def pair(layer: nn.Linear) -> tuple[np.ndarray, np.ndarray]:
            weight, bias = (p.detach().cpu().numpy() for p in (layer.weight, layer.bias))
            return weight.T.copy(), bias.copy()

        return Network(
            self.meta,
            tuple(pair(layer) for layer in self.layers),
            pair(self.policy),
            pair(self.value),
        )

    def load_network(self, network: Network) -> None:
        """Take the weights of `network` (the inverse of `network()`); its sizes must be these
        layers'."""
        layers = [*self.layers, self.policy, self.value]
        with torch.no_grad():
            for layer, (weight, bias) in zip(
                layers, [*network.layers, network.policy, network.value], strict=True
            ):
                layer.weight.copy_(torch.as_tensor(weight.T, dtype=torch.float32))
                layer.bias.copy_(torch.as_tensor(bias, dtype=torch.float32))


def fit(
    net: PolicyValueNet,
    optimizer: torch.optim.Optimizer,
    data: Batch,
    steps: int,
    batch_size: int,
    rng: np.random.Generator,
) -> tuple[float, float]:
    """`steps` minibatches of `data` drawn at random; the mean policy loss (cross-entropy with
    the teacher's move probabilities) and value loss (squared error) of the last tenth."""
    high = np.asarray(net.meta["observation_high"])
    caps = np.asarray(net.meta["caps"])
    net.train()
    device = next(net.parameters()).device

    def tensor(array: np.ndarray) -> torch.Tensor:
        return torch.from_numpy(array).to(device)

    losses = []
    for _ in range(steps):
        rows = rng.integers(len(data), size=min(batch_size, len(data)))
        inputs = tensor(encode(data.observations[rows], high, caps))
        legal = tensor(data.legal[rows])
        logits, value = net(inputs)
        log_policy = torch.log_softmax(logits.masked_fill(~legal, -1e9), dim=1)
        target = tensor(data.policy[rows])
        policy_loss = -(target * log_policy).sum(dim=1).mean()
        value_loss = torch.mean((value - tensor(data.value[rows])) ** 2)
        optimizer.zero_grad()
        (policy_loss + value_loss).backward()
        optimizer.step()
        losses.append((policy_loss.item(), value_loss.item()))
    tail = np.array(losses[-max(1, steps // 10) :])
    return float(tail[:, 0].mean()), float(tail[:, 1].mean())
