"""10 Mighty Men (000_edc2cb6489bae485.txt): the base game, the setting out and each power on
explicit positions, alone and in the interactions the rule page decides.

Pits are numbered 0..11 (player_0's houses 1..6, then player_1's); a decision's value v is the
action 6 + v. Rule numbers refer to docs/variants/mighty_men.md.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from mancala_env import Game
from mancala_env.batch import BatchedGames
from mancala_env.engine import layout as L

DECIDE = 6  # action of decision value 0


def position(
    pits: list[int],
    pieces: list[tuple[str, int]] | list[tuple[str, int, int]],
    store_0: int = 20,
    to_move: int = 0,
    variant: str = "mighty_men",
    **options,
) -> Game:
    """A game of `variant` with `pits`, the special `pieces` (kind, pit[, arrival stamp]),
    `store_0` captured by player_0 and the rest of the 48 pieces by player_1."""
    kinds = ",".join(p[0] for p in pieces) or "none"
    game = Game(variant, pieces=kinds, setting_out="fixed", **options)
    stores = (store_0, 48 - sum(pits) - store_0)
    game.restore(
        {
            "variant": variant,
            "options": dataclasses.asdict(game.options),
            "pits": pits,
            "stores": list(stores),
            "to_move": to_move,
            "pieces": [
                {"kind": p[0], "at": p[1], "since": p[2] if len(p) > 2 else 0} for p in pieces
            ],
            "move": {"stamps": 100},
        }
    )
    return game


def where(game: Game) -> list:
    """Where each piece slot is: a pit, 'store_0', 'store_1', or None once a regular piece."""
    return [p["at"] if p["kind"] else None for p in game.snapshot()["pieces"]]


def values(game: Game) -> list[int]:
    """The decision values legal now."""
    return [a - DECIDE for a in game.legal_actions()]


def rearrange(game: Game, counts: tuple[int, int], pits: dict[str, int]) -> None:
    """Answer the Shepherd's decisions: `counts` for his preceding and own pits, then for each
    special piece he asks about, the pit (0 preceding, 1 own, 2 following) `pits` names for its
    kind; decisions with one answer are the engine's."""
    for count in counts:
        game.step(DECIDE + count)
    while game.snapshot()["phase"] == "flock_piece":
        snap = game.snapshot()
        game.step(DECIDE + pits[snap["pieces"][snap["move"]["piece"]]["kind"]])


def kinds(game: Game) -> list:
    """What each piece slot is now: its kind, or None once a regular piece."""
    return [p["kind"] for p in game.snapshot()["pieces"]]


# ---- rule 1-2: the board, the sowing --------------------------------------------------------
def test_start_four_pieces_a_pit_and_55_actions():
    game = Game("mighty_men", setting_out="fixed")
    assert game.pits.tolist() == [4] * 12 and game.n_actions == 55
    assert where(game) == [0, 6, 1, 7, 2, 8, 3, 9, 4, 10]
    assert game.legal_actions() == list(range(6))


def test_single_lap_passes_over_the_emptied_pit():
    game = position([12, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1], [])
    game.step(0)
    assert game.pits.tolist() == [0, 2, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2]
    assert game.to_move == 1


# ---- rule 3: the capture ------------------------------------------------------------------------
@pytest.mark.parametrize("with_seed, left", [(True, 0), (False, 1)])
def test_capture_of_the_opposite_pit_with_the_capturing_piece(with_seed, left):
    game = position(
        [1, 0, 0, 0, 0, 3, 2, 2, 2, 2, 3, 2], [], capture_sowing_seed=with_seed, store_0=0
    )
    game.step(0)  # the last piece falls into the empty pit 1; pit 10 faces it
    assert game.pits[1] == left and game.pits[10] == 0
    assert game.stores[0] == 3 + (1 - left)


def test_no_capture_on_the_opponents_row():
    game = position([0, 0, 0, 0, 0, 2, 0, 0, 3, 3, 3, 3], [], store_0=20)
    game.step(5)  # the last piece falls into pit 7 (empty, player_1's)
    assert game.stores.tolist() == [20, 14] and game.pits[6:8].tolist() == [1, 1]


