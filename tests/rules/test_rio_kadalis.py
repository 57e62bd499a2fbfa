"""Rio Kadalis (004_8ffe586423a61d8e.txt, section 'Rio Kadalis - Somalia'): one test per rule."""

import numpy as np
from positions import outcome, position

from mancala_env import Game

# player_0 sows its last seed away; player_1 answers without feeding it: player_0 cannot move.
STRANDING = {"pits": [0, 0, 0, 0, 0, 1] + [0, 0, 2, 0, 0, 5], "stores": [20, 20]}


def strand(game: Game) -> Game:
    game.step(5)  # pit 5 -> pit 6 (empty): the turn ends
    game.step(8 - 6)  # pit 8 -> pits 9, 10 (empty): the turn ends; player_0 has no seeds
    return game


def test_rule_1_obridjies_sowing_relays_until_empty_or_four():
    """Relay sowing: lift again from a house that held seeds; stop in an empty one or at four."""
    pits = [0, 0, 0, 0, 0, 2] + [1, 3, 0, 0, 9, 0]
    game = position("rio_kadalis", pits, [13, 20], to_move=0)
    # pit 5: pit 6 (1 -> 2), pit 7 (3 -> 4, the last seed): the sower takes it; the move ends
    game.step(5)
    assert game.pits.tolist() == [0] * 6 + [2, 0, 0, 0, 9, 0]
    assert game.stores.tolist() == [17, 20] and game.to_move == 1


def test_rule_2_a_four_on_the_way_goes_to_its_owner():
    """A hole made four by any seed but the last goes at once to the player on whose side it is."""
    pits = [0, 0, 0, 0, 0, 3] + [3, 0, 0, 0, 9, 0]
    game = position("rio_kadalis", pits, [13, 20], to_move=0)
    game.step(5)  # pit 6 (3 -> 4: player_1's), pit 7, last into pit 8 (empty)
    assert game.pits.tolist() == [0] * 6 + [0, 1, 1, 0, 9, 0]
    assert game.stores.tolist() == [13, 24]


def test_rule_3_the_round_ends_when_a_player_cannot_move():
    """The seeds left go to the player on whose side they are; more captured wins the round."""
    game = strand(position("rio_kadalis", to_move=0, **STRANDING))
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [20, 28],
        "to_move": None,
        "end_reason": "no_move",
    }
    assert game.winner() == 1


def test_rule_4_the_next_round_refills_holes_and_closes_the_rest():
    """Holes are refilled four to a hole; the poorer player closes the holes they cannot fill;
    the richer keeps their spare seeds captured; the players take turns to start."""
    game = strand(
        position("rio_kadalis", to_move=0, round_starter=0, options={"match": True}, **STRANDING)
    )
    snap = game.snapshot()
    assert not game.over and snap["round"] == 1 and snap["rounds_won"] == [0, 1]
    assert snap["pits"] == [4, 4, 4, 4, 4, 0] + [4] * 6
    assert snap["closed"] == [0, 0, 0, 0, 0, 1] + [0] * 6
    assert snap["stores"] == [0, 4] and snap["round_start_stores"] == [0, 4]
    assert snap["to_move"] == 1 and snap["round_starter"] == 1


def test_rule_4_a_closed_hole_is_passed_over_and_never_lifted():
    """Sowing passes over a closed hole, and a closed hole is not a legal lift."""
    closed = [0, 0, 0, 0, 0, 1] + [0] * 6
    pits = [0, 0, 0, 0, 2, 0] + [0, 0, 0, 0, 9, 9]
    game = position("rio_kadalis", pits, [8, 20], to_move=0, closed=closed, options={"match": True})
    assert game.legal_actions() == [4]
    game.step(4)  # pit 5 is closed: the seeds go to pits 6 and 7
    assert game.pits.tolist() == [0] * 6 + [1, 1, 0, 0, 9, 9]


def test_rule_4_closed_holes_reopen_when_they_can_be_filled():
    """A player who holds enough seeds again fills, and so reopens, every hole of their row."""
    game = strand(
        position(
            "rio_kadalis",
            to_move=0,
            closed=[0, 0, 0, 0, 1, 0] + [0] * 6,
            options={"match": True},
            pits=[0, 0, 0, 0, 0, 1] + [0, 0, 2, 0, 0, 5],
            stores=[28, 12],
        )
    )
    snap = game.snapshot()
    # player_0 holds 28: six holes (its closed pit 4 reopens) and 4 spare; player_1 holds 20:
    # five holes, and its sixth closes.
    assert snap["closed"] == [0] * 6 + [0, 0, 0, 0, 0, 1]
    assert snap["pits"] == [4] * 6 + [4, 4, 4, 4, 4, 0]
    assert snap["stores"] == [4, 0]


def test_rule_4_the_first_to_win_four_rounds_wins_the_match():
    """A fourth round won ends the match."""
    game = strand(
        position(
            "rio_kadalis",
            to_move=0,
            round=3,
            rounds_won=[0, 3],
            options={"match": True},
            **STRANDING,
        )
    )
    assert game.over and game.winner() == 1 and game.snapshot()["rounds_won"] == [0, 4]


def test_round_starter_option_loser_starts():
    """With round_starter='loser' the loser of a round starts the next."""
    game = strand(
        position(
            "rio_kadalis",
            to_move=0,
            round_starter=1,
            options={"match": True, "round_starter": "loser"},
            **STRANDING,
        )
    )
    assert game.to_move == 0 and game.snapshot()["round_starter"] == 0


def test_every_match_of_rio_kadalis_ends_within_its_bound():
    """Random matches end within max_rounds * 49 * stall_limit plies, every seed accounted."""
    rng = np.random.default_rng(5)
    for _ in range(20):
        game = Game("rio_kadalis", match=True)
        game.reset(rng)
        while not game.over:
            game.step(int(rng.choice(game.legal_actions())))
        assert game.move_number <= 100 * 49 * game.options.stall_limit
        assert sum(game.stores) == 48
        snap = game.snapshot()
        assert max(snap["rounds_won"]) == 4 or min(snap["stores"]) < 4
