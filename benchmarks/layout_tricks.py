"""What the rule sets' own state layouts and the kept lifts earned, measured in one run.

Until this measurement the derived kernels laid a rule set's state out for its own board and
action space (`layout.own_layout`, with conversion kernels to the shared layout) and, for the
loops stepping one state at a time, kept the result of every lift tried when a turn began.
This script checks out the commit that had both (`--commit`), adds a switch that turns either
off, and runs `mancala bench` on each rule set under the four combinations, interleaved,
`--rounds` times after a warm-up run (which compiles): the best rate of each row is reported.

    python benchmarks/layout_tricks.py [--commit 69102d8] [--rounds 2] [--variant NAME ...]

Results go to benchmarks/results/layout_tricks.json (rates by variant, row and combination).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from mancala_env.outputs import write_atomically

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "layout_tricks.json"
COMBINATIONS = {"both tricks": "", "shared layout": "shared", "no kept lifts": "nokeep",
                "neither": "both"}  # fmt: skip
VARIANTS = ("oware", "ayoayo", "ncho", "jerin", "mangala", "mighty_men")
ROWS = ("engine_1_core", "batched", "vec_env", "mcts")
SWITCH = """    import os

    experiment = os.environ.get("LAYOUT_EXPERIMENT", "")
    if experiment in ("nokeep", "both"):
        keep = False
    relays = keep and int(params[P_CONTINUE]) != CONTINUE_NEVER
    if experiment in ("shared", "both"):
        kept = int(params[P_LIFT_ACTIONS]) if relays else 0
        return state_layout(MAX_PITS, MAX_ACTIONS, True, kept)
"""
SWITCHED = "    relays = keep and int(params[P_CONTINUE]) != CONTINUE_NEVER\n"


def checkout(commit: str, folder: Path) -> None:
    """A work tree of `commit` in `folder`, its layout given the switch."""
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-f", str(folder), commit],
                   check=True, capture_output=True)  # fmt: skip
    layout = folder / "mancala_env" / "engine" / "layout.py"
    source = layout.read_text()
    assert SWITCHED in source, "the commit has no own layouts to switch off"
    layout.write_text(source.replace(SWITCHED, SWITCH, 1))


def bench(folder: Path, variant: str, experiment: str, caches: Path) -> dict[str, float]:
    env = {
        **os.environ,
        "LAYOUT_EXPERIMENT": experiment,
        "MANCALA_ENV_CACHE": str(caches / "derived"),
        "NUMBA_CACHE_DIR": str(caches / "numba"),
        "PYTHONPATH": str(folder),
    }
    command = [sys.executable, "-m", "mancala_env", "bench", "--variant", variant, "--json",
               "--seconds", "1", "--slowest-moves", "0"]  # fmt: skip
    done = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, check=True)
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return {row["benchmark"]: row["moves_per_s"] for row in rows if row["benchmark"] in ROWS}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commit", default="69102d8")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--variant", action="append", default=[])
    args = parser.parse_args()
    results: dict = {"commit": args.commit, "rates": {}}
    with tempfile.TemporaryDirectory() as temporary:
        folder, caches = Path(temporary) / "tree", Path(temporary) / "caches"
        checkout(args.commit, folder)
        try:
            for variant in args.variant or VARIANTS:
                rates = results["rates"].setdefault(variant, {})
                for round_ in range(args.rounds + 1):  # the first compiles
                    for name, experiment in COMBINATIONS.items():
                        measured = bench(folder, variant, experiment, caches)
                        if round_ == 0:
                            continue
                        for row, rate in measured.items():
                            best = rates.setdefault(row, {})
                            best[name] = max(best.get(name, 0), rate)
                print(variant, json.dumps(rates), flush=True)
                write_atomically(RESULTS, (json.dumps(results, indent=1) + "\n").encode())
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "-f", str(folder)],
                           check=False)  # fmt: skip
    print(f"{'rule set':<12} {'row':<14} " + " ".join(f"{n:>14}" for n in COMBINATIONS))
    for variant, rows in results["rates"].items():
        for row, by_name in rows.items():
            cells = " ".join(f"{by_name.get(n, 0):>14,.0f}" for n in COMBINATIONS)
            print(f"{variant:<12} {row:<14} {cells}")


if __name__ == "__main__":
    main()
