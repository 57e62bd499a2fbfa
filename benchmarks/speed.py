"""Measure every layer of the suite and print the Markdown table the README quotes.

    python benchmarks/speed.py [--seconds 2] [--variant oware ...]

The same measurements as `mancala bench` (see `mancala_env.bench`), laid out as one row per
rule set and one column per layer, in moves (plies) per second; the rows of PettingZoo's
`connect_four_v3` and OpenSpiel's `oware`, measured in the same run, follow when those packages
are installed (`pip install -e ".[bench]"`).
"""

from __future__ import annotations

import argparse
import platform

import numba

from mancala_env.bench import measure

LAYERS = ["engine_1_core", "engine_all_cores", "batched", "aec", "gymnasium", "vec_env"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--variant", action="append", default=[], help="rule set (repeatable)")
    args = parser.parse_args()
    table: dict[str, dict[str, str]] = {}
    others = []
    for row in measure(args.variant or None, args.seconds):
        cell = f"{row['moves_per_s']:,}" if "moves_per_s" in row else row["note"]
        if row["benchmark"] in LAYERS:
            table.setdefault(row["variant"], {})[row["benchmark"]] = cell
        else:
            others.append((row["benchmark"], cell))
    print(f"{platform.machine()}, {numba.get_num_threads()} threads, moves per second\n")
    print("| rule set | " + " | ".join(LAYERS) + " |")
    print("|---" * (len(LAYERS) + 1) + "|")
    for name, cells in table.items():
        print(f"| `{name}` | " + " | ".join(cells.get(layer, "") for layer in LAYERS) + " |")
    for name, cell in others:  # Python-stepped, like the AEC column
        print(f"| {name} | " + " | ".join([""] * 3 + [cell, "", ""]) + " |")


if __name__ == "__main__":
    main()
