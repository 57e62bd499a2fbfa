"""J'erin (001_9cf8f14e7fe6ff20.txt, Newberry, section "J'erin"): one test per rule."""

import numpy as np
import pytest
from positions import outcome, position

from mancala_env import Game, IllegalActionError

LIFTS = 12  # houses change hands between rounds, so a lift may name any of the twelve pits
OPEN = LIFTS  # action OPEN + h lifts the mover's houses h + 1 and h + 2 together


def test_rule_1_four_seeds_in_each_house():
    """'The seeds are laid out as for ayoyayo': four in each of the twelve houses."""
    game = Game("jerin")
    assert game.pits.tolist() == [4] * 12 and game.stores.tolist() == [0, 0]
    assert game.n_actions == 2 * LIFTS - 1


def test_rule_2_the_opening_lifts_two_adjoining_houses():
    """The first move takes two adjoining houses, one hand after the other, and sows on."""
    game = Game("jerin", first_player="player_0")
    assert game.legal_actions() == [OPEN + h for h in range(5)]  # pairs (1,2) ... (5,6)
    pits = [1, 2, 0, 0, 0, 0] + [0, 0, 0, 0, 3, 6]
    game = position("jerin", pits, [16, 20], to_move=0)
    game.step(OPEN + 0)  # houses 1 and 2: three seeds into pits 2, 3, 4; pit 4 was empty
    assert outcome(game)["pits"] == [0, 0, 1, 1, 1, 0] + [0, 0, 0, 0, 3, 6]
    assert game.to_move == 1
    # player_1's first move is an opening too: houses 5 and 6, the only pair both holding seeds
    assert game.legal_actions() == [OPEN + 4]


def test_rule_2_the_opening_pair_must_both_hold_seeds():
    """'Taking the contents of two adjoining houses, four in each hand': both houses of an
    opening hold seeds. Facing [6, 6, 6, 0, 1, 6], player_1 may open with houses 1-2, 2-3 and
    5-6, not with the pairs that include the empty house 4."""
    pits = [4, 4, 4, 4, 4, 3] + [6, 6, 6, 0, 1, 6]
    game = position("jerin", pits, [0, 0], to_move=1)
    assert game.legal_actions() == [OPEN + 0, OPEN + 1, OPEN + 4]
    with pytest.raises(IllegalActionError):
        game.step(OPEN + 2)  # houses 3 and 4: house 4 is empty


def test_rule_2_without_a_pair_holding_seeds_a_single_house_opens():
    """A player with no two adjoining houses both holding seeds opens with an ordinary lift."""
    pits = [4, 0, 4, 0, 4, 0] + [6, 6, 6, 6, 6, 6]
    game = position("jerin", pits, [0, 0], to_move=0)
    assert game.legal_actions() == [0, 2, 4]


def test_rule_2_opening_only_for_the_first_move_of_the_round_option():
    """With opening='first_move' only the round's first move lifts two houses."""
    pits = [1, 2, 0, 0, 0, 0] + [0, 0, 0, 0, 3, 6]
    game = position("jerin", pits, [16, 20], to_move=0, options={"opening": "first_move"})
    game.step(OPEN + 0)
    assert game.legal_actions() == [10 - 6, 11 - 6]  # player_1 lifts a single house


def test_rule_3_relay_until_the_last_seed_falls_into_an_empty_house():
    """The house of the last seed is lifted and sown on while it was not empty."""
    pits = [0, 0, 2, 0, 0, 0] + [1, 0, 0, 0, 0, 9]
    game = position("jerin", pits, [16, 20], to_move=0, turns=[1, 1])
    # Pit 2: pits 3, 4 (empty): the turn ends at once.
    game.step(2)
    assert game.pits.tolist() == [0, 0, 0, 1, 1, 0] + [1, 0, 0, 0, 0, 9]
    pits = [0, 0, 0, 0, 1, 1] + [1, 0, 0, 0, 0, 9]
    game = position("jerin", pits, [16, 20], to_move=0, turns=[1, 1])
    game.step(5)  # pit 5 -> pit 6 (1 -> 2): lift 2 -> pits 7, 8 (empty): ends
    assert game.pits.tolist() == [0, 0, 0, 0, 1, 0] + [0, 1, 1, 0, 0, 9]


