"""Saved models as untrusted input, and as agents known by their content.

Loading a `ppo:` model runs no code from the file unless the spec says ``trust=yes``; a model
file replaced at the same path is a new agent: new tournament games, a newly loaded agent.
"""

from __future__ import annotations

import base64
import io
import json
import os
import pickle
import zipfile
from pathlib import Path

import pytest
import torch

from mancala_env import Game
from mancala_env.agents import SpecError, load_agent
from mancala_env.agents.tournament import (
    TournamentConfig,
    match,
    play_game,
    run_tournament,
    schedule,
)


class MakesFolder:
    """A pickle that, when loaded, creates a folder: the stand-in for any code a file runs."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def __reduce__(self):
        return os.mkdir, (self.path,)


def untrained_model(path: Path, seed: int) -> Path:
    from sb3_contrib import MaskablePPO

    from mancala_env.vec_env import MancalaVecEnv

    env = MancalaVecEnv("oware", n_envs=2, seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, seed=seed, device="cpu",
                        policy_kwargs={"net_arch": [16]})  # fmt: skip
    model.save(path)
    return path


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> tuple[bytes, bytes]:
    """The bytes of two different saved Oware models."""
    folder = tmp_path_factory.mktemp("models")
    return tuple(untrained_model(folder / f"m{seed}.zip", seed).read_bytes() for seed in (0, 1))


def rewritten(content: bytes, path: Path, data=None, entries=None) -> Path:
    """The model `content` with its `data` JSON changed by `data` and entries replaced."""
    entries = dict(entries or {})
    with zipfile.ZipFile(io.BytesIO(content)) as source, zipfile.ZipFile(path, "w") as target:
        for name in source.namelist():
            value = source.read(name)
            if name == "data" and data is not None:
                value = json.dumps(data(json.loads(value))).encode()
            target.writestr(name, entries.pop(name, value))
    return path


def pickled(value) -> dict:
    """A value as stable-baselines3 writes one that JSON cannot hold: base64 of a pickle."""
    return {":type:": "<class 'object'>", ":serialized:": base64.b64encode(pickle.dumps(value))
            .decode()}  # fmt: skip


def plays_a_game(agent) -> bool:
    game = Game("oware")
    while not game.over:
        game.step(agent.act(game) if game.to_move == 0 else int(game.legal_actions()[0]))
    return game.over


def test_a_model_with_a_code_payload_loads_without_running_it(models, tmp_path):
    marker = tmp_path / "payload-ran"

    def poison(data):
        for key in ("observation_space", "action_space", "policy_class", "lr_schedule"):
            data[key][":serialized:"] = pickled(MakesFolder(marker))[":serialized:"]
        return data

    evil = rewritten(models[0], tmp_path / "evil.zip", data=poison)
    agent = load_agent(f"ppo:{evil}", "oware", seed=0)
    assert plays_a_game(agent)
    assert not marker.exists()
    with pytest.raises(ValueError):  # the payload is no observation space: the load fails...
        load_agent(f"ppo:{evil},trust=yes", "oware", seed=0)
    assert marker.exists()  # ...after running it: trust=yes is the stable-baselines3 load


def test_weights_that_hold_code_are_refused(models, tmp_path):
    marker = tmp_path / "payload-ran"
    buffer = io.BytesIO()
    torch.save({"weights": MakesFolder(marker)}, buffer)
    evil = rewritten(models[0], tmp_path / "evil.zip", entries={"policy.pth": buffer.getvalue()})
    with pytest.raises(ValueError, match="its weights .policy.pth. hold more than tensors"):
        load_agent(f"ppo:{evil}", "oware")
    assert not marker.exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            lambda d: {**d, "policy_kwargs": pickled({"net_arch": [16]})},
            "its policy settings are pickled Python objects.*trust=yes",
        ),
        (
            lambda d: {**d, "policy_kwargs": {"net_arch": [16], "activation_fn": "Tanh"}},
            "its policy settings activation_fn are read only by a trusted load",
        ),
        (
            lambda d: {**d, "policy_kwargs": {"net_arch": [16, "x"]}},
            "net_arch layer size is not a positive integer",
        ),
        (
            lambda d: {**d, "policy_kwargs": {"net_arch": [32]}},
            "its weights do not fit the network its settings describe",
        ),
        (
            lambda d: {**d, "action_space": {"n": "7"}},
            r"it \(observations \(16,\), 7 actions\) "
            "does not fit oware",
        ),
        (lambda d: [1, 2], "its data is not a JSON object"),
    ],
)
def test_a_model_whose_plain_settings_do_not_do_is_named(models, tmp_path, data, message):
    bad = rewritten(models[0], tmp_path / "bad.zip", data=data)
    with pytest.raises(ValueError, match=message) as error:
        load_agent(f"ppo:{bad}", "oware")
    assert len(str(error.value).splitlines()) == 1


def test_the_weights_only_agent_plays_as_the_whole_model_does(models, tmp_path):
    path = tmp_path / "m.zip"
    path.write_bytes(models[1])
    safe, trusted = (load_agent(f"ppo:{path}{t}", "oware", seed=0) for t in ("", ",trust=yes"))
    game = Game("oware")
    while not game.over:
        action = safe.act(game)
        assert trusted.act(game) == action
        game.step(action)


def test_ppo_specs_with_commas_and_the_trust_key(models, tmp_path):
    path = tmp_path / "a,b.zip"
    path.write_bytes(models[0])
    assert load_agent(f"ppo:{path}", "oware").path == str(path)
    assert load_agent(f"ppo:{path},trust=no", "oware").path == str(path)
    with pytest.raises(SpecError, match="bad value 'maybe' for trust: must be yes or no"):
        load_agent(f"ppo:{path},trust=maybe", "oware")


def tournament(path: Path) -> TournamentConfig:
    return TournamentConfig("oware", (f"ppo:{path}", "greedy"), games_per_pair=4)


def moves(result) -> list[list[int]]:
    return [record["moves"] for record in result.records]


def test_a_model_replaced_at_its_path_plays_new_games(models, tmp_path):
    model, db = tmp_path / "model.zip", tmp_path / "t.sqlite"
    model.write_bytes(models[0])
    first = run_tournament(tournament(model), db=db, progress=False)
    model.write_bytes(models[1])  # the same command, another model
    second = run_tournament(tournament(model), db=db, progress=False)
    assert first.played == second.played == 4
    assert second.config.key != first.config.key
    # the new games are the new model's: as played by it from a path of its own
    other = tmp_path / "other.zip"
    other.write_bytes(models[1])
    fresh = run_tournament(tournament(other), db=tmp_path / "fresh.sqlite", progress=False)
    assert moves(second) == moves(fresh) != moves(first)
    model.write_bytes(models[0])  # the first model again: its games are found
    assert run_tournament(tournament(model), db=db, progress=False).played == 0


def test_a_model_changed_during_a_tournament_is_not_played_under_the_old_key(models, tmp_path):
    model = tmp_path / "model.zip"
    model.write_bytes(models[0])
    tasks = schedule(tournament(model))
    model.write_bytes(models[1])
    match._AGENTS.clear()  # a fresh worker
    with pytest.raises(ValueError, match="changed while the tournament ran"):
        play_game(tasks[0])


def test_a_checkpoints_states_are_read_as_tensors_only_and_bounded(models, tmp_path, monkeypatch):
    from sb3_contrib import MaskablePPO

    from mancala_env.agents import ppo

    path = tmp_path / "m0.zip"
    path.write_bytes(models[0])
    states = ppo.saved_states(path)
    whole = MaskablePPO.load(path, device="cpu").get_parameters()
    assert set(states) == set(whole) == {"policy", "policy.optimizer"}
    for name, tensor in whole["policy"].items():
        assert torch.equal(states["policy"][name], tensor)
    marker = tmp_path / "payload-ran"
    buffer = io.BytesIO()
    torch.save({"state": MakesFolder(marker)}, buffer)
    evil = rewritten(models[0], tmp_path / "evil.zip",
                     entries={"policy.optimizer.pth": buffer.getvalue()})  # fmt: skip
    with pytest.raises(ppo.ModelLoadError, match="cannot read .*evil.zip.*Unpickl"):
        ppo.saved_states(evil)
    assert not marker.exists()
    monkeypatch.setattr(ppo, "MAX_MODEL_BYTES", 1000)
    with pytest.raises(ppo.ModelLoadError, match="bytes; at most 1,000 are read"):
        ppo.saved_states(path)
