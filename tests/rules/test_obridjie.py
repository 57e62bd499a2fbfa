"""Obridjie: each numbered rule of `mancala_env.variants.obridjie` on an explicit position.

Source: 004_8ffe586423a61d8e.txt, section "Obridjie - Nigeria" ('Setup', 'Sowing seeds', the
worked example under it, 'Capturing seeds', 'End of game'). Pits 0..5 are player_0's houses
1..6 and pits 6..11 player_1's, in the sowing direction; stores are [player_0, player_1]. The
source's Player #1 is the player who moves first, here player_0.
"""

import numpy as np
import pytest
from positions import boards_after_laps, outcome, position

from mancala_env import Game

# ---- rule 1: the start and the sowing -----------------------------------------------------


def test_rule_1_four_seeds_in_each_house():
    """Rule 1 (004, 'Setup'): four seeds in each house; every house of the mover may be lifted.
    The houses holding four at the start are not fours made by a seed: nothing is captured."""
    game = Game("obridjie", first_player="player_0")
    assert outcome(game) == {"pits": [4] * 12, "stores": [0, 0], "to_move": 0, "end_reason": None}
    assert game.legal_actions() == [0, 1, 2, 3, 4, 5]


def test_first_player_is_guessed_by_default_and_fixed_by_the_option():
    """004, 'Starting': a seed guessed in a closed fist decides who begins, so the first player
    is drawn from the reset seed (reproducibly); first_player fixes it."""
    drawn = []
    for seed in range(16):
        game = Game("obridjie")
        game.reset(np.random.default_rng(seed))
        again = Game("obridjie")
        again.reset(np.random.default_rng(seed))
        assert again.to_move == game.to_move
        drawn.append(game.to_move)
    assert set(drawn) == {0, 1}
    assert Game("obridjie", first_player="player_0").to_move == 0
    assert Game("obridjie", first_player="player_1").to_move == 1


def test_worked_example_from_the_third_house():
    """Rules 1 and 2, the source's worked example (004, under 'Sowing seeds'): Player #1 lifts
    the 4 beans of her third cup, drops one in each of the 3 cups to its right (houses 4, 5, 6)
    and the last in her opponent's first cup, so 'there are now 5 beans in each of those cups';
    she then scoops up the 5 of that upper right cup and sows them on. The relay goes on from
    pit 11 (now 5), pit 4 (now 6) and pit 10 (now 6), whose last seed falls into pit 4, emptied
    in the fourth lap: the turn ends. No seed went into a store and no house was made four."""
    game = Game("obridjie", first_player="player_0")
    assert boards_after_laps(game, 2, 4) == [
        [4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4],
        [4, 4, 0, 5, 5, 5, 0, 5, 5, 5, 5, 5],
        [5, 5, 1, 6, 6, 5, 0, 5, 5, 5, 5, 0],
        [5, 5, 1, 6, 0, 6, 1, 6, 6, 6, 6, 0],
    ]
    game.step(2)
    assert outcome(game) == {
        "pits": [6, 6, 2, 7, 1, 6, 1, 6, 6, 6, 0, 1],
        "stores": [0, 0],
        "to_move": 1,
        "end_reason": None,
    }


# Pit 0 holds 12 seeds, enough to go round the board; pit 3 holds 7.
ROUND_THE_BOARD = [12, 0, 1, 7, 0, 0, 0, 0, 0, 0, 0, 0]


def test_rule_1_a_lifted_house_is_not_passed_over():
    """Rule 1 (004, 'Sowing seeds': one seed 'in each successive cup'; Obridjie names no house
    to pass over): the 12th seed of pit 0 falls back into pit 0, empty since the lift, and the
    turn ends there."""
    game = position("obridjie", ROUND_THE_BOARD, [14, 14], to_move=0)
    game.step(0)
    assert outcome(game) == {
        "pits": [1, 1, 2, 8, 1, 1, 1, 1, 1, 1, 1, 1],
        "stores": [14, 14],
        "to_move": 1,
        "end_reason": None,
    }


