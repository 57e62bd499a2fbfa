"""The stable-baselines3 VecEnv: slots play the games single games play, with the opponent's
moves made inside the batch, and sb3-contrib's MaskablePPO trains on it."""

import subprocess
import sys
import warnings

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.env_checker import _check_box_obs, _check_obs
from stable_baselines3.common.utils import check_for_correct_spaces
from stable_baselines3.common.vec_env import VecCheckNan, VecMonitor
from strategies import NOT_A_COUNT, examples

from mancala_env import Game
from mancala_env.engine import layout as L
from mancala_env.observation import observe
from mancala_env.opponents import random_actions
from mancala_env.variants import VARIANTS
from mancala_env.vec_env import MancalaVecEnv, policy_opponent

OPTIONS = {name: {} for name in VARIANTS}
OPTIONS.update(
    ncho={"match": True, "max_rounds": 3},
    jerin={"match": True, "max_rounds": 3},
    rio_kadalis={"match": True, "max_rounds": 5},
    layli_goobalay={"match": True, "max_rounds": 3},
)


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return (rng.random(masks.shape) * masks).argmax(axis=1)


class RecordingOpponent:
    """Random legal moves; records the games it moved in, what it saw and what it played."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.env: MancalaVecEnv | None = None
        self.log: list = []

    def __call__(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        rows = np.flatnonzero(self.env.games.to_move != self.env.seats)
        actions = random_legal(masks, self.rng)
        self.log.append((rows, observations.copy(), masks.copy(), actions))
        return actions


def check_end(game: Game, seat: int, info: dict, reward: float) -> None:
    """The info and win/loss reward of slot whose game `game` (learner in `seat`) just ended."""
    winner = game.winner()
    assert (info["terminal_observation"] == observe(game.state, seat, game.params)).all()
    assert info["seat"] == seat and info["winner"] == winner
    assert info["end_reason"] == game.snapshot()["end_reason"]
    assert reward == (0.0 if winner is None else (1.0 if winner == seat else -1.0))


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_slots_play_the_games_single_games_play(name):
    """Every slot, learner's and opponent's moves replayed on a single Game: same views, same
    masks, the opponent sees its own side, and ended games report their final position."""
    n_envs, steps = 8, 150
    options = {**OPTIONS[name], "first_player": "player_0"}
    opponent = RecordingOpponent(1)
    env = MancalaVecEnv(name, n_envs, opponent=opponent, seat="random", seed=2, **options)
    opponent.env = env
    obs = env.reset()
    games = [Game(name, **options) for _ in range(n_envs)]
    seats = env.seats.copy()
    rng = np.random.default_rng(3)
    ends = 0

    def replay_opponent(rewards, dones, infos, ended):
        for rows, seen, seen_masks, actions in opponent.log:
            for k, i in enumerate(rows):
                game = games[i]
                assert not game.over and game.to_move == 1 - seats[i]
                assert (seen[k] == observe(game.state, game.to_move, game.params)).all()
                assert (seen_masks[k] == game.legal_mask().astype(bool)).all()
                game.step(int(actions[k]))
                if game.over:
                    check_end(game, seats[i], infos[i], rewards[i])
                    ended.add(i)
                    games[i], seats[i] = Game(name, **options), env.seats[i]
        opponent.log.clear()

    replay_opponent(None, None, None, set())
    for _ in range(steps):
        masks = env.action_masks()
        for i, game in enumerate(games):
            assert game.to_move == seats[i] == env.seats[i]
            assert (obs[i] == observe(game.state, seats[i], game.params)).all()
            assert (masks[i] == game.legal_mask().astype(bool)).all()
        actions = random_legal(masks, rng)
        obs, rewards, dones, infos = env.step(actions)
        ended: set[int] = set()
        for i, game in enumerate(games):
            game.step(int(actions[i]))
            if game.over:
                check_end(game, seats[i], infos[i], rewards[i])
                ended.add(i)
                games[i], seats[i] = Game(name, **options), env.seats[i]
        replay_opponent(rewards, dones, infos, ended)
        assert set(np.flatnonzero(dones).tolist()) == ended
        for i in set(range(n_envs)) - ended:
            assert rewards[i] == 0.0 and infos[i] == {}
        ends += len(ended)
    assert ends > 0, "the test should see games end and start again"


def test_passes_stable_baselines3_checks():
    """SB3's observation checks on every row of reset/step, NaN checks, spaces, masks and
    terminal observations, on a rule set with special moves (twelve actions)."""
    n_envs = 6
    env = MancalaVecEnv("ayoyayo", n_envs, seed=0)
    space = env.observation_space
    check_for_correct_spaces(env, space, env.action_space)
    assert env.action_space.n == 12 and space.dtype == np.int8
    assert (space.high == env.games.observation_high).all() and (space.low == 0).all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _check_box_obs(space)
    wrapped = VecCheckNan(env, raise_exception=True)
    assert is_masking_supported(wrapped)
    obs = wrapped.reset()
    assert obs.shape == (n_envs, *space.shape) and obs.dtype == space.dtype
    for row in obs:
        _check_obs(row, space, "reset")
    ends = 0
    for _ in range(300):
        masks = get_action_masks(wrapped)
        assert masks.shape == (n_envs, 12) and masks.dtype == bool and masks.any(axis=1).all()
        legal = env.games.layout.LEGAL
        assert (masks == (env.games.states[:, legal : legal + 12] == 1)).all()
        actions = np.array([env.action_space.sample(mask=m.astype(np.int8)) for m in masks])
        obs, rewards, dones, infos = wrapped.step(actions)
        assert obs.shape == (n_envs, *space.shape) and obs.dtype == space.dtype
        assert rewards.shape == (n_envs,) and rewards.dtype == np.float32
        assert dones.shape == (n_envs,) and dones.dtype == bool
        assert isinstance(infos, list) and len(infos) == n_envs
        for row in obs:
            _check_obs(row, space, "step")
        for i in np.flatnonzero(dones):
            _check_obs(infos[i]["terminal_observation"], space, "step")
            assert rewards[i] in (-1.0, 0.0, 1.0)
            ends += 1
    assert ends > 0


def test_maskable_ppo_learns_and_predicts_only_legal_moves():
    """MaskablePPO(MlpPolicy) trains for 2048 steps on Oware (8 games) through VecMonitor; its
    weights change, episodes are counted, and its predictions with masks are legal."""
    env = VecMonitor(MancalaVecEnv("oware", 8, seed=0))
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=256, n_epochs=2, seed=0)
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(2048)
    assert model.num_timesteps == 2048
    assert len(model.ep_info_buffer) > 0, "VecMonitor saw episodes end"
    after = list(model.policy.parameters())
    assert any(not torch.equal(b, a) for b, a in zip(before, after, strict=True))
    obs = env.reset()
    rows = np.arange(8)
    for step in range(300):
        masks = get_action_masks(env)
        actions, _ = model.predict(obs, action_masks=masks, deterministic=step % 2 == 0)
        assert masks[rows, actions].all()
        obs, _, _, _ = env.step(actions)


def test_a_frozen_maskable_ppo_plays_the_opponent():
    """A freshly initialised MaskablePPO as the opponent: with the learner second, every
    game's opening move is the frozen policy's choice in the opening position; the learner
    then trains against it."""
    frozen = MaskablePPO("MlpPolicy", MancalaVecEnv("oware", 1, seed=5), seed=5)
    opening = observe(Game("oware").state, 0, Game("oware").params)[None]
    expected, _ = frozen.predict(opening, action_masks=np.ones((1, 6), bool), deterministic=True)
    env = MancalaVecEnv(
        "oware",
        16,
        opponent=policy_opponent(frozen, deterministic=True),
        seat=1,
        first_player="player_0",
        seed=5,
    )
    env.reset()
    at = env.games.layout
    assert (env.games.states[:, at.MOVE_NUMBER] == 1).all()
    assert (env.games.states[:, at.LAST_ACTION] == expected[0]).all()
    env.opponent = policy_opponent(frozen)  # sampled moves from here on
    learner = MaskablePPO("MlpPolicy", VecMonitor(env), n_steps=64, batch_size=128, seed=6)
    learner.learn(1024)
    assert learner.num_timesteps == 1024 and len(learner.ep_info_buffer) > 0


@pytest.mark.parametrize(
    ("seat", "first", "moves_before"),
    [(0, "player_0", 0), (1, "player_0", 1), (1, "player_1", 0), (0, "player_1", 1)],
)
def test_the_opponent_opens_when_the_learner_is_second(seat, first, moves_before):
    """With the learner second, reset returns after the opponent's opening move, seen from
    the learner's side; with it first, the opening position."""
    env = MancalaVecEnv("oware", 32, seat=seat, seed=0, first_player=first)
    obs = env.reset()
    states = np.stack([env.games.position(i) for i in range(32)])  # as a Game's states
    assert (env.seats == seat).all() and (states[:, L.TO_MOVE] == seat).all()
    assert (states[:, L.MOVE_NUMBER] == moves_before).all()
    for i in range(32):
        assert (obs[i] == observe(states[i], seat, env.games.params)).all()
    if moves_before == 0:
        assert (obs[:, :12] == 4).all()
    else:  # the opponent lifted one of its houses
        assert ((obs[:, 6:12] == 0).sum(axis=1) == 1).all()


