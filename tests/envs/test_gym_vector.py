"""`gymnasium.make_vec(..., vectorization_mode="vector_entry_point")`: the batched engine as
Gymnasium's `VectorEnv`, masks in `info`, same-step autoreset, seeding (mancala_env.gym_vector).
Pickling and deep copies are in tests/envs/test_copies.py (kind ``gym_vector``)."""

from __future__ import annotations

import inspect

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.utils.passive_env_checker import check_obs
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import NOT_A_COUNT, examples

import mancala_env  # noqa: F401  (registers the ids)
from mancala_env.game import Game
from mancala_env.gym_vector import MancalaVectorEnv
from mancala_env.observation import observe
from mancala_env.variants import VARIANTS

N = 6


def make(name: str = "oware", n: int = N, **kwargs) -> MancalaVectorEnv:
    env = gymnasium.make_vec(
        VARIANTS[name].gym_id(), num_envs=n, vectorization_mode="vector_entry_point", **kwargs
    )
    assert isinstance(env, MancalaVectorEnv)
    return env


def random_actions(info: dict, rng: np.random.Generator) -> np.ndarray:
    """A random legal action per game; 0 where there is none (a game just ended, next-step)."""
    legal = [np.flatnonzero(mask) for mask in info["action_mask"]]
    return np.array([rng.choice(moves) if len(moves) else 0 for moves in legal])


def games_of(env: MancalaVectorEnv) -> list[Game]:
    """Each slot's game, as a `Game` of the rule set."""
    games = []
    for i in range(env.num_envs):
        game = Game(env.games.variant, env.games.options)
        game.state = env.games.position(i).copy()
        games.append(game)
    return games


def assert_learners_view(
    env: MancalaVectorEnv, observations: np.ndarray, info: dict, skip: np.ndarray | None = None
) -> None:
    """Every game (but those in `skip`) is the learner's to move; mask, observation and seat
    are its view of it."""
    check_obs(observations, env.observation_space, "step")
    assert info["action_mask"].dtype == np.int8
    assert info["_action_mask"].all() and info["_seat"].all()
    np.testing.assert_array_equal(env.action_masks(), info["action_mask"].astype(bool))
    for i, game in enumerate(games_of(env)):
        if skip is not None and skip[i]:
            continue
        assert not game.over
        assert game.to_move == info["seat"][i]
        np.testing.assert_array_equal(info["action_mask"][i], game.legal_mask())
        assert info["action_mask"][i].any()
        expected = observe(game.state, int(info["seat"][i]), game.params)
        np.testing.assert_array_equal(observations[i], expected)


@pytest.mark.parametrize("name", VARIANTS)
def test_make_vec_makes_the_batched_environment_of_every_rule_set(name):
    env_id = VARIANTS[name].gym_id()
    single = gymnasium.make(env_id)
    for mode in ("vector_entry_point", None):  # the vector entry point is also the default
        env = gymnasium.make_vec(env_id, num_envs=N, vectorization_mode=mode)
        assert isinstance(env, MancalaVectorEnv) and isinstance(env, VectorEnv)
        assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
        assert env.num_envs == N
        assert env.single_observation_space == single.observation_space
        assert env.single_action_space == single.action_space
        assert env.observation_space == batch_space(single.observation_space, N)
        assert env.action_space == batch_space(single.action_space, N)
        assert env.spec.id == env_id and env.spec.kwargs["num_envs"] == N
    assert not isinstance(
        gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="sync"), MancalaVectorEnv
    )


