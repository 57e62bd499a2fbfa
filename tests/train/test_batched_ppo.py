"""Batched PPO (``mancala train --algo batched-ppo``): a tiny run end to end, a resumed run that
goes on as the unbroken one did, settings refused before anything is written, the masked
categorical's draws, the advantages against a hand computation, and the policy files that
``az:PATH`` (the network) and ``ppo:PATH`` (the MaskablePPO network) play."""

from __future__ import annotations

import json
import shlex
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch

from mancala_env import Game
from mancala_env.agents import load_agent
from mancala_env.agents.network import encode, read_network
from mancala_env.agents.ppo import load_maskable_ppo
from mancala_env.cli import main
from mancala_env.observation import observe
from mancala_env.train.batched_ppo import run as batched_run
from mancala_env.train.batched_ppo.config import (
    BatchedPPOConfig,
    BatchedSettings,
    load_batched_config,
)
from mancala_env.train.batched_ppo.loss import advantages, ppo_loss
from mancala_env.train.batched_ppo.policy import (
    ActorCritic,
    NetworkPolicy,
    SnapshotOpponent,
    load_policy,
    masked_actions,
)
from mancala_env.train.batched_ppo.rollout import Rollout, RolloutBatch
from mancala_env.train.batched_ppo.run import train_batched_ppo
from mancala_env.train.batched_ppo.update import new_optimizer, update
from mancala_env.train.config import PPOSettings, TrainConfig


def play_out(spec: str, variant: str) -> Game:
    """A whole game of the agent `spec` against random play, every move checked legal."""
    game = Game(variant)
    players = [load_agent(spec, variant, seed=1), load_agent("random", variant, seed=2)]
    while not game.over:
        action = players[game.to_move].act(game)
        assert action in game.legal_actions()
        game.step(action)
    return game


TINY_TOML = """
timesteps = 512
n_envs = 8
opponents = ["random", "greedy", "alphabeta:depth=1", "self"]
snapshot_every = 128
pool_size = 2
eval_every = 256
eval_games = 2
eval_opponents = ["random", "greedy"]
checkpoint_every = 256
[ppo]
n_steps = 16
batch_size = 48
n_epochs = 2
net_arch = [16]
[batched]
threads = 1
"""
TINY = BatchedPPOConfig(
    TrainConfig(
        timesteps=512,
        n_envs=8,
        opponents=["random", "greedy", "alphabeta:depth=1", "self"],
        snapshot_every=128,
        pool_size=2,
        eval_every=256,
        eval_games=2,
        eval_opponents=["random", "greedy"],
        checkpoint_every=256,
        ppo=PPOSettings(n_steps=16, batch_size=48, n_epochs=2, net_arch=[16]),
    ),
    BatchedSettings(threads=1),
)


def weights(checkpoint: Path) -> dict[str, torch.Tensor]:
    return torch.load(checkpoint.with_suffix(".pt"), weights_only=True)["policy"]


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory) -> Path:
    """The tiny run, through the command line, in a folder of its own (``run``)."""
    folder = tmp_path_factory.mktemp("batched")
    (folder / "tiny.toml").write_text(TINY_TOML)
    config, out = str(folder / "tiny.toml"), str(folder / "run")
    status = main(["train", "oware", "--algo", "batched-ppo", "--config", config, "--out", out,
                   "--no-progress"])  # fmt: skip
    assert status == 0
    return folder


def test_the_config_file_reads_as_the_settings_and_defaults_to_the_recipe(finished_run):
    assert load_batched_config("oware", finished_run / "tiny.toml") == TINY
    recipe = load_batched_config("ncho")  # train/configs/batched_ppo/default.toml
    assert recipe.batched.policy == "network" and recipe.run.n_envs == 128
    assert recipe.run.eval_opponents[-1] == "alphabeta:depth=4"
    assert load_batched_config("oware") == load_batched_config("mighty_men") == recipe


