"""`--anchor`: one rating an agent. Two for the same agent are refused in one line naming it,
before a store is made, not settled by the last one given."""

from __future__ import annotations

import pytest

from mancala_env.agents.tournament.ratings import anchors_given
from mancala_env.cli import main


def test_two_anchors_for_one_agent_are_refused_in_one_line(tmp_path, capsys):
    db = tmp_path / "t.sqlite"
    status = main(
        ["tournament", "oware", "--agents", "random", "greedy", "--games-per-pair", "2",
         "--db", str(db), "--no-progress", "--anchor", "random=0", "--anchor", "random=100"]
    )  # fmt: skip
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err == (
        "mancala tournament: error: argument --anchor: random is anchored twice "
        "(random=0 and random=100); give each agent one rating\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_anchors_of_different_agents_are_kept():
    assert anchors_given([("random", 0.0), ("greedy", 100.0)]) == {"random": 0.0, "greedy": 100.0}
    with pytest.raises(ValueError, match="^alphabeta:depth=1 is anchored twice"):
        anchors_given([("alphabeta:depth=1", 1.0), ("random", 0.0), ("alphabeta:depth=1", 1.0)])
