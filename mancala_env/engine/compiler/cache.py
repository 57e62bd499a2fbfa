"""The derived modules' names and files: written once in the cache folder, imported once.

A derived module is named by a hash of everything it is made from (`derived_name`), so a
changed rule, constant or parameter names a new module and nothing stale can be loaded. The
modules live in the user's cache folder (`cache_folder`: ``$MANCALA_ENV_CACHE``, else
``$XDG_CACHE_HOME/mancala_env``, else ``~/.cache/mancala_env``, used only when no one else can
write it), in ``kernels/``, written atomically; the folder may be deleted at any time.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from collections.abc import Callable
from types import ModuleType

import numba

from ...outputs import write_atomically
from ..cache_folder import cache_folder

PACKAGE = "mancala_env.specialised"  # the derived modules' names: PACKAGE + ".rules_" + hash
_modules: dict[str, ModuleType] = {}  # by name: what it is made of, the modules it calls too


def derived_name(values: tuple[int, ...], names: tuple[str, ...], sources: list[str]) -> str:
    """The name of the module derived from `sources` (the keys of what it is made from) for
    `values`: a hash of both, of the modules' names and of numba's version (rule sets with
    equal parameters share it)."""
    made_of = repr((values, names, sources, numba.__version__)).encode()
    return f"rules_{hashlib.sha256(made_of).hexdigest()[:20]}"


def derived_module(module_name: str, source: Callable[[], str]) -> ModuleType:
    """The derived module `module_name`, imported once a process from its file in the cache
    folder, which is written from `source()` when it is not there yet."""
    if module_name in _modules:
        return _modules[module_name]
    path = cache_folder() / "kernels" / f"{module_name}.py"
    if not path.exists():
        write_atomically(path, source().encode())
    spec = importlib.util.spec_from_file_location(f"{PACKAGE}.{module_name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # before running it: the modules after it import from it
    spec.loader.exec_module(module)
    _modules[module_name] = module
    return module
