"""Self-play with search-improved targets from scratch, Gumbel's targets against PUCT's, beside
the teacher recipe, each for the same training minutes: which recipe learns faster here.

    python benchmarks/self_play_recipes.py [--minutes 20] [--searches gumbel puct]
        [--runs runs/self-play-recipes] [--out benchmarks/results/az_oware_self_play_recipes.json]

For each search, one ``mancala train oware --algo az`` run of
`train/configs/az/self_play/oware_from_scratch.toml` with that `search`, from random weights
(seed 0), stopped at `--minutes` (`--max-minutes`; a run already in `--runs` goes on from its
newest checkpoint, so an interrupted measurement resumes). Each run's evaluations (the network
without search against alpha-beta of depths 1 to 6, 64 games each from the shipped suite, every
40 generations and at the end) are written to `--out` as JSON with the date, the machine and
the command, beside the teacher recipe's evaluations within the same training minutes, read
from its results file (`az_oware_training.jsonl`: the first stage of the network it trained).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import time
from pathlib import Path
from typing import Any

from az_strength import provenance

from mancala_env.arguments import output_file, real
from mancala_env.readers import parse_json, read_bytes
from mancala_env.train.az.config import CONFIGS, load_az_config
from mancala_env.train.az.run import newest_checkpoint, train_az
from mancala_env.train.files import write_json
from mancala_env.train.run import NothingToDo

MAX_FILE_BYTES = 16 * 1024**2  # a run's summary, state or evaluations: some kB
VARIANT = "oware"
CONFIG = CONFIGS / "self_play" / "oware_from_scratch.toml"
TEACHER = Path(__file__).parent / "results" / "az_oware_training.jsonl"
SEED = 0


def _read(path: Path) -> Any:
    return parse_json(read_bytes(path, MAX_FILE_BYTES), path)


def _read_lines(path: Path) -> list[Any]:
    return [parse_json(line, path) for line in read_bytes(path, MAX_FILE_BYTES).splitlines()]


def run_recipe(search: str, minutes: float, folder: Path) -> dict:
    """One run of the from-scratch config with `search`, resumed where `folder` holds one, for
    the minutes its checkpoint has not used."""
    config = dataclasses.replace(load_az_config(VARIANT, CONFIG), search=search)
    checkpoint = newest_checkpoint(folder)
    left = minutes
    if checkpoint is not None:
        left -= _read(checkpoint.with_suffix(".json"))["seconds"] / 60
    if left > 0.01:
        with contextlib.suppress(NothingToDo):  # its positions were all labelled before
            train_az(VARIANT, config, folder, seed=SEED, resume=checkpoint, max_minutes=left,
                     progress=True)  # fmt: skip
    evaluations = _read_lines(folder / "evaluations.jsonl")
    summary = _read(folder / "run.json")
    return {
        "search": search,
        "generations": summary["generations"],
        "positions": summary["positions"],
        "games": summary["games"],
        "training_seconds": summary["training_seconds"],
        "evaluations": [
            {key: row[key] for key in ("generation", "positions", "seconds", "scores")}
            for row in evaluations
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=real(0.01, 24 * 60), default=20.0)
    parser.add_argument("--searches", nargs="+", choices=["gumbel", "puct"],
                        default=["gumbel", "puct"])  # fmt: skip
    parser.add_argument("--runs", type=Path, default=Path("runs/self-play-recipes"))
    parser.add_argument("--out", type=output_file)
    args = parser.parse_args()
    out = Path(args.out or f"benchmarks/results/az_{VARIANT}_self_play_recipes.json")
    began = time.time()
    recipes = [run_recipe(search, args.minutes, args.runs / search) for search in args.searches]
    budget = args.minutes * 60
    teacher = _read_lines(TEACHER)
    done = provenance(began, "benchmarks/self_play_recipes.py")
    write_json(
        out,
        {
            "variant": VARIANT,
            "date": done["date"],
            "command": done["command"],
            "machine": done["machine"],
            "config": CONFIG.relative_to(CONFIGS.parents[2]).as_posix(),
            "seed": SEED,
            "minutes": args.minutes,
            "recipes": recipes,
            "teacher": {
                "file": f"benchmarks/results/{TEACHER.name}",
                "evaluations": [
                    {key: row[key] for key in ("generation", "positions", "seconds", "scores")}
                    for row in teacher
                    if row["seconds"] <= budget
                ],
            },
            "seconds": done["seconds"],
        },
    )
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
