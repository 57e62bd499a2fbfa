"""The kernels the tests play on, the two loops, the order they run in, and fixtures.

The tests play on the shared kernels (the engine's written source, one compiled copy for every
rule set and option), as `MANCALA_ENV_SHARED_KERNELS=1` asks: the rules, agents, environments
and files are tested under hundreds of option structures, and each would otherwise derive and
compile an engine, its batch kernels and its agents' modules of its own (over 400 modules, most
of a cold run). What users run, each rule set's own derived kernels, is tested where they are
the subject, by the tests that ask for them (the `own_kernels` fixture, or the switch set to
"0"): the golden records replay on them too, `tests/engine/test_handle.py` holds them to the
shared kernels' games state by state in every rule set, and the compiler's and the cache's
tests derive them. `MANCALA_ENV_SHARED_KERNELS=0 pytest` runs every test on them instead.

Two loops. `pytest` is the developer's: it leaves out the tests marked `integration`, those
that start processes as a user would (a build, a fresh virtualenv, Ray, killed workers, a
compile under settings of its own) or play the rule sets' own kernels, and draws a quarter of
each property test's examples (`strategies.examples`). `pytest --integration` runs every test
with all its examples, as CI does (`.ci/run`).
"""

import os
import sys
from typing import TYPE_CHECKING

import pytest
import strategies
from hypothesis import settings

from mancala_env.kernels import SHARED_SWITCH

if TYPE_CHECKING:
    from mancala_env.endgame.database import EndgameDatabase

OWARE_DB_SEEDS = 7  # `oware_db`'s boards: built in a second, and long enough games to score


def pytest_configure(config: pytest.Config) -> None:
    os.environ.setdefault(SHARED_SWITCH, "1")
    if getattr(config.option, "numprocesses", None):
        # a test process per core (xdist's workers, started after this with this environment),
        # each with one PyTorch thread and a numba pool of one thread: a pool of a thread per
        # core in each process (set_num_threads(1) keeps the pool) crowds the other processes'
        # cores. The tests of several threads start a process of their own (tests/threads.py).
        os.environ.setdefault("OMP_NUM_THREADS", "1")
        os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    strategies.FULL_EXAMPLES = config.getoption("--integration")
    if not strategies.FULL_EXAMPLES:
        settings.register_profile("loop", max_examples=strategies.LOOP_DEFAULT)
        settings.load_profile("loop")


@pytest.fixture(autouse=True, scope="session")
def _sb3_logs(tmp_path_factory: pytest.TempPathFactory) -> None:
    """stable-baselines3 makes a folder in the system's temporary folder for every model that
    learns without a logger of its own (`SB3_LOGDIR` names another): the session's keeps them."""
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3"))


@pytest.fixture(scope="session")
def oware_db(tmp_path_factory: pytest.TempPathFactory) -> "EndgameDatabase":
    """Oware's endgame database of every board of at most `OWARE_DB_SEEDS` seeds, built once
    for the tests that only read it (a test that damages or extends a database builds its own)."""
    from mancala_env.endgame.build import build  # after pytest_configure chose the kernels
    from mancala_env.endgame.database import EndgameDatabase
    from mancala_env.variants import get_variant

    directory = tmp_path_factory.mktemp("oware")
    oware = get_variant("oware")
    build(oware, oware.options(), OWARE_DB_SEEDS, directory, progress=False)
    return EndgameDatabase(directory, oware, oware.options())


@pytest.fixture
def own_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test plays on the rule sets' own derived kernels, as users do (in its subprocesses
    too)."""
    monkeypatch.setenv(SHARED_SWITCH, "0")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--integration",
        action="store_true",
        help="also run the tests marked integration (CI runs them; see tests/conftest.py)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out the tests marked `integration` unless `--integration` asks for them; run those
    first (most start a process of their own, which then runs beside the others rather than
    alone at the end)."""
    if not config.getoption("--integration"):
        left_out = [item for item in items if item.get_closest_marker("integration")]
        if left_out:
            config.hook.pytest_deselected(items=left_out)
            items[:] = [item for item in items if not item.get_closest_marker("integration")]
    items.sort(key=lambda item: item.get_closest_marker("integration") is None)


@pytest.fixture
def derive_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Derive the kernels during the test as a new process would, and leave the process as it
    was after it: the modules derived before (found by name in `sys.modules`) come back, so a
    later test's derived module imports the engine the process's kernels hold."""
    from mancala_env.engine.compiler import assemble, cache

    monkeypatch.setattr(assemble, "_loaded", {})
    monkeypatch.setattr(cache, "_modules", {})
    for name in [name for name in sys.modules if name.startswith(cache.PACKAGE + ".")]:
        monkeypatch.setitem(sys.modules, name, sys.modules[name])
