"""A person at the keyboard: each move is read as text, checked, and asked for again until it
is a legal move.

What can be typed (the prompt lists the legal entries):

- a house number, ``1`` to ``6`` (counted from the player's left, in the sowing order; rule sets
  where houses change hands count on into the opponent's row, up to 12);
- Ayoyayo's odu transfer: ``2>3`` moves all of house 2 to house 3 (``2>1`` to house 1, where the
  rule set allows it);
- J'erin's opening: ``2+3`` lifts houses 2 and 3 together;
- Mangala's setting out: the number of seeds that stay in the central hole being filled, then
  ``accept`` or ``turn`` (the board round);
- 10 Mighty Men's decisions: the pit (1-12 from the player's house 1) for a Mighty Man being
  placed, ``keep`` or ``turn`` for the side, a special piece's turn in the sowing (1 = sown
  first), the Hunter's or Trickster's distance, the power the Chieftain takes (``farmer``, ...),
  the Shepherd's counts, and ``before``, ``own`` or ``after`` for the pit a piece goes to.

Two words are not moves: ``help`` lists the legal entries with what each does, and ``quit``
ends the game (`act` raises `QuitGame`, which ``mancala play`` reports before it exits with
status 0).
"""

from __future__ import annotations

from collections.abc import Callable

from mancala_env import Game
from mancala_env.engine import layout as L
from mancala_env.variants.actions import find

HELP = "help"
QUIT = "quit"


class QuitGame(Exception):
    """The person typed ``quit``: they stop the game before its end."""


def move_entries(game: Game) -> dict[str, int]:
    """The text for each legal action of the player to move: entry -> action."""
    entries = {}
    for action in game.legal_actions():
        block, value = find(game.variant.actions, game.params, action)
        entries[block.entry(value, game.state, game.params)] = action
    return entries


def prompt_text(game: Game, entries: dict[str, int]) -> str:
    """The question put to the player to move: that of the block of their legal actions."""
    player = f"player_{game.to_move}"
    block, _ = find(game.variant.actions, game.params, min(entries.values()))
    question = block.question(game.state, game.params) or "your move"
    listed = f" ({' '.join(entries)})" if block.lists_entries else ""
    return f"{player}, {question}{listed}: "


def help_text(game: Game, entries: dict[str, int]) -> str:
    """Each legal entry with what it does, then the two words that are not moves."""
    width = max(len(entry) for entry in entries)
    lines = [f"  {entry:<{width}}  {game.describe_action(a)}" for entry, a in entries.items()]
    return "\n".join(
        [f"Legal entries for player_{game.to_move}:", *lines, "  help: this list; quit: stop"]
    )


class HumanAgent:
    """Reads moves with `input_fn` (default `input`) and explains a bad entry with `output_fn`
    (default `print`), asking again until the entry is a legal move."""

    code_version = 1  # part of its identity: raise it when its play changes

    def __init__(
        self,
        input_fn: Callable[[str], str] = input,
        output_fn: Callable[[str], object] = print,
        seed: int | None = None,
    ) -> None:
        self.input_fn = input_fn
        self.output_fn = output_fn

    def reset(self, seed: int | None = None) -> None:
        """Nothing to forget: the person remembers."""

    def act(self, game: Game) -> int:
        entries = move_entries(game)
        if not entries:
            raise ValueError("the game is over: there is no move to choose")
        prompt = prompt_text(game, entries)
        while True:
            text = "".join(self.input_fn(prompt).split()).lower()
            if text in entries:
                return entries[text]
            if text == QUIT:
                raise QuitGame(f"player_{game.to_move} quit")
            if text == HELP:
                self.output_fn(help_text(game, entries))
            else:
                self.output_fn(self._explain(text, game, entries))

    @staticmethod
    def _explain(text: str, game: Game, entries: dict[str, int]) -> str:
        legal = ", ".join(entries)
        if not text:
            return f"Please enter a move: {legal}."
        # Digits 0-9 only: str.isdigit takes '²' and other digits int() refuses, and a number
        # of thousands of digits is too long for int(); neither names a house.
        number = text.isascii() and text.isdigit()
        shown = text if len(text) <= 20 else f"{text[:20]}..."
        if number and game.state[L.PHASE] == L.PHASE_PLAY:
            house = int(text) if len(text) <= 9 else None
            if house is not None and 1 <= house <= int(game.params[L.P_LIFT_ACTIONS]):
                return (
                    f"House {house} cannot be played now (it is empty, not yours, or the rules "
                    f"forbid it). Legal moves: {legal}."
                )
            return f"There is no house {shown}. Legal moves: {legal}."
        if number and game.state[L.PHASE] == L.PHASE_SET_OUT:
            counts = list(map(int, entries))
            return (
                f"{shown} is not allowed here: leave from {min(counts)} to {max(counts)} seeds "
                "in this hole."
            )
        if number:
            return f"{shown} is not allowed here. Choose one of: {legal}."
        return f"{shown!r} is not a move. Legal moves: {legal} (or help, quit)."
