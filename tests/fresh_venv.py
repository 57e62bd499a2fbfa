"""A new virtualenv holding one built distribution of the suite, its dependencies read from the
running virtualenv's site-packages (a .pth file), so no network is needed, and the environment
its commands run in."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from mancala_env.kernels import SHARED_SWITCH


def user_environment() -> dict[str, str]:
    """The environment variables of a user's process: this one's without the tests' own, the
    repository on ``PYTHONPATH`` and the switch to the shared kernels (`tests/conftest.py`), so
    an installed suite runs each rule set's own kernels, as users get them."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", SHARED_SWITCH)}


def fresh_virtualenv(folder: Path, distribution: Path) -> Path:
    """Create a virtualenv in `folder`, install `distribution` (a wheel or an sdist) into it
    without its dependencies, and return its ``bin`` folder."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ours = [p for p in sys.path if p.endswith("site-packages")]
    Path(site, "dependencies.pth").write_text("\n".join(ours) + "\n")
    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps"]
    # an sdist is built here too: without isolation, with the running virtualenv's setuptools
    subprocess.run(
        [*install, "--no-build-isolation", str(distribution)], capture_output=True, check=True
    )
    return folder / "bin"
