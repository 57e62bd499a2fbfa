"""The examples in docs/examples/ run: a few hundred steps each, with the library they show
(the `examples` extra); without it, the test is skipped."""

import importlib.util
import math
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).parents[2] / "docs" / "examples"


pytestmark = pytest.mark.integration  # a few hundred steps of another library's training


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_tianshou_dqn_trains_against_the_random_player():
    pytest.importorskip("tianshou")
    result = load("tianshou_dqn").train("oware", steps=300, seed=0)
    assert 300 <= result["env_steps"] < 400
    assert -1 <= result["test_reward"] <= 1


def test_torchrl_selfplay_learns_from_finished_games():
    pytest.importorskip("torchrl")
    result = load("torchrl_selfplay").train("ayoayo", steps=400, seed=0)
    assert result["moves"] == 400
    assert result["games"] >= 1 and math.isfinite(result["loss"])