def test_random_seats_are_drawn_for_each_game():
    """seat='random': both seats occur at reset and again for the games that follow."""
    env = MancalaVecEnv("oware", 64, seed=1)
    env.reset()
    assert set(env.seats.tolist()) == {0, 1}
    seen = set()
    for _ in range(200):
        _, _, dones, infos = env.step(env.games.random_actions())
        seen.update(infos[i]["seat"] for i in np.flatnonzero(dones))
    assert seen == {0, 1}


def test_the_greedy_opponent_beats_random_play():
    """A random learner scores about even against the random opponent and loses clearly to
    the greedy one."""
    means = {}
    for opponent in ("random", "greedy"):
        env = MancalaVecEnv("oware", 64, opponent=opponent, seed=4)
        env.reset()
        rng = np.random.default_rng(4)
        results = []
        while len(results) < 400:
            _, rewards, dones, _ = env.step(random_legal(env.action_masks(), rng))
            results.extend(rewards[dones].tolist())
        means[opponent] = np.mean(results)
    assert abs(means["random"]) < 0.2
    assert means["greedy"] < -0.4


def test_score_rewards_add_up_to_the_final_score_difference():
    """reward='score': each episode's rewards add up to (own store - opponent's) / 48."""
    env = MancalaVecEnv("oware", 16, reward="score", seed=3)
    env.reset()
    rng = np.random.default_rng(3)
    totals = np.zeros(16)
    ends = 0
    moved = False
    for _ in range(300):
        _, rewards, dones, infos = env.step(random_legal(env.action_masks(), rng))
        totals += rewards
        moved |= bool((rewards[~dones] != 0).any())
        for i in np.flatnonzero(dones):
            final = infos[i]["terminal_observation"]
            assert totals[i] == pytest.approx((int(final[12]) - int(final[13])) / 48, abs=1e-6)
            totals[i] = 0.0
            ends += 1
    assert ends > 0 and moved