# ---- rule 4: the end and the opponent's last pieces --------------------------------------------
def test_the_game_ends_when_the_player_to_move_has_no_pieces_the_rest_to_the_last_mover():
    game = position([0, 0, 0, 3, 0, 1, 0, 0, 0, 0, 0, 1], [], store_0=20, to_move=1)
    game.step(5)  # player_1's last piece goes over to player_0's row, into pit 0
    assert not game.over
    game.step(0)  # player_0 moves it on; player_1, to move, has no pieces
    assert game.over and game.stores.tolist() == [25, 23]
    assert game.snapshot()["end_reason"] == "no_move"


def test_a_warriors_pit_goes_to_the_last_mover_with_the_rest_at_the_end():
    """The pieces left at the end are no capture by a piece: the Warrior keeps nothing back."""
    pits = [0, 0, 0, 3, 0, 1, 0, 0, 0, 0, 0, 1]
    game = position(pits, [("warrior", 3)], store_0=20, to_move=1)
    game.step(5)
    game.step(0)  # player_1, to move, has no pieces: pits 1, 3 (the warrior's) and 5 to player_0
    assert game.over and game.stores.tolist() == [25, 23] and where(game) == ["store_0"]


def test_a_capture_of_the_opponents_last_pieces_is_not_made_when_another_lift_avoids_it():
    game = position([1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 2, 0], [], store_0=20)
    game.step(0)  # would take pit 10, all player_1 has; lifting house 4 would not
    assert game.pits[10] == 2 and game.stores[0] == 20


def test_a_capture_of_the_opponents_last_pieces_is_made_when_every_lift_makes_it():
    game = position([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0], [], store_0=20)
    game.step(0)
    assert game.stores[0] == 23  # pit 10 and the capturing piece; then player_1 cannot move
    assert game.over


# ---- rule 6: setting out ------------------------------------------------------------------------
def test_setting_out_one_places_the_other_chooses_a_side_the_first_moves_first():
    game = Game("mighty_men", pieces="farmer,spy")
    assert game.snapshot()["phase"] == "place" and game.to_move == 0
    assert values(game) == list(range(12))
    game.step(DECIDE + 0)  # the farmer into player_0's house 1
    assert game.to_move == 0
    game.step(DECIDE + 7)  # the spy into player_1's house 2
    assert game.snapshot()["phase"] == "side" and game.to_move == 1 and values(game) == [0, 1]
    game.step(DECIDE + 1)  # player_1 turns the board round
    assert where(game) == [6, 1] and game.to_move == 0 and game.snapshot()["phase"] == "play"
    assert game.snapshot()["turns"] == [0, 0]


def test_a_pit_takes_at_most_four_special_pieces_when_they_are_set_out():
    game = Game("mighty_men", pieces="spy,spy,spy,spy,spy", first_player="player_1")
    for _ in range(4):
        game.step(DECIDE + 2)  # player_1's house 3: pit 8
    assert 2 not in values(game) and len(values(game)) == 11


def test_random_setting_out_comes_from_the_reset_seed():
    layouts = []
    for seed in (1, 1, 2):
        game = Game("mighty_men", setting_out="random")
        game.reset(np.random.default_rng(seed))
        layouts.append(where(game))
    assert layouts[0] == layouts[1] != layouts[2]
    assert all(layouts[2].count(p) <= 4 for p in range(12))


# ---- rule 5: the drop decision ------------------------------------------------------------------
def test_the_mover_chooses_where_each_special_piece_falls():
    game = position([3, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1], [("warrior", 0), ("spy", 0)])
    game.step(0)
    assert game.snapshot()["phase"] == "drop" and values(game) == [0, 1, 2]
    game.step(DECIDE + 2)  # the warrior falls last
    assert values(game) == [0, 1]  # the spy has the places left
    game.step(DECIDE + 0)
    assert where(game) == [3, 1] and game.to_move == 1


# ---- the Farmer -----------------------------------------------------------------------------
def test_farmer_spreads_his_pit_over_the_arc():
    game = position([2, 0, 3, 0, 0, 0, 1, 1, 1, 1, 1, 1], [("farmer", 0)], store_0=20)
    game.step(0)
    game.step(DECIDE + 1)  # he falls last, into pit 2 (occupied): arc 3, 8, 9, (10, 1)
    assert game.pits.tolist() == [0, 1, 1, 1, 0, 0, 1, 1, 2, 2, 1, 1]
    assert where(game) == [2]


