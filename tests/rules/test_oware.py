"""Oware and Kpo: each numbered rule of `mancala_env.variants.oware` on an explicit position.

Source: 004_8ffe586423a61d8e.txt, sections "OWARE - Ghana" and "KPO - Liberia" (the same text),
so every rule test runs under both names. Pits 0..5 are player_0's houses 1..6 and pits 6..11
player_1's, in the sowing direction; stores are [player_0, player_1].
"""

import numpy as np
import pytest
from positions import outcome, position

from mancala_env import Game, IllegalActionError
from mancala_env.variants import VARIANTS

NAMES = ["oware", "kpo"]


def lowest_house_line(game, plies):
    """Play the lowest legal action `plies` times (or until the game ends)."""
    for _ in range(plies):
        if game.over:
            break
        game.step(game.legal_actions()[0])


# ---- the two names are one rule set ---------------------------------------------------------


def test_kpo_plays_exactly_as_oware():
    """004, 'KPO - Liberia' repeats the Oware text (its 'Other Rules' keep only the twelve-seed
    point; the feeding and grand-slam points are read as Oware's): the same parameters and,
    move by move, the same games."""
    assert VARIANTS["kpo"].source != VARIANTS["oware"].source
    assert np.array_equal(
        VARIANTS["kpo"].params(VARIANTS["kpo"].options()),
        VARIANTS["oware"].params(VARIANTS["oware"].options()),
    )
    for seed in range(20):
        oware, kpo = Game("oware"), Game("kpo")
        oware.reset(np.random.default_rng(seed))
        kpo.reset(np.random.default_rng(seed))
        rng = np.random.default_rng(1000 + seed)
        while not oware.over:
            assert kpo.legal_actions() == oware.legal_actions()
            action = int(rng.choice(oware.legal_actions()))
            oware.step(action)
            kpo.step(action)
            kpo_view, oware_view = kpo.snapshot(), oware.snapshot()
            kpo_view.pop("variant"), oware_view.pop("variant")
            assert kpo_view == oware_view
        assert kpo.over


# ---- rule 1: the start --------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_start_four_seeds_in_each_house(name):
    """Rule 1 (004, 'Setup'): four seeds in each of the twelve houses, each row of six owned by
    the player nearest it; every house of the mover may be lifted."""
    game = Game(name, first_player="player_0")
    snapshot = game.snapshot()
    assert outcome(game) == {
        "pits": [4] * 12,
        "stores": [0, 0],
        "to_move": 0,
        "end_reason": None,
    }
    assert snapshot["owners"] == [0] * 6 + [1] * 6
    assert game.legal_actions() == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize("name", NAMES)
def test_first_player_is_guessed_by_default_and_fixed_by_the_option(name):
    """004, 'Starting': a seed hidden in a fist decides who begins, so by default the first
    player is drawn from the reset seed (reproducibly); first_player fixes it."""
    drawn = set()
    for seed in range(16):
        game = Game(name)
        game.reset(np.random.default_rng(seed))
        again = Game(name)
        again.reset(np.random.default_rng(seed))
        assert again.to_move == game.to_move
        drawn.add(game.to_move)
    assert drawn == {0, 1}
    for player in (0, 1):
        game = Game(name, first_player=f"player_{player}")
        for seed in range(4):
            game.reset(np.random.default_rng(seed))
            assert game.to_move == player


# ---- rule 2: a single lap -----------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_sowing_is_one_lap_counter_clockwise_and_ends_the_turn(name):
    """Rule 2 (004, 'Sowing seeds'): all the seeds of one own house are sown one a house
    counter-clockwise, then the turn is over; player_1's seeds run on from pit 11 to pit 0."""
    game = Game(name, first_player="player_0")
    game.step(2)  # house 3: pits 3, 4, 5, 6
    assert outcome(game) == {
        "pits": [4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4],
        "stores": [0, 0],
        "to_move": 1,
        "end_reason": None,
    }
    game.step(5)  # player_1's house 6 is pit 11: pits 0, 1, 2, 3 (the last makes 6: no capture)
    assert outcome(game) == {
        "pits": [5, 5, 1, 6, 5, 5, 5, 4, 4, 4, 4, 0],
        "stores": [0, 0],
        "to_move": 0,
        "end_reason": None,
    }


