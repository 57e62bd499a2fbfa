"""How strong a policy-value network is: without search against fixed-depth alpha-beta, and
searching with it against alpha-beta at equal thinking time.

    python benchmarks/az_strength.py [--network oware] [--variant oware] [--games 400]
                                     [--search-games 200] [--time 0.1] [--workers 2]
                                     [--out benchmarks/results/az_VARIANT.json]

1. A gauntlet of ``az:NETWORK`` (its most likely legal move, no search) against ``random``,
   ``greedy``, ``alphabeta:depth=1`` to ``depth=6`` and ``mcts`` (its default budget):
   `--games` games against each, from `--games`/2 random four-move opening lines, each line
   played from both seats (`--depths` plays fewer depths, for a rule set whose deep searches
   are slow).
2. ``az:NETWORK,time=T`` (PUCT search) against ``alphabeta:time=T`` (iterative deepening), the
   same seconds a move: `--search-games` games from the rule set's shipped opening suite (or,
   for a rule set without one, random lines), both seats.

The games are stored in SQLite files beside `--out` (an interrupted measurement resumes); the
scores with 95% Wilson intervals are printed as Markdown rows and written to `--out` as JSON
with the date, the machine and the command. The documentation's strength page
(`docs/strength.md`) is rendered from every ``az_*.json`` file there.
"""

from __future__ import annotations

import argparse
import datetime
import shlex
import sys
import time
from pathlib import Path

from mancala_env.agents.tournament import TournamentConfig, run_tournament, wilson
from mancala_env.agents.tournament.openings import OpeningSuite, read_suite, shipped_suite
from mancala_env.machine import describe_machine
from mancala_env.train.files import write_json

DEPTHS = range(1, 7)


def gauntlet(
    variant: str,
    learner: str,
    baselines: list[str],
    games: int,
    workers: int,
    db: Path,
    seed: int,
    suite: OpeningSuite | None = None,
) -> dict[str, list[float]]:
    """The learner's score against each baseline with its 95% interval, and the games: from
    the lines of `suite` (couple k plays line k, modulo their number), else from `games`/2
    random four-move lines."""
    config = TournamentConfig(
        variant,
        (learner, *baselines),
        games_per_pair=games,
        format="gauntlet",
        openings=0 if suite else games // 2,
        opening_plies=suite.plies if suite else 4,
        seed=seed,
        opening_suite=suite,
    )
    result = run_tournament(config, db=db, workers=workers, bootstrap=200, progress=True)
    scores = {}
    for baseline in baselines:
        pair = result.ratings.crosstable[learner, baseline]
        score = pair.points / pair.games
        low, high = wilson(score, pair.games)
        scores[baseline] = [round(score, 4), round(low, 4), round(high, 4), pair.games]
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--network", default="oware", help="a shipped network's name or a file")
    parser.add_argument("--variant", default="oware")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--search-games", type=int, default=200)
    parser.add_argument("--time", type=float, default=0.1, help="seconds a move, both sides")
    parser.add_argument("--depths", type=int, default=max(DEPTHS), choices=DEPTHS)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--out", type=Path, help="default benchmarks/results/az_VARIANT.json")
    args = parser.parse_args()
    out = args.out or Path(f"benchmarks/results/az_{args.variant}.json")
    began = time.time()
    plain = f"az:{args.network}"
    depths = [f"alphabeta:depth={d}" for d in DEPTHS if d <= args.depths]
    baselines = ["random", "greedy", *depths, "mcts"]
    stores = out.with_suffix("")
    no_search = gauntlet(
        args.variant,
        plain,
        baselines,
        args.games,
        args.workers,
        Path(f"{stores}_no_search.sqlite"),
        args.seed,
    )
    shipped = shipped_suite(args.variant)
    suite = read_suite(shipped, args.variant) if shipped else None
    searching = f"az:{args.network},time={args.time}"
    opponent = f"alphabeta:time={args.time}"
    search = gauntlet(
        args.variant,
        searching,
        [opponent],
        args.search_games,
        args.workers,
        Path(f"{stores}_search.sqlite"),
        args.seed,
        suite,
    )
    print("| agent | against | games | score | 95% interval |")
    print("|---|---|---|---|---|")
    for learner, scores in ((plain, no_search), (searching, search)):
        for baseline, (score, low, high, games) in scores.items():
            print(f"| `{learner}` | `{baseline}` | {games} | {score:.3f} | {low:.3f}–{high:.3f} |")
    write_json(
        out,
        {
            "network": args.network,
            "variant": args.variant,
            "date": datetime.date.today().isoformat(),
            "command": shlex.join(["python", "benchmarks/az_strength.py", *sys.argv[1:]]),
            "seed": args.seed,
            "machine": describe_machine(),
            "search_openings": "shipped suite" if suite else "random lines",
            "workers": args.workers,
            "no_search": no_search,
            "search": {"learner": searching, "scores": search},
            "seconds": round(time.time() - began, 1),
        },
    )


if __name__ == "__main__":
    main()