@pytest.mark.parametrize("name", VARIANTS)
def test_masks_are_the_legal_moves_and_ended_games_start_anew_in_the_same_step(name):
    env = make(name, opponent="greedy")
    rng = np.random.default_rng(1)
    observations, info = env.reset(seed=2)
    assert_learners_view(env, observations, info)
    ended = 0
    for _ in range(400):
        observations, rewards, terminated, truncated, info = env.step(random_actions(info, rng))
        assert_learners_view(env, observations, info)
        assert not truncated.any()
        assert rewards.dtype == np.float64
        if not terminated.any():
            assert "final_obs" not in info and not rewards.any()
            continue
        ended += int(terminated.sum())
        np.testing.assert_array_equal(info["_final_obs"], terminated)
        np.testing.assert_array_equal(info["_final_info"], terminated)
        final = info["final_info"]
        for i in range(N):
            if not terminated[i]:
                assert info["final_obs"][i] is None and rewards[i] == 0
                continue
            check_obs(info["final_obs"][i], env.single_observation_space, "step")
            assert final["_seat"][i] and final["_winner"][i] and final["_end_reason"][i]
            winner, seat = final["winner"][i], final["seat"][i]
            assert rewards[i] == (0 if winner == -1 else 1 if winner == seat else -1)
            assert isinstance(final["end_reason"][i], str)
        if ended >= N:
            break
    assert ended >= N


def test_the_info_has_the_keys_and_shapes_of_gymnasiums_same_step_sync_env():
    ours = make("oware", 3)
    sync = gymnasium.make_vec(
        "mancala_env/Oware-v1",
        num_envs=3,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP},
    )
    assert sync.metadata["autoreset_mode"] is ours.metadata["autoreset_mode"]
    outputs = []
    for env in (ours, sync):
        observations, info = env.reset(seed=0)
        rng = np.random.default_rng(0)
        while True:
            step = env.step(random_actions(info, rng))
            info = step[-1]
            if step[2].any():
                outputs.append((observations, step))
                break
    (obs_ours, step_ours), (obs_sync, step_sync) = outputs
    assert obs_ours.shape == obs_sync.shape and obs_ours.dtype == obs_sync.dtype
    for a, b in zip(step_ours[:4], step_sync[:4], strict=True):
        assert a.shape == b.shape and a.dtype == b.dtype
    info_ours, info_sync = step_ours[-1], step_sync[-1]
    for key in ("action_mask", "_action_mask", "seat", "_seat", "final_obs", "_final_obs"):
        assert info_ours[key].shape == info_sync[key].shape, key
        assert info_ours[key].dtype == info_sync[key].dtype, key
    assert set(info_ours["final_info"]) <= set(info_sync["final_info"])


def test_next_step_autoreset_shows_the_end_then_the_new_game():
    env = make("ayoayo", N, opponent="greedy", autoreset_mode="NextStep")
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    rng = np.random.default_rng(4)
    observations, info = env.reset(seed=4)
    pending = np.zeros(N, dtype=bool)
    ended = 0
    while ended < N:
        actions = random_actions(info, rng)
        actions[pending] = 99  # not looked at: the slot shows its new game
        observations, rewards, terminated, truncated, info = env.step(actions)
        assert not (terminated & pending).any() and not rewards[pending].any()
        assert_learners_view(env, observations, info, skip=terminated)
        assert "final_obs" not in info
        for i in np.flatnonzero(terminated):
            check_obs(observations[i], env.single_observation_space, "step")
            assert not info["action_mask"][i].any()
            assert info["_winner"][i] and info["_end_reason"][i]
            winner, seat = info["winner"][i], info["seat"][i]
            assert rewards[i] == (0 if winner == -1 else 1 if winner == seat else -1)
        assert not (info.get("_winner", terminated) & ~terminated).any()
        pending = terminated
        ended += int(terminated.sum())
    with pytest.raises(ValueError, match="autoreset_mode"):
        make("oware", 2, autoreset_mode="Disabled")


# Gymnasium 1.2's RecordEpisodeStatistics reads the mode but counts every env as next-step
SAME_STEP_COUNTED = "SAME_STEP" in inspect.getsource(RecordEpisodeStatistics.step)