def test_a_tiny_run_saves_models_that_play_and_says_where_its_time_went(finished_run, capsys):
    run = finished_run / "run"
    summary = json.loads((run / "run.json").read_text())
    assert summary["timesteps"] == 512 and summary["interrupted"] is False
    assert set(summary["seconds_in"]) == {"engine", "forward", "update", "evaluations"}
    assert sum(summary["games"].values()) > 0
    for model in ("final_model.npz", "best_model.npz", "checkpoints/step_512.npz"):
        assert play_out(f"az:{run / model}", "oware").over
    assert sorted(p.name for p in (run / "pool").iterdir())[:1] == ["step_0.npz"]
    state = json.loads((run / "checkpoints" / "step_512.json").read_text())
    assert len(state["pool"]["snapshots"]) == 2 and state["config"]["batched"]["threads"] == 1
    evaluations = [json.loads(line) for line in (run / "evaluations.jsonl").open()]
    assert [e["timesteps"] for e in evaluations] == [256, 512]
    assert 0 < evaluations[0]["seconds"] <= evaluations[1]["seconds"]  # a curve against time
    assert state["seconds"] >= evaluations[1]["seconds"] - 1
    for score, low, high in evaluations[-1]["scores"].values():
        assert 0 <= low <= score <= high <= 1
    status = main(["play", "oware", "--agent", f"az:{run / 'final_model.npz'}",
                   "--opponent", "random", "--seed", "3", "--no-color"])  # fmt: skip
    assert status == 0 and "result:" in capsys.readouterr().out
    assert not list(run.rglob("*.zip"))  # the network's files only


def test_a_score_reward_pays_each_moves_seed_difference_and_counts_games_by_their_winners():
    batch = RolloutBatch("oware", 8, seed=0, reward="score")
    batch.opponent = "greedy"
    batch.restart(1)
    torch.manual_seed(0)
    rollout = batch.collect(ActorCritic(16, 6, [16]), 64, torch.device("cpu"))
    paid = rollout.rewards * 48  # Oware's 48 seeds: each reward a whole number of seeds over 48
    assert torch.equal(paid, paid.round()) and (rollout.rewards.abs() <= 1).all()
    assert (rollout.rewards[~rollout.dones] != 0).any()  # captures paid before the games end
    games = batch.timings.games
    assert sum(games.values()) == int(rollout.dones.sum()) > 0
    assert min(games.values()) >= 0


def test_a_tiny_run_of_the_mlp_policy_with_a_score_reward_saves_models_ppo_plays(tmp_path):
    config = replace(TINY, batched=BatchedSettings(threads=1, reward="score", policy="mlp"))
    result = train_batched_ppo("oware", config, tmp_path / "run", progress=False)
    summary = json.loads((tmp_path / "run" / "run.json").read_text())
    assert summary["config"]["batched"]["reward"] == "score" and result.timesteps == 512
    assert result.final_model.name == "final_model.zip" and result.agent == "ppo"
    assert (tmp_path / "run" / "checkpoints" / "step_512.zip").exists()
    assert min(summary["games"].values()) >= 0 and sum(summary["games"].values()) > 0
    for score, low, high in result.evaluations[-1].scores.values():
        assert 0 <= low <= score <= high <= 1
    assert play_out(f"ppo:{tmp_path / 'run' / 'best_model.zip'}", "oware").over


def test_a_resumed_run_ends_with_the_weights_of_the_run_that_went_on(finished_run, tmp_path):
    """Stopped at its checkpoint of step 256 and resumed, the run makes the same games, the
    same snapshots and the same updates as the run that was not stopped."""
    out = tmp_path / "run"
    half = replace(TINY, run=replace(TINY.run, timesteps=256))
    train_batched_ppo("oware", half, out, progress=False)
    checkpoint = out / "checkpoints" / "step_256.npz"
    assert all(torch.equal(a, b) for a, b in zip(weights(checkpoint).values(), weights(
        finished_run / "run" / "checkpoints" / "step_256.npz").values(), strict=True))  # fmt: skip
    # a config whose learning settings differ: the run goes on with its checkpoint's
    other = replace(TINY, batched=replace(TINY.batched, vf_coef=2.0, reward="score", policy="mlp"))
    result = train_batched_ppo("oware", other, out, resume=checkpoint, progress=False)
    assert result.timesteps == 512
    kept = json.loads((out / "run.json").read_text())["config"]["batched"]
    assert (kept["vf_coef"], kept["reward"], kept["policy"]) == (
        TINY.batched.vf_coef, TINY.batched.reward, "network",
    )  # fmt: skip
    mine, unbroken = (weights(folder / "checkpoints" / "step_512.npz")
                      for folder in (out, finished_run / "run"))  # fmt: skip
    assert mine.keys() == unbroken.keys()
    assert all(torch.equal(mine[name], unbroken[name]) for name in mine)
    with pytest.raises(batched_run.NothingToDo):
        train_batched_ppo("oware", TINY, out, resume=out / "checkpoints" / "step_512.npz")
    (out / "checkpoints" / "step_256.pt").write_bytes(b"not tensors")
    with pytest.raises(ValueError, match="^cannot resume from .*step_256.npz: "):
        train_batched_ppo("oware", TINY, out, resume=checkpoint, progress=False)
    (out / "checkpoints" / "step_256.pt").unlink()
    with pytest.raises(ValueError, match="has its step_256.pt beside it"):
        train_batched_ppo("oware", TINY, out, resume=checkpoint, progress=False)


