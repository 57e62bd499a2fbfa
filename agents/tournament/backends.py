"""Where the games run: this machine's cores (processes) or a Ray cluster.

A backend takes the games still to play and yields each finished game record as soon as it
is done, in whatever order they finish; the caller stores them. `skip(task)` is asked just
before a game is handed out, so that games another process finished meanwhile are not played
again.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from .match import play_game
from .schedule import GameTask

BACKENDS = ("local", "ray")
Skip = Callable[[GameTask], bool]


class BackendError(RuntimeError):
    """A backend that cannot run here (Ray missing, no cluster at the address)."""


class WorkerLost(RuntimeError):
    """A worker process died in the middle of the games (killed, or out of memory)."""


_PR_SET_PDEATHSIG = 1  # prctl option of <linux/prctl.h>
_WATCH_SECONDS = 1.0  # how often the watcher thread looks for the parent (not on Linux)


def exit_with_parent(parent: int) -> None:
    """Make this worker process end when `parent` dies, so that a tournament killed even with
    SIGKILL leaves no workers behind: Linux's parent-death signal where there is one, else a
    thread that watches the parent's pid."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
            if os.getppid() != parent:  # it died before the signal was asked for
                os._exit(1)
            return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def _pending(tasks: Iterable[GameTask], skip: Skip) -> Iterator[GameTask]:
    return (task for task in tasks if not skip(task))


def run_local(tasks: Iterable[GameTask], workers: int, skip: Skip) -> Iterator[dict[str, Any]]:
    """Play the games in `workers` processes (in this process when `workers` is 1)."""
    if workers == 1:
        yield from map(play_game, _pending(tasks, skip))
        return
    # spawn: fresh workers, safe whatever threads (numba, torch) this process has started
    context = multiprocessing.get_context("spawn")
    pending = _pending(tasks, skip)
    pool = ProcessPoolExecutor(
        workers, mp_context=context, initializer=exit_with_parent, initargs=(os.getpid(),)
    )
    try:
        with pool:
            running: set[Future] = set()
            while True:
                while len(running) < 2 * workers and (task := next(pending, None)) is not None:
                    running.add(pool.submit(play_game, task))
                if not running:
                    return
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
    except BrokenProcessPool:
        raise WorkerLost("a worker process died (killed, or out of memory)") from None


@contextmanager
def ray_session(workers: int, address: str | None = None) -> Iterator[ModuleType]:
    """Ray, connected to the cluster at `address` (``auto``: the one this machine belongs to),
    or to a local instance with `workers` CPUs when `address` is None; a session already open
    in this process is used as it is. Ray is shut down at the end only if it was started here."""
    ray = _ray()
    started = not ray.is_initialized()
    if started:
        try:
            if address is None:
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise BackendError(
                f"cannot start Ray at {address or 'a local instance'}: {error}"
            ) from None
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def run_ray(
    tasks: Iterable[GameTask], workers: int, skip: Skip, address: str | None = None
) -> Iterator[dict[str, Any]]:
    """Play the games as Ray tasks on the cluster at `address`, or on a local Ray instance
    with `workers` CPUs when `address` is None."""
    with ray_session(workers, address) as ray:
        remote_play = ray.remote(play_game)
        in_flight = 2 * max(workers, int(ray.cluster_resources().get("CPU", 1)))
        pending = _pending(tasks, skip)
        running: list = []
        while True:
            while len(running) < in_flight and (task := next(pending, None)) is not None:
                running.append(remote_play.remote(task))
            if not running:
                return
            done, running = ray.wait(running, num_returns=1)
            yield ray.get(done[0])


def _ray() -> ModuleType:
    """The ray module, or a BackendError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise BackendError(
            "the ray backend needs Ray: pip install 'mancala_env[ray]' (or pip install ray)"
        ) from None
    return ray


def check_backend(backend: str, workers: int, ray_address: str | None = None) -> None:
    """Refuse a backend that is unknown or cannot run here, or settings it does not take,
    before anything is played or stored."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    if backend == "ray":
        _ray()
    elif ray_address is not None:
        raise ValueError("--ray-address goes with --backend ray")


def run_games(
    tasks: Iterable[GameTask],
    backend: str = "local",
    workers: int = 1,
    skip: Skip = lambda task: False,
    ray_address: str | None = None,
) -> Iterator[dict[str, Any]]:
    """Play `tasks` on `backend` (see BACKENDS); yields finished game records."""
    check_backend(backend, workers, ray_address)
    if backend == "ray":
        return run_ray(tasks, workers, skip, ray_address)
    return run_local(tasks, workers, skip)