def test_skip_origin_move_option():
    """Option skip_origin='move': the house played is passed over on every lap. The 12th seed
    makes pit 1 two; those go to pits 2 and 3 (now 9); the 9 go to pits 4..11 and, past pit 0,
    to pit 1, empty since it was lifted: the turn ends."""
    game = position(
        "obridjie", ROUND_THE_BOARD, [14, 14], to_move=0, options={"skip_origin": "move"}
    )
    game.step(0)
    assert outcome(game) == {
        "pits": [0, 1, 3, 0, 2, 2, 2, 2, 2, 2, 2, 2],
        "stores": [14, 14],
        "to_move": 1,
        "end_reason": None,
    }


def test_skip_origin_lap_option():
    """Option skip_origin='lap': each lap passes over only its own lifted house, so the third
    lap (9 seeds from pit 3) ends in pit 0."""
    game = position(
        "obridjie", ROUND_THE_BOARD, [14, 14], to_move=0, options={"skip_origin": "lap"}
    )
    game.step(0)
    assert outcome(game) == {
        "pits": [1, 0, 3, 0, 2, 2, 2, 2, 2, 2, 2, 2],
        "stores": [14, 14],
        "to_move": 1,
        "end_reason": None,
    }


# ---- rule 3: a four made on the way -------------------------------------------------------


def test_rule_3_a_four_made_on_the_way_goes_to_the_rows_owner_at_once():
    """Rule 3 (004, 'Capturing seeds': 'It is not just the player who distributes the seeds who
    captures them, but the player whose side the cup with 4 seeds in it belongs to'). player_0's
    pit 3 (4) sows pits 4, 5, 6, 7: pit 5 (3) becomes four and goes to player_0, pit 6 (3)
    becomes four and goes to player_1, both at once; the last seed falls into empty pit 7."""
    game = position("obridjie", [0, 0, 0, 4, 1, 3, 3, 0, 1, 0, 2, 0], [17, 17], to_move=0)
    game.step(3)
    assert outcome(game) == {
        "pits": [0, 0, 0, 0, 2, 0, 0, 1, 1, 0, 2, 0],
        "stores": [21, 21],
        "to_move": 1,
        "end_reason": None,
    }


def test_rule_3_a_four_made_by_the_opponents_sowing_goes_to_the_owner():
    """Rule 3 (004, 'player #2 should pick these beans up right away'): player_1's pit 11 (2)
    makes player_0's pit 0 four on the way; player_0 takes it, and the last seed falls into
    empty pit 1."""
    game = position("obridjie", [3, 0, 1, 0, 0, 0, 0, 0, 2, 0, 0, 2], [20, 20], to_move=1)
    game.step(5)
    assert outcome(game) == {
        "pits": [0, 1, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0],
        "stores": [24, 20],
        "to_move": 0,
        "end_reason": None,
    }


# ---- rule 4: the last seed makes four -----------------------------------------------------


def test_rule_4_a_last_seed_making_four_on_the_opponents_row_is_the_sowers():
    """Rule 4 (004, 'Capturing seeds': 'The only time that a player who is dropping the seeds
    can capture seeds from their opponent's side is if the last seed ... creates a cup with 4
    seeds'; 'Sowing seeds': the turn then ends). player_0's pit 4 (3) ends in pit 7 (3)."""
    game = position("obridjie", [1, 0, 0, 0, 3, 0, 0, 3, 2, 0, 0, 1], [19, 19], to_move=0)
    game.step(4)
    assert outcome(game) == {
        "pits": [1, 0, 0, 0, 0, 1, 1, 0, 2, 0, 0, 1],
        "stores": [23, 19],
        "to_move": 1,
        "end_reason": None,
    }


def test_rule_4_a_last_seed_making_four_on_the_own_row_is_the_sowers():
    """Rule 4 (004: 'The dropping player captures those seeds no matter whose side it is on'):
    player_0's pit 0 (2) ends in his pit 2 (3); he takes the four and the turn ends, although
    the house was not empty."""
    game = position("obridjie", [2, 0, 3, 0, 0, 0, 0, 1, 0, 0, 2, 0], [20, 20], to_move=0)
    game.step(0)
    assert outcome(game) == {
        "pits": [0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 2, 0],
        "stores": [24, 20],
        "to_move": 1,
        "end_reason": None,
    }


