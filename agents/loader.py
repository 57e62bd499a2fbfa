"""Agents from spec strings, as the command line and the tournament name them.

    random                      uniformly random legal moves
    greedy                      the move that wins the most seeds now
    alphabeta:depth=6           alpha-beta search (keys: depth, time, eval, tt, tb)
    alphabeta:time=0.5          ... iterative deepening for 0.5 s a move
    mcts:simulations=800        Monte Carlo tree search (keys: simulations, time, c, mix)
    perfect:db=endgames/oware   perfect play from an endgame database (docs/endgames.md)
    ppo:oware                   a shipped PPO policy (docs/baselines.md lists them)
    ppo:models/oware.zip        a saved sb3-contrib MaskablePPO model (its weights only)
    ppo:models/oware.zip,trust=yes   ... loaded whole: runs code the file holds
    ppo:runs/oware/final_model.npz   a network ``--algo batched-ppo`` trained
    az:oware                    a shipped network (docs/strength.md lists them), no search
    az:oware,simulations=800    ... searching with it (keys: simulations, time, c, search,
                                considered, gumbel_scale)
    az:oware,simulations=32,search=gumbel   ... Gumbel AlphaZero's search instead of PUCT
    az:runs/oware-az/final.npz  a network of your own (``mancala train --algo az``)
    human                       a person typing moves
    python:my_module:MyAgent    a class of your own (seeded if its __init__ takes `seed`), or a
                                function annotated to return one

Keys are written ``key=value`` and separated by commas: ``alphabeta:depth=8,time=1``.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import inspect
import os
import platform
import sys
import typing
from collections.abc import Callable
from typing import Any

from mancala_env.endgame.files import database_identity
from mancala_env.inputs import integer_text, number_text
from mancala_env.readers import ReadError, file_identity, file_sha256
from mancala_env.variants import get_variant

from .alphabeta import EVALUATIONS, MAX_DEPTH, AlphaBetaAgent
from .base import Agent, GreedyAgent, RandomAgent
from .human import HumanAgent
from .mcts import MCTSAgent
from .perfect import PerfectAgent
from .search import AZ_SEARCHES, MAX_C, MAX_CONSIDERED, MAX_SECONDS, MAX_SIMULATIONS

BUILT_INS: dict[str, type] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "alphabeta": AlphaBetaAgent,
    "mcts": MCTSAgent,
    "human": HumanAgent,
    "perfect": PerfectAgent,
}
# The files of a `python:` agent's module that its identity hashes, and their bounds
MAX_MODULE_BYTES = 64 << 20  # all of them together
MAX_MODULE_ENTRIES = 10_000  # the files and folders of its package looked at
_IMPORTED = tuple(importlib.machinery.all_suffixes())  # .py, .pyc, extension modules
SPEC_FORMS = (
    "random",
    "greedy",
    f"alphabeta[:depth=D][,time=SECONDS][,eval={'|'.join(EVALUATIONS)}][,tt=on|off][,tb=DIR]",
    "mcts[:simulations=N][,time=SECONDS][,c=C][,mix=M]",
    "perfect:db=DIR",
    "ppo:NAME|PATH[,trust=yes]",
    f"az:NAME|PATH[,simulations=N][,time=SECONDS][,c=C][,search={'|'.join(AZ_SEARCHES)}]"
    "[,considered=M][,gumbel_scale=G]",
    "human",
    "python:MODULE:CLASS",
)


class SpecError(ValueError):
    """An agent spec that does not name an agent, in one line: what is wrong and, unless
    `forms` is false (an agent refused for the command, not for its form), the valid forms."""

    def __init__(self, spec: Any, problem: str, forms: bool = True) -> None:
        said = f" (valid agent specs: {' | '.join(SPEC_FORMS)})" if forms else ""
        super().__init__(f"bad agent spec {spec!r}: {problem}{said}")
        self.problem = problem


def _integer(low: int, high: int | None = None) -> Callable[[str], int]:
    def convert(text: str) -> int:
        value = integer_text(text)
        if value < low or (high is not None and value > high):
            if high is None:
                raise ValueError(f"must be an integer of {low:,} or more")
            raise ValueError(f"must be an integer from {low:,} to {high:,}")
        return value

    return convert


def _number(low: float, high: float, above: bool = False) -> Callable[[str], float]:
    """A number from `low` (or, `above`, over it) to `high`: NaN and infinities are not."""
    allowed = f"above {low:g} and at most {high:g}" if above else f"from {low:g} to {high:g}"

    def convert(text: str) -> float:
        value = number_text(text)
        if not (low < value if above else low <= value) or not value <= high:
            raise ValueError(f"must be a number {allowed}")
        return value

    return convert


def _choice(*names: str) -> Callable[[str], str]:
    def convert(text: str) -> str:
        if text not in names:
            raise ValueError(f"must be one of {', '.join(names)}")
        return text

    return convert


def _switch(text: str) -> bool:
    if text in ("on", "true", "1", "yes"):
        return True
    if text in ("off", "false", "0", "no"):
        return False
    raise ValueError("must be on or off")


SECONDS = _number(0, MAX_SECONDS, above=True)
# Every key of every agent's spec, its constructor argument and its type and range: the one
# place a spec's values are checked, with the agents' own bounds (`search.MAX_SIMULATIONS`...),
# before an agent is made, so no number out of range reaches an allocation.
KEYS: dict[str, dict[str, tuple[str, Callable[[str], Any]]]] = {
    # spec key -> (constructor argument, converter)
    "alphabeta": {
        "depth": ("depth", _integer(1, MAX_DEPTH)),
        "time": ("time_limit", SECONDS),
        "eval": ("evaluate", _choice(*EVALUATIONS)),
        "tt": ("table", _switch),
        "tb": ("tb", str),
    },
    "mcts": {
        "simulations": ("simulations", _integer(1, MAX_SIMULATIONS)),
        "time": ("time_limit", SECONDS),
        "c": ("c", _number(0, MAX_C)),
        "mix": ("mix", _number(0, 1)),
    },
    "perfect": {"db": ("db", str)},
    "az": {
        "simulations": ("simulations", _integer(1, MAX_SIMULATIONS)),
        "time": ("time_limit", SECONDS),
        "c": ("c", _number(0, MAX_C)),
        "search": ("search", _choice(*AZ_SEARCHES)),
        "considered": ("considered", _integer(1, MAX_CONSIDERED)),
        "gumbel_scale": ("gumbel_scale", _number(0, MAX_C)),
    },
}


def _keys(spec: str, kind: str, text: str) -> dict[str, Any]:
    """The constructor arguments of ``key=value,key=value``."""
    allowed = KEYS[kind]
    out: dict[str, Any] = {}
    seen: set[str] = set()
    if not text.strip():
        return out
    for item in text.split(","):
        key, equals, value = (part.strip() for part in item.partition("="))
        if not equals or not key or not value:
            raise SpecError(spec, f"{item.strip()!r} is not key=value")
        if key not in allowed:
            raise SpecError(
                spec, f"unknown key {key!r} for {kind}; its keys are {', '.join(allowed)}"
            )
        if key in seen:
            raise SpecError(spec, f"key {key!r} is given twice")
        seen.add(key)
        argument, convert = allowed[key]
        try:
            out[argument] = convert(value)
        except ValueError as error:
            reason = str(error) if "must be" in str(error) else "is not a number"
            raise SpecError(spec, f"bad value {value!r} for {key}: {reason}") from None
    return out


def _takes_seed(maker: Any) -> bool:
    try:
        parameters = inspect.signature(maker).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "seed" or p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)


def _said(error: BaseException) -> str:
    """What `error` says, on one line: its type and its message's first line."""
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__


