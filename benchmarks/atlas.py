"""The balance atlas: every rule set's first-player score and draw rate under strong play.

    python benchmarks/atlas.py [--out atlas] [--workers 1] [--cell NAME ...] [--summarise]

For every rule set, and for the options that change balance (Oware's and Ouri's grand slam,
Ayoayo's origin skip, J'erin's opening, Mangala's setting out), and for small Oware boards
that the endgame builder solves whole, the script plays one alpha-beta agent against itself
from the start (`mancala_env.agents.tournament.balance`: the setting out by the agent, each
player's first move at random, ties broken at random) until the 95% Wilson intervals of the
first player's score and of the draw rate are both at most +-0.05, or 400 games. A solved
board's exact value (`mancala_env.endgame.start`) stands beside its measured score.

Everything is resumable: the games go to the tournament store OUT/atlas.sqlite as each finishes
(a rerun plays only what is missing), the databases to OUT/endgames/. After every cell the
results file (`--results`, benchmarks/results/atlas.json) and the figure (`--figure`,
docs/atlas.png) are written again from the store; `--summarise` writes them without playing.
The cells come cheapest and most asked first, so a run stopped early has those. A cell the
store does not hold keeps its record in the results file when that measured the same rule set,
version, options and agent (a run elsewhere): running one cell adds it to the file. That file is
read as the suite reads files (`mancala_env.readers`) and checked field by field, and the
outputs are checked as the suite's commands check theirs, before anything is played or written:
a bad argument or results file is one line and exit status 2.
"""

from __future__ import annotations

import datetime
import io
import json
import reprlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mancala_env.agents.tournament.balance import Cell, play_cell, read_cell
from mancala_env.agents.tournament.store import GameStore
from mancala_env.arguments import Parser, integer, output_file, output_folder
from mancala_env.arguments import seed as seed_type
from mancala_env.inputs import is_integer, is_number
from mancala_env.machine import describe_machine
from mancala_env.outputs import PNG_PICTURE, check_output, write_atomically
from mancala_env.readers import ReadError, parse_json, read_bytes
from mancala_env.variants import get_variant

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "atlas.json"
FIGURE = ROOT / "docs" / "atlas.png"
HALF_WIDTH = 0.05
MAX_GAMES = 400  # at 400 games every Wilson 95% interval is within +-0.05
DEPTH = 6
MIGHTY_DEPTH = 4  # the 10 Mighty Men's games are by far the longest to search
MAX_RESULTS_BYTES = 1 << 20  # the results file of every cell is about 20 KB


def _cell(variant: str, depth: int = DEPTH, **options: Any) -> Cell:
    return Cell(variant, options, f"alphabeta:depth={depth}")


CELLS: list[Cell] = [
    _cell("oware"),
    _cell("oware", grand_slam="capture"),
    _cell("ayoayo"),
    _cell("ayoayo", skip_origin="lap"),
    _cell("ayoayo", skip_origin="none"),
    _cell("kpo"),
    _cell("ouri"),
    _cell("ouri", grand_slam="capture"),
    _cell("ouri", grand_slam="no_capture"),
    _cell("oware", houses=3, seeds=3),
    _cell("oware", houses=3, seeds=4),
    _cell("oware", houses=4, seeds=3),
    _cell("tampoduo"),
    _cell("obridjie"),
    _cell("ayoyayo"),
    _cell("rio_kadalis"),
    _cell("layli_goobalay"),
    _cell("ncho"),
    _cell("jerin"),
    _cell("jerin", opening="first_move"),
    _cell("mangala"),
    _cell("mangala", setting_out="fixed"),
    _cell("mangala", setting_out="random"),
    _cell("mighty_men", MIGHTY_DEPTH),
    _cell("mighty_men_calm", MIGHTY_DEPTH),
]
SOLVABLE = ("oware", "kpo", "ouri")  # whose board size is an option: small boards solve whole
MAX_SOLVED_SEEDS = 24  # the largest game solved whole here


