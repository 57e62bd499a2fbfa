"""`train(...)`: one self-play run of MaskablePPO on the batched engine, or its continuation."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecMonitor

from agents.ppo import ModelLoadError, load_maskable_ppo
from mancala_env.variants import get_variant
from mancala_env.vec_env import MancalaVecEnv

from .config import TrainConfig
from .pool import OpponentPool
from .selfplay import Evaluation, SelfPlayCallback


@dataclass
class TrainResult:
    """Where a run left its models, and how it went."""

    out: Path
    final_model: Path
    best_model: Path | None
    timesteps: int
    seconds: float
    evaluations: list[Evaluation]


def _resume_state(checkpoint: Path, variant: str) -> dict:
    state_path = checkpoint.with_suffix(".json")
    if not checkpoint.exists() or not state_path.exists():
        raise ModelLoadError(
            f"cannot resume from {checkpoint}: a checkpoint is a step_N.zip with its step_N.json "
            f"beside it (in OUT/checkpoints/)"
        )
    try:
        state = json.loads(state_path.read_text())
        found = state["variant"]
    except (json.JSONDecodeError, KeyError, TypeError) as error:
        raise ModelLoadError(f"{state_path} is not a checkpoint's state: {error}") from None
    if found != variant:
        raise ModelLoadError(f"{checkpoint} is a checkpoint of {found}, not of {variant}")
    return state


def train(
    variant: str,
    config: TrainConfig,
    out: str | Path,
    seed: int = 0,
    resume: str | Path | None = None,
    max_minutes: float | None = None,
    progress: bool = True,
) -> TrainResult:
    """Train a MaskablePPO agent for `variant` by self-play; models go under `out`.

    With `resume` (a checkpoint, ``OUT/checkpoints/step_N.zip``) the run continues from it: its
    step count, its opponent pool and its best score. The run stops after `config.timesteps`
    timesteps in all (counted from the first run), or after `max_minutes` of this run.
    """
    get_variant(variant)
    out = Path(out)
    for folder in ("pool", "evaluations", "checkpoints"):
        (out / folder).mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    env = MancalaVecEnv(variant, config.n_envs, seat="random", seed=seed)
    pool = OpponentPool(variant, config.opponents, config.self_share, config.pool_size, seed)
    best_score = -1.0
    if resume is not None:
        state = _resume_state(Path(resume), variant)
        model = load_maskable_ppo(str(resume))
        model.set_env(VecMonitor(env))
        for snapshot in state["pool"]["snapshots"]:
            pool.add_snapshot(snapshot)
        best_score = state["best_score"]
    else:
        ppo = config.ppo
        model = MaskablePPO(
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
    callback = SelfPlayCallback(
        variant, config, pool, env, out, seed, config.timesteps, best_score,
        None if max_minutes is None else 60 * max_minutes, progress,
    )  # fmt: skip
    if resume is None:
        callback.attach(model)  # the first snapshot: the untrained policy joins the pool
        callback.snapshot()
    pool.apply(env)
    remaining = config.timesteps - model.num_timesteps
    if remaining > 0:
        model.learn(
            remaining,
            callback=callback,
            reset_num_timesteps=resume is None,
            tb_log_name=variant,
        )
    final = out / "final_model.zip"
    model.save(final)
    callback.attach(model)
    callback.checkpoint()
    if not callback.evaluations or callback.evaluations[-1].timesteps != model.num_timesteps:
        callback.run_evaluation()
    best = out / "best_model.zip"
    result = TrainResult(
        out=out,
        final_model=final,
        best_model=best if best.exists() else None,
        timesteps=model.num_timesteps,
        seconds=time.monotonic() - started,
        evaluations=callback.evaluations,
    )
    summary = {
        "variant": variant,
        "timesteps": result.timesteps,
        "seconds": round(result.seconds, 1),
        "resumed_from": None if resume is None else str(resume),
        "seed": seed,
        "config": config.to_json(),
    }
    (out / "run.json").write_text(json.dumps(summary, indent=2))
    return result
