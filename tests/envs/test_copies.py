"""Every environment pickles and deep-copies in mid-game, and the copy plays on as the original
does (Ray, multiprocessing and checkpointing libraries pickle environments)."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

import mancala_env
from mancala_env.variants import VARIANTS
from mancala_env.vec_env import MancalaVecEnv

BEFORE, AFTER = 4, 12  # steps played before the copy, and then by the original and the copy


def choose(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def play_aec(env: Any, rng: np.random.Generator, steps: int) -> list:
    trace = []
    for _ in range(steps):
        observation, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            break
        env.step(choose(observation["action_mask"], rng))
        trace.append(copy.deepcopy((env.agent_selection, env.last(), env.rewards)))
    return trace


def play_parallel(env: Any, rng: np.random.Generator, steps: int) -> list:
    trace = []
    for _ in range(steps):
        if not env.agents:
            break
        mover = env.aec_env.agent_selection
        mask = env.aec_env.observe(mover)["action_mask"]
        actions = {agent: choose(mask, rng) if agent == mover else 0 for agent in env.agents}
        trace.append(copy.deepcopy(env.step(actions)))
    return trace


def play_gym(env: Any, rng: np.random.Generator, steps: int) -> list:
    trace = []
    for _ in range(steps):
        step = copy.deepcopy(env.step(choose(env.unwrapped.action_masks(), rng)))
        trace.append(step)
        if step[2] or step[3]:
            break
    return trace


def play_vec(env: Any, rng: np.random.Generator, steps: int) -> list:
    trace = []
    for _ in range(steps):
        env.step_async(np.array([choose(mask, rng) for mask in env.action_masks()]))
        trace.append(copy.deepcopy(env.step_wait()))
    return trace


def play_gym_vector(env: Any, rng: np.random.Generator, steps: int) -> list:
    trace = []
    for _ in range(steps):
        *step, info = env.step(np.array([choose(mask, rng) for mask in env.action_masks()]))
        final = [None if o is None else o.copy() for o in info.pop("final_obs", ())]
        trace.append(copy.deepcopy((step, info, final)))
    return trace


# each kind: how to make one of rule set `name` and start it, and how to play it on
KINDS: dict[str, tuple[Callable[[str], Any], Callable[[Any, np.random.Generator, int], list]]] = {
    "aec": (lambda name: mancala_env.make(name), play_aec),
    "parallel": (lambda name: turn_based_aec_to_parallel(mancala_env.make(name)), play_parallel),
    "gymnasium": (
        lambda name: gymnasium.make(VARIANTS[name].gym_id(), opponent="random"),
        play_gym,
    ),
    "vec_env": (lambda name: MancalaVecEnv(name, 3, opponent="random", seed=5), play_vec),
    "gym_vector": (
        lambda name: gymnasium.make_vec(VARIANTS[name].gym_id(), 3, opponent="greedy"),
        play_gym_vector,
    ),
}


def started(kind: str, name: str) -> Any:
    env = KINDS[kind][0](name)
    if kind == "vec_env":
        env.reset()
    else:
        env.reset(seed=3)
    return env


def assert_equal(a: Any, b: Any) -> None:
    """Two traces equal in every value (numpy arrays compared by their contents)."""
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for key in a:
            assert_equal(a[key], b[key])
    elif isinstance(a, (list, tuple)):
        assert type(a) is type(b)
        for x, y in zip(a, b, strict=True):
            assert_equal(x, y)
    elif isinstance(a, np.ndarray):
        np.testing.assert_array_equal(a, b)
    else:
        assert a == b


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", VARIANTS)
def test_a_copy_in_mid_game_plays_on_as_the_original(name, kind):
    play = KINDS[kind][1]
    env = started(kind, name)
    assert play(env, np.random.default_rng(0), BEFORE)  # in mid-game (or a game further on)
    twins = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    expected = play(env, np.random.default_rng(1), AFTER)
    assert expected
    for twin in twins:
        # played after the original: a copy that shared its state would have moved on with it
        assert_equal(play(twin, np.random.default_rng(1), AFTER), expected)


@pytest.mark.parametrize("kind", KINDS)
def test_a_copy_is_not_a_fresh_environment(kind):
    """The copy is in the original's position, not a new game (a fresh game from the same
    seed would play the same moves differently)."""
    play = KINDS[kind][1]
    env = started(kind, "oware")
    play(env, np.random.default_rng(0), BEFORE)
    fresh = started(kind, "oware")
    twin = pickle.loads(pickle.dumps(env))
    with pytest.raises(AssertionError):
        assert_equal(*(play(one, np.random.default_rng(1), AFTER) for one in (fresh, twin)))
