"""How close an agent plays to perfect play: its moves in endgame positions, scored by an
endgame database (see docs/endgames.md).

In each position the agent's move is compared with the best: whether it keeps the position's
value (the most seeds the mover can win against best play), and how many seeds it gives away.
Positions are drawn uniformly among the boards of each seed count, with a random player to move,
keeping those where the mover has a choice (two legal moves or more).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from mancala_env.endgame.database import EndgameDatabase
from mancala_env.endgame.positions import random_choices
from mancala_env.variants import RuleOptions, Variant

from .base import Agent

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval
BOOTSTRAP_SAMPLES = 2000
MIN_SEEDS = 3  # in the Oware family, a board of two seeds never gives the mover a choice


@dataclass
class AccuracyRow:
    """The agent's play on the positions of one seed count (``seeds`` None: all of them)."""

    seeds: int | None
    positions: int
    keeps_value: float  # the share of moves that keep the position's value
    keeps_low: float  # its 95% Wilson interval
    keeps_high: float
    seeds_lost: float  # the mean seeds given away a move
    lost_low: float  # its 95% bootstrap (percentile) interval
    lost_high: float

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def keeps_cell(self) -> str:
        """The share that keeps the value, with its interval, as a table shows it."""
        return f"{self.keeps_value:.3f} ({self.keeps_low:.3f}-{self.keeps_high:.3f})"

    def lost_cell(self) -> str:
        """The mean seeds lost, with its interval, as a table shows it."""
        return f"{self.seeds_lost:.3f} ({self.lost_low:.3f}-{self.lost_high:.3f})"


def wilson_interval(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a share."""
    share = successes / trials
    scale = 1 + Z95**2 / trials
    centre = (share + Z95**2 / (2 * trials)) / scale
    half = Z95 * math.sqrt(share * (1 - share) / trials + Z95**2 / (4 * trials**2)) / scale
    return max(0.0, centre - half), min(1.0, centre + half)


def bootstrap_interval(values: np.ndarray, rng: np.random.Generator) -> tuple[float, float]:
    """The 95% percentile bootstrap interval of a mean."""
    means = rng.choice(values, size=(BOOTSTRAP_SAMPLES, values.shape[0])).mean(axis=1)
    low, high = np.quantile(means, [0.025, 0.975])
    return float(low), float(high)


def summarise(seeds: int | None, lost: np.ndarray, rng: np.random.Generator) -> AccuracyRow:
    """The row of the seeds each move lost (0 where it kept the value)."""
    kept = int(np.count_nonzero(lost == 0))
    return AccuracyRow(
        seeds,
        int(lost.shape[0]),
        kept / lost.shape[0],
        *wilson_interval(kept, lost.shape[0]),
        float(lost.mean()),
        *bootstrap_interval(lost, rng),
    )


def action_loss(database: EndgameDatabase, game: Any, action: int) -> float:
    """Seeds `action` gives away in `game` against best play (0 when it keeps the position's
    value)."""
    values = database.action_values(game)
    if action not in values:
        raise ValueError(f"the agent played {action!r}, not one of the legal {list(values)}")
    return (max(values.values()) - values[action]) / 2


def seeds_lost(agent: Agent, database: EndgameDatabase, game: Any) -> float:
    """Seeds the agent's move in `game` gives away against best play (0 when it keeps the
    position's value)."""
    return action_loss(database, game, agent.act(game))


def measure_accuracy(
    agent: Agent,
    database: EndgameDatabase,
    variant: Variant,
    options: RuleOptions,
    max_seeds: int,
    positions: int,
    seed: int = 0,
) -> list[AccuracyRow]:
    """Score `agent` on `positions` random positions of 3 to `max_seeds` seeds (spread evenly
    over the seed counts): one row a seed count, then one for all."""
    if not MIN_SEEDS <= max_seeds <= database.max_seeds:
        raise ValueError(
            f"max_seeds must be an integer from {MIN_SEEDS} to {database.max_seeds} (the "
            f"database's largest seed count), got {max_seeds}"
        )
    counts = range(MIN_SEEDS, max_seeds + 1)
    if positions < len(counts):
        raise ValueError(
            f"positions must be at least {len(counts)} (one for each seed count from "
            f"{MIN_SEEDS} to {max_seeds}), got {positions}"
        )
    rng = np.random.default_rng(seed)
    rows, everything = [], []
    for index, seeds in enumerate(counts):
        share = positions // len(counts) + (index < positions % len(counts))
        games = random_choices(variant, options, seeds, rng)
        lost = np.array([seeds_lost(agent, database, next(games)) for _ in range(share)])
        rows.append(summarise(seeds, lost, rng))
        everything.append(lost)
    rows.append(summarise(None, np.concatenate(everything), rng))
    return rows


def format_table(
    first: str,
    labelled: list[tuple[str, AccuracyRow | None]],
    positions: str = "positions",
    align: str = ">",
) -> str:
    """Rows as a terminal table, each after its label (a column headed `first`, aligned by
    `align`: ``>`` right, ``<`` left); a row None (nothing to score) shows dashes."""
    width = max(len(first), *(len(label) for label, _ in labelled))
    count = max(len(positions), 5)
    head = f"{first:{align}{width}} {positions:>{count}}  {'keeps value (95%)':<22}"
    lines = [f"{head}  seeds lost a move (95%)"]
    for label, row in labelled:
        cells = (
            "-".ljust(22) + "  -" if row is None else f"{row.keeps_cell():<22}  {row.lost_cell()}"
        )
        scored = 0 if row is None else row.positions
        lines.append(f"{label:{align}{width}} {scored:>{count}}  {cells}")
    return "\n".join(lines)


def format_rows(rows: list[AccuracyRow]) -> str:
    """The rows of `measure_accuracy` as a table, a row a seed count."""
    return format_table("seeds", [("all" if r.seeds is None else str(r.seeds), r) for r in rows])
