"""Calibrate a rule set's rating ladder: a round robin of its anchors, written as the ladder's
next version (``agents/tournament/ladders/VARIANT-vN.json``, shipped; ``mancala ladder VARIANT``
shows it and rates agents on it).

    nice -n 19 python benchmarks/ladder.py oware --depths 1 2 3 4 5 6 --games-per-pair 40

The anchors are random, greedy, alpha-beta at each of ``--depths`` and the shipped network
without search and with ``--simulations`` of its tree search (`default_anchors`), or
``--anchors SPEC ...``. The games are kept in ``--db`` (an interrupted calibration continues
where it stopped). A version once written is never replaced: a new calibration is the next
version, and ratings on the old one keep their meaning.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from datetime import date

from mancala_env.agents.tournament import MAX_GAMES
from mancala_env.agents.tournament.ladder import (
    calibrate,
    default_anchors,
    ladder_path,
    ladder_versions,
)
from mancala_env.arguments import integer
from mancala_env.machine import describe_machine
from mancala_env.outputs import write_atomically
from mancala_env.variants import get_variant


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("--depths", type=integer(1, 64), nargs="+", default=[1, 2, 3, 4])
    parser.add_argument("--simulations", type=integer(1, 100_000), default=100)
    parser.add_argument("--anchors", nargs="+", default=None, help="instead of the defaults")
    parser.add_argument("--games-per-pair", type=integer(2, MAX_GAMES), default=40)
    parser.add_argument("--games-per-anchor", type=integer(2, MAX_GAMES), default=20)
    parser.add_argument("--workers", type=integer(1, 1024), default=1)
    parser.add_argument("--seed", type=integer(0), default=0)
    parser.add_argument("--db", default="ladder-calibration.sqlite")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args()
    try:
        get_variant(args.variant)
        if args.games_per_pair % 2 or args.games_per_anchor % 2:
            raise ValueError("--games-per-pair and --games-per-anchor must be even (both seats)")
        anchors = args.anchors or default_anchors(args.variant, args.depths, args.simulations)
        versions = ladder_versions(args.variant)
        version = (versions[-1] if versions else 0) + 1
        began = time.time()
        ladder = calibrate(
            args.variant, anchors, args.games_per_pair, args.games_per_anchor, args.db,
            version, {"date": date.today().isoformat(), "machine": describe_machine(),
                      "command": shlex.join(["python", *sys.argv])},
            seed=args.seed, workers=args.workers, progress=not args.no_progress,
        )  # fmt: skip
    except ValueError as error:
        sys.exit(f"ladder: {error}")
    ladder.calibration["minutes"] = round((time.time() - began) / 60, 1)
    out = ladder_path(args.variant, version)
    if out.exists():  # another calibration wrote this version meanwhile
        sys.exit(f"ladder: {out} exists; a version is never replaced")
    write_atomically(out, (json.dumps(ladder.to_document(), indent=1) + "\n").encode())
    print(f"{out}: {len(ladder.anchors)} anchors, {ladder.calibration['minutes']} min")
    for anchor in sorted(ladder.anchors, key=lambda anchor: anchor.rating):
        print(f"  {anchor.spec:<36} {anchor.rating:+6.0f} [{anchor.low:+.0f}, {anchor.high:+.0f}]")


if __name__ == "__main__":
    main()
