"""Tournaments and matches whose games an endgame database ends: the records say so and stop
where it ended them, the key follows the database's contents and the mode, and a database that
cannot serve the tournament is refused before a store is written."""

from __future__ import annotations

import json

import pytest

from mancala_env.agents.tournament import TournamentConfig, run_tournament
from mancala_env.agents.tournament.replay import load_record, replay
from mancala_env.agents.tournament.store import GameStore
from mancala_env.cli import main
from mancala_env.endgame.adjudicate import Adjudication, Adjudicator
from mancala_env.endgame.build import build
from mancala_env.endgame.files import level_path
from mancala_env.variants import get_variant

OWARE = get_variant("oware")
SMALL = {"houses": 4, "seeds": 3}  # 24 seeds: games reach a database of 12 before a majority
SEEDS = 12
AGENTS = ("random", "greedy", "alphabeta:depth=1")


@pytest.fixture(scope="module")
def small_db(tmp_path_factory) -> str:
    directory = tmp_path_factory.mktemp("oware-4x3")
    build(OWARE, OWARE.options(**SMALL), SEEDS, directory, progress=False)
    return str(directory)


def config_of(adjudication: Adjudication | None, **changes) -> TournamentConfig:
    settings = {"games_per_pair": 8, "seed": 3, **changes}
    return TournamentConfig("oware", AGENTS, options=SMALL, adjudication=adjudication, **settings)


@pytest.fixture(scope="module")
def played(small_db, tmp_path_factory):
    """The same tournament with and without adjudication, in one store."""
    store = tmp_path_factory.mktemp("store") / "t.sqlite"
    plain = run_tournament(config_of(None), db=store, progress=False)
    judged = run_tournament(config_of(Adjudication(small_db)), db=store, progress=False)
    return store, plain, judged


def test_adjudicated_games_stop_where_the_database_knows_the_result(small_db, played) -> None:
    """Each game of the adjudicated tournament is the unadjudicated one's cut at the first
    position the adjudicator knows: the same seeds and agents play the same moves up to there,
    and the record holds the adjudicator's result of that position."""
    _, plain, judged = played
    adjudicator = Adjudicator.open(small_db, OWARE, OWARE.options(**SMALL), "all")
    assert plain.config.key != judged.config.key
    by_index = {record["game_index"]: record for record in plain.records}
    adjudicated = 0
    for record in judged.records:
        whole = by_index[record["game_index"]]
        assert whole["moves"][: record["length"]] == record["moves"]
        *_, (game, _, _) = replay(record)
        verdict = adjudicator.verdict(game.state)
        if record["end_reason"] == "adjudicated":
            adjudicated += 1
            assert record["length"] < whole["length"]
            assert (record["score_0"], record["score_1"]) == verdict.scores
            assert record["winner"] == (-1 if verdict.winner is None else verdict.winner)
        else:
            fields = ("moves", "winner", "score_0", "score_1", "end_reason", "length")
            assert [record[f] for f in fields] == [whole[f] for f in fields]
        # no position before the last was one the adjudicator knew
        for number, (position, _, _) in enumerate(replay(record)):
            if number < record["length"]:
                assert adjudicator.verdict(position.state) is None
    assert adjudicated >= len(judged.records) // 2
    saved = sum(r["length"] for r in plain.records) - sum(r["length"] for r in judged.records)
    assert saved > 0


def test_the_decisive_mode_plays_drawn_positions_on(small_db, played, tmp_path) -> None:
    _, _, every = played
    decisive = run_tournament(
        config_of(Adjudication(small_db, "decisive")), db=tmp_path / "d.sqlite", progress=False
    )
    assert decisive.config.key != every.config.key
    ended = [r for r in decisive.records if r["end_reason"] == "adjudicated"]
    assert ended and all(r["winner"] != -1 for r in ended)
    assert any(r["winner"] == -1 for r in every.records if r["end_reason"] == "adjudicated")


