"""`python -m build` makes a wheel and an sdist of version `pyproject.toml`'s (CITATION.cff
says the same), and each installs into a clean virtualenv and runs the quick start with the
repository out of reach."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fresh_venv import fresh_virtualenv, user_environment

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
QUICK_START = re.findall(r"```python\n(.*?)```", README, flags=re.S)[0]


def _version() -> str:
    return re.search(r'^version = "(.+)"$', (ROOT / "pyproject.toml").read_text(), re.M)[1]


def test_citation_names_the_packages_version():
    citation = (ROOT / "CITATION.cff").read_text()
    assert re.search(r"^version: (.+)$", citation, re.M)[1] == _version()


@pytest.fixture(scope="module")
def distributions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sdist and the wheel `python -m build --no-isolation` makes of the repository (from
    a copy of what git tracks, so the worktree gets no build folders)."""
    source = tmp_path_factory.mktemp("source")
    tracked = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, text=True, check=True
    ).stdout.split("\0")
    for name in filter(None, tracked):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / name, source / name)
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(source)],
        capture_output=True,
        text=True,
        check=True,
    )
    (sdist,) = out.glob("mancala_env-*.tar.gz")
    (wheel,) = out.glob("mancala_env-*.whl")
    return {"sdist": sdist, "wheel": wheel}


@pytest.mark.integration
def test_build_makes_a_wheel_and_an_sdist_of_this_version(distributions):
    version = _version()
    assert distributions["sdist"].name == f"mancala_env-{version}.tar.gz"
    assert distributions["wheel"].name.startswith(f"mancala_env-{version}-py3-none-any")


@pytest.mark.integration
@pytest.mark.parametrize("kind", ["wheel", "sdist"])
def test_distribution_installs_and_runs_the_quick_start(distributions, kind, tmp_path):
    bin_folder = fresh_virtualenv(tmp_path / "venv", distributions[kind])
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "quick_start.py").write_text(QUICK_START)
    env = user_environment()
    show = [str(bin_folder / "mancala"), "show", "oware", "--seed", "7", "--summary"]
    where = [str(bin_folder / "python"), "-c", "import mancala_env; print(mancala_env.__file__)"]
    runs = [
        subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True)
        for command in (show, [str(bin_folder / "python"), "quick_start.py"], where)
    ]
    for run in runs:
        assert run.returncode == 0, run.stderr
    assert "Oware" in runs[0].stdout
    installed = Path(runs[2].stdout.strip())
    assert installed.is_relative_to(tmp_path / "venv"), "the installed package, not the clone"
