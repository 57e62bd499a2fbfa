"""Opening suites: the file format, its checks, the `mancala openings` command, and
tournaments and matches that play from a suite."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json

import numpy as np
import pytest

from mancala_env import Game, list_variants
from mancala_env.agents.loader import load_agent
from mancala_env.agents.tournament import (
    OpeningSuite,
    SuiteError,
    TournamentConfig,
    build_suite,
    match_config,
    read_suite,
    run_tournament,
    save_suite,
    schedule,
)
from mancala_env.agents.tournament.openings import (
    FORMAT_NAME,
    SUITES,
    _position,
    _rate,
    parse_suite,
    random_line,
    shipped_suite,
)
from mancala_env.agents.tournament.report import _markdown
from mancala_env.cli import main
from mancala_env.cli.tournament import suite_file

SEARCH = "alphabeta:depth=1"
VARIANTS = [v if isinstance(v, str) else v.name for v in list_variants()]


@pytest.fixture(scope="module")
def suite() -> OpeningSuite:
    return build_suite("oware", count=3, plies=2, search=SEARCH, margin=100, seed=7)


@pytest.fixture
def saved(tmp_path, suite):
    path = tmp_path / "oware.json"
    save_suite(suite, path)
    return path


def edited(path, change) -> None:
    """Rewrite the suite file at `path` with `change(document)` applied."""
    document = json.loads(path.read_text())
    change(document)
    path.write_text(json.dumps(document))


def test_a_suite_round_trips_through_its_file(saved, suite):
    data = saved.read_bytes()
    back = read_suite(saved, "oware", {})
    assert back.entries == suite.entries
    assert back.sha256 == hashlib.sha256(data).hexdigest() == suite.sha256
    assert back == suite
    document = json.loads(data)
    assert document["format"] == {"name": FORMAT_NAME, "version": 1}
    assert (document["variant"], document["plies"], document["search"]) == ("oware", 2, SEARCH)
    assert (document["margin"], document["seed"], document["tried"]) == (100.0, 7, 3)
    assert document["options"]["houses"] == 6  # every option, defaults included
    assert [e["moves"] for e in document["entries"]] == [list(e.moves) for e in suite.entries]
    assert not list(saved.parent.glob(".*.tmp"))  # the temporary file was renamed


def test_the_kept_positions_are_distinct_and_within_the_margin():
    suite = build_suite("oware", count=6, plies=2, search=SEARCH, margin=0, seed=1)
    assert all(abs(e.value) <= 0 for e in suite.entries)
    positions = set()
    for entry in suite.entries:
        game = Game("oware")
        game.reset(np.random.default_rng(entry.seed))
        for move in entry.moves:
            game.step(move)
        positions.add(game.state.tobytes())
    assert len(positions) == 6 and suite.tried >= 6


def test_too_few_even_positions_is_a_clear_error():
    with pytest.raises(ValueError, match="short of 5"):
        build_suite("oware", count=5, plies=2, search=SEARCH, margin=0, max_tries=2)
    with pytest.raises(ValueError, match="reports no value"):
        build_suite("oware", count=1, search="random")


def _game_over_line(plies_over: int) -> tuple[int, list[int]]:
    """A reset seed and the moves of a whole random oware game, `plies_over` moves past the
    end (0: ending it)."""
    game = Game("oware")
    game.reset(np.random.default_rng(3))
    chooser = np.random.default_rng(4)
    moves = []
    while not game.over:
        moves.append(int(chooser.choice(game.legal_actions())))
        game.step(moves[-1])
    return 3, moves + [0] * plies_over


def nested(depth: int) -> list:
    """A list `depth` lists deep."""
    return [] if depth == 1 else [nested(depth - 1)]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format={"name": "other", "version": 1}), "not an opening suite"),
        (lambda d: d["format"].update(version=3), "format version 3 is not known"),
        (lambda d: d.update(variant="chess"), "unknown rule set 'chess'"),
        (lambda d: d.update(version=99), "version 99"),
        (lambda d: d["options"].update(houses="x"), "options are not valid"),
        (lambda d: d["options"].pop("houses"), "must name every oware option"),
        (lambda d: d.pop("margin"), "lacks margin"),
        (lambda d: d.update(extra=1), "unknown fields extra"),
        (lambda d: d.update(entries=[]), "a list of 1 to 100,000 entries"),
        (lambda d: d.update(entries=d["entries"] * 33_334), "a list of 1 to 100,000 entries"),
        (lambda d: d["format"].update(version=True), "format version True is not known"),
        (lambda d: d["format"].update(version=1.0), "format version 1.0 is not known"),
        (lambda d: d.update(version=True), "version True"),
        (lambda d: d.update(version=1.0), "version 1.0"),
        (lambda d: d.update(margin=float("inf")), "margin must be a number from 0 to inf"),
        (lambda d: d.update(plies=2.0), "plies must be an integer"),
        (lambda d: d.update(entries=[nested(40)]), r"nests 4\d levels deep; at most 32"),
        (lambda d: d["entries"][0].update(moves=[0]), "entry 0 has 1 moves"),
        (lambda d: d["entries"][1].update(seed=-1), "entry 1: seed"),
        (lambda d: d["entries"][1].update(value=None), "entry 1: value"),
        (lambda d: d["entries"][2].update(moves=[99, 0]), r"entry 2: move 0 \(99\) is not legal"),
    ],
)
def test_each_problem_of_a_suite_file_is_named(saved, change, message):
    edited(saved, change)
    with pytest.raises(SuiteError, match=message) as caught:
        read_suite(saved)
    assert str(saved) in str(caught.value)


def test_a_line_that_ends_the_game_is_refused(saved):
    seed, moves = _game_over_line(0)

    def ending(document):
        document["plies"] = len(moves)
        document["entries"] = [{"seed": seed, "moves": moves, "value": 0}]

    edited(saved, ending)
    with pytest.raises(SuiteError, match="entry 0: the game is over after its moves"):
        read_suite(saved)
    seed, moves = _game_over_line(1)
    edited(saved, ending)
    with pytest.raises(SuiteError, match="the game is over before move"):
        read_suite(saved)


def test_a_suite_of_other_rules_is_refused(saved):
    with pytest.raises(SuiteError, match="for oware, not kpo"):
        read_suite(saved, "kpo")
    with pytest.raises(SuiteError, match="other oware options .*seeds: suite 4, games 5"):
        read_suite(saved, "oware", {"seeds": 5})
    assert read_suite(saved, "oware", {"seeds": 4}).variant == "oware"  # a default named
    with pytest.raises(SuiteError, match="not JSON"):
        parse_suite(b"{")
    with pytest.raises(SuiteError, match="cannot be read"):
        read_suite(saved.parent / "missing.json")


def test_a_tournament_plays_the_suite_entries_from_both_seats(tmp_path, suite):
    config = TournamentConfig(
        "oware", ("random", "greedy"), games_per_pair=8, opening_suite=suite, seed=3
    )
    tasks = schedule(config)
    for couple in range(4):
        entry = suite.entries[couple % len(suite.entries)]
        first, second = tasks[2 * couple], tasks[2 * couple + 1]
        assert first.seed == second.seed == entry.seed
        assert first.opening == second.opening == entry.moves
        assert first.agents == second.agents[::-1]
    result = run_tournament(config, db=tmp_path / "t.sqlite", progress=False)
    played = sorted(result.records, key=lambda r: r["game_index"])
    for record, task in zip(played, tasks, strict=True):
        assert record["seed"] == task.seed and tuple(record["opening"]) == task.opening
        assert tuple(record["moves"][: len(task.opening)]) == task.opening
        assert (record["agent_0"], record["agent_1"]) == task.agents
    assert f"the 3 lines of 2 plies of opening suite {suite.sha256[:16]}" in _markdown(result)


def test_the_key_holds_the_suite_content_not_its_path(tmp_path, suite):
    other = build_suite("oware", count=3, plies=2, search=SEARCH, margin=100, seed=8)
    one, two, three = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "c.json"
    save_suite(suite, one)
    save_suite(suite, two)
    save_suite(other, three)

    def key(path):
        return TournamentConfig(
            "oware", ("random", "greedy"), opening_suite=read_suite(path, "oware")
        ).key

    assert key(one) == key(two) != key(three)
    plain = TournamentConfig("oware", ("random", "greedy"), openings=0)
    assert key(one) != plain.key
    assert "opening_suite" not in plain.to_json()  # configs without a suite keep their key
    stored = TournamentConfig("oware", ("random", "greedy"), opening_suite=read_suite(one))
    back = TournamentConfig.from_json(json.loads(json.dumps(stored.to_json())))
    assert back.key == stored.key and back.opening_suite == stored.opening_suite


def test_a_suite_and_random_openings_together_are_refused(suite, saved, tmp_path):
    with pytest.raises(ValueError, match="not both"):
        TournamentConfig("oware", ("random", "greedy"), openings=2, opening_suite=suite)
    with pytest.raises(SuiteError, match="for oware, not kpo"):
        TournamentConfig("kpo", ("random", "greedy"), opening_suite=suite)
    for extra in (["--openings", "3"], ["--opening-plies", "2"]):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            status = main(
                ["tournament", "oware", "--agents", "random", "greedy", "--opening-suite",
                 str(saved), "--db", str(tmp_path / "x.sqlite"), *extra]
            )  # fmt: skip
        assert status == 2 and "give one of them" in err.getvalue()
    assert not (tmp_path / "x.sqlite").exists()


def test_a_match_plays_pair_k_from_entry_k(suite):
    config = match_config("oware", "random", "greedy", opening_suite=suite)
    assert config.openings == 0
    tasks = schedule_prefix(config, 8)
    for pair in range(4):
        entry = suite.entries[pair % 3]
        assert tasks[2 * pair].opening == tasks[2 * pair + 1].opening == entry.moves


def schedule_prefix(config, n):
    from mancala_env.agents.tournament.schedule import scheduled

    found = []
    for task in scheduled(config):
        found.append(task)
        if len(found) == n:
            return found
    return found


def test_the_command_builds_a_suite_and_tournaments_and_matches_read_it(tmp_path):
    path = tmp_path / "s.json"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(
            ["openings", "oware", "--out", str(path), "--count", "2", "--plies", "3",
             "--search", SEARCH, "--margin", "50", "--seed", "5", "--no-progress"]
        )  # fmt: skip
    assert status == 0, err.getvalue()
    assert "2 openings of 3 plies kept" in out.getvalue() and err.getvalue() == ""
    suite = read_suite(path, "oware")
    assert (suite.plies, suite.seed, suite.search, len(suite.entries)) == (3, 5, SEARCH, 2)
    db = tmp_path / "t.sqlite"
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(
            ["tournament", "oware", "--agents", "random", "greedy", "--games-per-pair", "4",
             "--opening-suite", str(path), "--db", str(db), "--workers", "1", "--no-progress"]
        )  # fmt: skip
    assert status == 0, err.getvalue()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(
            ["match", "random", "greedy", "--opening-suite", str(path), "--db", str(db),
             "--workers", "1", "--max-pairs", "2"]
        )  # fmt: skip
    assert status == 0, err.getvalue()
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main(
            ["openings", "oware", "--out", str(path), "--count", "3", "--search", SEARCH,
             "--margin", "0", "--max-tries", "1", "--no-progress"]
        )  # fmt: skip
    assert status == 2 and "short of 3" in err.getvalue()
    assert read_suite(path).entries == suite.entries  # a failed build leaves the file


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_rule_set_ships_a_suite_that_replays(variant):
    path = shipped_suite(variant)
    assert path is not None and path.parent == SUITES
    suite = read_suite(path, variant, {})  # replays every entry
    assert len(suite.entries) >= 8
    assert all(abs(entry.value) <= suite.margin for entry in suite.entries)


def test_a_rule_set_name_reads_its_shipped_suite_unless_a_file_has_that_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert suite_file("kpo") == str(shipped_suite("kpo"))
    (tmp_path / "kpo").write_text("{}")
    assert suite_file("kpo") == "kpo"
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main(["match", "random", "greedy", "--opening-suite", "oware", "--variant", "kpo"])
    assert status == 2 and "the opening suite is for oware, not kpo" in err.getvalue()
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main(["tournament", "oware", "--opening-suite", "owre"])
    assert status == 2
    assert "owre: no such file, nor the name of a shipped suite (ayoayo," in err.getvalue()


def test_a_forced_move_is_followed_before_the_position_is_rated():
    """A search agent plays the only legal move without searching (and reports no value): the
    position after it is rated instead, from the first mover's side."""
    game = _position("mangala", {}, 0, random_line("mangala", {}, 4, 0))
    (only,) = game.legal_actions()  # mangala's first sowing after the board is accepted
    before = game.state.copy()
    agent = load_agent("alphabeta:depth=2", "mangala", seed=0)
    value = _rate(agent, game)
    assert agent.last_depth == 2 and np.array_equal(game.state, before)
    child = game.copy()
    while len(child.legal_actions()) == 1:  # mangala's sowings may be forced a while
        child.step(int(child.legal_actions()[0]))
    agent.reset(0)
    agent.act(child)
    assert value == (agent.last_value if child.to_move == game.to_move else -agent.last_value)
