"""observation="common": one encoding, the same length and [0, 1] for every rule set."""

import gymnasium
import numpy as np
import pytest

import mancala_env  # noqa: F401 - registers the environments
from mancala_env.common_observation import COMMON_SIZE, CommonEncoder, common_names
from mancala_env.env import raw_env
from mancala_env.game import Game
from mancala_env.observation import observe
from mancala_env.variants import VARIANTS


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_rule_set_has_the_same_length_and_values_in_0_1(name):
    env = raw_env(variant=name, observation="common")
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for agent in env.agent_iter(max_iter=60):
        observation, _, termination, truncation, _ = env.last()
        seen = observation["observation"]
        assert seen.shape == (COMMON_SIZE,) and seen.dtype == np.float32
        assert env.observation_space(agent)["observation"].contains(seen)
        assert seen[common_names().index(f"variant={name}")] == 1.0
        mask = observation["action_mask"]
        env.step(None if termination or truncation else int(rng.choice(np.flatnonzero(mask))))
    assert env.observation_names == common_names()


def test_counts_are_scaled_and_categories_one_hot():
    names = common_names()
    game = Game("oware")
    seen = CommonEncoder(game.params, "oware").encode(observe(game.state, 0, game.params))
    assert seen[names.index("own_house_1")] == pytest.approx(4 / 48)
    assert seen[names.index("variant=oware")] == 1.0 and seen.sum() == pytest.approx(2.0)
    layli = Game("layli_goobalay")
    snap = layli.snapshot()
    snap.update(uur=[None] * 3 + [1] + [None] * 4 + [1] + [None] * 3)  # pits 3 and 8: player_1
    layli.restore(snap)
    seen = CommonEncoder(layli.params, "layli_goobalay").encode(
        observe(layli.state, 0, layli.params)
    )
    assert seen[names.index("own_house_4_uur=2")] == 1.0  # held for the opponent
    assert seen[names.index("own_house_4_uur=0")] == 0.0
    men = Game("mighty_men", setting_out="fixed")
    seen = CommonEncoder(men.params, "mighty_men").encode(observe(men.state, 0, men.params))
    kinds = [k for k in range(11) if seen[names.index(f"piece_0_kind={k}")] == 1.0]
    assert kinds == [int(men.params[mancala_env.engine.layout.P_PIECE_KIND])]


def test_a_batch_encodes_row_by_row():
    game = Game("mangala")
    encoder = CommonEncoder(game.params, "mangala")
    raw = observe(game.state, 0, game.params)
    rows = encoder.encode(np.stack([raw, raw]))
    assert rows.shape == (2, COMMON_SIZE) and (rows[0] == encoder.encode(raw)).all()


def test_the_gymnasium_env_and_the_vec_env_take_the_option():
    env = gymnasium.make("mancala_env/Ayoayo-v1", observation="common")
    observation, _ = env.reset(seed=0)
    assert observation.shape == (COMMON_SIZE,) and env.observation_space.contains(observation)
    from mancala_env.vec_env import MancalaVecEnv

    vec = MancalaVecEnv("ncho", 4, observation="common", seed=0)
    observations = vec.reset()
    assert observations.shape == (4, COMMON_SIZE)
    assert all(vec.observation_space.contains(row) for row in observations)


def test_an_unknown_encoding_is_refused():
    with pytest.raises(ValueError, match=r"observation='onehot' is not supported; choose one of"):
        raw_env(variant="oware", observation="onehot")
