"""How strong the trained agents are: a round robin of each run's model against the baselines.

    python benchmarks/trained.py runs/oware runs/ayoayo runs/obridjie [--games-per-pair 100]
                                 [--model best|final] [--workers 2]

For each training run folder (what `mancala train --out` wrote), the run's model plays
`random`, `greedy` and `alphabeta:depth=2` in a round robin (seats swapped on shared seeds),
stored in RUN/results.sqlite (so an interrupted measurement resumes). Prints one Markdown table
row per run: the training budget and wall time (from RUN/run.json), the model's Bradley-Terry
rating with its 95% interval, and its score against each baseline with the Wilson interval.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from mancala_env.agents.tournament import TournamentConfig, run_tournament, wilson
from mancala_env.readers import parse_json, read_bytes

BASELINES = ("random", "greedy", "alphabeta:depth=2")
MAX_RUN_BYTES = 1 << 20  # a run.json is some kB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", help="training run folders")
    parser.add_argument("--games-per-pair", type=int, default=100)
    parser.add_argument("--model", choices=("best", "final"), default="best")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    header = ["rule set", "training", "wall time", "model", "rating (95%)"]
    header += [f"vs `{b}`" for b in BASELINES]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for folder in map(Path, args.runs):
        run = parse_json(read_bytes(folder / "run.json", MAX_RUN_BYTES), folder / "run.json")
        model = folder / f"{args.model}_model.zip"
        learner = f"ppo:{model}"
        config = TournamentConfig(
            run["variant"], (learner, *BASELINES), games_per_pair=args.games_per_pair, seed=1
        )
        result = run_tournament(config, db=folder / "results.sqlite", workers=args.workers)
        mine = next(s for s in result.ratings.standings if s.agent == learner)
        row = [
            f"`{run['variant']}`",
            f"{run['timesteps'] / 1e6:.1f}M steps",
            f"{run['seconds'] / 60:.0f} min",
            f"{args.model}_model",
            f"{mine.rating:+.0f} [{mine.low:+.0f}, {mine.high:+.0f}]",
        ]
        for baseline in BASELINES:
            pair = result.ratings.crosstable[learner, baseline]
            score = pair.points / pair.games
            low, high = wilson(score, pair.games)
            row.append(f"{score:.2f} ({low:.2f}–{high:.2f}), {pair.games} games")
        print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
