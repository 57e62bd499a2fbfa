"""The kernels' `njit` compiles a kernel once per argument type, whatever constants it is given."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np
import pytest

from mancala_env.engine.jit import njit


def kernels(decorator):
    @decorator
    def add(a, b):
        return a + b

    @decorator
    def caller(x):
        return add(x, 1) + add(x, 2) + add(1, x)

    return add, caller


def test_a_kernel_called_with_constants_compiles_once_per_type():
    add, caller = kernels(njit)
    assert caller(10) == 34
    assert len(add.signatures) == 1  # (int64, int64)
    plain_add, plain_caller = kernels(numba.njit)
    assert plain_caller(10) == 34
    assert len(plain_add.signatures) == 3  # numba's own: once for each literal


def test_a_kernel_passed_integers_of_two_widths_compiles_once():
    add, _ = kernels(njit)

    @njit
    def caller(values):
        return add(values[0], 1) + add(values[0], values[1]) + add(len(values), values[1])

    assert caller(np.array([3, 4], np.int32)) == 4 + 7 + 6
    assert add.signatures == [(numba.int64, numba.int64)]
    plain_add, _ = kernels(numba.njit)

    @numba.njit
    def plain_caller(values):
        return plain_add(values[0], values[1]) + plain_add(len(values), values[1])

    assert plain_caller(np.array([3, 4], np.int32)) == 7 + 6
    assert len(plain_add.signatures) == 2  # numba's own: (int32, int32) and (int64, int32)


@pytest.mark.integration
def test_a_changed_constant_compiles_the_kernels_afresh(tmp_path):
    """numba alone would load a kernel compiled before a constant it reads, in another module,
    changed; the stamp of every kernel source turns that cache entry away."""
    root = Path(__file__).resolve().parents[2]
    shutil.copytree(
        root / "mancala_env", tmp_path / "mancala_env", ignore=shutil.ignore_patterns("__pycache__")
    )
    code = (
        "import numpy as np\n"
        "from mancala_env.engine import layout as L\n"
        "from mancala_env.engine.board import pit_count\n"
        "from mancala_env.engine.numba_internals import has_cached_code\n"
        "params = np.zeros(L.PARAMS_SIZE, np.int32)\n"
        "params[L.P_HOUSES] = 6\n"
        "print(has_cached_code(pit_count), pit_count(params))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "NUMBA_CACHE_DIR": str(tmp_path / "cache")}

    def run() -> str:
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert run() == "False 12"  # compiled
    assert run() == "True 12"  # loaded from the cache
    layout = tmp_path / "mancala_env" / "engine" / "layout.py"
    layout.write_text(layout.read_text() + "\nA_NEW_CONSTANT = 1\n")
    assert run() == "False 12"  # the layout changed: compiled afresh


KERNEL_MODULE = """
from mancala_env.engine.jit import njit


@njit(cache=True)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
"""


def kernel_module(folder: Path, name: str):
    """A module of `folder` holding a cached recursive kernel, imported (and kept in
    `sys.modules`, where numba finds the recursive call's target)."""
    import importlib

    (folder / f"{name}.py").write_text(KERNEL_MODULE)
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(folder))


def test_a_recursive_cached_kernel_compiles_under_its_own_lock(tmp_path):
    """The kernel's compile re-enters itself (numba types the recursive call by compiling it):
    the lock this process holds does not stop it."""
    module = kernel_module(tmp_path, "recursive_kernel")
    assert module.fib(10) == 55
    assert sum(module.fib.stats.cache_misses.values()) == 1


def test_a_lock_held_too_long_is_waited_for_no_longer_than_its_bound(tmp_path, monkeypatch):
    import fcntl

    from mancala_env.engine import numba_internals

    module = kernel_module(tmp_path, "stuck_kernel")
    lock = Path(numba_internals.lock_path(module.fib))
    assert lock.parent == Path(module.fib._cache._cache_path)  # beside the kernel's cache index
    monkeypatch.setattr(numba_internals, "LOCK_WAIT_SECONDS", 0.3)
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # as a process stuck while compiling would
        began = time.monotonic()
        assert module.fib(12) == 144  # compiled all the same
        assert time.monotonic() - began >= 0.3  # after waiting for the lock its bound


@pytest.mark.integration
def test_processes_started_together_compile_a_kernel_once(tmp_path):
    """Two processes call a kernel that is not in the disk cache at the same moment: one
    compiles it, the other waits for its lock and loads what it saved."""
    (tmp_path / "together.py").write_text(KERNEL_MODULE)
    code = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "import together\n"
        "Path(sys.argv[1]).touch()\n"
        "while len(list(Path('.').glob('ready-*'))) < 2:\n"
        "    time.sleep(0.01)\n"
        "together.fib(15)\n"
        "stats = together.fib.stats\n"
        "print(sum(stats.cache_misses.values()), sum(stats.cache_hits.values()))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", code, f"ready-{i}"],
            env=env,
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(2)
    ]
    outputs = []
    for process in processes:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        outputs.append(out.strip())
    assert sorted(outputs) == ["0 1", "1 0"]  # (misses, hits): one compiled, one loaded
