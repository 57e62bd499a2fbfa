"""The self-play training loop around MaskablePPO: snapshots into the pool, evaluations
through the tournament code, checkpoints that resume, the best model kept, a progress bar."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from tqdm import tqdm

from mancala_env.agents.tournament import TournamentConfig, run_tournament, wilson
from mancala_env.endgame.adjudicate import Adjudicator
from mancala_env.variants import get_variant
from mancala_env.vec_env import MancalaVecEnv

from .config import TrainConfig
from .files import append_json_line, save_model, write_json
from .pool import OpponentPool


@dataclass
class Evaluation:
    """The learner's score against each baseline at one step, with 95% Wilson intervals."""

    timesteps: int
    model: str
    scores: dict[str, tuple[float, float, float]]  # baseline -> (score, low, high)
    rating: float  # the learner's Bradley-Terry rating in the evaluation gauntlet
    seconds: float | None = None  # the run's training time when it was evaluated, if known

    @property
    def mean_score(self) -> float:
        return sum(s for s, _, _ in self.scores.values()) / len(self.scores)


def evaluate(
    model_path: Path,
    variant: str,
    config: TrainConfig,
    db: Path,
    timesteps: int,
    seed: int,
    workers: int = 1,
    agent: str = "ppo",
    seconds: float | None = None,
    backend: str = "local",
    ray_address: str | None = None,
) -> Evaluation:
    """A gauntlet of the saved model against the evaluation baselines (both seats), its games
    played by `workers` processes; `agent` is the spec's kind that plays the file (``ppo`` a
    MaskablePPO model, ``az`` a network: its most likely legal move either way); `seconds`, the
    run's training time so far, is kept with the scores (a learning curve against time); the
    games are played on `backend` (``ray``: Ray tasks)."""
    learner = f"{agent}:{model_path}"
    tournament = TournamentConfig(
        variant,
        (learner, *config.eval_opponents),
        games_per_pair=config.eval_games,
        format="gauntlet",
        seed=seed,
    )
    result = run_tournament(
        tournament, db=db, backend=backend, workers=workers, ray_address=ray_address,
        bootstrap=200, progress=False,
    )  # fmt: skip
    scores = {}
    for baseline in config.eval_opponents:
        pair = result.ratings.crosstable[learner, baseline]
        score = pair.points / pair.games
        scores[baseline] = (score, *wilson(score, pair.games))
    rating = next(s.rating for s in result.ratings.standings if s.agent == learner)
    return Evaluation(timesteps, str(model_path), scores, rating, seconds)


