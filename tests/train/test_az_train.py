"""``mancala train --algo az``: the teacher's labels, a short run of every rule set, resuming,
and the errors of bad settings and checkpoints."""

import json
import shutil

import numpy as np
import pytest

pytest.importorskip("torch")

from mancala_env import Game  # noqa: E402
from mancala_env.agents.alphabeta import AlphaBetaAgent  # noqa: E402
from mancala_env.agents.network import read_network  # noqa: E402
from mancala_env.engine import layout as L  # noqa: E402
from mancala_env.machine import describe_machine  # noqa: E402
from mancala_env.train.az.config import CONFIGS, AZConfig, load_az_config  # noqa: E402
from mancala_env.train.az.games import Teacher, _targets  # noqa: E402
from mancala_env.train.az.run import TimeBudget, train_az  # noqa: E402
from mancala_env.train.cli import main  # noqa: E402
from mancala_env.train.run import NothingToDo  # noqa: E402
from mancala_env.variants import VARIANTS  # noqa: E402


def tiny(**changes) -> AZConfig:
    """A run of two generations of a few positions, labelled and evaluated at depth 1, in this
    process, at a learning rate that stays (a run of fewer positions fits the same way)."""
    settings = dict(positions=24, generation=12, games=3, workers=1, teacher_depth=1,
                    random_plies=4, buffer=100, fit_steps=3, batch_size=8, hidden=[8],
                    eval_every=100, eval_depths=[1], eval_games=2,
                    final_learning_rate=None)  # fmt: skip
    return AZConfig(**{**settings, **changes})


def test_the_teacher_values_each_move_as_a_search_from_its_child():
    game = Game("oware")
    game.reset(np.random.default_rng(5))
    for action in (2, 4, 1):
        game.step(action)
    teacher = Teacher(game, depth=3, endgames=None, nodes=None)
    values = teacher.move_values(game)
    search = AlphaBetaAgent(depth=3)
    root_value, best = search.search(game, 3)
    legal = game.legal_mask().astype(bool)
    assert np.all(np.isnan(values[~legal])) and not np.any(np.isnan(values[legal]))
    assert np.isclose(np.nanmax(values), root_value)  # the best move's value is the root's
    assert values[best] == np.nanmax(values)
    policy, value = _targets(values, tiny(temperature=1.0, value_scale=8.0))
    assert np.isclose(policy.sum(), 1) and np.all(policy[~legal] == 0)
    assert np.argmax(policy) == best
    assert np.isclose(value, np.tanh(root_value / 8))


def test_a_teacher_out_of_positions_keeps_the_deepest_valuation_it_finished():
    # 10 Mighty Men's first move: one player places ten pieces in a row, so alpha-beta cuts
    # nothing (every line is the same player's) and each ply deeper costs twelve times more.
    game = Game("mighty_men")
    game.reset(np.random.default_rng(0))
    assert game.state[L.PHASE] == L.PHASE_PLACE and len(game.legal_actions()) == 12
    by_depth = {depth: Teacher(game, depth, None, None).move_values(game) for depth in (1, 2)}
    deepening = Teacher(game, depth=2, endgames=None, nodes=10**9)
    assert np.array_equal(deepening.move_values(game), by_depth[2], equal_nan=True)
    spent = deepening.last_nodes  # depths 1 and 2
    assert spent > 12
    budgeted = Teacher(game, depth=6, endgames=None, nodes=1)  # depth 1 makes no positions
    assert np.array_equal(budgeted.move_values(game), by_depth[1], equal_nan=True)
    budgeted = Teacher(game, depth=6, endgames=None, nodes=spent)  # enough for depth 2 only
    assert np.array_equal(budgeted.move_values(game), by_depth[2], equal_nan=True)
    assert budgeted.last_nodes == spent


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_short_run_of_every_rule_set_writes_a_network_that_plays(tmp_path, variant):
    result = train_az(variant, tiny(), tmp_path / "run", seed=1, progress=False)
    assert result.generations == 2 and result.positions >= 24
    network, _ = read_network(result.final_network)
    network.check_game(Game(variant), "final")
    last = result.evaluations[-1]
    score, low, high = last["scores"]["alphabeta:depth=1"]
    assert 0 <= low <= score <= high <= 1
    lines = (tmp_path / "run" / "evaluations.jsonl").read_text().splitlines()
    assert json.loads(lines[-1]) == last
    summary = json.loads((tmp_path / "run" / "run.json").read_text())
    assert summary["generations"] == 2 and not summary["interrupted"]


