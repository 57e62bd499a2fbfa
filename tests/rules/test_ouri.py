"""Ouri: each numbered rule of `mancala_env.variants.ouri` on an explicit position.

Source: 004_8ffe586423a61d8e.txt, section "OURI - Cape Verde": Oware's text (see
test_oware.py) with the rule on single seeds and grand slams that capture and move again.
Pits 0..5 are player_0's houses 1..6 and pits 6..11 player_1's; stores are [player_0, player_1].
"""

import numpy as np
import pytest
from positions import outcome, position

from mancala_env import Game, IllegalActionError
from mancala_env.variants import VARIANTS


def test_ouri_without_its_two_differences_plays_as_oware():
    """004, 'OURI - Cape Verde' repeats Oware's setup, sowing, capture and end text: with the
    singles rule off and grand_slam='no_capture' the parameters are Oware's, and so are the
    games, move by move."""
    ouri = VARIANTS["ouri"]
    oware = VARIANTS["oware"]
    assert np.array_equal(
        ouri.params(ouri.options(singles_rule=False, grand_slam="no_capture")),
        oware.params(oware.options()),
    )
    assert not np.array_equal(ouri.params(ouri.options()), oware.params(oware.options()))
    for seed in range(10):
        a = Game("ouri", singles_rule=False, grand_slam="no_capture", first_player="player_0")
        b = Game("oware", first_player="player_0")
        rng = np.random.default_rng(seed)
        while not b.over:
            assert a.legal_actions() == b.legal_actions()
            action = int(rng.choice(b.legal_actions()))
            a.step(action)
            b.step(action)
            assert outcome(a) == outcome(b)
        assert a.over


# ---- rule 1: single seeds stay put ---------------------------------------------------------


def test_single_seeds_cannot_be_lifted_while_a_house_holds_two_or_more():
    """Rule 1 (004, 'OURI', 'Other Rules', first point): player_0 may lift only houses 2 and 5
    (3 and 2 seeds), not the single seeds of houses 1, 3 and 6."""
    game = position("ouri", [1, 3, 1, 0, 2, 1, 2, 1, 0, 3, 1, 2], [15, 16], to_move=0)
    assert game.legal_actions() == [1, 4]
    with pytest.raises(IllegalActionError, match=r"legal actions: \[1, 4\]"):
        game.step(0)
    game.step(4)  # pits 5, 6: pit 6 made 3 is captured
    assert outcome(game) == {
        "pits": [1, 3, 1, 0, 0, 2, 0, 1, 0, 3, 1, 2],
        "stores": [18, 16],
        "to_move": 1,
        "end_reason": None,
    }
    assert game.legal_actions() == [3, 5]  # player_1's houses 4 and 6; not the singles


def test_single_seeds_may_be_lifted_when_every_house_holds_one():
    """Rule 1 (004, 'OURI': 'unless a player only has single seeds in the holes on her side'):
    every seeded house of player_0 holds one seed, so each of them may be lifted."""
    game = position("ouri", [1, 0, 1, 1, 0, 1, 2, 3, 0, 1, 2, 0], [18, 18], to_move=0)
    assert game.legal_actions() == [0, 2, 3, 5]
    game.step(5)  # pit 5 -> pit 6, made 3: captured
    assert outcome(game) == {
        "pits": [1, 0, 1, 1, 0, 0, 0, 3, 0, 1, 2, 0],
        "stores": [21, 18],
        "to_move": 1,
        "end_reason": None,
    }
    assert game.legal_actions() == [1, 4]


def test_singles_rule_option_off_allows_single_seeds():
    """Rule 1, other reading (singles_rule=False): every seeded house may be lifted, as in
    Oware."""
    game = position(
        "ouri",
        [1, 3, 1, 0, 2, 1, 2, 1, 0, 3, 1, 2],
        [15, 16],
        to_move=0,
        options={"singles_rule": False},
    )
    assert game.legal_actions() == [0, 1, 2, 4, 5]
    game.step(0)
    assert outcome(game) == {
        "pits": [0, 4, 1, 0, 2, 1, 2, 1, 0, 3, 1, 2],
        "stores": [15, 16],
        "to_move": 1,
        "end_reason": None,
    }


# ---- rule 2: the grand slam ----------------------------------------------------------------


