"""Ayoayo: each numbered rule of `mancala_env.variants.ayoayo` on an explicit position.

Source: 002_39c0c29210756e27.txt (John P. Pratt, "Ayoayo Rules", numbered rules 1-5 and "A
Variation"); the options carry the readings of 004_8ffe586423a61d8e.txt, section "Ayoayo -
Nigeria". Pits 0..5 are player_0's houses 1..6 and pits 6..11 player_1's, in the sowing
direction; pit k faces pit 11 - k; stores are [player_0, player_1].

Pratt numbers each player's pits 6..1 in the sowing direction, so his Pit k is our house 7 - k:
the lower player's (player_0's) Pit k is our pit 6 - k, the upper player's Pit k our pit 12 - k.
"""

import numpy as np
import pytest
from positions import boards_after_laps, outcome, position

from mancala_env import Game, IllegalActionError

# ---- rule 1: the start --------------------------------------------------------------------


def test_rule_1_four_seeds_in_each_pit():
    """Rule 1 (002): the game begins with four seeds in each pit; every house may be lifted.
    Pratt does not say who begins: player_0 by default."""
    game = Game("ayoayo")
    assert outcome(game) == {"pits": [4] * 12, "stores": [0, 0], "to_move": 0, "end_reason": None}
    assert game.legal_actions() == [0, 1, 2, 3, 4, 5]


def test_first_player_option():
    """Option first_player: 'player_1' lets player_1 begin; 'random' draws the first player from
    the reset seed (004, 'Starting': a seed guessed in a closed fist), reproducibly."""
    assert Game("ayoayo", first_player="player_1").to_move == 1
    drawn = []
    for seed in range(16):
        game = Game("ayoayo", first_player="random")
        game.reset(np.random.default_rng(seed))
        again = Game("ayoayo", first_player="random")
        again.reset(np.random.default_rng(seed))
        assert again.to_move == game.to_move
        drawn.append(game.to_move)
    assert set(drawn) == {0, 1}


# ---- Pratt's figures 1 and 2 (rules 2, 3 and 4 in one move) --------------------------------

# Figure 1, "Board before moving Pit 3". The text fixes: the lower player's Pit 3 (our pit 3)
# holds 8 seeds, the upper player's Pit 1 (our pit 11) holds one seed, and the relay from it
# sows into the lower player's Pit 6 and Pit 5 (our pits 0 and 1). The other counts are chosen
# here: Pit 5 (our pit 1) is empty, so the relay ends there, and the stores hold the rest of 48.
FIGURE_1 = [3, 0, 4, 8, 2, 5, 4, 3, 0, 6, 2, 1]
FIGURE_1_STORES = [4, 6]
# Figure 2, "After the move, but before continuing": the 8 seeds went into the lower player's
# Pits 2 and 1 (pits 4, 5) and all six pits of the upper player (pits 6..11); no seed went into
# a store. The last one fell into the upper player's Pit 1 (pit 11), which now holds 2.
FIGURE_2 = [3, 0, 4, 0, 3, 6, 5, 4, 1, 7, 3, 2]


def test_pratt_figures_1_and_2_and_the_relay():
    """Rules 2, 3 and 4 (002, Figures 1 and 2): the lower player plays Pit 3 (8 seeds). The
    first lap gives Figure 2; the last seed fell into the upper player's Pit 1, which held a
    seed, so both seeds are lifted and sown into the lower player's Pit 6 and Pit 5 (pits 0 and
    1). Pit 5 was empty: the turn ends there, on the mover's row, and the 3 seeds of the pit
    opposite (pit 10, the upper player's Pit 2) are captured; the sowing seed stays."""
    game = position("ayoayo", FIGURE_1, FIGURE_1_STORES, to_move=0)
    assert boards_after_laps(game, 3, 1) == [FIGURE_2]
    game.step(3)
    assert outcome(game) == {
        "pits": [4, 1, 4, 0, 3, 6, 5, 4, 1, 7, 0, 0],
        "stores": [7, 6],
        "to_move": 1,
        "end_reason": None,
    }


# ---- rule 2: sowing, and the pit being played ---------------------------------------------

# Pit 0 holds 12 seeds, enough to go round the board; pit 3 holds 7.
ROUND_THE_BOARD = [12, 0, 1, 7, 0, 0, 0, 0, 0, 0, 0, 0]


