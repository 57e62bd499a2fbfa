"""Gumbel AlphaZero's search against PUCT at small budgets: which search a network plays (and
self-play trains with) better at a few simulations a move.

    python benchmarks/gumbel_search.py [--network oware] [--variant oware]
                                       [--simulations 16 32] [--games 200] [--workers 2]
                                       [--out benchmarks/results/gumbel_search_VARIANT.json]

For each budget N, ``az:NETWORK,simulations=N,search=gumbel`` plays ``az:NETWORK,simulations=N``
(PUCT) `--games` games from the rule set's shipped opening suite, each line from both seats
(`az_strength.gauntlet`); then the Gumbel search without its noise (``gumbel_scale=0``, the
search's own best move) plays PUCT once from each line and seat: both are then deterministic,
so more games would repeat these. The games are stored in SQLite files beside `--out` (an
interrupted measurement resumes); the Gumbel side's scores with 95% Wilson intervals are printed
as Markdown rows and written to `--out` as JSON with the date, the machine and the command.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from az_strength import gauntlet, print_rows, provenance

from mancala_env.agents.tournament.openings import read_suite, shipped_suite
from mancala_env.arguments import integer, output_file
from mancala_env.train.files import write_json

SEED = 11


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--network", default="oware", help="a shipped network's name or a file")
    parser.add_argument("--variant", default="oware")
    parser.add_argument("--simulations", type=integer(1), nargs="+", default=[16, 32])
    parser.add_argument("--games", type=integer(2), default=200, help="with the Gumbel noise")
    parser.add_argument("--workers", type=integer(1), default=2)
    parser.add_argument("--out", type=output_file)
    args = parser.parse_args()
    out = Path(args.out or f"benchmarks/results/gumbel_search_{args.variant}.json")
    shipped = shipped_suite(args.variant)
    if shipped is None:
        raise SystemExit(f"{args.variant} has no shipped opening suite to play from")
    suite = read_suite(shipped, args.variant)
    began = time.time()
    rows: dict[str, dict[str, list[float]]] = {}
    for simulations in args.simulations:
        puct = f"az:{args.network},simulations={simulations}"
        noisy, plain = (
            (f"{puct},search=gumbel", "noise"),
            (f"{puct},search=gumbel,gumbel_scale=0", "no_noise"),
        )
        for (gumbel, kind), games in ((noisy, args.games), (plain, 2 * len(suite.entries))):
            store = out.with_name(f"{out.stem}_{simulations}_{kind}.sqlite")
            rows[gumbel] = gauntlet(
                args.variant, gumbel, [puct], games, args.workers, store, SEED, suite
            )
    print_rows(rows)
    done = provenance(began, "benchmarks/gumbel_search.py")
    write_json(
        out,
        {
            "network": args.network,
            "variant": args.variant,
            "date": done["date"],
            "command": done["command"],
            "seed": SEED,
            "machine": done["machine"],
            "openings": f"shipped suite ({len(suite.entries)} lines, both seats)",
            "workers": args.workers,
            "scores": rows,
            "seconds": done["seconds"],
        },
    )


if __name__ == "__main__":
    main()
