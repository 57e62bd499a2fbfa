"""Agents against each other: ``tournament`` (ratings, resumable), ``match`` (an SPRT of one
agent against another), ``openings`` (a suite of openings a search rates even, or with
``--fair`` of start boards a seed or two moved that are even) and ``export``
(a store's games as JSON lines).

The tournament package is imported when one of these commands is parsed (its constants bound
the options) or run, never by ``mancala --help``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

from ..arguments import (
    fail,
    input_file,
    input_folder,
    integer,
    output_file,
    output_folder,
    parse_options,
    real,
)
from ..arguments import seed as seed_type
from ..inputs import MAX_WORKERS
from .command import add_command, add_rule_options

DEFAULT_AGENTS = ("random", "greedy", "alphabeta:depth=2", "mcts:simulations=200")
# the largest values the command line takes, where a larger one could only exhaust the machine
MAX_OPENING_PLIES = 1000
DEFAULT_OPENING_PLIES = 4


def register(commands: argparse._SubParsersAction) -> None:
    add_command(
        commands,
        "tournament",
        "rate agents in a tournament (resumable)",
        tournament_options,
        tournament,
    )
    add_command(
        commands,
        "match",
        "an SPRT of one agent against another, pair by pair to a decision",
        match_options,
        match,
    )
    add_command(
        commands,
        "openings",
        "build a suite of openings a search rates even (--fair: even start boards)",
        openings_options,
        openings,
    )
    add_command(commands, "export", "write a store's games as JSON lines", export_options, export)


# ---- what tournaments and matches share ------------------------------------------------------
def add_opening_line_arguments(parser: argparse.ArgumentParser, suite_use: str) -> None:
    """``--opening-plies`` (the length of a random line) and ``--opening-suite`` (lines from a
    suite instead; `suite_use` says how the command plays them)."""
    parser.add_argument(
        "--opening-plies",
        type=integer(1, MAX_OPENING_PLIES),
        default=None,
        help=f"moves in a line (default {DEFAULT_OPENING_PLIES})",
    )
    parser.add_argument(
        "--opening-suite",
        type=suite_file,
        default=None,
        metavar="FILE",
        help=f"{suite_use} ('mancala openings'; a rule set's name: the suite shipped for it)",
    )


def add_runner_arguments(parser: argparse.ArgumentParser, db_help: str) -> None:
    """Where the games are played (``--workers``, ``--backend``, ``--ray-address``) and kept
    (``--db``)."""
    from mancala_env.agents.tournament import BACKENDS

    parser.add_argument(
        "--workers", type=integer(1, MAX_WORKERS), default=os.cpu_count() or 1, help="processes"
    )
    parser.add_argument("--backend", default=BACKENDS[0], choices=BACKENDS)
    parser.add_argument("--ray-address", default=None, help="a running Ray cluster (ray backend)")
    parser.add_argument("--db", default="tournaments.sqlite", help=db_help)


def add_adjudication_arguments(parser: argparse.ArgumentParser) -> None:
    """``--adjudicate DIR`` and ``--adjudicate-mode``: an endgame database that ends the games
    where it knows the result."""
    from mancala_env.endgame.adjudicate import MODES

    parser.add_argument(
        "--adjudicate",
        type=input_folder,
        default=None,
        metavar="DIR",
        help="an endgame database that ends each game at the first position whose result it "
        "knows (end_reason adjudicated; docs/tournaments.md)",
    )
    parser.add_argument(
        "--adjudicate-mode",
        choices=MODES,
        default=None,
        help="all: wins, losses and draws (the default); decisive: wins and losses, drawn "
        "positions play on",
    )


def _adjudication(args: argparse.Namespace) -> Any:
    """The `Adjudication` the arguments name, or None; ValueError for a mode without a
    database (or a database whose files cannot be read)."""
    from mancala_env.endgame.adjudicate import Adjudication

    if args.adjudicate is None:
        if args.adjudicate_mode is not None:
            raise ValueError("--adjudicate-mode needs --adjudicate DIR, the endgame database")
        return None
    return Adjudication(args.adjudicate, args.adjudicate_mode or "all")


def suite_file(text: str) -> str:
    """An opening suite's file, or a rule set's name for the suite shipped with it."""
    from mancala_env.agents.tournament.openings import shipped_names, shipped_suite

    if not os.path.exists(text):
        shipped = shipped_suite(text)
        if shipped is not None:
            return str(shipped)
        if text and not os.path.lexists(text) and len(text) < 256:
            raise argparse.ArgumentTypeError(
                f"{text}: no such file, nor the name of a shipped suite "
                f"({', '.join(shipped_names())})"
            )
    try:
        return input_file(text)
    except OSError as error:  # a name too long for the file system, say
        raise argparse.ArgumentTypeError(f"{text}: {error.strerror or error}") from None


def _opening_plies(args: argparse.Namespace) -> int:
    return DEFAULT_OPENING_PLIES if args.opening_plies is None else args.opening_plies


def _opening_suite(args: argparse.Namespace, options: dict[str, Any]) -> Any:
    """The suite ``--opening-suite`` names, checked against the games' rules (None without
    one); ValueError when random openings are asked for too."""
    from mancala_env.agents.tournament import read_suite

    if args.opening_suite is None:
        return None
    if args.openings or args.opening_plies is not None:
        given = "--openings" if args.openings else "--opening-plies"
        raise ValueError(f"--opening-suite and {given} both choose the openings; give one of them")
    return read_suite(args.opening_suite, args.variant, options)


def stopped(command: str, db: Any, error: BaseException) -> int:
    """Say that `command` stopped (Ctrl-C, or a worker lost) and how to go on; its exit status."""
    what = "interrupted" if isinstance(error, KeyboardInterrupt) else f"error: {error}"
    print(
        f"\nmancala {command}: {what}; the finished games are in {db}: "
        "run the same command to continue",
        file=sys.stderr,
    )
    return 130 if isinstance(error, KeyboardInterrupt) else 1


# ---- tournament ------------------------------------------------------------------------------
def tournament_options(parser: argparse.ArgumentParser) -> None:
    from mancala_env.agents.tournament import FORMATS, MAX_GAMES
    from mancala_env.agents.tournament.report import REPORT_FILES

    parser.add_argument("variant", help="rule set name (see 'mancala variants')")
    parser.add_argument(
        "--agents",
        nargs="+",
        default=list(DEFAULT_AGENTS),
        metavar="SPEC",
        help=f"agent specs (default: {' '.join(DEFAULT_AGENTS)})",
    )
    parser.add_argument(
        "--games-per-pair", type=integer(2, MAX_GAMES), default=20, help="even; half from each seat"
    )
    parser.add_argument("--format", default=FORMATS[0], choices=FORMATS)
    parser.add_argument(
        "--openings",
        type=integer(0, MAX_GAMES),
        default=None,
        help="random opening lines (default: the rule set's shipped suite when it has a line "
        "for every couple of games, else one random line a couple; 0: every game from the "
        "starting position). A match plays one random line a pair by default: it may need "
        "thousands of pairs, more than a shipped suite has lines",
    )
    add_opening_line_arguments(parser, "play from this opening suite's entries")
    add_runner_arguments(parser, "the SQLite store")
    parser.add_argument(
        "--report",
        type=output_folder,
        default=None,
        metavar="DIR",
        help="write Markdown and HTML here",
    )
    parser.writes("report", REPORT_FILES)
    parser.add_argument(
        "--endgame-db",
        type=input_folder,
        default=None,
        metavar="DIR",
        help="an endgame database: report each agent's accuracy in the positions it covers",
    )
    add_adjudication_arguments(parser)
    parser.add_argument(
        "--seed", type=seed_type, default=0, help="seed of the schedule, games and agents"
    )
    add_rule_options(parser)
    parser.add_argument(
        "--anchor",
        action="append",
        default=[],
        type=anchor,
        metavar="SPEC=RATING",
        help="fix an agent's rating (repeatable), e.g. random=0 or alphabeta:depth=1=1000",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def anchor(text: str) -> tuple[str, float]:
    """The type of ``--anchor SPEC=RATING`` (`parse_anchor`)."""
    from mancala_env.agents.tournament.ratings import parse_anchor

    try:
        return parse_anchor(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def tournament(args: argparse.Namespace) -> int:
    from mancala_env.agents.tournament import (
        BackendError,
        TournamentConfig,
        WorkerLost,
        format_leaderboard,
        run_tournament,
        write_report,
    )
    from mancala_env.agents.tournament.ratings import anchor_vector, anchors_given

    try:
        anchors = anchors_given(args.anchor)
        anchor_vector(anchors, args.agents)
    except ValueError as error:
        return fail("tournament", f"argument --anchor: {error}")
    try:
        options = parse_options(args.option, args.variant)
        config = TournamentConfig(
            variant=args.variant,
            agents=tuple(args.agents),
            options=options,
            games_per_pair=args.games_per_pair,
            format=args.format,
            openings=args.openings,
            opening_plies=_opening_plies(args),
            seed=args.seed,
            opening_suite=_opening_suite(args, options),
            adjudication=_adjudication(args),
        )
        result = run_tournament(
            config,
            db=args.db,
            backend=args.backend,
            workers=args.workers,
            ray_address=args.ray_address,
            progress=not args.no_progress,
            endgame_db=args.endgame_db,
            anchors=anchors,
        )
    except (TypeError, ValueError, BackendError) as error:  # a bad store, database or suite too
        return fail("tournament", error)
    except (KeyboardInterrupt, WorkerLost) as error:
        return stopped("tournament", args.db, error)
    print(format_leaderboard(result))
    print()
    earlier = len(result.records) - result.played
    print(
        f"{len(result.records)} games in {args.db} (tournament {config.key}; "
        f"{result.played} played now, {earlier} found there)"
    )
    if args.report:
        try:
            markdown, page = write_report(result, args.report, replace=args.replace)
        except OSError as error:
            return fail("tournament", f"cannot write the report: {error}", status=1)
        print(f"report: {markdown} and {page}")
    return 0


# ---- match -----------------------------------------------------------------------------------
def match_options(parser: argparse.ArgumentParser) -> None:
    from mancala_env.agents.tournament import MAX_PAIRS, MODELS

    parser.add_argument("agent", help="the agent tested (spec, see docs/agents.md)")
    parser.add_argument("baseline", help="the agent it is measured against")
    parser.add_argument("--variant", default="oware", help="rule set name (default: oware)")
    parser.add_argument(
        "--elo0", type=real(), default=0.0, help="H0: the agent is this many Elo stronger"
    )
    parser.add_argument(
        "--elo1",
        type=real(),
        default=50.0,
        help="H1: the agent is this many Elo stronger (more than --elo0; not added to it)",
    )
    parser.add_argument("--alpha", type=real(), default=0.05, help="chance of H1 when H0 holds")
    parser.add_argument("--beta", type=real(), default=0.05, help="chance of H0 when H1 holds")
    parser.add_argument(
        "--model", default=MODELS[0], choices=MODELS, help="Elo model of the bounds"
    )
    parser.add_argument(
        "--max-pairs", type=integer(1, MAX_PAIRS), default=1000, help="stop undecided after"
    )
    parser.add_argument(
        "--openings",
        type=integer(0, MAX_PAIRS),
        default=None,
        help="random opening lines the pairs cycle through (default: one random line a pair, "
        "as a match may need thousands of pairs and a repeated line repeats the games of "
        "deterministic agents; a tournament plays the rule set's shipped suite by default, "
        "and --opening-suite VARIANT plays it here, its lines cycling)",
    )
    add_opening_line_arguments(parser, "pair k from entry k of this opening suite")
    add_runner_arguments(parser, "the SQLite store (resumable)")
    add_adjudication_arguments(parser)
    parser.add_argument(
        "--every", type=integer(1), default=10, metavar="N", help="a line per N pairs"
    )
    parser.add_argument(
        "--seed", type=seed_type, default=0, help="seed of the openings, games and agents"
    )
    add_rule_options(parser)


def match(args: argparse.Namespace) -> int:
    from mancala_env.agents.tournament import (
        MAX_PAIRS,
        BackendError,
        MatchStep,
        Sprt,
        WorkerLost,
        match_config,
        run_match,
    )
    from mancala_env.agents.tournament.repeats import repeat_warning
    from mancala_env.agents.tournament.runner import check_before_storing
    from mancala_env.agents.tournament.schedule import describe_openings

    from ..escaping import for_terminal

    try:
        sprt = Sprt(args.elo0, args.elo1, args.alpha, args.beta, args.model)
        options = parse_options(args.option, args.variant)
        suite = _opening_suite(args, options)
        config = match_config(
            args.variant,
            args.agent,
            args.baseline,
            options=options,
            openings=MAX_PAIRS if args.openings is None else args.openings,
            opening_plies=_opening_plies(args),
            seed=args.seed,
            opening_suite=suite,
            adjudication=_adjudication(args),
        )
        # refused before the header, as run_match refuses before its store: the agents and the
        # backend (their loaded agents are kept for the games)
        check_before_storing(config, args.backend, args.workers, args.ray_address)
    except (TypeError, ValueError, BackendError) as error:
        return fail("match", error)
    print(
        f"SPRT {args.agent} vs {args.baseline} ({args.variant}): H0 {sprt.elo0:g} Elo, "
        f"H1 {sprt.elo1:g} Elo ({sprt.model}), alpha {sprt.alpha:g}, beta {sprt.beta:g}; "
        f"LLR bounds ({sprt.lower:.2f}, {sprt.upper:.2f})",
        flush=True,
    )
    print(for_terminal(describe_openings(config)), flush=True)
    print(
        f"{'pairs':>6} {'LL':>4} {'LD':>4} {'WL+DD':>6} {'WD':>4} {'WW':>4}  {'Elo [95%]':<24} "
        f"{'nElo':<15} LLR",
        flush=True,
    )

    notes: dict[str, None] = {}  # what the bounds and dashes of the lines printed mean

    def line(step: MatchStep) -> str:
        e = step.estimate
        counts = " ".join(f"{c:>{w}}" for c, w in zip(step.counts, (4, 4, 6, 4, 4), strict=True))
        notes.update(dict.fromkeys(e.notes))
        return f"{step.pairs:>6} {counts}  {e.elo_text:<24} {e.nelo_text:<15} {step.llr:.2f}"

    def report(step: MatchStep) -> None:
        if step.pairs % args.every == 0 or step.decision is not None:
            print(line(step), flush=True)

    try:
        result = run_match(
            config,
            sprt,
            db=args.db,
            max_pairs=args.max_pairs,
            backend=args.backend,
            workers=args.workers,
            ray_address=args.ray_address,
            report=report,
        )
    except (TypeError, ValueError, BackendError) as error:  # a bad store or agent too
        return fail("match", error)
    except (KeyboardInterrupt, WorkerLost) as error:
        return stopped("match", args.db, error)
    last = result.last
    assert last is not None  # max_pairs >= 1
    if last.pairs % args.every and last.decision is None:
        print(line(last))
    if last.decision == "H1":
        verdict = (
            f"H1 accepted (LLR {last.llr:.2f} >= {sprt.upper:.2f}): {args.agent} is taken to be "
            f"{sprt.elo1:g} Elo stronger than {args.baseline}, not {sprt.elo0:g}"
        )
    elif last.decision == "H0":
        verdict = (
            f"H0 accepted (LLR {last.llr:.2f} <= {sprt.lower:.2f}): {args.agent} is taken to be "
            f"{sprt.elo0:g} Elo stronger than {args.baseline}, not {sprt.elo1:g}"
        )
    else:
        verdict = (
            f"no decision after {last.pairs} pairs (LLR {last.llr:.2f}, bounds "
            f"{sprt.lower:.2f} and {sprt.upper:.2f}): a larger --max-pairs goes on"
        )
    print(*notes, verdict, sep="\n")
    warning = repeat_warning(2 * last.pairs, result.distinct)
    if warning:
        print(warning)
    print(
        f"{last.pairs} pairs in {args.db} (tournament {config.key}; {result.played} games "
        f"played now, {result.found} pairs found there)"
    )
    return 0


# ---- openings --------------------------------------------------------------------------------
def openings_options(parser: argparse.ArgumentParser) -> None:
    from mancala_env.agents.tournament.fair import DEFAULT_FAIR_SEARCH, MAX_MOVED
    from mancala_env.agents.tournament.openings import DEFAULT_SEARCH, MAX_ENTRIES

    from ..outputs import OPENING_SUITE

    parser.add_argument("variant", help="rule set name (see 'mancala variants')")
    parser.add_argument(
        "--out", type=output_file, required=True, metavar="FILE", help="JSON to write"
    )
    parser.writes("out", OPENING_SUITE)
    parser.add_argument(
        "--count",
        type=integer(1, MAX_ENTRIES),
        default=None,
        help="openings to keep (default 50; not with --fair, which keeps every even start)",
    )
    parser.add_argument(
        "--plies",
        type=integer(1, MAX_OPENING_PLIES),
        default=None,
        help="moves in each line (default 4; not with --fair)",
    )
    parser.add_argument(
        "--search",
        default=None,
        metavar="SPEC",
        help=f"the agent that rates the positions (default {DEFAULT_SEARCH}; with --fair and "
        f"no --db, {DEFAULT_FAIR_SEARCH})",
    )
    parser.add_argument(
        "--margin",
        type=real(0),
        default=None,
        help="keep a position when |value| <= this many seeds, the mover's view (default 1; "
        "0 with --fair)",
    )
    parser.add_argument(
        "--fair",
        action="store_true",
        help="a suite of start boards instead of lines: every board one to --moved seeds "
        "moved from the start that is even (docs/endgames.md)",
    )
    parser.add_argument(
        "--moved",
        type=integer(1, MAX_MOVED),
        default=None,
        help=f"with --fair: the most seeds moved from the start (default {MAX_MOVED})",
    )
    parser.add_argument(
        "--db",
        type=input_folder,
        default=None,
        metavar="DIR",
        help="with --fair: an endgame database holding every seed of the game, the judge by "
        "perfect play (a draw is kept) instead of --search",
    )
    parser.add_argument(
        "--max-tries",
        type=integer(1),
        default=None,
        metavar="N",
        help="give up after rating this many positions (default 50 x --count)",
    )
    parser.add_argument("--seed", type=seed_type, default=0, help="seed of the lines drawn")
    add_rule_options(parser)
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def _suite_settings(args: argparse.Namespace) -> dict[str, Any]:
    """What ``mancala openings`` builds from: `build_suite`'s arguments, or with ``--fair``
    `build_fair_suite`'s; ValueError for a setting of the other kind."""
    from mancala_env.agents.tournament.fair import DEFAULT_FAIR_SEARCH, MAX_MOVED
    from mancala_env.agents.tournament.openings import DEFAULT_SEARCH

    if args.fair:
        given = [name for name in ("count", "plies", "max_tries") if getattr(args, name)]
        if given:
            names = ", ".join("--" + name.replace("_", "-") for name in given)
            raise ValueError(f"{names}: not with --fair, which judges every start it moves to")
        if args.db is not None and (args.search is not None or args.margin is not None):
            raise ValueError(
                "--db judges the starts by perfect play: not with --search or --margin"
            )
        return {
            "moved": MAX_MOVED if args.moved is None else args.moved,
            "database": args.db,
            "search": args.search or DEFAULT_FAIR_SEARCH,
            "margin": 0.0 if args.margin is None else args.margin,
        }
    given = [f"--{name}" for name in ("moved", "db") if getattr(args, name) is not None]
    if given:
        raise ValueError(f"{', '.join(given)}: with --fair only")
    return {
        "count": 50 if args.count is None else args.count,
        "plies": 4 if args.plies is None else args.plies,
        "search": args.search or DEFAULT_SEARCH,
        "margin": 1.0 if args.margin is None else args.margin,
        "max_tries": args.max_tries,
    }