def test_rule_2_the_pit_played_stays_empty_when_the_seeds_go_round():
    """Rule 2 (002): 'the pit being played always remains empty after a move'. Lap 1: pits
    1..11 get a seed each, pit 0 is passed over and the 12th seed makes pit 1 two. Lap 2 lifts
    those 2 into pits 2 and 3 (now 9). Lap 3 sows the 9 into pits 4..11, passes over pit 0
    again and ends in pit 1, empty since lap 2: the turn ends and pit 10 (2) is captured."""
    game = position("ayoayo", ROUND_THE_BOARD, [14, 14], to_move=0)
    assert boards_after_laps(game, 0, 2) == [
        [0, 2, 2, 8, 1, 1, 1, 1, 1, 1, 1, 1],
        [0, 0, 3, 9, 1, 1, 1, 1, 1, 1, 1, 1],
    ]
    game.step(0)
    assert outcome(game) == {
        "pits": [0, 1, 3, 0, 2, 2, 2, 2, 2, 2, 0, 2],
        "stores": [16, 14],
        "to_move": 1,
        "end_reason": None,
    }


def test_rule_2_skip_origin_lap_option():
    """Option skip_origin='lap': each lap passes over only the pit it was lifted from. Laps 1
    and 2 are as with Pratt's rule; lap 3 (9 seeds from pit 3) now sows pit 0 with its 9th seed,
    so the turn ends in pit 0 and pit 11 (2) is captured."""
    game = position("ayoayo", ROUND_THE_BOARD, [14, 14], to_move=0, options={"skip_origin": "lap"})
    game.step(0)
    assert outcome(game) == {
        "pits": [1, 0, 3, 0, 2, 2, 2, 2, 2, 2, 2, 0],
        "stores": [16, 14],
        "to_move": 1,
        "end_reason": None,
    }


def test_rule_2_skip_origin_none_option():
    """Option skip_origin='none': no pit is passed over. The 12th seed falls back into pit 0,
    emptied by the lift, so the turn ends there at once and pit 11 (1) is captured."""
    game = position("ayoayo", ROUND_THE_BOARD, [14, 14], to_move=0, options={"skip_origin": "none"})
    game.step(0)
    assert outcome(game) == {
        "pits": [1, 1, 2, 8, 1, 1, 1, 1, 1, 1, 1, 0],
        "stores": [15, 14],
        "to_move": 1,
        "end_reason": None,
    }


# ---- rule 3: the relay --------------------------------------------------------------------


def test_rule_3_relay_until_the_last_seed_falls_into_an_empty_pit():
    """Rule 3 (002): a last seed in a pit that already held seeds lifts that pit and sows on;
    the turn ends when the last seed falls into an empty pit. Pit 4 (3) sows pits 5, 6 and 7;
    pit 7 held 2, so its 3 are sown into pits 8, 9, 10; pit 10 was empty: the turn ends. It is
    on the opponent's row, so nothing is captured though pit 1 opposite holds 2 (rule 4)."""
    game = position("ayoayo", [1, 2, 0, 0, 3, 1, 1, 2, 0, 1, 0, 1], [18, 18], to_move=0)
    assert boards_after_laps(game, 4, 1) == [[1, 2, 0, 0, 0, 2, 2, 3, 0, 1, 0, 1]]
    game.step(4)
    assert outcome(game) == {
        "pits": [1, 2, 0, 0, 0, 2, 2, 0, 1, 2, 1, 1],
        "stores": [18, 18],
        "to_move": 1,
        "end_reason": None,
    }


# ---- rule 4: capture ----------------------------------------------------------------------

# player_0's pit 1 (2 seeds) sows pits 2 and 3; pit 3 was empty and pit 8 opposite holds 5.
CAPTURE = [0, 2, 0, 0, 1, 0, 3, 0, 5, 0, 1, 0]


def test_rule_4_capture_of_the_opposite_pit_leaves_the_sowing_seed():
    """Rule 4 (002): a last seed in an empty pit of the mover's row captures the seeds of the
    pit opposite, 'but not the final seed sown on the player's own side'."""
    game = position("ayoayo", CAPTURE, [18, 18], to_move=0)
    game.step(1)
    assert outcome(game) == {
        "pits": [0, 0, 1, 1, 1, 0, 3, 0, 0, 0, 1, 0],
        "stores": [23, 18],
        "to_move": 1,
        "end_reason": None,
    }


def test_rule_4_capture_sowing_seed_option():
    """Option capture_sowing_seed=True (004, 'Ayoayo - Nigeria', 'Capturing seeds': the seeds
    opposite 'are captured along with the last seed that they had dropped')."""
    game = position("ayoayo", CAPTURE, [18, 18], to_move=0, options={"capture_sowing_seed": True})
    game.step(1)
    assert outcome(game) == {
        "pits": [0, 0, 1, 0, 1, 0, 3, 0, 0, 0, 1, 0],
        "stores": [24, 18],
        "to_move": 1,
        "end_reason": None,
    }


