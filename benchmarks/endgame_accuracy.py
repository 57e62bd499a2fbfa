"""Score agents against a rule set's endgame database: each agent's moves in random positions
of 3 to N seeds (`mancala_env.agents.accuracy.measure_accuracy`, as ``mancala accuracy`` runs
it), written to ``benchmarks/results/endgame_accuracy_VARIANT.json``.

    nice -n 19 python benchmarks/endgame_accuracy.py --variant ayoayo --db endgames/ayoayo \\
        --max-seeds 15 --positions 260 --agents random greedy alphabeta:depth=4 az:ayoayo

An agent already in the file is scored again and its row replaced; the others stay, each with
the date, machine and command that measured it. Agents join a file only on its positions (the
same seed counts, number of positions and seed), so every row of a table scores the same moves'
positions; the databases' values are exact, so any database holding those seed counts will do.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from datetime import date
from pathlib import Path

from mancala_env.agents import load_agent
from mancala_env.agents.accuracy import MIN_SEEDS, measure_accuracy
from mancala_env.arguments import input_folder, integer, output_file
from mancala_env.arguments import seed as seed_type
from mancala_env.cli.endgames import MAX_POSITIONS
from mancala_env.endgame.database import EndgameDatabase
from mancala_env.machine import describe_machine
from mancala_env.outputs import refusal
from mancala_env.readers import ReadError, parse_json, read_bytes
from mancala_env.train.files import write_json
from mancala_env.variants import get_variant

RESULTS = Path(__file__).parent / "results"
AGENTS = ("random", "greedy", "alphabeta:depth=2", "alphabeta:depth=4")
MAX_RESULTS_BYTES = 1 << 20  # a file of ten agents is about 40 KB
POSITIONS_KEYS = ("variant", "max_seeds", "positions", "seed")


def read_results(out: Path, positions: dict[str, object]) -> dict:
    """The results file `out` to add agents to (a new one when there is none); a file that
    scores other positions ends the run with one line saying which."""
    if not out.exists():
        return {**positions, "agents": {}}
    try:
        record = parse_json(read_bytes(out, MAX_RESULTS_BYTES), out)
    except ReadError as error:
        sys.exit(f"endgame_accuracy: {error}")
    if not isinstance(record, dict) or not isinstance(record.get("agents"), dict):
        sys.exit(f"endgame_accuracy: {out} is not an accuracy file (it has no agents)")
    differ = [
        f"{key} {record.get(key)!r}, not {positions[key]!r}"
        for key in POSITIONS_KEYS
        if record.get(key) != positions[key]
    ]
    if differ:
        sys.exit(
            f"endgame_accuracy: {out} scores other positions ({'; '.join(differ)}): run "
            "with its --variant, --max-seeds, --positions and --seed, or give another --out"
        )
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", required=True)
    parser.add_argument(
        "--db", type=input_folder, required=True, help="the rule set's endgame database folder"
    )
    parser.add_argument("--max-seeds", type=integer(MIN_SEEDS), required=True)
    parser.add_argument("--positions", type=integer(1, MAX_POSITIONS), required=True)
    parser.add_argument("--seed", type=seed_type, default=0)
    parser.add_argument("--agents", nargs="+", default=list(AGENTS))
    parser.add_argument(
        "--out", type=output_file, help="default results/endgame_accuracy_VARIANT.json"
    )
    args = parser.parse_args()
    out = Path(args.out) if args.out else RESULTS / f"endgame_accuracy_{args.variant}.json"
    why = refusal(out)  # the default path: --out's type has refused a link or device given
    if why:
        sys.exit(f"endgame_accuracy: {why}")
    positions = {key: getattr(args, key) for key in POSITIONS_KEYS}
    record = read_results(out, positions)
    try:
        variant = get_variant(args.variant)
        options = variant.options()
        database = EndgameDatabase(args.db, variant, options)
        agents = [
            (spec, load_agent(spec, variant=args.variant, seed=args.seed)) for spec in args.agents
        ]
    except ValueError as error:  # an unknown rule set or agent, a database refused
        sys.exit(f"endgame_accuracy: {error}")
    provenance = {
        "date": date.today().isoformat(),
        "machine": describe_machine(),
        "command": shlex.join(["python", "benchmarks/endgame_accuracy.py", *sys.argv[1:]]),
        "database": f"seed counts 0 to {database.max_seeds}, default options",
    }
    for spec, agent in agents:
        began = time.perf_counter()
        try:
            rows = measure_accuracy(
                agent, database, variant, options, args.max_seeds, args.positions, args.seed
            )
        except ValueError as error:  # seed counts the database lacks, too few positions
            sys.exit(f"endgame_accuracy: {error}")
        seconds = round(time.perf_counter() - began, 1)
        record["agents"][spec] = {
            "rows": [row.as_dict() for row in rows],
            "seconds": seconds,
            **provenance,
        }
        write_json(out, record)
        print(spec, rows[-1].keeps_cell(), rows[-1].lost_cell(), flush=True)


if __name__ == "__main__":
    main()
