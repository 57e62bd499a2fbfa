"""How strong a trained PPO policy is without search: its model against fixed baselines from the
rule set's shipped opening suite, both seats.

    python benchmarks/ppo_strength.py RUN [--model best|final] [--games 100]
                                      [--opponents greedy alphabeta:depth=2] [--workers 2]
                                      [--out benchmarks/results/ppo_NAME.json]

RUN is a training run's folder (what ``mancala train --out`` wrote). Its ``MODEL_model.npz``
(a network, played as ``az:``) or ``MODEL_model.zip`` (a MaskablePPO model, played as ``ppo:``),
its most likely legal move either way, plays `--games` games against each
opponent, from the lines of the rule set's shipped suite (or random four-move lines for a rule
set without one), each line from both seats (`az_strength.gauntlet`). The games are stored in
a SQLite file beside `--out` (an interrupted measurement resumes); the scores with 95% Wilson
intervals are printed as Markdown rows and written to `--out` as JSON with the date, the
machine, the command and the run's algorithm, steps, minutes and settings (from RUN/run.json).
"""

from __future__ import annotations

import argparse
import datetime
import shlex
import sys
import time
from pathlib import Path

from az_strength import gauntlet, print_rows

from mancala_env.agents.tournament.openings import read_suite, shipped_suite
from mancala_env.arguments import integer, output_file
from mancala_env.machine import describe_machine
from mancala_env.readers import parse_json, read_bytes
from mancala_env.train.files import write_json

OPPONENTS = ["greedy", "alphabeta:depth=2"]
SEED = 11
MAX_RUN_BYTES = 1 << 20  # a run.json is some kB


def _learner(run: Path, model: str) -> str:
    """The agent spec of the run's `model` (``best`` or ``final``): a network's or a
    MaskablePPO model's."""
    for suffix, agent in ((".npz", "az"), (".zip", "ppo")):
        path = run / f"{model}_model{suffix}"
        if path.is_file():
            return f"{agent}:{path}"
    sys.exit(f"ppo_strength: {run} has no {model}_model.npz or {model}_model.zip")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="a training run's folder")
    parser.add_argument("--model", choices=("best", "final"), default="best")
    parser.add_argument("--games", type=integer(2), default=100, help="even; per opponent")
    parser.add_argument("--opponents", nargs="+", default=OPPONENTS)
    parser.add_argument("--workers", type=integer(1), default=2)
    parser.add_argument("--seed", type=integer(0), default=SEED)
    parser.add_argument("--out", type=output_file, help="default benchmarks/results/ppo_RUN.json")
    args = parser.parse_args()
    began = time.time()
    run = parse_json(read_bytes(args.run / "run.json", MAX_RUN_BYTES), args.run / "run.json")
    variant = run["variant"]
    out = Path(args.out or f"benchmarks/results/ppo_{args.run.name}.json")
    shipped = shipped_suite(variant)
    suite = read_suite(shipped, variant) if shipped else None
    learner = _learner(args.run, args.model)
    store = Path(f"{out.with_suffix('')}.sqlite")
    scores = gauntlet(
        variant, learner, args.opponents, args.games, args.workers, store, args.seed, suite
    )
    print_rows({learner: scores})
    write_json(
        out,
        {
            "variant": variant,
            "date": datetime.date.today().isoformat(),
            "command": shlex.join(["python", "benchmarks/ppo_strength.py", *sys.argv[1:]]),
            "seed": args.seed,
            "machine": describe_machine(),
            "model": f"{args.model}_model",
            "openings": "shipped suite" if suite else "random lines",
            "workers": args.workers,
            "training": {
                "algorithm": run.get("algorithm", "ppo"),
                "timesteps": run["timesteps"],
                "minutes": round(run["seconds"] / 60, 1),
                "config": run["config"],
            },
            "scores": scores,
            "seconds": round(time.time() - began, 1),
        },
    )


if __name__ == "__main__":
    main()
