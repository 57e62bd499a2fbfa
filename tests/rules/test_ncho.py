"""Ncho (003_27373f1e89548b8e.txt): the source's two worked turns and one test per rule."""

import numpy as np
import pytest
from positions import boards_after_laps, outcome, position

from mancala_env import Game, IllegalActionError


def rows(player_2_house_6_to_1: list[int], player_1_house_1_to_6: list[int]) -> list[int]:
    """Our pits from a board as the source draws it: Player 2's row read right to left on top."""
    return list(player_1_house_1_to_6) + list(reversed(player_2_house_6_to_1))


# The boards of "Example of Play", in the source's layout, one per lap.
TURN_1 = [
    rows([4, 4, 4, 4, 4, 5], [4, 4, 0, 5, 5, 5]),  # from House 3, four seeds
    rows([5, 5, 5, 5, 5, 0], [4, 4, 0, 5, 5, 5]),  # the five of Player 2's House 1 to House 6
    rows([0, 5, 5, 5, 5, 0], [5, 5, 1, 6, 6, 5]),  # "And to his own House 5"
    rows([0, 6, 6, 6, 6, 1], [5, 5, 1, 6, 0, 6]),  # "Player 2's House 5"
    rows([1, 0, 6, 6, 6, 1], [6, 6, 2, 7, 1, 6]),  # "back to his own House 5": empty, turn ends
]
TURN_2 = [
    rows([0, 0, 6, 6, 6, 1], [7, 6, 2, 7, 1, 6]),  # Player 2 from House 6
    rows([0, 0, 6, 6, 7, 2], [0, 7, 3, 8, 2, 7]),  # from House 1 of Player 1
    rows([1, 1, 7, 7, 0, 2], [1, 8, 0, 8, 2, 7]),  # from his own House 2: wins the four in House 3
]


def test_worked_example_turn_1_board_by_board():
    """'Example of Play', Turn 1: Player 1 plays House 3 and relays four more times."""
    game = Game("ncho", first_player="player_0")
    assert boards_after_laps(game, 2, 4) == TURN_1[:4]
    game.step(2)
    assert game.pits.tolist() == TURN_1[4]
    assert game.stores.tolist() == [0, 0] and game.to_move == 1


def test_worked_example_turn_2_board_by_board():
    """'Example of Play', Turn 2: Player 2 plays House 6 and wins the four in House 3."""
    game = Game("ncho", first_player="player_0")
    game.step(2)
    before = boards_after_laps(game, 5, 2)
    assert before == TURN_2[:2]
    game.step(5)
    assert game.pits.tolist() == TURN_2[2]
    assert game.stores.tolist() == [0, 4] and game.to_move == 0


def test_rule_2_a_player_with_no_seeds_is_passed_over():
    """'if a player has no tokens in any of his houses, play reverts to his opponent'."""
    pits = [0, 0, 0, 0, 0, 1] + [0, 0, 2, 5, 0, 0]
    game = position("ncho", pits, [20, 20], to_move=0)
    game.step(5)  # the single seed goes to player_1's empty house 1: the turn ends
    assert game.pits.tolist() == [0] * 6 + [1, 0, 2, 5, 0, 0]
    assert game.to_move == 1  # player_0 has no seeds now...
    game.step(0)  # player_1 sows house 1 into its empty house 2
    assert game.to_move == 1  # ...so player_1 moves again
    with pytest.raises(IllegalActionError):
        Game.from_snapshot({**game.snapshot(), "to_move": 0}).step(0)


def test_rule_2_stuck_end_option_ends_the_round():
    """With stuck='end', a player to move with no seeds ends the round; rows go to their owners."""
    pits = [0, 0, 0, 0, 0, 1] + [0, 0, 2, 5, 0, 0]
    game = position("ncho", pits, [20, 20], to_move=0, options={"stuck": "end"})
    game.step(5)  # player_0's last seed goes over
    game.step(0)  # player_1 sows its house 1 into its empty house 2; player_0 is stuck
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [20, 28],
        "to_move": None,
        "end_reason": "no_move",
    }


def test_rule_4_a_four_made_on_the_way_goes_to_the_owner_at_once():
    """A seed that is not the last and makes four wins it for the house's owner, either row."""
    pits = [0, 0, 0, 5, 0, 0] + [0, 3, 0, 0, 0, 3]
    game = position("ncho", pits, [0, 37], to_move=0)
    # 5 seeds from pit 3: pits 4, 5, 6 (empty) and 7 (3 -> 4: player_1's), last in 8 (empty).
    game.step(3)
    assert game.pits.tolist() == [0, 0, 0, 0, 1, 1] + [1, 0, 1, 0, 0, 3]
    assert game.stores.tolist() == [0, 41]


def test_rule_5_a_last_seed_making_four_is_won_by_the_sower_on_either_row():
    """The last seed that makes four wins it for the sower, on the opponent's row too."""
    pits = [0, 0, 0, 0, 0, 2] + [0, 3, 0, 0, 6, 1]
    game = position("ncho", pits, [16, 20], to_move=0)
    game.step(5)  # pit 6 (empty -> 1), last seed into pit 7 (3 -> 4): player_0 wins it
    assert game.pits.tolist() == [0] * 6 + [1, 0, 0, 0, 6, 1]
    assert game.stores.tolist() == [20, 20] and game.to_move == 1


