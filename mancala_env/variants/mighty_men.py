"""10 Mighty Men (Ken Maher, Canada, 2009): Ayoayo's board with ten special pieces.

Source: ``000_edc2cb6489bae485.txt``. Its parts "Basic Rules", "Special Rules", Maher's setting
out and Ralf Gering's calmer rules. The moves of the pieces are in ``mancala_env.engine.pieces``;
the rule page ``docs/variants/mighty_men.md`` gives every reading and its reason.

1. Two rows of six pits, four pieces in each; a player owns the row nearer them.
2. A move lifts one of the mover's pits and sows it, one piece to a pit, counter-clockwise, not
   into the stores, in a single lap; the emptied pit is passed over (twelve pieces or more).
3. A last piece that falls into an empty pit of the mover's row captures the pit across from
   it, and the capturing piece with it (`capture_sowing_seed`).
4. The game ends when the player to move has no pieces in their pits; the pieces left go to the
   player who moved last. A capture of the opponent's last pieces is not made unless every lift
   the mover had would make one. The player who captured more wins.
5. Special pieces replace regular ones (`pieces`: any of them, several of one kind too) and use
   their powers after the sowing and before the capture; the Hunter and the Trickster as they
   are sown: Farmer, Shepherd, Hunter, Warrior, Chieftain, Wise Mother, Witch Doctor, Trickster,
   Assassin, Spy.
6. Setting out (`setting_out`): one player places the Mighty Men, the other chooses a side, and
   the first moves first; or a fixed or random layout.
7. ``mighty_men_calm``: Gering's rules. A Mighty Man uses his power only when he is the last
   piece sown; the Warrior guards his pit without being sown (and by default the Wise Mother
   and the Assassin keep their powers unsown too, `unsown_powers`); the Trickster is sown first.

Actions: 0..5 lift houses 1..6; 6 + v (v = 0..48) answers the decision the move asks for (the
phase in the observation says which): where a special piece falls in the sowing, how far the
Hunter or Trickster moves, whose power the Chieftain takes, how the Shepherd rearranges his
three pits, where a Mighty Man is placed and which side is taken. 55 actions in all.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine import layout as L
from .actions import LIFTS, PIECE_DECISION
from .base import (
    SOURCE_HOUSES,
    STALL_STOP_LAST,
    RuleOptions,
    Variant,
    choice,
    first_player_field,
    flag,
    rule_params,
    text,
)
from .sources import cite

__doc__ = cite(__doc__)  # the citation, where the docstring names the project's copy

SOURCE = "000_edc2cb6489bae485.txt. Parts 'Basic Rules' and 'Special Rules'"
KINDS = {name: kind for kind, name in L.KIND_NAMES.items()}
ALL_PIECES = ",".join(L.KIND_NAMES[k] for k in sorted(L.KIND_NAMES))
SETTINGS_OUT = {
    "players": L.PIECE_SETTING_OUT_PLAYERS,
    "fixed": L.PIECE_SETTING_OUT_GIVEN,
    "random": L.PIECE_SETTING_OUT_RANDOM,
}


def parse_pieces(value: str) -> tuple[int, ...]:
    """The kinds named by a `pieces` option: 'all', 'none', or names joined by commas."""
    if not isinstance(value, str):
        raise ValueError(f"option pieces={value!r} must be text, e.g. 'all' or 'farmer,spy'")
    if value == "all":
        value = ALL_PIECES
    names = [] if value in ("none", "") else [n.strip() for n in value.split(",")]
    unknown = [n for n in names if n not in KINDS]
    if unknown:
        raise ValueError(
            f"option pieces names unknown piece(s) {', '.join(map(repr, unknown))}; "
            f"known pieces: {', '.join(KINDS)}"
        )
    if len(names) > L.MAX_PIECES:
        raise ValueError(f"option pieces names {len(names)} pieces; at most {L.MAX_PIECES}")
    return tuple(KINDS[n] for n in names)


@dataclass(frozen=True)
class MightyMenOptions(RuleOptions):
    first_player: str = first_player_field(
        "player_0",
        "who places the Mighty Men and then moves first (with a fixed or random setting out: "
        "who moves first); the source does not say who places them",
    )
    pieces: str = text(
        "all",
        f"'all', 'none', or up to {L.MAX_PIECES} of {', '.join(KINDS)} joined by commas "
        "(a kind may repeat)",
        "the special pieces in play, in place of regular ones ('all': one of each of the ten)",
    )
    setting_out: str = choice(
        "players",
        ("players", "fixed", "random"),
        "one player places the Mighty Men and the other chooses a side (Maher), or a fixed "
        "layout (piece i in house i//2 + 1 of player_0, player_1, player_0, ...), or pits drawn "
        "from the reset seed",
    )
    capture_sowing_seed: bool = flag(
        True, "a capture takes the capturing piece too ('usually it is captured as well')"
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        parse_pieces(self.pieces)


UNSOWN_POWERS = {"standing": L.PIECE_UNSOWN_STANDING, "warrior": L.PIECE_UNSOWN_WARRIOR}


@dataclass(frozen=True)
class MightyMenCalmOptions(MightyMenOptions):
    unsown_powers: str = choice(
        "standing",
        tuple(UNSOWN_POWERS),
        "whose powers hold without the piece being the last sown: 'standing' the Warrior's, "
        "the Wise Mother's and the Assassin's, which answer other pieces' actions (a reading); "
        "'warrior' the Warrior's only, Gering's one stated exception, so that the Wise Mother "
        "and the Assassin act only as the last piece sown in the move under way",
    )


def fixed_pit(i: int) -> int:
    """The pit of piece `i` in the fixed setting out: houses 1, 1, 2, 2, ... of alternate rows."""
    return (i % 2) * SOURCE_HOUSES + (i // 2) % SOURCE_HOUSES


def to_params(options: MightyMenOptions, rules: int = L.PIECE_RULES_MAHER) -> np.ndarray:
    """The rule parameters of either rule set (`rules`: Maher's or Gering's)."""
    kinds = parse_pieces(options.pieces)
    params = rule_params(
        CONTINUE=L.CONTINUE_NEVER,
        SKIP_ORIGIN=L.SKIP_MOVE_ORIGIN,
        CAPTURE=L.CAPTURE_OPPOSITE,
        CAPTURE_LAST_SEED=int(options.capture_sowing_seed),
        FEEDING=L.FEED_NONE,
        NO_MOVE=L.NO_MOVE_END,
        REMAINDER=L.REMAINDER_LAST_MOVER,
        STALL_REMAINDER=L.REMAINDER_OWNER,
        STALL_NEW_LOW=1,
        PIECE_GAME=1,
        PIECES=len(kinds),
        PIECE_RULES=rules,
        PIECE_SETTING_OUT=SETTINGS_OUT[options.setting_out],
    )
    for i, kind in enumerate(kinds):
        params[L.P_PIECE_KIND + i] = kind
        params[L.P_PIECE_PIT + i] = fixed_pit(i)
    return params


def to_calm_params(options: MightyMenCalmOptions) -> np.ndarray:
    """Gering's rules: powers only for the last piece sown, the standing ones as chosen."""
    params = to_params(options, rules=L.PIECE_RULES_CALM)
    params[L.P_PIECE_UNSOWN] = UNSOWN_POWERS[options.unsown_powers]
    return params


