"""Test ordering: the tests that compile most start first."""

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the tests marked `compiles` (a subprocess compiling kernels under its own settings)
    to the front, so that with a test process per core they run beside the others rather than
    alone at the end."""
    items.sort(key=lambda item: item.get_closest_marker("compiles") is None)
