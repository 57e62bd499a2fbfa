"""Training: a short self-play run saves models that play as agents, and resumes."""

from __future__ import annotations

import io
import json
import os
import shlex
import shutil
import sqlite3
import zipfile
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from mancala_env import Game
from mancala_env.agents import load_agent
from mancala_env.cli import main
from mancala_env.train.config import PPOSettings, TrainConfig, load_config
from mancala_env.train.run import train
from mancala_env.train.selfplay import SelfPlayCallback

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


@pytest.mark.parametrize(
    ("name", "spec"),
    [("opponents", "python:os:getcwd"), ("eval_opponents", "ppo:model.zip,trust=yes")],
)
def test_a_config_file_naming_an_agent_that_runs_code_is_refused(tmp_path, name, spec):
    config = tmp_path / "shared.toml"
    config.write_text(f'{name} = ["random", "{spec}"]\n')
    with pytest.raises(ValueError, match=f"{name} names '{spec}', which runs code"):
        load_config("oware", config)
    config.write_text(f'{name} = ["random", "ppo:model.zip"]\n')  # loaded as data: allowed
    assert "ppo:model.zip" in getattr(load_config("oware", config), name)


def test_the_budget_is_rounded_up_to_whole_rollouts_and_said_so_only_then():
    config = TrainConfig(timesteps=1000, n_envs=8, ppo=PPOSettings(n_steps=64, batch_size=512))
    assert config.rollout == 512
    assert config.planned_timesteps() == 1024
    assert config.planned_timesteps(done=100) == 1124  # a resumed run counts on from its step
    assert config.planned_timesteps(done=1000) == 1000
    assert "1,000 timesteps becomes 1,024" in config.rounding_note()
    assert replace(config, timesteps=1536).rounding_note() is None


def test_mancala_train_command(tmp_path, capsys):
    config = tmp_path / "tiny.toml"
    config.write_text(
        "timesteps = 1000\nn_envs = 8\nsnapshot_every = 512\neval_every = 1024\neval_games = 2\n"
        "checkpoint_every = 1024\n[ppo]\nn_steps = 64\nbatch_size = 128\nn_epochs = 1\n"
        "net_arch = [16]\n"
    )
    out = tmp_path / "run"
    status = main(["train", "obridjie", "--config", str(config), "--out", str(out),
                   "--opponents", "random,self", "--no-progress"])  # fmt: skip
    printed = capsys.readouterr()
    assert status == 0, printed.err
    assert "against random:" in printed.out and f"ppo:{out / 'final_model.zip'}" in printed.out
    assert (
        "mancala train: the budget of 1,000 timesteps becomes 1,024: training runs in whole "
        "rollouts of 512 steps (8 games x n_steps 64)"
    ) in printed.out.splitlines()
    assert "trained 1,024 steps" in printed.out
    status = main(["play", "obridjie", "--agent", f"ppo:{out / 'final_model.zip'}",
                   "--opponent", "random", "--seed", "3", "--no-color"])  # fmt: skip
    assert status == 0 and "result: player_0" in capsys.readouterr().out
    status = main(["train", "obridjie", "--config", str(tmp_path / "missing.toml")])
    assert status == 2 and "argument --config: " in capsys.readouterr().err  # no such file


# ---- a used --out, atomic saves, Ctrl-C, and evaluations after a resume ------------------------

TINY_TOML = """
timesteps = 3072
n_envs = 16
opponents = ["random", "greedy", "alphabeta:depth=1", "self"]
snapshot_every = 1024
pool_size = 2
eval_every = 2048
eval_games = 4
eval_opponents = ["random", "greedy"]
checkpoint_every = 1024
[ppo]
n_steps = 64
batch_size = 256
n_epochs = 1
net_arch = [32]
"""


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory) -> Path:
    """A finished run of TINY at ``run`` (relative paths) in a folder of its own."""
    folder = tmp_path_factory.mktemp("finished")
    (folder / "tiny.toml").write_text(TINY_TOML)
    assert load_config("oware", folder / "tiny.toml") == TINY
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        train("oware", TINY, out="run", seed=0, progress=False)
    finally:
        os.chdir(cwd)
    return folder


@pytest.fixture
def run_copy(finished_run, tmp_path, monkeypatch) -> Path:
    """A copy of the finished run to change, the working directory beside it."""
    shutil.copytree(finished_run, tmp_path, dirs_exist_ok=True)
    monkeypatch.chdir(tmp_path)
    return Path("run")


