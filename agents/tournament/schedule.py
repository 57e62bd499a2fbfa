"""What a tournament is and which games it plays.

A tournament is fixed by its `TournamentConfig`: the rule set and options, the agents, how many
games each pair plays, the format and the seed. From it `schedule` derives every game: its
number, its seats, its seed and its opening. The same config always gives the same games, so
a tournament that stops can be resumed by playing the games its store does not hold yet.

Fairness: games come in pairs with the same seed (and opening) and the seats swapped, so each
agent meets the same first player, the same starting position and the same opening moves from
both sides of the board. With ``openings=K`` the pairs cycle through K random opening lines, the
same for every pair of agents; with an `opening_suite` (`mancala_env.agents.tournament.openings`)
they cycle through the suite's entries, couple k of each pair from entry k modulo the suite's size.
Asked for nothing, a tournament gives every couple of a pair its own opening
(`distinct_openings`): two agents that play alike from the same position would otherwise replay
the same game, and the ratings would count each repeat as new evidence. ``openings=0`` starts
every game from the rule set's starting position.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from mancala_env import Game
from mancala_env.endgame.adjudicate import Adjudication
from mancala_env.inputs import derived_seed, integer
from mancala_env.variants import get_variant

from ..loader import agent_identity, check_unattended
from .openings import OpeningSuite, distinct_openings, from_document, random_line
from .starts import Start

FORMATS = ("round-robin", "gauntlet")
# The most games a tournament plays: its schedule is made whole before the first game, so a
# larger one would fill the memory before a game is stored. Run more with other seeds.
MAX_GAMES = 100_000
_OPENING_TRIES = 1000


@dataclass(frozen=True)
class TournamentConfig:
    """Everything that decides which games a tournament plays.

    `format` is ``round-robin`` (every pair of agents) or ``gauntlet`` (the first agent
    against each of the others). `games_per_pair` is even: each pair plays as many games from
    each seat. `openings` > 0 starts the games from that many random lines of
    `opening_plies` moves each; 0 starts every game from the rule set's starting position;
    None (the default) gives each couple of a pair its own opening (`distinct_openings`: the
    rule set's shipped suite, else a random line a couple), and the config holds the choice.
    `opening_suite` (`read_suite`; `openings` 0 then) starts couple k of each pair from the
    suite's entry k modulo its size: its reset seed and its moves. The hash of the suite's file
    is part of the key (a changed suite makes another tournament); a config without a suite
    keeps the key it had before suites were known.

    `adjudication` (an endgame database and a mode, `mancala_env.endgame.adjudicate`) ends each
    game at the first position the database knows the result of; what the database's files
    hold and the mode are part of the key (not where it lies), so a changed database or another
    mode makes another tournament. A config without one keeps the key it had before.

    `identities` and `rules` are what the agents and the rules were when the tournament was
    set up: left out, they are read now; a stored config (`from_json`) gives its own, so that it
    keeps its key after a model file changes (`changes` tells what differs now).
    """

    variant: str
    agents: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    games_per_pair: int = 10
    format: str = "round-robin"
    openings: int | None = None
    opening_plies: int = 4
    seed: int = 0
    opening_suite: OpeningSuite | None = None
    adjudication: Adjudication | None = None
    # what each agent is (`agent_identity`): part of the key. None (a new tournament) reads
    # them from the agents' files now; a stored tournament gives the ones it was played with.
    identities: tuple[str, ...] | None = field(default=None, compare=False, repr=False)
    # the rules the games are played under: the rule set's version and every option, defaults
    # included (part of the key, so that a rules change or a changed default makes another
    # tournament). None reads them from the rule set now; a stored tournament gives its own.
    rules: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        get_variant(self.variant)  # an unknown rule set names the known ones
        Game(self.variant, **self.options)  # so do an unknown option and a bad value
        object.__setattr__(self, "agents", tuple(self.agents))
        if len(self.agents) < 2:
            raise ValueError(f"a tournament needs at least two agents, got {list(self.agents)}")
        twice = sorted({a for a in self.agents if self.agents.count(a) > 1})
        if twice:
            raise ValueError(f"agents must differ; given more than once: {', '.join(twice)}")
        for spec in self.agents:  # checked here, loaded where the games are played
            check_unattended(spec, "a tournament")
        if self.identities is None:
            object.__setattr__(self, "identities", self.identities_now())
        else:
            object.__setattr__(self, "identities", _stored_identities(self))
        if self.rules is None:
            object.__setattr__(self, "rules", self.rules_now())
        elif not isinstance(self.rules, dict) or set(self.rules) != {"version", "options"}:
            raise ValueError(f"rules must be a dict of 'version' and 'options', got {self.rules!r}")
        integer(self.games_per_pair, "games_per_pair", 2, MAX_GAMES)
        if self.games_per_pair % 2:
            raise ValueError(
                f"games_per_pair must be even (each pair plays both seats equally), "
                f"got {self.games_per_pair}"
            )
        if self.openings is None:
            self._choose_openings()
        if self.format not in FORMATS:
            raise ValueError(f"unknown format {self.format!r}; formats: {', '.join(FORMATS)}")
        integer(self.openings, "openings", 0, MAX_GAMES)
        integer(self.opening_plies, "opening_plies", 1)
        integer(self.seed, "seed", 0)
        if isinstance(self.opening_suite, dict):  # as `to_json` stores it
            stored = self.opening_suite
            if set(stored) != {"sha256", "suite"} or not isinstance(stored["sha256"], str):
                raise ValueError(f"opening_suite must hold sha256 and suite, got {stored!r}")
            suite = from_document(stored["suite"], stored["sha256"])
            object.__setattr__(self, "opening_suite", suite)
        if self.opening_suite is not None:
            if not isinstance(self.opening_suite, OpeningSuite):
                raise ValueError(
                    f"opening_suite must be an OpeningSuite, got {self.opening_suite!r}"
                )
            if self.openings:
                raise ValueError(
                    "a tournament plays from an opening suite or from random openings, not both"
                )
            self.opening_suite.check_fits(self.variant, self.rules["options"])
        if isinstance(self.adjudication, dict):  # as `to_json` stores it
            object.__setattr__(self, "adjudication", Adjudication.from_json(self.adjudication))
        if self.adjudication is not None and not isinstance(self.adjudication, Adjudication):
            raise ValueError(f"adjudication must be an Adjudication, got {self.adjudication!r}")
        if self.n_games > MAX_GAMES:
            raise ValueError(
                f"a tournament plays at most {MAX_GAMES:,} games, got {self.n_games:,} "
                f"({len(self.pairs)} pairs of {self.games_per_pair}); "
                "play fewer, or several tournaments with other seeds"
            )

    def _choose_openings(self) -> None:
        """Distinct openings for the couples of a pair; with a suite given, its entries."""
        chosen: dict[str, Any] = {"openings": 0}
        if self.opening_suite is None:
            chosen = distinct_openings(
                self.variant, self.options, self.games_per_pair // 2, self.opening_plies
            )
        for name, value in chosen.items():
            object.__setattr__(self, name, value)

    @property
    def pairs(self) -> list[tuple[int, int]]:
        """The pairs of agents (indices into `agents`) that meet."""
        n = len(self.agents)
        if self.format == "gauntlet":
            return [(0, j) for j in range(1, n)]
        return [(i, j) for i in range(n) for j in range(i + 1, n)]

    @property
    def n_games(self) -> int:
        return len(self.pairs) * self.games_per_pair

    def to_json(self) -> dict[str, Any]:
        record = dataclasses.asdict(self)
        record["agents"] = list(self.agents)
        record["identities"] = list(self.identities)
        if self.opening_suite is None:
            del record["opening_suite"]  # as configs were stored before suites were known
        else:
            record["opening_suite"] = {
                "sha256": self.opening_suite.sha256,
                "suite": self.opening_suite.to_document(),
            }
        if self.adjudication is None:
            del record["adjudication"]  # as configs were stored before adjudication was known
        else:
            record["adjudication"] = self.adjudication.to_json()
        return record

    @classmethod
    def from_json(cls, record: dict[str, Any]) -> TournamentConfig:
        """The config of `record` (a `to_json`), under the identities and rules it holds: a
        stored tournament reads back under the key it was played with, whatever its agents'
        files and the rule set hold now (a record without them reads them now)."""
        return cls(**record)

    def identities_now(self) -> tuple[str, ...]:
        """What the agents' files hold now (`agent_identity`), whatever the config holds."""
        return tuple(map(agent_identity, self.agents))

    def rules_now(self) -> dict[str, Any]:
        """The rule set's version and every option in play, as this code has them now."""
        return rules_of(self.variant, self.options)

    def changes(self) -> list[str]:
        """How the agents and rules this config holds differ from what they are now: one
        sentence for each (none for a config made now). A stored tournament with changes
        cannot be played on: its key names games of the agents and rules it holds."""
        found = []
        for spec, held in zip(self.agents, self.identities or (), strict=True):
            try:
                now = agent_identity(spec)
            except (OSError, ValueError) as error:
                found.append(f"{spec} was {short(held)}; it cannot be read now: {error}")
                continue
            if now != held:
                found.append(f"{spec} was {short(held)}; its file now holds {short(now)}")
        if self.rules != self.rules_now():
            found.append(f"the rules were {self.rules}; they are now {self.rules_now()}")
        held_database = self.adjudication
        if held_database is not None:
            try:
                now = held_database.identity_now()
            except (OSError, ValueError) as error:
                now = f"unreadable ({error})"
            if now != held_database.identity:
                found.append(
                    f"the endgame database in {held_database.directory} that adjudicates the "
                    f"games was {short(held_database.identity or '')}; it is now {short(now)}"
                )
        return found

    @property
    def key(self) -> str:
        """A short name for this tournament, the same for the same config, the same agents and
        the same rules (a model file replaced at the same path, a new version of the rule set
        or a changed default makes another tournament). The options count as they are in
        play, defaults included: naming a default does not make another tournament."""
        record = self.to_json()
        del record["options"]  # in `rules`, complete
        if "opening_suite" in record:  # the suite's file by its content, not its path
            record["opening_suite"] = record["opening_suite"]["sha256"]
        if "adjudication" in record:  # the database by its content, not its folder
            del record["adjudication"]["directory"]
        text = json.dumps(record, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class GameTask:
    """One game of a tournament: who sits where, the seed of the game and of each agent, the
    board it begins from (None: the rule set's start), and the opening moves played before the
    agents take over."""

    tournament: str
    index: int
    variant: str
    options: dict[str, Any]
    agents: tuple[str, str]  # seat 0 (player_0), seat 1 (player_1)
    identities: tuple[str, str]  # what each seat's agent is (`agent_identity`)
    seed: int
    agent_seeds: tuple[int, int]
    opening: tuple[int, ...]
    adjudication: Adjudication | None = None  # the database that ends the game, if any
    start: Start | None = None  # an opening suite's start board


def rules_of(variant_name: str, options: dict[str, Any]) -> dict[str, Any]:
    """The version of rule set `variant_name` and every option in play under `options`
    (defaults included), as JSON holds them: what keys a tournament's games to their rules."""
    variant = get_variant(variant_name)
    rules = {
        "version": variant.version,
        "options": dataclasses.asdict(variant.options(**options)),
    }
    return json.loads(json.dumps(rules))  # lists, not tuples


def short(identity: str) -> str:
    """An identity as a message shows it: a hash by its first 12 hex digits."""
    kind, colon, digest = identity.partition(":")
    return f"{kind}:{digest[:12]}" if colon and kind == "sha256" else identity


def describe_openings(config: TournamentConfig) -> str:
    """Where the games of `config` start, in one line."""
    couples = config.games_per_pair // 2
    suite = config.opening_suite
    if suite is not None:
        cycle = f" modulo {len(suite.entries)}" if couples > len(suite.entries) else ""
        lines, line = f"lines of {suite.plies} plies", "line"
        if suite.has_starts:
            lines = "start boards" + (f" and lines of {suite.plies} plies" if suite.plies else "")
            line = "entry"
        return (
            f"openings: the {len(suite.entries)} {lines} of opening suite "
            f"{suite.sha256[:16]} (rated even by {suite.search}); couple k of each pair plays "
            f"{line} k{cycle}"
        )
    if config.openings:
        cycle = f" modulo {config.openings}" if couples > config.openings else ""
        return (
            f"openings: {config.openings} random lines of {config.opening_plies} plies; couple k "
            f"of each pair plays line k{cycle}"
        )
    return "openings: none; every game starts from the rule set's starting position"


def _stored_identities(config: TournamentConfig) -> tuple[str, ...]:
    """The identities a config was given, checked: one string for each agent."""
    given = config.identities
    if (
        not isinstance(given, (list, tuple))
        or len(given) != len(config.agents)
        or not all(isinstance(identity, str) for identity in given)
    ):
        raise ValueError(
            f"identities must be one string for each of the {len(config.agents)} agents, "
            f"got {given!r}"
        )
    return tuple(given)


def random_opening(config: TournamentConfig, seed: int) -> tuple[int, ...]:
    """`opening_plies` random legal moves from the start of a game reset with `seed`, chosen
    so that the game is still going after them."""
    return random_line(
        config.variant, config.options, config.opening_plies, seed, tries=_OPENING_TRIES
    )


def schedule(config: TournamentConfig) -> list[GameTask]:
    """Every game of the tournament, numbered from 0: pair by pair, and within a pair in
    couples of games with the same seed and opening, the seats swapped. A pair plays
    `games_per_pair` / 2 couples, so only that many of the openings are ever played, and only
    those are made."""
    return list(scheduled(config))


def scheduled(config: TournamentConfig, start: int = 0) -> Iterator[GameTask]:
    """The games of `schedule` from number `start` on, one by one: an opening is made when
    the first game that plays it is asked for (a match that stops early makes no more), and
    the games before `start` are not made at all."""
    suite = config.opening_suite
    played = min(config.openings, config.games_per_pair // 2)
    openings: dict[int, tuple[int, tuple[int, ...]]] = {}
    board = None
    key = config.key
    couples = config.games_per_pair // 2
    for p, (i, j) in enumerate(config.pairs):
        for r in range(couples):
            if (p * couples + r + 1) * 2 <= start:
                continue
            if suite is not None:
                entry = suite.entries[r % len(suite.entries)]
                seed, opening, board = entry.seed, entry.moves, entry.start
            elif played:
                k = r % played
                if k not in openings:
                    seed = derived_seed(config.seed, 0, k)
                    openings[k] = (seed, random_opening(config, seed))
                seed, opening = openings[k]
            else:
                seed, opening = derived_seed(config.seed, 1, p, r), ()
            for swap in (False, True):
                index = (p * couples + r) * 2 + swap
                if index < start:
                    continue
                first, second = (j, i) if swap else (i, j)
                yield GameTask(
                    tournament=key,
                    index=index,
                    variant=config.variant,
                    options=dict(config.options),
                    agents=(config.agents[first], config.agents[second]),
                    identities=(config.identities[first], config.identities[second]),
                    seed=seed,
                    agent_seeds=(
                        derived_seed(config.seed, 2, index, 0),
                        derived_seed(config.seed, 2, index, 1),
                    ),
                    opening=opening,
                    adjudication=config.adjudication,
                    start=board,
                )
