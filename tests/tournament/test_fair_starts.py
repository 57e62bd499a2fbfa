"""Fair starts: boards a seed or two moved from the start that perfect play draws, kept as opening
suites of start boards; tournaments, matches and replays that begin there; hostile suites."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from mancala_env import Game
from mancala_env.agents.tournament import (
    SuiteError,
    TournamentConfig,
    match_config,
    read_suite,
    run_tournament,
    save_suite,
    schedule,
)
from mancala_env.agents.tournament.fair import build_fair_suite, candidate_starts, start_board
from mancala_env.agents.tournament.openings import SUITES, shipped_names, shipped_suite
from mancala_env.agents.tournament.replay import load_record, replay
from mancala_env.agents.tournament.starts import Start, check_startable, moved_starts
from mancala_env.agents.tournament.store import GameStore, StoreError
from mancala_env.cli import main
from mancala_env.endgame.build import build
from mancala_env.endgame.database import EndgameDatabase
from mancala_env.readers import MAX_NESTING
from mancala_env.variants import VARIANTS, get_variant

SMALL = {"houses": 2, "seeds": 3}  # 12 seeds on four pits: solved whole in seconds
TOTAL = 12


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    directory = tmp_path_factory.mktemp("oware-2x3")
    rules = get_variant("oware")
    build(rules, rules.options(**SMALL), TOTAL, directory, progress=False)
    return directory


@pytest.fixture(scope="module")
def partial(tmp_path_factory):
    """A database of the same rules holding boards of at most 6 seeds: not the start's."""
    directory = tmp_path_factory.mktemp("oware-2x3-partial")
    rules = get_variant("oware")
    build(rules, rules.options(**SMALL), 6, directory, progress=False)
    return directory


@pytest.fixture(scope="module")
def fair(database):
    return build_fair_suite("oware", SMALL, moved=2, database=database, seed=4)


@pytest.fixture
def saved(tmp_path, fair):
    path = tmp_path / "fair.json"
    save_suite(fair, path)
    return path


def best_half_seeds(database, start: Start) -> int:
    """The best move's half seeds from `start` by the database's probe of each move (not the
    board's stored value that the suite's judge reads)."""
    game = Game("oware", **SMALL)
    snapshot = game.snapshot()
    snapshot.update(start.to_json())
    game.restore(snapshot)
    return max(EndgameDatabase.for_game(database, game).action_values(game).values())


def test_the_starts_moved_are_every_board_one_or_two_seeds_away():
    game = start_board("oware", {})  # six houses of four, player_0 to move
    for moved, count in ((1, 132), (2, 4422)):
        starts = moved_starts(game, moved)
        assert len(starts) == len(set(starts)) == count
        for start in starts:
            assert sum(start.pits) == 48 and min(start.pits) >= 0 and start.to_move == 0
            assert sum(abs(p - 4) for p in start.pits) == 2 * moved
    assert len(candidate_starts("oware", SMALL, 2)) == 12 + 12 + 12 + 12 + 6  # see above


def test_a_fair_start_is_a_draw_by_the_database_and_a_moved_start_that_is_not_is_left_out(
    database, fair
):
    kept = {entry.start for entry in fair.entries}
    assert kept and fair.tried == 54 and fair.plies == 0 and fair.margin == 0
    assert fair.search.startswith("perfect play (endgame database sha256:")
    for entry in fair.entries:
        assert entry.moves == () and entry.value == 0
        assert best_half_seeds(database, entry.start) == TOTAL  # half the seeds each: a draw
    left_out = [s for s in candidate_starts("oware", SMALL, 2) if s not in kept]
    assert left_out
    assert all(best_half_seeds(database, start) != TOTAL for start in left_out)


def test_a_fair_suite_round_trips_as_format_version_2(saved, fair):
    document = json.loads(saved.read_text())
    assert document["format"]["version"] == 2
    assert document["entries"][0]["start"] == fair.entries[0].start.to_json()
    assert read_suite(saved, "oware", SMALL) == fair