def test_farmers_arc_is_shortened_at_the_end_of_the_row():
    game = position([0, 0, 0, 0, 1, 3, 1, 1, 1, 1, 1, 1], [("farmer", 4)], store_0=20)
    game.step(4)  # into pit 5, player_0's house 6: the arc is 6, 7, 4
    assert game.pits.tolist() == [0, 0, 0, 0, 1, 1, 2, 2, 1, 1, 1, 1]


def test_farmer_into_an_empty_pit_does_nothing_and_captures_like_any_piece():
    game = position([1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 1], [("farmer", 0)], store_0=20)
    game.step(0)
    assert game.stores[0] == 23 and where(game) == ["store_0"]


# ---- the Shepherd ---------------------------------------------------------------------------
def test_shepherd_rearranges_his_three_pits():
    game = position([1, 1, 3, 0, 0, 0, 1, 1, 1, 1, 1, 1], [("shepherd", 0)], store_0=20)
    game.step(0)  # he falls into pit 1: his pits are 0, 1, 2 with 0 + 2 + 3 pieces
    assert game.snapshot()["phase"] == "flock_count" and values(game) == [0, 1, 2, 3, 4, 5]
    game.step(DECIDE + 4)  # four in pit 0
    assert values(game) == [0, 1]
    game.step(DECIDE + 1)  # one in pit 1, the rest (none) in pit 2
    assert game.snapshot()["phase"] == "flock_piece" and values(game) == [0, 1]
    game.step(DECIDE + 1)  # the shepherd stays in his own pit
    assert game.pits[:3].tolist() == [4, 1, 0] and where(game) == [1] and game.to_move == 1


def test_wise_mother_keeps_her_pits_count_under_the_shepherd():
    game = position(
        [1, 1, 3, 0, 0, 0, 1, 1, 1, 1, 1, 1],
        [("shepherd", 0), ("wise_mother", 2)],
        store_0=20,
    )
    game.step(0)
    assert values(game) == [0, 1, 2]  # pit 2 keeps its 3
    game.step(DECIDE + 2)  # two in pit 0, so none in pit 1
    assert values(game) == [0, 2]  # the shepherd goes where there is room
    game.step(DECIDE + 2)
    assert game.pits[:3].tolist() == [2, 0, 3] and where(game) == [2, 2]


# ---- the Hunter and the Trickster -------------------------------------------------------------
def test_hunter_moves_on_up_to_the_pieces_lifted_with_him():
    game = position([4, 0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 1], [("hunter", 0)], store_0=20)
    game.step(0)
    game.step(DECIDE + 0)  # sown first, into pit 1
    assert game.snapshot()["phase"] == "shift" and values(game) == [0, 1, 2, 3]
    game.step(DECIDE + 2)  # two pits on: pit 3
    assert game.pits[:5].tolist() == [0, 0, 1, 2, 2] and where(game) == [3]


def test_trickster_moves_back():
    game = position([0, 0, 4, 0, 1, 0, 1, 1, 1, 1, 1, 1], [("trickster", 2)], store_0=20)
    game.step(2)
    game.step(DECIDE + 3)  # sown last: into pit 6
    game.step(DECIDE + 2)  # two pits back: pit 4
    assert where(game) == [4] and game.pits[3:7].tolist() == [1, 3, 1, 1]


def test_wise_mother_cancels_the_hunters_move_into_her_pit():
    game = position(
        [4, 0, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1], [("hunter", 0), ("wise_mother", 3)], store_0=20
    )
    game.step(0)
    game.step(DECIDE + 0)
    game.step(DECIDE + 2)
    assert where(game) == [1, 3] and game.pits[:5].tolist() == [0, 1, 1, 2, 2]


# ---- the Warrior ----------------------------------------------------------------------------
def test_warrior_keeps_his_pit_from_a_capture_by_a_regular_piece():
    game = position([1, 0, 0, 0, 0, 3, 2, 2, 2, 2, 3, 2], [("warrior", 10)], store_0=0)
    game.step(0)
    assert game.pits[10] == 3 and game.stores[0] == 0


def test_warrior_is_captured_by_another_mighty_man():
    game = position(
        [1, 0, 0, 0, 0, 3, 2, 2, 2, 2, 3, 2], [("hunter", 0), ("warrior", 10)], store_0=0
    )
    game.step(0)  # the hunter, alone in hand (no move), captures
    assert game.stores[0] == 4 and where(game) == ["store_0", "store_0"]


