"""Every code block of the documentation's getting-started page runs: its Python blocks, and the
`mancala` commands of its shell blocks (the install lines are the packaging test's to run)."""

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

PAGE = (Path(__file__).parents[2] / "docs" / "getting-started.md").read_text()
PYTHON_BLOCKS = re.findall(r"```python\n(.*?)```", PAGE, flags=re.S)
SHELL_BLOCKS = re.findall(r"```bash\n(.*?)```", PAGE, flags=re.S)
COMMANDS = [
    line for block in SHELL_BLOCKS for line in block.splitlines() if line.startswith("mancala ")
]
MANCALA = Path(sys.executable).parent / "mancala"


def test_the_page_has_python_blocks_and_commands():
    assert len(PYTHON_BLOCKS) >= 4
    assert COMMANDS


@pytest.mark.parametrize("block", PYTHON_BLOCKS)
def test_python_block_runs(block):
    exec(compile(block, "docs/getting-started.md", "exec"), {})


@pytest.mark.parametrize("command", COMMANDS)
def test_command_runs(command):
    words = shlex.split(command)
    done = subprocess.run([str(MANCALA), *words[1:]], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
