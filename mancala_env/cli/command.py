"""What every ``mancala`` command shares: a parser whose options are declared when the command
runs, and the rule set its arguments name.

A group's module registers each of its commands with `add_command`: the name, the line it gets
in ``mancala --help``, the function that declares its options and the function that runs it.
The options are declared only when that command is parsed (its own ``--help`` included), so
``mancala --help`` imports nothing a command's options name (the agents, the tournaments,
training), and the function that runs a command imports what it needs when it begins.

Where a value is checked: the argument types of `mancala_env.arguments` (ranges, paths) check
it where the option is declared, before the command begins; what only the library can judge
(a rule set's options, an agent spec, a store) it refuses with ValueError, which the command
turns into one line with `mancala_env.arguments.fail`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

from ..arguments import Parser, parse_options
from ..variants import Variant, get_variant

Declare = Callable[[argparse.ArgumentParser], None]
Run = Callable[[argparse.Namespace], int]


class CommandParser(Parser):
    """A command's parser: its options are added by `declare` the first time it parses."""

    def __init__(self, *args: Any, declare: Declare | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._declare = declare

    def declare(self) -> None:
        """Add the command's options, once."""
        declare, self._declare = self._declare, None
        if declare is not None:
            declare(self)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        self.declare()
        return super().parse_known_args(args, namespace)


def add_command(
    commands: argparse._SubParsersAction, name: str, summary: str, declare: Declare, run: Run
) -> None:
    """Register command `name`: `summary` is its line in ``mancala --help``, `declare` adds its
    options, `run` does it and returns the exit status."""
    commands.add_parser(name, help=summary, declare=declare).set_defaults(func=run)


def add_rule_options(parser: argparse.ArgumentParser) -> None:
    """``--option KEY=VALUE``, the rule options of the command's games (`rules_of`)."""
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="rule option (repeatable); values are integers, true, false or text",
    )


def rules_of(args: argparse.Namespace) -> tuple[Variant, Any]:
    """The rule set ``args.variant`` names and its options from ``--option``; ValueError or
    TypeError when either is unknown or a value is refused."""
    variant = get_variant(args.variant)
    return variant, variant.options(**parse_options(args.option, args.variant))