def test_a_round_stopped_in_its_update_leaves_the_policy_as_it_was(tmp_path, monkeypatch):
    """Ctrl-C in the middle of an update undoes the round's changes to the policy and to
    Adam's state, so the checkpoint then written holds whole rounds only."""
    run = batched_run._Run("oware", TINY, tmp_path, 0, torch.device("cpu"))
    run.restart_games()
    before = {name: tensor.clone() for name, tensor in run.policy.state_dict().items()}

    def interrupted(loss, optimizer, rollout, ppo, settings):
        with torch.no_grad():
            for parameter in run.policy.parameters():
                parameter.add_(1.0)  # part of an update made
        raise KeyboardInterrupt

    monkeypatch.setattr(batched_run, "update", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run.round()
    after = run.policy.state_dict()
    assert all(torch.equal(before[name], after[name]) for name in before)
    assert run.steps == 0


def test_ctrl_c_saves_a_checkpoint_and_prints_the_command_that_continues(
    tmp_path, capsys, monkeypatch
):
    (tmp_path / "tiny.toml").write_text(TINY_TOML)
    monkeypatch.chdir(tmp_path)
    rounds = batched_run._Run.round
    calls = []

    def interrupted_in_the_second(self):
        calls.append(self.steps)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return rounds(self)

    monkeypatch.setattr(batched_run._Run, "round", interrupted_in_the_second)
    command = ["train", "oware", "--algo", "batched-ppo", "--config", "tiny.toml", "--out",
               "run", "--no-progress"]  # fmt: skip
    assert main(command) == 130
    err = capsys.readouterr().err
    assert "interrupted at step 128; checkpoint saved: run/checkpoints/step_128.npz" in err
    resume = shlex.split(err.split("continue with:")[1].strip())
    assert resume[:2] == ["mancala", "train"] and "batched-ppo" in resume
    monkeypatch.setattr(batched_run._Run, "round", rounds)
    assert main(resume[1:]) == 0, capsys.readouterr().err
    assert json.loads(Path("run/run.json").read_text())["timesteps"] == 512


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("[batched]\nthreads = 0\n", "[batched]: threads must be an integer from 1 to"),
        ("[batched]\ndevice = 'tpu'\n", "[batched]: device must be one of auto, cpu, cuda"),
        ("[batched]\nvf_coef = -1\n", "[batched]: vf_coef must be a number from 0 to 1000"),
        ("[batched]\nvf_coef = 1e300\n", "[batched]: vf_coef must be a number from 0 to 1000"),
        ("[batched]\nmax_grad_norm = 0\n", "max_grad_norm must be a number above 0 and at most"),
        ("[batched]\nmax_grad_norm = inf\n", "max_grad_norm must be a number above 0 and at"),
        ("[batched]\nthread = 1\n", "unknown setting(s) thread in"),
        ("[batched]\nprecision = 'half'\n", "precision must be one of float32, bfloat16"),
        ("[batched]\nreward = 'seeds'\n", "[batched]: reward 'seeds' is not supported; choose"),
        ("[batched]\nreward = 1\n", "[batched]: reward 1 is not supported; choose one of"),
        ("[batched]\npolicy = 'cnn'\n", "[batched]: policy must be one of network, mlp, got"),
        ("[ppo]\nbatch_size = 1\n", "[ppo]: batch_size must be an integer"),
        ("opponents = ['alphabeta:depth=0']\n", "opponents: bad agent spec 'alphabeta:depth=0'"),
        ("eval_opponents = ['human']\n", "eval_opponents: bad agent spec 'human'"),
    ],
)
def test_bad_settings_are_refused_in_a_line_before_anything_is_written(
    tmp_path, capsys, setting, message
):
    config = tmp_path / "bad.toml"
    config.write_text(setting)
    out = tmp_path / "run"
    status = main(["train", "oware", "--algo", "batched-ppo", "--config", str(config),
                   "--out", str(out), "--no-progress"])  # fmt: skip
    err = capsys.readouterr().err
    assert status == 2 and message in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not out.exists()


