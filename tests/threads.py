"""Test code run on a numba pool of several threads.

The loop's test processes each have a pool of one thread (`tests/conftest.py`), so a test of
what several threads do runs its code in a process of its own.
"""

from __future__ import annotations

import os
import subprocess
import sys


def run_on_threads(arguments: list[str], threads: int) -> str:
    """Run ``python *arguments`` in a new process whose numba pool has `threads` threads; its
    standard output (an AssertionError with its error output when it fails)."""
    env = {**os.environ, "NUMBA_NUM_THREADS": str(threads)}
    done = subprocess.run(
        [sys.executable, *arguments], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout
