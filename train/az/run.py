"""`train_az(...)`: one expert-iteration run (``mancala train VARIANT --algo az``), or its
continuation.

A generation: the workers play and label `AZConfig.generation` positions with the newest
network (`games.play_and_label`; with ``targets = "search"``, `self_play.play_with_search`);
the newest `buffer` positions are kept; the network is fitted for `fit_steps` minibatches; a
checkpoint is written. Every `eval_every` generations,
and at the end, the network plays a gauntlet against alpha-beta of each of `eval_depths`
from the rule set's opening suite, both seats (`evaluations.jsonl`, `learning_curve.png`).

A run's folder::

    checkpoints/gen_N.npz          the network after generation N (az:PATH plays it)
    checkpoints/gen_N.json         the run's state then: resume with --resume gen_N.npz
    checkpoints/gen_N.pt           the fitted weights and the optimiser's state (tensors only)
    checkpoints/gen_N.buffer.npz   the positions kept
    evaluations/gen_N.sqlite       each evaluation's games (a tournament store)
    evaluations.jsonl              a line an evaluation: scores with 95% intervals
    final.npz                      the last network
    run.json                       the run's settings and how long it took

Only the two newest checkpoints keep their optimiser state and buffer (tens of MB each); every
evaluated generation keeps its network. Training time (``seconds``) counts playing, labelling
and fitting, not the evaluations.
"""

from __future__ import annotations

import dataclasses
import io
import json
import math
import multiprocessing
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from tqdm import tqdm

from mancala_env import Game
from mancala_env.agents.network import (
    MAX_NETWORK_BYTES,
    NetworkError,
    network_meta,
    parse_network,
    read_network,
)
from mancala_env.agents.ppo import ModelLoadError
from mancala_env.agents.tournament import (
    TournamentConfig,
    ray_session,
    run_tournament,
    wilson,
)
from mancala_env.agents.tournament.backends import check_backend
from mancala_env.agents.tournament.openings import read_suite, resolve_suite
from mancala_env.escaping import for_terminal
from mancala_env.inputs import INT32_MAX, integer, number
from mancala_env.machine import describe_machine
from mancala_env.outputs import write_atomically
from mancala_env.readers import NpzArchive, ReadError, parse_json, read_bytes
from mancala_env.variants import get_variant

from ..checks import check_az_settings
from ..config import MAX_COUNT
from ..files import check_finite, claim_folder, write_json
from ..run import NothingToDo, TrainingInterrupted
from .config import AZConfig
from .curve import plot_curve
from .games import BATCH_FIELDS, MAX_BUFFER_BYTES, Batch, Task, play_and_label
from .model import PolicyValueNet, fit
from .self_play import play_with_search

RUN_FILES = (
    "checkpoints",
    "evaluations",
    "evaluations.jsonl",
    "learning_curve.png",
    "final.npz",
    "run.json",
)
KEPT_CHECKPOINTS = 2  # newest checkpoints that keep their optimiser state and buffer
# a checkpoint's tensors: the fitted weights and AdamW's two moments of each, three networks
MAX_TENSOR_BYTES = 4 * MAX_NETWORK_BYTES
SIZE_KEYS = ("variant", "observation_high", "caps", "n_actions", "hidden")  # a network's shape
MAX_STATE_BYTES = 16 * 1024 * 1024  # a checkpoint's state: some kB a hundred evaluations
STATE_FIELDS = ("variant", "options", "seed", "config", "generation", "positions", "games",
                "seconds", "evaluations")  # fmt: skip
EVALUATION_FIELDS = ("generation", "positions", "seconds", "network", "scores")
MACHINE = "machine"  # an evaluation's optional field: what the generations were trained on
MAX_MACHINE_CHARS = 200


def fitting_device(choice: str) -> torch.device:
    """The device the network is fitted on: ``auto`` is the GPU when torch sees one."""
    if choice == "auto":
        choice = "cuda" if torch.cuda.is_available() else "cpu"
    if choice == "cuda" and not torch.cuda.is_available():
        raise ValueError("device is cuda, but torch sees no GPU (use auto or cpu)")
    return torch.device(choice)


