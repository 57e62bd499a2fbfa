"""Training settings: a small TOML file per rule set (`train/configs/<variant>.toml`) that a
user can copy and change; keys left out take the defaults of `TrainConfig`."""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CONFIGS = Path(__file__).parent / "configs"
SELF = "self"  # the opponent name of the learner's frozen snapshots


@dataclass
class PPOSettings:
    """MaskablePPO's hyper-parameters (see sb3-contrib's MaskablePPO for their meaning)."""

    n_steps: int = 128
    batch_size: int = 1024
    n_epochs: int = 4
    learning_rate: float = 3e-4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    net_arch: list[int] = field(default_factory=lambda: [256, 256])


@dataclass
class TrainConfig:
    """A self-play training run: its budget, its opponent pool, its evaluations."""

    timesteps: int = 1_000_000
    n_envs: int = 64
    opponents: list[str] = field(default_factory=lambda: ["random", "greedy", SELF])
    self_share: float = 0.5
    snapshot_every: int = 100_000
    pool_size: int = 10
    eval_every: int = 250_000
    eval_games: int = 40
    eval_opponents: list[str] = field(default_factory=lambda: ["random", "greedy"])
    checkpoint_every: int = 250_000
    ppo: PPOSettings = field(default_factory=PPOSettings)

    def __post_init__(self) -> None:
        for name in ("timesteps", "n_envs", "snapshot_every", "pool_size", "eval_every",
                     "checkpoint_every"):  # fmt: skip
            _positive_int(name, getattr(self, name))
        _positive_int("eval_games", self.eval_games)
        if self.eval_games % 2:
            raise ValueError(f"eval_games must be even (both seats), got {self.eval_games}")
        if not 0 <= self.self_share <= 1:
            raise ValueError(f"self_share must be between 0 and 1, got {self.self_share}")
        if not self.opponents:
            raise ValueError("opponents must name at least one opponent")
        if self.opponents == [SELF] and self.self_share < 1:
            raise ValueError("with only 'self' among the opponents, self_share must be 1")

    @property
    def rollout(self) -> int:
        """Learner moves per rollout: MaskablePPO collects `ppo.n_steps` in each of the games."""
        return self.ppo.n_steps * self.n_envs

    def planned_timesteps(self, done: int = 0) -> int:
        """Where a run that has made `done` steps stops: MaskablePPO learns in whole rollouts, so
        `timesteps` is rounded up to the next whole rollout after `done`."""
        rollouts = -(-(self.timesteps - done) // self.rollout)
        return done + max(rollouts, 0) * self.rollout

    def rounding_note(self, done: int = 0) -> str | None:
        """One line saying that the budget is rounded up to whole rollouts, None when it is not."""
        planned = self.planned_timesteps(done)
        if planned == self.timesteps:
            return None
        return (
            f"the budget of {self.timesteps:,} timesteps becomes {planned:,}: training runs in "
            f"whole rollouts of {self.rollout:,} steps ({self.n_envs} games x n_steps "
            f"{self.ppo.n_steps})"
        )

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _positive_int(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")


def _build(cls: type, values: dict[str, Any], where: str) -> Any:
    known = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(values) - known)
    if unknown:
        raise ValueError(
            f"unknown setting(s) {', '.join(unknown)} in {where}; known: {', '.join(sorted(known))}"
        )
    return cls(**values)


def load_config(variant: str, path: str | Path | None = None) -> TrainConfig:
    """The settings in `path`, or the rule set's own file, or the defaults."""
    if path is None:
        path = CONFIGS / f"{variant}.toml"
        if not path.exists():
            return TrainConfig()
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # Python 3.10: the train extra brings tomli (imported here, not by `mancala --help`)
        import tomli as tomllib
    path = Path(path)
    try:
        values = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise ValueError(f"no training config at {path}") from None
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{path} is not valid TOML: {error}") from None
    ppo = _build(PPOSettings, values.pop("ppo", {}), f"{path} [ppo]")
    return _build(TrainConfig, {**values, "ppo": ppo}, str(path))
