"""`train_batched_ppo(...)`: one batched PPO self-play run (``mancala train VARIANT --algo
batched-ppo``), or its continuation.

Each round collects a rollout (`rollout`: `n_steps` moves in each of the `n_envs` games) and
fits the policy to it (`update`). Every `snapshot_every` steps a frozen copy joins the opponent
pool, every `eval_every` steps the policy plays a gauntlet against `eval_opponents` through the
tournament code, every `checkpoint_every` steps a checkpoint is written; the games then start
afresh from seeds of the run's seed and step count, which is what a run resumed from that
checkpoint does, so that it goes on as the run that was not stopped did.

A run's folder is the MaskablePPO route's (`train/run.py`), every model a file of the
policy's kind (`policy`: EXT is ``npz``, a network that ``az:PATH`` plays, or ``zip``, a
MaskablePPO model file that ``ppo:PATH`` plays)::

    checkpoints/step_N.EXT    the policy at step N: resume with --resume step_N.EXT
    checkpoints/step_N.json   the run's state then (steps, pool, best score, settings)
    checkpoints/step_N.pt     the policy's and Adam's tensors (read with weights_only=True)
    pool/step_N.EXT           the snapshots
    evaluations/step_N.EXT    the evaluated policies; evaluations.jsonl, evaluations.sqlite
    final_model.EXT, best_model.EXT, run.json (with where the time went)
"""

from __future__ import annotations

import copy
import io
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numba
import torch
from tqdm import tqdm

from mancala_env.agents.ppo import ModelLoadError
from mancala_env.agents.tournament.backends import check_backend
from mancala_env.inputs import derived_seed
from mancala_env.outputs import write_atomically
from mancala_env.readers import read_bytes
from mancala_env.variants import get_variant

from ..az.run import TimeBudget, fitting_device
from ..checks import check_opponents
from ..files import append_json_line, claim_folder, write_json
from ..run import (
    RUN_FILES,
    NothingToDo,
    TrainingInterrupted,
    TrainResult,
    _resume_state,
    newest_checkpoint,
)
from ..selfplay import Evaluation, evaluate, learner_adjudicator, write_checkpoint_state
from .config import TABLE, BatchedPPOConfig, BatchedSettings
from .loss import ppo_loss
from .policy import KINDS, new_policy
from .pool import PolicyPool
from .rollout import RolloutBatch
from .update import new_optimizer, update

MAX_TENSOR_BYTES = 1024 * 1024 * 1024  # a checkpoint's tensors: the policy and Adam's moments


# what a resume keeps
LEARNING_SETTINGS = ("vf_coef", "max_grad_norm", "precision", "reward", "policy")


def _learning_settings(
    checkpoint: Path, state: dict[str, Any], given: BatchedSettings
) -> BatchedSettings:
    """The `[batched]` settings a resumed run goes on with: those that shape what it learns
    (`LEARNING_SETTINGS`) as its checkpoint holds them, so it goes on as the run that was not
    stopped; the machine's (threads, device, eval_workers) as given now."""
    try:
        saved = state["config"][TABLE]
        kept = {name: saved[name] for name in LEARNING_SETTINGS}
        return replace(given, **kept)
    except (KeyError, TypeError, ValueError) as error:
        raise ModelLoadError(
            f"{checkpoint.with_suffix('.json')} is not a checkpoint's state: its [{TABLE}] "
            f"settings: {error}"
        ) from None


def crossed(before: int, after: int, every: int) -> bool:
    """Whether a multiple of `every` lies in (before, after]: a round that passes one does what
    is due every `every` steps."""
    return after // every > before // every