def test_the_key_follows_the_databases_contents_not_its_folder(small_db, tmp_path) -> None:
    copy = tmp_path / "copy"
    copy.mkdir()
    for seeds in range(SEEDS + 1):
        level_path(copy, seeds).write_bytes(level_path(small_db, seeds).read_bytes())
    key = config_of(Adjudication(small_db)).key
    assert config_of(Adjudication(str(copy))).key == key  # the same files elsewhere
    level_path(copy, SEEDS).unlink()  # a database of one seed count fewer
    changed = config_of(Adjudication(str(copy)))
    assert changed.key != key
    stored = TournamentConfig.from_json(json.loads(json.dumps(changed.to_json())))
    assert stored.key == changed.key and stored.adjudication == changed.adjudication
    assert stored.changes() == []
    build(OWARE, OWARE.options(**SMALL), SEEDS, copy, progress=False)  # whole again
    assert any("endgame database" in change for change in stored.changes())
    # a config without a database keeps its key: no entry is added to what is hashed
    assert "adjudication" not in config_of(None).to_json()


def broken(kind: str, small_db: str, tmp_path) -> str:
    folder = tmp_path / kind
    folder.mkdir()
    for seeds in range(4):
        level_path(folder, seeds).write_bytes(level_path(small_db, seeds).read_bytes())
    if kind == "corrupt":
        data = bytearray(level_path(folder, 3).read_bytes())
        data[-1] ^= 1
        level_path(folder, 3).write_bytes(bytes(data))
    elif kind == "folder":
        level_path(folder, 4).mkdir()
    return str(folder)


@pytest.mark.parametrize(
    ("kind", "options", "message"),
    [
        ("corrupt", SMALL, "do not match their checksum"),
        ("other-rules", {}, "was built for oware"),
        ("folder", SMALL, "not a regular file"),
    ],
)
def test_a_database_that_cannot_adjudicate_leaves_no_store(
    kind, options, message, small_db, tmp_path, capsys
) -> None:
    folder = broken(kind, small_db, tmp_path)
    store = tmp_path / "t.sqlite"
    rules = [f"--option={name}={value}" for name, value in options.items()]
    status = main(
        ["tournament", "oware", "--agents", "random", "greedy", "--games-per-pair", "2",
         "--workers", "1", "--no-progress", "--db", str(store), "--adjudicate", folder, *rules]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert status == 2 and message in err and len(err.strip().splitlines()) == 1
    assert not store.exists()


def test_a_mode_without_a_database_is_refused(tmp_path, capsys) -> None:
    store = tmp_path / "t.sqlite"
    status = main(
        ["match", "random", "greedy", "--adjudicate-mode", "decisive", "--db", str(store)]
    )
    assert status == 2 and "--adjudicate-mode needs --adjudicate" in capsys.readouterr().err
    assert not store.exists()


def test_match_replay_and_export_of_adjudicated_games(small_db, tmp_path, capsys) -> None:
    store = tmp_path / "m.sqlite"
    status = main(
        ["match", "greedy", "random", "--max-pairs", "4", "--workers", "1", "--db", str(store),
         "--adjudicate", small_db, *(f"--option={k}={v}" for k, v in SMALL.items())]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert status == 0, out
    with GameStore(store, read_only=True) as opened:
        ((key, config),) = opened.tournaments()
        records = opened.games(key)
    assert config.adjudication.identity == Adjudication(small_db).identity
    record = next(r for r in records if r["end_reason"] == "adjudicated")
    assert main(["replay", str(store), str(record["id"]), "--no-step"]) == 0
    out = capsys.readouterr().out
    assert "(end_reason: adjudicated;" in out
    assert f"player_0 {record['score_0']}, player_1 {record['score_1']}" in out
    export = tmp_path / "games.jsonl"
    assert main(["export", str(store), "--out", str(export)]) == 0
    lines = [json.loads(line) for line in export.read_text().splitlines()]
    exported = next(r for r in lines if r["id"] == record["id"])
    assert load_record(export, record["id"]) == exported
    hostile = tmp_path / "hostile.jsonl"
    hostile.write_text(json.dumps({**exported, "score_0": "many"}) + "\n")
    assert main(["replay", str(hostile), "--no-step"]) == 2
    assert "an adjudicated game's score_0 must be an integer" in capsys.readouterr().err
