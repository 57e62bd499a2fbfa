"""Training settings: a small TOML file per rule set (`train/configs/<variant>.toml`) that a
user can copy and change; keys left out take the defaults of `TrainConfig`."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mancala_env.agents.loader import SpecError, runs_code
from mancala_env.agents.tournament import MAX_GAMES
from mancala_env.endgame.adjudicate import check_mode
from mancala_env.inputs import integer, is_integer, number
from mancala_env.readers import parse_toml, read_bytes

CONFIGS = Path(__file__).parent / "configs"
SELF = "self"  # the opponent name of the learner's frozen snapshots
MAX_ENVS = 1_000_000  # games stepped together: more could only exhaust the machine
MAX_COUNT = 2**53  # a budget or count kept exact as a float (a learning rate's schedule)
# the policy's size: what a training machine holds (the az networks' file cap is the same)
MAX_LAYERS = 64
MAX_WIDTH = 65_536
MAX_WEIGHTS = 64 * 1024 * 1024
# what a run's memory holds: a rollout keeps each move's observation and mask (4 Mi moves: some
# GB), the pool a loaded model a snapshot (and a checkpoint names each, `run.MAX_SNAPSHOTS`)
MAX_ROLLOUT = 4 * 1024 * 1024
MAX_POOL = 1_000
MAX_EPOCHS = 1_000  # passes over a rollout: each is a whole rollout's minibatches
# a learning rate's bound: Adam's steps are of its size, and with a weight decay of at most 1
# AdamW's decay never turns a weight past 0
MAX_LEARNING_RATE = 1.0


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

    def __post_init__(self) -> None:
        _positive_int("n_steps", self.n_steps, high=MAX_ROLLOUT)
        # a minibatch of one has no spread; one is cut from a rollout (`TrainConfig` checks it)
        _positive_int("batch_size", self.batch_size, low=2, high=MAX_ROLLOUT)
        _positive_int("n_epochs", self.n_epochs, high=MAX_EPOCHS)
        number(self.learning_rate, "learning_rate", 0, MAX_LEARNING_RATE, low_open=True)
        number(self.gamma, "gamma", 0, 1)
        number(self.gae_lambda, "gae_lambda", 0, 1)
        number(self.clip_range, "clip_range", 0, 1, low_open=True)  # the ratio's clip, 1 +- it
        number(self.ent_coef, "ent_coef", 0, 1)
        if not isinstance(self.net_arch, list) or not all(
            is_integer(width, numpy=False) and width >= 1 for width in self.net_arch
        ):
            raise ValueError(
                f"net_arch must be a list of layer widths (integers of 1 or more), "
                f"got {self.net_arch!r}"
            )
        between = sum(a * b for a, b in zip(self.net_arch[:-1], self.net_arch[1:], strict=True))
        if len(self.net_arch) > MAX_LAYERS or max(self.net_arch, default=0) > MAX_WIDTH:
            raise ValueError(
                f"net_arch must have at most {MAX_LAYERS} layers of at most {MAX_WIDTH:,} "
                f"units, got {self.net_arch!r}"
            )
        if between > MAX_WEIGHTS:
            raise ValueError(
                f"net_arch {self.net_arch!r} makes {between:,} weights between its layers; at "
                f"most {MAX_WEIGHTS:,} (256 MiB of float32): ask for narrower or fewer layers"
            )


def check_adjudication(endgames: Any, adjudication: Any) -> None:
    """ValueError unless `endgames` is a folder's path or None and `adjudication` a mode of
    `mancala_env.endgame.adjudicate` (needing `endgames`) or None."""
    if endgames is not None and not isinstance(endgames, str):
        raise ValueError(f"endgames must be a folder's path, got {endgames!r}")
    if adjudication is not None:
        try:
            check_mode(adjudication)
        except ValueError as error:
            raise ValueError(f"adjudication: {error}") from None
        if endgames is None:
            raise ValueError("adjudication needs endgames, the endgame database's folder")


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
    endgames: str | None = None  # an endgame database's folder (docs/endgames.md)
    # with `endgames`: the learner's games end at the positions whose result the database
    # knows (all, or decisive: wins and losses only), as a tournament's do; None: played out
    adjudication: str | None = None

    def __post_init__(self) -> None:
        for name in ("timesteps", "snapshot_every", "eval_every", "checkpoint_every"):
            _positive_int(name, getattr(self, name))
        _positive_int("pool_size", self.pool_size, high=MAX_POOL)
        _positive_int("n_envs", self.n_envs, high=MAX_ENVS)
        number(self.self_share, "self_share", 0, 1)
        for name in ("opponents", "eval_opponents"):
            specs = getattr(self, name)
            if not isinstance(specs, list) or not all(isinstance(s, str) for s in specs):
                raise ValueError(f"{name} must be a list of agent specs (texts), got {specs!r}")
        if not self.opponents:
            raise ValueError("opponents must name at least one opponent")
        if not self.eval_opponents or SELF in self.eval_opponents:
            raise ValueError(
                "eval_opponents must name 1 or more different baselines (agent specs, not "
                f"'{SELF}'), got {self.eval_opponents!r}"
            )
        check_evaluation(self.eval_games, self.eval_opponents, "eval_opponents")
        check_adjudication(self.endgames, self.adjudication)
        if not isinstance(self.ppo, PPOSettings):
            raise ValueError(
                f"ppo must be MaskablePPO's settings (a [ppo] table), got {self.ppo!r}"
            )
        if not 2 <= self.rollout <= MAX_ROLLOUT:
            raise ValueError(
                f"a rollout must hold from 2 to {MAX_ROLLOUT:,} moves: n_envs {self.n_envs} x "
                f"n_steps {self.ppo.n_steps} is {self.rollout:,}"
            )
        if self.ppo.batch_size > self.rollout:
            raise ValueError(
                f"[ppo] batch_size {self.ppo.batch_size} is more than a rollout's "
                f"{self.rollout:,} moves (n_envs {self.n_envs} x n_steps {self.ppo.n_steps}), "
                f"which its minibatches are cut from: ask for at most {self.rollout:,}, or more "
                "games"
            )
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


def _positive_int(name: str, value: Any, low: int = 1, high: int = MAX_COUNT) -> None:
    """A count setting: a Python integer (the config is written to JSON as given)."""
    integer(value, name, low, high, numpy=False)


def check_evaluation(games: Any, baselines: list[Any], name: str) -> None:
    """An evaluation's gauntlet as the tournament will play it, checked before the run writes a
    file: the baselines (the setting `name`) differ, and `eval_games` against each is even and
    keeps the evaluation within a tournament's `MAX_GAMES`."""
    twice = sorted({str(b) for b in baselines if baselines.count(b) > 1})
    if twice:
        raise ValueError(f"{name} must differ; given more than once: {', '.join(twice)}")
    high = MAX_GAMES // max(len(baselines), 1)
    if not is_integer(games, numpy=False) or not 2 <= games <= high:
        raise ValueError(
            f"eval_games must be an integer from 2 to {high:,} (an evaluation plays at most "
            f"{MAX_GAMES:,} games, against {len(baselines)} of {name}), got {games!r}"
        )
    if games % 2:
        raise ValueError(f"eval_games must be even (both seats), got {games}")