class _Run:
    """The state of a run between rounds: its policy, loss, optimiser, pool and games."""

    def __init__(
        self,
        variant: str,
        config: BatchedPPOConfig,
        out: Path,
        seed: int,
        device: torch.device,
        where: dict[str, Any] | None = None,
    ) -> None:
        self.variant, self.config, self.out, self.seed, self.device = (
            variant, config, out, seed, device,
        )  # fmt: skip
        self.where = where or {}  # the evaluations' backend and Ray cluster
        run, ppo, kind = config.run, config.run.ppo, config.batched.policy
        self.batch = RolloutBatch(variant, run.n_envs, seed, config.batched.reward)
        torch.manual_seed(seed)
        self.policy = new_policy(kind, variant, ppo.net_arch).to(device)
        self.suffix = self.policy.suffix
        self.loss = ppo_loss(self.policy, ppo, config.batched)
        self.optimizer = new_optimizer(self.loss, ppo.learning_rate)
        self.pool = PolicyPool(
            variant, run.opponents, run.self_share, run.pool_size, seed, kind, ppo.net_arch,
            device,
        )  # fmt: skip
        self.steps = 0
        self.best_score = -1.0
        self.evaluations: list[Evaluation] = []
        self.update_seconds = 0.0
        self.evaluation_seconds = 0.0
        self.seconds_before = 0.0  # the training time of the run this one resumes
        self.began = time.monotonic()

    def training_seconds(self) -> float:
        """How long the run has trained, the runs it resumes included."""
        return self.seconds_before + time.monotonic() - self.began

    # ---- the games ---------------------------------------------------------------------------
    def restart_games(self) -> None:
        """New games and new draws, from seeds of the run's seed and its step count."""
        self.pool.apply(self.batch)
        torch.manual_seed(derived_seed(self.seed, self.steps, 1))  # the snapshots' draws too
        self.batch.restart(derived_seed(self.seed, self.steps, 0))

    def round(self) -> dict[str, Any]:
        """Collect a rollout, fit the policy to it; what the progress bar shows."""
        ppo = self.config.run.ppo
        rollout = self.batch.collect(self.policy, ppo.n_steps, self.device)
        began = time.perf_counter()
        kept = copy.deepcopy((self.policy.state_dict(), self.optimizer.state_dict()))
        try:
            report = update(self.loss, self.optimizer, rollout, ppo, self.config.batched)
        except KeyboardInterrupt:  # the round is undone: a checkpoint holds whole rounds only
            self.policy.load_state_dict(kept[0])
            self.optimizer.load_state_dict(kept[1])
            raise
        self.update_seconds += time.perf_counter() - began
        self.steps += rollout.steps
        games = self.batch.timings.games
        ended = sum(games.values())
        won = games["won"] / ended if ended else 0.0
        return {"won": f"{won:.0%}", "entropy": f"{report.entropy:.2f}"}

    # ---- what a run saves --------------------------------------------------------------------
    def snapshot(self) -> None:
        """Freeze the policy into the opponent pool (the games under way keep their draws)."""
        path = self.policy.save(self.out / "pool" / f"step_{self.steps}{self.suffix}")
        self.pool.add_snapshot(path)
        self.pool.apply(self.batch)

    def evaluate(self, bar: tqdm | None) -> Evaluation:
        """A gauntlet against the evaluation baselines; the best policy so far is kept."""
        began = time.perf_counter()
        path = self.policy.save(self.out / "evaluations" / f"step_{self.steps}{self.suffix}")
        result = evaluate(
            path, self.variant, self.config.run, self.out / "evaluations.sqlite", self.steps,
            self.seed, workers=self.config.batched.eval_workers, agent=self.policy.agent,
            seconds=round(self.training_seconds(), 1), **self.where,
        )  # fmt: skip
        self.evaluations.append(result)
        append_json_line(self.out / "evaluations.jsonl", result.__dict__)
        if result.mean_score > self.best_score:
            self.best_score = result.mean_score
            self.policy.save(self.out / f"best_model{self.suffix}")
        if bar is not None:
            shown = ", ".join(f"{b} {s:.0%}" for b, (s, _, _) in result.scores.items())
            bar.write(f"step {self.steps:,}: {shown}")
        self.evaluation_seconds += time.perf_counter() - began
        return result

    def checkpoint(self) -> Path:
        """The policy, Adam's state and what the run needs to go on (see the module docstring)."""
        path = self.policy.save(self.out / "checkpoints" / f"step_{self.steps}{self.suffix}")
        tensors = {"policy": self.policy.state_dict(), "optimizer": self.optimizer.state_dict()}
        buffer = io.BytesIO()
        torch.save(tensors, buffer)
        write_atomically(path.with_suffix(".pt"), buffer.getvalue())
        write_checkpoint_state(self, path, self.steps, self.training_seconds())
        return path

    def restore(self, checkpoint: Path, state: dict[str, Any]) -> None:
        """Take the checkpoint's tensors, step count, best score and pool."""
        tensors_path = checkpoint.with_suffix(".pt")
        if not tensors_path.exists():
            raise ModelLoadError(
                f"cannot resume from {checkpoint}: a batched PPO checkpoint has its "
                f"{tensors_path.name} beside it"
            )
        try:
            content = read_bytes(tensors_path, MAX_TENSOR_BYTES)
            tensors = torch.load(io.BytesIO(content), map_location=self.device, weights_only=True)
            self.policy.load_state_dict(tensors["policy"])
            self.optimizer.load_state_dict(tensors["optimizer"])
        except Exception as error:  # whatever the file holds, say what went wrong with it
            reason = f"{type(error).__name__}: {error}".splitlines()[0]
            raise ModelLoadError(f"cannot resume from {checkpoint}: {reason}") from None
        self.steps = state["timesteps"]
        self.best_score = state["best_score"]
        self.seconds_before = state.get("seconds", 0.0)
        for snapshot in state["pool"]["snapshots"]:
            self.pool.add_snapshot(snapshot)

    def seconds(self) -> dict[str, float]:
        """Where the time went: the engine (the games and opponents), the learner's forward
        passes, the updates, the evaluations."""
        timings = self.batch.timings
        return {
            "engine": round(timings.engine, 2),
            "forward": round(timings.forward, 2),
            "update": round(self.update_seconds, 2),
            "evaluations": round(self.evaluation_seconds, 2),
        }


