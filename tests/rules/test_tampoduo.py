"""Tampoduo: its defaults and options on explicit positions.

Source: 004_8ffe586423a61d8e.txt, section "Tampoduo - Ghana" ('Starting', 'Setup', 'Sowing
seeds', 'Capturing seeds', 'End of game', 'Other Rules'). Tampoduo is the rule set of
`mancala_env.variants.ayoayo` with 004's readings as defaults: no pit passed over, the sowing
seed captured, forced feeding, and the end at two seeds left or 25 captured. Pits 0..5 are
player_0's houses 1..6 and pits 6..11 player_1's, in the sowing direction; pit k faces pit
11 - k; stores are [player_0, player_1].
"""

import numpy as np
import pytest
from positions import boards_after_laps, outcome, position

from mancala_env import Game, IllegalActionError
from mancala_env.variants import VARIANTS


def test_tampoduo_with_pratts_readings_is_ayoayo():
    """Tampoduo's text is 004's Ayoayo text without the rule on passing over the emptied cup:
    with the four options set to Pratt's readings, its rule parameters are Ayoayo's."""
    pratt = {
        "skip_origin": "move",
        "capture_sowing_seed": False,
        "feeding": "penalty",
        "ending": "no_seeds",
    }
    tampoduo = VARIANTS["tampoduo"]
    ayoayo = VARIANTS["ayoayo"]
    assert np.array_equal(
        tampoduo.params(tampoduo.options(**pratt)), ayoayo.params(ayoayo.options())
    )
    assert not np.array_equal(tampoduo.params(tampoduo.options()), ayoayo.params(ayoayo.options()))


# ---- the start ----------------------------------------------------------------------------


def test_start_four_seeds_in_each_house():
    """004, 'Setup': four seeds in each house, each row of six owned by the nearest player."""
    game = Game("tampoduo", first_player="player_0")
    assert outcome(game) == {"pits": [4] * 12, "stores": [0, 0], "to_move": 0, "end_reason": None}
    assert game.snapshot()["owners"] == [0] * 6 + [1] * 6
    assert game.legal_actions() == [0, 1, 2, 3, 4, 5]


def test_first_player_is_guessed_by_default_and_fixed_by_the_option():
    """004, 'Starting': a seed guessed in a closed fist decides who begins, so the first player
    is drawn from the reset seed (reproducibly); first_player fixes it."""
    drawn = []
    for seed in range(16):
        game = Game("tampoduo")
        game.reset(np.random.default_rng(seed))
        again = Game("tampoduo")
        again.reset(np.random.default_rng(seed))
        assert again.to_move == game.to_move
        drawn.append(game.to_move)
    assert set(drawn) == {0, 1}
    assert Game("tampoduo", first_player="player_0").to_move == 0
    assert Game("tampoduo", first_player="player_1").to_move == 1


# ---- sowing: no pit passed over, relay ----------------------------------------------------