# ---- rule 3: twelve or more seeds ---------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_twelve_seeds_pass_over_the_emptied_house(name):
    """Rule 3 (004, 'Other Rules', first point): twelve seeds from house 2 go round to house 1
    and pass over house 2, which stays empty; the twelfth seed lands in house 3."""
    game = position(name, [2, 12, 1, 3, 0, 2, 3, 4, 1, 2, 5, 3], [5, 5], to_move=0)
    game.step(1)
    assert outcome(game) == {
        # Pits 2..11 and 0 get one each, pit 1 is passed over, pit 2 gets the twelfth. The
        # 2 and 3 made in pits 8 and 9 are not captured: the last seed fell on the own row.
        "pits": [3, 0, 3, 4, 1, 3, 4, 5, 2, 3, 6, 4],
        "stores": [5, 5],
        "to_move": 1,
        "end_reason": None,
    }


# ---- rule 4: capturing 2s and 3s ----------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_chain_capture_stops_at_a_house_that_is_not_two_or_three(name):
    """Rule 4 (004, 'Capturing seeds'): the last seed makes 2 in pit 9, the one before 3 in
    pit 8: both are taken. Pit 7 now holds 4, which ends the run, so pit 6 (made 2) stays."""
    game = position(name, [1, 0, 2, 6, 1, 0, 1, 3, 2, 1, 0, 4], [13, 14], to_move=0)
    game.step(3)  # six seeds: pits 4, 5, 6, 7, 8, 9
    assert outcome(game) == {
        "pits": [1, 0, 2, 0, 2, 1, 2, 4, 0, 0, 0, 4],
        "stores": [18, 14],
        "to_move": 1,
        "end_reason": None,
    }


@pytest.mark.parametrize("name", NAMES)
def test_chain_capture_stops_at_the_movers_own_row(name):
    """Rule 4 (004, 'Capturing seeds': only the opponent's side is captured): the run goes back
    to the opponent's first house and no further, though the mover's own house before it was
    made 2. Shown for player_0 (pits 7, 6 taken, pit 5 kept) and player_1 (pits 1, 0 taken,
    pit 11 kept)."""
    game = position(name, [2, 0, 0, 0, 3, 1, 2, 1, 0, 5, 1, 0], [16, 17], to_move=0)
    game.step(4)  # pits 5, 6, 7
    assert outcome(game) == {
        "pits": [2, 0, 0, 0, 0, 2, 0, 0, 0, 5, 1, 0],
        "stores": [21, 17],
        "to_move": 1,
        "end_reason": None,
    }
    game = position(name, [1, 2, 0, 4, 0, 1, 0, 2, 0, 0, 3, 1], [17, 17], to_move=1)
    game.step(4)  # player_1's house 5 is pit 10: pits 11, 0, 1
    assert outcome(game) == {
        "pits": [0, 0, 0, 4, 0, 1, 0, 2, 0, 0, 0, 2],
        "stores": [17, 22],
        "to_move": 0,
        "end_reason": None,
    }


@pytest.mark.parametrize("name", NAMES)
def test_only_the_last_seed_starts_a_capture(name):
    """Rule 4 (004, 'Capturing seeds': 'If the last seed ... lands in one of their opponent's
    houses'): a 2 made on the way does not count when the last seed makes 4 in pit 7."""
    game = position(name, [2, 0, 5, 0, 1, 0, 1, 3, 0, 2, 0, 1], [16, 17], to_move=0)
    game.step(2)  # pits 3, 4, 5, 6, 7: pit 6 becomes 2, pit 7 becomes 4
    assert outcome(game) == {
        "pits": [2, 0, 0, 1, 2, 1, 2, 4, 0, 2, 0, 1],
        "stores": [16, 17],
        "to_move": 1,
        "end_reason": None,
    }


# ---- rule 5: the grand slam ---------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_grand_slam_captures_nothing(name):
    """Rule 5 (004, 'Other Rules', third point): sowing pits 5, 6, 7 makes pits 6 and 7 a 2 and
    a 3, the whole of player_1's row: the move is played but nothing is captured."""
    game = position(name, [3, 0, 2, 0, 3, 1, 1, 2, 0, 0, 0, 0], [18, 18], to_move=0)
    game.step(4)
    assert outcome(game) == {
        "pits": [3, 0, 2, 0, 0, 2, 2, 3, 0, 0, 0, 0],
        "stores": [18, 18],
        "to_move": 1,
        "end_reason": None,
    }


