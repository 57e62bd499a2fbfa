"""Training: a short self-play run saves models that play as agents, and resumes."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from agents import load_agent
from mancala_env import Game
from mancala_env.cli import main
from train.config import PPOSettings, TrainConfig, load_config
from train.run import train

TINY = TrainConfig(
    timesteps=3072,
    n_envs=16,
    opponents=["random", "greedy", "alphabeta:depth=1", "self"],
    snapshot_every=1024,
    pool_size=2,
    eval_every=2048,
    eval_games=4,
    eval_opponents=["random", "greedy"],
    checkpoint_every=1024,
    ppo=PPOSettings(n_steps=64, batch_size=256, n_epochs=1, net_arch=[32]),
)


def play_out(spec: str, variant: str) -> Game:
    """A whole game of the agent `spec` (player_0) against random play, every move checked."""
    game = Game(variant)
    game.reset(np.random.default_rng(0))
    players = [load_agent(spec, variant, seed=1), load_agent("random", variant, seed=2)]
    while not game.over:
        action = players[game.to_move].act(game)
        assert action in game.legal_actions()
        game.step(action)
    return game


def test_a_short_run_saves_a_model_that_plays_as_an_agent(tmp_path):
    result = train("oware", TINY, out=tmp_path, seed=0, progress=False)
    assert result.timesteps >= TINY.timesteps
    assert result.final_model.exists() and result.best_model.exists()
    assert play_out(f"ppo:{result.final_model}", "oware").over
    # the pool got the untrained policy and the snapshots, only the newest two kept in play
    assert sorted(p.name for p in (tmp_path / "pool").iterdir())[:1] == ["step_0.zip"]
    state = json.loads((tmp_path / "checkpoints" / f"step_{result.timesteps}.json").read_text())
    assert len(state["pool"]["snapshots"]) == 2 and state["timesteps"] == result.timesteps
    # evaluations through the tournament store, with Wilson intervals, logged for TensorBoard
    assert [e.timesteps for e in result.evaluations][-1] == result.timesteps
    for evaluation in result.evaluations:
        assert set(evaluation.scores) == {"random", "greedy"}
        for score, low, high in evaluation.scores.values():
            assert 0 <= low <= score <= high <= 1
    lines = (tmp_path / "evaluations.jsonl").read_text().splitlines()
    assert len(lines) == len(result.evaluations)
    assert (tmp_path / "evaluations.sqlite").exists()
    assert list((tmp_path / "tensorboard").rglob("events.out.tfevents.*"))
    summary = json.loads((tmp_path / "run.json").read_text())
    assert summary["variant"] == "oware" and summary["timesteps"] == result.timesteps
    assert summary["seconds"] > 0 and summary["config"]["n_envs"] == TINY.n_envs


def test_a_resumed_run_continues_its_step_count_and_pool(tmp_path):
    first = train("ayoayo", TINY, out=tmp_path, seed=1, progress=False)
    checkpoint = tmp_path / "checkpoints" / f"step_{first.timesteps}.zip"
    pool = json.loads(checkpoint.with_suffix(".json").read_text())["pool"]["snapshots"]
    longer = replace(TINY, timesteps=first.timesteps + 2048, pool_size=10)
    second = train("ayoayo", longer, out=tmp_path, seed=1, resume=checkpoint, progress=False)
    assert second.timesteps >= first.timesteps + 2048
    state = json.loads((tmp_path / "checkpoints" / f"step_{second.timesteps}.json").read_text())
    snapshots = state["pool"]["snapshots"]
    assert snapshots[: len(pool)] == pool and len(snapshots) > len(pool)  # it went on
    with pytest.raises(ValueError, match="is a checkpoint of ayoayo, not of oware"):
        train("oware", longer, out=tmp_path, resume=checkpoint, progress=False)
    with pytest.raises(ValueError, match="a checkpoint is a step_N.zip"):
        train("ayoayo", longer, out=tmp_path, resume=tmp_path / "nothing.zip", progress=False)


def test_configs_load_and_bad_ones_are_named(tmp_path):
    for variant in ("oware", "ayoayo", "obridjie"):
        config = load_config(variant)
        assert "self" in config.opponents and config.ppo.net_arch
    assert load_config("ncho") == TrainConfig()  # no file of its own: the defaults
    bad = tmp_path / "bad.toml"
    bad.write_text("timesteps = 10\nlearning_rat = 1\n")
    with pytest.raises(ValueError, match="unknown setting.*learning_rat"):
        load_config("oware", bad)
    bad.write_text("[ppo]\nn_step = 3\n")
    with pytest.raises(ValueError, match=r"unknown setting.*n_step.*\[ppo\]"):
        load_config("oware", bad)
    bad.write_text("timesteps = \n")
    with pytest.raises(ValueError, match="is not valid TOML"):
        load_config("oware", bad)
    with pytest.raises(ValueError, match="eval_games must be even"):
        TrainConfig(eval_games=3)


def test_mancala_train_command(tmp_path, capsys):
    config = tmp_path / "tiny.toml"
    config.write_text(
        "timesteps = 1024\nn_envs = 8\nsnapshot_every = 512\neval_every = 1024\neval_games = 2\n"
        "checkpoint_every = 1024\n[ppo]\nn_steps = 64\nbatch_size = 128\nn_epochs = 1\n"
        "net_arch = [16]\n"
    )
    out = tmp_path / "run"
    status = main(["train", "obridjie", "--config", str(config), "--out", str(out),
                   "--opponents", "random,self", "--no-progress"])  # fmt: skip
    printed = capsys.readouterr()
    assert status == 0, printed.err
    assert "against random:" in printed.out and f"ppo:{out / 'final_model.zip'}" in printed.out
    status = main(["play", "obridjie", "--agent", f"ppo:{out / 'final_model.zip'}",
                   "--opponent", "random", "--seed", "3", "--no-color"])  # fmt: skip
    assert status == 0 and "result: player_0" in capsys.readouterr().out
    status = main(["train", "obridjie", "--config", str(tmp_path / "missing.toml")])
    assert status == 2 and "no training config at" in capsys.readouterr().err
