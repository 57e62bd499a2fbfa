"""The wheel `pip install .` builds: what it ships and what an install of it finds."""

from __future__ import annotations

import email
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from fresh_venv import fresh_virtualenv, user_environment

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = {
    "mancala_env": "mancala_env",
    "mancala_env.agents": "agents",
    "mancala_env.train": "train",
}
SUITES = Path("agents", "tournament", "suites")  # the opening suites shipped
SOURCES = ("pyproject.toml", "README.md", *FOLDERS.values())


def _version() -> str:
    return _project()["project"]["version"]


def _project() -> dict:
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


pytestmark = pytest.mark.integration  # every test builds the wheel, or installs it


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The wheel built from a copy of the sources (the worktree gets no build folders), and
    the build's output."""
    source = tmp_path_factory.mktemp("source")
    ignore = shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc", "*.egg-info")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=ignore)
        else:
            shutil.copy(ROOT / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    command = ["pip", "wheel", "--no-deps", "--no-build-isolation", "-v"]
    build = subprocess.run(
        [sys.executable, "-m", *command, str(source), "-w", str(out)],
        capture_output=True,
        text=True,
        check=True,
    )
    (path,) = out.glob("mancala_env-*.whl")
    return path, build.stdout + build.stderr


def test_wheel_ships_training_configs_and_type_markers(wheel):
    path, _ = wheel
    names = set(zipfile.ZipFile(path).namelist())
    configs = {
        f"mancala_env/{p.relative_to(ROOT).as_posix()}"
        for p in (ROOT / "train/configs").rglob("*.toml")
    }
    assert configs and configs <= names
    assert {f"{package.replace('.', '/')}/py.typed" for package in FOLDERS} <= names
    loops = {f"mancala_env/anchors/{p.name}" for p in (ROOT / "mancala_env/anchors").iterdir()}
    assert {"mancala_env/anchors/ayoayo_limit.c", "mancala_env/anchors/limit.h"} <= loops <= names
    assert "mancala_env/agents/networks/oware.npz" in names  # az:oware
    suites = {f"mancala_env/{SUITES}/{p.name}" for p in (ROOT / SUITES).glob("*.json")}
    assert suites and suites <= names  # the opening suites `--opening-suite VARIANT` reads
    assert not any(name.startswith(("tests/", "docs/", "benchmarks/")) for name in names)


def test_wheel_installs_one_namespace_with_every_package_of_the_repository(wheel):
    """Nothing but `mancala_env` (and its metadata) at the wheel's top; every folder of the
    repository's packages that holds an ``__init__.py`` is in pyproject.toml's list (the rest of
    the list are data folders), so none is left out of the wheel."""
    path, _ = wheel
    names = zipfile.ZipFile(path).namelist()
    assert {name.split("/")[0] for name in names} == {
        "mancala_env",
        f"mancala_env-{_version()}.dist-info",
    }
    listed = set(_project()["tool"]["setuptools"]["packages"])
    found = {
        ".".join((package, *init.parent.relative_to(ROOT / folder).parts))
        for package, folder in FOLDERS.items()
        for init in (ROOT / folder).rglob("__init__.py")
    }
    assert found <= listed
    assert {f"{package.replace('.', '/')}/__init__.py" for package in found} <= set(names)


def test_wheel_metadata_has_spdx_license_and_version_and_build_gives_no_warning(wheel):
    path, output = wheel
    archive = zipfile.ZipFile(path)
    (metadata,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
    fields = email.message_from_bytes(archive.read(metadata))
    assert fields["License-Expression"] == _project()["project"]["license"] == "MIT"
    assert fields["Version"] == _project()["project"]["version"]
    assert "Warning" not in output, output


def test_installed_wheel_reads_its_own_configs_and_version(wheel, tmp_path):
    """Installed (not editable) and run away from the sources, `load_config` finds the shipped
    TOML file (not the defaults) and `__version__` is the distribution's."""
    path, _ = wheel
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--target", str(target), str(path)],
        capture_output=True,
        check=True,
    )
    code = (
        "import mancala_env.train.config, mancala_env._version as v; "
        "c = mancala_env.train.config.load_config('oware'); "
        "print(mancala_env.train.config.__file__, c.timesteps, c.opponents, v.__version__)"
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    where, timesteps, *rest = run.stdout.split(maxsplit=2)
    assert Path(where).is_relative_to(target)
    shipped = (ROOT / "train" / "configs" / "oware.toml").read_text()
    assert f"timesteps = {int(timesteps):_}" in shipped
    assert "alphabeta:depth=2" in rest[0]
    assert rest[0].split()[-1] == _project()["project"]["version"]


# A research folder's own modules with the generic names the suite no longer installs.
CLASHES = {
    "agents.py": "raise SystemExit('the folder agents.py was imported')\n",
    "agents/__init__.py": "raise SystemExit('the folder agents/ was imported')\n",
    "train.py": "raise SystemExit('the folder train.py was run')\n",
}

GYM_SCRIPT = """
import gymnasium
import mancala_env
env = gymnasium.make("mancala_env/Oware-v1", opponent="alphabeta:depth=1", seat=0)
observation, info = env.reset(seed=3)
done = False
while not done:
    action = env.action_space.sample(mask=info["action_mask"])
    observation, reward, terminated, truncated, info = env.step(action)
    done = terminated or truncated
print(type(env.unwrapped._current).__module__, info["end_reason"] is not None)
"""


def test_wheel_in_a_fresh_virtualenv_runs_beside_a_folders_own_agents_and_train(wheel, tmp_path):
    """The built wheel in a new virtualenv (its dependencies read from this one's
    site-packages), run from a folder holding an ``agents.py``, an ``agents/`` package and a
    ``train.py``: the ``mancala`` command, ``python -m mancala_env`` and a Gymnasium environment
    with an agent-spec opponent never import the folder's modules."""
    path, _ = wheel
    bin_folder = fresh_virtualenv(tmp_path / "venv", path)
    python = bin_folder / "python"
    folder = tmp_path / "research"
    for name, text in CLASHES.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    (folder / "script.py").write_text(GYM_SCRIPT)
    env = user_environment()
    commands = {
        "mancala": [str(bin_folder / "mancala"), "show", "oware", "--seed", "2", "--summary"],
        "-m": [str(python), "-m", "mancala_env", "show", "oware", "--seed", "2", "--summary"],
        "script": [str(python), "script.py"],
    }
    runs = {
        key: subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True)
        for key, command in commands.items()
    }
    for key, run in runs.items():
        assert run.returncode == 0, (key, run.stdout, run.stderr)
    assert runs["mancala"].stdout == runs["-m"].stdout and "Oware" in runs["mancala"].stdout
    assert runs["script"].stdout.split() == ["mancala_env.agents.alphabeta", "True"]