def test_grand_slam_captures_the_row_and_the_mover_moves_again_and_must_feed():
    """Rule 2 (004, 'OURI', 'Other Rules', last point): sowing pits 5, 6, 7 makes player_1's
    whole row a 2 and a 3; player_0 takes both (5 seeds), moves again, and may only play a move
    that gives player_1 seeds: house 6 (pits 6, 7), not houses 1 or 3."""
    game = position("ouri", [3, 0, 2, 0, 3, 1, 1, 2, 0, 0, 0, 0], [18, 18], to_move=0)
    game.step(4)
    assert outcome(game) == {
        "pits": [3, 0, 2, 0, 0, 2, 0, 0, 0, 0, 0, 0],
        "stores": [23, 18],
        "to_move": 0,
        "end_reason": None,
    }
    assert game.legal_actions() == [5]
    game.step(5)
    assert outcome(game) == {
        "pits": [3, 0, 2, 0, 0, 0, 1, 1, 0, 0, 0, 0],
        "stores": [23, 18],
        "to_move": 1,
        "end_reason": None,
    }
    assert game.legal_actions() == [0, 1]  # only single seeds: both may be lifted


def test_grand_slam_then_no_move_can_feed_ends_the_game():
    """Rule 2 (004, 'OURI': after a grand slam the player 'must make a play so that their
    opponent can make a move'; if no move can, 'the game ends, with the remaining seeds going
    to the player who still has seeds'): player_0 takes 5, then neither single seed of
    player_0 can reach player_1's row, so player_0 keeps the 2."""
    game = position("ouri", [1, 1, 0, 0, 0, 2, 1, 2, 0, 0, 0, 0], [19, 22], to_move=0)
    assert game.legal_actions() == [5]
    game.step(5)  # pits 6, 7 made 2 and 3: the whole row
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [26, 22],
        "to_move": None,
        "end_reason": "cannot_feed",
    }


@pytest.mark.parametrize(
    ("slam", "expected"),
    [
        (
            "capture",
            {"pits": [0] * 12, "stores": [30, 18], "to_move": None, "end_reason": "no_move"},
        ),
        (
            "no_capture",
            {
                "pits": [3, 0, 2, 0, 0, 2, 2, 3, 0, 0, 0, 0],
                "stores": [18, 18],
                "to_move": 1,
                "end_reason": None,
            },
        ),
    ],
)
def test_grand_slam_options(slam, expected):
    """Rule 2, other readings: grand_slam='capture' takes the row and passes the turn to
    player_1, who has no seeds, so the game ends and player_0 keeps their 7; 'no_capture'
    (Oware's rule) plays the move and captures nothing."""
    game = position(
        "ouri",
        [3, 0, 2, 0, 3, 1, 1, 2, 0, 0, 0, 0],
        [18, 18],
        to_move=0,
        options={"grand_slam": slam},
    )
    game.step(4)
    assert outcome(game) == expected


# ---- the reading: feeding outranks the singles rule ----------------------------------------


def test_feeding_outranks_the_singles_rule():
    """Reading chosen (004, 'OURI', 'Other Rules', first and third points): player_1 has no
    seeds and house 1 (2 seeds) cannot reach them, so the single seed of house 6, which can,
    may be lifted; the house of two may not, as it does not feed."""
    game = position("ouri", [2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0], [22, 23], to_move=0)
    assert game.legal_actions() == [5]
    game.step(5)
    assert outcome(game) == {
        "pits": [2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0],
        "stores": [22, 23],
        "to_move": 1,
        "end_reason": None,
    }


def test_singles_rule_holds_when_a_house_of_two_can_feed():
    """Reading chosen, its limit: when a house of two or more can feed the seedless opponent,
    the single seed that could also feed stays put."""
    game = position("ouri", [0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0], [22, 23], to_move=0)
    assert game.legal_actions() == [4]
    game.step(4)  # pits 5, 6
    assert outcome(game) == {
        "pits": [0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0],
        "stores": [22, 23],
        "to_move": 1,
        "end_reason": None,
    }


def test_every_game_ends_within_49_times_stall_limit_plies():
    """Oware's bound holds with Ouri's differences (a grand slam's extra turn is a ply like any
    other): random games with stall_limit = 3 all end within 147 plies."""
    rng = np.random.default_rng(5)
    for _ in range(200):
        game = Game("ouri", stall_limit=3)
        game.reset(rng)
        while not game.over:
            assert game.move_number < 49 * 3
            game.step(int(rng.choice(game.legal_actions())))
        assert sum(game.stores) == 48
