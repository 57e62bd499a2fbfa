"""Hostile training settings and arguments: each bad one is refused with one line
naming it and what it may be, before any folder is made, so the same command with the value
put right runs (a failed run used to leave an --out folder that refused the rerun)."""

from __future__ import annotations

import pytest

from mancala_env.cli import main
from mancala_env.train.config import PPOSettings, TrainConfig, load_config
from mancala_env.train.run import train


def run(capsys, *argv: str) -> tuple[int, str]:
    status = main(["train", *argv])
    return status, capsys.readouterr().err


RATE = "a number above 0 and at most 1"  # a learning rate's and the clip range's range


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[ppo]\nbatch_size = 0\n", "batch_size must be an integer from 2 to 4,194,304, got 0"),
        ("[ppo]\nlearning_rate = 'fast'\n", f"learning_rate must be {RATE}, got 'fast'"),
        ("[ppo]\nlearning_rate = nan\n", f"learning_rate must be {RATE}, got nan"),
        ("[ppo]\nlearning_rate = -1e-3\n", f"learning_rate must be {RATE}, got -0.001"),
        ("[ppo]\ngamma = 1.5\n", "gamma must be a number from 0 to 1, got 1.5"),
        ("[ppo]\nclip_range = inf\n", f"clip_range must be {RATE}, got inf"),
        ("[ppo]\nn_epochs = 1.5\n", "n_epochs must be an integer from 1 to 1,000, got 1.5"),
        ("[ppo]\nnet_arch = [64, 'wide']\n", "net_arch must be a list of layer widths"),
        ("[ppo]\nnet_arch = [100000, 100000]\n", "net_arch must have at most 64 layers of at"),
        ("ppo = 3\n", "[ppo] must be a table of settings, got 3"),
        ("self_share = 'half'\n", "self_share must be a number from 0 to 1, got 'half'"),
        ("opponents = 'random'\n", "opponents must be a list of agent specs (texts)"),
        ("n_envs = 1\n[ppo]\nn_steps = 1\n", "a rollout must hold from 2 to 4,194,304 moves"),
    ],
)
def test_a_bad_setting_is_named_and_leaves_no_out_folder(tmp_path, capsys, text, message):
    config = tmp_path / "bad.toml"
    config.write_text(text)
    with pytest.raises(ValueError) as refused:
        load_config("oware", config)
    assert message in str(refused.value) and str(config) in str(refused.value)
    out = tmp_path / "run"
    status, err = run(capsys, "oware", "--config", str(config), "--out", str(out))
    assert status == 2 and message in err, err
    assert len(err.strip().splitlines()) == 1 and not out.exists()


