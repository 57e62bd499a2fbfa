"""The AEC environment's own conventions: registry, observations, rewards, truncation, errors."""

import gymnasium
import numpy as np
import pettingzoo
import pytest

import mancala_env
from mancala_env import IllegalActionError, SnapshotError
from mancala_env.env import raw_env
from mancala_env.variants import VARIANTS


def play_random(env, seed):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return env


def test_every_rule_set_is_registered_and_listed():
    names = [v.name for v in mancala_env.list_variants()]
    assert names == list(VARIANTS)
    assert {"oware", "ouri", "kpo", "tampoduo", "ayoayo", "obridjie", "ayoyayo"} <= set(names)
    for variant in VARIANTS.values():
        env = pettingzoo.make("aec", f"mancala/{variant.name}-v{variant.version}")
        env.reset(seed=1)
        assert env.unwrapped.game.variant is variant
        assert env.unwrapped.metadata["name"] == f"{variant.name}_v{variant.version}"
        newest = pettingzoo.make("aec", f"mancala/{variant.name}")  # no version: the newest
        assert newest.unwrapped.metadata["name"] == f"{variant.name}_v{variant.version}"


@pytest.mark.parametrize("name", ["jerin", "oware"])
def test_a_retired_version_says_what_replaced_it(name):
    """A rule set whose play changed has the next version; the old ids (PettingZoo, Gymnasium,
    the module) raise an error naming the new id and what changed."""
    variant = VARIANTS[name]
    assert variant.version >= 1
    new_id = f"mancala/{name}-v{variant.version}"
    with pytest.raises(mancala_env.RetiredVersionError, match=f"Use {new_id}") as error:
        pettingzoo.make("aec", f"mancala/{name}-v0")
    assert variant.history[0][0] in str(error.value)
    with pytest.raises(mancala_env.RetiredVersionError, match=new_id):
        gymnasium.make(variant.gym_id(0))
    with pytest.raises(mancala_env.RetiredVersionError, match=new_id):
        exec(f"from mancala_env import {name}_v0")


def test_registry_passes_rule_options_through():
    env = pettingzoo.make("aec", "mancala/ayoayo-v1", sow_into_stores=True, feeding="forced")
    assert env.unwrapped.game.options.sow_into_stores is True
    assert env.unwrapped.game.options.feeding == "forced"


def test_versioned_module_import():
    from mancala_env import oware_v1

    env = oware_v1.env()
    env.reset(seed=0)
    assert env.unwrapped.game.variant.name == "oware"
    assert "Oware" in oware_v1.__doc__
    assert "Version History" in oware_v1.__doc__ and "- v1: " in oware_v1.__doc__


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"variant": "warri"}, "known variants: ayoayo"),
        ({"variant": "oware", "grand_slam": "maybe"}, "choose one of 'no_capture', 'capture'"),
        ({"variant": "oware", "colour": "red"}, "known options: first_player"),
        ({"variant": "oware", "stall_limit": -3}, "integer from 1 to 2147483647"),
        ({"variant": "oware", "reward": "elo"}, "choose one of"),
        ({"variant": "oware", "render_mode": "svg"}, "render_mode 'svg'"),
        ({"variant": "oware", "max_moves": 0}, "positive integer"),
    ],
)
def test_bad_arguments_get_a_clear_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        raw_env(**kwargs)


def test_observation_is_seen_from_the_observers_side():
    env = raw_env(variant="oware", first_player="player_0")
    env.reset(seed=0)
    env.step(2)  # player_0 lifts house 3 (pit 2): pits 3..6 get a seed
    own = env.observe("player_1")["observation"]
    assert list(own[:6]) == [5, 4, 4, 4, 4, 4]  # player_1's houses from its own house 1
    assert list(own[6:12]) == [4, 4, 0, 5, 5, 5]  # then player_0's houses
    assert env.observe("player_0")["action_mask"].sum() == 0  # not player_0's turn
    assert env.observe("player_1")["action_mask"].tolist() == [1] * 6