MIGHTY_MEN = Variant(
    name="mighty_men",
    title="10 Mighty Men",
    source=SOURCE,
    summary="Maher's Ayoayo with ten special pieces: Farmer, Shepherd, Hunter, Warrior, "
    "Chieftain, Wise Mother, Witch Doctor, Trickster, Assassin, Spy",
    options_type=MightyMenOptions,
    readings=to_params,
    doc=__doc__,
    actions=(LIFTS, PIECE_DECISION),
    history=(
        (
            STALL_STOP_LAST,
            "a piece the Shepherd leaves in its pit keeps its arrival and the pieces he moves "
            "arrive together, so whether the Spy reverts a Mighty Man no longer depends on the "
            "order of the piece slots (a rearrangement made pieces count as new arrivals)",
        ),
    ),
)

MIGHTY_MEN_CALM = Variant(
    name="mighty_men_calm",
    title="10 Mighty Men (calm)",
    source=SOURCE + ", and Ralf Gering's calmer rules",
    summary="10 Mighty Men with Gering's three calmer rules: a Mighty Man acts only when sown "
    "last, the Warrior guards without being sown, the Trickster is sown first",
    options_type=MightyMenCalmOptions,
    readings=to_calm_params,
    doc=__doc__,
    actions=(LIFTS, PIECE_DECISION),
    history=(
        (
            STALL_STOP_LAST,
            "option unsown_powers='warrior': only the Warrior's power holds without his being "
            "sown (Gering's rule read strictly)",
        ),
    ),
)
