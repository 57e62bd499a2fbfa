"""Building an endgame database, one seed count at a time, resumably.

Level ``k`` (every board of ``k`` seeds) needs the levels below it only: its moves that capture
lead there, and its moves that capture nothing stay in the level (`kernels`, `settle`). Each
finished level is written to its own file at once, so a build that is stopped continues from the
last finished seed count when run again.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
from numba.typed import List
from tqdm import tqdm

from ..engine import layout as L
from ..inputs import check_memory
from ..kernels import kernels_for
from ..variants import RuleOptions, Variant
from .files import level_path, read_level, write_level
from .index import BINOMIAL, MAX_SEEDS, level_size, total_size
from .kernels import CHUNK, NO_EDGE
from .rules import (
    check_solvable,
    relevant_options,
    rules_key,
    solving_params,
    solving_template,
    stall_passes,
)
from .settle import BLOCK, chase_start, settle_level

MOVES_MODULE = "mancala_env.endgame.kernels"  # derived for each rule set (`solver_kernels`)
COMPILE_SECONDS = 60  # a rule set's engine and its moves kernel: Oware's on two busy cores


def max_build_seeds(pits: int) -> int:
    """The most seeds a level of boards of `pits` pits may hold: its boards are numbered in 32
    bits (30 seeds on twelve pits, C(41, 11) < 2**32)."""
    seeds = 0
    while seeds < MAX_SEEDS and level_size(seeds + 1, pits) < 2**32:
        seeds += 1
    return seeds


def rules_header(variant: Variant, options: RuleOptions) -> dict[str, Any]:
    """What a database's headers say about the rules it was built for."""
    return {
        "variant": variant.name,
        "version": variant.version,
        "options": relevant_options(variant, options),
        "rules": rules_key(variant, options),
        "pits": 2 * int(variant.params(options)[L.P_HOUSES]),
    }


def check_max_seeds(variant: Variant, options: RuleOptions, max_seeds: Any) -> int:
    """`max_seeds` as an int, or ValueError naming the allowed range."""
    params = variant.params(options)
    total = int(params[L.P_TOTAL_SEEDS])
    high = min(max_build_seeds(2 * int(params[L.P_HOUSES])), total)
    if isinstance(max_seeds, bool) or not isinstance(max_seeds, (int, np.integer)):
        raise ValueError(f"max_seeds must be an integer from 0 to {high}, got {max_seeds!r}")
    if not 0 <= max_seeds <= high:
        raise ValueError(f"max_seeds must be an integer from 0 to {high}, got {max_seeds}")
    return int(max_seeds)


@dataclass
class BuildReport:
    """What a build did: the levels found already built and those solved now, with timings."""

    directory: Path
    found: list[int]
    solved: list[int]
    seconds: dict[int, float]
    # in the stall reading, each level solved: (passes, or -1 when the stall limit's passes
    # did not settle it, and the boards the last pass changed: values the counter decides)
    passes: dict[int, tuple[int, int]] = field(default_factory=dict)

    @property
    def bytes_on_disk(self) -> int:
        levels = self.found + self.solved
        return sum(level_path(self.directory, k).stat().st_size for k in levels)


def solver_kernels(variant: Variant, params: np.ndarray) -> SimpleNamespace:
    """The moves kernel of `MOVES_MODULE` for the rule parameters `params`
    (`mancala_env.kernels`): it plays with the rule set's own engine, as its games do."""
    return kernels_for(
        variant, params, (MOVES_MODULE,), uses=("level_exits",), seconds=COMPILE_SECONDS
    )