def test_a_policy_whose_weights_are_not_finite_is_never_written(tmp_path):
    """A model file (and so a checkpoint, written after its model file) of weights gone inf or
    nan is refused with one line and nothing is written."""
    from mancala_env.train.batched_ppo.policy import ActorCritic
    from mancala_env.train.files import TrainingDiverged

    policy = ActorCritic(observation_size=16, n_actions=6, net_arch=[8, 8])
    policy.save(tmp_path / "finite.zip")
    with torch.no_grad():
        next(policy.parameters())[0, 0] = float("nan")
    with pytest.raises(TrainingDiverged, match="no longer finite when broken.zip was to be saved"):
        policy.save(tmp_path / "broken.zip")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["finite.zip"]


def test_the_masked_categorical_never_draws_an_illegal_move():
    generator = torch.Generator().manual_seed(0)
    masks = torch.rand(4096, 6, generator=generator) < 0.3
    masks[torch.arange(4096), torch.randint(0, 6, (4096,), generator=generator)] = True
    logits = torch.where(masks, 0.0, 50.0)  # the illegal moves the most likely by far
    torch.manual_seed(0)
    drawn = masked_actions(logits, masks)
    assert masks[torch.arange(4096), drawn].all()
    assert len(set(drawn.tolist())) == 6  # every action drawn somewhere: not a constant
    opponent = SnapshotOpponent(ActorCritic(16, 6, [8]), torch.device("cpu"))
    played = opponent(np.zeros((4096, 16), dtype=np.int8), masks.numpy())
    assert masks.numpy()[np.arange(4096), played].all()


def test_the_advantages_are_those_of_a_hand_computation():
    """Two games of three moves; the first ends after its second move (its next value is not
    used there) and a new game starts; gamma 0.9, lambda 0.8."""
    gamma, lam = 0.9, 0.8
    values = torch.tensor([[0.5, 0.1], [0.2, -0.3], [0.4, 0.6]])
    rewards = torch.tensor([[0.0, 0.0], [1.0, 0.0], [0.0, 0.0]])
    dones = torch.tensor([[False, False], [True, False], [False, False]])
    next_values = torch.tensor([0.3, -0.2])
    rollout = Rollout(
        observations=torch.zeros(3, 2, 1), masks=torch.ones(3, 2, 1, dtype=torch.bool),
        actions=torch.zeros(3, 2, dtype=torch.int64), log_probs=torch.zeros(3, 2),
        values=values, rewards=rewards, dones=dones, next_values=next_values,
    )  # fmt: skip
    advantage, target = advantages(rollout, gamma, lam)
    expected = torch.zeros(3, 2)
    for game in range(2):
        following, carried = next_values[game], 0.0
        for t in (2, 1, 0):
            ended = float(dones[t, game])
            delta = rewards[t, game] + gamma * following * (1 - ended) - values[t, game]
            carried = delta + gamma * lam * (1 - ended) * carried
            expected[t, game] = carried
            following = values[t, game]
    assert torch.allclose(advantage, expected, atol=1e-6)
    assert torch.allclose(target, expected + values, atol=1e-6)
    # the first game's second move: its reward, nothing after it
    assert advantage[1, 0].item() == pytest.approx(1.0 - 0.2)


def test_the_policy_file_plays_the_policys_moves_as_ppo_agents_load_it(tmp_path):
    torch.manual_seed(0)
    policy = ActorCritic(16, 6, [24, 12])
    path = policy.save(tmp_path / "policy.zip")
    loaded, _ = load_maskable_ppo(path, "oware")
    observations = torch.randint(0, 20, (32, 16)).float()
    with torch.no_grad():
        logits = loaded.get_distribution(observations).distribution.logits
        values = loaded.predict_values(observations)[:, 0]
        assert torch.allclose(logits, torch.log_softmax(policy.actor(observations), -1), atol=1e-5)
        assert torch.allclose(values, policy.critic(observations)[:, 0], atol=1e-6)
    reloaded = load_policy("mlp", path, "oware", [24, 12])
    assert torch.equal(reloaded.actor[0].weight, policy.actor[0].weight)
    with pytest.raises(ValueError, match=r"does not have the layers \[24\] of this run"):
        load_policy("mlp", path, "oware", [24])


