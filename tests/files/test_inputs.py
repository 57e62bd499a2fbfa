"""One rule for the integers a user hands in: actions everywhere, integer options.

Python and numpy integers (and one-element integer arrays) are accepted; bools, floats and
strings are refused with "must be an integer"; values out of range name the allowed range.
"""

from __future__ import annotations

import numpy as np
import pytest

from mancala_env import Game, IllegalActionError, SnapshotError
from mancala_env.batch import BatchedGames
from mancala_env.env import raw_env
from mancala_env.gym_env import SingleAgentEnv

NOT_INTEGERS = [True, False, np.bool_(True), 2.0, "3", None, np.array(2.0), np.array([1, 2])]


@pytest.mark.parametrize("action", NOT_INTEGERS)
def test_game_and_environments_refuse_actions_that_are_not_integers(action):
    env = raw_env(variant="oware", first_player="player_0")
    env.reset(seed=0)
    gym = SingleAgentEnv(variant="oware")
    gym.reset(seed=0)
    for step in (Game("oware", first_player="player_0").step, env.step, gym.step):
        with pytest.raises(IllegalActionError, match=r"an action must be an integer 0\.\.5"):
            step(action)


@pytest.mark.parametrize("action", [-1, 6, 2**40, np.int8(-3)])
def test_out_of_range_actions_name_the_range(action):
    with pytest.raises(IllegalActionError, match=r"out of range; actions are integers 0\.\.5"):
        Game("oware").step(action)
    gym = SingleAgentEnv(variant="oware")
    gym.reset(seed=0)
    with pytest.raises(IllegalActionError, match=r"out of range; actions are integers 0\.\.5"):
        gym.step(action)


@pytest.mark.parametrize("action", [2, np.int64(2), np.uint8(2), np.array(2), np.array([2])])
def test_python_and_numpy_integers_are_actions(action):
    game = Game("oware", first_player="player_0")
    game.step(action)
    assert game.pits.tolist()[:4] == [4, 4, 0, 5]
    gym = SingleAgentEnv(variant="oware")
    gym.reset(seed=0)
    gym.step(action)


def test_the_batch_refuses_actions_that_are_not_integers_and_names_the_range():
    batch = BatchedGames("oware", 2, seed=0)
    batch.reset(seed=0)
    for actions in (np.array([1.0, 2.0]), np.array([True, False]), ["1", "2"]):
        with pytest.raises(IllegalActionError, match="actions must be an integer array"):
            batch.step(actions)
    with pytest.raises(IllegalActionError, match=r"action 99 is out of range.*0\.\.5"):
        batch.step(np.array([0, 99]))


@pytest.mark.parametrize("value", [True, 0, -1, 2.5, "10"])
def test_max_moves_must_be_a_positive_integer(value):
    with pytest.raises(ValueError, match="max_moves must be a positive integer or None"):
        raw_env(variant="oware", max_moves=value)
    with pytest.raises(ValueError, match="max_moves must be a positive integer or None"):
        SingleAgentEnv(variant="oware", max_moves=value)


def test_numpy_integer_options_are_accepted_as_plain_integers():
    game = Game("oware", stall_limit=np.int64(50))
    assert game.options.stall_limit == 50 and type(game.options.stall_limit) is int
    assert raw_env(variant="oware", max_moves=np.int32(9)).max_moves == 9
    assert BatchedGames("oware", np.int64(3)).n_games == 3


@pytest.mark.parametrize(
    "variant, option, value",
    [
        ("oware", "stall_limit", 10**12),
        ("oware", "stall_limit", 2**31),
        ("oware", "stall_limit", True),
        ("oware", "stall_limit", 5.0),
        ("ayoyayo", "max_houses", 2**31),
        ("ncho", "max_rounds", 128),
    ],
)
def test_integer_options_out_of_int32_or_not_integers_are_refused(variant, option, value):
    high = 127 if option == "max_rounds" else 2**31 - 1
    message = rf"option {option}={value!r} must be an integer from \d to {high}"
    with pytest.raises(ValueError, match=message):
        Game(variant, **{option: value})
    with pytest.raises(ValueError, match=message):
        BatchedGames(variant, 2, **{option: value})
    with pytest.raises(SnapshotError, match=message):
        Game.from_snapshot({"variant": variant, "options": {option: value}})


def test_derived_seeds_are_the_numbers_stored_games_were_keyed_with():
    """Tournaments, balance cells and metrics seed their games with these: they never change."""
    from mancala_env.inputs import derived_seed, derived_seeds

    assert derived_seed(7, 3, 17) == 2006016559
    assert derived_seeds(7, (1,), 3) == (3618983171, 941218350, 283231612)
    assert derived_seed(7, 1) == derived_seeds(7, (1,), 3)[0]


def test_integer_takes_numpy_integers_unless_told_not_to():
    from mancala_env.inputs import integer, number

    assert integer(np.int64(3), "n", 1, 5) == 3
    with pytest.raises(ValueError, match=r"^n must be an integer of 1 or more, got "):
        integer(np.int64(3), "n", 1, numpy=False)
    with pytest.raises(ValueError, match=r"^n must be an integer from 1 to 5, got True$"):
        integer(True, "n", 1, 5)
    with pytest.raises(ValueError, match=r"^x must be a number above 0, got 0$"):
        number(0, "x", 0, low_open=True)