def test_a_run_refused_while_it_is_set_up_leaves_no_out_folder(tmp_path, capsys):
    """An opponent no loader knows is found while the games are set up: the folders are made
    only after that, so the rerun with the opponent put right is not refused as 'not empty'."""
    out = tmp_path / "run"
    status, err = run(capsys, "oware", "--opponents", "random,nonsense", "--out", str(out))
    assert status == 2 and "unknown agent kind 'nonsense'" in err, err
    assert not out.exists()
    with pytest.raises(ValueError):
        config = TrainConfig(opponents=["random", "nonsense"], self_share=0.5)
        train("oware", config, out=out, progress=False)
    assert not out.exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--max-minutes", "-1"], "argument --max-minutes: must be a number from 0.01 to 100,000"),
        (["--max-minutes", "nan"], "argument --max-minutes: must be a number from 0.01 to 100,000"),
        (["--max-minutes", "0"], "argument --max-minutes: must be a number from 0.01 to 100,000"),
        (
            ["--max-minutes", "1e308"],
            "argument --max-minutes: must be a number from 0.01 to 100,000",
        ),
        (["--timesteps", "0"], "argument --timesteps: must be an integer of 1 or more"),
        (["--n-envs", "-3"], "argument --n-envs: must be an integer from 1 to 1,000,000"),
        (["--seed", "-1"], "argument --seed: must be an integer from 0 to 4,294,967,295"),
        (["--out", "/proc/run"], "argument --out: /proc/run: cannot write in /proc"),
        (["--out", "{file}"], "is a file; name a folder"),
        (["--config", "{missing}"], "argument --config: {missing}: no such file"),
        (["--resume", "{missing}"], "argument --resume: {missing}: no such file"),
    ],
)
def test_a_bad_argument_is_refused_before_training_begins(tmp_path, capsys, argv, message):
    """`--max-minutes -1` (or nan) used to train 2 steps and exit 0."""
    file, missing = tmp_path / "f", tmp_path / "missing.toml"
    file.write_text("x")
    names = {"{file}": str(file), "{missing}": str(missing)}
    for name, path in names.items():
        argv = [a.replace(name, path) for a in argv]
        message = message.replace(name, path)
    if "--out" not in argv:  # were it taken, the run's folder would show below
        argv += ["--out", str(tmp_path / "run")]
    before = sorted(tmp_path.iterdir())
    status, err = run(capsys, "oware", *argv)
    assert status == 2 and err.startswith("mancala train: error: ") and message in err, err
    assert len(err.strip().splitlines()) == 1
    assert sorted(tmp_path.iterdir()) == before and file.read_text() == "x"


def test_the_settings_of_a_config_file_are_kept_as_they_were():
    assert PPOSettings(batch_size=2, learning_rate=1, gamma=0, ent_coef=0, net_arch=[]).gamma == 0
    for variant in ("oware", "ayoayo", "obridjie"):
        load_config(variant)


def _state(**changes) -> dict:
    """A PPO checkpoint's state (`train.run`'s step_N.json) with `changes`."""
    from dataclasses import asdict

    state = {
        "variant": "oware",
        "timesteps": 2048,
        "pool": {"snapshots": ["pool/step_0.zip"]},
        "config": {"ppo": asdict(PPOSettings())},
        "best_score": 0.5,
    }
    return {**state, **changes}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"timesteps": True}, "timesteps must be an integer from 0 to"),
        ({"timesteps": -(10**12)}, "timesteps must be an integer from 0 to"),
        ({"timesteps": 2**70}, "timesteps must be an integer from 0 to"),
        ({"best_score": float("nan")}, "best_score must be a number from -1 to 1, got nan"),
        ({"pool": {"snapshots": [1]}}, "the pool's snapshots must be the paths of model files"),
        ({"pool": {"snapshots": "x"}}, "the pool's snapshots must be a list of at most"),
        ({"config": {"ppo": {"net_arch": [100_000, 100_000]}}}, "net_arch must have at most"),
        ({"config": {"ppo": {"net_arch": [60_000, 60_000]}}}, "weights between its layers"),
        ({"config": {"ppo": {"bogus": 1}}}, "unexpected keyword argument 'bogus'"),
    ],
)
def test_a_ppo_checkpoint_of_impossible_state_is_refused_by_field(tmp_path, changes, message):
    """Every field of a PPO checkpoint's state is checked before a model is built from it."""
    import json

    from mancala_env.agents.ppo import ModelLoadError
    from mancala_env.train.run import _resume_state

    checkpoint = tmp_path / "step_2048.zip"
    checkpoint.write_bytes(b"")
    checkpoint.with_suffix(".json").write_text(json.dumps(_state()))
    assert _resume_state(checkpoint, "oware")["timesteps"] == 2048  # the good state reads
    checkpoint.with_suffix(".json").write_text(json.dumps(_state(**changes)))
    before = checkpoint.with_suffix(".json").read_bytes()
    with pytest.raises(ModelLoadError) as refused:
        _resume_state(checkpoint, "oware")
    text = str(refused.value)
    assert message in text and "is not a checkpoint's state" in text and "\n" not in text
    assert checkpoint.with_suffix(".json").read_bytes() == before
