"""The installed distribution's version, read from its metadata (pyproject.toml is the one
source); a source tree that was never installed reports ``0+unknown``."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("mancala_env")
except PackageNotFoundError:  # run from a source tree without `pip install`
    __version__ = "0+unknown"
