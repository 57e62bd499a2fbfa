"""Numba threads for a batched step, on a quiet machine and beside a busy core: one thread, the
whole pool, and the count `BatchedGames` picks by measured gain (`mancala_env.thread_count`).

    python benchmarks/threads_under_load.py [--variant oware] [--rows 64 1024 16384]
                                            [--seconds 2] [--out benchmarks/results/threads.json]

For each batch size and each load (none; one process spinning on a core, as another job on a
shared machine would), `BatchedGames.step_random` is called for `--seconds` with each way of
counting threads, and the games stepped a second are written to `--out` as JSON with the date,
the machine and the command. Each count plays the same games (the batch's draws are keyed by
row), so only the time differs.
"""

from __future__ import annotations

import argparse
import datetime
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numba

from mancala_env.arguments import integer, output_file, real
from mancala_env.batch import BatchedGames
from mancala_env.machine import describe_machine
from mancala_env.thread_count import ThreadCount
from mancala_env.train.files import write_json

SPIN = "while True: pass"


class FixedCount:
    """Every call on `count` threads (what a batch did before it measured)."""

    def __init__(self, count: int) -> None:
        self.count = count

    @contextmanager
    def use(self) -> Iterator[int]:
        pool = numba.get_num_threads()
        numba.set_num_threads(self.count)
        try:
            yield self.count
        finally:
            numba.set_num_threads(pool)


def games_per_second(variant: str, rows: int, counting: object, seconds: float) -> float:
    games = BatchedGames(variant, rows, seed=0)
    games.reset()
    games._threads = counting  # the way this row counts its threads
    games.step_random()  # compiled and warm before the clock starts
    steps, began = 0, time.perf_counter()
    while time.perf_counter() - began < seconds:
        games.step_random()
        steps += 1
    return steps * rows / (time.perf_counter() - began)


@contextmanager
def load(busy: bool) -> Iterator[None]:
    """With `busy`, a process spinning on a core for the block's length."""
    spinner = subprocess.Popen([sys.executable, "-c", SPIN]) if busy else None
    try:
        time.sleep(0.5 if busy else 0)
        yield
    finally:
        if spinner is not None:
            spinner.kill()
            spinner.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="oware")
    parser.add_argument("--rows", type=integer(1, 1 << 20), nargs="+", default=[64, 1024, 16384])
    parser.add_argument("--seconds", type=real(0.1, 600), default=2.0)
    parser.add_argument("--out", type=output_file, default="benchmarks/results/threads.json")
    args = parser.parse_args()
    pool = numba.get_num_threads()
    began = time.time()
    rows_out = []
    for busy in (False, True):
        with load(busy):
            for rows in args.rows:
                ways = {
                    "one thread": FixedCount(1),
                    f"the pool ({pool} threads)": FixedCount(pool),
                    "picked by measured gain": ThreadCount(rows),
                }
                speeds = {
                    name: round(games_per_second(args.variant, rows, way, args.seconds))
                    for name, way in ways.items()
                }
                rows_out.append({"rows": rows, "busy_core": busy, "games_per_second": speeds})
                print(rows, "busy" if busy else "quiet", speeds, flush=True)
    write_json(
        Path(args.out),
        {
            "variant": args.variant,
            "date": datetime.date.today().isoformat(),
            "machine": describe_machine(),
            "command": shlex.join(["python", "benchmarks/threads_under_load.py", *sys.argv[1:]]),
            "pool": pool,
            "seconds_each": args.seconds,
            "rows": rows_out,
            "seconds": round(time.time() - began, 1),
        },
    )


if __name__ == "__main__":
    main()
