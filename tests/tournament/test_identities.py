"""A stored tournament reads back under the identities it was played with:
its agents' files may change or go, its key stays; playing it on is refused, and a tournament
of the changed agent is a new one, announced as such."""

from __future__ import annotations

import logging
import sys

import pytest
from scripted_agents import AGENT_SOURCE

from mancala_env.agents.tournament import GameStore, TournamentConfig, run_tournament
from mancala_env.agents.tournament.schedule import short

MODULE = "identity_test_agent"
SPEC = f"python:{MODULE}:Agent"


@pytest.fixture
def user_agent(tmp_path, monkeypatch):
    """The file of a user's agent module, importable from `tmp_path`, forgotten afterwards."""
    source = tmp_path / f"{MODULE}.py"
    source.write_text(AGENT_SOURCE.format(which="first", index=0))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, MODULE, raising=False)
    yield source
    sys.modules.pop(MODULE, None)


def make_config() -> TournamentConfig:
    return TournamentConfig("oware", ("random", SPEC), games_per_pair=2, openings=1, seed=3)


def test_a_stored_tournament_keeps_its_key_when_its_agent_file_changes(tmp_path, user_agent):
    db = tmp_path / "t.sqlite"
    played = run_tournament(make_config(), db=db, progress=False, bootstrap=20)
    key = played.config.key
    user_agent.write_text(AGENT_SOURCE.format(which="last", index=-1))
    assert make_config().key != key  # the new file is another agent
    with GameStore(db, read_only=True) as store:
        ((stored_key, stored),) = store.tournaments()
        assert stored_key == key and stored.key == key
        assert stored.identities == played.config.identities
        assert len(store.games(stored.key)) == 2
    user_agent.unlink()  # a file gone: the stored config still reads, under its key
    with GameStore(db, read_only=True) as store:
        ((stored_key, stored),) = store.tournaments()
        assert stored.key == key


def test_a_stored_tournament_whose_agent_changed_is_not_played_on(tmp_path, user_agent):
    db = tmp_path / "t.sqlite"
    run_tournament(make_config(), db=db, progress=False, bootstrap=20)
    user_agent.write_text(AGENT_SOURCE.format(which="last", index=-1))
    with GameStore(db, read_only=True) as store:
        ((key, stored),) = store.tournaments()
    assert stored.changes() == [
        f"{SPEC} was {short(stored.identities[1])}; "
        f"its file now holds {short(make_config().identities[1])}"
    ]
    with pytest.raises(
        ValueError, match=f"tournament {key} cannot go on: {SPEC} was sha256:\\w{{12}};"
    ):
        run_tournament(stored, db=db, progress=False, bootstrap=20)
    with GameStore(db, read_only=True) as store:
        assert store.tournament_keys() == [key] and len(store.games()) == 2


def test_a_changed_agent_makes_a_new_tournament_and_says_so(tmp_path, user_agent, caplog):
    db = tmp_path / "t.sqlite"
    first = run_tournament(make_config(), db=db, progress=False, bootstrap=20)
    old = first.config.identities[1]
    user_agent.write_text(AGENT_SOURCE.format(which="last", index=-1))
    again = make_config()
    with caplog.at_level(logging.WARNING, logger="mancala_env.agents.tournament"):
        second = run_tournament(again, db=db, progress=False, bootstrap=20)
    (note,) = [r.getMessage() for r in caplog.records if r.name == "mancala_env.agents.tournament"]
    assert note == (
        f"note: {SPEC} (was {short(old)}, is now {short(again.identities[1])}) changed since "
        f"tournament {first.config.key} was played; its 2 games stay there, and this is a new "
        f"tournament {again.key} that plays from the first game"
    )
    assert second.played == 2 and second.config.key != first.config.key
    caplog.clear()
    with caplog.at_level(
        logging.WARNING, logger="mancala_env.agents.tournament"
    ):  # resumed: no note
        assert run_tournament(again, db=db, progress=False, bootstrap=20).played == 0
    assert not caplog.records


def test_stored_identities_are_checked():
    with pytest.raises(ValueError, match="one string for each of the 2 agents"):
        TournamentConfig("oware", ("random", "greedy"), identities=("random v1",))
    record = TournamentConfig("oware", ("random", "greedy")).to_json()
    assert (
        TournamentConfig.from_json(record).key
        == TournamentConfig("oware", ("random", "greedy")).key
    )
    with pytest.raises(ValueError, match="rules must be a dict"):
        TournamentConfig.from_json({**record, "rules": {"version": 1}})