# ---- the Chieftain --------------------------------------------------------------------------
def test_chieftain_takes_the_only_power_beside_him():
    game = position(
        [1, 2, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1], [("chieftain", 0), ("farmer", 2)], store_0=20
    )
    game.step(0)  # into pit 1 (occupied), beside the farmer: arc 2, 9 (two regular pieces)
    assert game.pits.tolist() == [0, 1, 2, 0, 0, 0, 1, 1, 1, 2, 1, 1]


def test_chieftain_chooses_between_two_powers():
    game = position(
        [1, 2, 2, 0, 0, 0, 1, 1, 1, 1, 1, 1],
        [("chieftain", 0), ("farmer", 2), ("witch_doctor", 2)],
        store_0=20,
    )
    game.step(0)
    assert game.snapshot()["phase"] == "borrow"
    assert values(game) == [L.KIND_FARMER, L.KIND_WITCH_DOCTOR]
    game.step(DECIDE + L.KIND_WITCH_DOCTOR)  # his pit was occupied: the witch doctor does nothing
    assert game.pits[:3].tolist() == [0, 3, 2] and game.stores.tolist() == [20, 17]


def test_chieftain_beside_a_warrior_guards_his_pit_this_play():
    pits = [0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 1, 0]
    game = position(pits, [("chieftain", 5), ("warrior", 10)], store_0=20)
    game.step(5)
    game.step(DECIDE + 5)  # into pit 11, beside the warrior; the last piece falls in pit 0
    assert game.pits[11] == 1 and game.stores[0] == 20
    game = position(pits, [("chieftain", 5), ("spy", 10)], store_0=20)
    game.step(5)
    game.step(DECIDE + 5)  # beside a spy, nobody to guard him: pit 11 is captured
    assert game.pits[11] == 0 and game.stores[0] == 22


# ---- the Wise Mother ------------------------------------------------------------------------
def test_wise_mother_cancels_a_farmers_arc_that_reaches_her_pit():
    game = position(
        [2, 0, 3, 0, 0, 0, 1, 1, 1, 1, 1, 1],
        [("farmer", 0), ("wise_mother", 8)],
        store_0=20,
    )
    game.step(0)
    game.step(DECIDE + 1)
    assert game.pits.tolist() == [0, 1, 4, 0, 0, 0, 1, 1, 1, 1, 1, 1]


def test_spy_reverts_the_mighty_men_before_him_but_not_a_wise_mother():
    game = position(
        [1, 2, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1],
        [("spy", 0), ("warrior", 1, 1), ("wise_mother", 1, 2)],
        store_0=20,
    )
    game.step(0)
    assert where(game) == [1, None, 1]
    assert kinds(game) == ["spy", None, "wise_mother"]


# ---- the Witch Doctor -----------------------------------------------------------------------
@pytest.mark.parametrize("captured, freed", [(10, 3), (2, 2)])
def test_witch_doctor_frees_three_pieces_the_opponent_captured(captured, freed):
    pits = [1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 1]
    game = position(pits, [("witch_doctor", 0)], store_0=42 - captured)
    game.step(0)  # into the empty pit 1; pit 10 across is empty: no capture
    assert game.pits[1] == 1 + freed and game.stores[1] == captured - freed


def test_witch_doctor_does_not_free_captured_mighty_men():
    pits = [1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 1]
    game = position(pits, [("witch_doctor", 0), ("spy", "store_1")], store_0=40)
    game.step(0)
    assert game.pits[1] == 2 and game.stores[1] == 1


# ---- the Assassin ---------------------------------------------------------------------------
def test_a_captured_assassin_poisons_his_pit():
    game = position([1, 0, 0, 0, 0, 3, 2, 2, 2, 2, 3, 2], [("assassin", 10)], store_0=0)
    game.step(0)
    snap = game.snapshot()
    assert snap["closed"][10] == 1 and where(game) == ["store_0"]
    assert 4 not in game.legal_actions()  # player_1's house 5 is out of the game
    game.step(3)  # player_1's house 4 (pit 9, two pieces): pit 10 is passed over
    assert game.pits[10] == 0 and game.pits[11] == 3 and game.pits[0] == 1