def _find(spec: str, module_name: str, finder: Callable[[str], Any]) -> Any:
    """`finder(module_name)` (``importlib.import_module``, or ``importlib.util.find_spec`` to
    find a module without running it), looking in the working directory too. Whatever the
    module's code raises as it is imported (`SystemExit` too) refuses the spec."""
    found = None
    try:
        found = finder(module_name)
    except ModuleNotFoundError as error:
        top = module_name.split(".")[0]
        if error.name != top or os.getcwd() in sys.path:
            raise SpecError(spec, f"cannot import module {module_name!r}: {_said(error)}") from None
    except (Exception, SystemExit) as error:
        raise SpecError(spec, f"cannot import module {module_name!r}: {_said(error)}") from None
    if found is None and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
        try:
            found = finder(module_name)
        except (Exception, SystemExit) as error:
            raise SpecError(spec, f"cannot import module {module_name!r}: {_said(error)}") from None
        finally:
            sys.path.remove(os.getcwd())
    if found is None:
        raise SpecError(spec, f"cannot import module {module_name!r}: no module named it")
    return found


def _ppo_target(spec: str, rest: str) -> dict[str, Any]:
    """The model path of ``ppo:PATH[,trust=yes]`` and whether it is trusted; for a shipped
    policy's name or a network file (``.npz``: what ``--algo batched-ppo`` writes), the network
    file alone (a policy that is a network plays as ``az:`` does without search)."""
    from .network import shipped_policy

    shipped = shipped_policy(rest.strip())
    if shipped is not None:
        return {"network": str(shipped)}
    if rest.strip().endswith(".npz"):
        return {"network": rest.strip()}
    path, comma, option = rest.strip().rpartition(",")
    key, equals, value = (part.strip() for part in option.partition("="))
    if not comma or key != "trust" or not equals:
        path, value = rest.strip(), "no"  # a path may hold commas of its own
    if not path:
        raise SpecError(spec, "ppo: needs the path of a saved model, ppo:PATH")
    try:
        return {"path": path, "trust": _switch(value)}
    except ValueError:
        raise SpecError(spec, f"bad value {value!r} for trust: must be yes or no") from None