@dataclass
class AZResult:
    out: Path
    final_network: Path
    positions: int
    generations: int
    seconds: float
    evaluations: list[dict[str, Any]]


def newest_checkpoint(out: Path) -> Path | None:
    found = []
    for path in (out / "checkpoints").glob("gen_*.npz"):
        number = path.name.removeprefix("gen_").removesuffix(".npz")
        if number.isdigit() and path.with_suffix(".json").exists():
            found.append((int(number), path))
    return max(found)[1] if found else None


class _Run:
    """The state of a run between generations."""

    def __init__(self, variant: str, options: dict[str, Any], config: AZConfig, seed: int):
        self.variant, self.options, self.config, self.seed = variant, options, config, seed
        game = Game(variant, **options)
        torch.manual_seed(seed)
        self.device = fitting_device(config.device)
        self.net = PolicyValueNet(network_meta(game, config.hidden)).to(self.device)
        self.optimizer = torch.optim.AdamW(
            self.net.parameters(), lr=config.learning_rate, weight_decay=config.weight_decay
        )
        self.buffer: Batch | None = None
        self.generation = 0
        self.positions = 0
        self.games = 0
        self.seconds = 0.0
        self.evaluations: list[dict[str, Any]] = []

    # ---- checkpoints ---------------------------------------------------------------------
    def save(self, out: Path) -> Path:
        """Write the checkpoint of this generation (TrainingDiverged, nothing written, when the
        network's weights are not all finite)."""
        check_finite(self.net.parameters(), f"after generation {self.generation}")
        folder = out / "checkpoints"
        stem = folder / f"gen_{self.generation}"
        arrays = {} if self.buffer is None else self.buffer.arrays()
        write_atomically(f"{stem}.buffer.npz", _npz(arrays))
        tensors = {"net": self.net.state_dict(), "optimizer": self.optimizer.state_dict()}
        write_atomically(f"{stem}.pt", _torch_bytes(tensors))
        write_atomically(f"{stem}.npz", self.net.network().to_bytes())
        write_json(
            f"{stem}.json",
            {
                "variant": self.variant,
                "options": self.options,
                "seed": self.seed,
                "config": self.config.to_json(),
                "generation": self.generation,
                "positions": self.positions,
                "games": self.games,
                "seconds": self.seconds,
                "evaluations": self.evaluations,
            },
        )
        self._prune(folder)
        return Path(f"{stem}.npz")

    def _prune(self, folder: Path) -> None:
        generations = sorted(
            int(p.name.removeprefix("gen_").removesuffix(".json"))
            for p in folder.glob("gen_*.json")
        )
        evaluated = {e["generation"] for e in self.evaluations}
        for old in generations[:-KEPT_CHECKPOINTS]:
            for suffix in (".pt", ".buffer.npz", ".json"):
                (folder / f"gen_{old}{suffix}").unlink(missing_ok=True)
            if old not in evaluated:
                (folder / f"gen_{old}.npz").unlink(missing_ok=True)

    def start_from(self, name: str | Path) -> None:
        """Take the weights of the network `name` names (a shipped network's rule-set name or a
        file, as ``az:`` reads them): a new run that goes on from where that network's training
        stopped, with a new buffer and optimiser. NetworkError unless it was fitted to this rule
        set with these layers."""
        network, _ = read_network(name)
        mine = self.net.meta
        for key in SIZE_KEYS:
            if network.meta[key] != mine[key]:
                raise NetworkError(
                    f"--init: the network {str(name)!r} has {key} {network.meta[key]}, and this "
                    f"run's network {mine[key]} (its rule set, options and config's hidden)"
                )
        self.net.load_network(network)

    def restore(self, checkpoint: Path) -> None:
        """Take up the run that wrote `checkpoint` (a ``gen_N.npz``) from its four files, each
        read bounded and checked, and checked against each other: ModelLoadError names the
        first that is not what the run wrote."""
        state = _checkpoint_state(checkpoint, self.variant)
        _check_resumable(state, checkpoint, self)
        try:
            tensors = torch.load(
                io.BytesIO(read_bytes(checkpoint.with_suffix(".pt"), MAX_TENSOR_BYTES)),
                map_location=self.device,
                weights_only=True,
            )
            self.net.load_state_dict(tensors["net"])
            self.optimizer.load_state_dict(tensors["optimizer"])
            _check_same_weights(checkpoint, self.net)
            for group in self.optimizer.param_groups:  # the settings given now, not the saved
                group["weight_decay"] = self.config.weight_decay
            kept = read_bytes(checkpoint.with_suffix(".buffer.npz"), MAX_BUFFER_BYTES)
            self.buffer = _checked_buffer(
                kept, checkpoint.with_suffix(".buffer.npz"), self.net.meta, state["config"]
            )
        except Exception as error:  # whatever the files hold, say what went wrong with them
            reason = (
                str(error) if isinstance(error, ValueError) else f"{type(error).__name__}: {error}"
            )
            reason = reason.splitlines()[0]
            raise ModelLoadError(f"cannot resume from {checkpoint}: {reason}") from None
        for key in ("generation", "positions", "games", "seconds", "evaluations"):
            setattr(self, key, state[key])


