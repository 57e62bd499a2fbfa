"""Ending a game where an endgame database knows its result: one adjudicator for every caller
(the tournament, the match and the training games; docs/tournaments.md, "Adjudication").

A game is adjudicated at a position the database covers (in play, at most its seed count on
the board) whose result it knows exactly:

- the stall counter is at zero, as right after a capture or at the start: the database's values
  are those of a game with the whole stall limit ahead (docs/endgames.md). The first covered
  position of a game always is one (seeds leave the board by captures only); a position played
  on from there is looked at again after the next capture;
- its value is a whole number of seeds: a value ending in a half is a chase whose odd seed the
  stall stop gives to one player, which the board does not decide, so the game plays on.

The result is what both players end with when they play on for the most seeds: the player to
move their store and the value `v` of the board, the other theirs and the rest of the board.
Where a player would pass half the seeds first, the majority end would stop the game there and
hand each row to its owner: the winner is the same (the database leaves that end out because it
never changes who wins), the seeds are those of play continued to the end.

In mode ``all`` every such position ends the game, draws included; in mode ``decisive`` only
the won and lost ones, and a drawn position plays on (fastchess's ``-tbadjudicate WIN_LOSS``
and ``BOTH``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..engine import layout as L
from ..engine.board import board_seeds
from ..engine.jit import njit
from ..variants import RuleOptions, Variant
from .database import EndgameDatabase
from .files import database_identity
from .index import BINOMIAL
from .probe import board_half_seeds

MODES = ("all", "decisive")  # every covered position; only those won or lost
END_REASON = "adjudicated"  # a game record's end_reason where the database ended it


def check_mode(mode: Any) -> str:
    """`mode` if it is one of `MODES`, else ValueError naming them."""
    if not isinstance(mode, str) or mode not in MODES:
        raise ValueError(
            f"the adjudication mode must be one of {', '.join(MODES)} (all: wins, losses and "
            f"draws; decisive: wins and losses, drawn positions play on), got {mode!r}"
        )
    return mode


@njit(cache=True)
def adjudicate_rows(states, params, levels, binomial, decisive, covered, scores, board):
    """For each game state (a row of `states`), whether the database `levels` adjudicates it
    (`covered`) and then each player's seeds at the end (`scores`, a row a state; other rows
    are left as they are). `params` are the database's rules; `decisive` 1 leaves draws
    alone; `board` is a scratch array of the board's length (see the module docstring)."""
    max_seeds = len(levels) - 1
    for row in range(states.shape[0]):
        state = states[row]
        covered[row] = False
        if state[L.OVER] != 0 or state[L.PHASE] != L.PHASE_PLAY or state[L.STALL_PLIES] != 0:
            continue
        seeds = board_seeds(state, params)
        if seeds > max_seeds:
            continue
        half_seeds = board_half_seeds(state, params, levels, binomial, board)
        if half_seeds % 2 == 1:
            continue
        mover = state[L.TO_MOVE]
        mine = state[L.STORE + mover] + half_seeds // 2
        theirs = state[L.STORE + 1 - mover] + seeds - half_seeds // 2
        if decisive == 1 and mine == theirs:
            continue
        covered[row] = True
        scores[row, mover] = mine
        scores[row, 1 - mover] = theirs


@dataclass(frozen=True)
class Verdict:
    """How an adjudicated game ends: each player's seeds at the end (see the module
    docstring) and the winner (0 or 1; None for a draw)."""

    scores: tuple[int, int]

    @property
    def winner(self) -> int | None:
        first, second = self.scores
        return None if first == second else int(second > first)


@dataclass(frozen=True)
class Verdicts:
    """`Adjudicator.verdicts` of a batch of game states: which are adjudicated, and there each
    player's seeds at the end and the winner (0, 1, or -1 for a draw)."""

    covered: np.ndarray  # bool, a state
    scores: np.ndarray  # int64, a state x 2; 0 where not covered
    winner: np.ndarray  # int8, a state; -1 for a draw, and where not covered