def test_rule_5_last_seed_in_an_occupied_house_lifts_it():
    """Neither empty nor four: the sower lifts the house and sows on."""
    pits = [0, 0, 0, 0, 0, 1] + [1, 0, 0, 0, 6, 0]
    game = position("ncho", pits, [20, 20], to_move=0)
    game.step(5)  # pit 6 (1 -> 2): lift both, sow pits 7 and 8; pit 8 was empty: turn ends
    assert game.pits.tolist() == [0] * 6 + [0, 1, 1, 0, 6, 0]
    assert game.to_move == 1


def test_rule_6_the_eleventh_four_wins_the_last():
    """Whoever wins the eleventh four also wins the last four seeds."""
    pits = [0, 0, 0, 0, 0, 1] + [3, 0, 0, 0, 3, 1]
    game = position("ncho", pits, [20, 20], to_move=0)
    game.step(5)  # the last seed makes pit 6 four: player_0's eleventh four, then the last four
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [28, 20],
        "to_move": None,
        "end_reason": "few_seeds",
    }


def test_rule_6_also_when_the_eleventh_four_goes_to_the_owner():
    """A four won on the way by the house's owner is the eleventh four too."""
    pits = [0, 0, 0, 0, 0, 2] + [3, 0, 0, 0, 0, 3]
    game = position("ncho", pits, [16, 24], to_move=0)
    # Two seeds: pit 6 (3 -> 4, won at once by player_1), the last into empty pit 7.
    game.step(5)
    assert outcome(game)["stores"] == [16, 32]
    assert game.over


def test_rule_6_the_eleventh_four_made_on_the_way_ends_the_game_at_once():
    """'The player who wins the penultimate (11th) group of four tokens also wins the last':
    player_0's first seed makes player_1's pit 6 four on the way, player_1's eleventh four, so
    player_1 wins the last four at once (the seed still in hand and pit 7's three). The sowing
    does not go on to make a twelfth four for player_0 with the last seed."""
    pits = [0, 0, 0, 0, 0, 2] + [3, 3, 0, 0, 0, 0]
    game = position("ncho", pits, [20, 20], to_move=0)
    game.step(5)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [20, 28],
        "to_move": None,
        "end_reason": "few_seeds",
    }
    assert game.winner() == 1


def test_every_game_of_ncho_ends_with_all_seeds_handed_out():
    """Random games end (the bound: 49 * stall_limit plies) with every seed in a store."""
    rng = np.random.default_rng(7)
    for _ in range(50):
        game = Game("ncho")
        game.reset(rng)
        while not game.over:
            game.step(int(rng.choice(game.legal_actions())))
            assert game.move_number <= 49 * game.options.stall_limit
        assert sum(game.stores) == 48 and not game.pits.any()


def test_rule_7_fours_buy_houses_for_the_next_round():
    """Each four won gains a house for the next round: seven fours take the opponent's house 1;
    the players alternate in starting the rounds."""
    pits = [0, 0, 0, 0, 0, 1] + [3, 0, 0, 0, 3, 1]
    game = position("ncho", pits, [20, 20], to_move=0, round_starter=0, options={"match": True})
    game.step(5)  # the eleventh four and the last go to player_0: 28 seeds, seven houses
    snap = game.snapshot()
    assert not game.over and snap["round"] == 1 and snap["rounds_won"] == [1, 0]
    assert snap["owners"] == [0] * 6 + [0, 1, 1, 1, 1, 1]
    assert snap["pits"] == [4] * 12 and snap["stores"] == [0, 0]
    assert snap["to_move"] == 1 and snap["round_starter"] == 1
    # player_1 may lift only the five houses it owns: its houses 2..6, actions 1..5
    assert game.legal_actions() == [1, 2, 3, 4, 5]
    game.step(5)  # player_1 lifts pit 11
    # player_0 owns pit 6 now: action 6 (its seventh house in sowing order) is pit 6
    assert 6 in game.legal_actions()


def test_rule_7_whoever_wins_all_the_seeds_has_won_the_game():
    """A player left without four seeds cannot own a house: the match is over."""
    pits = [0, 0, 0, 0, 0, 1] + [3, 0, 0, 0, 3, 1]
    game = position("ncho", pits, [40, 0], to_move=0, options={"match": True})
    game.step(5)
    assert game.over and game.winner() == 0 and game.stores.tolist() == [48, 0]


def test_every_match_of_ncho_ends_within_its_bound():
    """A match undecided after max_rounds rounds is decided on the seeds held."""
    rng = np.random.default_rng(11)
    for _ in range(10):
        game = Game("ncho", match=True, max_rounds=3)
        game.reset(rng)
        while not game.over:
            game.step(int(rng.choice(game.legal_actions())))
        snap = game.snapshot()
        assert snap["round"] <= 3 and game.move_number <= 3 * 49 * game.options.stall_limit
        stores = snap["stores"]
        assert game.winner() == (None if stores[0] == stores[1] else int(stores[1] > stores[0]))