def use_threads(count: int) -> None:
    """Run the batch's compiled loops and torch on `count` threads (numba's at most the
    machine's): a thread a core stalls when another job holds one of the cores. Numba first
    (which starts its threads), torch after it: the other way round, a rollout's torch
    operations ran 4 to 20 times slower beside numba's threads on the two-core machine."""
    numba.set_num_threads(min(count, numba.config.NUMBA_NUM_THREADS))
    torch.set_num_threads(count)


def train_batched_ppo(
    variant: str,
    config: BatchedPPOConfig,
    out: str | Path,
    seed: int = 0,
    resume: str | Path | None = None,
    max_minutes: float | None = None,
    progress: bool = True,
    overwrite: bool = False,
    notify: Callable[[str], object] | None = None,
    backend: str = "local",
    ray_address: str | None = None,
) -> TrainResult:
    """Train a policy for `variant` by batched PPO self-play (the module docstring says how);
    files go under `out`; the evaluations' games are played on `backend` (``ray``: Ray tasks,
    on the cluster at `ray_address` or a local one).

    With `resume` (``OUT/checkpoints/step_N.npz``, or ``.zip`` for an ``mlp`` policy) the run
    continues from that checkpoint, with the PPO settings it was trained with; NothingToDo when
    it already has `config.run.timesteps`. Otherwise `out` must be empty or missing, or
    `overwrite` given. The run learns in whole rollouts up to `config.run.timesteps` (rounded
    up; `notify` is told so), or until another round would end past `max_minutes` of this run;
    Ctrl-C saves a checkpoint and raises TrainingInterrupted."""
    get_variant(variant)
    check_opponents(config.run.opponents, variant, "opponents")
    check_opponents(config.run.eval_opponents, variant, "eval_opponents")
    device = fitting_device(config.batched.device)
    check_backend(backend, config.batched.eval_workers, ray_address)
    adjudicator = learner_adjudicator(config.run, variant)
    out = Path(out)
    state = None
    if resume is not None:
        if overwrite:
            raise ValueError("--resume continues a run and --overwrite deletes it: give one")
        resume = Path(resume)
        state = _resume_state(resume, variant)
        if state["timesteps"] >= config.run.timesteps:
            raise NothingToDo(
                f"the checkpoint {resume} is at step {state['timesteps']:,}, which meets the "
                f"{config.run.timesteps:,} timesteps asked for: nothing to do (no file "
                "changed); ask for more with --timesteps"
            )
        config = replace(
            config,
            run=replace(config.run, ppo=state["ppo"]),
            batched=_learning_settings(resume, state, config.batched),
        )
    else:
        pattern = f"step_N{KINDS[config.batched.policy].suffix}"
        claim_folder(out, overwrite, RUN_FILES, newest_checkpoint(out), pattern)
    done = 0 if state is None else state["timesteps"]
    note = config.run.rounding_note(done)
    if note is not None and notify is not None:
        notify(note)
    use_threads(config.batched.threads)
    started = time.monotonic()
    run = _Run(variant, config, out, seed, device, {"backend": backend, "ray_address": ray_address})
    run.batch.adjudicator = adjudicator
    if state is not None:
        run.restore(resume, state)
    # the run's folders are made once its games, opponents and policy are set up: a run
    # refused before then leaves no folder behind to refuse the next
    for folder in ("pool", "evaluations", "checkpoints"):
        (out / folder).mkdir(parents=True, exist_ok=True)
    if state is None:
        run.snapshot()  # the untrained policy is the pool's first snapshot
    run.restart_games()
    planned = config.run.planned_timesteps(done)
    summary = {
        "variant": variant,
        "algorithm": "batched-ppo",
        "resumed_from": None if resume is None else str(resume),
        "seed": seed,
        "config": config.to_json(),
    }
    budget = TimeBudget(None if max_minutes is None else 60 * max_minutes, started)
    bar = tqdm(
        total=planned, initial=run.steps, desc=f"training {variant}", unit="step",
        unit_scale=True, disable=not progress,
    )  # fmt: skip
    saved_at = None
    try:
        while run.steps < planned and budget.allows_another(time.monotonic()):
            before = run.steps
            bar.set_postfix(run.round())
            bar.update(run.steps - before)
            every = config.run
            if crossed(before, run.steps, every.snapshot_every):
                run.snapshot()
            if crossed(before, run.steps, every.eval_every):
                run.evaluate(bar if progress else None)
            if crossed(before, run.steps, every.checkpoint_every):
                run.checkpoint()
                saved_at = run.steps
                run.restart_games()
            budget.generation_ended(time.monotonic())
    except KeyboardInterrupt:
        bar.close()
        checkpoint = run.checkpoint()
        seconds = _write_summary(out, summary, run, started, interrupted=True)
        raise TrainingInterrupted(checkpoint, run.steps, seconds) from None
    bar.close()
    final = run.policy.save(out / f"final_model{run.suffix}")
    if saved_at != run.steps:
        run.checkpoint()
    if not run.evaluations or run.evaluations[-1].timesteps != run.steps:
        run.evaluate(None)
    best = out / f"best_model{run.suffix}"
    seconds = _write_summary(out, summary, run, started, interrupted=False)
    return TrainResult(
        out=out,
        final_model=final,
        best_model=best if best.exists() else None,
        agent=run.policy.agent,
        timesteps=run.steps,
        seconds=seconds,
        evaluations=run.evaluations,
    )


def _write_summary(out: Path, summary: dict, run: _Run, started: float, interrupted: bool) -> float:
    """Write run.json (with where the time went); the seconds the run took."""
    seconds = time.monotonic() - started
    write_json(
        out / "run.json",
        {**summary, "timesteps": run.steps, "seconds": round(seconds, 1),
         "seconds_in": run.seconds(), "interrupted": interrupted,
         "games": dict(run.batch.timings.games)},
    )  # fmt: skip
    return seconds
