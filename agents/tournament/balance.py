"""How balanced a rule set is: the first player's score and the draw rate under strong play
from the start, played until both 95% intervals are narrow enough.

    from mancala_env.agents.tournament.balance import Cell, play_cell
    result = play_cell(Cell("oware", agent="alphabeta:depth=6"), db="atlas.sqlite")
    print(result.score, result.score_interval, result.draw_rate, result.draw_interval)

One agent plays both sides of every game. A deterministic search would play the same game every
time, so each game is its own random trial, drawn from its index and the seed:

- the start: the game is reset with its own seed (who moves first, where the rule set draws it;
  a random setting out or start);
- the setting out (Mangala's central holes, the 10 Mighty Men's places, and the other player's
  answer) is chosen by the agent;
- each player's first move (with the decisions inside it) is drawn uniformly among the legal
  ones, one random move a side, so neither side is favoured by the noise;
- the agent plays the rest, breaking ties between equally valued moves at random by its seed.

The random first moves are counted as part of the game: the score is that of the player who
made the game's first decision (`first_player` in the record: who sets out the seeds in
Mangala, who places the Mighty Men). Games are independent, so each game is one trial of the
Wilson intervals (`ratings.wilson`; on a score with draws, whose spread is smaller than a
win-or-loss trial's, the interval is conservative).

A cell's games are kept in a tournament store (`GameStore`) under the cell's key, each game
written as it finishes, and counted in their order: the count stops at the first game after
which both intervals are at most `half_width` either side ((high - low) / 2), or at
`max_games`. A stopped run goes on from the games the store holds, and the result
depends on the cell, the seed and the games only, not on the number of workers.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mancala_env import Game
from mancala_env.engine import layout as L
from mancala_env.inputs import derived_seeds, is_integer

from ..loader import agent_identity, load_agent
from .backends import run_games
from .match import check_agent
from .ratings import wilson
from .schedule import GameTask, rules_of
from .store import GameStore

FORMAT = 1  # part of every cell's key: raise it when the games a cell plays change
SETTING_OUT = (L.PHASE_SET_OUT, L.PHASE_CHOOSE, L.PHASE_PLACE, L.PHASE_SIDE)


@dataclass(frozen=True)
class Cell:
    """A rule set under some options, and the agent that plays both sides."""

    variant: str
    options: dict[str, Any] = field(default_factory=dict)
    agent: str = "alphabeta:depth=6"

    @property
    def name(self) -> str:
        """The rule set and the options given, as a table names the cell."""
        return " ".join([self.variant, *(f"{k}={v}" for k, v in self.options.items())])

    def key(self, seed: int) -> str:
        """The store's name for this cell's games: the same for the same rules (the rule
        set's version and every option in play), agent and seed."""
        record = {
            "balance": FORMAT,
            "variant": self.variant,
            "rules": rules_of(self.variant, self.options),
            "agent": self.agent,
            "identity": agent_identity(self.agent),
            "seed": seed,
        }
        text = json.dumps(record, sort_keys=True)
        return "balance-" + hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Balance:
    """What the first `games` games of a cell gave."""

    games: int
    first_player_points: float  # a win 1, a draw 1/2
    draws: int
    distinct: int  # games that differ in their first player or their moves
    plies: int  # moves of all the games
    seconds: float  # the games' wall-clock time

    @property
    def score(self) -> float:
        return self.first_player_points / self.games if self.games else 0.5

    @property
    def score_interval(self) -> tuple[float, float]:
        return wilson(self.score, self.games)

    @property
    def draw_rate(self) -> float:
        return self.draws / self.games if self.games else 0.0

    @property
    def draw_interval(self) -> tuple[float, float]:
        return wilson(self.draw_rate, self.games)

    def narrow(self, half_width: float) -> bool:
        """Both intervals are at most `half_width` either side."""
        return _narrow(self.score, self.draw_rate, self.games, half_width)

    def as_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "first_player_score": self.score,
            "first_player_interval": list(self.score_interval),
            "draw_rate": self.draw_rate,
            "draw_interval": list(self.draw_interval),
            "distinct_games": self.distinct,
            "mean_plies": self.plies / self.games if self.games else 0.0,
            "seconds_per_game": self.seconds / self.games if self.games else 0.0,
        }


def _narrow(score: float, draw_rate: float, games: int, half_width: float) -> bool:
    return all(
        (high - low) / 2 <= half_width
        for low, high in (wilson(score, games), wilson(draw_rate, games))
    )


def _first_player_points(record: Mapping[str, Any]) -> float:
    winner = record["winner"]
    return 0.5 if winner < 0 else float(winner == record["first_player"])


def tally(records: Sequence[Mapping[str, Any]]) -> Balance:
    """The balance of game `records` (as `play_game` writes them)."""
    games = {(record["first_player"], tuple(record["moves"])) for record in records}
    return Balance(
        games=len(records),
        first_player_points=sum(map(_first_player_points, records)),
        draws=sum(record["winner"] < 0 for record in records),
        distinct=len(games),
        plies=sum(record["length"] for record in records),
        seconds=sum(record["seconds"] for record in records),
    )


