"""Score a few of Ayoayo's agents against its endgame database: each agent's moves in random
positions of 3 to N seeds (`mancala_env.agents.accuracy.measure_accuracy`, as
``mancala accuracy`` runs it), written to a results file.

    nice -n 19 python benchmarks/endgame_accuracy_ayoayo.py --db endgames/ayoayo \\
        --max-seeds 15 --positions 390
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import date
from pathlib import Path

from mancala_env.agents import load_agent
from mancala_env.agents.accuracy import measure_accuracy
from mancala_env.endgame.database import EndgameDatabase
from mancala_env.machine import describe_machine
from mancala_env.variants import get_variant

RESULTS = Path(__file__).parent / "results" / "endgame_accuracy_ayoayo.json"
AGENTS = ("random", "greedy", "alphabeta:depth=2", "alphabeta:depth=4")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--max-seeds", type=int, required=True)
    parser.add_argument("--positions", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--agents", nargs="+", default=list(AGENTS))
    args = parser.parse_args()
    variant = get_variant("ayoayo")
    options = variant.options()
    database = EndgameDatabase(args.db, variant, options)
    record = {
        "command": f"python benchmarks/endgame_accuracy_ayoayo.py --db DIR --max-seeds "
        f"{args.max_seeds} --positions {args.positions} --seed {args.seed}",
        "machine": f"{describe_machine()}, shared with other jobs",
        "date": date.today().isoformat(),
        "database": f"ayoayo, seed counts 0 to {database.max_seeds}, default options",
        "agents": {},
    }
    for spec in args.agents:
        start = time.perf_counter()
        agent = load_agent(spec, variant="ayoayo", seed=args.seed)
        rows = measure_accuracy(
            agent, database, variant, options, args.max_seeds, args.positions, args.seed
        )
        record["agents"][spec] = {
            "rows": [row.as_dict() for row in rows],
            "seconds": round(time.perf_counter() - start, 1),
        }
        RESULTS.write_text(json.dumps(record, indent=1) + "\n")
        print(spec, rows[-1].keeps_cell(), rows[-1].lost_cell(), flush=True)


if __name__ == "__main__":
    main()
