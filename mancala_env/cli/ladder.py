"""``ladder``: rate agents on a rule set's fixed rating ladder, or show the ladder
(`mancala_env.agents.tournament.ladder`)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..arguments import fail, integer, output_file
from .command import add_command
from .tournament import add_runner_arguments, stopped

if TYPE_CHECKING:
    from mancala_env.agents.tournament.ladder import Ladder, LadderRating


def register(commands: argparse._SubParsersAction) -> None:
    add_command(
        commands,
        "ladder",
        "rate an agent on a rule set's fixed, calibrated rating ladder",
        ladder_options,
        ladder,
    )


def ladder_options(parser: argparse.ArgumentParser) -> None:
    from mancala_env.agents.tournament import MAX_GAMES
    from mancala_env.agents.tournament.ladder import MAX_VERSION

    from ..outputs import LADDER_RATINGS

    parser.add_argument("variant", help="rule set name (see 'mancala variants')")
    parser.add_argument(
        "agents", nargs="*", metavar="AGENT", help="agent specs to rate (none: show the ladder)"
    )
    parser.add_argument(
        "--ladder-version",
        type=integer(1, MAX_VERSION),
        default=None,
        help="the ladder's version (default its newest; a rating names the version it is on)",
    )
    parser.add_argument(
        "--games-per-anchor",
        type=integer(2, MAX_GAMES),
        default=None,
        help="games against each anchor, even (default the ladder's)",
    )
    parser.add_argument(
        "--out",
        type=output_file,
        default=None,
        metavar="FILE",
        help="also write the ratings as JSON (with the ladder's version, date, machine, command)",
    )
    parser.writes("out", LADDER_RATINGS)
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_runner_arguments(parser, db_help="SQLite file of the games (default ladder.sqlite)")
    parser.set_defaults(db="ladder.sqlite")


def ladder(args: argparse.Namespace) -> int:
    from mancala_env.agents.tournament import BackendError, WorkerLost
    from mancala_env.agents.tournament.ladder import rate_on_ladder, read_ladder

    try:
        board = read_ladder(args.variant, args.ladder_version)
    except ValueError as error:
        return fail("ladder", error)
    if not args.agents:
        print(format_ladder(board))
        return 0
    ratings = []
    for spec in args.agents:
        try:
            ratings.append(
                rate_on_ladder(
                    board,
                    spec,
                    args.db,
                    workers=args.workers,
                    backend=args.backend,
                    ray_address=args.ray_address,
                    games_per_anchor=args.games_per_anchor,
                    progress=not args.no_progress,
                )  # fmt: skip
            )
        except (TypeError, ValueError, BackendError) as error:
            return fail("ladder", error)
        except (KeyboardInterrupt, WorkerLost) as error:
            return stopped("ladder", args.db, error)
        print(format_rating(board, ratings[-1]))
    if args.out is not None:
        try:
            write_ratings(args.out, board, ratings, args.replace)
        except OSError as error:
            return fail("ladder", f"cannot write {args.out}: {error}", status=1)
        print(f"ratings: {args.out}")
    return 0


def write_ratings(path: str, board: Ladder, ratings: list[LadderRating], replace: bool) -> None:
    """The ratings as a JSON file, whole or not at all, with what they were measured on."""
    import dataclasses
    import json
    import shlex
    import sys
    from datetime import date

    from ..machine import describe_machine
    from ..outputs import LADDER_RATINGS, write_atomically

    document = {
        "format": {"name": "mancala-ladder-ratings", "version": 1},
        "variant": board.variant,
        "ladder_version": board.version,
        "date": date.today().isoformat(),
        "machine": describe_machine(),
        "command": shlex.join(["mancala", *sys.argv[1:]]),
        "ratings": [dataclasses.asdict(rating) for rating in ratings],
    }
    content = (json.dumps(document, indent=1) + "\n").encode()
    write_atomically(path, content, LADDER_RATINGS, replace=replace)


def format_ladder(board: Ladder) -> str:
    """The ladder's anchors, ratings and intervals, and how it was calibrated."""
    from mancala_env.agents.tournament.ladder import SCALE

    calibration = board.calibration
    lines = [
        f"{board.variant} ladder v{board.version}: {SCALE}; {board.games_per_anchor} games "
        f"an anchor to rate an agent ({board.games_per_anchor * len(board.anchors)} in all)",
        f"calibrated {calibration.get('date', '?')} by a round robin of "
        f"{calibration.get('games_per_pair', '?')} games a pair "
        f"on {calibration.get('machine', '?')}",
        "",
        f"{'anchor':<36} {'rating':>7}  95% interval",
    ]
    for anchor in sorted(board.anchors, key=lambda anchor: anchor.rating):
        lines.append(
            f"{anchor.spec:<36} {anchor.rating:+7.0f}  [{anchor.low:+.0f}, {anchor.high:+.0f}]"
        )
    return "\n".join(lines)


def format_rating(board: Ladder, rating: LadderRating) -> str:
    """An agent's rating on the ladder (a perfect record as a bound), its games by anchor
    and what the model expects of its rating there."""
    from mancala_env.agents.tournament.ladder import expected_against
    from mancala_env.agents.tournament.ratings import elo_cells

    shown, interval = elo_cells(rating.rating, rating.low, rating.high, rating.score)
    _, calibrated = elo_cells(
        rating.rating, rating.calibrated_low, rating.calibrated_high, rating.score
    )
    lines = [
        f"{rating.spec}: {shown} {interval} on the {rating.variant} ladder v{rating.version} "
        f"({rating.games} games, score {rating.score:.3f})",
        f"  as Elo above random play, with the calibration's uncertainty: {calibrated}",
    ]
    expected = expected_against(board, rating.rating)
    for spec, (games, points) in rating.scores.items():
        lines.append(
            f"  against {spec:<34} {points:5.1f}/{games:<4} (expected {expected[spec] * games:.1f})"
        )
    return "\n".join(lines)
