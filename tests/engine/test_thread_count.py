"""`ThreadCount`: a batch runs on one thread or on the pool, whichever its trials time faster,
and never on more threads than the program allows."""

import pickle

import numpy as np
import pytest

from mancala_env.batch import BatchedGames
from mancala_env.thread_count import (
    MIN_ROWS_PER_THREAD,
    RETRIAL_SECONDS,
    TRIAL_SECONDS,
    ThreadCount,
)


class FakeMachine:
    """A clock that moves by `seconds[count]` each call, on a pool of `pool` threads."""

    def __init__(self, pool: int, seconds: dict[int, float]) -> None:
        self.pool, self.seconds, self.now, self.threads = pool, seconds, 0.0, pool
        self.counts: list[int] = []

    def clock(self) -> float:
        return self.now

    def set_threads(self, count: int) -> None:
        self.threads = count

    def run(self, counter: ThreadCount, calls: int) -> None:
        for _ in range(calls):
            with counter.use() as count:
                assert self.threads == count
                self.counts.append(count)
                self.now += self.seconds[count]
            assert self.threads == self.pool  # the pool's own count once the call is done


def counter(rows: int, machine: FakeMachine) -> ThreadCount:
    return ThreadCount(rows, machine.clock, lambda: machine.threads, machine.set_threads)


def trial_calls(*seconds: float) -> int:
    """The calls a trial makes when each count's calls take `seconds` each."""
    return sum(round(TRIAL_SECONDS / each) + 1 for each in seconds)


@pytest.mark.parametrize(("one", "two", "kept"), [(0.001, 0.0006, 2), (0.001, 0.009, 1)])
def test_a_large_batch_keeps_the_count_its_trial_timed_faster(one, two, kept):
    machine = FakeMachine(pool=2, seconds={1: one, 2: two})
    batch = counter(4 * MIN_ROWS_PER_THREAD, machine)
    trial = trial_calls(one, two)
    machine.run(batch, trial + 100)
    assert machine.counts[0] == 1 and 2 in machine.counts[:trial]  # each count timed first
    assert set(machine.counts[trial:]) == {kept}
    assert batch.chosen == kept and machine.counts[-1] == kept


def test_a_pool_that_stalls_now_and_then_is_charged_for_its_stalls():
    """Most of the pool's calls are fast and one in twenty waits for a descheduled thread: a
    trial's mean sees it slower than one thread, where the median of a few calls would not."""
    machine = FakeMachine(pool=2, seconds={1: 0.001, 2: 0.0005})
    calls = iter(range(1, 10**6))  # the pool's first call is fast, the 20th waits
    stalling = machine.seconds

    class Stalls(dict):
        def __getitem__(self, count):
            if count == 2 and next(calls) % 20 == 0:
                return 0.05
            return stalling[count]

    machine.seconds = Stalls()
    batch = counter(4 * MIN_ROWS_PER_THREAD, machine)
    machine.run(batch, trial_calls(0.001, 0.0005))
    assert batch.chosen == 1


def test_a_trial_comes_again_so_the_count_follows_the_load():
    machine = FakeMachine(pool=2, seconds={1: 0.001, 2: 0.0005})  # the pool gains: cores free
    batch = counter(4 * MIN_ROWS_PER_THREAD, machine)
    machine.run(batch, trial_calls(0.001, 0.0005))
    assert batch.chosen == 2
    machine.seconds[2] = 0.02  # another job takes a core: the pool waits for its thread
    machine.run(batch, round(RETRIAL_SECONDS / 0.0005) + trial_calls(0.001, 0.02) + 10)
    assert batch.chosen == 1 and machine.counts[-1] == 1


def test_a_small_batch_and_a_program_that_asked_for_one_thread_run_on_one():
    machine = FakeMachine(pool=2, seconds={1: 0.001, 2: 0.0001})
    machine.run(counter(2 * MIN_ROWS_PER_THREAD - 1, machine), 50)
    assert set(machine.counts) == {1}
    single = FakeMachine(pool=1, seconds={1: 0.001})
    single.run(counter(100 * MIN_ROWS_PER_THREAD, single), 50)
    assert set(single.counts) == {1}


def test_a_batch_uses_no_more_threads_than_its_rows_fill():
    machine = FakeMachine(pool=16, seconds={1: 0.001, 3: 0.0002})
    batch = counter(3 * MIN_ROWS_PER_THREAD, machine)
    assert batch.candidates() == [1, 3]
    machine.run(batch, trial_calls(0.001, 0.0002) + 10)
    assert set(machine.counts) == {1, 3} and batch.chosen == 3


def test_a_pickled_batch_counts_its_threads_afresh_and_plays_the_same_games():
    games = BatchedGames("oware", 8, seed=3)
    games.reset()
    copy = pickle.loads(pickle.dumps(games))
    for _ in range(5):
        actions = games.random_actions(np.random.default_rng(1))
        assert np.array_equal(actions, copy.random_actions(np.random.default_rng(1)))
        games.step(actions)
        copy.step(actions)
    assert np.array_equal(games.states, copy.states)