def _az_target(spec: str, rest: str) -> dict[str, Any]:
    """The network and search keys of ``az:NAME|PATH[,key=value...]``: the keys are read from
    the end, so a path may hold commas of its own."""
    items = rest.strip().split(",")
    keys: list[str] = []
    while len(items) > 1 and items[-1].partition("=")[0].strip() in KEYS["az"]:
        keys.insert(0, items.pop())
    network = ",".join(items).strip()
    if not network:
        raise SpecError(spec, "az: needs a shipped network's name or a network file, az:NAME")
    return {"network": network, **_keys(spec, "az", ",".join(keys))}


def _python_target(spec: str, rest: str) -> dict[str, str]:
    """The module and class of ``python:MODULE:CLASS``."""
    module_name, colon, class_name = rest.rpartition(":")
    if not colon or not module_name.strip() or not class_name.strip():
        raise SpecError(spec, "python: needs a module and a class, python:MODULE:CLASS")
    return {"module_name": module_name.strip(), "class_name": class_name.strip()}


def _agent_class(candidate: Any) -> bool:
    """Whether `candidate` is a class whose objects are agents (`reset` and `act`)."""
    try:
        return inspect.isclass(candidate) and issubclass(candidate, Agent)
    except Exception:  # a class whose attributes cannot be looked at
        return False


def _makes_agents(maker: Any) -> bool:
    """Whether `maker` is an agent class, or a function annotated to return one (``def
    make(seed=None) -> MyAgent``). Nothing else is called: a `python:` spec of any other
    callable (``sys:exit``) is refused before it runs."""
    if inspect.isclass(maker):
        return _agent_class(maker)
    if not inspect.isfunction(maker):
        return False
    try:
        returned = typing.get_type_hints(maker).get("return")
    except (Exception, SystemExit):  # an annotation that names nothing
        return False
    return _agent_class(returned)


def _python_agent(spec: str, module_name: str, class_name: str, seed: int | None) -> Agent:
    module = _find(spec, module_name, importlib.import_module)
    name = f"{module_name}:{class_name}"
    try:
        maker = getattr(module, class_name, None)
        makes_agents = _makes_agents(maker)
    except (Exception, SystemExit) as error:  # a module's __getattr__
        raise SpecError(spec, f"looking up {name} raised {_said(error)}") from None
    if maker is None:
        raise SpecError(spec, f"module {module_name!r} has no class {class_name!r}")
    if not makes_agents:
        raise SpecError(
            spec,
            f"{name} is not an agent: it is no class with reset(seed=None) and act(game) -> int "
            "methods, nor a function annotated to return one",
        )
    try:
        agent = maker(seed=seed) if _takes_seed(maker) else maker()
    except (Exception, SystemExit) as error:  # Ctrl-C (KeyboardInterrupt) stops the command
        raise SpecError(spec, f"making {name} raised {_said(error)}") from None
    if not isinstance(agent, Agent):
        raise SpecError(spec, f"{name} returned {type(agent).__name__}, not an agent")
    return agent


