"""Reading an endgame database: the perfect value of a board, and of each move of a game."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..engine import layout as L
from ..game import Game
from ..kernels import kernels_for
from ..variants import RuleOptions, Variant
from .build import rules_header
from .files import DatabaseError, level_path, level_paths, read_level
from .index import BINOMIAL, rank
from .probe import level_list
from .rules import check_solvable, solving_params

PROBE_MODULE = "mancala_env.endgame.probe"  # its kernels, derived for a database's rules


class EndgameDatabase:
    """The endgame database in `directory` for `variant` under `options`: every level from 0
    seeds up to the highest one present, memory-mapped. Raises DatabaseError when there is
    none, or when a file is corrupt or was built for other rules."""

    def __init__(
        self, directory: str | os.PathLike, variant: Variant, options: RuleOptions
    ) -> None:
        check_solvable(variant, options)
        self.variant = variant
        self.directory = Path(directory)
        self.rules = rules_header(variant, options)
        self.params = solving_params(variant, options)
        self.n_pits = self.rules["pits"]
        self.levels = [
            read_level(path, seeds, self.rules)
            for seeds, path in enumerate(level_paths(self.directory))
        ]
        if not self.levels:
            raise DatabaseError(
                f"{self.directory} holds no endgame database (no {level_path('', 0)}); build "
                f"one with: mancala solve {variant.name} --max-seeds N --out {self.directory}"
            )
        self.compiled_levels = level_list(self.levels)  # the levels as compiled code reads them

    @classmethod
    def for_game(cls, directory: str | os.PathLike, game: Game) -> EndgameDatabase:
        """The database in `directory` for the rules `game` is played under."""
        return cls(directory, game.variant, game.options)

    @property
    def max_seeds(self) -> int:
        """The most seeds a board may hold to be in the database."""
        return len(self.levels) - 1

    def half_seeds(self, pits: np.ndarray, to_move: int) -> int:
        """The most half seeds `to_move` wins from the board `pits` (its pit counts, the board
        convention's order) against best play; ValueError when the board is not covered."""
        board = np.asarray(pits, dtype=np.int64)
        seeds = int(board.sum())
        if board.shape != (self.n_pits,) or board.min() < 0 or seeds > self.max_seeds:
            raise ValueError(
                f"the database covers boards of {self.n_pits} pit counts of at most "
                f"{self.max_seeds} seeds, got {board.tolist()}"
            )
        if to_move not in (0, 1):
            raise ValueError(f"to_move must be 0 or 1, got {to_move!r}")
        mine_first = np.roll(board, -self.n_pits // 2 * to_move)
        return int(self.levels[seeds][rank(mine_first, seeds, BINOMIAL)])

    def value(self, pits: np.ndarray, to_move: int) -> float:
        """The most seeds `to_move` wins from the board `pits` against best play (a half seed
        where a chase with an odd seed is split)."""
        return self.half_seeds(pits, to_move) / 2

    def covers(self, game: Game) -> bool:
        """Whether `game`'s position is in the database: a game still on, in play, with at
        most `max_seeds` seeds on the board."""
        return self.covers_state(game.state)

    def covers_state(self, state: np.ndarray) -> bool:
        """`covers` for a game state of the database's rule set."""
        return (
            state[L.OVER] == 0
            and state[L.PHASE] == L.PHASE_PLAY
            and int(state[L.PITS : L.PITS + self.n_pits].sum()) <= self.max_seeds
        )

    def action_values(self, game: Game) -> dict[int, int]:
        """The half seeds the player to move wins, against best play from then on, by each of
        their legal actions: those captured by the move and those won from the board after
        it. The best is the position's value; `game` is not changed."""
        if not self.covers(game):
            raise ValueError(
                f"the position is not in the database: a game in play with at most "
                f"{self.max_seeds} seeds on the board is (it has {int(game.pits.sum())})"
            )
        return self.move_values(game.state)

    def move_values(self, state: np.ndarray) -> dict[int, int]:
        """`action_values` of a game state the database covers (not checked), played by the
        probe derived for the database's rules (`rules.solving_params`)."""
        probe = kernels_for(self.variant, self.params, (PROBE_MODULE,), uses=("move_half_seeds",))
        child, board = state.copy(), np.zeros(self.n_pits, np.int64)
        legal = np.flatnonzero(state[L.LEGAL : L.LEGAL + int(self.params[L.P_N_ACTIONS])])
        return {
            int(action): int(
                probe.move_half_seeds(
                    state, action, self.params, self.compiled_levels, BINOMIAL, child, board
                )
            )
            for action in legal
        }


class DatabaseFolder:
    """A directory holding an endgame database, opened and checked against the rules once for
    each rule set a game asks it for: what an agent that plays from a database holds."""

    def __init__(self, directory: str | os.PathLike) -> None:
        if not os.path.isdir(directory):
            raise ValueError(f"{directory} is not a directory holding an endgame database")
        self.directory = directory
        self._opened: dict[tuple[str, str], EndgameDatabase] = {}

    def for_game(self, game: Game) -> EndgameDatabase:
        """The database for `game`'s rules; DatabaseError when it was built for others."""
        key = (game.variant.name, repr(game.options))
        if key not in self._opened:
            self._opened[key] = EndgameDatabase.for_game(self.directory, game)
        return self._opened[key]
