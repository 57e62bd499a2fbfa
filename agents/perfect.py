"""The perfect player: moves from an endgame database (see docs/endgames.md).

In every position the database covers (at most its seed count on the board) it plays a move
that keeps the position's value, the most seeds it can win against best play, choosing at
random among such moves. Outside the database (more seeds on the board) it plays as `greedy`.
"""

from __future__ import annotations

import os

import numpy as np

from mancala_env import Game
from mancala_env.endgame.database import DatabaseFolder, EndgameDatabase

from .base import GreedyAgent


class PerfectAgent:
    """Plays perfectly from the endgame database in directory `db` (built with
    ``mancala solve``); the database is opened, and checked against the game's rules, at the
    first move of a game of those rules."""

    code_version = 1  # part of its identity: raise it when its play changes

    def __init__(self, db: str | os.PathLike, seed: int | None = None) -> None:
        self.databases = DatabaseFolder(db)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        self.outside = GreedyAgent(self.rng.integers(2**63))  # plays where the database ends

    def open_database(self, game: Game) -> EndgameDatabase:
        """The database for `game`'s rules, opened once; DatabaseError when it was built for
        other rules or is corrupt."""
        return self.databases.for_game(game)

    def act(self, game: Game) -> int:
        database = self.open_database(game)
        if not database.covers(game):
            return self.outside.act(game)
        values = database.action_values(game)
        best = max(values.values())
        return int(self.rng.choice([a for a, v in values.items() if v == best]))