@pytest.mark.parametrize("with_seed", [True, False])
def test_a_capturing_assassin_poisons_the_movers_own_pit(with_seed):
    """The Assassin, last piece sown, falls into the mover's empty pit 1 and captures pit 10;
    taken with his capture (`capture_sowing_seed`), he poisons the pit he is taken from, pit 1,
    the mover's own. Left in it (False), he is not captured and poisons nothing."""
    pits = [1, 0, 0, 0, 0, 3, 2, 2, 2, 2, 3, 2]
    game = position(pits, [("assassin", 0)], store_0=0, capture_sowing_seed=with_seed)
    game.step(0)
    snap = game.snapshot()
    assert snap["closed"][1] == int(with_seed) and snap["closed"][10] == 0
    assert where(game) == (["store_0"] if with_seed else [1])
    assert game.stores[0] == 3 + int(with_seed)
    game.step(5)  # player_1's pit 11: two pieces, into pit 0 and then pit 1 unless poisoned
    assert game.pits[:3].tolist() == ([1, 0, 1] if with_seed else [1, 2, 0])


# ---- the Spy and the order of the powers --------------------------------------------------------
def test_powers_resolve_in_the_order_the_pieces_fell():
    pits = [13, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    # the farmer falls first into pit 1 (empty: no arc), the spy last but one into pit 1 again
    game = position(pits, [("farmer", 0), ("spy", 0)], store_0=20)
    game.step(0)
    game.step(DECIDE + 0)
    game.step(DECIDE + 11)
    assert where(game) == [None, 1]  # the spy, arriving later, reverted the farmer
    game = position(pits, [("farmer", 0), ("spy", 0)], store_0=20)
    game.step(0)
    game.step(DECIDE + 11)
    game.step(DECIDE + 0)
    assert where(game) == [1, 1]  # the farmer came after the spy: he keeps his power


@pytest.mark.parametrize("farmer_first, farmer_after", [(True, None), (False, 1)])
def test_a_mighty_man_who_fell_before_the_spy_uses_his_power_before_he_is_reverted(
    farmer_first, farmer_after
):
    """Powers resolve in the order the pieces fell, the Spy's too: a Farmer who fell into the
    Spy's pit before him spreads his arc and is then reverted; one who fell after him keeps his
    power. Either way the arc is spread."""
    game = position([13, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [("farmer", 0), ("spy", 0)])
    game.step(0)  # 13 pieces: places 0 and 11 fall into pit 1 (pit 0 is passed over)
    game.step(DECIDE + (0 if farmer_first else 11))
    game.step(DECIDE + (11 if farmer_first else 0))
    assert game.pits[:3].tolist() == [0, 2, 3]  # pit 1's regular piece went on to pit 2
    assert where(game) == [farmer_after, 1]


SHEPHERD_SPY_WARRIOR = [("shepherd", 0), ("spy", 0), ("warrior", 2)]
WARRIOR_SHEPHERD_SPY = SHEPHERD_SPY_WARRIOR[2:] + SHEPHERD_SPY_WARRIOR[:2]


@pytest.mark.parametrize("pieces", [SHEPHERD_SPY_WARRIOR, WARRIOR_SHEPHERD_SPY])
def test_a_piece_the_shepherd_leaves_in_its_pit_keeps_its_arrival(pieces):
    """The Warrior was in pit 2 when the Spy fell there; the Shepherd, sown first, leaves both
    in pit 2. The Spy still finds the Warrior there before him, whatever the order of the piece
    slots (the order in which the Shepherd sets his pieces down)."""
    game = position([3, 0, 2, 0, 0, 0, 1, 1, 1, 1, 1, 1], pieces)
    game.step(0)
    game.step(DECIDE + 0)  # the shepherd falls first, into pit 1
    game.step(DECIDE + 1)  # the spy second, into pit 2 with the warrior
    rearrange(game, (0, 1), {"shepherd": 1, "spy": 2, "warrior": 2})  # pits 0, 1, 2: 0, 1, 3
    assert game.pits[:3].tolist() == [0, 1, 3] and game.to_move == 1
    assert sorted(kinds(game), key=str) == [None, "shepherd", "spy"]


def test_the_spy_reverts_a_warrior_already_in_his_pit_with_a_hunter_sown_first():
    """The position of the Shepherd's test with a Hunter in his place: the same reversion."""
    pieces = [("hunter", 0), ("spy", 0), ("warrior", 2)]
    game = position([3, 0, 2, 0, 0, 0, 1, 1, 1, 1, 1, 1], pieces)
    game.step(0)
    game.step(DECIDE + 0)  # the hunter falls first, into pit 1
    game.step(DECIDE + 0)  # and stays there
    game.step(DECIDE + 1)  # the spy second, into pit 2 with the warrior
    assert where(game) == [1, 2, None]


@pytest.mark.parametrize(
    "pieces",
    [
        [("shepherd", 0), ("spy", 0), ("warrior", 1)],
        [("warrior", 1), ("shepherd", 0), ("spy", 0)],
    ],
)
@pytest.mark.parametrize(
    "counts, warrior_to, spy_to, reverted",
    [
        ((2, 1), 0, 0, False),  # moved together into pit 0: they arrive together
        ((0, 1), 2, 2, False),  # the warrior moved into the spy's pit arrives after him
        ((0, 3), 1, 1, True),  # the spy moved into the warrior's pit finds him there
    ],
)
def test_pieces_the_shepherd_moves_arrive_together(pieces, counts, warrior_to, spy_to, reverted):
    """The Shepherd falls into pit 1 beside the Warrior, the Spy into pit 2, and the Shepherd
    rearranges pits 0, 1, 2 (0, 2 and 3 pieces): a piece he sets down in another pit arrives
    there then, with every other piece he moves, so none of them was there before another;
    the Spy acts in the pit he is in when his power resolves. Both slot orders."""
    game = position([3, 1, 2, 0, 0, 0, 1, 1, 1, 1, 1, 1], pieces)
    game.step(0)
    game.step(DECIDE + 0)  # the shepherd falls first, into pit 1
    game.step(DECIDE + 1)  # the spy second, into pit 2
    rearrange(game, counts, {"shepherd": 1, "spy": spy_to, "warrior": warrior_to})
    assert game.to_move == 1 and ("warrior" not in kinds(game)) == reverted
    assert where(game)[[kind for kind, _ in pieces].index("spy")] == spy_to


# ---- the calm rules -------------------------------------------------------------------------
def test_calm_a_mighty_man_acts_only_when_sown_last():
    pits = [2, 0, 3, 0, 0, 0, 1, 1, 1, 1, 1, 1]
    game = position(pits, [("farmer", 0)], store_0=20, variant="mighty_men_calm")
    game.step(0)
    game.step(DECIDE + 0)  # the farmer first, into the empty pit 1: no power
    assert game.pits.tolist() == [0, 1, 4, 0, 0, 0, 1, 1, 1, 1, 1, 1]
    game = position(
        [2, 0, 3, 0, 0, 0, 1, 1, 1, 1, 1, 1],
        [("farmer", 0), ("farmer", 2)],
        store_0=20,
        variant="mighty_men_calm",
    )
    game.step(0)
    game.step(DECIDE + 0)  # the farmer falls first into pit 1, no power; pit 2 has none either
    assert game.pits.tolist() == [0, 1, 4, 0, 0, 0, 1, 1, 1, 1, 1, 1]


def test_calm_the_trickster_is_sown_first():
    game = position(
        [0, 0, 3, 0, 0, 0, 1, 1, 1, 1, 1, 1],
        [("trickster", 2)],
        store_0=20,
        variant="mighty_men_calm",
    )
    game.step(2)
    assert game.snapshot()["phase"] == "shift" and values(game) == [0, 1, 2]
    game.step(DECIDE + 2)  # into pit 3, two pits back past the emptied pit 2: pit 0
    assert where(game) == [0]


@pytest.mark.parametrize("unsown_powers", ["standing", "warrior"])
def test_calm_the_warrior_guards_without_being_sown(unsown_powers):
    game = position(
        [1, 0, 0, 0, 0, 3, 2, 2, 2, 2, 3, 2],
        [("warrior", 10)],
        store_0=0,
        variant="mighty_men_calm",
        unsown_powers=unsown_powers,
    )
    game.step(0)
    assert game.pits[10] == 3 and game.stores[0] == 0


@pytest.mark.parametrize("unsown_powers, cancelled", [("standing", True), ("warrior", False)])
def test_calm_an_unsown_wise_mother_cancels_a_farmers_arc_unless_read_strictly(
    unsown_powers, cancelled
):
    """The Farmer, sown last into pit 2, spreads over 3, 8, 9; the Wise Mother in pit 8 was not
    sown. By default (her power answers others' actions, like the Warrior's) she cancels the
    arc; read strictly ('warrior'), only the last piece sown has a power and the arc is spread."""
    game = position(
        [2, 0, 3, 0, 0, 0, 1, 1, 1, 1, 1, 1],
        [("farmer", 0), ("wise_mother", 8)],
        store_0=20,
        variant="mighty_men_calm",
        unsown_powers=unsown_powers,
    )
    game.step(0)
    game.step(DECIDE + 1)
    cancelled_pits = [0, 1, 4, 0, 0, 0, 1, 1, 1, 1, 1, 1]
    spread_pits = [0, 1, 1, 1, 0, 0, 1, 1, 2, 2, 1, 1]
    assert game.pits.tolist() == (cancelled_pits if cancelled else spread_pits)


@pytest.mark.parametrize("unsown_powers, poisoned", [("standing", 1), ("warrior", 0)])
def test_calm_an_unsown_assassin_poisons_his_pit_unless_read_strictly(unsown_powers, poisoned):
    """The Assassin in pit 10 is captured without having been sown: by default his pit is
    poisoned; read strictly it is only emptied."""
    game = position(
        [1, 0, 0, 0, 0, 3, 2, 2, 2, 2, 3, 2],
        [("assassin", 10)],
        store_0=0,
        variant="mighty_men_calm",
        unsown_powers=unsown_powers,
    )
    game.step(0)
    assert game.snapshot()["closed"][10] == poisoned and where(game) == ["store_0"]
    assert game.stores[0] == 4 and game.pits[10] == 0


@pytest.mark.parametrize("unsown_powers", ["standing", "warrior"])
def test_calm_the_spy_cannot_revert_a_wise_mother_in_either_reading(unsown_powers):
    game = position(
        [1, 2, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1],
        [("spy", 0), ("warrior", 1, 1), ("wise_mother", 1, 2)],
        store_0=20,
        variant="mighty_men_calm",
        unsown_powers=unsown_powers,
    )
    game.step(0)  # the spy, alone in hand and so the last piece sown, falls into pit 1
    assert where(game) == [1, None, 1]


@pytest.mark.parametrize("unsown_powers", ["standing", "warrior"])
def test_calm_a_capturing_assassin_is_the_last_piece_sown_and_poisons_in_either_reading(
    unsown_powers,
):
    game = position(
        [1, 0, 0, 0, 0, 3, 2, 2, 2, 2, 3, 2],
        [("assassin", 0)],
        store_0=0,
        variant="mighty_men_calm",
        unsown_powers=unsown_powers,
    )
    game.step(0)
    assert game.snapshot()["closed"][1] == 1 and where(game) == ["store_0"]


# ---- options and errors -------------------------------------------------------------------------
def test_pieces_option_names_unknown_pieces_and_the_known_ones():
    with pytest.raises(ValueError, match="unknown piece.*'wizard'.*known pieces: farmer"):
        Game("mighty_men", pieces="farmer,wizard")
    with pytest.raises(ValueError, match="at most 12"):
        Game("mighty_men", pieces=",".join(["spy"] * 13))


def test_unsown_powers_is_an_option_of_the_calm_rules_only():
    with pytest.raises(ValueError, match="unsown_powers='none'.*'standing', 'warrior'"):
        Game("mighty_men_calm", unsown_powers="none")
    with pytest.raises(ValueError, match="unknown option.*unsown_powers.*'mighty_men'"):
        Game("mighty_men", unsown_powers="warrior")
    assert Game("mighty_men_calm").options.unsown_powers == "standing"


def test_several_pieces_of_one_kind_and_a_single_piece_game():
    assert Game("mighty_men", pieces="spy,spy,spy").params[L.P_PIECES] == 3
    game = Game("mighty_men", pieces="hunter", setting_out="fixed")
    assert where(game) == [0]


def test_snapshot_with_pieces_that_do_not_fit_is_refused():
    game = Game("mighty_men", pieces="spy", setting_out="fixed")
    snap = game.snapshot()
    snap["pits"][0] = 0
    snap["stores"] = [4, 0]
    with pytest.raises(ValueError, match="1 special pieces are in pit 0, which holds 0"):
        game.restore(snap)


def test_batched_games_draw_a_random_setting_out_for_each_game_from_the_seed():
    layouts = []
    for _ in range(2):
        batch = BatchedGames("mighty_men", 8, seed=5, setting_out="random")
        batch.reset(seed=5)
        at = batch.layout.PIECE_AT
        layouts.append(batch.states[:, at : at + 10].copy())
    assert (layouts[0] == layouts[1]).all()
    assert len({tuple(row) for row in layouts[0]}) == 8