def test_illegal_moves_and_bad_arguments_are_refused():
    """Illegal learner or opponent moves raise ValueError naming them; nothing is stepped."""

    def house_1(observations, masks):  # never sows as far as the learner's house 1
        return np.zeros(len(observations), dtype=int)

    env = MancalaVecEnv("oware", 4, opponent=house_1, seat=0, first_player="player_0", seed=0)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(4, dtype=int))
    env.reset()
    env.step(np.zeros(4, dtype=int))  # the learner's house 1 is now empty in every game
    before = env.games.states.copy()
    with pytest.raises(ValueError, match=r"the learner played action 0 in game 0.*legal actions"):
        env.step(np.zeros(4, dtype=int))
    with pytest.raises(ValueError, match=r"action 6 in game 0"):
        env.step(np.full(4, 6))
    with pytest.raises(ValueError, match="one per game"):
        env.step(np.ones(3, dtype=int))
    assert (env.games.states == before).all(), "no game was stepped"

    def bad(observations, masks):
        return np.full(len(observations), 99)

    with pytest.raises(ValueError, match="the opponent played action 99"):
        MancalaVecEnv("oware", 4, opponent=bad, seat=1, first_player="player_0").reset()
    short = MancalaVecEnv("oware", 4, opponent=lambda o, m: [0], seat=1, first_player="player_0")
    with pytest.raises(ValueError, match="must return 4 integer actions"):
        short.reset()
    with pytest.raises(ValueError, match="opponent must be one of random, greedy"):
        MancalaVecEnv("oware", 4, opponent=3)
    with pytest.raises(ValueError, match="seat must be"):
        MancalaVecEnv("oware", 4, seat=2)
    with pytest.raises(ValueError, match="reward"):
        MancalaVecEnv("oware", 4, reward="margin")