def test_a_tournament_plays_each_start_from_both_seats_and_its_records_replay(tmp_path, fair):
    config = TournamentConfig(
        "oware", ("random", "greedy"), options=SMALL, games_per_pair=6, opening_suite=fair
    )
    tasks = schedule(config)
    for couple in range(3):
        entry = fair.entries[couple % len(fair.entries)]
        first, second = tasks[2 * couple : 2 * couple + 2]
        assert first.start == second.start == entry.start
        assert first.agents == second.agents[::-1]
    db = tmp_path / "t.sqlite"
    result = run_tournament(config, db=db, progress=False)
    for record in sorted(result.records, key=lambda r: r["game_index"]):
        task = tasks[record["game_index"]]
        assert record["start"] == task.start.to_json()
        positions = replay(record)
        assert next(positions)[0].pits.tolist() == list(task.start.pits)
        assert [action for _, _, action in positions] == record["moves"]
    export = tmp_path / "games.jsonl"
    with GameStore(db, read_only=True) as store:
        export.write_text("\n".join(store.export_jsonl()) + "\n")
        first_id = store.games()[0]["id"]
    begun, _, _ = next(replay(load_record(export, first_id)))
    assert begun.pits.tolist() == list(tasks[0].start.pits)


def test_a_match_plays_pair_k_from_start_k(fair):
    from mancala_env.agents.tournament.schedule import scheduled

    config = match_config("oware", "random", "greedy", options=SMALL, opening_suite=fair)
    tasks = [task for task, _ in zip(scheduled(config), range(4), strict=False)]
    assert [task.start for task in tasks] == [fair.entries[0].start] * 2 + [
        fair.entries[1 % len(fair.entries)].start
    ] * 2


def test_a_record_with_a_bad_start_is_refused_in_one_line(tmp_path, fair):
    config = TournamentConfig(
        "oware", ("random", "greedy"), options=SMALL, games_per_pair=2, opening_suite=fair
    )
    (record, *_) = run_tournament(config, db=tmp_path / "t.sqlite", progress=False).records
    for start in ({"pits": [12, 0, 0, 1], "to_move": 0}, {"pits": [3] * 4}, [3, 3, 3, 3]):
        with pytest.raises(StoreError, match="start") as caught:
            list(replay({**record, "start": start}))
        assert "\n" not in str(caught.value)


HOSTILE = [
    (lambda e: e["start"].update(pits=[3, 3, 3]), "pits must be 4 integers from 0 to 12"),
    (lambda e: e["start"].update(pits=[4, 3, 3, 3]), "hold 13 seeds; oware"),
    (lambda e: e["start"].update(pits=[-1, 7, 3, 3]), "pits must be 4 integers"),
    (lambda e: e["start"].update(pits=[10**30, 0, 0, 0]), "pits must be 4 integers"),
    (lambda e: e["start"].update(pits=[3.0, 3, 3, 3]), "pits must be 4 integers"),
    (lambda e: e["start"].update(pits=[True, 5, 3, 3]), "pits must be 4 integers"),
    (lambda e: e["start"].update(pits=[0] * 100_000), "pits must be 4 integers"),
    (lambda e: e["start"].update(to_move=2), "to_move must be 0 or 1"),
    (lambda e: e["start"].update(to_move=None), "to_move must be 0 or 1"),
    (lambda e: e["start"].update(stores=[0, 0]), "pits and to_move only"),
    (lambda e: e.update(start=[3, 3, 3, 3]), "pits and to_move only"),
    (lambda e: e.update(start={"pits": [0, 0, 0, 12], "to_move": 0}), "over before its first"),
    (lambda e: e.update(start=json.loads("[" * MAX_NESTING + "]" * MAX_NESTING)), "nest"),
    (lambda e: e.update(moves=[0]), "entry 0 has 1 moves"),
]


@pytest.mark.parametrize(("change", "message"), HOSTILE)
def test_each_problem_of_a_start_in_a_suite_file_is_named_in_one_line(saved, change, message):
    document = json.loads(saved.read_text())
    change(document["entries"][0])
    saved.write_text(json.dumps(document))
    with pytest.raises(SuiteError, match=message) as caught:
        read_suite(saved)
    assert str(caught.value).startswith(str(saved)) and "\n" not in str(caught.value)
    assert len(str(caught.value)) < 500


def test_a_start_in_a_version_1_file_is_refused(saved):
    document = json.loads(saved.read_text())
    document["format"]["version"] = 1
    saved.write_text(json.dumps(document))
    with pytest.raises(SuiteError, match="entry 0 must be an object of seed, moves, value, got"):
        read_suite(saved)


def test_a_hostile_suite_is_refused_by_the_tournament_command_in_one_line(tmp_path, saved):
    document = json.loads(saved.read_text())
    document["entries"][0]["start"]["pits"] = [4, 4, 4, 4]
    saved.write_text(json.dumps(document))
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main(
            ["tournament", "oware", "--option", "houses=2", "--option", "seeds=3",
             "--agents", "random", "greedy", "--opening-suite", str(saved),
             "--db", str(tmp_path / "x.sqlite"), "--no-progress"]
        )  # fmt: skip
    assert status == 2 and err.getvalue().count("\n") == 1
    assert "entry 0: a start's pits hold 16 seeds" in err.getvalue()
    assert not (tmp_path / "x.sqlite").exists()