def test_rule_4_an_empty_opposite_pit_captures_nothing():
    """Rule 4 (002): 'If the opposite pit has no seeds, then the move is over and no seeds were
    captured.'"""
    game = position("ayoayo", [0, 2, 0, 0, 1, 0, 3, 0, 0, 0, 1, 0], [20, 21], to_move=0)
    game.step(1)
    assert outcome(game) == {
        "pits": [0, 0, 1, 1, 1, 0, 3, 0, 0, 0, 1, 0],
        "stores": [20, 21],
        "to_move": 1,
        "end_reason": None,
    }


def test_rule_4_a_last_seed_on_the_opponents_row_captures_nothing():
    """Rule 4 (002): 'if the final seed sown lands on the opponent's side, no seeds are
    captured.' player_1's pit 10 (2) sows pits 11 and 0; pit 0 was empty and pit 11 faces it,
    but pit 0 is player_0's."""
    game = position("ayoayo", [0, 3, 0, 0, 0, 0, 2, 0, 0, 0, 2, 1], [20, 20], to_move=1)
    game.step(4)
    assert outcome(game) == {
        "pits": [1, 3, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2],
        "stores": [20, 20],
        "to_move": 0,
        "end_reason": None,
    }


# player_1's pit 7 (2) sows pits 8 and 9; pit 9 was empty and pit 2 opposite holds 6.
CAPTURE_TO_25 = [0, 0, 6, 0, 0, 1, 0, 2, 0, 0, 0, 1]


def test_rule_4_player_1_captures_and_the_game_plays_on_past_25():
    """Rule 4 (002) for player_1: pit 9 was empty, the 6 seeds of pit 2 are captured. Pratt's
    rules end the game only when the seeds run out, so 25 captured seeds do not end it."""
    game = position("ayoayo", CAPTURE_TO_25, [19, 19], to_move=1)
    game.step(1)
    assert outcome(game) == {
        "pits": [0, 0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 1],
        "stores": [19, 25],
        "to_move": 0,
        "end_reason": None,
    }


# ---- rule 5: feeding ----------------------------------------------------------------------


def test_rule_5_when_no_move_can_feed_the_mover_takes_their_own_seeds():
    """Rule 5 (002): 'If that is not possible, then the player with stones remaining captures
    all of those stones for himself.' player_1 sows his last seed (pit 11) into pit 0. player_0
    (pits 0 and 4, one seed each) can only sow into pits 1 and 5: no move reaches player_1's
    row, so player_0 takes his 2 seeds and the game ends."""
    game = position("ayoayo", [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1], [23, 23], to_move=1)
    game.step(5)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [25, 23],
        "to_move": None,
        "end_reason": "cannot_feed",
    }
    assert game.winner() == 0


def test_rule_5_capturing_the_opponents_last_seeds_ends_the_game():
    """Rule 5 (002): 'The opponent can be left with no seeds to play by capturing all of his
    last seeds with the move ... the player with seeds remaining, captures all of his own seeds
    also.' player_0's pit 1 (2) ends in empty pit 3 and captures pit 8, player_1's only seeds;
    player_1 cannot move, so the game ends and player_0 takes the 4 seeds left on his row."""
    game = position("ayoayo", [0, 2, 0, 0, 1, 1, 0, 0, 3, 0, 0, 0], [20, 21], to_move=0)
    game.step(1)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [27, 21],
        "to_move": None,
        "end_reason": "no_move",
    }


# player_1 has no seeds; player_0's pit 5 would feed him, pit 0 (into pit 1) would not.
MUST_FEED = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]


def test_rule_5_a_move_that_feeds_is_played_normally():
    """Rule 5 (002): the player 'should make a move to pass seeds to his opponent'; pit 5 sows
    into pit 6 and play goes on."""
    game = position("ayoayo", MUST_FEED, [23, 23], to_move=0)
    assert game.legal_actions() == [0, 5]
    game.step(5)
    assert outcome(game) == {
        "pits": [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0],
        "stores": [23, 23],
        "to_move": 1,
        "end_reason": None,
    }


def test_rule_5_failing_to_feed_forfeits_the_movers_seeds():
    """Rule 5 (002), the penalty: 'If it was possible to pass him some, and a different move was
    made so that he still has none, then the opponent with no seeds captures all of the
    remaining seeds of the player who failed to pass him some.' The move is allowed (Pratt's
    reading); player_1 takes both seeds left on the board."""
    game = position("ayoayo", MUST_FEED, [23, 23], to_move=0)
    game.step(0)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [23, 25],
        "to_move": None,
        "end_reason": "feeding_penalty",
    }
    assert game.winner() == 1