class SelfPlayCallback(BaseCallback):
    """Everything a run does between PPO updates (see the module docstring)."""

    def __init__(
        self,
        variant: str,
        config: TrainConfig,
        pool: OpponentPool,
        env: MancalaVecEnv,
        out: Path,
        seed: int,
        total: int,
        best_score: float = -1.0,
        max_seconds: float | None = None,
        progress: bool = True,
    ) -> None:
        super().__init__()
        self.variant = variant
        self.config = config
        self.pool = pool
        self.env = env
        self.out = out
        self.seed = seed
        self.total = total
        self.best_score = best_score
        self.max_seconds = max_seconds
        self.progress = progress
        self.evaluations: list[Evaluation] = []
        self._bar: tqdm | None = None
        self._started = 0.0
        self._next: dict[str, int] = {}

    def attach(self, model: MaskablePPO) -> None:
        """Act on `model` outside `learn` (before it starts, after it ends)."""
        self.model = model
        self.num_timesteps = model.num_timesteps

    # ---- the schedule ----------------------------------------------------------------------
    def _due(self, name: str, every: int) -> bool:
        """True once per `every` timesteps (the first time at the next multiple)."""
        steps = self.num_timesteps
        if name not in self._next:
            self._next[name] = (steps // every + 1) * every
        if steps >= self._next[name]:
            self._next[name] = (steps // every + 1) * every
            return True
        return False

    def _on_training_start(self) -> None:
        self._started = time.monotonic()
        self._bar = tqdm(
            total=self.total,
            initial=self.num_timesteps,
            desc=f"training {self.variant}",
            unit="step",
            unit_scale=True,
            disable=not self.progress,
        )
        self._last = self.num_timesteps

    def _on_step(self) -> bool:
        if self._bar is not None:
            self._bar.update(self.num_timesteps - self._last)
        self._last = self.num_timesteps
        if self._due("snapshot", self.config.snapshot_every):
            self.snapshot()
        if self._due("eval", self.config.eval_every):
            self.run_evaluation()
        if self._due("checkpoint", self.config.checkpoint_every):
            self.checkpoint()
        # False stops the run: its wall-clock budget is spent
        return self.max_seconds is None or time.monotonic() - self._started <= self.max_seconds

    def _on_training_end(self) -> None:
        if self._bar is not None:
            self._bar.close()

    # ---- what it does ------------------------------------------------------------------------
    def snapshot(self) -> None:
        """Freeze the learner into the opponent pool."""
        path = self.out / "pool" / f"step_{self.num_timesteps}.zip"
        save_model(self.model, path)
        self.pool.add_snapshot(path)
        self.pool.apply(self.env)

    def run_evaluation(self) -> Evaluation:
        """Evaluate the learner now; keep it as the best model when it scores best so far."""
        path = self.out / "evaluations" / f"step_{self.num_timesteps}.zip"
        save_model(self.model, path)
        result = evaluate(
            path, self.variant, self.config, self.out / "evaluations.sqlite",
            self.num_timesteps, self.seed,
        )  # fmt: skip
        self.evaluations.append(result)
        for baseline, (score, _, _) in result.scores.items():
            self.logger.record(f"eval/score_vs_{baseline}", score)
        self.logger.record("eval/mean_score", result.mean_score)
        self.logger.record("eval/rating", result.rating)
        append_json_line(self.out / "evaluations.jsonl", result.__dict__)
        if result.mean_score > self.best_score:
            self.best_score = result.mean_score
            save_model(self.model, self.out / "best_model.zip")
        if self.progress:
            shown = ", ".join(f"{b} {s:.0%}" for b, (s, _, _) in result.scores.items())
            self._bar.write(f"step {self.num_timesteps:,}: {shown}")
        return result

    def checkpoint(self) -> Path:
        """Save the model and what the run needs to continue (its pool, its best score)."""
        path = self.out / "checkpoints" / f"step_{self.num_timesteps}.zip"
        save_model(self.model, path)
        write_checkpoint_state(self, path, self.num_timesteps)
        return path


def learner_adjudicator(config: TrainConfig, variant: str) -> Adjudicator | None:
    """The adjudicator that ends the learner's games (`TrainConfig.adjudication`: either PPO
    route's), opened before the run writes anything; None when the games are played out.
    DatabaseError (one line) for a folder that holds no database of the rule set's rules."""
    if config.adjudication is None:
        return None
    rules = get_variant(variant)
    return Adjudicator.open(config.endgames, rules, rules.options(), config.adjudication)


def write_checkpoint_state(
    run: Any, checkpoint: Path, timesteps: int, seconds: float | None = None
) -> None:
    """The state a PPO run (either route: `SelfPlayCallback`, the batched trainer's run) writes
    beside its checkpoint `checkpoint` at `timesteps`, and `train.run._resume_state` reads:
    its rule set, step count, best score, pool, settings and seed, and the seconds it has
    trained when the run counts them (a resumed run's evaluations go on counting from there)."""
    state: dict[str, Any] = {
        "variant": run.variant,
        "timesteps": timesteps,
        "best_score": run.best_score,
        "pool": run.pool.state(),
        "config": run.config.to_json(),
        "seed": run.seed,
    }
    if seconds is not None:
        state["seconds"] = round(seconds, 3)
    write_json(checkpoint.with_suffix(".json"), state)