def test_vec_env_api_attributes_and_seeding():
    """get_attr/set_attr/env_method as stable-baselines3 uses them; a seed replays a run."""
    env = MancalaVecEnv("oware", 4, opponent="greedy", seed=9)
    assert env.get_attr("render_mode") == [None] * 4
    assert env.env_is_wrapped(VecMonitor) == [False] * 4
    env.set_attr("opponent", "random")
    assert env.opponent == "random"
    env.set_attr("opponent", "greedy")
    with pytest.raises(ValueError, match="shared by all the games"):
        env.set_attr("opponent", "random", indices=[0])
    env.reset()
    masks = env.env_method("action_masks", indices=[1, 3])
    assert len(masks) == 2 and (masks[1] == env.action_masks()[3]).all()

    def run(env):
        rng = np.random.default_rng(0)
        seen = [env.reset()]
        for _ in range(60):
            seen.append(env.step(random_legal(env.action_masks(), rng))[0])
        return np.stack(seen)

    first = run(MancalaVecEnv("oware", 4, opponent="greedy", seed=9))
    other = MancalaVecEnv("oware", 4, opponent="greedy")
    other.seed(9)  # as a stable-baselines3 model seeds its environment
    assert (run(other) == first).all()
    other.seed(9)
    assert (run(other) == first).all()
    assert (run(MancalaVecEnv("oware", 4, opponent="greedy", seed=10)) != first).any()


def test_the_package_imports_without_stable_baselines3():
    """mancala_env itself never imports stable-baselines3 (only mancala_env.vec_env does)."""
    code = "import sys, mancala_env, mancala_env.batch; print('stable_baselines3' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


class Tagged:
    """A pool member that plays random legal moves from the engine's states and logs the
    player it moved for."""

    def __init__(self) -> None:
        self.rows: list[np.ndarray] = []
        self.rng = np.random.default_rng(0)

    def act_on_states(self, states, params, masks):
        assert states.shape == (len(masks), L.STATE_SIZE) and params.shape == (L.PARAMS_SIZE,)
        self.rows.append(states[:, L.TO_MOVE].copy())  # the opponent's own player
        return (self.rng.random(masks.shape) * masks).argmax(axis=1)


def test_an_opponent_pool_gives_each_game_one_opponent_until_it_ends():
    """Each game draws a member of the pool when it starts and keeps it to the end; weights
    decide the draws; a member may read the engine's states (act_on_states)."""
    members = [Tagged(), Tagged(), Tagged()]
    env = MancalaVecEnv("oware", 32, opponent=members, seed=3)
    env.opponent_weights = [0.0, 1.0, 3.0]
    env.reset()
    rng = np.random.default_rng(1)
    counts = np.zeros(3)
    for _ in range(300):
        before = env.opponent_of.copy()
        _, _, dones, _ = env.step(random_actions(env.action_masks(), rng))
        assert (env.opponent_of[~dones] == before[~dones]).all()  # kept until the game ends
        counts += np.bincount(env.opponent_of[dones], minlength=3)
    assert counts[0] == 0 and counts[2] > 2 * counts[1] > 0
    assert members[0].rows == [] and members[1].rows and members[2].rows
    with pytest.raises(ValueError, match="opponent_weights must be 3 non-negative numbers"):
        env.opponent_weights = [1.0, -1.0, 0.0]
        env._draw_opponents(1)
    with pytest.raises(ValueError, match="at least one opponent"):
        env.opponent = []


@settings(max_examples=examples(60), deadline=None)
@given(count=NOT_A_COUNT)
def test_a_count_of_games_that_is_no_positive_integer_is_one_line_naming_n_envs(count):
    """The stable-baselines3 environment's count of games is checked by the one integer rule,
    its message naming n_envs (it used to name BatchedGames' n_games instead)."""
    with pytest.raises(ValueError, match=r"^n_envs must be an integer of 1 or more, got "):
        MancalaVecEnv("oware", count)
