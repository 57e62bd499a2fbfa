"""`train(...)`: one self-play run of MaskablePPO on the batched engine, or its continuation."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecMonitor

from mancala_env.agents.ppo import ModelLoadError, saved_states
from mancala_env.escaping import for_terminal
from mancala_env.inputs import integer, number
from mancala_env.readers import parse_json, read_bytes
from mancala_env.variants import get_variant
from mancala_env.vec_env import MancalaVecEnv

from .checks import check_opponents
from .config import MAX_COUNT, PPOSettings, TrainConfig
from .files import claim_folder, save_model, write_json
from .pool import OpponentPool
from .selfplay import Evaluation, SelfPlayCallback, learner_adjudicator


@dataclass
class TrainResult:
    """Where a run left its models, and how it went."""

    out: Path
    final_model: Path
    best_model: Path | None
    timesteps: int
    seconds: float
    evaluations: list[Evaluation]
    agent: str = "ppo"  # the agent spec's kind that plays its models (ppo:PATH, az:PATH)


class NothingToDo(Exception):
    """A resumed run whose checkpoint already has the timesteps asked for; no file changed."""


class TrainingInterrupted(Exception):
    """Ctrl-C stopped the run; `checkpoint` holds it, ready for ``--resume``; `seconds` is how
    long this invocation ran (what a resumed run's ``--max-minutes`` has left)."""

    def __init__(self, checkpoint: Path, timesteps: int, seconds: float) -> None:
        super().__init__(f"interrupted at step {timesteps:,}; checkpoint saved: {checkpoint}")
        self.checkpoint = checkpoint
        self.timesteps = timesteps
        self.seconds = seconds


# what a run writes in its folder (all that --overwrite removes)
RUN_FILES = (
    "pool", "evaluations", "checkpoints", "tensorboard", "evaluations.jsonl",
    "evaluations.sqlite", "evaluations.sqlite-wal", "evaluations.sqlite-shm",
    "final_model.zip", "best_model.zip", "final_model.npz", "best_model.npz", "run.json",
)  # fmt: skip
CHECKPOINT_SUFFIXES = (".zip", ".npz")  # a MaskablePPO model file, a network


def newest_checkpoint(out: Path) -> Path | None:
    """The checkpoint of the most timesteps in `out`, if any."""
    found = []
    for path in (out / "checkpoints").glob("step_*"):
        steps = path.stem.removeprefix("step_")
        if (
            path.suffix in CHECKPOINT_SUFFIXES
            and steps.isdigit()
            and path.with_suffix(".json").exists()
        ):
            found.append((int(steps), path))
    return max(found)[1] if found else None


MAX_STATE_BYTES = 16 * 1024 * 1024  # a checkpoint's state: its pool's snapshots' paths, some kB
MAX_SECONDS = 10 * 365 * 86_400.0  # a run's training time: ten years
MAX_SNAPSHOTS = 100_000  # a pool's snapshots named in a state: more than any run keeps


def _resume_state(checkpoint: Path, variant: str) -> dict:
    state_path = checkpoint.with_suffix(".json")
    if not checkpoint.exists() or not state_path.exists():
        raise ModelLoadError(
            f"cannot resume from {checkpoint}: a checkpoint is a step_N.zip or step_N.npz with "
            "its step_N.json beside it (in OUT/checkpoints/)"
        )
    try:
        state = parse_json(read_bytes(state_path, MAX_STATE_BYTES), state_path)
        found = state["variant"]
        integer(state["timesteps"], "timesteps", 0, MAX_COUNT)
        snapshots = state["pool"]["snapshots"]
        if not isinstance(snapshots, list) or len(snapshots) > MAX_SNAPSHOTS:
            raise ValueError(f"the pool's snapshots must be a list of at most {MAX_SNAPSHOTS}")
        if not all(isinstance(snapshot, str) for snapshot in snapshots):
            raise ValueError("the pool's snapshots must be the paths of model files (texts)")
        ppo = PPOSettings(**state["config"]["ppo"])
        number(state["best_score"], "best_score", -1.0, 1.0)
        number(state.get("seconds", 0.0), "seconds", 0.0, MAX_SECONDS)
    except (ValueError, KeyError, TypeError) as error:
        raise ModelLoadError(f"{state_path} is not a checkpoint's state: {error}") from None
    if found != variant:
        shown = for_terminal(found) if isinstance(found, str) else "something else"
        raise ModelLoadError(f"{checkpoint} is a checkpoint of {shown}, not of {variant}")
    return {**state, "ppo": ppo}


def _new_model(ppo: PPOSettings, env: MancalaVecEnv, out: Path, seed: int) -> MaskablePPO:
    return MaskablePPO(
        "MlpPolicy",
        VecMonitor(env),
        n_steps=ppo.n_steps,
        batch_size=ppo.batch_size,
        n_epochs=ppo.n_epochs,
        learning_rate=ppo.learning_rate,
        gamma=ppo.gamma,
        gae_lambda=ppo.gae_lambda,
        clip_range=ppo.clip_range,
        ent_coef=ppo.ent_coef,
        policy_kwargs={"net_arch": list(ppo.net_arch)},
        tensorboard_log=str(out / "tensorboard"),
        seed=seed,
        device="cpu",
        verbose=0,
    )


def _resumed_model(
    checkpoint: Path, state: dict, env: MancalaVecEnv, out: Path, seed: int
) -> MaskablePPO:
    """The checkpoint's model, built from its run's settings with only its weights (and its
    optimiser's state) loaded: nothing in the file is unpickled, and nothing unbounded read."""
    model = _new_model(state["ppo"], env, out, seed)
    states = saved_states(checkpoint)
    try:
        model.set_parameters(states, exact_match=True, device="cpu")
    except Exception as error:  # whatever the file holds, say what went wrong with it
        reason = f"{type(error).__name__}: {error}".splitlines()[0]
        raise ModelLoadError(f"cannot resume from {checkpoint}: {reason}") from None
    model.num_timesteps = state["timesteps"]
    return model


def train(
    variant: str,
    config: TrainConfig,
    out: str | Path,
    seed: int = 0,
    resume: str | Path | None = None,
    max_minutes: float | None = None,
    progress: bool = True,
    overwrite: bool = False,
    notify: Callable[[str], object] | None = None,
) -> TrainResult:
    """Train a MaskablePPO agent for `variant` by self-play; models go under `out`.

    With `resume` (a checkpoint, ``OUT/checkpoints/step_N.zip``) the run continues from it: its
    step count, its opponent pool and its best score; NothingToDo when it already has
    `config.timesteps`. Otherwise `out` must be empty or missing, or `overwrite` given. The run
    stops after `config.timesteps` timesteps in all (counted from the first run), or after
    `max_minutes` of this run; Ctrl-C saves a checkpoint and raises TrainingInterrupted.
    MaskablePPO learns in whole rollouts, so the count is rounded up to the next one; `notify`
    (when given) is told so in one line.
    """
    get_variant(variant)
    check_opponents(config.opponents, variant, "opponents")
    check_opponents(config.eval_opponents, variant, "eval_opponents")
    out = Path(out)
    state = None
    adjudicator = learner_adjudicator(config, variant)
    if resume is not None:
        if overwrite:
            raise ValueError("--resume continues a run and --overwrite deletes it: give one")
        resume = Path(resume)
        state = _resume_state(resume, variant)
        if state["timesteps"] >= config.timesteps:
            raise NothingToDo(
                f"the checkpoint {resume} is at step {state['timesteps']:,}, which meets the "
                f"{config.timesteps:,} timesteps asked for: nothing to do (no file changed); "
                "ask for more with --timesteps"
            )
    else:
        claim_folder(out, overwrite, RUN_FILES, newest_checkpoint(out), "step_N.zip")
    done = 0 if state is None else state["timesteps"]
    note = config.rounding_note(done)
    if note is not None and notify is not None:
        notify(note)
    started = time.monotonic()
    env = MancalaVecEnv(variant, config.n_envs, seat="random", seed=seed)
    env.adjudicator = adjudicator
    pool = OpponentPool(variant, config.opponents, config.self_share, config.pool_size, seed)
    best_score = -1.0
    if state is not None:
        model = _resumed_model(resume, state, env, out, seed)
        for snapshot in state["pool"]["snapshots"]:
            pool.add_snapshot(snapshot)
        best_score = state["best_score"]
    else:
        model = _new_model(config.ppo, env, out, seed)
    # the run's folders are made once its games, opponents and model are set up: a run refused
    # before then leaves no folder behind to refuse the next
    for folder in ("pool", "evaluations", "checkpoints"):
        (out / folder).mkdir(parents=True, exist_ok=True)
    callback = SelfPlayCallback(
        variant, config, pool, env, out, seed, config.planned_timesteps(done), best_score,
        None if max_minutes is None else 60 * max_minutes, progress,
    )  # fmt: skip
    if resume is None:
        callback.attach(model)  # the first snapshot: the untrained policy joins the pool
        callback.snapshot()
    pool.apply(env)
    summary = {
        "variant": variant,
        "resumed_from": None if resume is None else str(resume),
        "seed": seed,
        "config": config.to_json(),
    }
    try:
        model.learn(
            config.timesteps - model.num_timesteps,
            callback=callback,
            reset_num_timesteps=resume is None,
            tb_log_name=variant,
        )
    except KeyboardInterrupt:
        callback.attach(model)
        checkpoint = callback.checkpoint()
        seconds = _write_summary(out, summary, model.num_timesteps, started, interrupted=True)
        raise TrainingInterrupted(checkpoint, model.num_timesteps, seconds) from None
    final = save_model(model, out / "final_model.zip")
    callback.attach(model)
    callback.checkpoint()
    if not callback.evaluations or callback.evaluations[-1].timesteps != model.num_timesteps:
        callback.run_evaluation()
    best = out / "best_model.zip"
    seconds = _write_summary(out, summary, model.num_timesteps, started, interrupted=False)
    return TrainResult(
        out=out,
        final_model=final,
        best_model=best if best.exists() else None,
        timesteps=model.num_timesteps,
        seconds=seconds,
        evaluations=callback.evaluations,
    )


def _write_summary(
    out: Path, summary: dict, timesteps: int, started: float, interrupted: bool
) -> float:
    """Write run.json; the seconds the run took."""
    seconds = time.monotonic() - started
    write_json(
        out / "run.json",
        {**summary, "timesteps": timesteps, "seconds": round(seconds, 1),
         "interrupted": interrupted},
    )  # fmt: skip
    return seconds