@pytest.mark.parametrize("name", NAMES)
def test_grand_slam_option_capture_takes_the_whole_row(name):
    """Rule 5, other reading (grand_slam='capture'): the same move takes both houses (5 seeds);
    player_1 is then left without seeds and cannot move, so the game ends and player_0 keeps
    the 7 seeds on their row (the end the source gives a player who cannot be fed)."""
    game = position(
        name,
        [3, 0, 2, 0, 3, 1, 1, 2, 0, 0, 0, 0],
        [18, 18],
        to_move=0,
        options={"grand_slam": "capture"},
    )
    game.step(4)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [30, 18],
        "to_move": None,
        "end_reason": "no_move",
    }


# ---- rule 6: feeding ----------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_a_move_that_leaves_a_seedless_opponent_empty_is_masked(name):
    """Rule 6 (004, 'Other Rules', second point): player_1 has no seeds, so only houses whose
    seeds reach player_1's row (houses 4 and 6) may be lifted; house 1 is refused."""
    game = position(name, [3, 0, 0, 3, 1, 1, 0, 0, 0, 0, 0, 0], [20, 20], to_move=0)
    assert game.legal_actions() == [3, 5]
    assert game.legal_mask().tolist() == [0, 0, 0, 1, 0, 1]
    with pytest.raises(IllegalActionError, match=r"legal actions: \[3, 5\]"):
        game.step(0)
    game.step(5)
    assert outcome(game) == {
        "pits": [3, 0, 0, 3, 1, 0, 1, 0, 0, 0, 0, 0],
        "stores": [20, 20],
        "to_move": 1,
        "end_reason": None,
    }


@pytest.mark.parametrize("name", NAMES)
def test_game_ends_when_no_move_can_feed_and_the_mover_keeps_their_seeds(name):
    """Rule 6 (004, 'Other Rules', second point): player_1 sows their last seed into pit 0;
    no house of player_0 reaches player_1's row, so the game ends and player_0, the player who
    still has seeds, takes the 4 on their row."""
    game = position(name, [0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1], [22, 22], to_move=1)
    game.step(5)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [26, 22],
        "to_move": None,
        "end_reason": "cannot_feed",
    }
    assert game.winner() == 0


# ---- rule 7: more than half, or 24 each ---------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_game_ends_when_a_player_has_captured_25(name):
    """Rule 7 (004, 'End of game'): player_0 captures 3 (pit 6 made 3) and reaches 25; the game
    ends and each player takes the seeds left on their own row (5 each)."""
    game = position(name, [2, 0, 0, 3, 0, 1, 2, 4, 0, 1, 0, 0], [22, 13], to_move=0)
    game.step(5)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [30, 18],
        "to_move": None,
        "end_reason": "majority",
    }
    assert game.winner() == 0


@pytest.mark.parametrize("name", NAMES)
def test_24_each_is_a_draw(name):
    """Rule 7 (004, 'End of game': 'a tie if both players have captured 24 seeds'). With the
    grand slam capturing nothing no capture can clear the board, so 24-24 comes from the end
    that hands out the last seeds: here player_1 cannot feed and keeps their 2 (22 + 2 = 24).
    With grand_slam='capture', player_0 takes the last 2 seeds on the board: 24-24 as well."""
    pits = [0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0]
    game = position(name, pits, [24, 22], to_move=0)
    game.step(5)  # pit 6 made 2 is all of player_1's row: not captured; 6 -> 7, 8 cannot feed
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [24, 24],
        "to_move": None,
        "end_reason": "cannot_feed",
    }
    assert game.winner() is None

    game = position(name, pits, [22, 24], to_move=0, options={"grand_slam": "capture"})
    game.step(5)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [24, 24],
        "to_move": None,
        "end_reason": "board_empty",
    }
    assert game.winner() is None


# ---- rule 8: the chase that never ends ----------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_two_seeds_chasing_are_stopped_after_stall_limit_plies(name):
    """Rule 8 (004, 'End of game': seeds 'endlessly chasing each other around the board'): one
    seed each, every ply has exactly one legal move (the feeding rule forces player_1 on from
    pit 11), the position repeats every 12 plies without a capture, and the game is stopped
    after stall_limit = 100 plies: the 2 seeds are split, 24-24."""
    start = [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]
    game = position(name, start, [23, 23], to_move=0)
    for ply in range(100):
        assert not game.over
        assert len(game.legal_actions()) == 1
        game.step(game.legal_actions()[0])
        if ply + 1 == 12:
            assert outcome(game)["pits"] == start and game.to_move == 0
        if ply + 1 < 100:
            assert game.stores.tolist() == [23, 23]
            assert game.snapshot()["stall_plies"] == ply + 1
    assert game.move_number == 100
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [24, 24],
        "to_move": None,
        "end_reason": "stall",
    }


