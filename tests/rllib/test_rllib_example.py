"""The RLlib self-play example (train/rllib_selfplay.py), in the virtualenv of the ``rllib``
extra: `.ci/run` makes it and runs this folder explicitly; the main suite's `testpaths` leave it
out (ray[rllib] pins its own Gymnasium)."""

from __future__ import annotations

import json

import numpy as np
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.distribution.torch.torch_distribution import TorchCategorical
from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
from ray.rllib.utils.pre_checks.env import check_multiagent_environments

from mancala_env.train.rllib_selfplay import (
    AGENTS,
    MancalaMultiAgentEnv,
    MaskedPPOModule,
    MaskedRandomModule,
    main,
)


def test_the_environment_passes_rllibs_check_and_only_the_mover_observes():
    env = MancalaMultiAgentEnv({"variant": "oware"})
    check_multiagent_environments(env)
    rng = np.random.default_rng(0)
    for game in range(3):
        observations, _ = env.reset(seed=game)
        while True:
            (mover,) = observations  # only the player to move observes
            seen = observations[mover]
            assert env.observation_spaces[mover].contains(seen)
            legal = np.flatnonzero(seen["action_mask"])
            assert list(legal) == env.aec.unwrapped.game.legal_actions()
            observations, rewards, terminated, truncated, _ = env.step(
                {mover: int(rng.choice(legal))}
            )
            if terminated["__all__"] or truncated["__all__"]:
                assert set(observations) == set(rewards) == set(AGENTS)
                assert sum(rewards.values()) == 0 and set(rewards.values()) <= {-1, 0, 1}
                break
            assert set(rewards) == {mover}


def test_the_masked_modules_never_choose_an_illegal_action():
    env = MancalaMultiAgentEnv({"variant": "oware"})
    spaces = {"observation_space": env.observation_spaces[AGENTS[0]]}
    spaces["action_space"] = env.action_spaces[AGENTS[0]]
    model = DefaultModelConfig(fcnet_hiddens=[16])
    modules = [MaskedPPOModule(**spaces, model_config=model), MaskedRandomModule(**spaces)]
    rng = np.random.default_rng(1)
    masks = (rng.random((64, 6)) < 0.4).astype(np.float32)
    masks[np.arange(64), rng.integers(0, 6, 64)] = 1  # at least one legal action each
    observations = rng.random((64, 16)).astype(np.float32)
    for module in modules:
        for forward in (module.forward_exploration, module.forward_inference):
            batch = {
                Columns.OBS: {
                    "observations": torch.from_numpy(observations),
                    "action_mask": torch.from_numpy(masks),
                }
            }
            logits = forward(batch)[Columns.ACTION_DIST_INPUTS]
            for _ in range(20):
                actions = TorchCategorical(logits=logits).sample().numpy()
                assert masks[np.arange(64), actions].all()
            assert masks[np.arange(64), logits.argmax(dim=-1).numpy()].all()


def test_a_short_run_snapshots_main_into_the_league_and_scores_it(tmp_path):
    summary = main(
        ["--iterations", "4", "--batch", "400", "--epochs", "2", "--eval-games", "40"]
        + ["--envs", "4", "--win-rate", "0", "--out", str(tmp_path)]  # 4: games end each batch
    )
    assert summary["iterations"] == 4 and summary["env_steps"] >= 4 * 400
    # main won some game by iteration 2, 3 or 4: a snapshot took random's place in the league
    assert summary["league"][0] == "main_v1" and "random" not in summary["league"]
    assert [s["opponent"] for s in summary["scores"]] == ["random", "greedy"]
    for score in summary["scores"]:
        assert score["wins"] + score["draws"] + score["losses"] == score["games"] == 40
        assert 0 <= score["score"] <= 1
    assert json.loads((tmp_path / "summary.json").read_text()) == summary
    assert len((tmp_path / "history.jsonl").read_text().splitlines()) == 4
    assert any((tmp_path / "checkpoint").iterdir())
