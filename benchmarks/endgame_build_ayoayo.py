"""Build Ayoayo's endgame database one seed count a run, resumably, and record each run's wall
time, CPU time, peak memory, boards, bytes and settling passes in a results file.

    nohup nice -n 19 python benchmarks/endgame_build_ayoayo.py --max-seeds 15 \\
        --out endgames/ayoayo > ayoayo-db.log 2>&1 &

Each seed count is solved by `mancala_env.endgame.build.build` in a child process of its own,
so the CPU time and the peak resident memory (``resource.getrusage`` of the children) are those
of that run: reading the seed counts below, starting up and, for the first, compiling included.
A run stopped part way is taken up by running the command again: the seed counts already built
and recorded are kept.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

from mancala_env.machine import describe_machine
from mancala_env.outputs import write_atomically
from mancala_env.readers import parse_json, read_bytes

RESULTS = Path(__file__).parent / "results" / "endgame_build_ayoayo.json"
MAX_RESULTS_BYTES = 1 << 20  # the file holds a few kB
CHILD = """
import json, sys
from mancala_env.endgame.build import build
from mancala_env.variants import get_variant
variant = get_variant("ayoayo")
report = build(variant, variant.options(), int(sys.argv[1]), sys.argv[2], progress=False)
print(json.dumps({"solved": report.solved, "passes": report.passes,
                  "bytes_on_disk": report.bytes_on_disk}))
"""


def machine() -> str:
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{describe_machine()}, {memory:.0f} GiB, shared with other jobs"


def run_level(seeds: int, out: str) -> dict:
    """Solve up to `seeds` seeds in a child process; its measurements."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(seeds), out], capture_output=True, text=True, check=True
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "max_seeds": seeds,
        "seed_counts_solved": report["solved"],
        "settling_passes": {k: v[0] for k, v in report["passes"].items()},
        "changed_by_the_last_pass": {k: v[1] for k, v in report["passes"].items()},
        "bytes_on_disk": report["bytes_on_disk"],
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "peak_rss_bytes": after.ru_maxrss * 1024,  # the largest of the children's so far
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-seeds", type=int, required=True)
    parser.add_argument("--first", type=int, default=6, help="the first run builds 0 to FIRST")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    results = {}
    if RESULTS.exists():
        results = parse_json(read_bytes(RESULTS, MAX_RESULTS_BYTES), RESULTS)
    results.setdefault("runs", [])
    results.update(
        {
            "command": "python benchmarks/endgame_build_ayoayo.py --max-seeds N --out DIR, at "
            "nice 19: one child process a seed count (the first builds 0 to FIRST)",
            "machine": machine(),
            "measured_with": "resource.getrusage(RUSAGE_CHILDREN): user + system CPU and peak "
            "resident memory of each run; wall time by the clock",
            "date": date.today().isoformat(),
        }
    )
    done = {run["max_seeds"] for run in results["runs"]}
    for seeds in range(args.first, args.max_seeds + 1):
        if seeds in done:
            continue
        run = run_level(seeds, args.out)
        results["runs"].append(run)
        write_atomically(RESULTS, (json.dumps(results, indent=1) + "\n").encode())
        print(json.dumps(run), flush=True)


if __name__ == "__main__":
    main()
