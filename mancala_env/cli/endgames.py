"""Endgame databases of perfect play: ``solve`` (build one, resumable) and ``accuracy`` (score
an agent's endgame moves against one). The solver and its kernels are imported when a command
runs."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from ..arguments import fail, input_folder, integer, output_folder
from ..arguments import seed as seed_type
from ..engine import layout as L
from ..variants import Variant
from .command import add_command, add_rule_options, rules_of

MAX_POSITIONS = 10_000_000  # positions `accuracy` scores: more could only exhaust the machine


def register(commands: argparse._SubParsersAction) -> None:
    add_command(
        commands,
        "solve",
        "build an endgame database of perfect play (resumable)",
        solve_options,
        solve,
    )
    add_command(
        commands,
        "accuracy",
        "score an agent's endgame moves against perfect play",
        accuracy_options,
        accuracy,
    )


def _default_folder(variant: str) -> str:
    return os.path.join("endgames", variant)


# ---- solve -----------------------------------------------------------------------------------
def solve_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variant", help="rule set name: oware, ouri, ayoayo, ...")
    parser.add_argument(
        "--max-seeds", type=integer(0), required=True, help="most seeds on the board"
    )
    parser.add_argument(
        "--out", type=output_folder, default=None, metavar="DIR", help="default: endgames/VARIANT"
    )
    add_rule_options(parser)
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def solve(args: argparse.Namespace) -> int:
    from ..endgame.build import build  # compiles the solver

    directory = args.out or _default_folder(args.variant)
    try:
        variant, options = rules_of(args)
        report = build(variant, options, args.max_seeds, directory, not args.no_progress)
    except ValueError as error:  # a bad variant, option or seed count; a database refused
        return fail("solve", error)
    except (OSError, MemoryError) as error:  # a full disk, a folder that cannot be written
        why = (error.strerror or str(error)) if isinstance(error, OSError) else "out of memory"
        return fail(
            "solve",
            f"cannot build the database in {directory}: {why}; the finished seed counts are "
            "kept: run the same command to continue",
            status=1,
        )
    except KeyboardInterrupt:
        print(
            f"\nmancala solve: interrupted; the finished seed counts are in {directory}: "
            "run the same command to continue",
            file=sys.stderr,
        )
        return 130
    solved = sum(report.seconds.values())
    print(
        f"{directory}: boards of 0 to {args.max_seeds} seeds, {report.bytes_on_disk:,} bytes "
        f"({len(report.found)} seed counts found, {len(report.solved)} solved in {solved:.1f} s)"
    )
    if args.max_seeds >= int(variant.params(options)[L.P_TOTAL_SEEDS]):
        _print_start_value(directory, variant, options)
    return 0


def _print_start_value(directory: str, variant: Variant, options: Any) -> None:
    """The start's value from a database that holds every seed of the game: a small board
    solved whole."""
    from ..endgame.start import start_value

    start = start_value(directory, variant, options)
    if start is not None:
        print(
            f"the whole game is solved: with perfect play the first player wins "
            f"{start.seeds:g} of the {start.total} seeds, {start.verdict} for the first player"
        )


# ---- accuracy --------------------------------------------------------------------------------
def accuracy_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("agent", help="agent spec (see docs/agents.md)")
    parser.add_argument("--variant", default="oware", help="rule set name (default: oware)")
    parser.add_argument(
        "--max-seeds", type=integer(0), required=True, help="most seeds on the board"
    )
    parser.add_argument(
        "--positions", type=integer(1, MAX_POSITIONS), default=1000, help="positions to score"
    )
    parser.add_argument(
        "--db", type=input_folder, default=None, metavar="DIR", help="default: endgames/VARIANT"
    )
    parser.add_argument(
        "--seed", type=seed_type, default=0, help="seed of the positions and the agent"
    )
    add_rule_options(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per row")


def accuracy(args: argparse.Namespace) -> int:
    from mancala_env.agents import load_agent
    from mancala_env.agents.accuracy import format_rows, measure_accuracy
    from mancala_env.agents.loader import check_unattended

    from ..endgame.database import EndgameDatabase

    directory = args.db or _default_folder(args.variant)
    try:
        check_unattended(args.agent, "accuracy")
        variant, options = rules_of(args)
        database = EndgameDatabase(directory, variant, options)
        agent = load_agent(args.agent, variant=args.variant, seed=args.seed)
        rows = measure_accuracy(
            agent, database, variant, options, args.max_seeds, args.positions, args.seed
        )
    except ValueError as error:  # a bad spec, variant, option or count; a database refused
        return fail("accuracy", error)
    if args.json:
        for row in rows:
            print(json.dumps(row.as_dict()))
        return 0
    print(
        f"{args.agent} on {args.variant}: {args.positions} positions of 3 to {args.max_seeds} "
        f"seeds (seed {args.seed}), scored by {directory}"
    )
    print(format_rows(rows))
    return 0
