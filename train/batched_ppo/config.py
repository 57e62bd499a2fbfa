"""Settings of a batched PPO run (``mancala train --algo batched-ppo``): the file of the
MaskablePPO route (`train/config.py`: the budget, the pool, the evaluations and the ``[ppo]``
hyper-parameters, read and checked there) with a ``[batched]`` table of what only this trainer
reads. A rule set's file in `train/configs/batched_ppo/` comes first, else that folder's
``default.toml`` (the recipe of the shipped policies, the same for every rule set)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mancala_env.inputs import MAX_WORKERS, check_reward, number

from ..az.config import DEVICES
from ..config import CONFIGS as PPO_CONFIGS
from ..config import TrainConfig, _build, _positive_int, read_toml, train_config

CONFIGS = PPO_CONFIGS / "batched_ppo"
DEFAULT = CONFIGS / "default.toml"  # for a rule set without a file of its own
TABLE = "batched"  # the table of `BatchedSettings` in a config file
PRECISIONS = ("float32", "bfloat16")
POLICIES = ("network", "mlp")  # see train/batched_ppo/policy.py
MAX_COEFFICIENT = 1000.0  # vf_coef's and max_grad_norm's bound (their defaults are 0.5)


@dataclass(frozen=True)
class BatchedSettings:
    """What the batched trainer reads beyond MaskablePPO's settings. `vf_coef` and
    `max_grad_norm` are MaskablePPO's defaults, which the MaskablePPO route does not change."""

    vf_coef: float = 0.5  # the value loss's weight
    max_grad_norm: float = 0.5  # the gradient's norm is clipped to this
    threads: int = 1  # torch's and numba's threads (one: a second stalls on a shared machine)
    device: str = "cpu"  # where the policy plays and learns: cpu, cuda or auto (a GPU if any)
    eval_workers: int = 1  # processes playing an evaluation's games
    # the update's forward passes: float32, or bfloat16 (torch's autocast: about twice as fast
    # on a processor with bfloat16 instructions; the weights and Adam's moments stay float32)
    precision: str = "float32"
    # what the learner is paid: "win_loss" (+1 / -1 / 0 when a game ends) or "score" (each
    # move's change in its seed difference over the rule set's seeds, the last move's up to
    # the final difference: a game's moves add up to its final difference over the seeds).
    # The evaluations judge by wins either way.
    reward: str = "win_loss"
    # the network: "network" (the suite's policy-value network, each count also seen one-hot,
    # saved as an .npz that az:PATH plays) or "mlp" (MaskablePPO's MlpPolicy, raw counts in
    # tanh layers, saved as a model file that ppo:PATH plays: the like-for-like comparison)
    policy: str = "network"

    def __post_init__(self) -> None:
        number(self.vf_coef, "vf_coef", 0, MAX_COEFFICIENT)
        number(self.max_grad_norm, "max_grad_norm", 0, MAX_COEFFICIENT, low_open=True)
        _positive_int("threads", self.threads, high=MAX_WORKERS)
        _positive_int("eval_workers", self.eval_workers, high=MAX_WORKERS)
        if self.precision not in PRECISIONS:
            raise ValueError(
                f"precision must be one of {', '.join(PRECISIONS)}, got {self.precision!r}"
            )
        check_reward(self.reward)
        if self.policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}, got {self.policy!r}")
        if self.device not in DEVICES:
            raise ValueError(f"device must be one of {', '.join(DEVICES)}, got {self.device!r}")


@dataclass(frozen=True)
class BatchedPPOConfig:
    """A batched PPO run: the MaskablePPO route's settings (`run`) and this trainer's own."""

    run: TrainConfig = field(default_factory=TrainConfig)
    batched: BatchedSettings = field(default_factory=BatchedSettings)

    def to_json(self) -> dict[str, Any]:
        return {**self.run.to_json(), TABLE: dataclasses.asdict(self.batched)}


def load_batched_config(variant: str, path: str | Path | None = None) -> BatchedPPOConfig:
    """The settings in `path`, else in the rule set's file of `CONFIGS`, else in `DEFAULT`;
    ValueError names the file, the key and its range."""
    if path is None:
        own = CONFIGS / f"{variant}.toml"
        path = own if own.exists() else DEFAULT
    values = read_toml(Path(path))
    batched = _build(BatchedSettings, values.pop(TABLE, {}), f"{path} [{TABLE}]")
    return BatchedPPOConfig(train_config(values, str(path)), batched)
