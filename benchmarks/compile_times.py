"""How long the engine takes to compile, rule set by rule set, from empty caches.

    python benchmarks/compile_times.py [--variant oware ...] [--out FILE]

For each rule set, in a fresh process whose derived-module folder (`MANCALA_ENV_CACHE`) and
numba cache (`NUMBA_CACHE_DIR`) are new and empty: the seconds until a `Game` under the rule
set's default rules has played its first move (its own engine's compile), then until a
`BatchedGames` of 8 games has stepped once (the batch kernels' compile, after the engine); then
the same two in a second fresh process over the same, now warm, caches (what a later run
pays). Last, the shared kernels (`mancala_env.engine.turn`, every mechanic in one compiled
copy, compiled only when asked for by name) in a process of their own. The CPU time of each
phase is recorded beside its wall time, as the machine may be shared. Written to `--out`
(default benchmarks/results/compile_times.json) with the date, the machine and the command, and
rendered in the documentation (`docs/engine.md`).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mancala_env.machine import describe_machine
from mancala_env.outputs import write_atomically
from mancala_env.variants import VARIANTS

RESULTS = Path(__file__).with_name("results") / "compile_times.json"

RULE_SET = """
import json, sys, time
marks = [(time.perf_counter(), time.process_time())]
from mancala_env.game import Game
from mancala_env.batch import BatchedGames
marks.append((time.perf_counter(), time.process_time()))
game = Game(sys.argv[1])
game.step(int(game.legal_actions()[0]))
marks.append((time.perf_counter(), time.process_time()))
batch = BatchedGames(sys.argv[1], 8, seed=0)
batch.reset()
batch.step(batch.masks.argmax(axis=1))
marks.append((time.perf_counter(), time.process_time()))
print(json.dumps({phase: [b[0] - a[0], b[1] - a[1]]
                  for phase, a, b in zip(("import", "engine", "batch"), marks, marks[1:])}))
"""

SHARED = """
import json, time
import numpy as np
from mancala_env.engine import layout as L
from mancala_env.engine import turn
from mancala_env.variants import get_variant
variant = get_variant("oware")
params = variant.params(variant.options())
state = np.zeros(L.STATE_SIZE, dtype=np.int32)
began = (time.perf_counter(), time.process_time())
turn.new_game(params, 0, state, 0)
turn.step(state, 0, params)
print(json.dumps({"engine": [time.perf_counter() - began[0], time.process_time() - began[1]]}))
"""


def _run(code: str, args: list[str], caches: Path) -> dict[str, dict[str, float]]:
    """`code` run in a fresh process over the caches in `caches`: the wall and CPU seconds of
    each of its phases, and of the whole process (``process``: starting up included)."""
    env = {
        **os.environ,
        "MANCALA_ENV_CACHE": str(caches / "kernels"),
        "NUMBA_CACHE_DIR": str(caches / "numba"),
    }
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, check=True
    )
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    phases = json.loads(done.stdout.strip().splitlines()[-1])
    return {
        phase: {"wall": round(w, 2), "cpu": round(c, 2)}
        for phase, (w, c) in {**phases, "process": (wall, cpu)}.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", choices=sorted(VARIANTS))
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    rows = {}
    for name in args.variant or sorted(VARIANTS):
        with tempfile.TemporaryDirectory() as folder:
            cold = _run(RULE_SET, [name], Path(folder))
            warm = _run(RULE_SET, [name], Path(folder))
        rows[name] = {"cold": cold, "warm": warm}
        print(f"{name}: cold {cold}, warm {warm}", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        shared = _run(SHARED, [], Path(folder))
    print(f"shared kernels: {shared}", flush=True)
    load = os.getloadavg()[0]
    write_atomically(
        args.out,
        (
            json.dumps(
                {
                    "date": datetime.date.today().isoformat(),
                    "machine": f"{describe_machine()}, load average {load:.1f} at the end",
                    "command": shlex.join(["python", "benchmarks/compile_times.py", *sys.argv[1:]]),
                    "rule_sets": rows,
                    "shared": shared,
                },
                indent=1,
            )
            + "\n"
        ).encode(),
    )


if __name__ == "__main__":
    main()
