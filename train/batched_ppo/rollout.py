"""The rollout: every game of the batch stepped together, the opponents' moves made inside the
batch (`mancala_env.learner_batch`: random and greedy compiled over all their games, a frozen
snapshot one forward pass for all its games, a search agent game by game), one forward pass of
the learner's policy a step for all the games, and the step's observations, masks, actions,
log-probabilities, values, rewards and ends kept as tensors of shape [T, B]."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import torch
from torchrl.modules import MaskedCategorical

from mancala_env.learner_batch import LearnerBatch

from .policy import ActorCritic, NetworkPolicy


@dataclass
class Rollout:
    """`n_steps` (T) moves of the learner in each of `n_envs` (B) games. ``dones[t, b]``: game
    b ended after move t (its next observation is a new game's); `next_values`: the values of
    the observations after the last move, which the advantages start from."""

    observations: torch.Tensor  # [T, B, the policy's inputs] float32
    masks: torch.Tensor  # [T, B, actions] bool
    actions: torch.Tensor  # [T, B] int64
    log_probs: torch.Tensor  # [T, B]
    values: torch.Tensor  # [T, B]
    rewards: torch.Tensor  # [T, B]: the learner's reward (the batch's `reward` setting)
    dones: torch.Tensor  # [T, B] bool
    next_values: torch.Tensor  # [B]

    @property
    def steps(self) -> int:
        return self.actions.numel()


@dataclass
class Timings:
    """Seconds spent in the engine (the games and the opponents) and in the learner's forward
    passes (and its draws) since the batch was made."""

    engine: float = 0.0
    forward: float = 0.0
    games: dict[str, int] = field(default_factory=lambda: {"won": 0, "drawn": 0, "lost": 0})


class RolloutBatch(LearnerBatch):
    """`n_envs` games of `variant`, the learner in a seat drawn for each game, its opponents
    those of the pool set as `opponent`, its rewards those of `reward` (see
    `mancala_env.learner_batch`)."""

    def __init__(self, variant: str, n_envs: int, seed: int, reward: str = "win_loss") -> None:
        super().__init__(variant, n_envs, seat="random", seed=seed, reward=reward)
        self.timings = Timings()
        self._current = None

    def restart(self, seed: int) -> None:
        """Start a new game in every slot, the batch's draws (and its agents') seeded anew:
        a run does this at its start and at each checkpoint, so that a run resumed from a
        checkpoint plays the same games as the run that went on."""
        began = time.perf_counter()
        self._current = self._start(seed)
        self.timings.engine += time.perf_counter() - began

    def collect(
        self, policy: ActorCritic | NetworkPolicy, n_steps: int, device: torch.device
    ) -> Rollout:
        """`n_steps` moves of `policy` in every game (sampled from its masked categorical)."""
        if self._current is None:
            raise RuntimeError("restart() the batch before collecting")
        shape = (n_steps, self.num_envs)
        rollout = Rollout(
            observations=torch.empty(*shape, policy.input_size, device=device),
            masks=torch.empty(*shape, self.games.n_actions, dtype=torch.bool, device=device),
            actions=torch.empty(shape, dtype=torch.int64, device=device),
            log_probs=torch.empty(shape, device=device),
            values=torch.empty(shape, device=device),
            rewards=torch.empty(shape, device=device),
            dones=torch.empty(shape, dtype=torch.bool, device=device),
            next_values=torch.empty(self.num_envs, device=device),
        )
        timings = self.timings
        with torch.no_grad():
            for t in range(n_steps):
                began = time.perf_counter()
                observations = policy.inputs(self._current, device)
                masks = torch.from_numpy(self.action_masks()).to(device)
                logits, values = policy(observations)
                distribution = MaskedCategorical(logits=logits, mask=masks)
                actions = distribution.sample()
                rollout.observations[t] = observations
                rollout.masks[t] = masks
                rollout.actions[t] = actions
                rollout.log_probs[t] = distribution.log_prob(actions)
                rollout.values[t] = values
                played = actions.cpu().numpy()
                middle = time.perf_counter()
                self._current, rewards, dones, ends = self._advance(played)
                ended = time.perf_counter()
                rollout.rewards[t] = torch.from_numpy(rewards)
                rollout.dones[t] = torch.from_numpy(dones)
                timings.forward += middle - began
                timings.engine += ended - middle
                # the results from the games' winners: a score reward is paid every move
                won, drawn = int((ends.winners == ends.seats).sum()), int((ends.winners < 0).sum())
                timings.games["won"] += won
                timings.games["drawn"] += drawn
                timings.games["lost"] += len(ends.rows) - won - drawn
            began = time.perf_counter()
            rollout.next_values[:] = policy(policy.inputs(self._current, device))[1]
            timings.forward += time.perf_counter() - began
        return rollout
