"""``train``: MaskablePPO self-play or expert iteration (the train extra). Its options are
declared, and its runs done, by `mancala_env.train.cli`, which ``python -m mancala_env.train``
shares."""

from __future__ import annotations

import argparse

from .command import add_command


def register(commands: argparse._SubParsersAction) -> None:
    add_command(
        commands,
        "train",
        "train an agent: MaskablePPO self-play or expert iteration (train extra)",
        train_options,
        train,
    )


def train_options(parser: argparse.ArgumentParser) -> None:
    from mancala_env.train.cli import add_arguments  # light: the run imports stable-baselines3

    add_arguments(parser)


def train(args: argparse.Namespace) -> int:
    from mancala_env.train.cli import run

    return run(args)
