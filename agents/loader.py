"""Agents from spec strings, as the command line and the tournament name them.

    random                      uniformly random legal moves
    greedy                      the move that wins the most seeds now
    alphabeta:depth=6           alpha-beta search (keys: depth, time, eval, tt, tb)
    alphabeta:time=0.5          ... iterative deepening for 0.5 s a move
    mcts:simulations=800        Monte Carlo tree search (keys: simulations, time, c, mix)
    perfect:db=endgames/oware   perfect play from an endgame database (docs/endgames.md)
    ppo:models/oware.zip        a saved sb3-contrib MaskablePPO model (its weights only)
    ppo:models/oware.zip,trust=yes   ... loaded whole: runs code the file holds
    az:oware                    a shipped network (docs/strength.md lists them), no search
    az:oware,simulations=800    ... searching with it (keys: simulations, time, c)
    az:runs/oware-az/final.npz  a network of your own (``mancala train --algo az``)
    human                       a person typing moves
    python:my_module:MyAgent    a class of your own (seeded if its __init__ takes `seed`)

Keys are written ``key=value`` and separated by commas: ``alphabeta:depth=8,time=1``.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable
from typing import Any

from mancala_env.endgame.files import database_identity
from mancala_env.inputs import integer_text, number_text
from mancala_env.readers import content_identity
from mancala_env.variants import get_variant

from .alphabeta import EVALUATIONS, MAX_DEPTH, AlphaBetaAgent
from .base import Agent, GreedyAgent, RandomAgent
from .human import HumanAgent
from .mcts import MCTSAgent
from .perfect import PerfectAgent

BUILT_INS: dict[str, type] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "alphabeta": AlphaBetaAgent,
    "mcts": MCTSAgent,
    "human": HumanAgent,
    "perfect": PerfectAgent,
}
SPEC_FORMS = (
    "random",
    "greedy",
    f"alphabeta[:depth=D][,time=SECONDS][,eval={'|'.join(EVALUATIONS)}][,tt=on|off][,tb=DIR]",
    "mcts[:simulations=N][,time=SECONDS][,c=C][,mix=M]",
    "perfect:db=DIR",
    "ppo:PATH[,trust=yes]",
    "az:NAME|PATH[,simulations=N][,time=SECONDS][,c=C]",
    "human",
    "python:MODULE:CLASS",
)


class SpecError(ValueError):
    """An agent spec that does not name an agent; the message lists the valid forms."""

    def __init__(self, spec: Any, problem: str) -> None:
        forms = "\n".join(f"  {form}" for form in SPEC_FORMS)
        super().__init__(f"bad agent spec {spec!r}: {problem}\nvalid agent specs:\n{forms}")
        self.problem = problem


def _integer(low: int, high: int | None = None) -> Callable[[str], int]:
    def convert(text: str) -> int:
        value = integer_text(text)
        if value < low or (high is not None and value > high):
            if high is None:
                raise ValueError(f"must be an integer of {low} or more")
            raise ValueError(f"must be an integer from {low} to {high}")
        return value

    return convert


def _positive(text: str) -> float:
    value = number_text(text)
    if not value > 0 or value == float("inf"):
        raise ValueError("must be a positive number")
    return value


def _non_negative(text: str) -> float:
    value = number_text(text)
    if not 0 <= value < float("inf"):
        raise ValueError("must be a number of 0 or more")
    return value


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


KEYS: dict[str, dict[str, tuple[str, Callable[[str], Any]]]] = {
    # spec key -> (constructor argument, converter)
    "alphabeta": {
        "depth": ("depth", _integer(1, MAX_DEPTH)),
        "time": ("time_limit", _positive),
        "eval": ("evaluate", _choice(*EVALUATIONS)),
        "tt": ("table", _switch),
        "tb": ("tb", str),
    },
    "mcts": {
        "simulations": ("simulations", _integer(1)),
        "time": ("time_limit", _positive),
        "c": ("c", _non_negative),
        "mix": ("mix", _non_negative),
    },
    "perfect": {"db": ("db", str)},
    "az": {
        "simulations": ("simulations", _integer(1)),
        "time": ("time_limit", _positive),
        "c": ("c", _non_negative),
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


def _takes_seed(cls: Any) -> bool:
    try:
        parameters = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "seed" or p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)


def _find(spec: str, module_name: str, finder: Callable[[str], Any]) -> Any:
    """`finder(module_name)` (``importlib.import_module``, or ``importlib.util.find_spec`` to
    find a module without running it), looking in the working directory too."""
    found = None
    try:
        found = finder(module_name)
    except ModuleNotFoundError as error:
        top = module_name.split(".")[0]
        if error.name != top or os.getcwd() in sys.path:
            raise SpecError(spec, f"cannot import module {module_name!r}: {error}") from error
    except (ImportError, ValueError) as error:
        raise SpecError(spec, f"cannot import module {module_name!r}: {error}") from error
    if found is None and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
        try:
            found = finder(module_name)
        except (ImportError, ValueError) as error:
            raise SpecError(spec, f"cannot import module {module_name!r}: {error}") from error
        finally:
            sys.path.remove(os.getcwd())
    if found is None:
        raise SpecError(spec, f"cannot import module {module_name!r}: no module named it")
    return found


def _ppo_target(spec: str, rest: str) -> dict[str, Any]:
    """The model path of ``ppo:PATH[,trust=yes]`` and whether it is trusted."""
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


def _python_agent(spec: str, module_name: str, class_name: str, seed: int | None) -> Agent:
    module = _find(spec, module_name, importlib.import_module)
    cls = getattr(module, class_name, None)
    if cls is None or not callable(cls):
        raise SpecError(spec, f"module {module_name!r} has no class {class_name!r}")
    agent = cls(seed=seed) if _takes_seed(cls) else cls()
    if not isinstance(agent, Agent):
        raise SpecError(
            spec,
            f"{module_name}:{class_name} is not an agent: it needs reset(seed=None) and "
            "act(game) -> int methods",
        )
    return agent


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
        raise SpecError(spec, f"{command} plays without people; choose another agent")


def load_agent(spec: str, variant: str | None = None, seed: int | None = None) -> Agent:
    """The agent `spec` names (see SPEC_FORMS), seeded with `seed`.

    `variant`, when given, is the rule set the agent will play: a saved model is checked
    against it as it is loaded. A bad spec raises ValueError (`SpecError`) saying what is wrong
    and listing the valid forms.
    """
    kind, arguments = parse_spec(spec)
    if variant is not None:
        get_variant(variant)
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
    its module's source file, a built-in agent by its code version. New content at the same
    path gets a new identity, and so new games. Nothing is loaded: files are hashed."""
    kind, arguments = parse_spec(spec)
    if kind == "ppo":
        from .ppo import model_identity

        return model_identity(arguments["path"])
    if kind == "az":
        from .network import network_identity

        return network_identity(arguments["network"])
    if kind == "python":
        module_name = arguments["module_name"]
        source = _find(spec, module_name, importlib.util.find_spec).origin
        if source is None or not os.path.isfile(source):
            return f"{module_name} (no source file)"
        with open(source, "rb") as file:
            return content_identity(file.read())
    identity = f"{kind} v{BUILT_INS[kind].code_version}"
    database = arguments.get("db", arguments.get("tb"))  # perfect's, alphabeta's
    if database is not None:  # its level files, by every byte of them
        identity += f" db {database_identity(database)}"
    return identity
