"""Each rule set's one-core engine against its family's C reference loop, over several runs.

    python benchmarks/limits.py [--rounds 3] [--seconds 2] [--nice 10] [--variant oware ...]

Runs `mancala bench --json` `--rounds` times, one after another, each run under the same nice
level (`--nice`), and writes the rows that compare the engine with its family's loop (the loop
runs right after the engine's one-core row, in the same run: `mancala_env.bench.family_loop`)
to `benchmarks/results/limits.json`, with the date, the machine, its load, the command and
the flags each loop was built with (`mancala_env.bench.C_FLAGS`, or the fallback); the ratios'
median, lowest and highest over the runs come with the speed targets they are read against.
By default it measures the two rule sets the loops play: Oware and Ayoayo.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from mancala_env.bench import C_REFERENCE
from mancala_env.machine import describe_machine
from mancala_env.outputs import write_atomically

RESULTS = Path(__file__).with_name("results") / "limits.json"
# The one-core engine's rate over its loop's that the engine is held to (the loops' rule sets).
TARGETS = {"oware": 0.6, "ayoayo": 0.5}


def _run(command: list[str]) -> dict[str, dict]:
    """One run of the bench: per rule set, its engine's and its loop's rates and the ratio."""
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rows = [json.loads(line) for line in out.splitlines()]
    found: dict[str, dict] = {}
    for row in rows:
        if row["benchmark"] == "engine_1_core":
            found.setdefault(row["variant"], {})["engine_1_core"] = row["moves_per_s"]
        elif row["benchmark"] == C_REFERENCE and "ratio" in row:
            found.setdefault(row["variant"], {}).update(
                loop=row["loop"],
                same_rules=row["same_rules"],
                loop_moves_per_s=row["moves_per_s"],
                loop_flags=row["flags"],
                ratio=row["ratio"],
            )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="runs of the bench")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--nice", type=int, default=10, help="nice level of every run")
    parser.add_argument("--variant", action="append", default=[], help="rule set (repeatable)")
    args = parser.parse_args()
    variants = args.variant or list(TARGETS)
    bench = ["bench", "--json", "--seconds", str(args.seconds), "--slowest-moves", "0"]
    for name in variants:
        bench += ["--variant", name]
    command = ["nice", "-n", str(args.nice), sys.executable, "-m", "mancala_env", *bench]
    load_before = os.getloadavg()
    runs = []
    for number in range(args.rounds):
        runs.append(_run(command))
        print(f"run {number + 1}: {json.dumps(runs[-1])}", flush=True)
    summary = {}
    for name in variants:
        ratios = [run[name]["ratio"] for run in runs if "ratio" in run.get(name, {})]
        if ratios:
            summary[name] = {
                "loop": runs[0][name]["loop"],
                "ratio_median": statistics.median(ratios),
                "ratio_lowest": min(ratios),
                "ratio_highest": max(ratios),
                "target": TARGETS.get(name),
            }
    result = {
        "date": datetime.date.today().isoformat(),
        "machine": describe_machine(),
        "load_average_before_and_after": [round(load_before[0], 1), round(os.getloadavg()[0], 1)],
        "command": f"nice -n {args.nice} mancala " + " ".join(bench),
        "rounds": args.rounds,
        "runs": runs,
        "summary": summary,
    }
    write_atomically(RESULTS, (json.dumps(result, indent=1) + "\n").encode())
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
