"""Learner steps a second of the two PPO trainers, measured in the same run, and where their
time goes.

    nice python benchmarks/ppo_speed.py [--variant oware] [--rollouts 12] [--repeats 2]
                                        [--out FILE]

Both trainers train the same network (stable-baselines3's ``MlpPolicy``: a policy and a value
network of two tanh layers of 256 each), on the same batch (64 games), rollout (128 moves a game)
and update (4 epochs of minibatches of 1,024), against the same pool (random, greedy and a
frozen snapshot of the learner, which plays half the games): `mancala train --algo ppo`
(sb3-contrib's MaskablePPO over `MancalaVecEnv`) and `mancala train --algo batched-ppo`
(`train/batched_ppo/`, its update in float32 and, a third row, in bfloat16). Each trainer runs
in a fresh process with one numba and one torch thread (what docs/training.md asks of a
MaskablePPO run on a shared machine; the batched trainer sets its own), a warm-up rollout
first, then `--rollouts` rollouts timed; the trainers take turns, `--repeats` times, and the
best turn of each is kept (the machine may be shared; the load average is recorded). The time
is split into the engine (the games and the opponents' moves), the learner's forward passes
(with the draws of its moves and the rollout's bookkeeping) and the updates. Written to `--out`
(default benchmarks/results/ppo_speed.json) with the date, the machine and the command.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

from mancala_env.machine import describe_machine
from mancala_env.outputs import write_atomically

RESULTS = Path(__file__).with_name("results") / "ppo_speed.json"
N_ENVS, N_STEPS, BATCH_SIZE, N_EPOCHS, NET_ARCH = 64, 128, 1024, 4, [256, 256]
OPPONENTS = ["random", "greedy", "self"]

SETTINGS = f"""
import json, sys, tempfile, time
from pathlib import Path
from mancala_env.train.config import PPOSettings, TrainConfig
variant, rollouts = sys.argv[1], int(sys.argv[2])
config = TrainConfig(
    n_envs={N_ENVS}, opponents={OPPONENTS!r}, self_share=0.5,
    ppo=PPOSettings(n_steps={N_STEPS}, batch_size={BATCH_SIZE}, n_epochs={N_EPOCHS},
                    net_arch={NET_ARCH!r}),
)
out = Path(tempfile.mkdtemp())
for folder in ("pool", "evaluations", "checkpoints"):
    (out / folder).mkdir()
"""

# MaskablePPO as `mancala train --algo ppo` builds it (train/run.py), its update and its
# environment's steps timed by wrapping them
MASKABLE_PPO = (
    SETTINGS
    + """
from mancala_env.train.pool import OpponentPool
from mancala_env.train.run import _new_model
from mancala_env.train.selfplay import SelfPlayCallback
from mancala_env.vec_env import MancalaVecEnv
env = MancalaVecEnv(variant, config.n_envs, seat="random", seed=0)
pool = OpponentPool(variant, config.opponents, config.self_share, config.pool_size, 0)
model = _new_model(config.ppo, env, out, 0)
callback = SelfPlayCallback(variant, config, pool, env, out, 0, 10**9, progress=False)
callback.attach(model)
callback.snapshot()
spent = {"engine": 0.0, "update": 0.0}
def timed(name, call):
    def run(*args, **kwargs):
        began = time.perf_counter()
        try:
            return call(*args, **kwargs)
        finally:
            spent[name] += time.perf_counter() - began
    return run
env.step_wait = timed("engine", env.step_wait)
model.train = timed("update", model.train)
model.learn(config.rollout)
spent = dict.fromkeys(spent, 0.0)
began, cpu = time.perf_counter(), time.process_time()
model.learn(rollouts * config.rollout, reset_num_timesteps=False)
wall = time.perf_counter() - began
spent["forward"] = wall - spent["engine"] - spent["update"]
print(json.dumps({"steps": rollouts * config.rollout, "seconds": wall,
                  "cpu_seconds": time.process_time() - cpu, "split": spent}))