def test_a_resumed_run_fits_the_same_network_as_one_run(tmp_path):
    whole = train_az("oware", tiny(positions=36), tmp_path / "whole", seed=3, progress=False)
    first = train_az("oware", tiny(positions=12), tmp_path / "parts", seed=3, progress=False)
    checkpoint = tmp_path / "parts" / "checkpoints" / "gen_1.npz"
    assert first.generations == 1 and checkpoint.exists()
    rest = train_az("oware", tiny(positions=36), tmp_path / "parts", seed=3, resume=checkpoint,
                    progress=False)  # fmt: skip
    assert rest.generations == whole.generations == 3
    assert rest.positions == whole.positions
    assert rest.final_network.read_bytes() == whole.final_network.read_bytes()
    # only the two newest checkpoints keep their optimiser state and buffer
    kept = sorted(p.name for p in (tmp_path / "parts" / "checkpoints").glob("*.pt"))
    assert kept == ["gen_2.pt", "gen_3.pt"]
    with pytest.raises(NothingToDo, match="meets the 36 asked for"):
        train_az("oware", tiny(positions=36), tmp_path / "parts", resume=checkpoint.with_name(
            "gen_3.npz"), progress=False)  # fmt: skip


def test_a_run_started_from_a_network_begins_with_its_weights(tmp_path):
    from mancala_env.train.az.run import _Run

    earlier = train_az("oware", tiny(positions=12), tmp_path / "earlier", seed=1, progress=False)
    network, _ = read_network(earlier.final_network)
    run = _Run("oware", {}, tiny(), seed=2)
    assert not np.array_equal(run.net.network().layers[0][0], network.layers[0][0])
    run.start_from(earlier.final_network)
    started = run.net.network()
    for a, b in zip([*started.layers, started.policy, started.value],
                    [*network.layers, network.policy, network.value], strict=True):  # fmt: skip
        np.testing.assert_array_equal(a[0], b[0])
        np.testing.assert_array_equal(a[1], b[1])
    later = train_az("oware", tiny(positions=12), tmp_path / "later", seed=2,
                     init=earlier.final_network, progress=False)  # fmt: skip
    summary = json.loads((tmp_path / "later" / "run.json").read_text())
    assert later.generations == 1 and summary["init"] == str(earlier.final_network)
    with pytest.raises(
        ValueError, match=r"--init: .* has hidden \[8\], and this run's network \[16\]"
    ):
        train_az("oware", tiny(hidden=[16]), tmp_path / "wider", init=earlier.final_network,
                 progress=False)  # fmt: skip
    with pytest.raises(ValueError, match="has variant oware, and this run's network ayoayo"):
        train_az("ayoayo", tiny(), tmp_path / "other", init=earlier.final_network,
                 progress=False)  # fmt: skip
    checkpoint = tmp_path / "later" / "checkpoints" / "gen_1.npz"
    with pytest.raises(ValueError, match="--resume continues a run and --init starts a new one"):
        train_az("oware", tiny(), tmp_path / "later", init=earlier.final_network,
                 resume=checkpoint, progress=False)  # fmt: skip
    assert not (tmp_path / "wider").exists() and not (tmp_path / "other").exists()


def test_a_run_refuses_a_folder_of_another_run_and_a_broken_checkpoint(tmp_path):
    train_az("oware", tiny(positions=12), tmp_path / "run", progress=False)
    with pytest.raises(ValueError, match="--resume .*gen_1.npz.*or start a new one"):
        train_az("oware", tiny(), tmp_path / "run", progress=False)
    checkpoint = tmp_path / "run" / "checkpoints" / "gen_1.npz"
    with pytest.raises(ValueError, match="is a checkpoint of oware, not of ayoayo"):
        train_az("ayoayo", tiny(), tmp_path / "run", resume=checkpoint, progress=False)
    buffer = checkpoint.with_suffix(".buffer.npz")
    kept = buffer.read_bytes()
    np.savez(buffer, observations=np.zeros((3, 5), np.int16), legal=np.ones((3, 6), bool),
             policy=np.zeros((3, 6), np.float32), value=np.zeros(3, np.float32))  # fmt: skip
    with pytest.raises(ValueError, match=r"observations is int16 of shape \(3, 5\)"):
        train_az("oware", tiny(), tmp_path / "run", resume=checkpoint, progress=False)
    buffer.write_bytes(kept)
    checkpoint.with_suffix(".pt").write_bytes(b"garbage")
    with pytest.raises(ValueError, match="cannot resume from"):
        train_az("oware", tiny(), tmp_path / "run", resume=checkpoint, progress=False)
    checkpoint.with_suffix(".pt").unlink()
    with pytest.raises(ValueError, match="missing: gen_1.pt"):
        train_az("oware", tiny(), tmp_path / "run", resume=checkpoint, progress=False)