def test_rule_4_fours_on_the_way_are_taken_only_from_the_movers_own_side():
    """A four made on the way is the mover's if the house is theirs; the opponent's stay."""
    pits = [0, 0, 0, 5, 3, 0] + [3, 0, 0, 0, 0, 6]
    game = position("jerin", pits, [11, 20], to_move=0, turns=[1, 1])
    # Pit 3, five seeds: pit 4 (3 -> 4, own: taken), pit 5, pit 6 (3 -> 4, opponent's: stays),
    # pit 7, last into pit 8 (empty).
    game.step(3)
    assert game.pits.tolist() == [0, 0, 0, 0, 0, 1] + [4, 1, 1, 0, 0, 6]
    assert game.stores.tolist() == [15, 20]


def test_rule_4_a_last_seed_four_is_taken_on_the_movers_side_and_ends_the_move():
    """A last seed making four ends the move; it is taken only on the mover's own side."""
    pits = [3, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 2, 9]
    game = position("jerin", pits, [14, 20], to_move=1, turns=[1, 1])
    game.step(10 - 6)  # pit 10: pits 11, then 0 (3 -> 4): player_0's house, not player_1's
    assert game.pits.tolist() == [4, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 10]
    assert game.stores.tolist() == [14, 20] and game.to_move == 0
    game = position("jerin", [0, 1, 3] + [0] * 3 + [0] * 4 + [2, 9], [13, 20], turns=[1, 1])
    game.step(1)  # one seed: pit 2 (3 -> 4) by the last seed, on player_0's side: taken
    assert game.pits.tolist() == [0] * 6 + [0, 0, 0, 0, 2, 9]
    assert game.stores.tolist() == [17, 20] and game.to_move == 1


def test_rule_5_the_last_eight_go_to_the_first_last_seed_four_anywhere():
    """With eight seeds left, a last seed making four anywhere takes all eight; none before."""
    pits = [0, 0, 0, 0, 0, 1] + [3, 0, 0, 0, 0, 4]
    game = position("jerin", pits, [20, 20], to_move=0, turns=[1, 1])
    game.step(5)  # the last seed makes player_1's pit 6 four: player_0 takes all eight
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [28, 20],
        "to_move": None,
        "end_reason": "board_empty",
    }


def test_rule_4_option_fours_to_the_owner():
    """Option fours='owner' (the other reading of 'only from his own side'): each player takes
    the fours made in their own houses, so player_1 takes the four the sowing makes in pit 6."""
    pits = [0, 0, 0, 5, 3, 0] + [3, 0, 0, 0, 0, 6]
    game = position("jerin", pits, [11, 20], to_move=0, turns=[1, 1], options={"fours": "owner"})
    game.step(3)  # pit 4 (3 -> 4): player_0's; pit 6 (3 -> 4): player_1's; last into pit 8
    assert game.pits.tolist() == [0, 0, 0, 0, 0, 1] + [0, 1, 1, 0, 0, 6]
    assert game.stores.tolist() == [15, 24]


def test_rule_4_option_fours_to_the_owner_a_last_seed_four_too():
    """With fours='owner', a last seed making four on the opponent's side is theirs."""
    pits = [3, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 2, 9]
    game = position("jerin", pits, [14, 20], to_move=1, turns=[1, 1], options={"fours": "owner"})
    game.step(10 - 6)  # pit 10: pits 11, then 0 (3 -> 4): player_0's house, player_0's four
    assert game.pits.tolist() == [0] * 6 + [0, 0, 0, 0, 0, 10]
    assert game.stores.tolist() == [18, 20]
    assert game.to_move == 1  # player_0 has no seeds left and is passed over


