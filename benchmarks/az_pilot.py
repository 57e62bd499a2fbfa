"""How fast the az recipe labels positions, per rule set and teacher depth: what a rule set's
`train/configs/az/` file is chosen from, so that its run fits its training time.

    python benchmarks/az_pilot.py --variants ayoayo ncho --depths 4 6 8 [--positions 200]
                                  [--teacher-nodes N] [--out benchmarks/results/az_pilots.json]

For each rule set and depth, one worker's share (`mancala_env.train.az.games.play_and_label`) is
labelled in this process, one core, with a new network and the rest of the rule set's config (its
opponents, its games at once; `--teacher-nodes` replaces its `teacher_nodes`): first a few
positions to compile and warm up, then `--positions` timed. A run's two workers label about
twice this a second, less the fitting. Each rule set's line is added to `--out` as it is
measured, so a stopped measurement keeps what it has.
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import replace
from datetime import date
from pathlib import Path

from mancala_env import Game
from mancala_env.agents.network import network_meta
from mancala_env.machine import describe_machine
from mancala_env.readers import parse_json, read_bytes
from mancala_env.train.az.config import load_az_config
from mancala_env.train.az.games import Task, play_and_label
from mancala_env.train.az.model import PolicyValueNet
from mancala_env.train.files import write_json

WARM_UP = 4  # positions labelled before the clock starts
MAX_RESULTS_BYTES = 1 << 20  # the results file of every rule set is about 5 KB


def positions_per_second(
    variant: str, depth: int, nodes: int | None, positions: int, seed: int
) -> float:
    """Positions labelled a second by one worker at teacher depth `depth` (and `nodes`, the
    teacher's budget, when given)."""
    config = replace(load_az_config(variant), teacher_depth=depth)
    if nodes is not None:
        config = replace(config, teacher_nodes=nodes)
    network = PolicyValueNet(network_meta(Game(variant), config.hidden)).network().to_bytes()
    play_and_label(Task(variant, {}, network, config, WARM_UP, seed))
    began = time.perf_counter()
    batch, _ = play_and_label(Task(variant, {}, network, config, positions, seed + 1))
    return len(batch) / (time.perf_counter() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", required=True)
    parser.add_argument("--depths", nargs="+", type=int, default=[4, 6, 8])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--teacher-nodes", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/az_pilots.json"))
    args = parser.parse_args()
    found = {}
    if args.out.exists():
        found = parse_json(read_bytes(args.out, MAX_RESULTS_BYTES), args.out)
    measured = found.get("rule_sets", {})
    for variant in args.variants:
        rates = {
            str(depth): round(
                positions_per_second(variant, depth, args.teacher_nodes, args.positions, args.seed),
                1,
            )
            for depth in args.depths
        }
        nodes = "" if args.teacher_nodes is None else f" --teacher-nodes {args.teacher_nodes}"
        budget = load_az_config(variant).teacher_nodes
        print(f"{variant}: positions/s by teacher depth {rates}", flush=True)
        measured[variant] = {
            "positions_per_second": rates,
            "teacher_nodes": budget if args.teacher_nodes is None else args.teacher_nodes,
            "date": date.today().isoformat(),
            "load_average": round(os.getloadavg()[0], 1),  # the machine is shared: how busy
            "command": f"nice -n {os.nice(0)} python benchmarks/az_pilot.py --variants {variant} "
            f"--depths {' '.join(map(str, args.depths))} --positions {args.positions}{nodes}",
        }
        machine = describe_machine()
        write_json(args.out, {"machine": machine, "rule_sets": measured})


if __name__ == "__main__":
    main()
