"""What adjudication by an endgame database saves, and whether it changes the ratings: the same
tournament played out and adjudicated (``mancala tournament --adjudicate DIR``), on Oware and on
Ayoayo, written to ``benchmarks/results/adjudication.json``.

    mancala solve oware --max-seeds 16 --out endgames/oware
    mancala solve ayoayo --max-seeds 10 --out endgames/ayoayo
    nice -n 19 python benchmarks/adjudication.py --oware-db endgames/oware \\
        --ayoayo-db endgames/ayoayo --games-per-pair 10

Both tournaments of a rule set have the same schedule, seeds and agents, so each adjudicated
game is its played-out twin cut where the database knew the result: the plies and seconds saved
are those of the cut games' endings, and a result that differs is one where the agents did not
reach what perfect play reaches from there. The ratings are those of each tournament, with their
95% intervals; ``agree`` says each agent's rating in one lies within its interval in the other,
``intervals_overlap`` that its two intervals overlap. The seconds are those of a machine shared
with other jobs: the games' own (``seconds`` of their records) and each tournament's whole run.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

from mancala_env.agents.tournament import TournamentConfig, run_tournament
from mancala_env.arguments import input_folder, integer, output_file
from mancala_env.endgame.adjudicate import MODES, Adjudication
from mancala_env.endgame.database import EndgameDatabase
from mancala_env.machine import describe_machine
from mancala_env.train.files import write_json
from mancala_env.variants import get_variant

RESULTS = Path(__file__).parent / "results"
AGENTS = ("random", "greedy", "alphabeta:depth=2", "alphabeta:depth=4")


def _ratings(result: Any) -> dict[str, dict[str, float]]:
    return {
        s.agent: {"rating": round(s.rating, 1), "low": round(s.low, 1), "high": round(s.high, 1)}
        for s in result.ratings.standings
    }


def _played(config: TournamentConfig, store: Path) -> tuple[Any, float]:
    began = time.perf_counter()
    result = run_tournament(config, db=store, progress=False)
    return result, time.perf_counter() - began


def compare(variant: str, database: str, games_per_pair: int, mode: str, seed: int) -> dict:
    """The tournament of `AGENTS` on `variant`, played out and adjudicated by `database`."""
    settings = {"games_per_pair": games_per_pair, "seed": seed}
    plain_config = TournamentConfig(variant, AGENTS, **settings)
    judged_config = TournamentConfig(
        variant, AGENTS, adjudication=Adjudication(database, mode), **settings
    )
    with tempfile.TemporaryDirectory() as folder:
        plain, plain_s = _played(plain_config, Path(folder) / "plain.sqlite")
        judged, judged_s = _played(judged_config, Path(folder) / "judged.sqlite")
    twins = {r["game_index"]: r for r in plain.records}
    adjudicated = [r for r in judged.records if r["end_reason"] == "adjudicated"]
    changed = sum(r["winner"] != twins[r["game_index"]]["winner"] for r in adjudicated)
    plies = [sum(r["length"] for r in result.records) for result in (plain, judged)]
    game_s = [sum(r["seconds"] for r in result.records) for result in (plain, judged)]
    rules = get_variant(variant)
    rows = {"played_out": _ratings(plain), "adjudicated": _ratings(judged)}
    agree = {
        agent: all(
            rows[b][agent]["low"] <= rows[a][agent]["rating"] <= rows[b][agent]["high"]
            for a, b in (("played_out", "adjudicated"), ("adjudicated", "played_out"))
        )
        for agent in AGENTS
    }
    overlap = {
        agent: rows["played_out"][agent]["low"] <= rows["adjudicated"][agent]["high"]
        and rows["adjudicated"][agent]["low"] <= rows["played_out"][agent]["high"]
        for agent in AGENTS
    }
    return {
        "variant": variant,
        "database_seeds": EndgameDatabase(database, rules, rules.options()).max_seeds,
        "mode": mode,
        "games": len(judged.records),
        "games_adjudicated": len(adjudicated),
        "adjudicated_results_that_differ_from_play": changed,
        "plies": {"played_out": plies[0], "adjudicated": plies[1], "saved": plies[0] - plies[1]},
        "plies_saved_share": round(1 - plies[1] / plies[0], 3),
        "game_seconds": {
            "played_out": round(game_s[0], 1),
            "adjudicated": round(game_s[1], 1),
            "saved": round(game_s[0] - game_s[1], 1),
        },
        "wall_seconds": {"played_out": round(plain_s, 1), "adjudicated": round(judged_s, 1)},
        "ratings": rows,
        "agree": agree,
        "intervals_overlap": overlap,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--oware-db", type=input_folder, required=True, metavar="DIR")
    parser.add_argument("--ayoayo-db", type=input_folder, required=True, metavar="DIR")
    parser.add_argument("--games-per-pair", type=integer(2, 1000), default=10)
    parser.add_argument("--mode", choices=MODES, default=MODES[0])
    parser.add_argument("--seed", type=integer(0), default=0)
    parser.add_argument("--out", type=output_file, default=RESULTS / "adjudication.json")
    args = parser.parse_args(argv)
    if args.games_per_pair % 2:
        parser.error(f"--games-per-pair must be even, got {args.games_per_pair}")
    record = {
        "date": date.today().isoformat(),
        "machine": describe_machine(),
        "command": shlex.join(["python", "benchmarks/adjudication.py", *sys.argv[1:]]),
        "agents": list(AGENTS),
        "games_per_pair": args.games_per_pair,
        "workers": 1,
        "rule_sets": [
            compare(variant, database, args.games_per_pair, args.mode, args.seed)
            for variant, database in (("oware", args.oware_db), ("ayoayo", args.ayoayo_db))
        ],
    }
    write_json(args.out, record)
    for row in record["rule_sets"]:
        print(
            f"{row['variant']}: {row['games_adjudicated']}/{row['games']} games adjudicated, "
            f"{row['plies']['saved']} plies ({100 * row['plies_saved_share']:.0f}%) and "
            f"{row['game_seconds']['saved']} s saved; ratings within the other's interval: "
            f"{row['agree']}"
        )
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
