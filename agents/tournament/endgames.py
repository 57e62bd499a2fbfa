"""Each agent's endgame accuracy on its own tournament games, scored by an endgame database.

The stored games are replayed from their records (seed, options and moves); every move an
agent chose (not the opening's) in a position the database covers where it had two legal
moves or more is scored as `mancala accuracy` scores a move: whether it keeps the position's
value, and how many seeds it gives away (`mancala_env.agents.accuracy`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mancala_env.endgame.database import EndgameDatabase
from mancala_env.variants import get_variant

from ..accuracy import AccuracyRow, action_loss, summarise
from .replay import replay
from .schedule import TournamentConfig


@dataclass
class EndgameAccuracy:
    """The agents' endgame play in a tournament: a row an agent (None: it made no move the
    database scores)."""

    directory: str
    max_seeds: int
    rows: dict[str, AccuracyRow | None]


def open_database(directory: str | os.PathLike, config: TournamentConfig) -> EndgameDatabase:
    """The database in `directory` for the tournament's rules; DatabaseError (or ValueError,
    for a rule set without databases) says why not."""
    variant = get_variant(config.variant)
    return EndgameDatabase(directory, variant, variant.options(**config.options))


def scored_moves(
    database: EndgameDatabase, records: Iterable[dict[str, Any]]
) -> dict[str, list[float]]:
    """The seeds lost by each agent's (spec's) moves in the positions `database` scores."""
    lost: dict[str, list[float]] = {}
    for record in records:
        moves, opening = record["moves"], len(record["opening"])
        for number, (game, _, _) in enumerate(replay(record)):
            if number == len(moves):
                break
            if number >= opening and database.covers(game) and len(game.legal_actions()) >= 2:
                agent = record[f"agent_{game.to_move}"]
                lost.setdefault(agent, []).append(action_loss(database, game, moves[number]))
    return lost


def endgame_accuracy(
    database: EndgameDatabase,
    records: Iterable[dict[str, Any]],
    agents: Sequence[str],
    seed: int = 0,
) -> EndgameAccuracy:
    """Each of `agents`' accuracy on the endgame positions of its games in `records`, with 95%
    intervals (bootstrap seeded by `seed`)."""
    lost = scored_moves(database, records)
    rng = np.random.default_rng(seed)
    rows = {
        agent: summarise(None, np.array(lost[agent]), rng) if agent in lost else None
        for agent in agents
    }
    return EndgameAccuracy(str(database.directory), database.max_seeds, rows)
