"""What a tournament is and which games it plays.

A tournament is fixed by its `TournamentConfig`: the rule set and options, the agents, how many
games each pair plays, the format and the seed. From it `schedule` derives every game: its
number, its seats, its seed and its opening. The same config always gives the same games, so
a tournament that stops can be resumed by playing the games its store does not hold yet.

Fairness: games come in pairs with the same seed (and opening) and the seats swapped, so each
agent meets the same first player, the same starting position and the same opening moves from
both sides of the board. With ``openings=K`` the pairs cycle through K random opening lines,
the same for every pair of agents.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mancala_env import Game
from mancala_env.variants import get_variant

from ..loader import SpecError, agent_identity, parse_spec

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
    `opening_plies` moves each; 0 starts every game from the rule set's starting position.
    """

    variant: str
    agents: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    games_per_pair: int = 10
    format: str = "round-robin"
    openings: int = 0
    opening_plies: int = 4
    seed: int = 0
    # what each agent is (`agent_identity`), read when the config is made: part of the key
    identities: tuple[str, ...] = field(init=False, compare=False, repr=False)
    # the rules the games are played under, read when the config is made: the rule set's
    # version and every option, defaults included (part of the key, so that a rules change or
    # a changed default makes another tournament)
    rules: dict[str, Any] = field(init=False, compare=False, repr=False)

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
            if parse_spec(spec)[0] == "human":  # SpecError lists the valid forms
                raise SpecError(spec, "a tournament plays without people; choose another agent")
        object.__setattr__(self, "identities", tuple(map(agent_identity, self.agents)))
        variant = get_variant(self.variant)
        rules = {
            "version": variant.version,
            "options": dataclasses.asdict(variant.options(**self.options)),
        }
        object.__setattr__(self, "rules", rules)
        _check_int("games_per_pair", self.games_per_pair, 2, MAX_GAMES)
        if self.games_per_pair % 2:
            raise ValueError(
                f"games_per_pair must be even (each pair plays both seats equally), "
                f"got {self.games_per_pair}"
            )
        if self.format not in FORMATS:
            raise ValueError(f"unknown format {self.format!r}; formats: {', '.join(FORMATS)}")
        _check_int("openings", self.openings, 0, MAX_GAMES)
        _check_int("opening_plies", self.opening_plies, 1)
        _check_int("seed", self.seed, 0)
        if self.n_games > MAX_GAMES:
            raise ValueError(
                f"a tournament plays at most {MAX_GAMES:,} games, got {self.n_games:,} "
                f"({len(self.pairs)} pairs of {self.games_per_pair}); "
                "play fewer, or several tournaments with other seeds"
            )

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
        return record

    @classmethod
    def from_json(cls, record: dict[str, Any]) -> TournamentConfig:
        """The config of `record`; its agents' identities and its rules are read again from
        what they are now."""
        derived = {f.name for f in dataclasses.fields(cls) if not f.init}
        return cls(**{name: value for name, value in record.items() if name not in derived})

    @property
    def key(self) -> str:
        """A short name for this tournament, the same for the same config, the same agents and
        the same rules (a model file replaced at the same path, a new version of the rule set
        or a changed default makes another tournament). The options count as they are in
        play, defaults included: naming a default does not make another tournament."""
        record = self.to_json()
        del record["options"]  # in `rules`, complete
        text = json.dumps(record, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class GameTask:
    """One game of a tournament: who sits where, the seed of the game and of each agent, and
    the opening moves played before the agents take over."""

    tournament: str
    index: int
    variant: str
    options: dict[str, Any]
    agents: tuple[str, str]  # seat 0 (player_0), seat 1 (player_1)
    identities: tuple[str, str]  # what each seat's agent is (`agent_identity`)
    seed: int
    agent_seeds: tuple[int, int]
    opening: tuple[int, ...]


def _check_int(name: str, value: Any, low: int, high: int | None = None) -> None:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, np.integer))
        or value < low
        or (high is not None and value > high)
    ):
        allowed = f"of {low} or more" if high is None else f"from {low} to {high:,}"
        raise ValueError(f"{name} must be an integer {allowed}, got {value!r}")


def _seed(config: TournamentConfig, *path: int) -> int:
    """An independent 32-bit seed for each `path` under the tournament's seed."""
    sequence = np.random.SeedSequence(config.seed, spawn_key=path)
    return int(sequence.generate_state(1)[0])


def random_opening(config: TournamentConfig, seed: int) -> tuple[int, ...]:
    """`opening_plies` random legal moves from the start of a game reset with `seed`, chosen
    so that the game is still going after them."""
    chooser = np.random.default_rng(seed)
    for _ in range(_OPENING_TRIES):
        game = Game(config.variant, **config.options)
        game.reset(np.random.default_rng(seed))
        moves = []
        while len(moves) < config.opening_plies and not game.over:
            action = int(chooser.choice(game.legal_actions()))
            game.step(action)
            moves.append(action)
        if not game.over:
            return tuple(moves)
    raise ValueError(
        f"no opening of {config.opening_plies} moves leaves a {config.variant} game going; "
        "ask for fewer opening plies"
    )


def schedule(config: TournamentConfig) -> list[GameTask]:
    """Every game of the tournament, numbered from 0: pair by pair, and within a pair in
    couples of games with the same seed and opening, the seats swapped. A pair plays
    `games_per_pair` / 2 couples, so only that many of the openings are ever played, and only
    those are made."""
    played = min(config.openings, config.games_per_pair // 2)
    openings = [
        (seed, random_opening(config, seed))
        for seed in (_seed(config, 0, k) for k in range(played))
    ]
    tasks = []
    for p, (i, j) in enumerate(config.pairs):
        for r in range(config.games_per_pair // 2):
            if openings:
                seed, opening = openings[r % len(openings)]
            else:
                seed, opening = _seed(config, 1, p, r), ()
            for swap in (False, True):
                index = len(tasks)
                first, second = (j, i) if swap else (i, j)
                tasks.append(
                    GameTask(
                        tournament=config.key,
                        index=index,
                        variant=config.variant,
                        options=dict(config.options),
                        agents=(config.agents[first], config.agents[second]),
                        identities=(config.identities[first], config.identities[second]),
                        seed=seed,
                        agent_seeds=(_seed(config, 2, index, 0), _seed(config, 2, index, 1)),
                        opening=opening,
                    )
                )
    return tasks
