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
"""

from __future__ import annotations

from collections.abc import Callable

from mancala_env import Game
from mancala_env.engine import layout as L
from mancala_env.engine.setting_out import central_pit


def move_entries(game: Game) -> dict[str, int]:
    """The text for each legal action of the player to move: entry -> action."""
    params, state = game.params, game.state
    lifts = int(params[L.P_LIFT_ACTIONS])
    total = int(params[L.P_TOTAL_SEEDS])
    entries: dict[str, int] = {}
    for action in game.legal_actions():
        if params[L.P_PIECE_GAME] == 1 and state[L.PHASE] != L.PHASE_PLAY:
            entries[_decision_entry(int(state[L.PHASE]), action - lifts)] = action
        elif state[L.PHASE] == L.PHASE_SET_OUT:
            entries[str(action - lifts)] = action
        elif state[L.PHASE] == L.PHASE_CHOOSE:
            entries["accept" if action == lifts + total + 1 else "turn"] = action
        elif action < lifts:
            entries[str(action + 1)] = action
        elif params[L.P_OPENING] != L.OPENING_NONE:
            house = action - lifts + 1
            entries[f"{house}+{house + 1}"] = action
        else:
            house = (action - lifts) % L.N_HOUSES + 1
            target = house + 1 if action - lifts < L.N_HOUSES else house - 1
            entries[f"{house}>{target}"] = action
    return entries


FLOCK_PITS = ("before", "own", "after")
QUESTIONS = {
    L.PHASE_PLACE: "in which of your pits 1-12 goes the {piece}?",
    L.PHASE_SIDE: "keep the board or turn it round?",
    L.PHASE_DROP: "which piece of the hand is the {piece} (1 = sown first)?",
    L.PHASE_SHIFT: "how many pits further does the {piece} move?",
    L.PHASE_BORROW: "whose power does the chieftain take?",
    L.PHASE_FLOCK_COUNT: "how many pieces stay in the shepherd's next pit?",
    L.PHASE_FLOCK_PIECE: "which of the shepherd's pits gets the {piece}?",
}


def _decision_entry(phase: int, value: int) -> str:
    """The text for the value `value` of a 10 Mighty Men decision."""
    if phase in (L.PHASE_PLACE, L.PHASE_DROP):
        return str(value + 1)
    if phase == L.PHASE_SIDE:
        return ("keep", "turn")[value]
    if phase == L.PHASE_BORROW:
        return L.KIND_NAMES[value]
    if phase == L.PHASE_FLOCK_PIECE:
        return FLOCK_PITS[value]
    return str(value)


def prompt_text(game: Game, entries: dict[str, int]) -> str:
    """The question put to the player to move."""
    player = f"player_{game.to_move}"
    phase = int(game.state[L.PHASE])
    if game.params[L.P_PIECE_GAME] == 1 and phase in QUESTIONS:
        slot = int(game.state[L.MOVE + L.MOVE_PIECE])
        piece = L.KIND_NAMES.get(int(game.state[L.PIECE_KIND + slot]), "piece")
        question = QUESTIONS[phase].format(piece=piece.replace("_", " "))
        return f"{player}, {question} ({' '.join(entries)}): "
    if game.state[L.PHASE] == L.PHASE_SET_OUT:
        filled = int(game.state[L.SETUP + L.SETUP_FILLED])
        hole = central_pit(int(game.state[L.SETUP + L.SETUP_DISTRIBUTOR]), filled)
        seeds = int(game.state[hole])
        return (
            f"{player}, how many of the {seeds} seeds stay in central hole {filled + 1}? "
            f"(0-{seeds}): "
        )
    if game.state[L.PHASE] == L.PHASE_CHOOSE:
        return f"{player}, accept the position or turn the board round? (accept/turn): "
    return f"{player}, your move ({' '.join(entries)}): "


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
            self.output_fn(self._explain(text, game, entries))

    @staticmethod
    def _explain(text: str, game: Game, entries: dict[str, int]) -> str:
        legal = ", ".join(entries)
        if not text:
            return f"Please enter a move: {legal}."
        if text.isdigit() and game.state[L.PHASE] == L.PHASE_PLAY:
            house = int(text)
            if 1 <= house <= int(game.params[L.P_LIFT_ACTIONS]):
                return (
                    f"House {house} cannot be played now (it is empty, not yours, or the rules "
                    f"forbid it). Legal moves: {legal}."
                )
            return f"There is no house {house}. Legal moves: {legal}."
        if text.isdigit() and game.state[L.PHASE] == L.PHASE_SET_OUT:
            most = max(map(int, entries))
            return f"{text} is not allowed here: leave from 0 to {most} seeds in this hole."
        if text.isdigit():
            return f"{text} is not allowed here. Choose one of: {legal}."
        return f"{text!r} is not a move. Legal moves: {legal}."
