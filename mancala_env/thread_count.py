"""How many numba threads a batch's compiled step runs on, picked by the rows and by measured gain.

A batched call spreads its rows over numba's pool (``prange``). Where another job holds one of
the cores, a pool of a thread a core waits at every call for the thread not scheduled, and runs
many times slower than one thread: on the two-core machine, with one core busy, ``make_vec(64)``
stepped 555,000 games a second on one thread and 5,100 on two, `BatchedGames` 7.2 million and
0.66 million. So a `ThreadCount` runs a batch of few rows on one thread, and for a larger one
times its calls on one thread and on the pool every so often (a trial: `TRIAL_SECONDS` of calls
on each, every `RETRIAL_SECONDS` of calls), and keeps the pool until the next trial only if its
calls took clearly less time each (`MARGIN`): the count follows the machine's load. A trial
long enough for many calls charges a pool that stalls now and then for its stalls, which a
median of a few calls would miss (under load most of the pool's calls are fast and a few wait
for milliseconds). The pool is numba's
thread count when the call is made, so a program that asked for fewer threads
(``numba.set_num_threads``) is never given more. The games do not depend on the count: a batch's
random draws are keyed by row (`mancala_env.batch`), so any count plays the same games.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numba

MIN_ROWS_PER_THREAD = 32  # rows a thread at least (the pool gained at 64 rows on two cores)
TRIAL_SECONDS = 0.05  # each count's share of a trial, in its calls' own time
RETRIAL_SECONDS = 2.0  # the calls' own time between two trials
MARGIN = 1.2  # the pool is kept only when a trial times it this many times faster than one


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
        self._trial: list[int] = []  # the counts the running trial has still to time
        self._spent: dict[int, list[float]] = {}  # a count's seconds and calls in the trial
        self._since_trial = RETRIAL_SECONDS  # the calls' time since the last trial: one is due

    def candidates(self) -> list[int]:
        """The counts a trial compares: one thread, and the pool as far as the rows fill it."""
        most = min(self._pool(), self.rows // MIN_ROWS_PER_THREAD)
        return [1, most] if most > 1 else [1]

    def next_count(self) -> int:
        """The count of the next call: the running trial's, or the chosen one."""
        counts = self.candidates()
        if len(counts) == 1:
            return 1
        if not set(self._trial) <= set(counts):  # the pool changed under the trial
            self._trial = []
            self._since_trial = RETRIAL_SECONDS
        if not self._trial and self._since_trial >= RETRIAL_SECONDS:
            self._trial, self._spent = list(counts), {c: [0.0, 0] for c in counts}
        return self._trial[0] if self._trial else min(self.chosen, counts[-1])

    def record(self, count: int, seconds: float) -> None:
        """Note a call's time on `count` threads. A trial times each count for `TRIAL_SECONDS`
        of calls; at its end the pool is kept if its calls took less time each than one
        thread's by `MARGIN` (stalls included: the mean counts), else one thread."""
        if not self._trial:
            self._since_trial += seconds
            return
        if count != self._trial[0]:
            return
        spent = self._spent[count]
        spent[0] += seconds
        spent[1] += 1
        if spent[0] < TRIAL_SECONDS:
            return
        self._trial.pop(0)
        if not self._trial:
            one, pool = (total / calls for total, calls in self._spent.values())
            self.chosen = max(self._spent) if pool * MARGIN < one else 1
            self._since_trial = 0.0

    @contextmanager
    def use(self) -> Iterator[int]:
        """Run the block's numba calls on `next_count()` threads, then restore the pool's."""
        count, pool = self.next_count(), self._pool()
        if count != pool:
            self._set_threads(count)
        began = self._clock()
        try:
            yield count
        finally:
            if count != pool:
                self._set_threads(pool)
            self.record(count, self._clock() - began)