@pytest.mark.parametrize(
    "text, message",
    [
        ("positions = 0", "positions must be an integer from 1 to"),
        ("games = 1000000000", "games must be an integer from 1 to 1,000,000"),
        ("workers = 100000", "workers must be an integer from 1 to 1,024"),
        ("teacher_depth = 1000", "teacher_depth must be an integer from 1 to 64"),
        ("eval_depths = [99]", "each of eval_depths must be an integer from 1 to 64"),
        ("generation = true", "generation must be an integer"),
        ("eval_games = 3", "eval_games must be even"),
        ("temperature = 0", "temperature must be a number above 0"),
        ("teacher_nodes = 0", "teacher_nodes must be an integer from 1 to"),
        ("hidden = []", "hidden must be a list of positive integers"),
        ("opponents = []", "opponents must be a list of agent specs"),
        ("learning_rate = 'fast'", "learning_rate must be a number"),
        ("depth = 3", "unknown setting.*depth"),
        ("device = 'tpu'", "device must be one of auto, cpu, cuda"),
        ("targets = 'oracle'", "targets must be one of teacher, search"),
        ("search = 'beam'", "search must be one of puct, gumbel"),
        ("simulations = 0", "simulations must be an integer from 1 to 10,000"),
        ("considered = 1000", "considered must be an integer from 1 to 256"),
    ],
)
def test_bad_settings_are_refused_by_name(tmp_path, text, message):
    path = tmp_path / "az.toml"
    path.write_text(text + "\n")
    with pytest.raises(ValueError, match=message):
        load_az_config("oware", path)


def test_the_shipped_configs_load():
    config = load_az_config("oware")
    assert config.teacher_depth >= 6 and config.eval_depths == [1, 2, 3, 4, 5, 6]
    shipped = {path.stem for path in CONFIGS.glob("*.toml")}
    assert shipped == set(VARIANTS) - {"kpo"}  # a file for every rule set but Kpo
    for name in shipped:
        assert load_az_config(name).positions > 0, name
    assert load_az_config("kpo") == AZConfig()  # no file (it plays Oware's network): defaults


def test_the_continued_oware_config_goes_on_from_the_first_stage_learning_rate():
    first = load_az_config("oware").to_json()
    second = load_az_config("oware", CONFIGS / "continued" / "oware.toml").to_json()
    changed = {key for key in first if first[key] != second[key]}
    assert changed == {"positions", "learning_rate", "final_learning_rate", "eval_every"}
    assert second["learning_rate"] == first["final_learning_rate"]
    assert second["final_learning_rate"] < second["learning_rate"]


def test_the_command_line_trains_and_says_how_to_play_the_network(tmp_path, capsys):
    config = tmp_path / "az.toml"
    config.write_text(
        "positions = 12\ngeneration = 12\ngames = 2\nworkers = 1\nteacher_depth = 1\n"
        "fit_steps = 2\nbatch_size = 4\nhidden = [4]\neval_depths = [1]\neval_games = 2\n"
    )
    out = tmp_path / "run"
    code = main(["oware", "--algo", "az", "--config", str(config), "--out", str(out),
                 "--no-progress", "--option", "grand_slam=capture"])  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    assert f"play it: --agents az:{out / 'final.npz'}" in printed
    assert "against alphabeta:depth=1" in printed
    summary = json.loads((out / "run.json").read_text())
    assert summary["options"] == {"grand_slam": "capture"}
    evaluation = json.loads((out / "evaluations.jsonl").read_text().splitlines()[-1])
    assert evaluation["machine"] == describe_machine()
    assert main(["oware", "--option", "grand_slam=capture", "--out", str(tmp_path / "p")]) == 2
    assert "--option, --endgames and --init are read by --algo az only" in capsys.readouterr().err
    assert main(["oware", "--backend", "ray", "--out", str(tmp_path / "p")]) == 2
    assert (
        "--backend and --ray-address are read by --algo az and --algo batched-ppo"
        in capsys.readouterr().err
    )