def test_rule_5_eight_seeds_are_counted_with_the_seeds_in_hand():
    """'The game ends with eight seeds on the board' counts every seed still in play: with 12
    in play (6 lifted, 6 on the board) the four made in player_0's pit 1 on the way is taken."""
    pits = [6, 3, 0, 0, 0, 0] + [1, 1, 0, 0, 0, 1]
    game = position("jerin", pits, [20, 16], to_move=0, turns=[1, 1])
    game.step(0)  # pit 1 (3 -> 4, own, taken), pits 2-5, last into pit 6 (1 -> 2): relay into
    # pits 7 (1 -> 2) and 8 (empty): the move ends
    assert outcome(game) == {
        "pits": [0, 0, 1, 1, 1, 1] + [0, 2, 1, 0, 0, 1],
        "stores": [24, 16],
        "to_move": 1,
        "end_reason": None,
    }


def test_rule_5_no_four_is_taken_on_the_way_once_eight_are_left():
    """Once eight seeds are left, fours made on the way stay on the board."""
    pits = [0, 0, 0, 2, 3, 0] + [0, 0, 0, 0, 0, 3]
    game = position("jerin", pits, [20, 20], to_move=0, turns=[1, 1])
    game.step(3)  # pit 4 (3 -> 4, own, but eight are left: stays), last into pit 5 (empty)
    assert game.pits.tolist() == [0, 0, 0, 0, 4, 1] + [0, 0, 0, 0, 0, 3]
    assert game.stores.tolist() == [20, 20]


def test_rule_6_a_match_crosses_a_round_boundary_with_houses_changing_hands():
    """The winner's fours fill their own houses and the opponent's next ones for the next game."""
    pits = [0, 0, 0, 0, 0, 1] + [3, 0, 0, 0, 0, 4]
    game = position(
        "jerin", pits, [20, 20], to_move=0, turns=[1, 1], round_starter=0, options={"match": True}
    )
    game.step(5)  # player_0 takes the last eight: 28 seeds, seven houses; player_1 has five
    snap = game.snapshot()
    assert not game.over and snap["round"] == 1
    assert snap["owners"] == [0] * 6 + [0, 1, 1, 1, 1, 1]  # player_1's house 1 changed hands
    assert snap["pits"] == [4] * 12 and snap["stores"] == [0, 0]
    assert snap["to_move"] == 1 and snap["round_starter"] == 1  # the players alternate
    assert snap["rounds_won"] == [1, 0]
    # player_1 opens with two adjoining houses of its own: houses 2..6 (pits 7..11)
    assert game.legal_actions() == [OPEN + h for h in range(1, 5)]


def test_rule_6_a_player_without_a_four_has_lost_the_match():
    """A round that leaves a player fewer than four seeds ends the match."""
    pits = [0, 0, 0, 0, 0, 1] + [3, 0, 0, 0, 0, 4]
    game = position("jerin", pits, [40, 0], to_move=0, turns=[1, 1], options={"match": True})
    game.step(5)
    assert game.over and game.winner() == 0 and game.stores.tolist() == [48, 0]


def test_stuck_player_is_passed_over_and_the_end_option():
    """A player with no seeds is passed over; with stuck='end' the round ends."""
    pits = [0, 0, 0, 0, 0, 1] + [0, 0, 2, 0, 0, 6]
    game = position("jerin", pits, [19, 20], to_move=0, turns=[1, 1])
    game.step(5)  # one seed into pit 6 (empty): player_0 now has none
    game.step(8 - 6)  # player_1: pit 8 -> pits 9, 10 (empty): ends
    assert game.pits.tolist() == [0] * 6 + [1, 0, 0, 1, 1, 6]
    assert game.to_move == 1  # player_0, still without seeds, is passed over
    game = position("jerin", pits, [19, 20], to_move=0, turns=[1, 1], options={"stuck": "end"})
    game.step(5)
    game.step(8 - 6)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [19, 29],
        "to_move": None,
        "end_reason": "no_move",
    }


def test_every_match_of_jerin_ends_within_its_bound():
    """Random matches end within max_rounds * 49 * stall_limit plies, every seed accounted."""
    rng = np.random.default_rng(3)
    for _ in range(10):
        game = Game("jerin", match=True, max_rounds=20)
        game.reset(rng)
        while not game.over:
            game.step(int(rng.choice(game.legal_actions())))
        assert game.move_number <= 20 * 49 * game.options.stall_limit
        assert sum(game.stores) == 48 and game.snapshot()["round"] >= 1
