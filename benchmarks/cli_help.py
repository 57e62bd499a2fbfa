"""How long ``mancala --help`` takes, as a whole process, beside the floor under it.

Each run starts a fresh process and times it from outside: its wall time (start to exit) and
its CPU time (user + system, the operating system's account of the finished child). The
commands take turns, so a machine whose load drifts slows them alike; the minimum, median and
maximum of each are written with the date, the machine and its load. The floor is
``python -c "import mancala_env"``: the console script imports the package before the command
line, so the help cannot be faster than the package's import.

    python benchmarks/cli_help.py --runs 21
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from mancala_env.machine import describe_machine
from mancala_env.outputs import write_atomically

RESULTS = Path(__file__).parent / "results" / "cli_help.json"


def commands() -> dict[str, list[str]]:
    """What is timed, by name: the help, the package's import under it, and the interpreter."""
    script = Path(sys.executable).parent / "mancala"
    return {
        "mancala --help": [str(script), "--help"],
        "python -c 'import mancala_env'": [sys.executable, "-c", "import mancala_env"],
        "python -c pass": [sys.executable, "-c", "pass"],
    }


def timed(argv: list[str]) -> tuple[float, float]:
    """One run of `argv`: its wall seconds and its CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def spread(values: list[float]) -> dict[str, float]:
    return {
        "min": round(min(values), 3),
        "median": round(statistics.median(values), 3),
        "max": round(max(values), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="runs of each command")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    timed_commands = commands()
    for argv in timed_commands.values():  # a first run fills the file caches; not counted
        timed(argv)
    load = os.getloadavg()[0]
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in timed_commands}
    for _ in range(args.runs):
        for name, argv in timed_commands.items():
            times[name].append(timed(argv))
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=RESULTS.parent
    ).stdout.strip()
    result = {
        "date": datetime.date.today().isoformat(),
        "machine": f"{describe_machine()}, Python {platform.python_version()}",
        "load_average_at_start": round(load, 2),
        "commit": commit,
        "command": "python benchmarks/cli_help.py --runs " + str(args.runs),
        "runs": args.runs,
        "seconds": {
            name: {
                "wall": spread([wall for wall, _ in runs]),
                "cpu": spread([cpu for _, cpu in runs]),
            }
            for name, runs in times.items()
        },
    }
    write_atomically(args.out, (json.dumps(result, indent=1) + "\n").encode())
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