def test_the_resume_command_keeps_the_backend():
    import argparse
    import shlex
    from pathlib import Path

    from mancala_env.train.cli import add_arguments, resume_command

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["ayoayo", "--algo", "az", "--backend", "ray", "--ray-address",
                              "auto"])  # fmt: skip
    words = shlex.split(resume_command(args, Path("runs/ayoayo-az/checkpoints/gen_3.npz")))
    assert words[words.index("--backend") + 1] == "ray"
    assert words[words.index("--ray-address") + 1] == "auto"
    local = parser.parse_args(["ayoayo", "--algo", "az"])
    assert "--backend" not in resume_command(local, Path("gen_3.npz"))


@pytest.mark.parametrize(
    ("given", "seconds_used", "left"),
    [(23, 0, "23.0"), (23, 600, "13.0"), (0.3, 0, "0.3"), (0.05, 0, "0.05"), (10, 3, "9.95"),
     (2.3, 12, "2.1"), (10, 17.9 * 60 + 30, "0.01"), (37, 14 * 60 + 59, "22.01"),
     (100_000, 60, "99999.0")],
)  # fmt: skip
def test_the_resume_command_asks_for_the_minutes_left(given, seconds_used, left):
    """--max-minutes counts one invocation, so the command that continues a run stopped after
    `seconds_used` asks for what was left (rounded down to a hundredth; 0.01 at least)."""
    import argparse
    import shlex
    from pathlib import Path

    from mancala_env.train.cli import add_arguments, resume_command

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["oware", "--algo", "az", "--max-minutes", str(given)])
    words = shlex.split(resume_command(args, Path("gen_3.npz"), seconds_used))
    assert words[words.index("--max-minutes") + 1] == left
    no_limit = parser.parse_args(["oware", "--algo", "az"])
    assert "--max-minutes" not in resume_command(no_limit, Path("gen_3.npz"), seconds_used)


@pytest.mark.integration
@pytest.mark.parametrize("targets", ["teacher", "search"])
def test_the_first_generation_on_ray_is_the_one_on_local_processes(tmp_path, targets):
    """The same seed gives the same positions, labels and network whether the two workers'
    shares are played in two local processes or as Ray tasks (here a local Ray instance the
    run finds open and leaves open), with the teacher's labels and with self-play's."""
    import ray

    config = tiny(positions=12, workers=2, targets=targets, simulations=8)
    train_az("oware", config, tmp_path / "local", seed=4, progress=False)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        train_az("oware", config, tmp_path / "ray", seed=4, progress=False, backend="ray")
        assert ray.is_initialized()
    finally:
        ray.shutdown()
    kept = {}
    for where in ("local", "ray"):
        path = tmp_path / where / "checkpoints" / "gen_1.buffer.npz"
        with np.load(path, allow_pickle=False) as saved:
            kept[where] = {name: saved[name] for name in saved.files}
    assert len(kept["ray"]["value"]) >= 12
    assert kept["ray"].keys() == kept["local"].keys()
    for name, array in kept["local"].items():
        assert np.array_equal(kept["ray"][name], array), name
    networks = [(tmp_path / where / "final.npz").read_bytes() for where in ("local", "ray")]
    assert networks[0] == networks[1]
    summary = json.loads((tmp_path / "ray" / "run.json").read_text())
    assert summary["backend"] == "ray"


def test_the_learning_rate_falls_to_its_final_value_over_the_budget():
    config = tiny(positions=1000, learning_rate=1e-3, final_learning_rate=1e-4)
    assert config.learning_rate_at(0) == 1e-3
    assert np.isclose(config.learning_rate_at(500), 5.5e-4)
    assert np.isclose(config.learning_rate_at(2000), 1e-4)
    assert tiny(learning_rate=2e-3).learning_rate_at(10**6) == 2e-3
    with pytest.raises(ValueError, match="final_learning_rate must be a number above 0"):
        tiny(final_learning_rate=0)


