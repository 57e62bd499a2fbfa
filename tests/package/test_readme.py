"""The README is a short front door: its examples run, its rule-set table is the registry's, and
each row cites its source as a reader can find it."""

import re
from pathlib import Path

import pytest

from mancala_env.variants import VARIANTS
from mancala_env.variants.sources import CITATIONS, source_file

ROOT = Path(__file__).parents[2]
README = (ROOT / "README.md").read_text()
PYTHON_BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.S)
SHELL_BLOCKS = re.findall(r"```bash\n(.*?)```", README, flags=re.S)
ROWS = {row[0]: row for row in re.findall(r"^\| `(\w+)` \| (.*) \|$", README, flags=re.M)}


def test_readme_is_short_and_names_the_ci_command():
    assert len(README.splitlines()) <= 150
    assert "bash .ci/run" in README
    assert "pip install torch --index-url https://download.pytorch.org/whl/cpu" in README


def test_readme_installs_into_its_own_virtualenv_only():
    """Copied as written, no command reaches the system Python: the README never activates the
    virtualenv, so every pip it runs is the virtualenv's."""
    commands = [
        command
        for block in SHELL_BLOCKS
        for command in re.findall(r"(?:^|&&|;)\s*(\S*pip)\s", block, flags=re.M)
    ]
    assert commands, "the README installs with pip"
    assert set(commands) == {".venv/bin/pip"}, commands


def test_readme_has_examples():
    assert len(PYTHON_BLOCKS) >= 2


# what each example's last line prints: what happened in its games
PRINTED = (
    r"\d+ moves, seeds captured \[\d+, \d+\], rewards \{'player_0': (-?1|0)\.0, "
    r"'player_1': (-?1|0)\.0\}",
    r"[1-9]\d* games finished, mean reward [+-]\d\.\d\d against alpha-beta",
)


@pytest.mark.parametrize(("block", "printed"), list(zip(PYTHON_BLOCKS, PRINTED, strict=True)))
def test_readme_python_example_runs_and_says_what_happened(block, printed, capsys):
    exec(compile(block, "README.md", "exec"), {})
    assert re.fullmatch(printed, capsys.readouterr().out.strip())


def test_readme_table_lists_every_rule_set_once():
    assert sorted(ROWS) == sorted(VARIANTS)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_readme_row_has_the_registry_ids_and_cites_the_source(name):
    variant = VARIANTS[name]
    cells = ROWS[name][1].split(" | ")
    assert cells[0] == f"`{variant.env_id()}`", "the current PettingZoo id, with its version"
    assert cells[1] == f"`{variant.gym_id()}`", "the current Gymnasium id, with its version"
    number = list(CITATIONS).index(source_file(variant.source)) + 1
    assert cells[4].startswith(f"[{number}] "), "the row names its source's number"
    assert f"(docs/variants/{name}.md)" in cells[5]


def test_readme_lists_every_source_with_its_full_citation():
    for number, citation in enumerate(CITATIONS.values(), start=1):
        assert f"\n{number}. {citation.text}.\n" in README
