"""Time the test suite from empty caches, and from warm ones after an edit of one file.

    python benchmarks/test_times.py [--cold-runs 3] [--edit agents/mcts.py]

Each cold run is the README's test command (`python -m pytest -q -n auto`) with the derived
modules' folder (`MANCALA_ENV_CACHE`) and numba's cache (`NUMBA_CACHE_DIR`) in a new empty
folder: the caches a fresh clone has. Then one run with those caches warm after a comment line
is appended to `--edit` (put back as it was afterwards): the loop of a developer who changed
one file. Each run's wall and CPU seconds (its processes' user and system time), its tests and
the load average as it began go to benchmarks/results/test_times.json, with the date, the
machine, the command and the commit.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mancala_env.outputs import refusal, write_atomically

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "test_times.json"
TEST_COMMAND = [sys.executable, "-m", "pytest", "-q", "-n", "auto"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_suite(caches: Path, label: str) -> dict[str, Any]:
    """One run of the test suite with its caches in `caches`: seconds, tests and load."""
    env = {
        **os.environ,
        "MANCALA_ENV_CACHE": str(caches / "derived"),
        "NUMBA_CACHE_DIR": str(caches / "numba"),
    }
    load = os.getloadavg()[0]
    cpu, began = _children_cpu(), time.perf_counter()
    done = subprocess.run(TEST_COMMAND, cwd=ROOT, env=env, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - began, _children_cpu() - cpu
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    counts = {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|error)", summary)}
    print(f"{label}: {wall:.0f} s wall, {cpu:.0f} s CPU: {summary}", flush=True)
    return {
        "run": label,
        "wall": round(wall, 1),
        "cpu": round(cpu, 1),
        "load_average_at_start": round(load, 2),
        "passed": counts.get("passed", 0),
        "failed": counts.get("failed", 0) + counts.get("error", 0),
        "summary": summary,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold-runs", type=int, default=3, help="runs from empty caches")
    parser.add_argument(
        "--edit", default="agents/mcts.py", help="the file edited before the warm run"
    )
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    edited = ROOT / args.edit
    if not edited.resolve().is_relative_to(ROOT.resolve()) or not edited.exists():
        parser.error(f"--edit: no file {args.edit} in the repository")
    if (why := refusal(edited)) is not None:
        parser.error(f"--edit: {why}")
    runs = []
    with tempfile.TemporaryDirectory() as folder:
        for n in range(args.cold_runs):
            caches = Path(folder) / f"cold_{n}"
            runs.append(run_suite(caches, f"cold {n + 1}"))
        original = edited.read_bytes()
        try:
            write_atomically(
                edited, original + b"\n# an edit: the warm run after changing this file\n"
            )
            runs.append(run_suite(caches, f"warm, {args.edit} edited"))
        finally:
            write_atomically(edited, original)
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    record = {
        "date": datetime.date.today().isoformat(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
        "command": shlex.join(["python", "benchmarks/test_times.py", *sys.argv[1:]]),
        "commit": commit,
        "test_command": "python -m pytest -q -n auto",
        "runs": runs,
    }
    write_atomically(args.out, (json.dumps(record, indent=1) + "\n").encode())


if __name__ == "__main__":
    main()
