"""``mancala train`` and ``python -m mancala_env.train``: training from the command line."""

from __future__ import annotations

import argparse
import math
import shlex
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mancala_env.agents.tournament import BACKENDS, BackendError
from mancala_env.arguments import (
    Parser,
    fail,
    input_file,
    input_folder,
    integer,
    output_folder,
    real,
)
from mancala_env.arguments import seed as seed_type

from .config import MAX_ENVS, SELF, load_config

if TYPE_CHECKING:
    from .az.config import AZConfig

INTERRUPTED = 130
ALGORITHMS = ("ppo", "az", "batched-ppo")

MIN_MINUTES, MAX_MINUTES = 0.01, 100_000  # --max-minutes: under 70 days


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variant", help="rule set name (see 'mancala variants')")
    parser.add_argument(
        "--algo",
        choices=ALGORITHMS,
        default="ppo",
        help="ppo: MaskablePPO against an opponent pool; az: a policy-value network fitted to "
        "an alpha-beta teacher's move values in its own games (expert iteration); "
        "batched-ppo: PPO against the same pool, its games, policy and updates batched "
        "(TorchRL's loss)",
    )
    parser.add_argument(
        "--config",
        type=input_file,
        default=None,
        help="a TOML file (default: train/configs/VARIANT.toml, train/configs/az/ for az, "
        "train/configs/batched_ppo/ first for batched-ppo)",
    )
    parser.add_argument(
        "--timesteps",
        type=integer(1),
        default=None,
        help="learner moves in all (az: positions labelled in all)",
    )
    parser.add_argument(
        "--n-envs",
        type=integer(1, MAX_ENVS),
        default=None,
        help="games stepped together (az: by each worker)",
    )
    parser.add_argument(
        "--opponents",
        default=None,
        help=f"comma-separated agent specs and '{SELF}' (frozen snapshots of the learner), "
        "e.g. random,greedy,alphabeta:depth=2,self",
    )
    parser.add_argument(
        "--out",
        type=output_folder,
        default=None,
        help="folder for models and logs (default runs/VARIANT)",
    )
    parser.add_argument(
        "--seed", type=seed_type, default=0, help="seed of the games and the network"
    )
    parser.add_argument(
        "--resume",
        type=input_file,
        default=None,
        metavar="CHECKPOINT",
        help="OUT/checkpoints/step_N.zip (batched-ppo: step_N.npz, or step_N.zip with an mlp "
        "policy; az: OUT/checkpoints/gen_N.npz)",
    )
    parser.add_argument(
        "--init",
        default=None,
        metavar="NETWORK",
        help="az: a new run's network starts from this network's weights (a shipped network's "
        "rule-set name or a network file, as az: reads them)",
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="start afresh in a non-empty --out, deleting the earlier run's files there",
    )
    parser.add_argument(
        "--max-minutes",
        type=real(MIN_MINUTES, MAX_MINUTES),
        default=None,
        help="stop after this long (this invocation)",
    )
    parser.add_argument(
        "--endgames",
        type=input_folder,
        default=None,
        metavar="DIR",
        help="az: an endgame database whose exact values the teacher uses (docs/endgames.md)",
    )
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="rule option (az)"
    )
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default=BACKENDS[0],
        help="az: where the games are played and labelled; batched-ppo: where the evaluations' "
        "games are played: this machine's processes (local), or Ray tasks (ray)",
    )
    parser.add_argument(
        "--ray-address",
        default=None,
        help="az, batched-ppo: a running Ray cluster (auto: the one this machine belongs to); "
        "without it, "
        "--backend ray starts a local Ray instance",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def resume_command(args: argparse.Namespace, checkpoint: Path, seconds_used: float = 0.0) -> str:
    """The ``mancala train`` command that continues the run of `args` from `checkpoint`, after
    `seconds_used` of its ``--max-minutes``: the command asks for the minutes left (rounded
    down to a hundredth, at least the smallest limit allowed), as a run's limit counts its own
    invocation only."""
    words = ["mancala", "train", args.variant, "--resume", str(checkpoint)]
    if args.algo != "ppo":
        words += ["--algo", args.algo]
    words += [f"--option={option}" for option in args.option]
    words += ["--out", default_out(args), "--seed", str(args.seed)]
    if args.backend != BACKENDS[0]:
        words += ["--backend", args.backend]
    for option in (
        "config",
        "timesteps",
        "n_envs",
        "opponents",
        "endgames",
        "max_minutes",
        "ray_address",
    ):
        value = getattr(args, option)
        if option == "max_minutes" and value is not None:
            left = math.floor(round(100 * (value - seconds_used / 60), 6)) / 100
            value = max(MIN_MINUTES, left)
        if value is not None:
            words += [f"--{option.replace('_', '-')}", str(value)]
    if args.no_progress:
        words.append("--no-progress")
    return shlex.join(words)


def default_out(args: argparse.Namespace) -> str:
    suffix = "" if args.algo == "ppo" else f"-{args.algo}"
    return args.out or f"runs/{args.variant}{suffix}"


def _changes(args: argparse.Namespace, names: dict[str, str]) -> dict[str, Any]:
    """The settings the command line changes: `names` maps an argument to its setting."""
    changes: dict[str, Any] = {}
    for argument, setting in names.items():
        value = getattr(args, argument)
        if value is None:
            continue
        if argument == "opponents":
            value = [spec.strip() for spec in value.split(",") if spec.strip()]
        changes[setting] = str(value) if argument == "endgames" else value
    return changes


PPO_NAMES = {"timesteps": "timesteps", "n_envs": "n_envs", "opponents": "opponents"}


def _train_ppo(args: argparse.Namespace, out: str, notify: Callable[[str], object]) -> list[str]:
    """A MaskablePPO run; the lines that report it."""
    from .run import train

    config = replace(load_config(args.variant, args.config), **_changes(args, PPO_NAMES))
    return _ppo_lines(_run_ppo(train, args, config, out, notify))


def _train_batched_ppo(
    args: argparse.Namespace, out: str, notify: Callable[[str], object]
) -> list[str]:
    """A batched PPO run (train/batched_ppo/); the lines that report it."""
    from .batched_ppo.config import load_batched_config
    from .batched_ppo.run import train_batched_ppo

    config = load_batched_config(args.variant, args.config)
    config = replace(config, run=replace(config.run, **_changes(args, PPO_NAMES)))
    where = {"backend": args.backend, "ray_address": args.ray_address}
    return _ppo_lines(_run_ppo(train_batched_ppo, args, config, out, notify, **where))


def _run_ppo(
    train: Callable, args: argparse.Namespace, config: Any, out: str, notify: Callable, **where: Any
) -> Any:
    """`train` (the MaskablePPO or the batched trainer) on `config` as the arguments ask
    (`where`: the batched trainer's evaluation backend)."""
    return train(
        args.variant,
        config,
        out=out,
        seed=args.seed,
        resume=args.resume,
        max_minutes=args.max_minutes,
        progress=not args.no_progress,
        overwrite=args.overwrite,
        notify=notify,
        **where,
    )


def _ppo_lines(result: Any) -> list[str]:
    """The lines that report a PPO run's `TrainResult`."""
    lines = [f"trained {result.timesteps:,} steps in {result.seconds / 60:.1f} min"]
    if result.evaluations:
        lines += _score_lines(result.evaluations[-1].scores)
    play = f"{result.agent}:{result.final_model}"
    lines.append(f"final model: {result.final_model}  (play it: --agents {play})")
    if result.best_model is not None:
        lines.append(f"best model:  {result.best_model}")
    return lines


def _train_az(args: argparse.Namespace, out: str, notify: Callable[[str], object]) -> list[str]:
    """An expert-iteration run (train/az/); the lines that report it."""
    from mancala_env.arguments import parse_options

    from .az.config import load_az_config
    from .az.run import train_az

    options = parse_options(args.option, args.variant)
    config = load_az_config(args.variant, args.config)
    names = {
        "timesteps": "positions",
        "n_envs": "games",
        "opponents": "opponents",
        "endgames": "endgames",
    }
    config = replace(config, **_changes(args, names))
    result = train_az(
        args.variant,
        config,
        out=out,
        seed=args.seed,
        options=options,
        resume=args.resume,
        init=args.init,
        max_minutes=args.max_minutes,
        progress=not args.no_progress,
        overwrite=args.overwrite,
        notify=notify,
        backend=args.backend,
        ray_address=args.ray_address,
    )
    lines = [
        f"labelled {result.positions:,} positions in {result.generations} generations "
        f"({result.seconds / 60:.1f} min)"
    ]
    if result.evaluations:
        lines += _score_lines(result.evaluations[-1]["scores"])
    lines.append(
        f"final network: {result.final_network}  (play it: --agents az:{result.final_network})"
    )
    return lines + stopped_early_lines(config, result.positions)


def stopped_early_lines(config: AZConfig, positions: int) -> list[str]:
    """What a run stopped by its minutes before `config.positions` should know: the learning
    rate, which falls over the positions, had not reached its final value."""
    final = config.final_learning_rate
    if positions >= config.positions or final is None:
        return []
    return [
        f"stopped at {positions:,} of {config.positions:,} positions: the learning rate had "
        f"fallen to {config.learning_rate_at(positions):.1e}, not to its final {final:.1e} "
        "(set positions to what the minutes label and it falls all the way)"
    ]


def _score_lines(scores: dict[str, Any]) -> list[str]:
    return [
        f"  against {baseline}: {score:.1%} (95% interval {low:.1%}-{high:.1%})"
        for baseline, (score, low, high) in scores.items()
    ]


def run(args: argparse.Namespace) -> int:
    if args.algo != "az" and (args.option or args.endgames or args.init):
        return fail("train", "--option, --endgames and --init are read by --algo az only")
    if args.algo == "ppo" and (args.backend != BACKENDS[0] or args.ray_address):
        return fail(
            "train", "--backend and --ray-address are read by --algo az and --algo batched-ppo"
        )
    from mancala_env.agents.ppo import ModelLoadError

    try:
        from .files import TrainingDiverged
        from .run import NothingToDo, TrainingInterrupted

        train = {"ppo": _train_ppo, "az": _train_az, "batched-ppo": _train_batched_ppo}[args.algo]
        out = default_out(args)
        lines = train(args, out, lambda note: print(f"mancala train: {note}", flush=True))
    except ImportError as error:
        return fail("train", f'training needs the train extra (pip install -e ".[train]"): {error}')
    except (ValueError, ModelLoadError, BackendError) as error:
        return fail("train", error)
    except OSError as error:  # a folder that cannot be written after all, a full disk
        where = error.filename or out
        return fail("train", f"cannot write {where}: {error.strerror}", status=1)
    except TrainingDiverged as error:
        return fail("train", error, status=1)
    except NothingToDo as done:
        print(f"mancala train: {done}", file=sys.stderr)
        return 0
    except TrainingInterrupted as stop:
        print(f"\nmancala train: {stop}; continue with:", file=sys.stderr)
        print(f"  {resume_command(args, stop.checkpoint, stop.seconds)}", file=sys.stderr)
        return INTERRUPTED
    except KeyboardInterrupt:
        print("\nmancala train: interrupted before training began; nothing saved", file=sys.stderr)
        return INTERRUPTED
    print("\n".join(lines))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = Parser(prog="python -m mancala_env.train", description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))
