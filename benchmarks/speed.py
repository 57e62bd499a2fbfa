"""Measure every layer of the suite and print it as a Markdown table.

    python benchmarks/speed.py [--seconds 2] [--variant oware ...]

The same measurements as `mancala bench` (see `mancala_env.bench`), laid out as one row per
rule set and one column per layer, in moves (plies) per second; `mcts` in simulations per
second (`mcts:simulations=1000` on positions of random play), `slowest step` the slowest of
100,000 `Game.step` calls in random play, in milliseconds. With Oware, the anchors measured
in the same run follow: PettingZoo's `connect_four_v3` and OpenSpiel's `oware` stepped from Python
(when installed: `pip install -e ".[bench]"`) in the `aec` column; the C reference loop of each
rule set's family (when there is a C compiler; built with `-O3 -march=native`, or `-O3` where the
compiler refuses that) has a column of its own. Then the ratios the speed targets are set in:
every rule set's one-core engine against its family's loop (with the loop's flags), Oware's batch
against OpenSpiel's Python loop, and every rule set's batched, vec_env and MCTS rates against
Oware's.
"""

from __future__ import annotations

import argparse

import numba

from mancala_env.agents import load_agent
from mancala_env.bench import C_REFERENCE, OPEN_SPIEL, describe_ratio, measure
from mancala_env.machine import describe_machine

SEARCHES = {"mcts": lambda name: load_agent("mcts:simulations=1000", name, seed=0)}
AGAINST_OWARE = ("batched", "vec_env", "mcts")  # each rule set's rate / Oware's
SLOWEST = "slowest step"
LAYERS = [
    "engine_1_core",
    C_REFERENCE,  # the loop of the rule set's family, run right after it
    "engine_1_core_shared",
    "engine_all_cores",
    "batched",
    "batched_given_actions",
    "aec",
    "gymnasium",
    "vec_env",
    "make_vec",
    "mcts",
    SLOWEST,
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--variant", action="append", default=[], help="rule set (repeatable)")
    args = parser.parse_args()
    table: dict[str, dict[str, str]] = {}
    others = []
    speeds: dict[tuple[str, str], int] = {}
    limits = []
    for row in measure(args.variant or None, args.seconds, SEARCHES):
        if "ratio" in row:
            limits.append(f"{row['variant']} {describe_ratio(row)}")
        cell = f"{row['moves_per_s']:,}" if "moves_per_s" in row else row["note"]
        if "moves_per_s" in row:
            speeds[row["variant"], row["benchmark"]] = row["moves_per_s"]
        if row["benchmark"] == "game_step_slowest":
            table.setdefault(row["variant"], {})[SLOWEST] = f"{row['slowest_ms']:.2f} ms"
        elif row["benchmark"] in LAYERS:
            table.setdefault(row["variant"], {})[row["benchmark"]] = cell
        else:
            others.append((row["benchmark"], cell))
    print(f"{describe_machine()}, {numba.get_num_threads()} threads, moves per second\n")
    print("| rule set | " + " | ".join(LAYERS) + " |")
    print("|---" * (len(LAYERS) + 1) + "|")
    for name, cells in table.items():
        print(f"| `{name}` | " + " | ".join(cells.get(layer, "") for layer in LAYERS) + " |")
    for name, cell in others:  # the anchors stepped from Python, beside aec
        cells = [""] * len(LAYERS)
        cells[LAYERS.index("aec")] = cell
        print(f"| {name} | " + " | ".join(cells) + " |")
    print()
    for text in limits:
        print(f"- {text}")
    for text, ratio in ratios(speeds):
        print(f"- {text}: {ratio:.2f}")


def ratios(speeds: dict[tuple[str, str], int]) -> list[tuple[str, float]]:
    """The ratios of the speed targets, for those whose two rows were measured."""
    wanted = [
        ("oware batched / OpenSpiel's Python loop", ("oware", "batched"), OPEN_SPIEL),
    ]
    found = [
        (text, speeds[top] / speeds["oware", anchor])
        for text, top, anchor in wanted
        if top in speeds and ("oware", anchor) in speeds
    ]
    for name in sorted({variant for variant, _ in speeds} - {"oware"}):
        for layer in AGAINST_OWARE:
            if (name, layer) in speeds and ("oware", layer) in speeds:
                ratio = speeds[name, layer] / speeds["oware", layer]
                found.append((f"{name} {layer} / oware {layer}", ratio))
    return found


if __name__ == "__main__":
    main()
