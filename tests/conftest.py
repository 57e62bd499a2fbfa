"""Test ordering: the tests that compile most start first; a fixture to derive kernels afresh."""

import sys

import pytest


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