def test_a_run_stopped_before_its_positions_says_where_its_learning_rate_was():
    from mancala_env.train.cli import stopped_early_lines

    config = tiny(positions=1000, learning_rate=1e-3, final_learning_rate=1e-4)
    (line,) = stopped_early_lines(config, 500)
    assert "stopped at 500 of 1,000 positions" in line
    assert "fallen to 5.5e-04, not to its final 1.0e-04" in line
    assert stopped_early_lines(config, 1000) == []
    assert stopped_early_lines(tiny(positions=1000, final_learning_rate=None), 500) == []


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"hidden": [100_000, 100_000]}, r"hidden \[100000, 100000\] makes a network of"),
        ({"opponents": ["human"]}, "opponents: bad agent spec 'human': a training run has no one"),
        ({"opponents": ["bogus"]}, "opponents: bad agent spec 'bogus'"),
        ({"opponents": ["alphabeta:depth=99"]}, "must be an integer from 1 to 64"),
        ({"opponents": ["az:nowhere.npz"]}, "opponents: no network at 'nowhere.npz'"),
        ({"eval_suite": "ayoayo"}, "eval_suite: .*the opening suite is for ayoayo, not oware"),
        ({"eval_suite": "missing.json"}, "eval_suite 'missing.json' is neither"),
        ({"endgames": "no-such-folder"}, "endgames: no-such-folder is not a directory"),
    ],
)
def test_settings_are_checked_before_the_run_writes_a_file(tmp_path, changes, message):
    out = tmp_path / "run"
    with pytest.raises(ValueError, match=message) as refused:
        train_az("oware", tiny(**changes), out, progress=False)
    assert "\n" not in str(refused.value)
    assert not out.exists()


@pytest.fixture(scope="module")
def grand_slam_run(tmp_path_factory):
    """A run of one generation under an option, for the tests to edit copies of."""
    out = tmp_path_factory.mktemp("grand_slam") / "run"
    train_az("oware", tiny(positions=12), out, options={"grand_slam": "capture"}, progress=False)
    return out


def _edit_json(path, change):
    document = json.loads(path.read_text())
    change(document)
    path.write_text(json.dumps(document))


def _edit_buffer(path, change):
    with np.load(path) as saved:
        arrays = {name: saved[name].copy() for name in saved.files}
    change(arrays)
    np.savez(path, **arrays)


def _edit_network(path):
    network, _ = read_network(path)
    network.policy[1][0] += 1
    path.write_bytes(network.to_bytes())


def _other_network(path):
    from mancala_env.train.az.run import _Run

    run = _Run("oware", {"grand_slam": "capture"}, tiny(hidden=[9]), seed=0)
    path.write_bytes(run.net.network().to_bytes())


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda s, b: _edit_json(s, lambda d: d.update(generation=2**70)), "generation must be"),
        (lambda s, b: _edit_json(s, lambda d: d.update(generation=True)), "generation must be"),
        (lambda s, b: _edit_json(s, lambda d: d.update(seconds=float("nan"))), "seconds must be"),
        (lambda s, b: _edit_json(s, lambda d: d.update(positions=-(10**12))), "positions must be"),
        (lambda s, b: _edit_json(s, lambda d: d.update(evaluations=[1])), r"evaluations\[0\] must"),
        (lambda s, b: _edit_json(s, lambda d: d.update(extra=1)), "its fields must be"),
        (
            lambda s, b: _edit_json(s, lambda d: d["evaluations"][0].update(machine=[1])),
            r"evaluations\[0\]\.machine must be a text",
        ),
        (
            lambda s, b: _edit_json(s, lambda d: d["evaluations"][0].update(machine="x" * 201)),
            r"evaluations\[0\]\.machine must be a text of at most 200 characters",
        ),
        (
            lambda s, b: _edit_json(s, lambda d: d["evaluations"][0].update(host="a")),
            r"evaluations\[0\] must be an object of generation, positions, seconds, network, "
            r"scores \(machine optional\)",
        ),
        (lambda s, b: s.write_text("[" * 10_000 + "]" * 10_000), "nests 10000 levels deep"),
        (lambda s, b: _edit_json(s, lambda d: d.update(options={})), "other oware options: grand"),
        (lambda s, b: _edit_json(s, lambda d: d["config"].update(hidden=[9])), "hidden \\[9\\]"),
        (lambda s, b: _edit_buffer(b, lambda a: a["observations"].fill(30_000)), "outside the obs"),
        (lambda s, b: _edit_buffer(b, lambda a: a["policy"].fill(-5)), "not probabilities"),
        (lambda s, b: _edit_buffer(b, lambda a: a["legal"].fill(False)), "has no legal move"),
        (lambda s, b: _edit_buffer(b, lambda a: a.update(extra=np.zeros(1))), "unknown members"),
        # the network file, which a resumed run used not to read (it went on from the .pt)
        (lambda s, b: s.with_suffix(".npz").write_bytes(b"garbage"), r"gen_1\.npz: gen_1\.npz: "),
        (
            lambda s, b: _edit_network(s.with_suffix(".npz")),
            "does not hold the weights of gen_1.pt",
        ),
        (lambda s, b: _other_network(s.with_suffix(".npz")), "is a network of another hidden than"),
    ],
)
def test_a_checkpoint_whose_state_or_kept_positions_are_impossible_is_refused(
    tmp_path, edit, message, grand_slam_run
):
    options = {"grand_slam": "capture"}
    shutil.copytree(grand_slam_run, tmp_path / "run")
    checkpoint = tmp_path / "run" / "checkpoints" / "gen_1.npz"
    edit(checkpoint.with_suffix(".json"), checkpoint.with_suffix(".buffer.npz"))
    before = {p.name: p.read_bytes() for p in checkpoint.parent.iterdir()}
    with pytest.raises(ValueError, match=message) as refused:
        train_az("oware", tiny(), tmp_path / "run", options=options, resume=checkpoint,
                 progress=False)  # fmt: skip
    assert "\n" not in str(refused.value)
    assert {p.name: p.read_bytes() for p in checkpoint.parent.iterdir()} == before


