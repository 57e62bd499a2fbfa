"""Explicit positions for the rule tests.

`position` sets up a game of a rule set from the pits, stores and player to move a test names
(the board convention of the design notes: pits 0..5 are player_0's houses 1..6, pits 6..11
player_1's, in the sowing direction). `outcome` reads back what a rule test asserts: the pits,
the stores, the player to move (None once the game is over) and why the game ended.
"""

from __future__ import annotations

from typing import Any

from mancala_env import Game
from mancala_env.engine import layout as L
from mancala_env.engine.sowing import relay_goes_on, relay_lap


def position(
    variant: str,
    pits: list[int],
    stores: list[int],
    to_move: int = 0,
    options: dict[str, Any] | None = None,
    **fields: Any,
) -> Game:
    """A game of `variant` at the given position; `fields` set other snapshot entries.

    The seeds on the board and in the stores must add up to the rule set's total (48).
    Restoring runs the start-of-turn rules, so a terminal position ends the game at once.
    """
    snapshot = Game(variant, **(options or {})).snapshot()
    snapshot.update(pits=list(pits), stores=list(stores), to_move=to_move, **fields)
    return Game.from_snapshot(snapshot)


def outcome(game: Game) -> dict[str, Any]:
    """Pits, stores, player to move (None when over) and end reason (None while playing)."""
    snapshot = game.snapshot()
    return {key: snapshot[key] for key in ("pits", "stores", "to_move", "end_reason")}


def boards_after_laps(game: Game, action: int, laps: int) -> list[list[int]]:
    """The board after each of the first `laps` laps of lifting the mover's house `action + 1`
    (fewer if the relay ends sooner), to check a relay board by board."""
    state, params, mover = game.state.copy(), game.params, game.to_move
    origin = start = mover * L.MAX_HOUSES + action
    boards = []
    for _ in range(laps):
        start = relay_lap(state, start, origin, mover, params)
        boards.append([int(x) for x in state[: L.MAX_PITS]])
        if not relay_goes_on(state, start, mover, params, params[L.P_CONTINUE]):
            break
    return boards
