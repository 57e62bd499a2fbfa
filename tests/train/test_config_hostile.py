"""Both recipes' TOML settings, hostile: every numeric setting has a range, checked where the
setting is declared, before the run makes its folder; a value the run would refuse later (the
evaluation's tournament, a minibatch larger than what it is drawn from, weights no float holds)
is refused at once, with one line. A run whose weights stop being finite writes no checkpoint
of them."""

from __future__ import annotations

import contextlib
import io
import json
import math
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")

import torch  # noqa: E402
from hypothesis import HealthCheck, event, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from strategies import examples  # noqa: E402

from mancala_env.agents.tournament import MAX_GAMES, TournamentConfig  # noqa: E402
from mancala_env.cli import main  # noqa: E402
from mancala_env.train.az.config import AZConfig, load_az_config  # noqa: E402
from mancala_env.train.config import PPOSettings, TrainConfig, load_config  # noqa: E402

# the settings of a run that is over in seconds (the tests' tiny runs)
AZ_TINY = dict(positions=12, generation=12, games=3, workers=1, teacher_depth=1, random_plies=4,
               buffer=100, fit_steps=3, batch_size=8, hidden=[8], eval_every=100,
               eval_depths=[1], eval_games=2, device="cpu")  # fmt: skip
PPO_TINY = dict(timesteps=64, n_envs=4, opponents=["random"], self_share=0.0, snapshot_every=64,
                pool_size=2, eval_every=64, eval_games=2, eval_opponents=["random"],
                checkpoint_every=64,
                ppo=dict(n_steps=16, batch_size=32, n_epochs=1, net_arch=[8]))  # fmt: skip


def toml_value(value: Any) -> str:
    """`value` written as TOML (inline tables for tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return "nan" if math.isnan(value) else repr(value)  # inf and -inf as TOML writes them
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


def toml_text(settings: dict[str, Any]) -> str:
    return "".join(f"{json.dumps(key)} = {toml_value(value)}\n" for key, value in settings.items())


def train_command(argv: list[str]) -> tuple[int, list[str]]:
    """``mancala train ARGV``: its exit status and its lines on standard error (without the
    note that kernels are being compiled, which only a cold cache prints)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = main(["train", *argv, "--no-progress"])
    lines = [line for line in err.getvalue().splitlines() if line.strip()]
    return status, [line for line in lines if not line.startswith("mancala_env: compiling")]


def refused_without_a_folder(tmp_path: Path, recipe: str, settings: dict[str, Any]) -> str:
    """Run ``mancala train oware`` with `settings` as its config; assert it is refused with
    one line and makes no --out folder; the line."""
    config = tmp_path / "settings.toml"
    config.write_text(toml_text(settings))
    out = tmp_path / "run"
    status, lines = train_command(["oware", "--algo", recipe, "--config", str(config), "--out",
                                   str(out)])  # fmt: skip
    assert status == 2 and len(lines) == 1, lines
    assert lines[0].startswith("mancala train: error: ") and not out.exists(), lines
    return lines[0]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        # the evaluation's tournament would refuse these after a generation was written
        ({"eval_games": 2**52}, "eval_games must be an integer from 2 to 100,000 (an evaluation"),
        (
            {"eval_games": 60_000, "eval_depths": [1, 2]},
            "eval_games must be an integer from 2 to 50,000 (an evaluation plays at most",
        ),
        ({"eval_depths": [1, 1]}, "eval_depths must differ; given more than once: 1"),
        ({"weight_decay": 1e300}, "weight_decay must be a number from 0 to 1, got 1e+300"),
        ({"learning_rate": 5.0}, "learning_rate must be a number above 0 and at most 1, got 5.0"),
        ({"final_learning_rate": 2.0}, "final_learning_rate must be a number above 0 and at most"),
        ({"batch_size": 10**9}, "batch_size must be an integer from 2 to 100 (a minibatch is"),
        ({"fit_steps": 2**40}, "fit_steps must be an integer from 1 to 1,000,000"),
        ({"buffer": 2**40}, "buffer must be an integer from 2 to 67,108,864"),
        ({"generation": 2**40}, "generation must be an integer from 1 to 67,108,864"),
    ],
)
def test_a_bad_az_setting_is_refused_by_name_before_the_folder_is_made(tmp_path, changes, message):
    """`eval_games = 2**52` used to be refused by the first evaluation, after the run's folder
    and its first checkpoint were written; weight decay 1e300 trained to a checkpoint of
    non-finite weights; a minibatch of 10**9 was drawn from a buffer of 100."""
    line = refused_without_a_folder(tmp_path, "az", {**AZ_TINY, **changes})
    assert message in line, line


