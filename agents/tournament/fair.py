"""Fair starts: boards a seed or two moved from the rule set's start that are even.

After FairKalah (2022), which found the Kalah starts of a seed or two moved that perfect play
draws: every board `moved` seeds or fewer from the starting position (a seed taken from one
house and put in another, once or twice, the seeds in all unchanged; `starts.moved_starts`),
with the first player to move, is judged, and those judged even are kept as an opening suite of
start boards (`openings`, format version 2), played from both seats as any suite is.

Two judges:

- an endgame database holding every seed of the game (a small board solved whole, ``mancala
  solve ... --max-seeds 2*houses*seeds``): the start's value under perfect play, read as the
  database reads values (docs/endgames.md: the majority end left out, which never changes who
  wins; a chase that never captures again split). A start is kept when it is a draw: the
  player to move wins half the seeds exactly. One whose value ends in a half (an endless
  chase's odd seed decides between a draw and a win by one) is no draw, and is left out;
- a search (`alphabeta:depth=D`): a start is kept when the search's value for the player to
  move is within `margin` seeds of even. That value is the search's, not perfect play's.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import os
from collections.abc import Callable
from typing import Any

import numpy as np

from mancala_env import Game
from mancala_env.endgame.database import EndgameDatabase
from mancala_env.endgame.files import database_identity
from mancala_env.endgame.start import StartValue
from mancala_env.engine.starts import has_random_start
from mancala_env.inputs import derived_seed
from mancala_env.variants import get_variant

from ..loader import load_agent
from .openings import Opening, OpeningSuite, _complete_options, _rate, _version
from .starts import Start, check_startable, moved_starts, set_out

MAX_MOVED = 2  # seeds moved: 4,422 boards of two on the six-house board, 132 of one
DEFAULT_FAIR_SEARCH = "alphabeta:depth=8"


def start_board(variant: str, options: dict[str, Any]) -> Game:
    """A game of `variant` under `options` at its starting position with player_0 to move;
    ValueError for a rule set whose start is not a fixed board in play."""
    game = Game(variant, **options)
    check_startable(game)
    if has_random_start(game.params):
        raise ValueError(
            f"{variant} under these options draws its starting position at random, so it has "
            "no one start to move seeds from"
        )
    set_out(game, Start(tuple(int(p) for p in game.pits), 0))
    return game


def candidate_starts(variant: str, options: dict[str, Any], moved: int) -> list[Start]:
    """The boards of one to `moved` seeds moved from the start, player_0 to move, those of one
    seed first (`starts.moved_starts`)."""
    if isinstance(moved, bool) or not isinstance(moved, int) or not 1 <= moved <= MAX_MOVED:
        raise ValueError(f"moved must be an integer from 1 to {MAX_MOVED}, got {moved!r}")
    game = start_board(variant, options)
    return [start for k in range(1, moved + 1) for start in moved_starts(game, k)]


class DatabaseJudge:
    """Perfect play's value of a start, from the database in `directory` holding every seed of
    the game: the player to move's seeds less the other's (0: a draw), or None where the value
    ends in a half (see the module docstring)."""

    def __init__(self, directory: str | os.PathLike, variant: str, options: dict[str, Any]):
        rules = get_variant(variant)
        self.database = EndgameDatabase(directory, rules, rules.options(**options))
        total = Game(variant, **options).total_seeds
        if self.database.max_seeds < total:
            raise ValueError(
                f"the endgame database in {directory} holds boards of at most "
                f"{self.database.max_seeds} seeds; perfect play from a start needs all {total}: "
                f"mancala solve {variant} --max-seeds {total} (with the same --option values)"
            )
        identity = database_identity(directory)
        self.name = f"perfect play (endgame database {identity[:23]}, every seed)"

    def __call__(self, game: Game) -> float | None:
        value = StartValue(self.database.value(game.pits, game.to_move), int(game.pits.sum()))
        return None if value.result.startswith("draw_or") else value.margin


class SearchJudge:
    """A search's value of a start for the player to move (`openings._rate`), in seeds."""

    def __init__(self, spec: str, variant: str, seed: int):
        self.agent = load_agent(spec, variant, seed=seed)
        if not hasattr(self.agent, "last_value"):
            raise ValueError(
                f"{spec} reports no value of the positions it searches; judge the starts with a "
                f"search such as {DEFAULT_FAIR_SEARCH}"
            )
        self.name, self.seed = spec, seed

    def __call__(self, game: Game) -> float | None:
        self.agent.reset(self.seed)
        return _rate(self.agent, game)


def build_fair_suite(
    variant: str,
    options: dict[str, Any] | None = None,
    moved: int = MAX_MOVED,
    database: str | os.PathLike | None = None,
    search: str = DEFAULT_FAIR_SEARCH,
    margin: float = 0.0,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> OpeningSuite:
    """The suite of the starts one to `moved` seeds moved from `variant`'s start that are even:
    a draw by the endgame `database` (a folder holding every seed of the game), or, without
    one, rated within `margin` of even by the agent `search`. Each entry's seed is derived
    from `seed` (the seed its games are reset with). `progress(kept, judged)` is called after
    each start judged. ValueError when none is even."""
    options = dict(options or {})
    complete = _complete_options(variant, options)  # an unknown rule set or option: ValueError
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be an integer of 0 or more, got {seed!r}")
    if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not margin >= 0:
        raise ValueError(f"margin must be a number of 0 or more, got {margin!r}")
    if not math.isfinite(margin):
        raise ValueError(f"margin must be finite, got {margin!r}")
    starts = candidate_starts(variant, options, moved)
    judge: DatabaseJudge | SearchJudge
    if database is not None:
        judge, margin = DatabaseJudge(database, variant, options), 0.0
    else:
        judge = SearchJudge(search, variant, seed)
    kept: list[Opening] = []
    game = Game(variant, **options)
    for index, start in enumerate(starts):
        entry_seed = derived_seed(seed, index)
        game.reset(np.random.default_rng(entry_seed))
        set_out(game, start)
        value = judge(game)
        if value is not None and abs(value) <= margin:
            kept.append(Opening(entry_seed, (), float(value), start))
        if progress is not None:
            progress(len(kept), index + 1)
    if not kept:
        raise ValueError(
            f"none of the {len(starts)} {variant} starts of 1 to {moved} seeds moved is even "
            f"by {judge.name}" + ("" if database is not None else "; try a wider --margin")
        )
    suite = OpeningSuite(
        variant=variant,
        version=_version(variant, options),
        options=complete,
        plies=0,
        search=judge.name,
        margin=float(margin),
        seed=seed,
        tried=len(starts),
        entries=tuple(kept),
    )
    return dataclasses.replace(suite, sha256=hashlib.sha256(suite.to_bytes()).hexdigest())
