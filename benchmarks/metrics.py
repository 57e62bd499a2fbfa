"""Measure every rule set's metrics (`mancala_env.agents.metrics`) under random and strong play.

    python benchmarks/metrics.py [--random-games 200] [--strong-games 40]
                                 [--agent alphabeta:depth=4] [--seed 0]
    python benchmarks/metrics.py --report     # the Markdown table docs/metrics.md renders

Each rule set under its sources' readings plays `--random-games` games of random play and
`--strong-games` games of the `--agent` in both seats, after four random opening plies; the
results go to benchmarks/results/metrics.json with the date, the machine, the command, the games
and the agents, written after every rule set: a second run with the same settings goes on from
where the first stopped.
"""

from __future__ import annotations

import argparse
import datetime
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from mancala_env.agents.metrics import (
    OPENING_PLIES,
    RANDOM_PLAY,
    STRONG_PLAY,
    markdown_report,
    measure,
)
from mancala_env.machine import describe_machine
from mancala_env.outputs import write_atomically
from mancala_env.readers import parse_json, read_bytes
from mancala_env.variants import VARIANTS

RESULTS = Path(__file__).parent / "results" / "metrics.json"
MAX_RESULTS_BYTES = 16 << 20  # every rule set's metrics: some tens of kB


def settings(args: argparse.Namespace) -> dict[str, Any]:
    """What decides the numbers: a saved run with other settings is started again."""
    return {
        "plays": {RANDOM_PLAY: args.random_games, args.agent: args.strong_games},
        "opening_plies": OPENING_PLIES,
        "seed": args.seed,
    }


def load(path: Path, wanted: dict[str, Any]) -> dict[str, Any]:
    if path.exists():
        saved = parse_json(read_bytes(path, MAX_RESULTS_BYTES), path)
        if saved.get("settings") == wanted:
            return saved
    return {"settings": wanted, "variants": {}}


def run(args: argparse.Namespace) -> None:
    results = load(args.out, settings(args))
    plays = results["settings"]["plays"]
    for variant in sorted(VARIANTS):
        if variant in results["variants"]:
            continue
        began = time.perf_counter()
        rows = {
            play: measure(variant, play, games, seed=args.seed).to_json()
            for play, games in plays.items()
        }
        results["variants"][variant] = rows
        results["date"] = datetime.date.today().isoformat()
        results["machine"] = describe_machine()
        results["command"] = shlex.join(["python", "benchmarks/metrics.py", *sys.argv[1:]])
        results["seconds"] = round(results.get("seconds", 0) + time.perf_counter() - began, 1)
        write_atomically(args.out, (json.dumps(results, indent=1) + "\n").encode())
        print(f"{variant}: {time.perf_counter() - began:.0f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random-games", type=int, default=200, help="games of random play")
    parser.add_argument("--strong-games", type=int, default=40, help="games of --agent")
    parser.add_argument("--agent", default=STRONG_PLAY, help="the strong play (an agent spec)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--report", action="store_true", help="print the table of --out")
    args = parser.parse_args()
    if args.report:
        print(markdown_report(parse_json(read_bytes(args.out, MAX_RESULTS_BYTES), args.out)))
    else:
        run(args)


if __name__ == "__main__":
    main()