def _check_same_weights(checkpoint: Path, net: PolicyValueNet) -> None:
    """ValueError unless the network file `checkpoint` holds the weights `net` took from the
    checkpoint's ``.pt``: the run writes the two together, goes on from the ``.pt``, and ships
    and evaluates the network file, so a file that differs is of another run or broken."""
    network = parse_network(read_bytes(checkpoint, MAX_NETWORK_BYTES), checkpoint.name)
    fitted = net.network()
    differ = [key for key in SIZE_KEYS if network.meta[key] != fitted.meta[key]]
    if differ:
        raise ValueError(
            f"{checkpoint.name} is a network of another {', '.join(differ)} than "
            f"{checkpoint.stem}.pt's"
        )
    for theirs, ours in zip(
        [*network.layers, network.policy, network.value],
        [*fitted.layers, fitted.policy, fitted.value],
        strict=True,
    ):
        if not all(np.array_equal(a, b) for a, b in zip(theirs, ours, strict=True)):
            raise ValueError(
                f"{checkpoint.name} does not hold the weights of {checkpoint.stem}.pt (the run "
                "writes them together)"
            )


def _checked_buffer(
    content: bytes, where: Path, meta: dict[str, Any], config: dict[str, Any]
) -> Batch | None:
    """The kept positions of a checkpoint (None when it kept none): every member's shape checked
    against the network's sizes and the run's buffer before it is inflated, then every value
    against what a position can hold (ValueError names the first that does not fit)."""
    with NpzArchive(content, where, MAX_BUFFER_BYTES) as archive:
        if not archive.members:
            return None
        declared = archive.members.get("value")
        rows = declared.shape[0] if declared is not None and declared.shape else -1
        if not 0 < rows <= config.get("buffer", 0):
            raise ValueError(f"its kept positions number {rows}, not 1 to the run's buffer")
        width, actions = len(meta["observation_high"]), meta["n_actions"]
        archive.expect(
            {
                "observations": ((rows, width), "iu"),
                "legal": ((rows, actions), "b"),
                "policy": ((rows, actions), "f"),
                "value": ((rows,), "f"),
            }
        )
        batch = Batch(*(archive.array(name) for name in BATCH_FIELDS))
    high = np.asarray(meta["observation_high"])
    if np.any(batch.observations < 0) or np.any(batch.observations > high):
        raise ValueError("its kept observations are outside the observation's range")
    if not np.all(batch.legal.any(axis=1)):
        raise ValueError("a kept position has no legal move")
    policy = batch.policy
    if not np.all(np.isfinite(policy)) or np.any(policy < 0) or np.any(policy[~batch.legal] != 0):
        raise ValueError("its kept policy targets are not probabilities of legal moves")
    if not np.allclose(policy.sum(axis=1), 1, atol=1e-3):
        raise ValueError("its kept policy targets do not sum to 1")
    if not np.all(np.abs(batch.value) <= 1):
        raise ValueError("its kept values are not all from -1 to 1")
    return batch


