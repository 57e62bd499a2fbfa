"""`mancala play` driven through its standard input, as a person at a terminal would."""

import contextlib
import io
import sys
from types import SimpleNamespace

import pytest

from mancala_env.cli import main


@pytest.fixture
def play(monkeypatch, capsys):
    """`mancala play ARGS --no-color` with `stdin` as its standard input: its exit status and
    what it printed (`returncode`, `stdout`, `stderr`)."""

    def run(*args: str, stdin: str = "") -> SimpleNamespace:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        status = main(["play", *args, "--no-color"])
        out, err = capsys.readouterr()
        return SimpleNamespace(returncode=status, stdout=out, stderr=err)

    return run


def test_a_person_plays_a_whole_game_and_bad_entries_are_explained(play):
    entries = "9\nx\n\n" + "1\n2\n3\n4\n5\n6\n" * 300
    run = play(
        "kpo",
        "--opponent",
        "greedy",
        "--seed",
        "1",
        "--option",
        "first_player=player_0",
        stdin=entries,
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "Kpo: player_0 is human, player_1 is greedy" in out
    assert "There is no house 9. Legal moves: 1, 2, 3, 4, 5, 6." in out
    assert "'x' is not a move." in out
    assert "Please enter a move" in out
    assert "player_0 (human) lifts house 1" in out and "player_1 (greedy) lifts house" in out
    assert "house    |   1    2    3    4    5    6 |" in out  # houses numbered as seen
    assert "result: player_0" in out.splitlines()[-1]


def test_two_agents_play_each_other_without_input(play):
    run = play("ayoayo", "--agent", "random", "--opponent", "alphabeta:depth=2", "--seed", "4")
    assert run.returncode == 0, run.stderr
    assert "player_0 is random, player_1 is alphabeta:depth=2" in run.stdout
    assert run.stdout.splitlines()[-1].startswith("result: player_0")


def test_the_end_of_input_abandons_the_game(play):
    run = play("oware", "--seed", "2", "--option", "first_player=player_0", stdin="1\n")
    assert run.returncode == 1 and "game abandoned" in run.stderr


def test_help_lists_the_moves_and_quit_ends_the_game_with_status_0(play):
    run = play("oware", "--seed", "2", "--option", "first_player=player_0", stdin="help\nquit\n")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "'help' for the legal moves and what they do, or 'quit' to stop" in out
    assert "Legal entries for player_0:\n  1  lifts house 1\n" in out
    assert out.splitlines()[-1] == "player_0 quit: the game ends unfinished after 0 moves"
    assert "result:" not in out and run.stderr == ""


def test_a_bad_agent_spec_is_named_with_the_valid_forms(play):
    run = play("oware", "--opponent", "alphabeta:depht=3")
    assert run.returncode == 2
    assert (
        "bad agent spec 'alphabeta:depht=3'" in run.stderr
        and "valid agent specs: random | greedy" in run.stderr
    )


def test_digits_no_house_can_have_are_explained_not_a_traceback(play):
    """'²' passes str.isdigit but not int(); 5000 digits are past int()'s limit on digits."""
    entries = "²\n" + "9" * 5000 + "\n١\nquit\n"
    run = play("oware", "--seed", "2", "--option", "first_player=player_0", stdin=entries)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    out = run.stdout
    assert "'²' is not a move. Legal moves: 1, 2, 3, 4, 5, 6 (or help, quit)." in out
    assert f"There is no house {'9' * 20}.... Legal moves: 1, 2, 3, 4, 5, 6." in out
    assert "'١' is not a move." in out
    assert out.splitlines()[-1] == "player_0 quit: the game ends unfinished after 0 moves"


def test_the_help_and_the_game_say_who_moves_first(play, capsys):
    """Seat 0 is player_0, who does not always move first: Oware draws its first player, so the
    help names the rule set's `first_player` and the game says who begins and why."""
    with contextlib.suppress(SystemExit):
        main(["play", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "0 moves first" not in shown
    assert "first_player" in shown and "drawn" in shown
    drawn = play("oware", "--agent", "random", "--opponent", "random", "--seed", "0")
    assert drawn.returncode == 0, drawn.stderr
    assert drawn.stdout.splitlines()[1] == "player_1 moves first (first_player=random: drawn)"
    fixed = play("ayoayo", "--agent", "random", "--opponent", "random", "--seed", "0")
    assert fixed.stdout.splitlines()[1] == "player_0 moves first (first_player=player_0)"
