"""Random-play speed of the AEC environments, next to PettingZoo's classic Connect Four.

Every registered rule set is played through `env()` of its versioned module (PettingZoo's
standard wrappers included) with actions drawn uniformly from the action mask by numpy; a
step is one `env.step` call, the calls for finished agents included. Connect Four needs
pygame (`pip install mancala_env[bench]`); without it that row is skipped with a note.

    python benchmarks/aec_speed.py [--seconds 3] [--json]
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import time

import numpy as np

import mancala_env


def measure(make_env, seconds: float, seed: int = 0) -> dict:
    """Play random games for about `seconds` (after one warm-up game) and count steps."""
    env = make_env()
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = None
    while start is None or time.perf_counter() - start < seconds:
        env.reset(seed=seed + games)
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            env.step(action)
            steps += 1
        if start is None:  # the first game compiles and warms caches: not timed
            steps, start = 0, time.perf_counter()
        else:
            games += 1
    elapsed = time.perf_counter() - start
    env.close()
    return {
        "steps": steps,
        "games": games,
        "seconds": round(elapsed, 3),
        "steps_per_s": round(steps / elapsed),
        "games_per_s": round(games / elapsed, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per environment")
    parser.add_argument("--json", action="store_true", help="one JSON object per row")
    args = parser.parse_args()

    envs = {
        f"{v.name}_v0": getattr(mancala_env, f"{v.name}_v0").env
        for v in mancala_env.list_variants()
    }
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if importlib.util.find_spec("pygame") is None:
        print("note: pygame is not installed; skipping connect_four_v3 (pip install .[bench])")
    else:
        envs["connect_four_v3"] = importlib.import_module("pettingzoo.classic.connect_four_v3").env

    if not args.json:
        print(f"{'env':<20}{'steps':>10}{'seconds':>9}{'steps/s':>10}{'games/s':>9}")
    for name, make_env in envs.items():
        row = {"env": name, **measure(make_env, args.seconds)}
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(
                f"{name:<20}{row['steps']:>10}{row['seconds']:>9.2f}"
                f"{row['steps_per_s']:>10}{row['games_per_s']:>9.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
