"""The rule sets: ``variants`` (their actions and options), ``kernels`` (the source of the
kernels one runs) and ``bench`` (how fast each layer plays them)."""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import Any

from .. import list_variants
from ..arguments import fail, integer, real
from ..variants import VARIANTS, describe_options, get_variant
from ..variants.actions import describe_blocks
from ..variants.sources import cite
from .command import add_command, add_rule_options, rules_of

MAX_KERNEL_BYTES = 16 << 20  # a derived module of a rule set's kernels: some hundred kB

BENCH_SEARCH = "mcts:simulations=1000"  # the search whose simulations `mancala bench` counts


def register(commands: argparse._SubParsersAction) -> None:
    add_command(
        commands,
        "variants",
        "list the rule sets, their actions and options",
        variants_options,
        variants,
    )
    add_command(
        commands,
        "kernels",
        "print the source of the kernels a rule set runs",
        kernels_options,
        kernels,
    )
    add_command(commands, "bench", "measure random-play speed of every layer", bench_options, bench)


# ---- variants --------------------------------------------------------------------------------
def variants_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("names", nargs="*", metavar="NAME", help="only these rule sets")
    parser.add_argument("--json", action="store_true", help="one JSON object per rule set")


def _format_value(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def variants(args: argparse.Namespace) -> int:
    try:
        chosen = [get_variant(name) for name in args.names] if args.names else list_variants()
    except ValueError as error:
        return fail("variants", error)
    for variant in chosen:
        options = describe_options(variant.options_type)
        actions = describe_blocks(variant.actions, variant.params(variant.options()))
        if args.json:
            record = {
                "name": variant.name,
                "id": variant.env_id(),
                "title": variant.title,
                "source": cite(variant.source, markdown=False),
                "summary": variant.summary,
                "options": options,
                "actions": actions,
            }
            print(json.dumps(record))
            continue
        print(f"{variant.name}  {variant.title}  ({variant.env_id()})")
        print(f"  source:  {cite(variant.source, markdown=False)}")
        print(f"  summary: {variant.summary}")
        for block in actions:
            numbers = f"{block['first']}-{block['last']}"
            print(f"  actions {numbers:<7} {block['block']}: {block['first_does']}, ...")
        width = max(len(o["name"]) for o in options)
        for o in options:
            print(
                f"{'':<12}{o['name']:<{width}}  default {_format_value(o['default'])}"
                f"  [{o['allowed']}]"
            )
            indent = " " * (14 + width)
            print(textwrap.fill(o["doc"], 100, initial_indent=indent, subsequent_indent=indent))
        print()
    return 0


# ---- kernels ---------------------------------------------------------------------------------
def kernels_options(parser: argparse.ArgumentParser) -> None:
    from ..kernels import HOT_MODULES

    parser.add_argument("variant", help="rule set name (see 'mancala variants')")
    add_rule_options(parser)
    parser.add_argument(
        "--module",
        action="append",
        choices=("engine", *(name.rpartition(".")[2] for name in HOT_MODULES)),
        help="which derived module (repeatable; default: engine, the rules themselves)",
    )


def kernels(args: argparse.Namespace) -> int:
    """Print the source of the kernels a rule set runs under its options (derived, so that
    the reader sees the code the compiler sees)."""
    from ..kernels import HOT_MODULES, kernels_for
    from ..readers import read_bytes

    try:
        variant, options = rules_of(args)
        params = variant.params(options)
    except (TypeError, ValueError) as error:
        return fail("kernels", error)
    # written, not compiled; the rule set's own (the shared kernels have no derived files)
    files = kernels_for(variant, params, HOT_MODULES, uses=(), shared=False).files
    for name in args.module or ["engine"]:
        path = files["engine" if name == "engine" else f"mancala_env.{name}"]
        print(f"# {variant.title}'s {name} kernels: {path}")
        print(read_bytes(path, MAX_KERNEL_BYTES).decode())
    return 0


# ---- bench -----------------------------------------------------------------------------------
def bench_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant", action="append", default=[], help="rule set to measure (repeatable; all)"
    )
    parser.add_argument(
        "--seconds", type=real(0.01, 3600), default=2.0, help="time per measurement"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per row")
    parser.add_argument(
        "--slowest-moves",
        type=integer(0, 10**8),
        default=100_000,
        help="Game.step calls timed one by one for the slowest (0: none)",
    )


def bench(args: argparse.Namespace) -> int:
    for name in args.variant:
        if name not in VARIANTS:
            known = ", ".join(sorted(VARIANTS))
            return fail("bench", f"unknown variant {name!r}; known variants: {known}")
    from mancala_env.agents import load_agent

    from ..bench import describe_ratio, measure  # compiles the benchmark kernels

    if not args.json:
        print(f"{'variant':<16}{'benchmark':<28}{'threads':>8}{'moves/s':>14}{'games/s':>12}")
    searches = {"mcts": lambda name: load_agent(BENCH_SEARCH, name, seed=0)}
    for row in measure(args.variant or None, args.seconds, searches, args.slowest_moves):
        if args.json:
            print(json.dumps(row), flush=True)
        elif "note" in row:
            print(f"{row['variant']:<16}{row['benchmark']:<28}{'':>8}  {row['note']}", flush=True)
        else:
            slowest = f"  slowest step {row['slowest_ms']:,.2f} ms" if "slowest_ms" in row else ""
            slowest += f"  {describe_ratio(row)}" if "ratio" in row else ""
            print(
                f"{row['variant']:<16}{row['benchmark']:<28}{row['threads']:>8}"
                f"{row['moves_per_s']:>14,}{row['games_per_s']:>12,.1f}{slowest}",
                flush=True,
            )
    return 0
