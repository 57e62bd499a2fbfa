"""Start positions: a board a game begins from instead of the rule set's starting position.

A start is the seeds of every pit (the board convention's order) and the player to move, all
the rule set's seeds on the board and none in the stores. An opening suite's entry may hold
one (`openings`), a tournament's game then begins there, and its record says so (``start``),
so a replay sets the game out as it was played.

A start read from a file is checked whole before the engine sees it (`read_start`): an object
of ``pits`` and ``to_move`` alone, one integer a pit, each from 0 to the rule set's seeds,
adding up to them, and a player 0 or 1; the game is then put there through its snapshot
reader (`Game.restore`), which checks the position against the rule set again.
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from mancala_env import Game
from mancala_env.engine import layout as L
from mancala_env.inputs import is_integer

START_FIELDS = ("pits", "to_move")


@dataclass(frozen=True)
class Start:
    """A board to begin from: each pit's seeds and the player to move."""

    pits: tuple[int, ...]
    to_move: int

    def to_json(self) -> dict[str, Any]:
        """The start as a file or a game record holds it."""
        return {"pits": list(self.pits), "to_move": self.to_move}


def check_startable(game: Game) -> None:
    """ValueError unless `game`'s rules begin in play with every seed on the board (no setting
    out, nothing in the stores): what a start replaces is then the board and the mover alone."""
    fresh = Game(game.variant, game.options)
    if fresh.state[L.PHASE] != L.PHASE_PLAY or int(fresh.pits.sum()) != fresh.total_seeds:
        raise ValueError(
            f"{game.variant.name} under these options does not begin with its seeds on the "
            "board in play, so a game of it cannot begin from a start board"
        )


def read_start(raw: Any, game: Game) -> Start:
    """The start `raw` (as a file or a record holds it) for games like `game`, checked whole;
    ValueError names what is wrong and what is allowed."""
    check_startable(game)
    if not isinstance(raw, dict) or set(raw) != set(START_FIELDS):
        raise ValueError(
            f"a start must be an object of pits and to_move only, got {reprlib.repr(raw)}"
        )
    pits, to_move = raw["pits"], raw["to_move"]
    total = game.total_seeds
    if (
        not isinstance(pits, list)
        or len(pits) != game.n_pits
        or not all(is_integer(p, numpy=False) and 0 <= p <= total for p in pits)
    ):
        raise ValueError(
            f"a start's pits must be {game.n_pits} integers from 0 to {total}, "
            f"got {reprlib.repr(pits)}"
        )
    if sum(pits) != total:
        raise ValueError(
            f"a start's pits hold {sum(pits)} seeds; {game.variant.name} under these options "
            f"is played with {total}"
        )
    if not is_integer(to_move, numpy=False) or to_move not in (0, 1):
        raise ValueError(f"a start's to_move must be 0 or 1, got {reprlib.repr(to_move)}")
    return Start(tuple(pits), to_move)


def record_start(start: Start | None) -> dict[str, Any]:
    """What a game record holds for a game from `start`: {} for the rule set's start."""
    return {} if start is None else start.to_json()


def read_record_start(raw: Any, game: Game) -> Start | None:
    """The start a game record holds (`record_start`), checked as `read_start` checks one."""
    return None if isinstance(raw, dict) and not raw else read_start(raw, game)


def set_out(game: Game, start: Start) -> None:
    """Put `game` (just reset) at `start`, through its snapshot reader; ValueError when the
    game would be over there."""
    snapshot = game.snapshot()
    snapshot.update(start.to_json())
    game.restore(snapshot)
    if game.over:
        raise ValueError(f"a game from the start {start.to_json()} is over before its first move")


def moved_starts(game: Game, moved: int) -> list[Start]:
    """Every board `moved` seeds away from `game`'s board (a seed taken from one pit and put in
    another, `moved` times, no seed moved twice: the seeds on the two boards differ by
    2 * `moved` pit by pit), with `game`'s player to move, in the boards' order."""
    base = tuple(int(p) for p in game.pits)
    boards = {base}
    for _ in range(moved):
        boards = {
            _moved(board, source, target)
            for board in boards
            for source, target in permutations(range(len(base)), 2)
            if board[source] > 0
        }
    exact = (
        b for b in boards if sum(abs(x - y) for x, y in zip(b, base, strict=True)) == 2 * moved
    )
    return [Start(board, game.to_move) for board in sorted(exact)]


def _moved(board: tuple[int, ...], source: int, target: int) -> tuple[int, ...]:
    """`board` with a seed taken from pit `source` and put in pit `target`."""
    changed = list(board)
    changed[source] -= 1
    changed[target] += 1
    return tuple(changed)
