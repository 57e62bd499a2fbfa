"""The learning curve of an ``--algo az`` run: the network's score against each alpha-beta
depth (95% intervals as bands) against training time."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from mancala_env.outputs import write_atomically


def plot_curve(evaluations: list[dict[str, Any]], path: str | Path, variant: str) -> None:
    """Draw `evaluations` (``evaluations.jsonl``'s lines) into the PNG file `path`."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4.2), dpi=110)
    minutes = [e["seconds"] / 60 for e in evaluations]
    for baseline in evaluations[-1]["scores"]:
        rows = [e["scores"].get(baseline) for e in evaluations]
        kept = [(m, r) for m, r in zip(minutes, rows, strict=True) if r is not None]
        xs = [m for m, _ in kept]
        line = axes.plot(
            xs,
            [r[0] for _, r in kept],
            marker="o",
            markersize=3,
            label=baseline.replace("alphabeta:", "alpha-beta "),
        )
        axes.fill_between(
            xs,
            [r[1] for _, r in kept],
            [r[2] for _, r in kept],
            alpha=0.12,
            color=line[0].get_color(),
        )
    axes.axhline(0.5, color="grey", linewidth=0.8, linestyle=":")
    axes.set_ylim(0, 1)
    axes.set_xlabel("training time (minutes)")
    axes.set_ylabel("score of the network (no search)")
    axes.set_title(f"{variant}: the policy network against alpha-beta (95% intervals)")
    axes.legend(fontsize=8, loc="lower right", ncol=2)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    plt.close(figure)
    write_atomically(path, buffer.getvalue())
