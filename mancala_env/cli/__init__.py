"""The ``mancala`` command line: rule sets, games in the terminal, benchmarks, tournaments,
replays, endgame databases and training. It sits on top of the suite (the import contract in
pyproject.toml): nothing imports it.

One module per group of commands, each registering its own (``register``): `rules` (variants,
kernels, bench), `play` (show, play, replay), `tournament` (tournament, match, openings, export),
`ladder`, `metrics`, `endgames` (solve, accuracy) and `train`. In each, a command is two functions:
the one that declares its options and the one that runs it, returning the exit status. `command`
holds what they share: the parser that declares a command's options only when that command runs (so
``mancala --help`` imports no agent, tournament or training code). Where a value is checked: the
argument types of `mancala_env.arguments` where an option is declared; what only the library can
judge, when the command runs, refused in one line on standard error by `mancala_env.arguments.fail`
(exit status 2), which ``mancala train`` shares.

Output into a pipe that closes early (``mancala show oware | head``) ends the command quietly,
as the Python documentation recommends for BrokenPipeError.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from .._version import __version__
from ..arguments import USAGE_ERROR, Parser
from . import endgames, ladder, metrics, play, rules, tournament, train
from .command import CommandParser

BROKEN_PIPE = 1
GROUPS = (
    rules,
    play,
    tournament,
    ladder,
    metrics,
    endgames,
    train,
)  # in the order `mancala --help` lists them


def build_parser(lazy: bool = False) -> Parser:
    """The ``mancala`` parser with every command; with `lazy`, a command's options are
    declared only when it is parsed (as `main` does), else all at once."""
    parser = Parser(prog="mancala", description="African sowing games (the mancala family).")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=CommandParser
    )
    for group in GROUPS:
        group.register(commands)
    if not lazy:
        for command in commands.choices.values():
            command.declare()
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command `argv` (default: the process's arguments) and return its exit status;
    a bad argument is refused with status 2 before the command begins. Without a command the
    help is printed on standard error with status 2, as argparse refuses a missing argument:
    a script that runs ``mancala`` alone has made a mistake, and its status says so."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(lazy=True)
    if not argv:
        parser.print_help(sys.stderr)
        return USAGE_ERROR
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse's end: --help, --version or a refused argument
        return stop.code if isinstance(stop.code, int) else USAGE_ERROR
    try:
        status = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, not at the interpreter's exit
    except BrokenPipeError:
        _silence_stdout()
        return BROKEN_PIPE
    return status


def _silence_stdout() -> None:
    """Point standard output at the null device, so the interpreter's last flush of what the
    closed pipe did not take raises nothing (the Python documentation's recipe)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no file descriptor behind standard output (a test's capture)
        pass