"""
)

BATCHED_PPO = (
    SETTINGS
    + """
import torch
from mancala_env.train.batched_ppo.config import BatchedPPOConfig, BatchedSettings
from mancala_env.train.batched_ppo.run import _Run, use_threads
batched = BatchedSettings(threads=1, device="cpu", precision=sys.argv[3])
use_threads(batched.threads)
run = _Run(variant, BatchedPPOConfig(config, batched), out, 0, torch.device("cpu"))
run.snapshot()
run.restart_games()
run.round()
timings = run.batch.timings
start = {"engine": timings.engine, "forward": timings.forward, "update": run.update_seconds}
began, cpu = time.perf_counter(), time.process_time()
for _ in range(rollouts):
    run.round()
wall = time.perf_counter() - began
now = {"engine": timings.engine, "forward": timings.forward, "update": run.update_seconds}
split = {name: now[name] - start[name] for name in now}
split["forward"] += wall - sum(split.values())  # the rounds' own bookkeeping
print(json.dumps({"steps": rollouts * config.rollout, "seconds": wall,
                  "cpu_seconds": time.process_time() - cpu, "split": split}))
"""
)

TRAINERS = {
    "mancala train --algo ppo (MaskablePPO)": (MASKABLE_PPO, []),
    "mancala train --algo batched-ppo": (BATCHED_PPO, ["float32"]),
    "mancala train --algo batched-ppo, precision = bfloat16": (BATCHED_PPO, ["bfloat16"]),
}


def measure(script: str, variant: str, rollouts: int, extra: list[str]) -> dict:
    """One trainer's timed rollouts, in a fresh process of one numba and one torch thread."""
    environment = {**os.environ, "NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", script, variant, str(rollouts), *extra],
        capture_output=True,
        text=True,
        env=environment,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="oware")
    parser.add_argument("--rollouts", type=int, default=12, help="timed rollouts a turn")
    parser.add_argument("--repeats", type=int, default=2, help="turns of each trainer")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    turns: dict[str, list[dict]] = {name: [] for name in TRAINERS}
    for repeat in range(args.repeats):
        for name, (script, extra) in TRAINERS.items():
            result = measure(script, args.variant, args.rollouts, extra)
            result["steps_per_second"] = result["steps"] / result["seconds"]
            turns[name].append(result)
            print(f"{repeat + 1}/{args.repeats} {name}: {result['steps_per_second']:,.0f} steps/s",
                  flush=True)  # fmt: skip
    rows = {}
    for name, results in turns.items():
        best = max(results, key=lambda result: result["steps_per_second"])
        rows[name] = {
            "steps_per_second": round(best["steps_per_second"]),
            "all_turns_steps_per_second": [round(r["steps_per_second"]) for r in results],
            "steps": best["steps"],
            "seconds": round(best["seconds"], 2),
            "cpu_seconds": round(best["cpu_seconds"], 2),
            "share_of_time": {
                part: round(seconds / best["seconds"], 3) for part, seconds in best["split"].items()
            },
        }
    reference = rows["mancala train --algo ppo (MaskablePPO)"]["steps_per_second"]
    for row in rows.values():
        row["speed_up"] = round(row["steps_per_second"] / reference, 2)
    load = os.getloadavg()[0]
    results = {
        "date": datetime.date.today().isoformat(),
        "machine": f"{describe_machine()}, load average {load:.1f} at the end",
        "command": shlex.join(["nice", "python", "benchmarks/ppo_speed.py", *sys.argv[1:]]),
        "variant": args.variant,
        "settings": {
            "n_envs": N_ENVS,
            "n_steps": N_STEPS,
            "batch_size": BATCH_SIZE,
            "n_epochs": N_EPOCHS,
            "net_arch": NET_ARCH,
            "opponents": OPPONENTS,
            "self_share": 0.5,
            "threads": 1,
        },  # fmt: skip
        "trainers": rows,
    }
    write_atomically(args.out, (json.dumps(results, indent=1) + "\n").encode())
    print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"{time.perf_counter() - start:.0f} s")