def _npz(arrays: dict[str, np.ndarray]) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def _torch_bytes(tensors: dict[str, Any]) -> bytes:
    buffer = io.BytesIO()
    torch.save(tensors, buffer)
    return buffer.getvalue()


def _checkpoint_state(checkpoint: Path, variant: str) -> dict[str, Any]:
    state_path = checkpoint.with_suffix(".json")
    needed = [
        checkpoint,
        state_path,
        checkpoint.with_suffix(".pt"),
        checkpoint.with_suffix(".buffer.npz"),
    ]
    missing = [p.name for p in needed if not p.exists()]
    if checkpoint.suffix != ".npz" or missing:
        raise ModelLoadError(
            f"cannot resume from {checkpoint}: a checkpoint is a gen_N.npz with its gen_N.json, "
            f"gen_N.pt and gen_N.buffer.npz beside it (in OUT/checkpoints/)"
            + (f"; missing: {', '.join(missing)}" if missing else "")
        )
    try:
        state = parse_json(read_bytes(state_path, MAX_STATE_BYTES), state_path)
        _check_state(state)
    except ReadError as error:
        raise ModelLoadError(f"{state_path} is not a checkpoint's state: {error.problem}") from None
    except ValueError as error:
        raise ModelLoadError(f"{state_path} is not a checkpoint's state: {error}") from None
    if state["variant"] != variant:
        raise ModelLoadError(
            f"{checkpoint} is a checkpoint of {for_terminal(str(state['variant']))}, not of "
            f"{variant}"
        )
    return state


def _check_state(state: Any) -> None:
    """ValueError naming the first field of a checkpoint's state that is not what a run writes."""
    if not isinstance(state, dict) or set(state) != set(STATE_FIELDS):
        raise ValueError(f"its fields must be {', '.join(STATE_FIELDS)}")
    if not isinstance(state["variant"], str):
        raise ValueError(f"variant must be a rule set's name, got {state['variant']!r}")
    if not isinstance(state["options"], dict) or not isinstance(state["config"], dict):
        raise ValueError("its options and config must be objects")
    integer(state["seed"], "seed", 0, 2**64 - 1)
    generation = integer(state["generation"], "generation", 0, INT32_MAX)
    positions = integer(state["positions"], "positions", generation, MAX_COUNT)
    integer(state["games"], "games", 0, positions)
    number(state["seconds"], "seconds", 0, math.inf)
    evaluations = state["evaluations"]
    if not isinstance(evaluations, list) or len(evaluations) > generation + 1:
        raise ValueError(
            f"evaluations must be a list of at most {generation + 1} (one a generation)"
        )
    for index, evaluation in enumerate(evaluations):
        where = f"evaluations[{index}]"
        fields = set(evaluation) - {MACHINE} if isinstance(evaluation, dict) else None
        if fields != set(EVALUATION_FIELDS):
            raise ValueError(
                f"{where} must be an object of {', '.join(EVALUATION_FIELDS)} ({MACHINE} optional)"
            )
        machine = evaluation.get(MACHINE, "")
        if not isinstance(machine, str) or len(machine) > MAX_MACHINE_CHARS:
            raise ValueError(
                f"{where}.{MACHINE} must be a text of at most {MAX_MACHINE_CHARS} characters"
            )
        integer(evaluation["generation"], f"{where}.generation", 0, generation)
        integer(evaluation["positions"], f"{where}.positions", 0, positions)
        number(evaluation["seconds"], f"{where}.seconds", 0, math.inf)
        scores = evaluation["scores"]
        if not isinstance(evaluation["network"], str) or not isinstance(scores, dict):
            raise ValueError(f"{where}: network must be a path and scores an object")
        for spec, score in scores.items():
            if not isinstance(score, list) or len(score) != 3:
                raise ValueError(f"{where}.scores[{spec!r}] must be a score and its interval")
            for value in score:
                number(value, f"{where}.scores[{spec!r}]", 0, 1)