@pytest.mark.parametrize(
    "mode", [AutoresetMode.NEXT_STEP] + [AutoresetMode.SAME_STEP] * SAME_STEP_COUNTED
)
def test_gymnasiums_episode_statistics_count_the_games(mode):
    env = RecordEpisodeStatistics(make("oware", 4, opponent="random", autoreset_mode=mode))
    pending = np.zeros(4, dtype=bool)
    rng = np.random.default_rng(3)
    _, info = env.reset(seed=3)
    lengths, returns, games = np.zeros(4, dtype=int), np.zeros(4), []
    while len(games) < 6:
        _, rewards, terminated, _, info = env.step(random_actions(info, rng))
        lengths += ~pending  # a next-step reset is no step of a game
        returns += rewards
        pending = terminated if mode is AutoresetMode.NEXT_STEP else pending
        for i in np.flatnonzero(terminated):
            assert info["_episode"][i]
            assert info["episode"]["l"][i] == lengths[i] and info["episode"]["r"][i] == returns[i]
            games.append(returns[i])
            lengths[i], returns[i] = 0, 0
    assert len(env.return_queue) == len(games)
    listed = DictInfoToList(make("oware", 2))
    _, infos = listed.reset(seed=0)
    assert len(infos) == 2 and infos[0]["action_mask"].shape == (6,)


def play(env: MancalaVectorEnv, seed: int | list[int], steps: int = 40) -> list:
    rng = np.random.default_rng(7)
    trace = [env.reset(seed=seed)]
    for _ in range(steps):
        trace.append(env.step(random_actions(trace[-1][-1], rng)))
    return trace


@pytest.mark.parametrize(
    "opponent", ["random", ["greedy", "mcts:simulations=4"]], ids=["random", "pool-with-an-agent"]
)
def test_a_seeded_reset_replays_the_same_games(opponent):
    env = make("oware", 5, opponent=opponent)
    first = play(env, seed=11)
    assert data_equivalence(play(env, seed=11), first, exact=True)
    assert data_equivalence(play(make("oware", 5, opponent=opponent), 11), first, exact=True)
    assert not data_equivalence(play(env, seed=12), first)
    assert data_equivalence(play(env, seed=[1, 2]), play(env, seed=[1, 2]), exact=True)


def test_options_and_errors():
    env = make("oware", 2, seat=1, opponent="greedy", observation="common", reward="score")
    observations, info = env.reset(seed=0)
    assert (info["seat"] == 1).all()
    assert observations.dtype == np.float32 and observations.shape == env.observation_space.shape
    _, rewards, *_ = env.step(random_actions(info, np.random.default_rng(0)))
    assert rewards.dtype == np.float64
    legal = info["action_mask"][0]
    illegal = int(np.flatnonzero(legal == 0)[0]) if (legal == 0).any() else 99
    with pytest.raises(ValueError, match="not legal"):
        env.step(np.array([illegal, illegal]))
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=-1)
    with pytest.raises(ValueError, match="num_envs"):
        MancalaVectorEnv(0)
    with pytest.raises(ValueError, match="render_mode"):
        make("oware", 2, render_mode="rgb_array")
    with pytest.raises(RuntimeError, match="reset"):
        make("oware", 2).step(np.zeros(2, dtype=np.int64))


# what is no count of games: none, a negative one, a bool, a float, a text, a list
@settings(max_examples=examples(60), deadline=None)
@given(count=NOT_A_COUNT, mode=st.sampled_from([None, "vector_entry_point"]))
def test_a_count_of_games_that_is_no_positive_integer_is_one_line_naming_it(count, mode):
    """Every count the vector environment is asked for is checked by the one integer rule, its
    message naming the argument and the integers allowed (the stable-baselines3 environment's
    check is in tests/envs/test_vec_env.py). Gymnasium's own "sync" and "async" modes make
    their environments without the suite: num_envs=0 fails in Gymnasium."""
    with pytest.raises(ValueError, match=r"^num_envs must be an integer of 1 or more, got "):
        gymnasium.make_vec(VARIANTS["oware"].gym_id(), num_envs=count, vectorization_mode=mode)