def first_moves(cell: Cell, game_seed: int, agent_seed: int, move_seed: int) -> tuple[int, ...]:
    """The moves a game of `cell` reset with `game_seed` opens with: the setting out as the
    agent (seeded `agent_seed`) chooses it, then each player's first move drawn at random
    (`move_seed`) with the decisions inside it, up to the first move after both."""
    game = Game(cell.variant, **cell.options)
    game.reset(np.random.default_rng(game_seed))
    chooser = np.random.default_rng(move_seed)
    setter = None
    moved: set[int] = set()
    moves: list[int] = []
    while not game.over:
        phase = int(game.state[L.PHASE])
        if phase in SETTING_OUT:
            if setter is None:
                setter = load_agent(cell.agent, cell.variant, seed=agent_seed)
            action = setter.act(game)
        else:
            if phase == L.PHASE_PLAY:
                if len(moved) == 2:
                    break
                moved.add(game.to_move)
            action = int(chooser.choice(game.legal_actions()))
        game.step(action)
        moves.append(int(action))
    return tuple(moves)


def game_task(cell: Cell, key: str, index: int, seed: int, identity: str) -> GameTask:
    """Game `index` of `cell` under `seed`, as a tournament's worker plays it."""
    # game `index`'s seeds: of its start, of its agent, of its random moves
    game_seed, agent_seed, move_seed = derived_seeds(seed, (index,), 3)
    return GameTask(
        tournament=key,
        index=index,
        variant=cell.variant,
        options=dict(cell.options),
        agents=(cell.agent, cell.agent),
        identities=(identity, identity),
        seed=game_seed,
        agent_seeds=(agent_seed, agent_seed),
        opening=first_moves(cell, game_seed, agent_seed, move_seed),
    )


def _counted(stored: Mapping[int, Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The stored games from game 0 up to the first one missing."""
    games = []
    while len(games) in stored:
        games.append(stored[len(games)])
    return games


def _stop(games: Sequence[Mapping[str, Any]], half_width: float, max_games: int) -> int | None:
    """The number of games counted once the intervals are narrow or `max_games` are in;
    None while neither."""
    points = draws = 0.0
    for n, record in enumerate(games[:max_games], start=1):
        points += _first_player_points(record)
        draws += record["winner"] < 0
        if n == max_games or _narrow(points / n, draws / n, n, half_width):
            return n
    return None


def read_cell(
    store: GameStore, cell: Cell, seed: int, half_width: float, max_games: int
) -> tuple[Balance, bool] | None:
    """The balance of `cell`'s games in `store`, counted to the stop, and whether the stop was
    reached (False: as far as the games go); None when it holds none of them."""
    games = _counted({record["game_index"]: record for record in store.games(cell.key(seed))})
    if not games:
        return None
    n = _stop(games, half_width, max_games)
    return tally(games[:n]), n is not None


def play_cell(
    cell: Cell,
    db: str | Path,
    seed: int = 0,
    half_width: float = 0.05,
    max_games: int = 400,
    workers: int = 1,
    report: Callable[[Balance], None] | None = None,
) -> Balance:
    """Play `cell`'s games in order, storing each in the store at `db`, until both intervals
    are at most `half_width` either side or `max_games` games are counted; the games the
    store holds already are counted, not played again. `report` is called with the balance
    after each game counted."""
    if not 0 < half_width < 0.5:
        raise ValueError(f"half_width must be a number between 0 and 0.5, got {half_width!r}")
    if not is_integer(max_games, numpy=False) or max_games < 1:
        raise ValueError(f"max_games must be a positive integer, got {max_games!r}")
    key = cell.key(seed)
    identity = agent_identity(cell.agent)
    check_agent(cell.agent, Game(cell.variant, **cell.options), identity)  # before the store
    with GameStore(db) as store:
        stored = {record["game_index"]: record for record in store.games(key)}
        while (n := _stop(_counted(stored), half_width, max_games)) is None:
            held = len(stored)
            games = run_games(
                _missing(cell, key, seed, identity, stored, max_games),
                workers=workers,
                skip=lambda task: store.has_game(key, task.index),
            )
            try:
                for record in games:
                    store.add_game(record)
                    stored[record["game_index"]] = record
                    if report is not None:
                        report(tally(_counted(stored)))
                    if _stop(_counted(stored), half_width, max_games) is not None:
                        break
            finally:
                games.close()
            stored = {record["game_index"]: record for record in store.games(key)}
            if len(stored) == held:
                raise RuntimeError(f"cell {cell.name}: no game was played ({key})")
    return tally(_counted(stored)[:n])


def _missing(
    cell: Cell,
    key: str,
    seed: int,
    identity: str,
    stored: Mapping[int, Any],
    max_games: int,
) -> Iterator[GameTask]:
    """The games up to `max_games` that `stored` lacks, in order."""
    for index in range(max_games):
        if index not in stored:
            yield game_task(cell, key, index, seed, identity)
