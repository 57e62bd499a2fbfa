"""The self-play pool (`train/pool.py`'s: fixed baselines and frozen snapshots of the learner),
its snapshots played by this trainer's own policy: one forward pass for all their games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch

from ..pool import OpponentPool
from .policy import SnapshotOpponent, load_policy


class PolicyPool(OpponentPool):
    """An `OpponentPool` whose snapshots are policies of `kind` and of `net_arch`'s layers,
    played on `device`."""

    def __init__(
        self,
        variant: str,
        opponents: list[str],
        self_share: float,
        pool_size: int,
        seed: int,
        kind: str,
        net_arch: list[int],
        device: torch.device,
    ) -> None:
        super().__init__(variant, opponents, self_share, pool_size, seed)
        self.kind, self.net_arch = kind, net_arch
        self.device = device

    def snapshot_opponent(self, path: Path) -> Any:
        policy = load_policy(self.kind, path, self.variant, self.net_arch)
        return SnapshotOpponent(policy, self.device)
