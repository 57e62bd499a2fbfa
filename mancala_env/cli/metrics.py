"""``metrics``: what games of a rule set are like (length, branching, forced moves, captures,
lead changes, drawishness, decisiveness, the first player's advantage), under random play and
under the play of an agent (`mancala_env.agents.metrics`)."""

from __future__ import annotations

import argparse
import sys

from ..arguments import fail, integer, parse_options
from ..arguments import seed as seed_type
from .command import add_command, add_rule_options
from .tournament import MAX_OPENING_PLIES


def register(commands: argparse._SubParsersAction) -> None:
    add_command(
        commands,
        "metrics",
        "what games of a rule set are like: length, balance, ...",
        metrics_options,
        metrics,
    )


def metrics_options(parser: argparse.ArgumentParser) -> None:
    from mancala_env.agents.metrics import OPENING_PLIES, STRONG_PLAY
    from mancala_env.agents.tournament import MAX_GAMES

    parser.add_argument("variant", help="rule set name (see 'mancala variants')")
    parser.add_argument("--games", type=integer(1, MAX_GAMES), default=50, help="games an agent")
    parser.add_argument(
        "--agent", default=STRONG_PLAY, help=f"the play beside random (default {STRONG_PLAY})"
    )
    parser.add_argument(
        "--opening-plies",
        type=integer(0, MAX_OPENING_PLIES),
        default=OPENING_PLIES,
        help=f"random plies that open each game (default {OPENING_PLIES})",
    )
    parser.add_argument("--seed", type=seed_type, default=0, help="seed of the games and agents")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_rule_options(parser)


def metrics(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from mancala_env.agents.metrics import RANDOM_PLAY, compare, format_metrics

    agents = tuple(dict.fromkeys((RANDOM_PLAY, args.agent)))
    bar = tqdm(
        total=args.games * len(agents),
        desc=f"{args.variant} metrics",
        unit="game",
        file=sys.stderr,
        disable=args.no_progress,
        delay=0.5,  # a refusal (a bad agent or option) comes before it, alone
    )
    try:
        with bar:
            options = parse_options(args.option, args.variant)
            columns = compare(
                args.variant,
                agents,
                args.games,
                options,
                args.seed,
                args.opening_plies,
                played=bar.update,
            )
    except (TypeError, ValueError) as error:
        return fail("metrics", error)
    except KeyboardInterrupt:
        print("\nmancala metrics: interrupted", file=sys.stderr)
        return 130
    print(
        f"{args.variant}: {args.games} games a column, its agent in both seats after "
        f"{args.opening_plies} random plies, seed {args.seed}"
    )
    print(format_metrics(columns))
    return 0
