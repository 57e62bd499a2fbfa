"""The learning curve of an ``--algo az`` run: the network's score against each alpha-beta
depth (95% intervals as bands) against training time.

A network trained in stages (each a run started with ``--init`` from the network the one
before fitted) has one curve, drawn from each stage's ``evaluations.jsonl`` in order:

    python -m mancala_env.train.az.curve --variant oware --out docs/az-oware-learning-curve.png \
        benchmarks/results/az_oware_training.jsonl \
        benchmarks/results/az_oware_training_continued.jsonl \
        benchmarks/results/az_oware_training_self_play.jsonl
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mancala_env.arguments import Parser, input_file, output_file
from mancala_env.outputs import PNG_PICTURE, write_atomically
from mancala_env.readers import parse_json, read_bytes
from mancala_env.variants import VARIANTS

MAX_CURVE_BYTES = 4 * 2**20  # a run's evaluations: about 900 bytes each
COUNTED_ON = ("generation", "positions", "seconds")  # what a later stage counts on from


def read_evaluations(path: str | Path) -> list[dict[str, Any]]:
    """An ``evaluations.jsonl``'s lines (one evaluation each), read bounded; ValueError naming
    the file unless it holds at least one and each has the fields a curve is drawn from."""
    text = read_bytes(Path(path), MAX_CURVE_BYTES).decode()
    rows = [parse_json(line, path) for line in text.splitlines() if line.strip()]
    if not rows:
        raise ValueError(f"{path}: no evaluations")
    for row in rows:
        if not isinstance(row, dict) or not all(key in row for key in (*COUNTED_ON, "scores")):
            raise ValueError(f"{path}: an evaluation needs {', '.join(COUNTED_ON)} and scores")
        if not all(_is_number(row[key]) for key in COUNTED_ON) or not _are_scores(row["scores"]):
            raise ValueError(
                f"{path}: an evaluation's {', '.join(COUNTED_ON)} are numbers and its scores "
                "map each opponent to [score, low, high]"
            )
    return rows


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _are_scores(scores: Any) -> bool:
    return isinstance(scores, dict) and all(
        isinstance(triple, list) and len(triple) == 3 and all(map(_is_number, triple))
        for triple in scores.values()
    )


def join_stages(stages: list[list[dict[str, Any]]]) -> tuple[list[dict[str, Any]], list[float]]:
    """The evaluations of a network's training stages as one run's: each later stage's
    generations, positions and seconds counted on from the last evaluation of the stage before
    (a run evaluates its network at its end); and the seconds at which each later stage began."""
    joined: list[dict[str, Any]] = []
    starts: list[float] = []
    offset = dict.fromkeys(COUNTED_ON, 0)
    for stage in stages:
        if joined:
            offset = {key: joined[-1][key] for key in COUNTED_ON}
            starts.append(offset["seconds"])
        joined += [{**row, **{key: row[key] + offset[key] for key in COUNTED_ON}} for row in stage]
    return joined, starts


def plot_curve(
    evaluations: list[dict[str, Any]],
    path: str | Path,
    variant: str,
    stage_starts: Sequence[float] = (),
    replace: bool = False,
) -> None:
    """Draw `evaluations` (``evaluations.jsonl``'s lines) into the PNG file `path`, with a
    line where each of `stage_starts` (seconds) began a later stage of the training; an
    existing file at `path` that is no PNG picture is replaced only with `replace`."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    figure, axes = plt.subplots(figsize=(8.4, 4.2), dpi=110)
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
    for number, start in enumerate(stage_starts, start=2):
        axes.axvline(start / 60, color="black", linewidth=0.8, linestyle="--")
        axes.annotate(f"stage {number}", (start / 60, 0.97), xytext=(3, 0),
                      textcoords="offset points", fontsize=8, va="top")  # fmt: skip
    axes.set_ylim(0, 1)
    axes.set_xlabel("training time (minutes)")
    axes.set_ylabel("score of the network (no search)")
    axes.set_title(f"{variant}: the policy network against alpha-beta (95% intervals)")
    # beside the plot, not over it: the curves reach every corner of the axes
    axes.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    plt.close(figure)
    write_atomically(path, buffer.getvalue(), PNG_PICTURE, replace)


def main(argv: list[str] | None = None) -> int:
    parser = Parser(
        prog="python -m mancala_env.train.az.curve",
        description="Draw a network's learning curve from its training stages' evaluations.",
    )
    parser.add_argument("stages", nargs="+", type=input_file, help="evaluations.jsonl, in order")
    parser.add_argument("--variant", required=True, choices=sorted(VARIANTS))
    parser.add_argument("--out", required=True, type=output_file, help="the PNG file to write")
    parser.writes("out", PNG_PICTURE)
    args = parser.parse_args(argv)
    try:
        joined, starts = join_stages([read_evaluations(path) for path in args.stages])
    except ValueError as error:
        parser.error(str(error))
    plot_curve(joined, args.out, args.variant, starts, replace=args.replace)
    print(f"wrote {args.out}: {len(joined)} evaluations in {len(args.stages)} stage(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
