"""The wait for an agent's first move in a fresh process, with empty caches and then warm ones.

    python benchmarks/first_move.py [--label after] [--variant oware] [--nice 5] [SPEC ...]

Each agent spec (by default alpha-beta at depth 4, greedy, the az network's policy and its
search of 100 simulations) plays the first move of a game of `--variant` under its default
rules in a new Python process whose numba cache (`NUMBA_CACHE_DIR`) and derived-module cache
(`MANCALA_ENV_CACHE`) are fresh, empty folders: the wait is the compiles that move needs. A
second process with the same, now filled, folders gives the warm wait. Each process reports the
seconds from before the agent is loaded (the `az` network checks its rules with a `Game`) to
after its first `act` returns, the imports not counted, in wall-clock seconds and in the
process's CPU seconds (what the compiles cost, whatever else the machine runs), and whether the
engine's shared kernels (`engine.turn.step` as written) were compiled. The rows go to
`benchmarks/results/first_move.json` under `--label`, with the date, the machine, its load and
the command; runs under other labels (a `before` say) are kept, and a run of some specs under a
label already there replaces those specs' rows and keeps the others'.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from mancala_env.machine import describe_machine
from mancala_env.outputs import write_atomically
from mancala_env.readers import parse_json, read_bytes

RESULTS = Path(__file__).with_name("results") / "first_move.json"
MAX_RESULTS_BYTES = 1 << 20  # the file holds a few kB
SPECS = ("alphabeta:depth=4", "greedy", "az:oware", "az:oware,simulations=100")

CHILD = """
import json, sys, time
from mancala_env import Game
from mancala_env.agents import load_agent
from mancala_env.engine import turn
began, cpu = time.perf_counter(), time.process_time()
agent = load_agent(sys.argv[1], sys.argv[2], seed=0)
game = Game(sys.argv[2])
action = agent.act(game)
seconds, cpu_seconds = time.perf_counter() - began, time.process_time() - cpu
print(json.dumps({"seconds": round(seconds, 2), "cpu_seconds": round(cpu_seconds, 2),
                  "action": action,
                  "shared_kernels_compiled": bool(turn.step.signatures)}))
"""


def first_move(spec: str, variant: str, nice: int, caches: Path) -> dict:
    """One process's first move of `spec` with the caches in the folder `caches`."""
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(caches / "numba"),
        "MANCALA_ENV_CACHE": str(caches / "mancala_env"),
    }
    command = ["nice", "-n", str(nice), sys.executable, "-c", CHILD, spec, variant]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="*", default=list(SPECS), help="agent specs")
    parser.add_argument("--variant", default="oware", help="the rule set (default rules)")
    parser.add_argument("--label", default="after", help="the name of this run in the results")
    parser.add_argument("--nice", type=int, default=5, help="nice level of every process")
    args = parser.parse_args()
    load_before = os.getloadavg()
    rows = {}
    for spec in args.specs:
        with tempfile.TemporaryDirectory() as caches:
            cold = first_move(spec, args.variant, args.nice, Path(caches))
            warm = first_move(spec, args.variant, args.nice, Path(caches))
        rows[spec] = {"cold": cold, "warm": warm}
        print(f"{spec}: {json.dumps(rows[spec])}", flush=True)
    results = {}
    if RESULTS.exists():
        results = parse_json(read_bytes(RESULTS, MAX_RESULTS_BYTES), RESULTS)
    rows = {**results.get(args.label, {}).get("rows", {}), **rows}
    results[args.label] = {
        "date": datetime.date.today().isoformat(),
        "machine": describe_machine(),
        "load_average_before_and_after": [round(load_before[0], 1), round(os.getloadavg()[0], 1)],
        "command": f"python benchmarks/first_move.py --label {args.label} --variant "
        f"{args.variant} --nice {args.nice} SPEC ...",  # the rows' specs
        "variant": args.variant,
        "rows": rows,
    }
    write_atomically(RESULTS, (json.dumps(results, indent=1) + "\n").encode())


if __name__ == "__main__":
    main()
