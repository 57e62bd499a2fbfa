"""Agents from spec strings, as the command line and the tournament name them.

    random                      uniformly random legal moves
    greedy                      the move that wins the most seeds now
    alphabeta:depth=6           alpha-beta search (keys: depth, time, eval, tt)
    alphabeta:time=0.5          ... iterative deepening for 0.5 s a move
    mcts:simulations=800        Monte Carlo tree search (keys: simulations, time, c)
    perfect:db=endgames/oware   perfect play from an endgame database (docs/endgames.md)
    ppo:models/oware.zip        a saved sb3-contrib MaskablePPO model (its weights only)
    ppo:models/oware.zip,trust=yes   ... loaded whole: runs code the file holds
    human                       a person typing moves
    python:my_module:MyAgent    a class of your own (seeded if its __init__ takes `seed`)

Keys are written ``key=value`` and separated by commas: ``alphabeta:depth=8,time=1``.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import os
import sys
from collections.abc import Callable
from typing import Any

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
    f"alphabeta[:depth=D][,time=SECONDS][,eval={'|'.join(EVALUATIONS)}][,tt=on|off]",
    "mcts[:simulations=N][,time=SECONDS][,c=C]",
    "perfect:db=DIR",
    "ppo:PATH[,trust=yes]",
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
        value = int(text)
        if value < low or (high is not None and value > high):
            if high is None:
                raise ValueError(f"must be an integer of {low} or more")
            raise ValueError(f"must be an integer from {low} to {high}")
        return value

    return convert


def _positive(text: str) -> float:
    value = float(text)
    if not value > 0 or value == float("inf"):
        raise ValueError("must be a positive number")
    return value


def _non_negative(text: str) -> float:
    value = float(text)
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
    },
    "mcts": {
        "simulations": ("simulations", _integer(1)),
        "time": ("time_limit", _positive),
        "c": ("c", _non_negative),
    },
    "perfect": {"db": ("db", str)},
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


def _import(spec: str, module_name: str) -> Any:
    """Import `module_name`, looking in the working directory too."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        top = module_name.split(".")[0]
        if error.name != top or os.getcwd() in sys.path:
            raise SpecError(spec, f"cannot import module {module_name!r}: {error}") from error
    sys.path.insert(0, os.getcwd())
    try:
        return importlib.import_module(module_name)
    except ImportError as error:
        raise SpecError(spec, f"cannot import module {module_name!r}: {error}") from error
    finally:
        sys.path.remove(os.getcwd())


def _ppo_target(spec: str, rest: str) -> tuple[str, bool]:
    """The model path of ``ppo:PATH[,trust=yes]`` and whether it is trusted."""
    path, comma, option = rest.strip().rpartition(",")
    key, equals, value = (part.strip() for part in option.partition("="))
    if not comma or key != "trust" or not equals:
        path, value = rest.strip(), "no"  # a path may hold commas of its own
    if not path:
        raise SpecError(spec, "ppo: needs the path of a saved model, ppo:PATH")
    try:
        return path, _switch(value)
    except ValueError:
        raise SpecError(spec, f"bad value {value!r} for trust: must be yes or no") from None


def _python_agent(spec: str, target: str, seed: int | None) -> Agent:
    module_name, colon, class_name = target.rpartition(":")
    if not colon or not module_name.strip() or not class_name.strip():
        raise SpecError(spec, "python: needs a module and a class, python:MODULE:CLASS")
    module = _import(spec, module_name.strip())
    cls = getattr(module, class_name.strip(), None)
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


def load_agent(spec: str, variant: str | None = None, seed: int | None = None) -> Agent:
    """The agent `spec` names (see SPEC_FORMS), seeded with `seed`.

    `variant`, when given, is the rule set the agent will play: a saved model is checked
    against it as it is loaded. A bad spec raises ValueError (`SpecError`) saying what is wrong
    and listing the valid forms.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise SpecError(spec, "an agent spec is a non-empty string")
    if variant is not None:
        get_variant(variant)
    kind, colon, rest = spec.strip().partition(":")
    kind = kind.strip()
    if kind in ("random", "greedy", "human"):
        if colon:
            raise SpecError(spec, f"{kind} takes no options")
        if kind == "random":
            return RandomAgent(seed)
        if kind == "greedy":
            return GreedyAgent(seed)
        return HumanAgent(seed=seed)
    if kind == "alphabeta":
        return AlphaBetaAgent(seed=seed, **_keys(spec, kind, rest))
    if kind == "mcts":
        return MCTSAgent(seed=seed, **_keys(spec, kind, rest))
    if kind == "perfect":
        keys = _keys(spec, kind, rest)
        if "db" not in keys:
            raise SpecError(spec, "perfect: needs its database's directory, perfect:db=DIR")
        try:
            return PerfectAgent(seed=seed, **keys)
        except ValueError as error:
            raise SpecError(spec, str(error)) from None
    if kind == "ppo":
        from .ppo import PPOAgent

        path, trust = _ppo_target(spec, rest)
        return PPOAgent(path, variant=variant, seed=seed, trust=trust)
    if kind == "python":
        return _python_agent(spec, rest, seed)
    raise SpecError(spec, f"unknown agent kind {kind!r}")


def agent_identity(spec: str) -> str:
    """What the agent `spec` names is, as tournaments key their games and workers their loaded
    agents: a saved model by the hash of its file's bytes, a class of your own by the hash of
    its module's source, a built-in agent by its code version. New content at the same path
    gets a new identity, and so new games. `spec` is one `load_agent` has accepted."""
    kind, _, rest = spec.strip().partition(":")
    kind = kind.strip()
    if kind == "ppo":
        from .ppo import model_identity

        return model_identity(_ppo_target(spec, rest)[0])
    if kind == "python":
        module = _import(spec, rest.rpartition(":")[0].strip())
        source = getattr(module, "__file__", None)
        if source is None or not os.path.isfile(source):
            return f"{module.__name__} {getattr(module, '__version__', 'unversioned')}"
        with open(source, "rb") as file:
            return "sha256:" + hashlib.sha256(file.read()).hexdigest()
    if kind not in BUILT_INS:
        raise SpecError(spec, f"unknown agent kind {kind!r}")
    return f"{kind} v{BUILT_INS[kind].code_version}"
