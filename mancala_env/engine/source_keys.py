"""The key of a module's compiled code: a hash of the sources it is built from, and no others.

A kernel reads the code and constants of the modules it imports, and of those they import, so
its compiled code is stale when any of them changed, and only then. `module_key(name)` hashes
the source of the module `name` and of every module of this package it imports, directly or
through others, as the import statements (read with `ast`, in any block of the file)
say: an edit to one module changes the keys of the modules that import it and of no other.
The engine imports nothing from `mancala_env.agents` or `mancala_env.train`, so an edit there
leaves the engine's key, and every compiled rule set, as they were. The keys are SHA-256
hashes, the same in every process, and each is worked out once a process.

A name resolves to a file below `root`: ``mancala_env/...``, or in the repository, where
``mancala_env.agents`` and ``mancala_env.train`` are the folders ``agents/`` and ``train/``
beside ``mancala_env/``. A module found nowhere below `root` (a derived module, written in the
cache folder, or a kernel's module outside this package) is read from the file it was loaded
from. The modules of other packages it imports (numpy, numba) are not followed: numba's version
goes into the stamps beside the key.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import sys
from collections.abc import Iterator
from pathlib import Path

PACKAGE = "mancala_env"
# the repository (agents/ beside mancala_env/) or, installed, site-packages (mancala_env/agents/)
ROOT = Path(__file__).resolve().parents[2]
_BESIDE = ("agents", "train")  # subpackages kept beside mancala_env/ in the repository


@functools.cache
def module_key(name: str, root: Path = ROOT) -> str:
    """A hash of the source of the module `name` (dotted) and of every module of this package
    it imports, directly or not; the same in every process."""
    digest = hashlib.sha256()
    for module in sorted(imported_modules(name, root)):
        digest.update(f"{module}\0".encode())
        digest.update(hashlib.sha256(module_file(module, root).read_bytes()).digest())
    return digest.hexdigest()


def imported_modules(name: str, root: Path = ROOT) -> set[str]:
    """`name` and every module of this package it imports, directly or not."""
    seen = {name}
    waiting = [name]
    while waiting:
        for module in _imports(waiting.pop(), root):
            if module not in seen:
                seen.add(module)
                waiting.append(module)
    return seen


@functools.cache
def _imports(name: str, root: Path) -> frozenset[str]:
    """The modules of this package the module `name` imports itself."""
    path = module_file(name, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _statements(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node.module, node.level, package)
            for alias in node.names:  # a submodule, else a name the package itself defines
                submodule = f"{base}.{alias.name}"
                found.add(submodule if _find(submodule, root) is not None else base)
    return frozenset(module for module in found if _ours(module) and _find(module, root))


def _statements(node: ast.AST) -> Iterator[ast.AST]:
    """Every statement in `node`, in blocks at any depth (an import is one; expressions, the
    bulk of a module, are not walked)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.stmt, ast.excepthandler, ast.match_case)):
            yield child
            yield from _statements(child)


def _absolute(module: str | None, level: int, package: str) -> str:
    """The dotted name ``from <level dots><module> import ...`` means inside `package`."""
    if level == 0:
        return module or ""
    base = package.rsplit(".", level - 1)[0] if level > 1 else package
    return f"{base}.{module}" if module else base


def module_file(name: str, root: Path = ROOT) -> Path:
    """The source file of the module `name`: of this package, or one loaded from a file."""
    path = _find(name, root)
    if path is None:
        raise ValueError(f"{name} is neither a module of {PACKAGE} below {root} nor loaded")
    return path


def _find(name: str, root: Path) -> Path | None:
    path = _below(name, root)
    if path is None:  # a derived module, or a kernel's module outside this package, once loaded
        loaded = getattr(sys.modules.get(name), "__file__", None)
        path = Path(loaded) if loaded else None
    return path


def _ours(name: str) -> bool:
    return name == PACKAGE or name.startswith(PACKAGE + ".")


@functools.cache
def _below(name: str, root: Path) -> Path | None:
    parts = name.split(".")
    if parts[0] != PACKAGE:
        return None
    bases = [root.joinpath(*parts)]
    if len(parts) > 1 and parts[1] in _BESIDE:
        bases.append(root.joinpath(*parts[1:]))
    for base in bases:
        for path in (base.with_name(base.name + ".py"), base / "__init__.py"):
            if path.is_file():
                return path
    return None