def test_the_network_policy_file_plays_the_policys_moves_as_az_agents_load_it(tmp_path):
    """The network policy sees `encode`'s inputs (each count also one-hot), starts near
    uniform, and its file is the network ``az:PATH`` plays: the same logits and values in
    numpy, its most likely legal move played."""
    torch.manual_seed(0)
    policy = NetworkPolicy("oware", [24, 12])
    observations = np.random.default_rng(0).integers(0, 30, (32, 16)).astype(np.int8)
    observations[:, 14:] = 0
    inputs = policy.inputs(observations, torch.device("cpu"))
    assert torch.equal(inputs, torch.from_numpy(encode(observations, policy.high, policy.caps)))
    with torch.no_grad():
        logits, values = policy(inputs)
        assert torch.equal(policy.actor(inputs), logits)
        assert torch.equal(policy.critic(inputs)[:, 0], values)
    assert logits.abs().max() < 0.5  # the policy's head starts small: near uniform
    path = policy.save(tmp_path / "policy.npz")
    network, _ = read_network(path)
    numpy_logits, numpy_values = network.forward(observations)
    assert np.allclose(numpy_logits, logits.numpy(), atol=1e-5)
    assert np.allclose(numpy_values, values.numpy(), atol=1e-5)
    game = Game("oware")
    seen = observe(game.state, game.to_move, game.params)[None]
    best = int(np.argmax(np.where(game.legal_mask() > 0, network.forward(seen)[0][0], -np.inf)))
    assert load_agent(f"az:{path}", "oware").act(game) == best
    reloaded = load_policy("network", path, "oware", [24, 12])
    pairs = zip(reloaded.parameters(), policy.parameters(), strict=True)
    assert all(torch.equal(a, b) for a, b in pairs)
    with pytest.raises(ValueError, match=r"does not have the layers \[24\] of this run"):
        load_policy("network", path, "oware", [24])
    with pytest.raises(ValueError, match="plays oware, not ayoayo"):
        load_policy("network", path, "ayoayo", [24, 12])


def test_a_copied_run_folder_refuses_a_new_run_until_overwrite(finished_run, tmp_path, capsys):
    shutil.copytree(finished_run / "run", tmp_path / "run")
    config, out = str(finished_run / "tiny.toml"), str(tmp_path / "run")
    command = ["train", "oware", "--algo", "batched-ppo", "--config", config, "--out", out,
               "--no-progress"]  # fmt: skip
    assert main(command) == 2
    assert "--resume " in capsys.readouterr().err
    assert main([*command, "--overwrite", "--timesteps", "128"]) == 0
    assert json.loads((tmp_path / "run" / "run.json").read_text())["timesteps"] == 128


@pytest.mark.parametrize("kind", ["mlp", "network"])
def test_a_bfloat16_update_fits_the_float32_weights_of_a_rollout(kind):
    torch.manual_seed(0)
    batch = RolloutBatch("oware", 8, seed=0)
    batch.opponent = "greedy"
    batch.restart(1)
    policy = ActorCritic(16, 6, [16]) if kind == "mlp" else NetworkPolicy("oware", [16])
    rollout = batch.collect(policy, 8, torch.device("cpu"))
    assert rollout.masks.gather(2, rollout.actions.unsqueeze(-1)).all()  # legal moves only
    before = [p.detach().clone() for p in policy.parameters()]
    ppo, batched = PPOSettings(batch_size=16, n_epochs=1), BatchedSettings(precision="bfloat16")
    loss = ppo_loss(policy, ppo, batched)
    update(loss, new_optimizer(loss, 1e-3), rollout, ppo, batched)
    after = list(policy.parameters())
    assert all(p.dtype == torch.float32 for p in after)
    assert all(not torch.equal(a, b) for a, b in zip(before, after, strict=True))


def test_the_evaluations_games_run_as_ray_tasks_with_backend_ray(tmp_path):
    pytest.importorskip("ray")
    config = replace(TINY, run=replace(TINY.run, timesteps=256, opponents=["random"]))
    result = train_batched_ppo("oware", config, tmp_path / "run", progress=False, backend="ray")
    assert result.timesteps == 256 and [e.timesteps for e in result.evaluations] == [256]
    with pytest.raises(ValueError, match="--ray-address goes with --backend ray"):
        train_batched_ppo("oware", config, tmp_path / "other", ray_address="auto")
    assert not (tmp_path / "other").exists()
