"""PettingZoo's own conformance tests on every registered environment."""

import pettingzoo
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import mancala_env
from mancala_env.env import raw_env
from mancala_env.variants import VARIANTS

NAMES = sorted(VARIANTS)


@pytest.mark.parametrize("name", NAMES)
def test_api(name):
    api_test(pettingzoo.make("aec", VARIANTS[name].env_id()), num_cycles=1000)


@pytest.mark.parametrize("name", NAMES)
def test_api_unwrapped(name):
    api_test(getattr(mancala_env, VARIANTS[name].module_name()).raw_env(), num_cycles=300)


@pytest.mark.parametrize("name", NAMES)
def test_seed(name):
    seed_test(getattr(mancala_env, VARIANTS[name].module_name()).env, num_cycles=500)


@pytest.mark.parametrize("name", NAMES)
def test_render(name, monkeypatch):
    # The window is refreshed at the environment's render_fps: 2 frames a second would spend
    # seconds here waiting on the clock, which the test does not look at.
    monkeypatch.setitem(raw_env.metadata, "render_fps", 1000)
    render_test(getattr(mancala_env, VARIANTS[name].module_name()).env)