def exact(cell: Cell, folder: Path) -> dict[str, Any] | None:
    """The start's value of a board small enough to solve whole (built in `folder`, or read
    from the database there), or None."""
    if cell.variant not in SOLVABLE:
        return None
    variant = get_variant(cell.variant)
    options = variant.options(**cell.options)
    seeds = 2 * options.houses * options.seeds
    if seeds > MAX_SOLVED_SEEDS:
        return None
    from mancala_env.endgame.build import build  # compiles the solver only when needed
    from mancala_env.endgame.start import start_value

    build(variant, options, seeds, folder, progress=False)
    start = start_value(folder, variant, options)
    assert start is not None  # the database holds every seed of the game
    return {
        "first_player_seeds": start.seeds,
        "seeds": start.total,
        "result": start.result,
        "score": {"win": [1, 1], "draw": [0.5, 0.5], "loss": [0, 0]}.get(
            start.result, [0.5, 1] if start.margin > 0 else [0, 0.5]
        ),
    }


def cell_record(cell: Cell, balance: dict[str, Any], exact_value: Any) -> dict[str, Any]:
    return {
        "name": cell.name,
        "variant": cell.variant,
        "version": get_variant(cell.variant).version,
        "options": cell.options,
        "agent": cell.agent,
        "budget": cell.agent.partition(":")[2].replace("=", " "),
        **balance,
        "exact": exact_value,
    }


def summarise(
    cells: list[Cell], store_path: Path, out: Path, seed: int, half_width: float, max_games: int
) -> list[dict[str, Any]]:
    """Each cell's record from the games the store holds (played to the stop, or as far as
    they got: `complete` says which) and its exact value where a database was built."""
    if not store_path.exists():
        return []
    records = []
    with GameStore(store_path, read_only=True) as store:
        for cell in cells:
            found = read_cell(store, cell, seed, half_width, max_games)
            if found is None:
                continue
            balance, complete = found
            folder = _database_folder(out, cell)
            exact_value = exact(cell, folder) if folder.exists() else None
            records.append(
                cell_record(cell, {**balance.as_dict(), "complete": complete}, exact_value)
            )
    return records


def _share(value: Any) -> bool:
    return is_number(value) and 0 <= value <= 1


def _interval(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(map(_share, value))
        and value[0] <= value[1]
    )


def _count(value: Any) -> bool:
    return is_integer(value, numpy=False) and value >= 0


def _exact(value: Any) -> bool:
    """None, or a solved start's value as `exact` gives it."""
    return value is None or (
        isinstance(value, dict)
        and set(value) == {"first_player_seeds", "seeds", "result", "score"}
        and is_number(value["first_player_seeds"])
        and _count(value["seeds"])
        and 0 <= value["first_player_seeds"] <= value["seeds"]
        and isinstance(value["result"], str)
        and _interval(value["score"])
    )


# each field of a cell's record (`cell_record`), what it must be and the words for that
CELL_FIELDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "name": (lambda value: isinstance(value, str), "a text"),
    "variant": (lambda value: isinstance(value, str), "a text"),
    "version": (_count, "an integer of 0 or more"),
    "options": (lambda value: isinstance(value, dict), "an object"),
    "agent": (lambda value: isinstance(value, str), "a text"),
    "budget": (lambda value: isinstance(value, str), "a text"),
    "games": (_count, "an integer of 0 or more"),
    "first_player_score": (_share, "a number from 0 to 1"),
    "first_player_interval": (_interval, "two numbers from 0 to 1, the lower first"),
    "draw_rate": (_share, "a number from 0 to 1"),
    "draw_interval": (_interval, "two numbers from 0 to 1, the lower first"),
    "distinct_games": (_count, "an integer of 0 or more"),
    "mean_plies": (lambda value: is_number(value) and value >= 0, "a number of 0 or more"),
    "seconds_per_game": (lambda value: is_number(value) and value >= 0, "a number of 0 or more"),
    "complete": (lambda value: isinstance(value, bool), "true or false"),
    "exact": (_exact, "null or a solved start's value (first_player_seeds, seeds, result, score)"),
}