def contents(folder: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_progress_bar_counts_to_the_steps_the_run_makes(tmp_path, capsys):
    """A budget of 1,000 steps is run as one whole rollout of 16 x 64 = 1,024: the bar's total
    is 1,024 from the start, and it ends full, not past its end."""
    (tmp_path / "tiny.toml").write_text(TINY_TOML)
    status = main(["train", "oware", "--config", str(tmp_path / "tiny.toml"), "--timesteps",
                   "1000", "--opponents", "random", "--out", str(tmp_path / "run")])  # fmt: skip
    printed = capsys.readouterr()
    assert status == 0, printed.err
    assert "the budget of 1,000 timesteps becomes 1,024" in printed.out
    bar = printed.err.split("\r")
    assert "0/1.02k" in bar[1] and "100%" in bar[-1] and "1.02k/1.02k" in bar[-1]
    assert "/1.00k" not in printed.err


def test_a_new_run_into_a_used_out_is_refused_unless_resume_or_overwrite(run_copy, capsys):
    before = contents(run_copy)
    status = main(["train", "oware", "--config", "tiny.toml", "--out", "run", "--no-progress"])
    err = capsys.readouterr().err
    assert status == 2
    assert (
        "--out run is not empty: continue the run there with --resume "
        "run/checkpoints/step_3072.zip, or start a new one with --overwrite"
    ) in err
    assert contents(run_copy) == before
    (run_copy / "notes.txt").write_text("mine")
    shorter = replace(TINY, timesteps=1024, eval_every=1024)
    result = train("oware", shorter, out=run_copy, seed=3, progress=False, overwrite=True)
    assert result.timesteps == 1024
    lines = (run_copy / "evaluations.jsonl").read_text().splitlines()
    assert [json.loads(line)["timesteps"] for line in lines] == [1024]  # none of the old run
    assert sorted(p.name for p in (run_copy / "checkpoints").glob("*.zip")) == ["step_1024.zip"]
    assert (run_copy / "notes.txt").read_text() == "mine"  # not the run's: left alone


def test_a_short_run_saves_a_model_that_plays_as_an_agent(finished_run):
    run = finished_run / "run"
    summary = json.loads((run / "run.json").read_text())
    timesteps = summary["timesteps"]
    assert summary["variant"] == "oware" and timesteps >= TINY.timesteps
    assert summary["seconds"] > 0 and summary["config"]["n_envs"] == TINY.n_envs
    assert (run / "final_model.zip").exists() and (run / "best_model.zip").exists()
    assert play_out(f"ppo:{run / 'final_model.zip'}", "oware").over
    # the pool got the untrained policy and the snapshots, only the newest two kept in play
    assert sorted(p.name for p in (run / "pool").iterdir())[:1] == ["step_0.zip"]
    state = json.loads((run / "checkpoints" / f"step_{timesteps}.json").read_text())
    assert len(state["pool"]["snapshots"]) == 2 and state["timesteps"] == timesteps
    # evaluations through the tournament store, with Wilson intervals, logged for TensorBoard
    lines = (run / "evaluations.jsonl").read_text().splitlines()
    evaluations = [json.loads(line) for line in lines]
    assert evaluations[-1]["timesteps"] == timesteps
    for evaluation in evaluations:
        assert set(evaluation["scores"]) == {"random", "greedy"}
        for score, low, high in evaluation["scores"].values():
            assert 0 <= low <= score <= high <= 1
    assert (run / "evaluations.sqlite").exists()
    assert list((run / "tensorboard").rglob("events.out.tfevents.*"))


def test_a_resumed_run_continues_its_step_count_and_pool(run_copy):
    checkpoint = run_copy / "checkpoints" / f"step_{TINY.timesteps}.zip"
    pool = json.loads(checkpoint.with_suffix(".json").read_text())["pool"]["snapshots"]
    longer = replace(TINY, timesteps=TINY.timesteps + 1024, pool_size=10)
    second = train("oware", longer, out=run_copy, seed=1, resume=checkpoint, progress=False)
    assert second.timesteps >= TINY.timesteps + 1024
    state = json.loads((run_copy / "checkpoints" / f"step_{second.timesteps}.json").read_text())
    snapshots = state["pool"]["snapshots"]
    assert snapshots[: len(pool)] == pool and len(snapshots) > len(pool)  # it went on
    # the evaluations it returns are the last lines of the run's log
    lines = (run_copy / "evaluations.jsonl").read_text().splitlines()
    logged = [json.loads(line)["timesteps"] for line in lines]
    assert logged[-len(second.evaluations) :] == [e.timesteps for e in second.evaluations]
    assert second.evaluations[-1].timesteps == second.timesteps
    with pytest.raises(ValueError, match="is a checkpoint of oware, not of ayoayo"):
        train("ayoayo", longer, out=run_copy, resume=checkpoint, progress=False)
    with pytest.raises(ValueError, match="a checkpoint is a step_N.zip"):
        train("oware", longer, out=run_copy, resume=run_copy / "nothing.zip", progress=False)


def test_resuming_a_run_that_has_its_timesteps_changes_nothing(run_copy, capsys):
    before = contents(run_copy)
    status = main(["train", "oware", "--config", "tiny.toml", "--out", "run", "--no-progress",
                   "--resume", "run/checkpoints/step_3072.zip"])  # fmt: skip
    err = capsys.readouterr().err
    assert status == 0, err
    assert "is at step 3,072, which meets the 3,072 timesteps asked for: nothing to do" in err
    assert contents(run_copy) == before


def test_a_save_that_stops_half_way_leaves_no_broken_file(run_copy, monkeypatch):
    from stable_baselines3.common import base_class

    def half_a_save(save_path, *args, **kwargs):  # a kill or a full disk in the middle
        buffer = io.BytesIO()
        real_save(buffer, *args, **kwargs)
        with open_path(save_path, "w", suffix="zip") as file:
            file.write(buffer.getvalue()[:100])
        raise OSError("no space left on device")

    real_save = base_class.save_to_zip_file
    from stable_baselines3.common.save_util import open_path

    monkeypatch.setattr(base_class, "save_to_zip_file", half_a_save)
    with pytest.raises(OSError, match="no space left"):
        train("oware", TINY, out=run_copy, resume=run_copy / "checkpoints" / "step_1024.zip",
              progress=False)  # fmt: skip
    for path in run_copy.rglob("*.zip"):
        assert zipfile.is_zipfile(path), path
    assert not [p for p in run_copy.rglob("*") if p.name.endswith(".tmp")]


def test_ctrl_c_saves_a_checkpoint_and_prints_the_command_that_continues(run_copy, capsys,
                                                                        monkeypatch):  # fmt: skip
    """Interrupted just after the evaluation of step 2048, which the finished run had made with
    another model: the resumed run's evaluation plays games of its own model only."""
    checkpoint = SelfPlayCallback.checkpoint
    calls = []

    def interrupted_once(self):
        calls.append(self.num_timesteps)
        if len(calls) == 1:
            raise KeyboardInterrupt
        return checkpoint(self)

    monkeypatch.setattr(SelfPlayCallback, "checkpoint", interrupted_once)
    try:
        status = main(["train", "oware", "--config", "tiny.toml", "--out", "run",
                       "--no-progress", "--resume", "run/checkpoints/step_1024.zip"])  # fmt: skip
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C came out of mancala train as a traceback")
    err = capsys.readouterr().err
    assert status == 130 and "Traceback" not in err
    assert "interrupted at step 2,048; checkpoint saved: run/checkpoints/step_2048.zip" in err
    summary = json.loads((run_copy / "run.json").read_text())
    assert summary["interrupted"] is True and summary["timesteps"] == 2048
    command = shlex.split(err.split("continue with:")[1].strip())
    assert command[:2] == ["mancala", "train"] and "--resume" in command
    assert main(command[1:]) == 0, capsys.readouterr().err
    summary = json.loads((run_copy / "run.json").read_text())
    assert summary["interrupted"] is False and summary["timesteps"] == 3072
    # step 2048 was evaluated twice, by two models: two tournaments, each with all its games
    with sqlite3.connect(run_copy / "evaluations.sqlite") as store:
        configs = [json.loads(c) for (c,) in store.execute("SELECT config FROM tournaments")]
        counts = dict(store.execute("SELECT tournament, COUNT(*) FROM games GROUP BY tournament"))
    store.close()
    at_2048 = [c for c in configs if c["agents"][0] == "ppo:run/evaluations/step_2048.zip"]
    assert len(at_2048) == 2 and at_2048[0]["identities"] != at_2048[1]["identities"]
    assert set(counts.values()) == {TINY.eval_games * len(TINY.eval_opponents)}


def test_an_evaluations_log_grows_by_whole_lines_written_atomically(tmp_path, monkeypatch):
    from mancala_env.outputs import OutputError
    from mancala_env.train import files

    log = tmp_path / "evaluations.jsonl"
    files.append_json_line(log, {"timesteps": 1})
    log.write_bytes(log.read_bytes() + b'{"timesteps": 2}')  # a line an older writer left open
    files.append_json_line(log, {"timesteps": 3})
    assert [json.loads(line)["timesteps"] for line in log.read_text().splitlines()] == [1, 2, 3]
    link = tmp_path / "link.jsonl"
    link.symlink_to(log)
    with pytest.raises(OutputError, match="is a symbolic link, not a regular file"):
        files.append_json_line(link, {"timesteps": 4})
    monkeypatch.setattr(files, "MAX_LOG_BYTES", 10)
    with pytest.raises(ValueError, match="at most 10 are read"):
        files.append_json_line(log, {"timesteps": 4})