def test_win_loss_rewards_sum_to_plus_and_minus_one():
    for seed in range(5):
        env = raw_env(variant="oware")
        totals = dict.fromkeys(env.possible_agents, 0.0)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            env.step(None if terminated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        winner = env.game.winner()
        if winner is None:
            assert totals == {"player_0": 0.0, "player_1": 0.0}
        else:
            assert totals[f"player_{winner}"] == 1.0 and totals[f"player_{1 - winner}"] == -1.0


def test_score_reward_adds_up_to_the_final_score_difference():
    env = raw_env(variant="ayoayo", reward="score")
    totals = dict.fromkeys(env.possible_agents, 0.0)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        env.step(None if terminated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    s0, s1 = env.game.stores
    assert totals["player_0"] == pytest.approx((s0 - s1) / 48)
    assert totals["player_1"] == pytest.approx((s1 - s0) / 48)


def test_max_moves_truncates():
    env = raw_env(variant="oware", max_moves=10)
    play_random(env, seed=0)
    assert env.game.move_number == 10 and not env.game.over
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert not any(env.truncations.values())


def test_illegal_move_raw_env_raises_and_wrapped_env_penalises():
    env = raw_env(variant="oware", first_player="player_0")
    env.reset(seed=0)
    env.step(0)
    env.step(6 - 6)  # player_1 lifts its house 1
    with pytest.raises(IllegalActionError, match=r"legal actions: \[1, 2, 3, 4, 5\]"):
        env.step(0)  # player_0's house 1 is empty
    wrapped = mancala_env.make("oware", first_player="player_0")
    wrapped.reset(seed=0)
    wrapped.step(0)
    wrapped.step(0)
    wrapped.step(0)
    assert wrapped.terminations["player_0"]
    assert wrapped.rewards["player_0"] == -1


def test_random_first_player_follows_the_seed():
    firsts = set()
    for seed in range(20):
        env = raw_env(variant="oware")
        env.reset(seed=seed)
        again = raw_env(variant="oware")
        again.reset(seed=seed)
        assert env.agent_selection == again.agent_selection
        firsts.add(env.agent_selection)
    assert firsts == {"player_0", "player_1"}


def test_snapshot_restore_through_the_environment():
    env = raw_env(variant="ayoyayo")
    env.reset(seed=0)
    env.step(7)  # odu transfer of house 2 into house 3
    snap = env.snapshot()
    assert snap["special_used"] == [1, 0] and snap["pits"][:3] == [4, 0, 8]
    other = raw_env(variant="ayoyayo")
    other.reset(seed=5)
    other.restore(snap)
    assert other.snapshot() == snap
    assert other.agent_selection == "player_1"
    assert other.observe("player_1")["observation"][-2:].tolist() == [0, 1]


@pytest.mark.parametrize(
    "change, message",
    [
        ({"pits": [4] * 11}, "list of 12 integers"),
        ({"pits": [5] + [4] * 11}, "holds 49 seeds"),
        ({"to_move": 2}, "'to_move' must be one of 0, 1, null, got 2"),
        ({"stores": [-1, 1]}, "'stores' must be an integer from 0 to 48, got -1"),
        ({"variant": "ouri"}, "variant 'ouri'"),
        ({"special_used": [2, 0]}, "'special_used' must be an integer from 0 to 1"),
    ],
)
def test_corrupt_snapshots_are_refused_with_the_reason(change, message):
    game = mancala_env.Game("oware")
    snap = {**game.snapshot(), **change}
    with pytest.raises(SnapshotError, match=message):
        game.restore(snap)


def test_rgb_render_is_an_image():
    env = raw_env(variant="oware", render_mode="rgb_array")
    env.reset(seed=0)
    image = env.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3


def test_the_constructors_show_the_environments_arguments():
    """help() and IDEs see real signatures: the wrapped env, the versioned modules and
    mancala_env.make name raw_env's arguments (rule options stay keywords)."""
    import inspect

    from mancala_env import env as env_module
    from mancala_env import oware_v1

    own = [p for p in inspect.signature(raw_env).parameters if p not in ("variant", "options")]
    assert [p for p in inspect.signature(env_module.env).parameters][1:-1] == own
    for made in (oware_v1.env, oware_v1.raw_env):
        assert list(inspect.signature(made).parameters) == [*own, "options"]
    assert list(inspect.signature(mancala_env.make).parameters) == ["name", *own, "options"]
    defaults = {p.name: p.default for p in inspect.signature(raw_env).parameters.values()}
    for p in inspect.signature(oware_v1.env).parameters.values():
        if p.name != "options":
            assert p.default == defaults[p.name]
