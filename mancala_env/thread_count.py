"""How many numba threads a batch's compiled step runs on, picked by the rows and by measured gain.

A batched call spreads its rows over numba's pool (``prange``). Where another job holds one of
the cores, a pool of a thread a core waits at every call for the thread not scheduled, and runs
many times slower than one thread: on the two-core machine, with one core busy, ``make_vec(64)``
stepped 555,000 games a second on one thread and 5,100 on two, `BatchedGames` 7.2 million and
0.66 million. So a `ThreadCount` runs a batch of few rows on one thread, and for a larger one
times a few calls on one thread and a few on the pool every so often (`TRIAL_EVERY` calls), and
keeps the faster until the next trial: the count follows the machine's load. The pool is numba's
thread count when the call is made, so a program that asked for fewer threads
(``numba.set_num_threads``) is never given more. The games do not depend on the count: a batch's
random draws are keyed by row (`mancala_env.batch`), so any count plays the same games.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numba

MIN_ROWS_PER_THREAD = 256  # a thread's share below this gains less than the pool's start costs
TRIAL_CALLS = 3  # calls timed on each count in a trial (the median counts)
TRIAL_EVERY = 2000  # calls between the starts of two trials


class ThreadCount:
    """The thread count of one batch's calls: `use()` around each compiled call."""

    def __init__(
        self,
        rows: int,
        clock: Callable[[], float] = time.perf_counter,
        pool: Callable[[], int] = numba.get_num_threads,
        set_threads: Callable[[int], None] = numba.set_num_threads,
    ) -> None:
        self.rows = int(rows)
        self._clock, self._pool, self._set_threads = clock, pool, set_threads
        self.chosen = 1
        self._calls = 0
        self._timed: dict[int, list[float]] = {}

    def candidates(self) -> list[int]:
        """The counts a trial compares: one thread, and the pool as far as the rows fill it."""
        most = min(self._pool(), self.rows // MIN_ROWS_PER_THREAD)
        return [1, most] if most > 1 else [1]

    def next_count(self) -> int:
        """The count of the next call: a trial's, taking the candidates in turn, or the chosen."""
        counts = self.candidates()
        if len(counts) == 1:
            return 1
        in_trial = self._calls % TRIAL_EVERY
        if in_trial < TRIAL_CALLS * len(counts):
            return counts[in_trial % len(counts)]
        return min(self.chosen, counts[-1])

    def record(self, count: int, seconds: float) -> None:
        """Note a call's time on `count` threads; at a trial's end, keep the faster count."""
        counts = self.candidates()
        in_trial = self._calls % TRIAL_EVERY
        self._calls += 1
        if len(counts) == 1 or in_trial >= TRIAL_CALLS * len(counts):
            return
        if in_trial == 0:
            self._timed = {}
        self._timed.setdefault(count, []).append(seconds)
        if in_trial == TRIAL_CALLS * len(counts) - 1:
            medians = {c: sorted(times)[len(times) // 2] for c, times in self._timed.items()}
            self.chosen = min(medians, key=lambda c: (medians[c], c))

    @contextmanager
    def use(self) -> Iterator[int]:
        """Run the block's numba calls on `next_count()` threads, then restore the pool's."""
        count, pool = self.next_count(), self._pool()
        self._set_threads(count)
        began = self._clock()
        try:
            yield count
        finally:
            self._set_threads(pool)
            self.record(count, self._clock() - began)