def test_sowing_passes_over_no_pit_and_relays():
    """004, 'Sowing seeds': one seed into each successive cup, the stores left out; a last seed
    in a cup with seeds lifts it and sows on 'until the last seed lands in an empty cup'.
    Tampoduo has no rule on the emptied cup, so none is passed over. Pit 0 (13) sows pits
    1..11, pit 0 itself (the 12th seed) and pit 1, now 12. Those 12 go to pits 2..11, pit 0
    (now 2) and pit 1, empty since it was lifted: the turn ends on the mover's row and pit 10
    opposite (2) is captured with the sowing seed. The pit played keeps two seeds."""
    game = position("tampoduo", [13, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [12, 13], to_move=0)
    assert boards_after_laps(game, 0, 2) == [
        [1, 12, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
        [2, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2],
    ]
    game.step(0)
    assert outcome(game) == {
        "pits": [2, 0, 2, 2, 2, 2, 2, 2, 2, 2, 0, 2],
        "stores": [15, 13],
        "to_move": 1,
        "end_reason": None,
    }


# Pit 0 holds 12 seeds, enough to go round the board; pit 3 holds 7.
ROUND_THE_BOARD = [12, 0, 1, 7, 0, 0, 0, 0, 0, 0, 0, 0]


def test_skip_origin_move_option():
    """Option skip_origin='move' (004's Ayoayo rule, Pratt's rule 2): the pit played is passed
    over on every lap. The 12th seed makes pit 1 two; those go to pits 2 and 3 (now 9); the 9
    go to pits 4..11 and, past pit 0, to pit 1, empty: pit 10 (2) and the sowing seed are
    captured."""
    game = position(
        "tampoduo", ROUND_THE_BOARD, [14, 14], to_move=0, options={"skip_origin": "move"}
    )
    game.step(0)
    assert outcome(game) == {
        "pits": [0, 0, 3, 0, 2, 2, 2, 2, 2, 2, 0, 2],
        "stores": [17, 14],
        "to_move": 1,
        "end_reason": None,
    }


def test_skip_origin_lap_option():
    """Option skip_origin='lap': each lap passes over only its own lifted pit, so the third lap
    (9 seeds from pit 3) ends in pit 0; pit 11 (2) and the sowing seed are captured."""
    game = position(
        "tampoduo", ROUND_THE_BOARD, [14, 14], to_move=0, options={"skip_origin": "lap"}
    )
    game.step(0)
    assert outcome(game) == {
        "pits": [0, 0, 3, 0, 2, 2, 2, 2, 2, 2, 2, 0],
        "stores": [17, 14],
        "to_move": 1,
        "end_reason": None,
    }


def test_relay_ends_in_an_empty_cup_on_the_opponents_row_without_capture():
    """004, 'Sowing seeds' and 'Capturing seeds': pit 4 (3) ends in pit 7, which held 2; its 3
    seeds end in pit 10, empty, on the opponent's row: 'no seeds are captured'."""
    game = position("tampoduo", [1, 2, 0, 0, 3, 1, 1, 2, 0, 1, 0, 1], [18, 18], to_move=0)
    game.step(4)
    assert outcome(game) == {
        "pits": [1, 2, 0, 0, 0, 2, 2, 0, 1, 2, 1, 1],
        "stores": [18, 18],
        "to_move": 1,
        "end_reason": None,
    }


# ---- capture ------------------------------------------------------------------------------

# player_0's pit 1 (2) sows pits 2 and 3; pit 3 was empty and pit 8 opposite holds 5.
CAPTURE = [0, 2, 0, 0, 1, 0, 3, 0, 5, 0, 1, 0]


def test_capture_takes_the_opposite_cup_and_the_sowing_seed():
    """004, 'Capturing seeds': the seeds opposite 'are captured along with the last seed that
    they had dropped into the empty cup' (the source's example: the 5 beans and the last one)."""
    game = position("tampoduo", CAPTURE, [18, 18], to_move=0)
    game.step(1)
    assert outcome(game) == {
        "pits": [0, 0, 1, 0, 1, 0, 3, 0, 0, 0, 1, 0],
        "stores": [24, 18],
        "to_move": 1,
        "end_reason": None,
    }


def test_capture_sowing_seed_false_option():
    """Option capture_sowing_seed=False (Pratt's rule 4): the sowing seed stays in its pit."""
    game = position(
        "tampoduo", CAPTURE, [18, 18], to_move=0, options={"capture_sowing_seed": False}
    )
    game.step(1)
    assert outcome(game) == {
        "pits": [0, 0, 1, 1, 1, 0, 3, 0, 0, 0, 1, 0],
        "stores": [23, 18],
        "to_move": 1,
        "end_reason": None,
    }


def test_an_empty_opposite_cup_captures_nothing():
    """004, 'Capturing seeds': 'If there are no seeds in the opposite house nothing is
    captured'; the sowing seed stays."""
    game = position("tampoduo", [0, 2, 0, 0, 1, 0, 3, 0, 0, 0, 1, 0], [20, 21], to_move=0)
    game.step(1)
    assert outcome(game) == {
        "pits": [0, 0, 1, 1, 1, 0, 3, 0, 0, 0, 1, 0],
        "stores": [20, 21],
        "to_move": 1,
        "end_reason": None,
    }


# ---- feeding ------------------------------------------------------------------------------

# player_1 has no seeds; player_0's pit 5 would feed him, pit 0 (into pits 1, 2) would not.
MUST_FEED = [2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]


def test_a_move_that_does_not_feed_a_seedless_opponent_is_not_legal():
    """004, 'Other Rules': the player 'must sow seeds from a cup that would provide the opponent
    with seeds': only pit 5 is legal, Game.step rejects pit 0, and pit 5 feeds."""
    game = position("tampoduo", MUST_FEED, [22, 23], to_move=0)
    assert game.legal_actions() == [5]
    with pytest.raises(IllegalActionError):
        game.step(0)
    game.step(5)
    assert outcome(game) == {
        "pits": [2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0],
        "stores": [22, 23],
        "to_move": 1,
        "end_reason": None,
    }


def test_when_no_move_can_feed_the_mover_takes_their_seeds():
    """004, 'Other Rules': 'If this isn't possible then the game ends, with the remaining seeds
    going to the player who has still has seeds on their side.' player_1 sows his last seed
    into pit 0; player_0's single seeds (pits 0, 2, 4) cannot reach player_1's row."""
    game = position("tampoduo", [0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1], [22, 23], to_move=1)
    game.step(5)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [25, 23],
        "to_move": None,
        "end_reason": "cannot_feed",
    }


def test_feeding_penalty_option():
    """Option feeding='penalty' (Pratt's rule 5): the move that does not feed is allowed, but
    the seedless opponent then takes all the seeds left on the board."""
    game = position("tampoduo", MUST_FEED, [22, 23], to_move=0, options={"feeding": "penalty"})
    assert game.legal_actions() == [0, 5]
    game.step(0)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [22, 26],
        "to_move": None,
        "end_reason": "feeding_penalty",
    }


