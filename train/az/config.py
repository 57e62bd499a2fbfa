"""Settings of a policy-value training run (``mancala train --algo az``): a TOML file per rule
set in `train/configs/az/` that a user can copy and change; keys left out take the defaults of
`AZConfig`."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mancala_env.agents.alphabeta import MAX_DEPTH
from mancala_env.agents.search import AZ_SEARCHES, MAX_CONSIDERED
from mancala_env.inputs import MAX_WORKERS, is_integer, number

from ..config import (
    MAX_COUNT,
    MAX_ENVS,
    MAX_LEARNING_RATE,
    SELF,
    _build,
    _positive_int,
    check_adjudication,
    check_evaluation,
    read_toml,
)

CONFIGS = Path(__file__).parent.parent / "configs" / "az"
DEVICES = ("auto", "cpu", "cuda")
# positions held at once (`buffer`, and a `generation` before it joins them); `checks` holds
# both to what a checkpoint keeps, by the bytes of the rule set's positions
MAX_POSITIONS_HELD = 64 * 1024 * 1024
MAX_FIT_STEPS = 1_000_000  # minibatches a generation: a fit is not stopped by --max-minutes
MAX_BATCH = 65_536  # a minibatch's positions, each one-hot encoded (some kB) for the forward pass
# where the targets come from: an alpha-beta teacher's move values, or the network's own search
TARGETS = ("teacher", "search")
MAX_SELF_PLAY_SIMULATIONS = 10_000  # a move's search in self-play: its tree stays in 131,072 nodes


@dataclass
class AZConfig:
    """Expert iteration: the network plays games against itself and the opponents; a teacher
    (alpha-beta of `teacher_depth` plies, shallower where `teacher_nodes` runs out, with the
    endgame database `endgames` where one is given) values every move of the positions met; the
    network is fitted to those values. With `targets` ``"search"``, self-play with
    search-improved targets instead (AlphaZero's loop): the network moves by its own `search` of
    `simulations` simulations a move, and is fitted to that search's policy at each position it
    searched and to the game's result (the endgame database's, where the game is adjudicated)."""

    # The defaults are the settings of the Oware run behind the shipped network (oware.toml):
    # a rule set's file changes what its rules need, its teacher's depth first.
    positions: int = 1_300_000  # positions labelled in all (the run's budget)
    generation: int = 10_000  # positions labelled between two fits
    games: int = 32  # games played at once by each worker
    workers: int = 2  # processes playing and labelling
    teacher_depth: int = 8
    # positions the teacher may make labelling one position: it deepens 1, 2, ... up to
    # teacher_depth and keeps the deepest it finished (None: teacher_depth at once, no limit)
    teacher_nodes: int | None = None
    endgames: str | None = None  # an endgame database's folder (docs/endgames.md)
    # with `endgames`: the games end at the positions whose result the database knows, as a
    # tournament's do (all, or decisive: wins and losses only); None: they are played out
    adjudication: str | None = None
    opponents: list[str] = field(
        default_factory=lambda: [
            SELF,
            "alphabeta:depth=1",
            "alphabeta:depth=2",
            "alphabeta:depth=3",
            "alphabeta:depth=4",
            "alphabeta:depth=5",
            "alphabeta:depth=6",
        ]
    )
    random_plies: int = 8  # each game opens with 0 to this many random moves
    explore: float = 0.05  # the network's share of random moves after the opening
    temperature: float = 1.0  # seeds: the policy target is softmax(move values / temperature)
    value_scale: float = 8.0  # seeds: the value target is tanh(best move's value / value_scale)
    targets: str = "teacher"  # teacher (the alpha-beta labels above) or search (self-play)
    # with targets "search": gumbel (Gumbel AlphaZero's improved policy, sequential halving over
    # `considered` root moves) or puct (AlphaZero's visit shares, the most visited move played)
    search: str = "gumbel"
    simulations: int = 32  # with targets "search": simulations a move
    considered: int = 16
    buffer: int = 1_500_000  # the newest positions the network is fitted to
    fit_steps: int = 200  # minibatches fitted a generation
    batch_size: int = 512
    learning_rate: float = 1e-3
    final_learning_rate: float | None = 1e-4  # falls linearly to this over `positions` (None: kept)
    weight_decay: float = 0.01
    hidden: list[int] = field(default_factory=lambda: [512, 512, 256])
    eval_every: int = 10  # generations between evaluations (and at the end)
    eval_depths: list[int] = field(default_factory=lambda: [1, 2, 3, 4, 5, 6])
    eval_suite: str | None = None  # an opening suite (its file or rule set); None: the shipped
    eval_games: int = 64  # games against each depth, from both seats
    device: str = "auto"  # where the network is fitted: auto (a GPU when there is one), cpu, cuda

    def __post_init__(self) -> None:
        for name in ("positions", "eval_every"):
            _positive_int(name, getattr(self, name))
        _positive_int("generation", self.generation, high=MAX_POSITIONS_HELD)
        _positive_int("buffer", self.buffer, low=2, high=MAX_POSITIONS_HELD)
        _positive_int("fit_steps", self.fit_steps, high=MAX_FIT_STEPS)
        _positive_int("games", self.games, high=MAX_ENVS)
        _positive_int("workers", self.workers, high=MAX_WORKERS)
        _positive_int("teacher_depth", self.teacher_depth, high=MAX_DEPTH)
        if self.teacher_nodes is not None:
            _positive_int("teacher_nodes", self.teacher_nodes)
        most = min(self.buffer, MAX_BATCH)
        if not is_integer(self.batch_size, numpy=False) or not 2 <= self.batch_size <= most:
            raise ValueError(
                f"batch_size must be an integer from 2 to {most:,} (a minibatch is drawn from "
                f"the buffer's {self.buffer:,} positions; {MAX_BATCH:,} at most), "
                f"got {self.batch_size!r}"
            )
        _positive_int("random_plies", self.random_plies, low=0)
        number(self.explore, "explore", 0, 1)
        number(self.temperature, "temperature", 0, None, low_open=True)
        number(self.value_scale, "value_scale", 0, None, low_open=True)
        number(self.learning_rate, "learning_rate", 0, MAX_LEARNING_RATE, low_open=True)
        # AdamW shrinks a weight by learning rate x weight decay a step: at most all of it
        number(self.weight_decay, "weight_decay", 0, 1)
        if self.final_learning_rate is not None:
            final = self.final_learning_rate
            number(final, "final_learning_rate", 0, MAX_LEARNING_RATE, low_open=True)
        if self.device not in DEVICES:
            raise ValueError(f"device must be one of {', '.join(DEVICES)}, got {self.device!r}")
        if self.targets not in TARGETS:
            raise ValueError(f"targets must be one of {', '.join(TARGETS)}, got {self.targets!r}")
        if self.search not in AZ_SEARCHES:
            raise ValueError(f"search must be one of {', '.join(AZ_SEARCHES)}, got {self.search!r}")
        _positive_int("simulations", self.simulations, high=MAX_SELF_PLAY_SIMULATIONS)
        _positive_int("considered", self.considered, high=MAX_CONSIDERED)
        check_adjudication(self.endgames, self.adjudication)
        if self.eval_suite is not None and not isinstance(self.eval_suite, str):
            raise ValueError(
                f"eval_suite must be a suite file or rule set, got {self.eval_suite!r}"
            )
        if (
            not isinstance(self.opponents, list)
            or not self.opponents
            or not all(isinstance(spec, str) for spec in self.opponents)
        ):
            raise ValueError(f"opponents must be a list of agent specs, got {self.opponents!r}")
        for name, high in (("hidden", MAX_COUNT), ("eval_depths", MAX_DEPTH)):
            values = getattr(self, name)
            if not isinstance(values, list) or not values:
                raise ValueError(f"{name} must be a list of positive integers, got {values!r}")
            for value in values:
                _positive_int(f"each of {name}", value, high=high)
        check_evaluation(self.eval_games, self.eval_depths, "eval_depths")

    def learning_rate_at(self, positions: int) -> float:
        """The learning rate of a fit after `positions` labelled positions."""
        if self.final_learning_rate is None:
            return self.learning_rate
        done = min(positions / self.positions, 1.0)
        return self.learning_rate + done * (self.final_learning_rate - self.learning_rate)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def load_az_config(variant: str, path: str | Path | None = None) -> AZConfig:
    """The settings in `path`, or the rule set's own file in `CONFIGS`, or the defaults."""
    if path is None:
        path = CONFIGS / f"{variant}.toml"
        if not path.exists():
            return AZConfig()
    return _build(AZConfig, read_toml(Path(path)), str(path))