def test_rule_4_a_four_made_by_the_last_seed_of_a_relay_lap_ends_the_turn():
    """Rules 2 and 4 (004, 'Sowing seeds': sowing goes on 'until the last seed lands in an empty
    cup or ... with the last seed making 4'): pit 4 (2) ends in pit 6 (2, now 3), which is
    lifted; its last seed makes pit 9 four: player_0 takes it and the turn ends."""
    game = position("obridjie", [1, 0, 0, 0, 2, 0, 2, 0, 0, 3, 1, 0], [19, 20], to_move=0)
    assert boards_after_laps(game, 4, 1) == [[1, 0, 0, 0, 0, 1, 3, 0, 0, 3, 1, 0]]
    game.step(4)
    assert outcome(game) == {
        "pits": [1, 0, 0, 0, 0, 1, 0, 1, 1, 0, 1, 0],
        "stores": [23, 20],
        "to_move": 1,
        "end_reason": None,
    }


# ---- rule 5: the end ----------------------------------------------------------------------

# player_1's pit 11 (1) makes pit 0 four: he takes it and 3 seeds are left, all on player_0's row.
FEWER_THAN_FOUR = [3, 1, 0, 0, 2, 0, 0, 0, 0, 0, 0, 1]


def test_rule_5_the_game_ends_with_fewer_than_four_seeds():
    """Rule 5 (004, 'End of game': the game ends 'if there are less than 4 seeds left'; 'won by
    the player who captured the most seeds'). The 3 seeds left go to the owner of their row."""
    game = position("obridjie", FEWER_THAN_FOUR, [20, 21], to_move=1)
    game.step(5)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [23, 25],
        "to_move": None,
        "end_reason": "few_seeds",
    }
    assert game.winner() == 1


def test_remainder_split_option():
    """Option remainder='split': the seeds left are split evenly, the player with more seeds on
    their row keeping the odd one (player_0: 2 of the 3)."""
    game = position(
        "obridjie", FEWER_THAN_FOUR, [20, 21], to_move=1, options={"remainder": "split"}
    )
    game.step(5)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [22, 26],
        "to_move": None,
        "end_reason": "few_seeds",
    }


# player_0's pit 5 (1) makes pit 6, player_1's only seeds, four.
STUCK = [0, 0, 2, 3, 0, 1, 3, 0, 0, 0, 0, 0]


def test_a_player_with_no_seeds_is_passed_over():
    """Reading (the source is silent): a player with no seeds in their houses is passed over and
    the opponent moves again. player_0 takes player_1's last seeds with a four."""
    game = position("obridjie", STUCK, [19, 20], to_move=0)
    game.step(5)
    assert outcome(game) == {
        "pits": [0, 0, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0],
        "stores": [23, 20],
        "to_move": 0,
        "end_reason": None,
    }
    assert game.legal_actions() == [2, 3]


def test_stuck_end_option():
    """Option stuck='end': the game ends instead; each player takes the seeds on their row."""
    game = position("obridjie", STUCK, [19, 20], to_move=0, options={"stuck": "end"})
    game.step(5)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [28, 20],
        "to_move": None,
        "end_reason": "no_move",
    }


@pytest.mark.parametrize("remainder", ["owner", "split"])
def test_every_seed_is_handed_out_at_the_end(remainder):
    """Rule 5 (004): random games of Obridjie end with all 48 seeds in the stores and the
    winner the player who holds more."""
    rng = np.random.default_rng(7)
    for _ in range(10):
        game = Game("obridjie", remainder=remainder)
        game.reset(rng)
        while not game.over:
            game.step(int(rng.choice(game.legal_actions())))
        stores = game.stores.tolist()
        assert sum(stores) == 48 and game.pits.tolist() == [0] * 12
        expected = None if stores[0] == stores[1] else int(stores[1] > stores[0])
        assert game.winner() == expected
