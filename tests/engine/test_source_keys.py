"""A module's cache key changes with the sources it is built from, and with no others."""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mancala_env.engine.compiler import ENGINE
from mancala_env.engine.source_keys import ROOT, imported_modules, module_file, module_key
from mancala_env.kernels import HOT_MODULES, SHARED_SWITCH

MCTS = "mancala_env.agents.mcts"
COMPILER = "mancala_env.engine.compiler.assemble"  # with the modules it imports
BUILT = (*ENGINE, COMPILER, *HOT_MODULES)  # what the engine's and a rule set's modules read


def copied_tree(root: Path, installed: bool = False) -> Path:
    """The package's Python sources copied to `root`, laid out as they are below `ROOT`, or
    (`installed`) with agents/ and train/ inside mancala_env/, as a wheel installs them."""
    for package in ("mancala_env", "agents", "train"):
        for path in (ROOT / package).rglob("*.py"):
            relative = path.relative_to(ROOT)
            if installed and package != "mancala_env":
                relative = "mancala_env" / relative
            copy = root / relative
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(path.read_bytes())
    return root


def keys(names: tuple[str, ...], root: Path) -> dict[str, str]:
    return {name: module_key(name, root) for name in names}


def edited(root: Path, name: str, line: str) -> Path:
    path = copied_tree(root) / module_file(name).relative_to(ROOT)
    path.write_text(path.read_text() + line)
    return root


def test_an_agents_edit_changes_its_key_and_no_module_the_engine_is_built_from(tmp_path):
    before = keys((*BUILT, MCTS), ROOT)
    after = keys((*BUILT, MCTS), edited(tmp_path, MCTS, "# a comment\n"))
    assert after[MCTS] != before[MCTS]
    assert {name: after[name] for name in BUILT} == {name: before[name] for name in BUILT}


@pytest.mark.integration
def test_an_agents_edit_renames_its_derived_module_and_no_other(tmp_path):
    """In a copy of the package laid out as installed, each derived module is written (not
    compiled) before and after a comment is added to MCTS's module."""
    tree = copied_tree(tmp_path / "tree", installed=True)
    code = (
        "from mancala_env import Game\n"
        "from mancala_env.engine.compiler import specialised\n"
        "from mancala_env.kernels import HOT_MODULES\n"
        f"print(specialised(Game('oware').params, HOT_MODULES + ({MCTS!r},), True).files)\n"
    )
    cache = str(tmp_path / "cache")
    env = {**os.environ, "PYTHONPATH": str(tree), "MANCALA_ENV_CACHE": cache, SHARED_SWITCH: "0"}

    def derived() -> dict[str, str]:
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        files = ast.literal_eval(done.stdout.strip())
        assert Path(files[MCTS]).is_relative_to(tmp_path / "cache")
        return {name: Path(file).name for name, file in files.items()}

    before = derived()
    mcts = tree / "mancala_env" / "agents" / "mcts.py"
    mcts.write_text(mcts.read_text() + "# a comment\n")
    after = derived()
    assert [name for name in before if after[name] != before[name]] == [MCTS]


def test_the_engine_reads_nothing_of_the_agents_or_training():
    read = set().union(*(imported_modules(name) for name in BUILT))
    assert "mancala_env.engine.layout" in read
    assert not [
        name for name in read if name.startswith(("mancala_env.agents", "mancala_env.train"))
    ]


def test_a_layout_edit_changes_the_engines_key_and_every_dependants(tmp_path):
    names = (*BUILT, MCTS, "mancala_env.agents.alphabeta")
    before = keys(names, ROOT)
    after = keys(names, edited(tmp_path, "mancala_env.engine.layout", "A_NEW_CONSTANT = 1\n"))
    assert [name for name in names if after[name] == before[name]] == []
    assert keys(("mancala_env.outputs",), tmp_path) == keys(("mancala_env.outputs",), ROOT)


@pytest.mark.integration
def test_the_keys_are_the_same_in_every_process():
    code = f"from mancala_env.engine.source_keys import module_key; print(module_key({MCTS!r}))"
    for seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        )
        assert done.stdout.strip() == module_key(MCTS)