def test_rule_5_feeding_forced_option():
    """Option feeding='forced' (004, 'Other Rules': the player 'must sow seeds from a cup that
    would provide the opponent with seeds'): a move that leaves the seedless opponent empty is
    not legal, so it is masked and Game.step rejects it."""
    game = position("ayoayo", MUST_FEED, [23, 23], to_move=0, options={"feeding": "forced"})
    assert game.legal_actions() == [5]
    assert game.legal_mask().tolist() == [0, 0, 0, 0, 0, 1]
    with pytest.raises(IllegalActionError):
        game.step(0)
    game.step(5)
    assert outcome(game)["pits"] == [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]


def test_rule_5_feeding_forced_option_when_no_move_can_feed():
    """Option feeding='forced': when no move can feed, the game ends and the player who still
    has seeds takes them (004, 'Other Rules'), as under Pratt's rule."""
    game = position(
        "ayoayo",
        [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1],
        [23, 23],
        to_move=1,
        options={"feeding": "forced"},
    )
    game.step(5)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [25, 23],
        "to_move": None,
        "end_reason": "cannot_feed",
    }


# ---- 004's ending -------------------------------------------------------------------------


def test_ending_option_25_captured_ends_the_game():
    """Option ending='two_left_or_majority' (004, 'End of game': 'when 1 player has captured 25
    seeds or more'): player_1 reaches 25 and the game ends; each player takes the seeds left on
    their own row (player_0 pit 5; player_1 pits 8, 9, 11)."""
    game = position(
        "ayoayo", CAPTURE_TO_25, [19, 19], to_move=1, options={"ending": "two_left_or_majority"}
    )
    game.step(1)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [20, 28],
        "to_move": None,
        "end_reason": "majority",
    }


# player_0's pit 0 ends in empty pit 1 and captures pit 10 (2): one seed is left on each side.
TWO_LEFT = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1]


def test_ending_option_two_seeds_left_ends_the_game():
    """Option ending='two_left_or_majority' (004, 'End of game': 'when there are only 2 seeds
    left, 1 on each side of the board'): each player takes the seed on their row."""
    game = position(
        "ayoayo", TWO_LEFT, [22, 22], to_move=0, options={"ending": "two_left_or_majority"}
    )
    game.step(0)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [25, 23],
        "to_move": None,
        "end_reason": "few_seeds",
    }


def test_default_ending_plays_on_with_two_seeds():
    """Pratt's rules (002) have no such ending: after the same move the game goes on."""
    game = position("ayoayo", TWO_LEFT, [22, 22], to_move=0)
    game.step(0)
    assert outcome(game) == {
        "pits": [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
        "stores": [24, 22],
        "to_move": 1,
        "end_reason": None,
    }


# ---- Pratt's variation: sowing into the stores --------------------------------------------


def test_variation_a_last_seed_in_the_store_ends_the_turn():
    """002, 'A Variation' (option sow_into_stores=True): the mover's store is part of the
    sowing; pit 4 (2) sows pit 5 and the store. A last seed in the store ends the turn, with no
    extra turn, and counts as captured: a seed left the board, so the stall count restarts."""
    game = position(
        "ayoayo",
        [1, 0, 0, 0, 2, 0, 1, 1, 0, 0, 0, 0],
        [21, 22],
        to_move=0,
        options={"sow_into_stores": True},
        stall_plies=7,
    )
    game.step(4)
    assert outcome(game) == {
        "pits": [1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0],
        "stores": [22, 22],
        "to_move": 1,
        "end_reason": None,
    }
    assert game.snapshot()["stall_plies"] == 0


def test_variation_seeds_pass_through_the_own_store_only():
    """002, 'A Variation': pit 3 (10 seeds) sows pits 4, 5, player_0's store, pits 6..11 and,
    passing over player_1's store, pit 0. Pit 0 was empty: pit 11 opposite (1) is captured."""
    game = position(
        "ayoayo",
        [0, 1, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0],
        [18, 19],
        to_move=0,
        options={"sow_into_stores": True},
    )
    game.step(3)
    assert outcome(game) == {
        "pits": [1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0],
        "stores": [20, 19],
        "to_move": 1,
        "end_reason": None,
    }


def test_variation_player_1_sows_into_their_own_store():
    """002, 'A Variation', for player_1: pit 10 (4) sows pit 11, player_1's store, pits 0 and 1;
    pit 1 was empty and is on player_0's row, so the turn ends with no capture."""
    game = position(
        "ayoayo",
        [0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 4, 1],
        [20, 21],
        to_move=1,
        options={"sow_into_stores": True},
    )
    game.step(4)
    assert outcome(game) == {
        "pits": [1, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 2],
        "stores": [20, 22],
        "to_move": 0,
        "end_reason": None,
    }