SHARE_INTERVALS = {"first_player_score": "first_player_interval", "draw_rate": "draw_interval"}


def read_records(results: Path) -> list[dict[str, Any]]:
    """The cells' records of the results file `results`, read as any file the suite reads
    (`mancala_env.readers`: measured, its nesting scanned) and checked field by field; a file
    that is not one this script writes is a ReadError naming the record and the field."""
    document = parse_json(read_bytes(results, MAX_RESULTS_BYTES), results)
    records = document.get("cells") if isinstance(document, dict) else None
    if not isinstance(records, list):
        raise ReadError(results, "is not an atlas results file: no list of 'cells'")
    for number, record in enumerate(records, 1):
        if not isinstance(record, dict):
            raise ReadError(results, f"cell {number} is not an object")
        for field, (valid, what) in CELL_FIELDS.items():
            if field not in record:
                raise ReadError(results, f"cell {number} has no {field!r}")
            if not valid(record[field]):
                got = reprlib.repr(record[field])
                raise ReadError(results, f"cell {number}'s {field} must be {what}, got {got}")
        for share, interval in SHARE_INTERVALS.items():
            low, high = record[interval]
            if not low <= record[share] <= high:
                raise ReadError(
                    results,
                    f"cell {number}'s {share} {record[share]} is outside its interval {low}-{high}",
                )
    return records


def earlier_records(cells: list[Cell], results: Path) -> list[dict[str, Any]]:
    """The records of `results` (an earlier run's file, perhaps from another machine) that
    measured one of `cells` as it is now: the same rule set, version, options and agent."""
    if not results.exists():
        return []
    now = {
        (cell.name, cell.agent): (cell.variant, get_variant(cell.variant).version, cell.options)
        for cell in cells
    }
    return [
        record
        for record in read_records(results)
        if now.get((record["name"], record["agent"]))
        == (record["variant"], record["version"], record["options"])
    ]


def merged(
    earlier: list[dict[str, Any]], played: list[dict[str, Any]], cells: list[Cell]
) -> list[dict[str, Any]]:
    """One record a cell, in the order of `cells`: the one the store gives, else the earlier."""
    found = {(record["name"], record["agent"]): record for record in earlier}
    found.update(((record["name"], record["agent"]), record) for record in played)
    return [found[cell.name, cell.agent] for cell in cells if (cell.name, cell.agent) in found]


def _database_folder(out: Path, cell: Cell) -> Path:
    return out / "endgames" / cell.name.replace(" ", "_").replace("=", "-")


def write_results(
    path: Path,
    records: list[dict[str, Any]],
    command: str,
    seed: int,
    half_width: float,
    max_games: int,
) -> None:
    document = {
        "date": datetime.date.today().isoformat(),
        "machine": describe_machine(),
        "command": command,
        "seed": seed,
        "half_width": half_width,
        "max_games": max_games,
        "cells": records,
    }
    write_atomically(path, (json.dumps(document, indent=1) + "\n").encode())


