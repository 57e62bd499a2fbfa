"""The learner's games of both PPO routes end where the endgame database knows the result, when
the settings ask for it (`LearnerBatch.adjudicator`, `TrainConfig.adjudication`): the reward of
that result, the end recorded as adjudicated, a new game in the slot, bad settings refused
before anything is written."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mancala_env.cli import main
from mancala_env.endgame.adjudicate import Adjudicator
from mancala_env.learner_batch import LearnerBatch


class Recording:
    """An adjudicator that keeps the verdicts it gave, step by step."""

    def __init__(self, adjudicator: Adjudicator) -> None:
        self.adjudicator, self.given = adjudicator, []

    def verdicts(self, states: np.ndarray):  # noqa: ANN201
        verdicts = self.adjudicator.verdicts(states)
        self.given.append(verdicts)
        return verdicts


def played(reward: str, adjudicator=None, steps: int = 400):  # noqa: ANN001, ANN201
    """`steps` random moves of the learner in 16 games against random play: every step's
    rewards and ends, and the batch."""
    batch = LearnerBatch("oware", 16, opponent="random", seed=3, reward=reward)
    batch.adjudicator = adjudicator
    batch._start(3)
    rng = np.random.default_rng(0)
    history = []
    for _ in range(steps):
        masks = batch.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        _, rewards, dones, ends = batch._advance(actions)
        history.append((rewards.copy(), dones.copy(), ends))
    return history, batch


def test_a_game_ends_at_the_database_with_its_result_and_a_new_game_starts(oware_db):
    recording = Recording(Adjudicator(oware_db, "all"))
    history, batch = played("win_loss", recording)
    adjudicated = 0
    for (rewards, dones, ends), verdicts in zip(history, recording.given, strict=True):
        for row, seat, winner, reason in zip(ends.rows, ends.seats, ends.winners, ends.reasons,
                                             strict=True):  # fmt: skip
            assert dones[row]
            if reason != "adjudicated":
                continue
            adjudicated += 1
            assert verdicts.covered[row] and winner == verdicts.winner[row]
            assert rewards[row] == (0.0 if winner < 0 else 1.0 if winner == seat else -1.0)
    assert adjudicated > 10
    # the slots hold games going on, none of them at a position the database knows
    assert not Adjudicator(oware_db, "all").verdicts(batch.games.states).covered.any()
    assert (batch.games.to_move == batch.seats).all()
    # played out, the same games never end by adjudication
    reasons = {r for _, _, ends in played("win_loss")[0] for r in ends.reasons}
    assert "adjudicated" not in reasons and reasons


def test_a_score_reward_adds_up_to_the_seed_difference_the_database_gives(oware_db):
    recording = Recording(Adjudicator(oware_db, "all"))
    history, _ = played("score", recording)
    paid = np.zeros(16)
    checked = 0
    for (rewards, dones, ends), verdicts in zip(history, recording.given, strict=True):
        paid += rewards
        for row, seat, reason in zip(ends.rows, ends.seats, ends.reasons, strict=True):
            if reason == "adjudicated":
                scores = verdicts.scores[row]
                assert paid[row] * 48 == pytest.approx(scores[seat] - scores[1 - seat], abs=1e-4)
                checked += 1
        paid[dones] = 0.0
    assert checked > 10


TINY = """
timesteps = 512
n_envs = 8
opponents = ["random"]
snapshot_every = 256
eval_every = 512
eval_games = 2
eval_opponents = ["random"]
checkpoint_every = 512
{extra}
[ppo]
n_steps = 32
batch_size = 64
n_epochs = 1
net_arch = [8]
"""


@pytest.mark.parametrize("algo", ["batched-ppo", "ppo"])
def test_both_ppo_routes_train_with_adjudicated_games(oware_db, tmp_path, algo):
    extra = f'endgames = "{oware_db.directory}"\nadjudication = "all"'
    (tmp_path / "tiny.toml").write_text(TINY.format(extra=extra))
    out = tmp_path / "run"
    status = main(["train", "oware", "--algo", algo, "--config", str(tmp_path / "tiny.toml"),
                   "--out", str(out), "--no-progress"])  # fmt: skip
    assert status == 0
    summary = json.loads((out / "run.json").read_text())
    assert summary["config"]["adjudication"] == "all"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('adjudication = "all"', "adjudication needs endgames"),
        ('endgames = "db"\nadjudication = "draws"', "adjudication: the adjudication mode"),
        ('endgames = "{empty}"\nadjudication = "all"', "{empty}"),
    ],
)
@pytest.mark.parametrize("algo", ["batched-ppo", "ppo"])
def test_bad_adjudication_settings_are_refused_before_anything_is_written(
    tmp_path, capsys, extra, message, algo
):
    empty = tmp_path / "empty"
    empty.mkdir()
    config = tmp_path / "bad.toml"
    config.write_text(TINY.format(extra=extra.format(empty=empty)))
    out = tmp_path / "run"
    status = main(["train", "oware", "--algo", algo, "--config", str(config), "--out", str(out),
                   "--no-progress"])  # fmt: skip
    err = capsys.readouterr().err
    assert status == 2 and message.format(empty=empty) in err, err
    assert len(err.strip().splitlines()) == 1
    assert not out.exists()
