"""The single-agent Gymnasium environments: API checks, registry, seats, masks, seeding, rewards."""

import re

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env, data_equivalence

import mancala_env  # noqa: F401 - registers the mancala_env/* environments
from mancala_env import IllegalActionError
from mancala_env.gym_env import SingleAgentEnv, gym_id
from mancala_env.observation import observe
from mancala_env.variants import VARIANTS

TITLES = {
    "oware": "Oware",
    "ouri": "Ouri",
    "kpo": "Kpo",
    "tampoduo": "Tampoduo",
    "ayoayo": "Ayoayo",
    "obridjie": "Obridjie",
    "ayoyayo": "Ayoyayo",
    "ncho": "Ncho",
    "jerin": "Jerin",
    "rio_kadalis": "RioKadalis",
    "layli_goobalay": "LayliGoobalay",
    "mangala": "Mangala",
    "mighty_men": "MightyMen",
    "mighty_men_calm": "MightyMenCalm",
}


def play(env, seed, policy_seed=None):
    """A whole episode with uniformly random legal actions; the list of step results."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed if policy_seed is None else policy_seed)
    results = [(obs, info)]
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        results.append((action, obs, reward, terminated, truncated, info))
        if terminated or truncated:
            return results


def agent_score(env):
    stores = env.game.stores
    return int(stores[env.seat]) - int(stores[1 - env.seat])


@pytest.mark.filterwarnings("ignore:.*is different from the unwrapped version")
@pytest.mark.parametrize(
    "kwargs",
    [{}, {"opponent": "greedy", "seat": "random", "reward": "score", "max_moves": 200}],
    ids=["defaults", "greedy-random-seat-score"],
)
@pytest.mark.parametrize("name", list(VARIANTS))
def test_check_env_passes(name, kwargs):
    check_env(gymnasium.make(gym_id(name), **kwargs).unwrapped)


def test_every_rule_set_is_registered_under_its_camel_case_title():
    assert sorted(TITLES) == sorted(VARIANTS)
    for name, title in TITLES.items():
        version = VARIANTS[name].version
        assert gym_id(name) == f"mancala_env/{title}-v{version}"
        spec = gymnasium.spec(f"mancala_env/{title}-v{version}")
        assert spec.entry_point == "mancala_env.gym_env:SingleAgentEnv"
        assert spec.kwargs == {"variant": name}
        env = gymnasium.make(f"mancala_env/{title}-v{version}", opponent="random")
        obs, info = env.reset(seed=3)
        assert env.unwrapped.game.variant.name == name
        assert env.observation_space.contains(obs)
        assert env.action_space.n == env.unwrapped.game.n_actions
        env.close()


def test_make_passes_environment_and_rule_options_through():
    env = gymnasium.make(
        "mancala_env/Ayoayo-v1", opponent="greedy", seat=1, sow_into_stores=True, max_moves=7
    )
    inner = env.unwrapped
    assert (inner.opponent, inner.seat, inner.max_moves) == ("greedy", 1, 7)
    assert inner.game.options.sow_into_stores is True


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"opponent": 3}, "an opponent must be .random., .greedy., an agent spec"),
        ({"seat": 2}, "seat must be 0, 1 or 'random'"),
        ({"seat": True}, "seat must be 0, 1 or 'random'"),
        ({"reward": "elo"}, "choose one of"),
        ({"max_moves": 0}, "positive integer"),
        ({"render_mode": "window"}, "render_mode 'window'"),
        ({"variant": "warri"}, "known variants: ayoayo"),
        ({"colour": "red"}, "known options: first_player"),
    ],
)
def test_bad_arguments_get_a_clear_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        SingleAgentEnv(**{"variant": "oware", **kwargs})


@pytest.mark.parametrize("name", list(VARIANTS))
def test_action_masks_are_the_agents_legal_actions(name):
    env = SingleAgentEnv(name, opponent="greedy", seat="random")
    rng = np.random.default_rng(0)
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            game = env.game
            assert game.to_move == env.seat and not game.over  # the opponent played its turn
            assert env.action_masks().dtype == bool
            assert np.flatnonzero(env.action_masks()).tolist() == game.legal_actions()
            assert info["action_mask"].dtype == np.int8
            assert info["action_mask"].tolist() == game.legal_mask().tolist()
            assert env.observation_space.contains(obs)
            assert obs.tolist() == observe(game.state, env.seat, game.params).tolist()
            action = int(rng.choice(game.legal_actions()))
            obs, reward, terminated, truncated, info = env.step(action)
        assert env.game.over
        assert not env.action_masks().any()
        assert not info["action_mask"].any()
        assert env.observation_space.contains(obs)


def test_an_illegal_action_loses_or_raises_and_names_the_legal_ones():
    """Oware: the agent empties its house 6 (pit 5); the opponent's reply of at most five
    seeds from its own row cannot reach it, so lifting it again is illegal. By default the
    episode ends with -1 (PettingZoo's convention); with illegal="raise" it raises."""
    env = SingleAgentEnv("oware", seat=0, first_player="player_0", illegal="raise")
    env.reset(seed=0)
    env.step(5)
    legal = env.game.legal_actions()
    assert env.game.pits[5] == 0 and 5 not in legal
    before = env.game.state.copy()
    with pytest.raises(
        ValueError, match=rf"action 5 is not legal .* legal actions: {re.escape(str(legal))}"
    ):
        env.step(5)
    with pytest.raises(IllegalActionError, match=r"out of range; actions are integers 0\.\.5"):
        env.step(6)
    with pytest.raises(IllegalActionError, match="an action must be an integer"):
        env.step("3")
    assert (env.game.state == before).all()  # nothing was played

    env = SingleAgentEnv("oware", seat=0, first_player="player_0")
    env.reset(seed=0)
    env.step(5)
    before = env.game.state.copy()
    _, reward, terminated, truncated, info = env.step(5)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert "legal actions" in info["illegal_action"]
    assert (env.game.state == before).all()
    with pytest.raises(ValueError, match="call reset"):
        env.step(0)
    with pytest.raises(ValueError, match="illegal='skip' is not supported"):
        SingleAgentEnv("oware", illegal="skip")


def test_numpy_actions_are_accepted():
    env = SingleAgentEnv("oware", seat=0, first_player="player_0")
    env.reset(seed=0)
    env.step(np.int64(0))
    env.step(np.array(np.flatnonzero(env.action_masks())[0]))
    assert env.game.move_number == 4


def test_stepping_after_the_end_raises():
    env = SingleAgentEnv("tampoduo")
    play(env, 0)
    with pytest.raises(ValueError, match="call reset"):
        env.step(0)


@pytest.mark.parametrize("seat, first_player", [(1, "player_0"), (0, "player_1")])
def test_the_opponent_moves_first_when_the_agent_is_second(seat, first_player):
    """Oware: the opponent lifts one house of four seeds and sows them one by one into the
    next four pits; the agent's observation after reset shows that move."""
    env = SingleAgentEnv("oware", seat=seat, first_player=first_player)
    obs, info = env.reset(seed=5)
    game = env.game
    assert (game.move_number, game.to_move, info["seat"]) == (1, seat, seat)
    lifted = 6 * (1 - seat) + game.snapshot()["last_action"]  # the opponent's house
    expected = [4] * 12
    expected[lifted] = 0
    for k in range(1, 5):
        expected[(lifted + k) % 12] += 1
    assert game.snapshot()["pits"] == expected
    own_first = expected[6 * seat :] + expected[: 6 * seat]  # the agent's row first
    assert obs[:12].tolist() == own_first
    assert obs[6:12].tolist().count(0) == 1  # the opponent's lifted house, seen by the agent
    assert obs[12:14].tolist() == [0, 0]


def test_the_agent_moves_first_from_its_own_seat():
    env = SingleAgentEnv("oware", seat=1, first_player="player_1")
    obs, info = env.reset(seed=5)
    assert env.game.move_number == 0
    assert obs[:12].tolist() == [4] * 12
    assert info["action_mask"].tolist() == [1] * 6


def test_consecutive_moves_of_one_player():
    """Mangala: the player who sets out the seeds fills the central holes in several moves in a
    row; the agent makes them one step at a time, the opponent all before the agent moves."""
    env = SingleAgentEnv("mangala", seat=0, first_player="player_0")
    obs, info = env.reset(seed=1)
    assert env.game.snapshot()["phase"] == "set_out"
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert (env.game.move_number, env.game.to_move) == (1, 0)  # the agent moves again
    env = SingleAgentEnv("mangala", seat=1, first_player="player_0")
    env.reset(seed=1)
    assert env.game.to_move == 1
    assert env.game.move_number >= 2  # the opponent made several moves


def test_the_greedy_opponent_replies_with_a_move_that_wins_the_most_seeds():
    """Oware has no extra turns: after each agent move the opponent makes exactly one, and the
    greedy opponent's gain equals the best gain among its legal replies."""
    env = SingleAgentEnv("oware", opponent="greedy", first_player="player_0")
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    gains = []
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        after_agent = env.game.copy()
        after_agent.step(action)
        obs, reward, terminated, truncated, info = env.step(action)
        if after_agent.over:
            break
        best = 0
        for reply in after_agent.legal_actions():
            trial = after_agent.copy()
            trial.step(reply)
            best = max(best, int(trial.stores[1] - after_agent.stores[1]))
        gains.append(best)
        assert env.game.move_number == after_agent.move_number + 1
        assert int(env.game.stores[1] - after_agent.stores[1]) == best
        if terminated:
            break
    assert max(gains) > 0  # the opponent had captures on offer


def test_random_seat_is_drawn_at_each_reset_from_the_seed():
    env = SingleAgentEnv("oware", seat="random", first_player="player_0")
    seats = []
    for seed in range(40):
        obs, info = env.reset(seed=seed)
        seats.append(info["seat"])
        assert env.game.move_number == info["seat"]  # the opponent opened if the agent is 1
        assert obs.tolist() == observe(env.game.state, info["seat"], env.game.params).tolist()
    assert set(seats) == {0, 1}
    again = [env.reset(seed=seed)[1]["seat"] for seed in range(40)]
    assert again == seats


@pytest.mark.parametrize("name", ["oware", "ayoyayo", "mangala"])
def test_seeded_resets_replay_the_same_game(name):
    """Seat, first player, setting out and the greedy opponent's tie breaks come from the seed."""
    kwargs = {"opponent": "greedy", "seat": "random", "first_player": "random"}
    first = tuple(play(SingleAgentEnv(name, **kwargs), 11, policy_seed=0))
    env = SingleAgentEnv(name, **kwargs)
    play(env, 99, policy_seed=0)  # an earlier game does not change a seeded one
    assert data_equivalence(tuple(play(env, 11, policy_seed=0)), first, exact=True)
    others = [tuple(play(env, seed, policy_seed=0)) for seed in range(12, 16)]
    assert not all(data_equivalence(other, first) for other in others)


@pytest.mark.parametrize("opponent", ["random", "greedy"])
@pytest.mark.parametrize("name", list(VARIANTS))
def test_win_loss_reward_is_the_sign_of_the_final_score(name, opponent):
    env = SingleAgentEnv(name, opponent=opponent, seat="random")
    for seed in range(4):
        results = play(env, seed)
        *middle, last = results[1:]
        assert all(step[2] == 0.0 for step in middle)
        reward, terminated, truncated = last[2:5]
        assert terminated and not truncated
        assert reward in (-1.0, 0.0, 1.0)
        assert reward == np.sign(agent_score(env))
        winner = env.game.winner()
        assert reward == (0.0 if winner is None else 1.0 if winner == env.seat else -1.0)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_score_rewards_add_up_to_the_final_score_difference(name):
    env = SingleAgentEnv(name, opponent="greedy", seat="random", reward="score")
    for seed in range(4):
        results = play(env, seed)
        total = sum(step[2] for step in results[1:])
        assert results[-1][3]
        assert total == pytest.approx(agent_score(env) / env.game.total_seeds)
        assert any(step[2] != 0 for step in results[1:])


@pytest.mark.parametrize("max_moves, last_mover", [(9, 0), (8, 1)])
def test_max_moves_truncates(max_moves, last_mover):
    """Oware, agent second: the opponent opens (ply 1), then the agent plays the even plies.
    The episode is truncated at the step in which the game reaches `max_moves` plies, and the
    opponent does not move past it."""
    env = SingleAgentEnv("oware", max_moves=max_moves, seat=1, first_player="player_0")
    results = play(env, 0)
    *middle, last = results[1:]
    assert not any(step[3] or step[4] for step in middle)
    assert last[4] and not last[3]  # truncated, not terminated
    assert last[2] == 0.0
    assert len(middle) + 1 == 4  # four steps of the agent
    assert env.game.move_number == max_moves and not env.game.over
    assert env.game.to_move == 1 - last_mover  # the player after the last one to move
    assert not last[5]["action_mask"].any() and not env.action_masks().any()
    with pytest.raises(ValueError, match="call reset"):
        env.step(int(np.flatnonzero(env.game.legal_mask())[0]))


def test_render_modes():
    env = SingleAgentEnv("oware", render_mode="ansi")
    env.reset(seed=0)
    assert "player_" in env.render()
    env = SingleAgentEnv("oware", render_mode="rgb_array")
    env.reset(seed=0)
    image = env.render()
    assert image.ndim == 3 and image.shape[2] == 3 and image.dtype == np.uint8