def _check_resumable(state: dict[str, Any], checkpoint: Path, run: _Run) -> None:
    """ModelLoadError unless the run resumed plays the rules and fits the network of the run
    that wrote `checkpoint`."""
    variant = get_variant(run.variant)
    try:
        saved = dataclasses.asdict(variant.options(**state["options"]))
    except (TypeError, ValueError) as error:
        raise ModelLoadError(f"{checkpoint}: its rule options are not valid: {error}") from None
    given = dataclasses.asdict(variant.options(**run.options))
    differ = [f"{k}={saved[k]!r} (given: {given[k]!r})" for k in saved if saved[k] != given[k]]
    if differ:
        raise ModelLoadError(
            f"{checkpoint} was trained under other {run.variant} options: {', '.join(differ)}; "
            "resume with the same --option values"
        )
    hidden = state["config"].get("hidden")
    if hidden != run.config.hidden:
        raise ModelLoadError(
            f"{checkpoint} holds a network of hidden {hidden!r}, not {run.config.hidden}: "
            "resume with the config it was trained with"
        )


def _openings(run: _Run) -> dict[str, Any]:
    """The evaluation's openings: `eval_suite`, else a tournament's default (`distinct_openings`:
    the suite shipped for the rule set when it fits, else random lines of four moves, one a
    couple)."""
    if run.config.eval_suite is not None:
        suite = read_suite(resolve_suite(run.config.eval_suite), run.variant, run.options)
        return {"opening_suite": suite}
    return {}


def evaluate(
    run: _Run,
    network: Path,
    out: Path,
    workers: int,
    backend: str = "local",
    ray_address: str | None = None,
) -> dict[str, Any]:
    """A gauntlet of `network` against alpha-beta of each evaluation depth, from the opening
    suite, both seats, on `backend`; the scores with 95% Wilson intervals."""
    config = run.config
    learner = f"az:{network}"
    baselines = [f"alphabeta:depth={depth}" for depth in config.eval_depths]
    openings = _openings(run)
    tournament = TournamentConfig(
        run.variant,
        (learner, *baselines),
        options=run.options,
        games_per_pair=config.eval_games,
        format="gauntlet",
        seed=run.seed,
        **openings,
    )
    db = out / "evaluations" / f"gen_{run.generation}.sqlite"
    result = run_tournament(
        tournament,
        db=db,
        backend=backend,
        workers=workers,
        ray_address=ray_address,
        bootstrap=50,
        progress=False,
    )
    scores = {}
    for baseline in baselines:
        pair = result.ratings.crosstable[learner, baseline]
        score = pair.points / pair.games
        scores[baseline] = [round(score, 4), *(round(x, 4) for x in wilson(score, pair.games))]
    return {
        "generation": run.generation,
        "positions": run.positions,
        "seconds": round(run.seconds, 1),
        "network": str(network),
        "scores": scores,
        MACHINE: training_machine(run.device),
    }


def training_machine(device: torch.device) -> str:
    """The machine a run trains on, as the strength page names it: the processor, its cores,
    the system, and the GPU that fits the network if one does (cut to the length a checkpoint
    may hold)."""
    gpu = torch.cuda.get_device_name(device) if device.type == "cuda" else None
    return describe_machine(gpu)[:MAX_MACHINE_CHARS]


