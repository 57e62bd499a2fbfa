"""The two test loops (`tests/conftest.py`): the developer's leaves out the tests marked
`integration`, which `--integration` runs too, first."""

from types import SimpleNamespace

import conftest
import pytest


class _Item:
    def __init__(self, name: str, integration: bool) -> None:
        self.name = name
        self.integration = integration

    def get_closest_marker(self, name: str) -> object | None:
        return object() if name == "integration" and self.integration else None


class _Config:
    def __init__(self, integration: bool) -> None:
        self.integration = integration
        self.deselected: list[_Item] = []
        self.hook = SimpleNamespace(pytest_deselected=lambda items: self.deselected.extend(items))

    def getoption(self, name: str) -> bool:
        assert name == "--integration"
        return self.integration


def _items() -> list[_Item]:
    return [_Item("rule", False), _Item("build", True), _Item("env", False), _Item("ray", True)]


def test_the_developers_loop_leaves_the_integration_tests_out_and_reports_them():
    items, config = _items(), _Config(integration=False)
    conftest.pytest_collection_modifyitems(config, items)
    assert [item.name for item in items] == ["rule", "env"]
    assert [item.name for item in config.deselected] == ["build", "ray"]


def test_integration_runs_every_test_the_integration_ones_first():
    items, config = _items(), _Config(integration=True)
    conftest.pytest_collection_modifyitems(config, items)
    assert [item.name for item in items] == ["build", "ray", "rule", "env"]
    assert config.deselected == []


def test_every_test_on_the_rule_sets_own_kernels_is_marked_integration(
    request: pytest.FixtureRequest,
):
    """The loop plays on the shared kernels alone: a test asking for the rule sets' own
    (`own_kernels`) compiles them, and is marked."""
    unmarked = [
        item.nodeid
        for item in request.session.items
        if "own_kernels" in getattr(item, "fixturenames", ())
        and not item.get_closest_marker("integration")
    ]
    assert unmarked == []