def openings(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from mancala_env.agents.tournament import build_suite, save_suite
    from mancala_env.agents.tournament.fair import build_fair_suite, candidate_starts

    try:
        options = parse_options(args.option, args.variant)
        settings = _suite_settings(args)
        if args.fair:
            total, unit = len(candidate_starts(args.variant, options, settings["moved"])), "start"
        else:
            total, unit = settings["count"], "kept"
        bar = tqdm(
            total=total,
            desc=f"{args.variant} {'fair starts' if args.fair else 'openings'}",
            unit=unit,
            file=sys.stderr,
            disable=args.no_progress,
        )

        def progress(kept: int, tried: int) -> None:
            if args.fair:
                bar.update(tried - bar.n)
                bar.set_postfix(even=kept, refresh=False)
            else:
                bar.update(kept - bar.n)
                bar.set_postfix(tried=tried, refresh=False)

        began = time.perf_counter()
        build = build_fair_suite if args.fair else build_suite
        try:
            suite = build(args.variant, options, seed=args.seed, progress=progress, **settings)
        finally:
            bar.close()
        seconds = time.perf_counter() - began
    except (TypeError, ValueError) as error:  # bad options, search spec, database, too few kept
        return fail("openings", error)
    except KeyboardInterrupt:
        print("\nmancala openings: interrupted; nothing was written", file=sys.stderr)
        return 130
    try:
        digest = save_suite(suite, args.out, replace=args.replace)
    except OSError as error:
        return fail("openings", f"cannot write {args.out}: {error}", status=1)
    if args.fair:
        what = (
            f"{len(suite.entries)} even starts of {suite.tried} with "
            + ("1 seed" if settings["moved"] == 1 else f"1 to {settings['moved']} seeds")
            + f" moved (|value| <= {suite.margin:g} by {suite.search})"
        )
    else:
        what = (
            f"{len(suite.entries)} openings of {suite.plies} plies kept of {suite.tried} tried "
            f"(|value| <= {suite.margin:g} by {suite.search})"
        )
    print(f"{what} in {seconds:.1f} s: {args.out} (sha256 {digest[:16]})")
    return 0


# ---- export ----------------------------------------------------------------------------------
def export_options(parser: argparse.ArgumentParser) -> None:
    from ..outputs import JSON_LINES

    parser.add_argument("db", type=input_file, help="the tournament store (SQLite)")
    parser.add_argument("--tournament", default=None, help="only this tournament's games (its key)")
    parser.add_argument(
        "--out", type=output_file, default=None, help="file to write (default: standard output)"
    )
    parser.keep_apart("out", "db")
    parser.writes("out", JSON_LINES)


def export(args: argparse.Namespace) -> int:
    from mancala_env.agents.tournament import GameStore, StoreError

    from ..escaping import for_terminal

    try:
        with GameStore(args.db, read_only=True) as store:
            keys = store.tournament_keys()
            if args.tournament is not None and args.tournament not in keys:
                raise StoreError(
                    f"{args.db} holds no tournament {args.tournament!r}; "
                    f"its tournaments: {for_terminal(', '.join(keys)) or 'none'}"
                )
            lines = list(store.export_jsonl(args.tournament))
    except StoreError as error:
        return fail("export", error)
    if args.out:
        from ..outputs import JSON_LINES, write_atomically

        content = "".join(line + "\n" for line in lines).encode()
        try:
            write_atomically(args.out, content, JSON_LINES, replace=args.replace)
        except OSError as error:
            return fail("export", f"cannot write {args.out}: {error}", status=1)
        print(f"{len(lines)} games written to {args.out}")
    else:
        for line in lines:
            print(line)
    return 0