def write_figure(path: Path, records: list[dict[str, Any]]) -> None:
    """The first player's score and the draw rate of each cell with their intervals, the
    exact score of a solved board beside them."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [r["name"] + ("" if r["complete"] else " (unfinished)") for r in records]
    rows = list(range(len(records)))[::-1]
    figure, (left, right) = plt.subplots(
        1, 2, figsize=(10, 1.2 + 0.32 * len(records)), sharey=True, width_ratios=(3, 2)
    )
    for axis, value, interval in (
        (left, "first_player_score", "first_player_interval"),
        (right, "draw_rate", "draw_interval"),
    ):
        centre = [r[value] for r in records]
        low = [r[value] - r[interval][0] for r in records]
        high = [r[interval][1] - r[value] for r in records]
        axis.errorbar(centre, rows, xerr=[low, high], fmt="o", color="tab:blue", capsize=3)
        axis.set_xlim(0, 1)
        axis.grid(axis="x", alpha=0.3)
    left.axvline(0.5, color="grey", linestyle="--")
    for row, record in zip(rows, records, strict=True):
        if record["exact"] is not None:
            low, high = record["exact"]["score"]
            left.plot([low, high], [row, row], "D", color="tab:red", markersize=6)
    left.plot([], [], "D", color="tab:red", label="solved: perfect play")
    left.legend(loc="lower left", fontsize=8)
    left.set_yticks(rows, names, fontsize=8)
    left.set_xlabel("first player's score (95% Wilson interval)")
    right.set_xlabel("draw rate (95% Wilson interval)")
    figure.tight_layout()
    picture = io.BytesIO()
    figure.savefig(picture, format="png", dpi=110)
    plt.close(figure)
    write_atomically(path, picture.getvalue(), PNG_PICTURE)


def run(
    cells: list[Cell],
    out: Path,
    results: Path,
    figure: Path,
    command: str,
    seed: int = 0,
    half_width: float = HALF_WIDTH,
    max_games: int = MAX_GAMES,
    workers: int = 1,
    play: bool = True,
) -> list[dict[str, Any]]:
    """Play each cell to its stop (unless `play` is False), writing the results file and the
    figure after each; the records written last. A cell the store does not hold keeps its
    record from the results file when that measured the same rules and agent (a run on another
    machine), so a run of one cell adds to the file. The results file is read, and both
    outputs checked (`mancala_env.outputs.check_output`), before anything is made."""
    known = {(cell.name, cell.agent) for cell in CELLS}
    every = [*CELLS, *(cell for cell in cells if (cell.name, cell.agent) not in known)]
    earlier = earlier_records(every, results)
    check_output(results)
    check_output(figure, PNG_PICTURE)
    out.mkdir(parents=True, exist_ok=True)
    store = out / "atlas.sqlite"
    records: list[dict[str, Any]] = []
    for cell in cells if play else [None]:
        if cell is not None:
            print(f"{cell.name} ({cell.agent})", file=sys.stderr, flush=True)
            exact(cell, _database_folder(out, cell))  # built first: the games then start
            play_cell(cell, store, seed, half_width, max_games, workers)
        played = summarise(every, store, out, seed, half_width, max_games)
        records = merged(earlier, played, every)
        write_results(results, records, command, seed, half_width, max_games)
        if records:
            write_figure(figure, records)
    return records


def main(argv: list[str] | None = None) -> None:
    parser = Parser(prog="atlas.py", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--out", type=output_folder, default="atlas", help="the store and databases"
    )
    parser.add_argument("--results", type=output_file, default=str(RESULTS))
    parser.add_argument("--figure", type=output_file, default=str(FIGURE))
    parser.add_argument("--workers", type=integer(1), default=1)
    parser.add_argument("--seed", type=seed_type, default=0)
    names = [cell.name for cell in CELLS]
    parser.add_argument(
        "--cell", action="append", choices=names, metavar="NAME", help="only these cells"
    )
    parser.add_argument("--summarise", action="store_true", help="write the files, play nothing")
    parser.keep_apart("figure", "results")
    args = parser.parse_args(argv)
    cells = [cell for cell in CELLS if args.cell is None or cell.name in args.cell]
    command = "python benchmarks/atlas.py " + " ".join(sys.argv[1:] if argv is None else argv)
    try:
        run(
            cells,
            Path(args.out),
            Path(args.results),
            Path(args.figure),
            command.strip(),
            seed=args.seed,
            workers=args.workers,
            play=not args.summarise,
        )
    except ValueError as error:  # an earlier results file or a store refused
        parser.error(str(error))
    except OSError as error:  # an output refused, or a folder that cannot be made
        parser.exit(1, f"{parser.prog}: error: {error}\n")


if __name__ == "__main__":
    main()
