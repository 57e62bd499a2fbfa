"""What the search agents (alpha-beta, MCTS) share: a budget of work and/or seconds a move, a
seeded random generator, a compile warm-up the clock does not see, and the steps of `act`
around the search itself.

A subclass names its work budget (`budget_key`: ``depth``, ``simulations``), writes
`_warm_up` (run each compiled search once, on a throwaway position) and `_best_action` (the
search), and keeps its per-move statistics (``last_*``) in `_forget_last_move`.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Hashable
from typing import ClassVar

import numpy as np

from mancala_env import Game
from mancala_env.inputs import integer, number

# The ranges of the searches' numbers, the spec keys' (`mancala_env.agents.loader.KEYS`) and the
# constructors': generous, and small enough that no search allocates more than a worker has.
MAX_SIMULATIONS = 1_000_000  # MCTS's tree grows by a node's children a simulation: < 1 GB
MAX_SECONDS = 86_400.0  # a move's time limit: a day
MAX_C = 1000.0  # the exploration constants
MAX_CONSIDERED = 256  # the root moves a Gumbel search considers: more than any rule set has
AZ_SEARCHES = ("puct", "gumbel")  # the az agent's tree searches (`az_search`)


def check_time_limit(time_limit: float | None) -> None:
    """Refuse a time limit a move that is neither None nor a number of seconds above 0 and at
    most `MAX_SECONDS`."""
    if time_limit is not None:
        number(time_limit, "time", 0, MAX_SECONDS, low_open=True)


class SearchAgent(ABC):
    """A search with `budget_key` units of work a move (`default_budget` when no time limit is
    given) and/or `time_limit` seconds a move, whichever runs out first."""

    budget_key: ClassVar[str]  # the spec key and attribute of the work budget
    default_budget: ClassVar[int]
    max_budget: ClassVar[int | None] = None
    warmed: ClassVar[set[Hashable]]  # the searches compiled (or loaded) in this process

    def __init__(self, budget: int | None, time_limit: float | None, seed: int | None) -> None:
        if budget is None and time_limit is None:
            budget = self.default_budget
        if budget is not None:
            budget = integer(budget, self.budget_key, 1, self.max_budget)
        check_time_limit(time_limit)
        setattr(self, self.budget_key, budget)
        self.time_limit = time_limit
        self.reset(seed)

    @property
    def budget(self) -> int | None:
        """The work budget of a move (None: the time limit alone)."""
        return getattr(self, self.budget_key)

    def _settings(self) -> list[str]:
        """The settings `repr` shows besides the budgets."""
        return []

    def __repr__(self) -> str:
        keys = [f"{self.budget_key}={self.budget}"] if self.budget is not None else []
        keys += [f"time={self.time_limit}"] if self.time_limit is not None else []
        return f"{type(self).__name__}({', '.join(keys + self._settings())})"

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        self.last_seconds = 0.0
        self._forget_last_move()

    @abstractmethod
    def _forget_last_move(self) -> None:
        """Clear the statistics of the last move (``last_*``)."""

    @abstractmethod
    def _search_key(self, game: Game) -> Hashable:
        """What `warmed` holds once this agent's compiled search is ready."""

    @abstractmethod
    def _warm_up(self, game: Game) -> None:
        """Run the compiled search once on `game`, leaving nothing this agent's next search
        would read."""

    @abstractmethod
    def _best_action(self, game: Game, legal: list[int], deadline: float | None) -> int:
        """The search of a position with two or more legal actions; `deadline` is the
        ``time.perf_counter()`` by which it returns (None: the work budget alone)."""

    def act(self, game: Game) -> int:
        legal = game.legal_actions()
        if not legal:
            raise ValueError("the game is over: there is no move to choose")
        self._forget_last_move()
        self.last_seconds = 0.0
        if len(legal) == 1:
            return int(legal[0])
        if self._search_key(game) not in self.warmed:  # compile (or load) before the clock starts
            self._warm_up(game)
            self.warmed.add(self._search_key(game))
        start = time.perf_counter()
        deadline = None if self.time_limit is None else start + self.time_limit
        action = self._best_action(game, legal, deadline)
        self.last_seconds = time.perf_counter() - start
        return int(action)