def train_az(
    variant: str,
    config: AZConfig,
    out: str | Path,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    resume: str | Path | None = None,
    init: str | Path | None = None,
    max_minutes: float | None = None,
    progress: bool = True,
    overwrite: bool = False,
    notify: Callable[[str], object] | None = None,
    backend: str = "local",
    ray_address: str | None = None,
) -> AZResult:
    """Fit a policy-value network for `variant` (under `options`) by expert iteration, as the
    module docstring says; files go under `out`.

    With `resume` (``OUT/checkpoints/gen_N.npz``) the run continues from that checkpoint;
    NothingToDo when it already has `config.positions`. Otherwise `out` must be empty or
    missing, or `overwrite` given; with `init` (a shipped network's name or a network file) the
    new run's network starts from that network's weights (`_Run.start_from`). The run stops
    once `config.positions` positions are labelled in all, or before a generation that would
    end past `max_minutes` of this run (`TimeBudget`: one as long as the longest so far); Ctrl-C
    stops it, its newest checkpoint kept, with TrainingInterrupted. The games are played and
    labelled, and the evaluations played, on `backend` (`BACKENDS`: this machine's processes,
    or Ray tasks on the cluster at `ray_address`, a local Ray instance when None)."""
    options = dict(options or {})
    out = Path(out)
    check_az_settings(variant, options, config)
    run = _Run(variant, options, config, seed)
    if resume is not None:
        if overwrite or init is not None:
            given = "--overwrite deletes it" if overwrite else "--init starts a new one"
            raise ValueError(f"--resume continues a run and {given}: give one")
        resume = Path(resume)
        run.restore(resume)
        if run.positions >= config.positions:
            raise NothingToDo(
                f"the checkpoint {resume} has {run.positions:,} positions, which meets the "
                f"{config.positions:,} asked for: nothing to do (no file changed); ask for "
                "more with --timesteps"
            )
    else:
        if init is not None:
            run.start_from(init)
        claim_folder(out, overwrite, RUN_FILES, newest_checkpoint(out), "gen_N.npz")
    for folder in ("checkpoints", "evaluations"):
        (out / folder).mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    budget = TimeBudget(None if max_minutes is None else 60 * max_minutes, started)
    summary = {
        "variant": variant,
        "options": options,
        "seed": seed,
        "resumed_from": None if resume is None else str(resume),
        "init": None if init is None else str(init),
        "backend": backend,
        "config": config.to_json(),
    }
    bar = tqdm(
        total=config.positions,
        initial=run.positions,
        unit="pos",
        disable=not progress,
        desc=f"az {variant}",
    )
    checkpoint = newest_checkpoint(out)
    where = {"backend": backend, "ray_address": ray_address}
    try:
        with _workers(config.workers, **where) as mapper:
            while run.positions < config.positions and budget.allows_another(time.monotonic()):
                checkpoint = _generation(run, mapper, out, bar)
                due = run.generation % config.eval_every == 0
                if due or run.positions >= config.positions:
                    _evaluate_and_log(run, checkpoint, out, notify, **where)
                    run.save(out)  # the evaluation joins the checkpoint's state
                budget.generation_ended(time.monotonic())
            bar.close()
            if checkpoint is None:  # max_minutes ran out before a generation
                checkpoint = run.save(out)
            if not run.evaluations or run.evaluations[-1]["generation"] != run.generation:
                _evaluate_and_log(run, checkpoint, out, notify, **where)
                run.save(out)
    except KeyboardInterrupt:
        bar.close()
        if checkpoint is None:
            raise
        seconds = _write_summary(out, summary, run, started, interrupted=True)
        raise TrainingInterrupted(checkpoint, run.positions, seconds) from None
    final = out / "final.npz"
    write_atomically(final, read_bytes(checkpoint, MAX_NETWORK_BYTES))
    seconds = _write_summary(out, summary, run, started, interrupted=False)
    return AZResult(out, final, run.positions, run.generation, seconds, run.evaluations)


class TimeBudget:
    """A run's time limit: another generation starts only when one as long as the longest so
    far (its evaluation included) still ends within the limit, so a run stops inside its minutes
    rather than one generation past them. No limit when `seconds` is None."""

    def __init__(self, seconds: float | None, started: float) -> None:
        self.seconds = seconds
        self.started = started
        self.last_ended = started
        self.longest = 0.0

    def generation_ended(self, now: float) -> None:
        self.longest = max(self.longest, now - self.last_ended)
        self.last_ended = now

    def allows_another(self, now: float) -> bool:
        return self.seconds is None or now - self.started + self.longest <= self.seconds


