"""What a tournament shows while it sets up: a bar of the agents loaded (a model or a network
takes seconds), on standard error, only with progress on."""

from __future__ import annotations

import sys

import pytest

from mancala_env.agents.tournament import TournamentConfig, runner


class Bar:
    """A stand-in for tqdm that keeps what it was given."""

    made: list[Bar] = []

    def __init__(self, **settings) -> None:
        self.settings, self.n = settings, 0
        Bar.made.append(self)

    def update(self, n: int = 1) -> None:
        self.n += n

    def __enter__(self) -> Bar:
        return self

    def __exit__(self, *exc) -> bool:
        return False


@pytest.mark.parametrize("progress", [True, False])
def test_loading_the_agents_shows_a_bar_of_them_with_progress_on(monkeypatch, progress):
    monkeypatch.setattr(runner, "tqdm", Bar)
    Bar.made = []
    config = TournamentConfig("oware", ["random", "greedy", "alphabeta:depth=1"])
    runner.check_before_storing(config, "local", 1, None, progress=progress)
    (bar,) = Bar.made
    assert bar.settings["total"] == 3 and bar.n == 3
    assert bar.settings["disable"] is not progress and bar.settings["file"] is sys.stderr
    assert bar.settings["delay"] > 0  # quick loads and refusals draw nothing