def _file_holding(path: str | None) -> str | None:
    """The regular file at `path`, or the nearest folder above it that is one (the zip archive
    a module is imported from, ``agents.zip/my_agents.py``); None when there is none (a
    built-in module's origin, ``built-in``, is no path)."""
    while path:
        if os.path.isfile(path):
            return path
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent
    return None


def _below(path: str, folders: list[str]) -> bool:
    """Whether `path` is one of `folders` or lies below one of them."""
    real = os.path.realpath(path)
    for folder in map(os.path.realpath, folders):
        try:
            if os.path.commonpath([real, folder]) == folder:
                return True
        except ValueError:  # another drive
            continue
    return False


def _package_files(folder: str) -> list[tuple[str, str]]:
    """The files Python may import from the package folder `folder`, below it at any depth
    (their ``__pycache__``, which Python writes itself, aside): (name relative to `folder`,
    path) pairs, sorted. A folder of more than `MAX_MODULE_ENTRIES` entries is refused."""
    found, looked = [], 0
    for place, folders, files in os.walk(folder, followlinks=True):
        looked += len(folders) + len(files)
        if looked > MAX_MODULE_ENTRIES:
            raise ReadError(
                folder,
                f"holds more than {MAX_MODULE_ENTRIES:,} files and folders; at most "
                f"{MAX_MODULE_ENTRIES:,} are looked at",
            )
        folders[:] = sorted(name for name in folders if name != "__pycache__")
        for name in files:
            if name.endswith(_IMPORTED):
                path = os.path.join(place, name)
                found.append((os.path.relpath(path, folder).replace(os.sep, "/"), path))
    return sorted(found)


def _package_identity(folders: list[str]) -> str:
    """The hash of every file Python may import from the package `folders` (its contents,
    wherever they lie), at most `MAX_MODULE_BYTES` of them in all."""
    digest = hashlib.sha256()
    left = MAX_MODULE_BYTES
    for number, folder in enumerate(folders):
        held = None if os.path.isdir(folder) else _file_holding(folder)
        for name, path in [("", held)] if held else _package_files(folder):
            try:
                size = os.stat(path).st_size
            except OSError as error:
                raise ReadError(path, f"cannot be read: {error.strerror or error}") from None
            if size > left:
                raise ReadError(
                    folder,
                    f"holds over {MAX_MODULE_BYTES:,} bytes of modules; at most "
                    f"{MAX_MODULE_BYTES:,} are read",
                )
            digest.update(f"{number}/{name}\0{file_sha256(path, left)}\0".encode())
            left -= size
    return "sha256:" + digest.hexdigest()


def module_identity(spec: str, module_name: str) -> str:
    """What the module of a `python:` agent is, by the contents of the files it is imported
    from, not by its name: a module of its own by its file's bytes; a module of a package by
    every file Python may import from its top-level package's folders (``.py``, ``.pyc``,
    extension modules; relative imports reach them all; ``__pycache__`` aside); a module or a
    package in a zip archive by the archive's bytes; a built-in module by its name and
    Python's version. A module its package maps to a folder of its own (as this suite's
    ``mancala_env.agents`` is ``agents/`` in its repository) adds its own file or folder.
    Bounded: at most `MAX_MODULE_BYTES` are hashed, `MAX_MODULE_ENTRIES` looked at; more is
    refused (`ReadError`, one line) unread. Nothing is run but the packages above the module
    (``importlib.util.find_spec``)."""
    parts = module_name.split(".")
    names = [".".join(parts[:end]) for end in range(1, len(parts) + 1)]
    chain = [_find(spec, name, importlib.util.find_spec) for name in names]  # top first
    found = chain[0]
    if found.submodule_search_locations is not None:  # a package, or a namespace package
        folders = list(found.submodule_search_locations)
        for below in chain[1:]:  # a subpackage or module mapped outside them
            places = list(below.submodule_search_locations or ()) or [below.origin]
            folders += [place for place in places if place and not _below(place, folders)]
        return _package_identity(folders)
    held = _file_holding(found.origin)
    if held is None:
        return f"{module_name} ({found.origin}, Python {platform.python_version()})"
    return file_identity(held, MAX_MODULE_BYTES)


