"""Time the two test loops from empty caches, and the developer's from warm ones after an edit.

    python benchmarks/test_times.py [--cold-runs 3] [--full-runs 1] [--edit agents/mcts.py ...]

The developer's loop is `python -m pytest -q -n auto` (the tests marked `integration` left
out); the full one, CI's, adds `--integration`. Each cold run has the derived modules' folder
(`MANCALA_ENV_CACHE`) and numba's cache (`NUMBA_CACHE_DIR`) in a new empty folder, and no
bytecode of the repository's own modules (their `__pycache__` folders removed): what a fresh
clone has. Python writes bytecode as it does by default (`PYTHONDONTWRITEBYTECODE` is unset for
the runs). Then one run of the developer's loop after a comment line is appended to each
`--edit` file in turn (put back as it was afterwards), each on the last cold run's caches as
that run left them: the loop of a developer who changed one file. Each run's wall and CPU
seconds (its processes' user and system time), its tests and the load average as it began go to
benchmarks/results/test_times.json, with the date, the machine, the command and the commit.
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
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mancala_env.machine import describe_machine
from mancala_env.outputs import refusal, write_atomically

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "test_times.json"
DEVELOPER = ("python", "-m", "pytest", "-q", "-n", "auto")
FULL = (*DEVELOPER, "--integration")
BYTECODE_ROOTS = ("mancala_env", "agents", "train", "tests", "benchmarks", "docs")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _remove_bytecode() -> None:
    """Remove the repository's own `__pycache__` folders (a fresh clone has none)."""
    for root in BYTECODE_ROOTS:
        for folder in sorted((ROOT / root).rglob("__pycache__"), reverse=True):
            if folder.is_dir() and not folder.is_symlink():
                shutil.rmtree(folder)


def run_suite(command: tuple[str, ...], caches: Path, label: str) -> dict[str, Any]:
    """One run of `command` with its caches in `caches`: seconds, tests and load."""
    env = {
        **os.environ,
        "MANCALA_ENV_CACHE": str(caches / "derived"),
        "NUMBA_CACHE_DIR": str(caches / "numba"),
    }
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    load = os.getloadavg()[0]
    cpu, began = _children_cpu(), time.perf_counter()
    done = subprocess.run(
        [sys.executable, *command[1:]], cwd=ROOT, env=env, capture_output=True, text=True
    )
    wall, cpu = time.perf_counter() - began, _children_cpu() - cpu
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    counts = {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|error)", summary)}
    print(f"{label}: {wall:.0f} s wall, {cpu:.0f} s CPU: {summary}", flush=True)
    return {
        "run": label,
        "command": shlex.join(command),
        "wall": round(wall, 1),
        "cpu": round(cpu, 1),
        "load_average_at_start": round(load, 2),
        "passed": counts.get("passed", 0),
        "failed": counts.get("failed", 0) + counts.get("error", 0),
        "summary": summary,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold-runs", type=int, default=3, help="developer's loop, empty caches")
    parser.add_argument("--full-runs", type=int, default=1, help="full loop, empty caches")
    parser.add_argument(
        "--edit",
        action="append",
        help="a file edited before a warm run of the developer's loop (repeatable; default "
        "agents/mcts.py and train/run.py)",
    )
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    edits = args.edit or ["agents/mcts.py", "train/run.py"]
    if args.cold_runs < 1 or args.full_runs < 0:
        parser.error(
            "--cold-runs: at least 1 (the warm runs use its caches); --full-runs: 0 or more"
        )
    for edit in edits:
        edited = ROOT / edit
        if not edited.resolve().is_relative_to(ROOT.resolve()) or not edited.exists():
            parser.error(f"--edit: no file {edit} in the repository")
        if (why := refusal(edited)) is not None:
            parser.error(f"--edit: {why}")
    runs = []
    with tempfile.TemporaryDirectory() as folder:
        for n in range(args.full_runs):
            _remove_bytecode()
            runs.append(run_suite(FULL, Path(folder) / f"full_{n}", f"full, cold {n + 1}"))
        for n in range(args.cold_runs):
            _remove_bytecode()
            caches = Path(folder) / f"cold_{n}"
            runs.append(run_suite(DEVELOPER, caches, f"developer's, cold {n + 1}"))
        # each edited run starts from the cold run's caches, put back where they were: the
        # kernels an earlier edit recompiled (its file, put back, would recompile them again)
        # are warm for every run, and numba keys the cache of a derived module (a file in
        # MANCALA_ENV_CACHE) by its folder's path, so a copy elsewhere would compile them all
        cold = Path(folder) / "cold_caches"
        shutil.copytree(caches, cold, symlinks=True)
        for edit in edits:
            shutil.rmtree(caches)
            shutil.copytree(cold, caches, symlinks=True)
            edited = ROOT / edit
            original = edited.read_bytes()
            try:
                write_atomically(
                    edited, original + b"\n# an edit: the warm run after changing this file\n"
                )
                runs.append(run_suite(DEVELOPER, caches, f"developer's, warm, {edit} edited"))
            finally:
                write_atomically(edited, original)
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    record = {
        "date": datetime.date.today().isoformat(),
        "machine": f"{describe_machine()}, Python {platform.python_version()}",
        "command": shlex.join(["python", "benchmarks/test_times.py", *sys.argv[1:]]),
        "commit": commit,
        "runs": runs,
    }
    write_atomically(args.out, (json.dumps(record, indent=1) + "\n").encode())


if __name__ == "__main__":
    main()
