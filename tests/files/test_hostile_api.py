"""Hostile input to the Python API: each bad value gets one error of the suite's own
kind naming the input and what it may be, whatever the wrappers around the rules."""

from __future__ import annotations

import numpy as np
import pytest

import mancala_env
from mancala_env import Game
from mancala_env.batch import BatchedGames
from mancala_env.env import raw_env
from mancala_env.game import IllegalActionError
from mancala_env.gym_env import SingleAgentEnv
from mancala_env.variants import get_variant


@pytest.mark.parametrize("action", [True, False, np.bool_(True), np.array([1, 2]), "1", 1.0])
def test_the_wrapped_environment_refuses_a_non_integer_action_as_the_raw_one_does(action):
    """`make` builds PettingZoo's wrapper stack, whose wrappers index the action mask with the
    action: True used to end in numpy's 'truth value of an array is ambiguous'."""
    wrapped, raw = mancala_env.make("oware"), raw_env(variant="oware")
    for env in (wrapped, raw):
        env.reset(seed=0)
        with pytest.raises(IllegalActionError, match=r"an action must be an integer 0\.\.5"):
            env.step(action)
        assert env.unwrapped.game.move_number == 0


def test_the_wrapped_environment_takes_what_the_raw_one_takes():
    """A numpy integer and a one-element integer array are actions; an action out of range is
    named as such; a legal-looking one the rules forbid still ends the game (-1 for it)."""
    env = mancala_env.make("oware")
    env.reset(seed=0)
    env.step(np.int64(2))
    env.step(np.array([3]))
    assert env.unwrapped.game.move_number == 2
    with pytest.raises(IllegalActionError, match="action 6 is out of range"):
        env.step(6)
    empty = next(a for a in range(6) if not env.unwrapped.game.legal_mask()[a])
    env.step(empty)
    assert all(env.terminations.values())


@pytest.mark.parametrize("seed", [np.int64(3), np.uint32(3), 3])
def test_reset_takes_a_numpy_integer_seed(seed):
    """The integer rule (docs/inputs.md) takes numpy integers: Gymnasium's seeding refused
    np.int64(3) while it took True as 1."""
    games = []
    for make in (lambda: raw_env(variant="oware", first_player="random"),
                 lambda: mancala_env.make("oware", first_player="random")):  # fmt: skip
        env = make()
        env.reset(seed=seed)
        games.append(env.unwrapped.game.snapshot())
    one = SingleAgentEnv("oware", opponent="random")
    assert one.reset(seed=seed)[0] is not None
    twin = raw_env(variant="oware", first_player="random")
    twin.reset(seed=3)
    assert games[0] == games[1] == twin.game.snapshot()


@pytest.mark.parametrize("seed", [True, False, np.bool_(True), -1, 3.0, "3", [3]])
def test_reset_refuses_a_seed_that_is_not_an_integer_of_0_or_more(seed):
    for env in (raw_env(variant="oware"), mancala_env.make("oware"), SingleAgentEnv("oware")):
        with pytest.raises(ValueError, match="seed must be an integer of 0 or more, or None"):
            env.reset(seed=seed)
    if not isinstance(seed, list):  # a batch takes a list of integers, as numpy does
        for batch in (lambda: BatchedGames("oware", 2, seed=seed),
                      lambda: BatchedGames("oware", 2).reset(seed=seed)):  # fmt: skip
            with pytest.raises(ValueError, match="seed must be an integer of 0 or more, a list"):
                batch()


def test_a_batch_takes_the_seeds_numpy_takes():
    for seed in (np.int64(3), [1, 2], np.random.SeedSequence(5), None):
        BatchedGames("oware", 2, seed=seed).reset(seed=seed)


def test_game_options_and_keyword_options_together_name_an_unknown_option():
    """Options given as the rule set's options object and as keywords: an unknown keyword is
    named with the known ones (dataclasses.replace used to raise TypeError)."""
    options = get_variant("oware").options()
    with pytest.raises(ValueError, match=r"unknown option\(s\) bogus for variant 'oware'"):
        Game("oware", options, bogus=1)
    with pytest.raises(ValueError, match="option seeds='x' must be an integer from 1 to 8"):
        Game("oware", options, seeds="x")
    assert Game("oware", options, seeds=2).total_seeds == 24


def test_game_options_as_a_dict_are_option_values():
    """A dict of option values is read as those options (it used to reach the rule set's
    code and fail there with AttributeError: 'dict' object has no attribute 'houses')."""
    game = Game("oware", {"houses": 3})
    assert game.n_pits == 6 and game.options == get_variant("oware").options(houses=3)
    assert Game("oware", {"houses": 3}, seeds=2).total_seeds == 12
    with pytest.raises(ValueError, match=r"unknown option\(s\) bogus for variant 'oware'"):
        Game("oware", {"bogus": 1})


@pytest.mark.parametrize("options", ["houses=3", 3, ["houses"], "ouri"])
def test_game_options_of_another_kind_are_refused_naming_what_they_may_be(options):
    if options == "ouri":
        options = get_variant("ouri").options()
    with pytest.raises(ValueError, match=r"options must be oware's rule options \(OwareOptions"):
        Game("oware", options)


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        ("²", "'²' is not a move."),
        ("9" * 5000, f"There is no house {'9' * 20}...."),
        ("0" * 4000 + "3", f"There is no house {'0' * 20}...."),
        ("12", "There is no house 12."),
    ],
)
def test_a_person_typing_digits_no_house_has_is_told_so(entry, said):
    from mancala_env.agents import HumanAgent

    said_back = []
    typed = iter([entry, "1"])
    person = HumanAgent(input_fn=lambda prompt: next(typed), output_fn=said_back.append)
    game = Game("oware", first_player="player_0")
    assert person.act(game) == 0
    assert len(said_back) == 1 and said_back[0].startswith(said), said_back
    assert len(said_back[0]) < 200
