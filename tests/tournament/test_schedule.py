"""The schedule: every pair meets from both seats on the same seeds and openings."""

from __future__ import annotations

import dataclasses
import hashlib
import sys
from collections import Counter

import pytest

from mancala_env.agents import SpecError
from mancala_env.agents.tournament import TournamentConfig, schedule
from mancala_env.agents.tournament.match import start
from mancala_env.agents.tournament.schedule import describe_openings
from mancala_env.game import IllegalActionError

AGENTS = ("random", "greedy", "alphabeta:depth=1")


def test_round_robin_every_pair_plays_each_seat_equally_on_shared_seeds():
    config = TournamentConfig("oware", AGENTS, games_per_pair=6, openings=0)
    tasks = schedule(config)
    assert [t.index for t in tasks] == list(range(config.n_games)) == list(range(18))
    seats = Counter(t.agents for t in tasks)
    assert seats == {(a, b): 3 for a in AGENTS for b in AGENTS if a != b}
    for first, second in zip(tasks[::2], tasks[1::2], strict=True):
        assert second.agents == first.agents[::-1]
        assert second.seed == first.seed and second.opening == first.opening == ()
    assert len({t.seed for t in tasks}) == 9  # one seed per couple of games
    assert len({s for t in tasks for s in t.agent_seeds}) == 36  # every agent seeded apart


def test_gauntlet_pits_the_first_agent_against_each_other():
    config = TournamentConfig("oware", AGENTS, games_per_pair=4, format="gauntlet")
    pairs = Counter(frozenset(t.agents) for t in schedule(config))
    assert pairs == {frozenset(AGENTS[:2]): 4, frozenset((AGENTS[0], AGENTS[2])): 4}


def test_openings_are_the_same_lines_for_every_pair_and_legal():
    config = TournamentConfig("ayoayo", AGENTS, games_per_pair=8, openings=2, opening_plies=3)
    tasks = schedule(config)
    lines = {(t.seed, t.opening) for t in tasks}
    assert len(lines) == 2
    for t in tasks:
        assert len(t.opening) == 3
        game = start(t)
        for action in t.opening:
            game.step(action)  # raises IllegalActionError on an illegal line
        assert not game.over
    per_pair = Counter((frozenset(t.agents), t.opening) for t in tasks)
    assert set(per_pair.values()) == {4}  # each line twice from each seat, in every pair


def couples_of_a_pair(config: TournamentConfig) -> list[tuple[int, tuple[int, ...]]]:
    """The (seed, opening) of each couple of games of the first pair."""
    tasks = schedule(config)[: config.games_per_pair : 2]
    return [(t.seed, t.opening) for t in tasks]


def test_by_default_each_couple_of_a_pair_starts_from_its_own_opening():
    """The shipped suite where it fits the rules and has a line for each couple, else one random
    line a couple; asking for openings=0 starts every game from the starting position, and the
    choice is part of the tournament's key."""
    from mancala_env.agents.tournament.openings import read_suite, shipped_suite

    suite = read_suite(shipped_suite("oware"))
    shipped = TournamentConfig("oware", AGENTS, games_per_pair=8)
    assert shipped.opening_suite == suite and shipped.openings == 0
    assert couples_of_a_pair(shipped) == [(e.seed, e.moves) for e in suite.entries[:4]]
    assert "opening suite" in describe_openings(shipped)

    longer = 2 * len(suite.entries) + 2  # more couples than the suite has lines
    for config in (
        TournamentConfig("oware", AGENTS, games_per_pair=longer),
        TournamentConfig("oware", AGENTS, games_per_pair=8, options={"stall_limit": 99}),
        TournamentConfig("oware", AGENTS, games_per_pair=8, opening_plies=3),
    ):
        couples = config.games_per_pair // 2
        assert config.opening_suite is None and config.openings == couples
        assert len(set(couples_of_a_pair(config))) == couples
        assert describe_openings(config).startswith(f"openings: {couples} random lines")

    start = TournamentConfig("oware", AGENTS, games_per_pair=8, openings=0)
    assert {opening for _, opening in couples_of_a_pair(start)} == {()}
    assert describe_openings(start).startswith("openings: none")
    lines = TournamentConfig("oware", AGENTS, games_per_pair=8, openings=4)
    assert len({shipped.key, start.key, lines.key}) == 3


def test_the_same_config_gives_the_same_games_and_key():
    one = TournamentConfig("oware", AGENTS, games_per_pair=4, openings=1, seed=3)
    two = TournamentConfig("oware", list(AGENTS), games_per_pair=4, openings=1, seed=3)
    assert schedule(one) == schedule(two) and one.key == two.key
    other = TournamentConfig("oware", AGENTS, games_per_pair=4, openings=1, seed=4)
    assert other.key != one.key and schedule(other) != schedule(one)
    assert TournamentConfig.from_json(one.to_json()) == one