@pytest.mark.parametrize(
    ("changes", "ppo", "message"),
    [
        ({"eval_games": 2**52}, {}, "eval_games must be an integer from 2 to 100,000 (an eval"),
        ({"eval_opponents": []}, {}, "eval_opponents must name 1 or more different baselines"),
        ({"eval_opponents": ["random", "random"]}, {}, "given more than once: random"),
        ({"eval_opponents": ["self"]}, {}, "eval_opponents must name 1 or more different"),
        ({"pool_size": 10**9}, {}, "pool_size must be an integer from 1 to 1,000"),
        ({"n_envs": 1_000_000}, {"n_steps": 2**40}, "n_steps must be an integer from 1 to"),
        ({"n_envs": 1_000_000}, {"n_steps": 64}, "a rollout must hold from 2 to 4,194,304 moves"),
        ({}, {"batch_size": 10**9}, "batch_size must be an integer from 2 to 4,194,304"),
        ({}, {"batch_size": 1000}, "batch_size 1000 is more than a rollout's 64 moves"),
        ({}, {"learning_rate": 1e300}, "learning_rate must be a number above 0 and at most 1"),
        ({}, {"clip_range": 7.0}, "clip_range must be a number above 0 and at most 1, got 7.0"),
        ({}, {"ent_coef": 1e300}, "ent_coef must be a number from 0 to 1, got 1e+300"),
        ({}, {"n_epochs": 2**50}, "n_epochs must be an integer from 1 to 1,000"),
    ],
)
def test_a_bad_ppo_setting_is_refused_by_name_before_the_folder_is_made(
    tmp_path, changes, ppo, message
):
    """`batch_size = 10**9` used to run (sb3 cuts a minibatch to the rollout); a learning rate
    of 1e300, an empty or repeated `eval_opponents` and an `eval_games` of 2**52 were refused
    after the run's folder was made."""
    settings = {**PPO_TINY, **changes, "ppo": {**PPO_TINY["ppo"], **ppo}}
    line = refused_without_a_folder(tmp_path, "ppo", settings)
    assert message in line, line


def test_a_buffer_a_checkpoint_could_not_keep_is_refused_before_the_folder_is_made(tmp_path):
    """10 Mighty Men's positions take 469 bytes each: 20 million of them are more than a
    checkpoint's kept positions may be (8 GiB), so the run could never be resumed."""
    from mancala_env.train.az.run import train_az

    config = AZConfig(**{**AZ_TINY, "buffer": 20_000_000})
    with pytest.raises(ValueError, match="buffer 20,000,000 holds positions of 469 bytes") as no:
        train_az("mighty_men", config, tmp_path / "run", progress=False)
    assert "\n" not in str(no.value) and not (tmp_path / "run").exists()


def test_the_settings_of_the_shipped_configs_are_in_their_ranges():
    from mancala_env.train.az.config import CONFIGS

    for path in CONFIGS.glob("**/*.toml"):
        load_az_config("oware", path)
    for variant in ("oware", "ayoayo", "obridjie"):
        load_config(variant)
    assert AZConfig(learning_rate=1, weight_decay=1, batch_size=2, buffer=2).weight_decay == 1


