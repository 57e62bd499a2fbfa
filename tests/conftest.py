"""The kernels the tests play on, the order they run in, and a fixture to derive kernels afresh.

The tests play on the shared kernels (the engine's written source, one compiled copy for every
rule set and option), as `MANCALA_ENV_SHARED_KERNELS=1` asks: the rules, agents, environments
and files are tested under hundreds of option structures, and each would otherwise derive and
compile an engine, its batch kernels and its agents' modules of its own (over 400 modules, most
of a cold run). What users run, each rule set's own derived kernels, is tested where they are
the subject, by the tests that ask for them with the `own_kernels` fixture: the golden records
replay on them, `tests/engine/test_handle.py` holds them to the shared kernels' games state by
state in every rule set, and the compiler's and the cache's tests derive them.
`MANCALA_ENV_SHARED_KERNELS=0 pytest` runs every test on the rule sets' own kernels instead.
"""

import os
import sys

import pytest

from mancala_env.kernels import SHARED_SWITCH


def pytest_configure(config: pytest.Config) -> None:
    os.environ.setdefault(SHARED_SWITCH, "1")


@pytest.fixture
def own_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test plays on the rule sets' own derived kernels, as users do (in its subprocesses
    too)."""
    monkeypatch.setenv(SHARED_SWITCH, "0")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the tests marked `compiles` (a subprocess compiling kernels under its own settings)
    to the front, so that with a test process per core they run beside the others rather than
    alone at the end."""
    items.sort(key=lambda item: item.get_closest_marker("compiles") is None)


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