def _bump_version(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Make rule set `name` one version newer, as a rules change does."""
    from mancala_env.variants import VARIANTS

    variant = VARIANTS[name]
    newer = dataclasses.replace(variant, history=(*variant.history, ("a change in play",)))
    monkeypatch.setitem(VARIANTS, name, newer)


def test_the_key_holds_the_rules_version_and_every_option():
    """Games played under older rules are another tournament's: the key changes with the rule
    set's version and with any option in play, and naming a default changes nothing."""
    from mancala_env.variants import get_variant

    config = TournamentConfig("oware", AGENTS, games_per_pair=2)
    assert config.rules["version"] == get_variant("oware").version
    assert config.rules["options"]["stall_limit"] == 100  # a default, though not named
    named = TournamentConfig("oware", AGENTS, games_per_pair=2, options={"stall_limit": 100})
    assert named.key == config.key
    other = TournamentConfig("oware", AGENTS, games_per_pair=2, options={"stall_limit": 99})
    assert other.key != config.key


def test_a_new_rules_version_makes_another_tournament(tmp_path, monkeypatch):
    """After a rule set's version goes up, the same command plays its games again instead of
    reporting the games played under the old rules."""
    from mancala_env.agents.tournament import GameStore, run_tournament

    config = TournamentConfig("oware", ("random", "greedy"), games_per_pair=2)
    db = tmp_path / "s.sqlite"
    first = run_tournament(config, db=db, progress=False, bootstrap=10)
    assert first.played == 2
    _bump_version(monkeypatch, "oware")
    again = TournamentConfig("oware", ("random", "greedy"), games_per_pair=2)
    assert again.key != config.key
    second = run_tournament(again, db=db, progress=False, bootstrap=10)
    assert second.played == 2 and {r["tournament"] for r in second.records} == {again.key}
    with GameStore(db, read_only=True) as store:
        assert store.tournament_keys() == [config.key, again.key]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"variant": "chess"}, "unknown variant 'chess'"),
        ({"options": {"grand_slam": "maybe"}}, "grand_slam"),
        ({"agents": ("random",)}, "at least two agents"),
        ({"agents": ("random", "random")}, "given more than once: random"),
        ({"games_per_pair": 3}, "must be even"),
        ({"games_per_pair": 0}, "games_per_pair must be an integer from 2 to 100,000"),
        ({"games_per_pair": 10**12}, "games_per_pair must be an integer from 2 to 100,000"),
        ({"games_per_pair": 100_000, "agents": AGENTS}, "at most 100,000 games, got 300,000"),
        ({"format": "swiss"}, "formats: round-robin, gauntlet"),
        ({"openings": -1}, "openings must be an integer from 0 to 100,000"),
        ({"openings": 10**9}, "openings must be an integer from 0 to 100,000"),
        ({"seed": "x"}, "seed must be an integer"),
    ],
)
def test_a_bad_config_is_refused_with_the_allowed_values(kwargs, message):
    arguments = {"variant": "oware", "agents": ("random", "greedy"), **kwargs}
    with pytest.raises(ValueError, match=message):
        TournamentConfig(**arguments)


def test_bad_and_human_agent_specs_are_refused():
    with pytest.raises(SpecError, match="valid agent specs: random \\| greedy"):
        TournamentConfig("oware", ("random", "alphabeta:depth=x"))
    with pytest.raises(SpecError, match="without people"):
        TournamentConfig("oware", ("random", "human"))


def test_an_illegal_opening_move_is_an_error_not_a_silent_game():
    task = schedule(TournamentConfig("oware", AGENTS[:2], games_per_pair=2))[0]
    game = start(task)
    with pytest.raises(IllegalActionError):
        game.step(99)


def test_a_config_checks_its_agents_without_loading_them(tmp_path, monkeypatch):
    """A user's module and a model file are hashed, not run or loaded: a module that fails
    when imported and a file that is no model make a config (and a listed tournament); the
    game that needs the agent is where loading it fails."""
    from mancala_env.agents.loader import agent_identity
    from mancala_env.agents.ppo import ModelLoadError
    from mancala_env.agents.tournament import GameStore, play_game

    (tmp_path / "breaks_on_import.py").write_text("raise RuntimeError('imported')\n")
    (tmp_path / "not_a_model.zip").write_bytes(b"no zip at all")
    monkeypatch.chdir(tmp_path)
    user, model = "python:breaks_on_import:Agent", f"ppo:{tmp_path / 'not_a_model.zip'}"
    config = TournamentConfig("oware", ("random", user, model), games_per_pair=2)
    assert "breaks_on_import" not in sys.modules
    source, zipped = (tmp_path / name for name in ("breaks_on_import.py", "not_a_model.zip"))
    assert config.identities == (
        "random v1",
        "sha256:" + hashlib.sha256(source.read_bytes()).hexdigest(),
        "sha256:" + hashlib.sha256(zipped.read_bytes()).hexdigest(),
    )
    assert agent_identity(user) == config.identities[1]
    with GameStore(tmp_path / "t.sqlite") as store:
        store.add_tournament(config)
        assert store.tournaments() == [(config.key, config)]
    assert "breaks_on_import" not in sys.modules
    tasks = {task.agents: task for task in schedule(config)}
    with pytest.raises(ModelLoadError, match="not_a_model.zip"):
        play_game(tasks[("random", model)])
    with pytest.raises(SpecError, match="cannot import module 'breaks_on_import': RuntimeError"):
        play_game(tasks[("random", user)])


def test_a_config_names_a_user_module_that_is_not_there():
    with pytest.raises(SpecError, match="cannot import module 'no_such_module_xyz'"):
        TournamentConfig("oware", ("random", "python:no_such_module_xyz:Agent"))
