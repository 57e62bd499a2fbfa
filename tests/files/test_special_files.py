"""A FIFO, a device or a link's odd target where the suite expects a file it reads: refused in
one line at once, never waited on (opening a FIFO for reading blocks until a writer comes)."""

from __future__ import annotations

import argparse
import os
import signal

import pytest

from mancala_env.agents.tournament.ratings import parse_anchor
from mancala_env.arguments import input_file
from mancala_env.cli import main
from mancala_env.endgame.files import DatabaseError, database_identity, level_path


@pytest.fixture(autouse=True)
def no_waiting():
    """A read that waits on a FIFO fails the test after 20 s instead of hanging the suite."""

    def waited(*_):
        raise AssertionError("waited on a FIFO")

    previous = signal.signal(signal.SIGALRM, waited)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def test_an_input_file_that_is_a_fifo_or_a_device_is_refused_unopened_for_long(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in (fifo, "/dev/null"):
        with pytest.raises(argparse.ArgumentTypeError, match="is not a regular file"):
            input_file(str(path))
    assert input_file(__file__) == __file__


def test_commands_reading_a_fifo_say_so_in_one_line(tmp_path, capsys):
    fifo = tmp_path / "store.sqlite"
    os.mkfifo(fifo)
    for argv in (["export", str(fifo)], ["replay", str(fifo)]):
        status = main(argv)
        err = capsys.readouterr().err
        assert status == 2 and "is not a regular file" in err, err
        assert len(err.strip().splitlines()) == 1


def test_an_endgame_database_holding_a_fifo_is_refused(tmp_path):
    os.mkfifo(level_path(tmp_path, 0))
    with pytest.raises(DatabaseError, match="is not a regular file"):
        database_identity(tmp_path)


@pytest.mark.parametrize("text", ["random=1_000", "random=١٢", "random=inf", "random", "=5"])
def test_an_anchor_takes_the_command_lines_numbers_only(text):
    with pytest.raises(ValueError, match="an anchor is SPEC=RATING"):
        parse_anchor(text)
    assert parse_anchor("alphabeta:depth=1=1000") == ("alphabeta:depth=1", 1000.0)