def test_the_command_makes_a_fair_suite_by_the_database(tmp_path, database, fair):
    path = tmp_path / "made.json"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(
            ["openings", "oware", "--fair", "--db", str(database), "--option", "houses=2",
             "--option", "seeds=3", "--seed", "4", "--out", str(path), "--no-progress"]
        )  # fmt: skip
    assert status == 0, err.getvalue()
    assert f"{len(fair.entries)} even starts of 54 with 1 to 2 seeds moved" in out.getvalue()
    assert read_suite(path, "oware", SMALL).entries == fair.entries


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--fair", "--count", "3"], "--count: not with --fair"),
        (["--moved", "1"], "--moved: with --fair only"),
        (["--fair", "--moved", "3"], "argument --moved"),
        (["--fair", "--db", "DB", "--search", "greedy"], "not with --search or --margin"),
        (["--fair", "--db", "PARTIAL"], "holds boards of at most 6 seeds; perfect play"),
        (["--fair", "--db", "DB", "--option", "houses=3", "--option", "seeds=2"], "built for"),
        (["--fair", "--search", "greedy"], "reports no value"),
    ],
)
def test_bad_fair_settings_are_one_line_and_write_nothing(
    tmp_path, database, partial, arguments, message
):
    path = tmp_path / "made.json"
    folders = {"DB": str(database), "PARTIAL": str(partial)}
    arguments = [folders.get(a, a) for a in arguments]
    if "--option" not in arguments:  # the database's rules, else a board of other rules
        arguments += ["--option", "houses=2", "--option", "seeds=3"]
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            status = main(["openings", "oware", "--out", str(path), "--no-progress", *arguments])
        except SystemExit as exit:  # argparse's own refusals
            status = exit.code
    assert status == 2 and message in err.getvalue() and err.getvalue().count("\n") == 1
    assert not path.exists()


FAIR_SHIPPED = [name for name in shipped_names() if name.endswith("-fair")]


def test_fair_suites_are_shipped():
    assert {"oware-3x3-fair", "oware-fair"} <= set(FAIR_SHIPPED)


def _startable(variant: str) -> bool:
    try:
        check_startable(Game(variant))
    except ValueError:
        return False
    return True


def test_every_rule_set_that_begins_on_the_board_ships_a_full_board_fair_suite():
    """(Kpo plays Oware's board and rules: `oware-fair` is its suite.) The rule sets that set
    their seeds out first have no start board to move a seed from."""
    startable = {variant for variant in VARIANTS if _startable(variant)}
    assert {f"{variant}-fair" for variant in startable - {"kpo"}} <= set(FAIR_SHIPPED)
    assert {"mangala", "mighty_men", "mighty_men_calm"}.isdisjoint(startable)


@pytest.mark.parametrize("name", FAIR_SHIPPED)
def test_each_shipped_fair_suite_reads_by_name_and_its_starts_are_boards_of_the_rules(name):
    path = shipped_suite(name)
    assert path == SUITES / f"{name}.json"
    suite = read_suite(path)  # every start checked, every entry set out
    game = Game(suite.variant, **suite.options)
    assert suite.has_starts and suite.entries
    for entry in suite.entries:
        assert sum(entry.start.pits) == game.total_seeds and entry.start.to_move == 0
        assert abs(entry.value) <= suite.margin


def test_a_tournament_plays_the_shipped_small_board_suite_by_name(tmp_path):
    db = tmp_path / "t.sqlite"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(
            ["tournament", "oware", "--option", "houses=3", "--option", "seeds=3",
             "--agents", "random", "greedy", "--games-per-pair", "4",
             "--opening-suite", "oware-3x3-fair", "--db", str(db), "--workers", "1",
             "--no-progress"]
        )  # fmt: skip
    assert status == 0, err.getvalue()
    suite = read_suite(shipped_suite("oware-3x3-fair"))
    with GameStore(db, read_only=True) as store:
        records = sorted(store.games(), key=lambda r: r["game_index"])
    assert [r["start"] for r in records] == [suite.entries[k].start.to_json() for k in (0, 0, 1, 1)]
    for record in records:
        begun, _, _ = next(replay(record))
        assert begun.pits.tolist() == record["start"]["pits"] and begun.to_move == 0