class Adjudicator:
    """Ends the games of `database`'s rules at the positions it knows the result of (see the
    module docstring), in `mode` (`MODES`)."""

    def __init__(self, database: EndgameDatabase, mode: str = "all") -> None:
        self.database = database
        self.mode = check_mode(mode)
        self._board = np.zeros(database.n_pits, np.int64)

    @classmethod
    def open(
        cls, directory: str | os.PathLike, variant: Variant, options: RuleOptions, mode: str
    ) -> Adjudicator:
        """The adjudicator of the database in `directory` for `variant` under `options`;
        DatabaseError when it holds none or one of other rules, ValueError for a rule set
        without databases or an unknown mode."""
        check_mode(mode)
        return cls(EndgameDatabase(directory, variant, options), mode)

    def verdicts(self, states: np.ndarray) -> Verdicts:
        """The verdicts of a 2-D array of game states of the database's rule set, a state a
        row (a batched engine's or trainer's games): one compiled pass over the rows."""
        states = np.asarray(states)
        if states.ndim != 2 or states.shape[1] != L.STATE_SIZE:
            raise ValueError(
                f"states must be a 2-D array of game states, a row of {L.STATE_SIZE} each, got "
                f"shape {states.shape}"
            )
        covered = np.zeros(states.shape[0], np.bool_)
        scores = np.zeros((states.shape[0], 2), np.int64)
        adjudicate_rows(
            states,
            self.database.params,
            self.database.compiled_levels,
            BINOMIAL,
            int(self.mode == "decisive"),
            covered,
            scores,
            self._board,
        )
        winner = np.where(scores[:, 1] > scores[:, 0], 1, 0).astype(np.int8)
        winner[(scores[:, 0] == scores[:, 1]) | ~covered] = -1
        return Verdicts(covered, scores, winner)

    def verdict(self, state: np.ndarray) -> Verdict | None:
        """The verdict of one game state, or None where the game plays on."""
        found = self.verdicts(np.asarray(state)[None, :])
        if not found.covered[0]:
            return None
        first, second = (int(s) for s in found.scores[0])
        return Verdict((first, second))


@dataclass(frozen=True)
class Adjudication:
    """An endgame database that ends games (`directory`) and the mode it does so in: what a
    tournament or a training run is given. `identity` is what the database's files hold
    (`files.database_identity`), read from them when left out; a stored tournament gives the
    one it was played with (it is part of the tournament's key, and a database changed since
    cannot join its games)."""

    directory: str
    mode: str = "all"
    identity: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.directory, str) or not self.directory:
            raise ValueError(
                f"the adjudication's database must be a folder, got {self.directory!r}"
            )
        check_mode(self.mode)
        if self.identity is None:
            if not os.path.isdir(self.directory):
                raise ValueError(f"{self.directory} is not a directory holding an endgame database")
            object.__setattr__(self, "identity", self.identity_now())
        elif not isinstance(self.identity, str):
            raise ValueError(f"the adjudication's identity must be a text, got {self.identity!r}")

    def identity_now(self) -> str:
        """What the database's files hold now."""
        return database_identity(self.directory)

    def to_json(self) -> dict[str, Any]:
        return {"directory": self.directory, "mode": self.mode, "identity": self.identity}

    @classmethod
    def from_json(cls, record: Any) -> Adjudication:
        """The adjudication `to_json` stored; ValueError for anything else."""
        if not isinstance(record, dict) or set(record) != {"directory", "mode", "identity"}:
            raise ValueError(
                f"adjudication must hold directory, mode and identity, got {record!r}"[:300]
            )
        if not isinstance(record["identity"], str):  # None would read the files as they are now
            raise ValueError(
                f"the adjudication's identity must be a text, got {record['identity']!r}"[:300]
            )
        return cls(**record)

    def open(self, variant: Variant, options: RuleOptions) -> Adjudicator:
        """The adjudicator for `variant` under `options`, checked to be the database this
        adjudication was set up with (ValueError when its files changed since)."""
        adjudicator = Adjudicator.open(self.directory, variant, options, self.mode)
        if self.identity_now() != self.identity:
            raise ValueError(
                f"the endgame database in {self.directory} changed since the games were set up "
                "to be adjudicated by it; run the command again to use the new one"
            )
        return adjudicator