def test_a_checkpoint_from_before_evaluations_named_their_machine_resumes(tmp_path, grand_slam_run):
    shutil.copytree(grand_slam_run, tmp_path / "run")
    checkpoint = tmp_path / "run" / "checkpoints" / "gen_1.npz"
    _edit_json(checkpoint.with_suffix(".json"), lambda d: d["evaluations"][0].pop("machine"))
    train_az("oware", tiny(positions=24), tmp_path / "run", options={"grand_slam": "capture"},
             resume=checkpoint, progress=False)  # fmt: skip
    lines = (tmp_path / "run" / "evaluations.jsonl").read_text().splitlines()
    assert ["machine" in json.loads(line) for line in lines] == [False, True]


def test_a_time_budget_starts_no_generation_that_would_end_past_it():
    """A run given 10 minutes whose generations take 4 stops after two (8 minutes), not after
    the third that would end at 12."""
    budget = TimeBudget(600.0, started=0.0)
    now, generations = 0.0, 0
    while budget.allows_another(now):
        now += 240.0
        budget.generation_ended(now)
        generations += 1
    assert (generations, now) == (2, 480.0)
    unlimited = TimeBudget(None, started=0.0)
    unlimited.generation_ended(1e9)
    assert unlimited.allows_another(2e9)


def test_the_bar_keeps_its_clock_running_while_a_generation_is_played():
    """A worker's share of a generation takes minutes with no update of the bar: meanwhile it
    is redrawn (its elapsed time, what the run is doing), and no longer once the block ends."""
    import io
    import threading

    from tqdm import tqdm

    from mancala_env.train.az.run import _ticking

    out = io.StringIO()
    bar = tqdm(total=10, file=out, desc="az oware")
    bar.set_postfix_str("gen 1: playing and labelling", refresh=False)
    drawn = threading.Event()
    real_refresh = bar.refresh

    def refresh(*args, **kwargs):
        drawn.set()
        return real_refresh(*args, **kwargs)

    bar.refresh = refresh
    with _ticking(bar, every=0.01):
        assert drawn.wait(timeout=30)  # redrawn with no update
        ticking = threading.active_count()
    bar.close()
    assert "gen 1: playing and labelling" in out.getvalue()
    assert threading.active_count() == ticking - 1  # its thread ended with the block
    quiet = tqdm(total=10, file=io.StringIO(), disable=True)
    with _ticking(quiet, every=0.01):  # a bar turned off (--no-progress) gets no thread
        assert threading.active_count() == ticking - 1