# ---- weights that stop being finite ---------------------------------------------------------


def test_an_az_run_whose_weights_stop_being_finite_writes_no_checkpoint(tmp_path, monkeypatch):
    """A fit that leaves an infinite weight stops the run with one line (exit status 1); the
    checkpoint of the generation before is the newest, and no file of the broken one is
    written."""
    from mancala_env.train.az import run as az_run

    fit = az_run.fit
    fits = []

    def fit_then_break(net, *args, **kwargs):
        losses = fit(net, *args, **kwargs)
        fits.append(1)
        if len(fits) == 2:
            with torch.no_grad():
                net.policy.weight[0, 0] = math.inf
        return losses

    monkeypatch.setattr(az_run, "fit", fit_then_break)
    config = tmp_path / "az.toml"
    config.write_text(toml_text({**AZ_TINY, "positions": 36}))
    out = tmp_path / "run"
    status, lines = train_command(["oware", "--algo", "az", "--config", str(config), "--out",
                                   str(out)])  # fmt: skip
    assert status == 1 and len(lines) == 1, lines
    assert "weights are no longer finite after generation 2" in lines[0], lines
    names = sorted(path.name for path in (out / "checkpoints").iterdir())
    assert names == ["gen_1.buffer.npz", "gen_1.json", "gen_1.npz", "gen_1.pt"]
    assert not (out / "final.npz").exists()


def test_a_ppo_model_of_weights_that_are_not_finite_is_not_saved(tmp_path):
    from mancala_env.train.files import TrainingDiverged, save_model

    class Model:
        def __init__(self) -> None:
            self.policy = torch.nn.Linear(2, 2)

        def save(self, buffer: io.BytesIO) -> None:
            buffer.write(b"a model")

    model = Model()
    save_model(model, tmp_path / "good.zip")
    with torch.no_grad():
        model.policy.bias[1] = math.nan
    with pytest.raises(TrainingDiverged, match="weights are no longer finite"):
        save_model(model, tmp_path / "bad.zip")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["good.zip"]


# ---- the property: any config is run or refused in one line, nothing written ----------------


class Reached(Exception):
    """The run got past every check of its settings, to where it plays its first games."""


