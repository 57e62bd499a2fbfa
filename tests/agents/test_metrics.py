"""Rule-set metrics, each checked against games worked out by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mancala_env import Game
from mancala_env.agents.metrics import (
    GameTrace,
    Ply,
    markdown_report,
    measure,
    summarise,
    trace_game,
)


class LastLegal:
    """Plays the highest legal action."""

    def reset(self, seed=None) -> None:
        pass

    def act(self, game: Game) -> int:
        return game.legal_actions()[-1]


def oware_ending() -> GameTrace:
    """An Oware ending played out: player_1 to move, 21 and 23 seeds in the stores.

    1. player_1 (houses 6 and 10 hold a seed: 2 legal) sows 10 into 11; stores 21-23.
    2. player_0 (houses 3 and 5: 2 legal) sows 5 into 6, making 2 there: a capture, 23-23.
    3. player_1 (only house 11: forced) sows into player_0's house 0; the game ends, the two
       seeds left on the board go to player_0: 25-23, player_0 wins (no capture: the end's
       share-out)."""
    game = Game("oware")
    snapshot = game.snapshot()
    snapshot.update(pits=[0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 0], stores=[21, 23], to_move=1)
    game.restore(snapshot)
    return trace_game(game, [LastLegal(), LastLegal()])


# A draw written by hand: a capture by each player, the lead passing from player_0 to player_1.
DRAW = GameTrace(
    stores=(0, 0),
    first_player=0,
    winner=-1,
    plies=(
        Ply(mover=0, legal=2, stores=(2, 0), over=False),
        Ply(mover=1, legal=3, stores=(2, 3), over=False),
        Ply(mover=0, legal=1, stores=(24, 24), over=True),
    ),
)


def test_a_traced_game_holds_each_ply_as_the_engine_played_it():
    trace = oware_ending()
    assert trace.first_player == 1 and trace.winner == 0 and trace.stores == (21, 23)
    assert trace.plies == (
        Ply(mover=1, legal=2, stores=(21, 23), over=False),
        Ply(mover=0, legal=2, stores=(23, 23), over=False),
        Ply(mover=1, legal=1, stores=(25, 23), over=True),
    )
    assert trace.captures == 1  # the share-out at the end is none
    assert trace.lead_changes == 1  # player_1 led, the level score kept it, player_0 leads
    assert trace.decided_at == 3  # player_0 leads only after the last ply


def test_the_draw_by_hand():
    assert DRAW.captures == 2 and DRAW.lead_changes == 1 and DRAW.decided_at is None


def test_every_metric_of_two_games_worked_out_by_hand():
    metrics = summarise([oware_ending(), DRAW])
    assert metrics.games == metrics.distinct == 2
    assert metrics.length == 3
    assert metrics.branching == pytest.approx((2 + 2 + 1 + 2 + 3 + 1) / 6)
    assert metrics.forced == pytest.approx(2 / 6)
    assert metrics.captures == 1.5 and metrics.lead_changes == 1
    assert metrics.drawishness == 0.5
    assert metrics.decisiveness == 1.0 and metrics.decided_games == 1
    assert metrics.first_player_score == 0.25  # the first mover lost one and drew one
    assert metrics.first_player_low < 0.25 < metrics.first_player_high


def test_a_winner_ahead_from_the_start_decided_it_at_once():
    led = GameTrace((5, 0), 0, 0, (Ply(1, 2, (5, 2), False), Ply(0, 2, (9, 2), True)))
    assert led.decided_at == 0 and led.lead_changes == 0


def test_measured_games_are_seeded_and_differ_by_their_random_opening_plies():
    one = measure("tampoduo", "alphabeta:depth=1", 4, seed=3)
    assert one == measure("tampoduo", "alphabeta:depth=1", 4, seed=3)
    assert one != measure("tampoduo", "alphabeta:depth=1", 4, seed=4)
    deterministic = "python:test_metrics:LastLegal"
    assert measure("ayoayo", deterministic, 4, opening_plies=0).distinct == 1
    assert measure("ayoayo", deterministic, 4).distinct == 4


def test_bad_counts_are_refused_in_one_line():
    with pytest.raises(ValueError, match="games must be an integer of 1 or more, got 0"):
        measure("oware", "random", 0)
    with pytest.raises(ValueError, match="opening_plies must be an integer of 0 or more"):
        measure("oware", "random", 1, opening_plies=-1)


def test_the_docs_table_is_the_results_file_rendered():
    """The table of all rule sets is the results file's, rendered when the site is built
    (`docs/_ext/results_tables.py`): no number typed by hand."""
    root = Path(__file__).parents[2]
    results = json.loads((root / "benchmarks" / "results" / "metrics.json").read_text())
    assert len(results["variants"]) == 14
    page = (root / "docs" / "metrics.md").read_text()
    assert "_generated/metrics.md" in page and "| ayoayo |" not in page
    assert "tampoduo" in markdown_report(results)


def test_the_command_prints_random_and_strong_play_side_by_side(capsys):
    from mancala_env.cli import main

    assert main(["metrics", "tampoduo", "--games", "2", "--agent", "alphabeta:depth=1"]) == 0
    out = capsys.readouterr().out
    assert "tampoduo: 2 games a column, its agent in both seats after 4 random plies" in out
    header, games = out.splitlines()[1:3]
    assert header.split() == ["random", "alphabeta:depth=1"]
    assert games.split() == ["games", "2", "2"]
    assert "first player's score [95%]" in out


@pytest.mark.parametrize("quiet", [False, True])
def test_the_command_shows_its_progress_on_stderr_unless_told_not_to(capsys, monkeypatch, quiet):
    """A bar of the games played (2 an agent, 4 in all) that --no-progress turns off."""
    from mancala_env.cli import main
    from mancala_env.cli import metrics as command

    class Bar:
        made: list[dict] = []

        def __init__(self, **settings):
            self.settings, self.n = settings, 0
            Bar.made.append(self)

        def update(self, n: int = 1) -> None:
            self.n += n

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr("tqdm.tqdm", Bar)
    argv = ["metrics", "tampoduo", "--games", "2", "--agent", "alphabeta:depth=1"]
    assert main(argv + (["--no-progress"] if quiet else [])) == 0
    (bar,) = Bar.made
    assert bar.settings["total"] == 4 and bar.n == 4
    assert bar.settings["disable"] is quiet and bar.settings["file"] is command.sys.stderr


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["metrics", "chess"], "unknown variant 'chess'"),
        (["metrics", "oware", "--agent", "foo"], "bad agent spec 'foo'"),
        (["metrics", "oware", "--games", "0"], "--games: must be an integer from 1"),
    ],
)
def test_bad_input_is_one_line(arguments, message, capsys):
    from mancala_env.cli import main

    try:
        status = main(arguments)
    except SystemExit as stop:
        status = stop.code
    assert status == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err
