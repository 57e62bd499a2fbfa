"""The opponent pool of self-play: fixed baselines and frozen snapshots of the learner.

Each game of the training batch draws its opponent from the pool when it starts. The learner's
snapshots share `self_share` of the draws equally (the newest `pool_size` are kept), the
baselines the rest; before the first snapshot the baselines get every draw.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mancala_env.agents import load_agent
from mancala_env.agents.ppo import load_maskable_ppo
from mancala_env.opponents import OPPONENTS
from mancala_env.vec_env import MancalaVecEnv, policy_opponent

from .config import SELF


class OpponentPool:
    """The baselines named in `opponents` (agent specs) and, when `opponents` holds "self",
    the learner's snapshots (saved models)."""

    def __init__(
        self,
        variant: str,
        opponents: list[str],
        self_share: float,
        pool_size: int,
        seed: int | None = None,
    ) -> None:
        self.variant = variant
        self.self_play = SELF in opponents
        self.baselines = [spec for spec in opponents if spec != SELF]
        self.self_share = self_share
        self.pool_size = pool_size
        self.snapshots: list[Path] = []
        self._members: dict[str, Any] = {}
        for k, spec in enumerate(self.baselines):
            if spec in OPPONENTS:  # compiled batch opponents
                self._members[spec] = spec
            else:  # an agent: the environment plays it game by game
                base = None if seed is None else seed + k
                self._members[spec] = load_agent(spec, variant, seed=base)

    def add_snapshot(self, path: str | Path) -> None:
        """A frozen copy of the learner joins the pool; the oldest leaves when it is full."""
        if not self.self_play:
            return
        path = Path(path)
        self.snapshots.append(path)
        self._members[str(path)] = self.snapshot_opponent(path)
        while len(self.snapshots) > self.pool_size:
            del self._members[str(self.snapshots.pop(0))]

    def snapshot_opponent(self, path: Path) -> Any:
        """The batch opponent that plays the snapshot saved at `path`: the model, loaded as
        ``ppo:`` agents are (weights only: runs no code), sampling its moves."""
        model, _ = load_maskable_ppo(path, self.variant)
        return policy_opponent(model, deterministic=False)

    def members(self) -> tuple[list[Any], list[float]]:
        """The pool's opponents and the probability of drawing each."""
        names = list(self.baselines)
        weights = [1.0] * len(names)
        if self.snapshots:
            base = (1 - self.self_share) / len(names) if names else 0.0
            weights = [base] * len(names)
            names += [str(p) for p in self.snapshots]
            share = self.self_share if self.baselines else 1.0
            weights += [share / len(self.snapshots)] * len(self.snapshots)
        return [self._members[n] for n in names], weights

    def apply(self, env: MancalaVecEnv) -> None:
        """Make the pool the opponent of `env`'s games."""
        members, weights = self.members()
        env.opponent_weights = None
        env.opponent = members
        env.opponent_weights = weights

    def state(self) -> dict[str, Any]:
        return {"snapshots": [str(p) for p in self.snapshots]}
