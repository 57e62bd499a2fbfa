"""The commands that play without anyone at the terminal refuse the agent that asks a person
for its moves (``human``) before they play or write anything, as a tournament does; they never
wait on standard input, nor end at its end."""

from __future__ import annotations

import io
import sys

import pytest

from mancala_env.cli import main


class NoOneTyping(io.StringIO):
    """Standard input that fails the test if a command reads it."""

    def readline(self, *_: object) -> str:
        raise AssertionError("the command read standard input")

    read = readline


@pytest.fixture
def commands(oware_db, tmp_path):
    store = str(tmp_path / "t.sqlite")
    runner = ["--workers", "1", "--db", store]
    return {
        "metrics": ["metrics", "oware", "--games", "2", "--agent", "human"],
        "accuracy": ["accuracy", "human", "--max-seeds", "4", "--db", str(oware_db.directory)],
        "tournament": ["tournament", "oware", "--agents", "random", "human", *runner],
        "match": ["match", "human", "random", *runner],
    }


@pytest.mark.parametrize("command", ["metrics", "accuracy", "tournament", "match"])
def test_a_command_without_people_refuses_the_human_agent(
    commands, command, tmp_path, capsys, monkeypatch
):
    """`mancala metrics --agent human` and `mancala accuracy human` used to start playing and
    end in EOFError at the first move asked of the agent (standard input at its end)."""
    monkeypatch.setattr(sys, "stdin", NoOneTyping())
    assert main(commands[command]) == 2
    out, err = capsys.readouterr()
    assert f"mancala {command}: error: bad agent spec 'human': " in err
    assert "plays without people; choose another agent" in err
    assert out == "" and not (tmp_path / "t.sqlite").exists()