def _build(cls: type, values: Any, where: str) -> Any:
    if not isinstance(values, dict):
        raise ValueError(f"{where} must be a table of settings, got {values!r}")
    known = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(values) - known)
    if unknown:
        raise ValueError(
            f"unknown setting(s) {', '.join(unknown)} in {where}; known: {', '.join(sorted(known))}"
        )
    try:
        return cls(**values)
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None


MAX_CONFIG_BYTES = 1024 * 1024  # a config is some hundred bytes


# The settings that name agents, in any recipe's config file.
AGENT_SETTINGS = ("opponents", "eval_opponents")


def read_toml(path: Path) -> dict[str, Any]:
    """The settings of a config file; ValueError for a missing file, a file larger than a
    config, bad TOML, or an agent that would run code from outside the package (a file is
    data: a config shared with a paper must not run anything)."""
    if not path.exists():
        raise ValueError(f"no training config at {path}")
    values = parse_toml(read_bytes(path, MAX_CONFIG_BYTES), path)
    for name in AGENT_SETTINGS:
        specs = values.get(name)
        for spec in specs if isinstance(specs, list) else []:
            try:
                code = isinstance(spec, str) and runs_code(spec)
            except SpecError:
                continue  # a bad spec is named by the settings' own checks
            if code:
                raise ValueError(
                    f"{path}: {name} names {spec!r}, which runs code from outside the package "
                    "(python: agents, ppo:PATH,trust=yes); a config file may name only agents "
                    "that load as data: build such a run in Python (mancala_env.train.run.train)"
                )
    return values


def load_config(variant: str, path: str | Path | None = None) -> TrainConfig:
    """The settings in `path`, or the rule set's own file, or the defaults."""
    if path is None:
        path = CONFIGS / f"{variant}.toml"
        if not path.exists():
            return TrainConfig()
    return train_config(read_toml(Path(path)), str(path))


def train_config(values: dict[str, Any], where: str) -> TrainConfig:
    """The `TrainConfig` of a config file's settings (its ``[ppo]`` table among them), read
    from `where`; `values` loses that table."""
    ppo = _build(PPOSettings, values.pop("ppo", {}), f"{where} [ppo]")
    return _build(TrainConfig, {**values, "ppo": ppo}, where)