def _edges_of_level(
    seeds: int,
    values: np.ndarray,
    offsets: np.ndarray,
    params: np.ndarray,
    template: np.ndarray,
    advance: Callable[[int], None],
    moves: Any,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, List, np.ndarray]:
    """Exits, edge counts, block starts, edge targets (one array a chunk) and stops of level
    `seeds`, played chunk by chunk with `moves.level_exits` (see `settle.settle_level`)."""
    count = level_size(seeds, 2 * int(params[L.P_HOUSES]))
    exits = np.empty(count, np.uint8)
    stops = np.empty(count, np.uint8)
    edge_counts = np.empty(count, np.uint8)
    block_start = np.empty((count + BLOCK - 1) // BLOCK, np.int64)
    targets = List()
    scratch = np.empty((min(CHUNK, count), int(params[L.P_N_ACTIONS])), np.uint32)
    for first in range(0, count, CHUNK):
        size = min(CHUNK, count - first)
        edges = scratch[:size]
        moves.level_exits(
            seeds,
            first,
            values,
            offsets,
            params,
            template,
            BINOMIAL,
            exits[first:][:size],
            edges,
            stops[first:][:size],
        )
        present = edges != NO_EDGE
        counts = present.sum(axis=1)
        edge_counts[first : first + size] = counts
        per_block = np.add.reduceat(counts, np.arange(0, size, BLOCK))
        block_start[first // BLOCK :][: per_block.shape[0]] = np.cumsum(per_block) - per_block
        targets.append(edges[present])
        advance(size)
    return exits, edge_counts, block_start, targets, stops


def _solve_level(
    seeds: int,
    values: np.ndarray,
    offsets: np.ndarray,
    params: np.ndarray,
    template: np.ndarray,
    advance: Callable[[int], None],
    moves: Any,
    stall: int | None,
) -> tuple[int, int]:
    """Solve level `seeds` into its slice of `values`, in the chase reading (`stall` None) or
    the stall reading of `stall` plies (`rules`); return `settle.settle_level`'s passes and
    changes of the last pass."""
    *edges, stops = _edges_of_level(seeds, values, offsets, params, template, advance, moves)
    count = level_size(seeds, 2 * int(params[L.P_HOUSES]))
    level = values[offsets[seeds] : offsets[seeds] + count]
    if stall is None:
        chase_start(seeds, edges[0], edges[1], level)
        passes, changed = settle_level(seeds, *edges, level, level[:0], count + 2)
        if passes < 0:
            raise RuntimeError(f"level {seeds} did not settle in {count + 2} passes")
        return passes, changed
    level[:] = stops
    return settle_level(seeds, *edges, level, np.empty_like(level), stall)


def build(
    variant: Variant,
    options: RuleOptions,
    max_seeds: int,
    directory: str | os.PathLike,
    progress: bool = True,
) -> BuildReport:
    """Build (or finish) the database of `variant` under `options` for every board of at most
    `max_seeds` seeds in `directory`. Levels already there are checked and kept; a directory
    holding a database of other rules, or a corrupt file, raises DatabaseError."""
    check_solvable(variant, options)
    max_seeds = check_max_seeds(variant, options, max_seeds)
    rules = rules_header(variant, options)
    pits = rules["pits"]
    offsets = np.array(
        [total_size(k - 1, pits) if k else 0 for k in range(max_seeds + 2)], np.int64
    )
    stall = stall_passes(variant.params(options))
    # at least: a byte a board of every level, and two more a board of the last one solved
    # (its exits and edge counts; two more in the stall reading: its stops and a pass's values)
    per_board = 2 if stall is None else 4
    check_memory(
        int(offsets[-1]) + per_board * level_size(max_seeds, pits), f"max_seeds {max_seeds}"
    )
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    values = np.zeros(offsets[-1], np.uint8)
    found = []
    for seeds in range(max_seeds + 1):
        path = level_path(directory, seeds)
        if not path.exists():
            break
        values[offsets[seeds] : offsets[seeds + 1]] = read_level(path, seeds, rules)
        found.append(seeds)
    todo = list(range(len(found), max_seeds + 1))
    params = solving_params(variant, options)
    template = solving_template(variant, params)
    moves = solver_kernels(variant, params) if todo else None
    report = BuildReport(directory, found, [], {})
    bar = _progress_bar(sum(level_size(k, pits) for k in todo), progress, found)
    try:
        for seeds in todo:
            bar.set_postfix_str(f"{seeds} seeds")
            start = time.perf_counter()
            passes = _solve_level(
                seeds, values, offsets, params, template, bar.update, moves, stall
            )
            if stall is not None:
                report.passes[seeds] = passes
            write_level(directory, seeds, rules, values[offsets[seeds] : offsets[seeds + 1]])
            report.seconds[seeds] = time.perf_counter() - start
            report.solved.append(seeds)
    finally:
        bar.close()
    return report


def _progress_bar(total: int, shown: bool, found: list[int]) -> tqdm:
    description = f"solving (seed counts 0-{found[-1]} found)" if found else "solving"
    return tqdm(total=total, unit="boards", unit_scale=True, desc=description, disable=not shown)