def runs_code(spec: str) -> bool:
    """Whether loading `spec` runs code from outside the package: a ``python:`` agent, or a
    ``ppo:`` model loaded whole (``trust=yes``). A bad spec raises `SpecError`."""
    kind, arguments = parse_spec(spec)
    return kind == "python" or (kind == "ppo" and arguments.get("trust", False))


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """The kind of agent `spec` names and the arguments it gives: a built-in's constructor
    arguments, ``ppo``'s path and trust, ``python``'s module and class names. Nothing is loaded
    or imported: a bad spec raises `SpecError` (listing the valid forms), an agent that cannot
    be loaded is found by `load_agent`."""
    if not isinstance(spec, str) or not spec.strip():
        raise SpecError(spec, "an agent spec is a non-empty string")
    kind, colon, rest = spec.strip().partition(":")
    kind = kind.strip()
    if kind == "az":
        return kind, _az_target(spec, rest)
    if kind in KEYS:
        arguments = _keys(spec, kind, rest)
        if kind == "perfect" and "db" not in arguments:
            raise SpecError(spec, "perfect: needs its database's directory, perfect:db=DIR")
        return kind, arguments
    if kind == "ppo":
        return kind, _ppo_target(spec, rest)
    if kind == "python":
        return kind, _python_target(spec, rest)
    if kind not in BUILT_INS:
        raise SpecError(spec, f"unknown agent kind {kind!r}")
    if colon:
        raise SpecError(spec, f"{kind} takes no options")
    return kind, {}


def check_unattended(spec: str, command: str) -> None:
    """Refuse (`SpecError`) an agent that asks a person for its moves where `command` plays
    with no one at the terminal: ``human`` would wait on standard input, or end at its end."""
    if parse_spec(spec)[0] == "human":
        raise SpecError(spec, f"{command} plays without people; choose another agent", False)


def load_agent(spec: str, variant: str | None = None, seed: int | None = None) -> Agent:
    """The agent `spec` names (see SPEC_FORMS), seeded with `seed`.

    `variant`, when given, is the rule set the agent will play: a saved model is checked
    against it as it is loaded. A bad spec raises ValueError (`SpecError`) saying what is wrong
    and listing the valid forms.
    """
    kind, arguments = parse_spec(spec)
    if variant is not None:
        get_variant(variant)
    if kind == "ppo" and "network" in arguments:
        from .az import AZAgent

        return AZAgent(variant=variant, seed=seed, network=arguments["network"])
    if kind == "ppo":
        from .ppo import PPOAgent

        return PPOAgent(variant=variant, seed=seed, **arguments)
    if kind == "python":
        return _python_agent(spec, seed=seed, **arguments)
    if kind == "az":
        from .az import AZAgent

        return AZAgent(variant=variant, seed=seed, **arguments)
    try:
        return BUILT_INS[kind](seed=seed, **arguments)
    except ValueError as error:  # a database that does not open, a budget out of range
        raise SpecError(spec, str(error)) from None


def agent_identity(spec: str) -> str:
    """What the agent `spec` names is, as tournaments key their games and workers their loaded
    agents: a saved model by the hash of its file's bytes, a class of your own by the hash of
    its module's files (`module_identity`), a built-in agent by its code version. New content
    at the same path gets a new identity, and so new games. Nothing is loaded: files are
    hashed."""
    kind, arguments = parse_spec(spec)
    if kind == "ppo" and "path" in arguments:
        from .ppo import model_identity

        return model_identity(arguments["path"])
    if kind in ("az", "ppo"):
        from .network import network_identity

        return network_identity(arguments["network"])
    if kind == "python":
        return module_identity(spec, arguments["module_name"])
    identity = f"{kind} v{BUILT_INS[kind].code_version}"
    database = arguments.get("db", arguments.get("tb"))  # perfect's, alphabeta's
    if database is not None:  # its level files, by every byte of them
        identity += f" db {database_identity(database)}"
    return identity
