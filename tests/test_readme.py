"""The README's examples run, and its variant table names every registered rule set."""

import re
from pathlib import Path

import pytest

from mancala_env.variants import VARIANTS

README = (Path(__file__).parent.parent / "README.md").read_text()
PYTHON_BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_readme_has_examples():
    assert PYTHON_BLOCKS


@pytest.mark.parametrize("block", PYTHON_BLOCKS)
def test_readme_python_example_runs(block):
    exec(compile(block, "README.md", "exec"), {})


def test_readme_variant_table_lists_every_rule_set():
    rows = re.findall(r"^\| `(\w+)` \|.*docs/variants/", README, flags=re.M)
    assert sorted(rows) == sorted(VARIANTS)
