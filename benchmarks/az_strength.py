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

`--add-missing` plays only step 1's opponents that `--out` holds no row for (a file measured
with fewer `--depths`, or without ``mcts``), as many games each as the file's rows and from its
seed unless `--games` and `--seed` say otherwise, and adds their rows to it, each addition with
its own date, machine and command; the file's other rows stay as they were measured.
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
from mancala_env.arguments import SEED_MAX, integer, output_file, real
from mancala_env.arguments import seed as seed_type
from mancala_env.machine import describe_machine
from mancala_env.readers import ReadError, parse_json, read_bytes
from mancala_env.train.files import write_json

DEPTHS = range(1, 7)
GAMES = 400
SEED = 11


def baselines_to(depth: int) -> list[str]:
    """The opponents without search, alpha-beta to `depth`, in a strength file's row order."""
    return ["random", "greedy", *(f"alphabeta:depth={d}" for d in DEPTHS if d <= depth), "mcts"]


BASELINES = baselines_to(max(DEPTHS))
MAX_RESULTS_BYTES = 1 << 20  # a strength file is about 1 KB


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
    parser.add_argument(
        "--games", type=integer(2), help=f"default {GAMES}; with --add-missing, the file's"
    )
    parser.add_argument("--search-games", type=integer(2), default=200)
    parser.add_argument(
        "--time", type=real(0.001, 60), default=0.1, help="seconds a move, both sides"
    )
    parser.add_argument("--depths", type=int, default=max(DEPTHS), choices=DEPTHS)
    parser.add_argument("--workers", type=integer(1), default=2)
    parser.add_argument(
        "--seed", type=seed_type, help=f"default {SEED}; with --add-missing, the file's"
    )
    parser.add_argument(
        "--out", type=output_file, help="default benchmarks/results/az_VARIANT.json"
    )
    parser.add_argument(
        "--add-missing",
        action="store_true",
        help="play only the opponents without search that --out has no row for, and add them "
        "(--search-games and --time play no part)",
    )
    args = parser.parse_args()
    out = Path(args.out or f"benchmarks/results/az_{args.variant}.json")
    baselines = baselines_to(args.depths)
    if args.add_missing:
        add_missing(args, out, baselines)
    else:
        measure(args, out, baselines)


def provenance(began: float, script: str = "benchmarks/az_strength.py") -> dict[str, str | float]:
    """When, where and by what command (`script` and this run's arguments) a measurement ran,
    and for how long."""
    return {
        "date": datetime.date.today().isoformat(),
        "command": shlex.join(["python", script, *sys.argv[1:]]),
        "machine": describe_machine(),
        "seconds": round(time.time() - began, 1),
    }


def without_search(
    args: argparse.Namespace, out: Path, baselines: list[str], games: int, seed: int
) -> dict[str, list[float]]:
    """Step 1: the network's most likely legal move against each of `baselines`, its games
    stored beside `out`."""
    store = Path(f"{out.with_suffix('')}_no_search.sqlite")
    return gauntlet(args.variant, f"az:{args.network}", baselines, games, args.workers, store, seed)


def measure(args: argparse.Namespace, out: Path, baselines: list[str]) -> None:
    """Both steps, written to `out` as a new file."""
    began = time.time()
    games = GAMES if args.games is None else args.games
    seed = SEED if args.seed is None else args.seed
    plain = f"az:{args.network}"
    no_search = without_search(args, out, baselines, games, seed)
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
        Path(f"{out.with_suffix('')}_search.sqlite"),
        seed,
        suite,
    )
    print_rows({plain: no_search, searching: search})
    done = provenance(began)
    write_json(  # the keys in the order the strength files have always had them
        out,
        {
            "network": args.network,
            "variant": args.variant,
            "date": done["date"],
            "command": done["command"],
            "seed": seed,
            "machine": done["machine"],
            "search_openings": "shipped suite" if suite else "random lines",
            "workers": args.workers,
            "no_search": no_search,
            "search": {"learner": searching, "scores": search},
            "seconds": done["seconds"],
        },
    )


def read_strength(out: Path, network: str, variant: str) -> dict:
    """The strength file `out` of `network` on `variant`; a file of anything else ends the
    run with one line saying what it is."""
    if not out.is_file():
        sys.exit(f"--add-missing: {out} is not a strength file yet; measure without it first")
    try:
        record = parse_json(read_bytes(out, MAX_RESULTS_BYTES), out)
    except ReadError as error:
        sys.exit(f"--add-missing: {error}")
    rows = record.get("no_search") if isinstance(record, dict) else None
    valid = isinstance(rows, dict) and all(
        isinstance(row, list) and len(row) == 4 and isinstance(row[3], int) for row in rows.values()
    )
    seed = record.get("seed", SEED) if isinstance(record, dict) else None
    if (
        not valid
        or not rows
        or not isinstance(record.get("added", []), list)
        or not (type(seed) is int and 0 <= seed <= SEED_MAX)
    ):
        sys.exit(
            f"--add-missing: {out} is not a strength file (its no_search scores, additions or "
            "seed are not what benchmarks/az_strength.py writes)"
        )
    if (record.get("network"), record.get("variant")) != (network, variant):
        sys.exit(
            f"--add-missing: {out} measures network {record.get('network')!r} on "
            f"{record.get('variant')!r}, not {network!r} on {variant!r}"
        )
    return record


def add_missing(args: argparse.Namespace, out: Path, baselines: list[str]) -> None:
    """Step 1 against the baselines `out` has no row for, as many games a baseline as the
    file's first row and from its seed unless told otherwise; their rows join the file's in
    `BASELINES`' order, and the addition is recorded under ``added``."""
    began = time.time()
    record = read_strength(out, args.network, args.variant)
    held = record["no_search"]
    missing = [baseline for baseline in baselines if baseline not in held]
    if not missing:
        print(f"{out} already holds a row for each of {', '.join(baselines)}")
        return
    games = next(iter(held.values()))[3] if args.games is None else args.games
    seed = record.get("seed", SEED) if args.seed is None else args.seed
    plain = f"az:{args.network}"
    scores = without_search(args, out, missing, games, seed)
    print_rows({plain: scores})
    order = BASELINES + [baseline for baseline in held if baseline not in BASELINES]
    merged = {**held, **scores}
    record["no_search"] = {baseline: merged[baseline] for baseline in order if baseline in merged}
    addition = {"opponents": missing, "seed": seed, "workers": args.workers}
    record["added"] = [*record.get("added", []), {**addition, **provenance(began)}]
    write_json(out, record)


def print_rows(scores_by_learner: dict[str, dict[str, list[float]]]) -> None:
    print("| agent | against | games | score | 95% interval |")
    print("|---|---|---|---|---|")
    for learner, scores in scores_by_learner.items():
        for baseline, (score, low, high, games) in scores.items():
            print(f"| `{learner}` | `{baseline}` | {games} | {score:.3f} | {low:.3f}–{high:.3f} |")


if __name__ == "__main__":
    main()
