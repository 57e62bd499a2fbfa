"""The first use of the engine says, in one line, that it compiles; a warm start says nothing."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mancala_env.engine.numba_internals import has_cached_code
from mancala_env.first_use import announce_compiling
from mancala_env.game import Game

# the derived kernels are the subject
pytestmark = [pytest.mark.integration, pytest.mark.usefixtures("own_kernels")]

ROOT = Path(__file__).resolve().parents[2]
LINE = "mancala_env: compiling the oware kernels, once, ~"


def _first_game(cache_dir: Path) -> str:
    """The standard error of a process that starts one game of Oware with `cache_dir`."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache_dir), "PYTHONPATH": str(ROOT)}
    code = "from mancala_env.game import Game; Game('oware').step(0)"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return done.stderr


def test_a_cold_cache_prints_the_compiling_line_once_and_a_warm_one_nothing(tmp_path):
    cold = _first_game(tmp_path)
    assert cold.count(LINE) == 1, cold
    assert any(tmp_path.rglob("*.nbi"))  # the compiled kernels went to the disk cache
    assert LINE not in _first_game(tmp_path)


def test_a_kernel_compiled_in_this_process_needs_no_line(capsys):
    new_game = Game("oware").kernels.new_game  # compiled, or loaded from the disk cache
    assert new_game.overloads and has_cached_code(new_game)
    capsys.readouterr()  # the game's own line, where its kernels were not cached
    announce_compiling("a test's kernels", (new_game,), 1)
    assert capsys.readouterr().err == ""