# ---- the end ------------------------------------------------------------------------------

# player_0's pit 0 ends in empty pit 1 and captures pit 10 (2): one seed is left on each side.
TWO_LEFT = [1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 2, 1]


def test_game_ends_with_two_seeds_left():
    """004, 'End of game': 'The game ends when there are only 2 seeds left, 1 on each side of the
    board'; each player takes the seed on their row."""
    game = position("tampoduo", TWO_LEFT, [21, 22], to_move=0)
    game.step(0)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [25, 23],
        "to_move": None,
        "end_reason": "few_seeds",
    }


def test_game_ends_when_a_player_has_captured_25():
    """004, 'End of game': '... or when 1 player has captured 25 seeds or more'. player_1's pit
    7 (2) ends in empty pit 9 and takes pit 2 (6) and the sowing seed: 26. Each player takes
    the seeds left on their row."""
    game = position("tampoduo", [0, 0, 6, 0, 0, 1, 0, 2, 0, 0, 0, 1], [19, 19], to_move=1)
    game.step(1)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [20, 28],
        "to_move": None,
        "end_reason": "majority",
    }
    assert game.winner() == 1


def test_ending_no_seeds_option():
    """Option ending='no_seeds' (Pratt's rules): two seeds left do not end the game."""
    game = position("tampoduo", TWO_LEFT, [21, 22], to_move=0, options={"ending": "no_seeds"})
    game.step(0)
    assert outcome(game) == {
        "pits": [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1],
        "stores": [24, 22],
        "to_move": 1,
        "end_reason": None,
    }


def test_sow_into_stores_option():
    """Option sow_into_stores=True (Pratt's variation, 002 'A Variation'): pit 4 (2) sows pit 5
    and player_0's store; the last seed in the store ends the turn and counts as captured."""
    game = position(
        "tampoduo",
        [1, 0, 0, 0, 2, 0, 1, 1, 0, 0, 0, 0],
        [21, 22],
        to_move=0,
        options={"sow_into_stores": True},
    )
    game.step(4)
    assert outcome(game) == {
        "pits": [1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0],
        "stores": [22, 22],
        "to_move": 1,
        "end_reason": None,
    }


def test_two_seeds_on_one_side_end_the_game_by_default():
    """The default reads 'only 2 seeds left' as two seeds anywhere ('too few seeds for any
    meaningful game to continue'): two seeds in player_0's house 6 end the game at once."""
    game = position("tampoduo", [0, 0, 0, 0, 0, 2] + [0] * 6, [23, 23], to_move=0)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [25, 23],
        "to_move": None,
        "end_reason": "few_seeds",
    }


def test_ending_one_each_side_option():
    """Option ending='one_each_side_or_majority', 004's words read literally: two seeds end the
    game only when they lie one on each side; two on one side play on."""
    options = {"ending": "one_each_side_or_majority"}
    game = position("tampoduo", [0, 0, 0, 0, 0, 2] + [0] * 6, [23, 23], to_move=0, options=options)
    assert not game.over and game.legal_actions() == [5]
    game = position("tampoduo", [0, 0, 0, 0, 0, 1] + [0] * 5 + [1], [23, 23], options=options)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [24, 24],
        "to_move": None,
        "end_reason": "few_seeds",
    }


CAPTURES_THE_LAST = [0, 0, 0, 1, 0, 3, 0, 2, 0, 0, 0, 0]


def test_a_player_whose_last_seeds_are_captured_ends_the_game():
    """The default: player_0's pit 3 ends in empty pit 4 and takes pit 7, player_1's last seeds;
    player_1 cannot move, so the game ends (no_move) and player_0 keeps the seeds on his row."""
    game = position("tampoduo", CAPTURES_THE_LAST, [21, 21], to_move=0)
    game.step(3)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [27, 21],
        "to_move": None,
        "end_reason": "no_move",
    }


def test_stranded_feed_option_the_capturer_must_feed():
    """Option stranded='feed', 004's 'Other Rules' read literally ('if at any point in the game a
    player does not have any seeds ... the other player must sow seeds from a cup that would
    provide the opponent with seeds'): after the same capture player_1 is passed over and
    player_0 must feed him; his pit 5 (3) can, so play goes on."""
    options = {"stranded": "feed"}
    game = position("tampoduo", CAPTURES_THE_LAST, [21, 21], to_move=0, options=options)
    game.step(3)
    assert outcome(game) == {
        "pits": [0, 0, 0, 0, 0, 3] + [0] * 6,
        "stores": [24, 21],
        "to_move": 0,
        "end_reason": None,
    }
    assert game.legal_actions() == [5]