HOSTILE = st.one_of(
    st.sampled_from([0, -1, 1, 2, 3, 7, 2**31, 2**52, 2**53 + 1, 2**63 - 1, 10**9, -(2**63)]),
    st.integers(-(2**63), 2**63 - 1),
    st.sampled_from([0.0, -0.0, 0.5, 1.0, 1.5, 1e-300, 1e300, -1e300, math.inf, -math.inf]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=6),
    st.lists(st.one_of(st.integers(-3, 2**40), st.text(max_size=3), st.floats()), max_size=4),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
SPECS = st.sampled_from(["random", "greedy", "alphabeta:depth=1", "self"])


def near(default: Any) -> st.SearchStrategy[Any]:
    """Values of a setting's type about its `default`, many of them in its range."""
    if isinstance(default, bool):
        return st.booleans()
    if isinstance(default, int) or default is None:  # None: teacher_nodes, a count
        return st.integers(0, 2 * (default or 50) + 4)
    if isinstance(default, float):
        return st.floats(0, 2 * default + 1)
    if isinstance(default, list):
        items = SPECS if default and isinstance(default[0], str) else near(max(default, default=4))
        return st.lists(items, max_size=len(default) + 1)
    return st.sampled_from([default, "", "cpu", "random", "oware"])


def changed(
    base: dict[str, Any], defaults: dict[str, Any], unknown: list[str]
) -> st.SearchStrategy[dict[str, Any]]:
    """`base` with one setting of `defaults` set to a value about its default, or with one to
    three settings (or `unknown` names) set to hostile values."""
    one_near = st.sampled_from(sorted(defaults)).flatmap(
        lambda key: near(defaults[key]).map(lambda value: {key: value})
    )
    hostile = st.dictionaries(st.sampled_from([*defaults, *unknown]), HOSTILE, min_size=1,
                              max_size=3)  # fmt: skip
    return st.one_of(one_near, hostile).map(lambda changes: {**base, **changes})


AZ_SETTINGS = changed(AZ_TINY, AZConfig().to_json(), ["depth", "ppo", ""])
PPO_DEFAULTS = {key: value for key, value in TrainConfig().to_json().items() if key != "ppo"}
PPO_SETTINGS = st.one_of(
    changed(PPO_TINY, PPO_DEFAULTS, ["ppo", "learning_rat", ""]),
    changed(PPO_TINY["ppo"], TrainConfig().to_json()["ppo"], ["n_step"]).map(
        lambda ppo: {**PPO_TINY, "ppo": ppo}
    ),
)


def gauntlet(learner: str, baselines: list[str], games: int) -> None:
    """The tournament of an evaluation: ValueError when it would be refused."""
    TournamentConfig("oware", (learner, *baselines), games_per_pair=games, format="gauntlet",
                     identities=("learner", *baselines))  # fmt: skip


def check_run_or_refusal(recipe: str, settings: dict[str, Any]) -> None:
    """`settings` either pass every check (the patched run stops at its first games; then what
    training needs of them holds), or are refused in one line with no folder made."""
    with tempfile.TemporaryDirectory() as folder:
        config, out = Path(folder) / "settings.toml", Path(folder) / "run"
        config.write_text(toml_text(settings))
        try:
            status, lines = train_command(["oware", "--algo", recipe, "--config", str(config),
                                           "--out", str(out)])  # fmt: skip
        except Reached:
            event("accepted")
            accepted = (load_az_config if recipe == "az" else load_config)("oware", config)
        else:
            event("refused")
            assert status == 2 and len(lines) == 1, lines
            assert lines[0].startswith("mancala train: error: ") and not out.exists(), lines
            return
    values = accepted.to_json()
    floats = [v for v in [*values.values(), *values.get("ppo", {}).values()] if type(v) is float]
    assert all(math.isfinite(v) for v in floats), values
    if recipe == "az":
        assert 2 <= accepted.batch_size <= accepted.buffer
        assert accepted.learning_rate * accepted.weight_decay <= 1  # AdamW keeps a weight's sign
        gauntlet("az:learner.npz", [f"alphabeta:depth={d}" for d in accepted.eval_depths],
                 accepted.eval_games)  # fmt: skip
    else:
        assert 2 <= accepted.ppo.batch_size <= accepted.rollout
        gauntlet("ppo:learner.zip", accepted.eval_opponents, accepted.eval_games)


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])  # fmt: skip
@given(settings=AZ_SETTINGS)
def test_any_az_config_runs_or_is_refused_in_one_line_before_a_file_is_written(
    monkeypatch, settings
):
    from mancala_env.train.az import run as az_run

    def first_games(*args, **kwargs):
        raise Reached

    monkeypatch.setattr(az_run, "_workers", first_games)
    check_run_or_refusal("az", settings)


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])  # fmt: skip
@given(settings=PPO_SETTINGS)
def test_any_ppo_config_runs_or_is_refused_in_one_line_before_a_file_is_written(
    monkeypatch, settings
):
    from sb3_contrib import MaskablePPO

    def first_games(*args, **kwargs):
        raise Reached

    monkeypatch.setattr(MaskablePPO, "learn", first_games)
    check_run_or_refusal("ppo", settings)


def test_the_tiny_settings_are_accepted_as_they_are():
    """The property tests' base settings reach the run's first games."""
    assert AZConfig(**AZ_TINY).eval_games == 2
    config = TrainConfig(**{**PPO_TINY, "ppo": PPOSettings(**PPO_TINY["ppo"])})
    assert replace(config, eval_games=MAX_GAMES).eval_games == MAX_GAMES
