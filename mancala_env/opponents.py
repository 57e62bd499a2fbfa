"""Built-in opponents for single-agent training: uniformly random, and greedy.

Greedy plays the legal action that wins the most seeds this move (the mover's store gain after
the whole turn, as `step` plays it), ties broken at random. Both work on whole batches of
states in one compiled call, so an opponent never costs a Python loop over games. Random play
inside compiled loops (MCTS rollouts, the engine benchmark) draws its moves one at a time with
`random_legal_action`, from numba's own generator.

Any agent of the suite is an opponent too: the environments take an agent object (anything with
``act(game)``) or an agent spec string (``"alphabeta:depth=2"``, ``"ppo:PATH"``). A spec's kind
(the part before the first colon) names an entry point of the group ``mancala_env.agents``: a
loader ``loader(spec, variant, seed=seed)`` that returns the agent. The distribution declares the
suite's own kinds there (pyproject.toml), all loaded by `mancala_env.agents.load_agent`, so a spec
works with nothing imported but `mancala_env`, whatever was imported before, and another package can
add kinds of its own. `mancala_env` itself imports nothing of `mancala_env.agents` at module level
(the import contract in pyproject.toml): the loader is imported when a spec asks for it.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points
from typing import Any

import numpy as np
from numba import prange

from .engine import layout as L
from .engine.jit import njit
from .engine.layout import STATE_SIZE
from .engine.scratch import copy_into, stack_array
from .engine.turn import count_legal, nth_legal_action, step

OPPONENTS = ("random", "greedy")
AGENT_LOADERS = "mancala_env.agents"  # the entry-point group of the agent specs' kinds


def agent_loaders() -> dict[str, EntryPoint]:
    """The installed loaders of agent specs, by the kind they load (nothing is imported)."""
    return {point.name: point for point in entry_points(group=AGENT_LOADERS)}


def load_opponent(spec: str, variant: str, seed: int | None = None) -> Any:
    """A built-in opponent's name as it is, or the agent that the loader of the spec's kind
    (an entry point of `AGENT_LOADERS`) makes of the agent spec `spec` for rule set `variant`."""
    if spec in OPPONENTS:
        return spec
    loaders = agent_loaders()
    kind = spec.partition(":")[0].strip()
    if kind not in loaders:
        known = ", ".join([*OPPONENTS, *sorted(set(loaders) - set(OPPONENTS))])
        raise ValueError(f"unknown opponent {spec!r}: the known kinds are {known}")
    return loaders[kind].load()(spec, variant, seed=seed)


@njit(cache=True, _nrt=False)
def random_legal_action(state, params):
    """A uniformly random legal action of the player to move in `state` (a game still on), drawn
    from numba's generator: seed it with ``np.random.seed`` inside compiled code."""
    return nth_legal_action(state, params, np.random.randint(count_legal(state, params)))


@njit(cache=True, _nrt=False)
def greedy_action(state, params, noise):
    """The greedy action of the player to move in `state`; `noise` (one number in [0, 1) per
    action) breaks ties."""
    scratch = stack_array(STATE_SIZE)
    mover = state[L.TO_MOVE]
    best = -1
    best_score = -np.inf
    for action in range(params[L.P_N_ACTIONS]):
        if state[L.LEGAL + action] == 0:
            continue
        copy_into(scratch, state)
        step(scratch, action, params)
        score = scratch[L.STORE + mover] - state[L.STORE + mover] + noise[action]
        if score > best_score:
            best, best_score = action, score
    return best


@njit(cache=True, parallel=True)
def greedy_actions(states, params, noise, out):
    """`greedy_action` for every row of `states` (noise: one row per game)."""
    for i in prange(states.shape[0]):
        out[i] = greedy_action(states[i], params, noise[i])


@njit(cache=True, _nrt=False)
def drawn_legal_action(state, params, draw):
    """The ``draw % count``-th of the `count` legal actions in `state` (-1 if it has none)."""
    count = count_legal(state, params)
    return nth_legal_action(state, params, draw % count) if count > 0 else -1


@njit(cache=True, parallel=True)
def random_legal_actions(states, params, draws, out):
    """A uniformly random legal action in every game of a batch: the ``draws[i] % count``-th
    of the legal actions of game i (-1 for a game with none); `draws` are random integers
    below 2**62, so the result depends on them alone, not on how the games are spread over
    threads."""
    for i in prange(states.shape[0]):
        out[i] = drawn_legal_action(states[i], params, draws[i])


DRAW_BOUND = 2**62  # random_legal_actions' draws lie below it (a bias of count / 2**62 at most)


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of a 0/1 mask."""
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def opponent_actions(
    kind: str,
    states: np.ndarray,
    params: np.ndarray,
    masks: np.ndarray,
    rng: np.random.Generator,
    kernels: Any = None,
) -> np.ndarray:
    """The actions of a built-in opponent (`kind` in OPPONENTS) in every game of a batch;
    `kernels`: the rule set's own kernels to play them with (`mancala_env.kernels`), if any."""
    if kind == "random":
        return random_actions(masks, rng)
    if kind == "greedy":
        if states.ndim != 2 or states.shape[1] != L.STATE_SIZE:
            raise ValueError(
                f"the greedy opponent takes a 2-D array of states of {L.STATE_SIZE} slots (a "
                f"Game's, or a batch's rows), got shape {states.shape}"
            )
        out = np.empty(len(states), dtype=np.int64)
        greedy = greedy_actions if kernels is None else kernels.greedy_actions
        greedy(states, params, rng.random(masks.shape), out)
        return out
    raise ValueError(f"unknown opponent {kind!r}; built-in opponents: {', '.join(OPPONENTS)}")