@pytest.mark.parametrize("name", NAMES)
def test_stopped_chase_gives_the_odd_seed_to_the_fuller_row(name):
    """Rule 8 (004, 'End of game': 'split the remaining seeds evenly, with the player having the
    most seeds on his or her side keeping the odd one'). Three seeds, both players lifting
    their lowest legal house: the line comes back to its start after 96 plies without a
    capture. After ply 99 player_1 moves pit 7 to pit 8, leaving rows of 2 and 1; the stop at
    ply 100 gives 1 + 1 and the odd seed to player_0, who wins 25-23."""
    start = [1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]
    game = position(name, start, [23, 22], to_move=0)
    lowest_house_line(game, 96)
    assert outcome(game) == {
        "pits": start,
        "stores": [23, 22],
        "to_move": 0,
        "end_reason": None,
    }
    lowest_house_line(game, 3)
    assert outcome(game) == {
        "pits": [0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0],
        "stores": [23, 22],
        "to_move": 1,
        "end_reason": None,
    }
    assert game.legal_actions() == [1]
    game.step(1)
    assert game.move_number == 100
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [25, 23],
        "to_move": None,
        "end_reason": "stall",
    }
    assert game.winner() == 0


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(("remainder", "stores"), [("split", [24, 24]), ("owner", [25, 23])])
def test_stall_remainder_option(name, remainder, stores):
    """Rule 8, other reading (stall_remainder='owner'): after ply 100 the rows hold 3 and 1;
    split evenly that is 2 each, by owner 3 to player_0 and 1 to player_1."""
    game = position(
        name,
        [3, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0],
        [22, 22],
        to_move=0,
        options={"stall_remainder": remainder},
        stall_plies=99,
    )
    assert game.legal_actions() == [0]
    game.step(0)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": stores,
        "to_move": None,
        "end_reason": "stall",
    }


@pytest.mark.parametrize("name", NAMES)
def test_a_capture_restarts_the_stall_count(name):
    """Rule 8: only plies without a capture count towards the stop; a capture on ply 100 of a
    stall count resets it and play goes on."""
    game = position(
        name,
        [2, 0, 0, 3, 0, 1, 2, 4, 0, 1, 0, 0],
        [16, 19],
        to_move=0,
        stall_plies=99,
    )
    game.step(5)  # pit 6 made 3: captured
    assert outcome(game) == {
        "pits": [2, 0, 0, 3, 0, 0, 0, 4, 0, 1, 0, 0],
        "stores": [19, 19],
        "to_move": 1,
        "end_reason": None,
    }
    assert game.snapshot()["stall_plies"] == 0


@pytest.mark.parametrize("name", NAMES)
def test_stall_limit_option(name):
    """Rule 8, other readings: stall_limit=10 stops the one-seed-each chase after 10 plies;
    0, which would never stop it, is refused."""
    with pytest.raises(ValueError, match="stall_limit=0"):
        Game(name, stall_limit=0)
    game = position(
        name,
        [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0],
        [23, 23],
        to_move=0,
        options={"stall_limit": 10},
    )
    lowest_house_line(game, 1000)
    assert game.move_number == 10
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [24, 24],
        "to_move": None,
        "end_reason": "stall",
    }


@pytest.mark.parametrize("name", NAMES)
def test_every_game_ends_within_49_times_stall_limit_plies(name):
    """The bound of rule 8: a capture removes seeds, at most 48 can go, and between two of them
    at most stall_limit plies pass, so a game lasts at most 49 * stall_limit plies. Random games
    with stall_limit = 3 all end, within 147 plies."""
    rng = np.random.default_rng(7)
    for _ in range(200):
        game = Game(name, stall_limit=3)
        game.reset(rng)
        while not game.over:
            assert game.move_number < 49 * 3
            game.step(int(rng.choice(game.legal_actions())))
        assert game.move_number <= 49 * 3
        assert sum(game.stores) == 48
