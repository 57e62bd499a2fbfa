"""The kernels' `njit` compiles a kernel once per argument type, whatever constants it is given."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numba
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
