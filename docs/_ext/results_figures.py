"""The documentation's measured figures, drawn from the results files when the site is built.

Each figure draws the numbers of a summary table (`results_tables`), from the same function,
so the figure and the table beside it cannot disagree.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import results_tables


def _figure(width: float, height: float, **grid: object):  # noqa: ANN202 (matplotlib's)
    """A figure and its axes (`grid`: ``nrows``, ``ncols``, ... as ``plt.subplots`` takes)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    return plt.subplots(figsize=(width, height), dpi=100, **grid)


def _png(figure) -> bytes:  # noqa: ANN001
    from matplotlib import pyplot as plt

    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    plt.close(figure)
    return buffer.getvalue()


def strength() -> bytes:
    """Each network's score without search and searching, with 95% intervals, the search's
    target as a line."""
    scores = results_tables.strength_scores()
    names = list(scores)
    figure, axes = _figure(7.2, 0.3 * len(names) + 1.3)
    series = (
        ("no_search", f"no search against {results_tables.SUMMARY_NO_SEARCH}", "o", -0.15),
        ("search", f"searching 0.1 s against {results_tables.SUMMARY_SEARCH}", "s", 0.15),
    )
    for key, label, marker, shift in series:
        rows = [(i, scores[name][key]) for i, name in enumerate(names) if scores[name][key]]
        axes.errorbar(
            [row[0] for _, row in rows],
            [i + shift for i, _ in rows],
            xerr=[
                [row[0] - row[1] for _, row in rows],
                [row[2] - row[0] for _, row in rows],
            ],
            fmt=marker,
            markersize=4,
            capsize=2,
            label=label,
        )
    axes.axvline(results_tables.SEARCH_TARGET, color="grey", linestyle="--", linewidth=0.8)
    axes.axvline(0.5, color="grey", linestyle=":", linewidth=0.8)
    axes.set_yticks(range(len(names)), [f"az:{name}" for name in names], fontsize=8)
    axes.invert_yaxis()
    axes.set_xlim(0, 1)
    axes.set_xlabel("score (a win 1, a draw 1/2), 95% interval; dashed: the search's target")
    axes.legend(fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, frameon=False)
    axes.grid(axis="x", alpha=0.3)
    return _png(figure)


def limits() -> bytes:
    """Each measured rule set's engine over its family's C loop, run by run, with the median
    and the target marked: how close to hand-written C the compiled engine plays."""
    record = results_tables.limits_record()
    variants = list(record["summary"])
    figure, axes = _figure(7.2, 0.45 * len(variants) + 1.0)
    for i, variant in enumerate(variants):
        summary = record["summary"][variant]
        ratios = [run[variant]["ratio"] for run in record["runs"]]
        first = i == 0
        axes.plot(ratios, [i] * len(ratios), "o", color="tab:blue", alpha=0.6, markersize=5,
                  label="a run" if first else None)  # fmt: skip
        axes.plot([summary["ratio_median"]] * 2, [i - 0.3, i + 0.3], color="tab:blue",
                  linewidth=2, label="the median" if first else None)  # fmt: skip
        axes.plot([summary["target"]] * 2, [i - 0.3, i + 0.3], color="tab:red", linestyle="--",
                  linewidth=1.2, label="the target" if first else None)  # fmt: skip
    axes.set_yticks(range(len(variants)), variants)
    axes.set_ylim(len(variants) - 0.5, -0.5)
    axes.set_xlim(0, 1)
    axes.set_xlabel("the engine's moves a second over its family's C loop's (1: as fast as C)")
    axes.legend(fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, frameon=False)
    axes.grid(axis="x", alpha=0.3)
    return _png(figure)


def baselines() -> bytes:
    """Each shipped policy's learning curve: its score against each evaluation baseline at each
    evaluation of its run, against the steps and, where the run counted them, the minutes."""
    runs = {key: run for key, run in results_tables.baseline_runs().items() if run[2]}
    rows = max(len(runs), 1)
    figure, grid = _figure(7.2, 2.4 * rows, nrows=rows, ncols=2, squeeze=False)
    for row, ((name, route), (_, _, curve)) in zip(grid, runs.items(), strict=False):
        variant = name if route == "batched_ppo" else f"{name}, MaskablePPO"
        for opponent in results_tables.BASELINE_OPPONENTS:
            points = [(e["timesteps"], e.get("seconds"), e["scores"][opponent][0])
                      for e in curve if opponent in e["scores"]]  # fmt: skip
            if not points:
                continue
            row[0].plot([p[0] / 1e6 for p in points], [p[2] for p in points], "o-",
                        markersize=3, label=opponent)  # fmt: skip
            timed = [p for p in points if p[1] is not None]
            if timed:
                row[1].plot([p[1] / 60 for p in timed], [p[2] for p in timed], "o-",
                            markersize=3, label=opponent)  # fmt: skip
        row[0].set_xlabel(f"{variant}: million steps")
        row[1].set_xlabel(f"{variant}: minutes of training (where the run counted them)")
        for axes in row:
            axes.set_ylim(0, 1)
            axes.set_ylabel("score")
            axes.grid(alpha=0.3)
        row[0].legend(fontsize=7, loc="lower right")
    return _png(figure)


FIGURES: dict[str, Callable[[], bytes]] = {
    "strength": strength,
    "limits": limits,
    "baselines": baselines,
}
