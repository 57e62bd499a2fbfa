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

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("mancala_env", "agents", "train")
SUITES = Path("agents", "tournament", "suites")  # the opening suites shipped
SOURCES = ("pyproject.toml", "README.md", *PACKAGES)


def _project() -> dict:
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


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
    configs = {f"train/configs/{p.name}" for p in (ROOT / "train" / "configs").glob("*.toml")}
    assert configs and configs <= names
    assert {f"{package}/py.typed" for package in PACKAGES} <= names
    assert "mancala_env/anchors/oware_limit.c" in names  # the C loop `mancala bench` builds
    suites = {f"agents/tournament/suites/{p.name}" for p in (ROOT / SUITES).glob("*.json")}
    assert suites and suites <= names  # the opening suites `--opening-suite VARIANT` reads
    assert not any(name.startswith(("tests/", "docs/", "benchmarks/")) for name in names)


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
        "import train.config, mancala_env._version as v; "
        "c = train.config.load_config('oware'); "
        "print(train.config.__file__, c.timesteps, c.opponents, v.__version__)"
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