@contextmanager
def _workers(count: int, backend: str, ray_address: str | None) -> Iterator[Callable]:
    """A map over the generation's tasks, in order: in this process for one local worker, in
    `count` worker processes (started fresh: a forked torch can hang), or as Ray tasks, all of
    a generation's at once, on the cluster at `ray_address` (a local instance of `count` CPUs
    when None)."""
    check_backend(backend, count, ray_address)
    if backend == "ray":
        with ray_session(count, ray_address) as ray:

            def on_ray(work: Callable, tasks: list) -> Iterator:
                remote = ray.remote(work)
                running = [remote.remote(task) for task in tasks]
                return (ray.get(ref) for ref in running)

            yield on_ray
        return
    if count == 1:
        yield map
        return
    with multiprocessing.get_context("spawn").Pool(count) as pool:
        yield pool.imap


@contextmanager
def _ticking(bar: tqdm, every: float = 1.0) -> Iterator[None]:
    """Redraw `bar` every `every` seconds while the block runs (its elapsed time and what it
    is doing), so a run between two updates of the bar is seen to be working."""
    if bar.disable:
        yield
        return
    stop = threading.Event()

    def tick() -> None:
        while not stop.wait(every):
            bar.refresh()

    ticker = threading.Thread(target=tick, name="az progress", daemon=True)
    ticker.start()
    try:
        yield
    finally:
        stop.set()
        ticker.join()


def _generation(run: _Run, mapper: Callable, out: Path, bar: tqdm) -> Path:
    """Play, label and fit one generation; its checkpoint."""
    began = time.monotonic()
    config = run.config
    network = run.net.network().to_bytes()
    share = -(-config.generation // config.workers)
    tasks = [
        Task(
            run.variant,
            run.options,
            network,
            config,
            share,
            seed=run.seed * 1_000_003 + run.generation * config.workers + worker,
        )
        for worker in range(config.workers)
    ]
    batches = []
    bar.set_postfix_str(f"gen {run.generation + 1}: playing and labelling", refresh=False)
    with _ticking(bar):  # a worker's share takes minutes: the bar's clock runs meanwhile
        work = play_and_label if config.targets == "teacher" else play_with_search
        for batch, finished in mapper(work, tasks):
            batches.append(batch)
            run.games += finished
            bar.update(len(batch))
    bar.set_postfix_str(f"gen {run.generation + 1}: fitting", refresh=True)
    new = Batch.join(batches)
    run.buffer = new if run.buffer is None else Batch.join([run.buffer, new])
    run.buffer = run.buffer.tail(config.buffer)
    run.positions += len(new)
    run.generation += 1
    rng = np.random.default_rng([run.seed, run.generation])
    for group in run.optimizer.param_groups:
        group["lr"] = config.learning_rate_at(run.positions)
    policy_loss, value_loss = fit(
        run.net, run.optimizer, run.buffer, config.fit_steps, config.batch_size, rng
    )
    run.seconds += time.monotonic() - began
    bar.set_postfix(gen=run.generation, policy=f"{policy_loss:.3f}", value=f"{value_loss:.3f}")
    return run.save(out)


def _evaluate_and_log(
    run: _Run,
    checkpoint: Path,
    out: Path,
    notify: Callable[[str], object] | None,
    backend: str,
    ray_address: str | None,
) -> None:
    evaluation = evaluate(run, checkpoint, out, run.config.workers, backend, ray_address)
    run.evaluations.append(evaluation)
    lines = "".join(json.dumps(e) + "\n" for e in run.evaluations)
    write_atomically(out / "evaluations.jsonl", lines.encode())
    if notify is not None:
        scores = ", ".join(
            f"{spec.split('=')[1]}: {s[0]:.2f}" for spec, s in evaluation["scores"].items()
        )
        notify(
            f"generation {run.generation} ({run.seconds / 60:.0f} min): score against "
            f"alpha-beta depth {scores}"
        )
    plot_curve(run.evaluations, out / "learning_curve.png", run.variant)


def _write_summary(out: Path, summary: dict, run: _Run, started: float, interrupted: bool) -> float:
    seconds = time.monotonic() - started
    write_json(
        out / "run.json",
        {
            **summary,
            "generations": run.generation,
            "positions": run.positions,
            "games": run.games,
            "training_seconds": round(run.seconds, 1),
            "seconds": round(seconds, 1),
            "interrupted": interrupted,
        },
    )
    return seconds
