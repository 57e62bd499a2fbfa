"""Ayoyayo: each numbered rule of `mancala_env.variants.ayoyayo` on an explicit position.

Source: 001_9cf8f14e7fe6ff20.txt (R. J. Newberry, "Games and Pastimes of Southern Nigeria",
Part III), section "Ayoyayo". Newberry's player "A" moves first (player_0) and he numbers the
houses 1..12 in the sowing direction starting with A's, so his house h is our pit h - 1: A's
houses 1..6 are pits 0..5 (actions 0..5 for A), B's houses 7..12 are pits 6..11 (B's house h is
action h - 7). Stores are [A, B].
"""

import numpy as np
import pettingzoo
import pytest
from positions import outcome, position

import mancala_env  # noqa: F401 - registers mancala/<name>-v<N>
from mancala_env import Game, IllegalActionError


def houses(**seeds: int) -> list[int]:
    """Pits from Newberry's house numbers: houses(h5=5, h12=12) puts 5 in pit 4, 12 in pit 11."""
    pits = [0] * 12
    for name, count in seeds.items():
        pits[int(name[1:]) - 1] = count
    return pits


# ---- rule 1: sowing --------------------------------------------------------------------------


def test_opening_moves_sow_one_lap_and_each_player_is_left_an_empty_house():
    """Rule 1 (001, 'Ayoyayo': '"A" begins by taking the four seeds from one of his houses, and
    drops them in the next four houses ... thus increasing the totals of those houses to five
    apiece. "B" ... if he opens from one of his houses which now contain five seeds he may move
    further round the board'): A opens from house 3, B from house 7 (five seeds)."""
    game = Game("ayoyayo")
    assert outcome(game) == {
        "pits": [4] * 12,
        "stores": [0, 0],
        "to_move": 0,
        "end_reason": None,
    }
    game.step(2)
    assert outcome(game) == {
        "pits": [4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4],
        "stores": [0, 0],
        "to_move": 1,
        "end_reason": None,
    }
    game.step(0)  # B's house 7: five seeds into houses 8..12
    assert outcome(game) == {
        "pits": [4, 4, 0, 5, 5, 5, 0, 5, 5, 5, 5, 5],
        "stores": [0, 0],
        "to_move": 0,
        "end_reason": None,
    }


@pytest.mark.parametrize(
    ("skip", "pits"),
    [
        ("move", [0, 3, 1, 3, 4, 2, 4, 1, 6, 2, 3, 5]),
        ("none", [1, 2, 1, 3, 4, 2, 4, 1, 6, 2, 3, 5]),
    ],
)
def test_twelve_seeds_pass_over_the_emptied_house_unless_the_option_says_not(skip, pits):
    """Rule 1, a reading where Newberry is silent (skip_origin): twelve seeds from house 1 go
    round the board; by default house 1 is passed over and the twelfth seed lands in house 2;
    with skip_origin='none' the twelfth seed falls back into house 1. The last seed is on A's
    own side, so the 2 and 3 made in houses 10 and 11 are not taken."""
    game = position(
        "ayoyayo",
        [12, 1, 0, 2, 3, 1, 3, 0, 5, 1, 2, 4],
        [7, 7],
        to_move=0,
        options={"skip_origin": skip},
    )
    game.step(0)
    assert outcome(game) == {"pits": pits, "stores": [7, 7], "to_move": 1, "end_reason": None}


# ---- rule 2: eating 2s and 3s ----------------------------------------------------------------


def test_newberry_diagram_i_a_bar_in_house_8_stops_the_chain():
    """Rule 2, diagram (i) (001, 'Ayoyayo': '"A," by playing from 5 into 6,7,8,9, and 10, can
    'eat' from 10 and 9, but not from 7, since, although 7 contains two seeds, a bar is formed
    by a "non-eatable" total in 8'). House 5 holds 5 seeds, houses 7, 8, 9, 10 hold 1, 3, 1, 2
    (made 2, 4, 2, 3) and house 12 an odu of 12: A eats 3 + 2 = 5."""
    game = position(
        "ayoyayo",
        houses(h1=2, h3=1, h4=3, h5=5, h6=1, h7=1, h8=3, h9=1, h10=2, h11=1, h12=12),
        [8, 8],
        to_move=0,
    )
    game.step(4)  # A plays from house 5
    assert outcome(game) == {
        "pits": houses(h1=2, h3=1, h4=3, h6=2, h7=2, h8=4, h11=1, h12=12),
        "stores": [13, 8],
        "to_move": 1,
        "end_reason": None,
    }


def test_newberry_diagram_ii_at_most_five_houses_are_emptied():
    """Rule 2, diagram (ii) (001, 'Ayoyayo': 'if "A" plays from 4, then all the houses on the
    opposite side will be vulnerable ... but "A" will take only those in 12,11,10, 9, and 8 in
    that order, leaving the contents of 7 for his opponent to carry on with'). House 4 holds 8
    seeds, so they reach house 12; B's houses 7..12 hold 1, 2, 1, 2, 1, 2 and are made 2s and
    3s. A takes 3 + 2 + 3 + 2 + 3 = 13; the 2 in house 7 stay, and B, to move, may lift them."""
    game = position(
        "ayoyayo",
        houses(h1=3, h2=1, h4=8, h5=2, h6=1, h7=1, h8=2, h9=1, h10=2, h11=1, h12=2),
        [12, 12],
        to_move=0,
    )
    game.step(3)  # A plays from house 4
    assert outcome(game) == {
        "pits": houses(h1=3, h2=1, h5=3, h6=2, h7=2),
        "stores": [25, 12],
        "to_move": 1,
        "end_reason": None,
    }
    assert 0 in game.legal_actions()


def test_max_houses_option_six_empties_the_whole_row_and_the_opponent_retaliates():
    """Rule 2, other reading (max_houses=6) on diagram (ii): A takes all six houses (15 seeds),
    which Newberry's limit exists to prevent; B is left with no seeds and, by rule 4, takes the
    9 seeds on A's side."""
    game = position(
        "ayoyayo",
        houses(h1=3, h2=1, h4=8, h5=2, h6=1, h7=1, h8=2, h9=1, h10=2, h11=1, h12=2),
        [12, 12],
        to_move=0,
        options={"max_houses": 6},
    )
    game.step(3)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [27, 21],
        "to_move": None,
        "end_reason": "no_move",
    }


def test_chain_does_not_eat_on_the_movers_own_side():
    """Rule 2 (001, 'Ayoyayo': 'He does not 'eat' in houses 11 and 12 as these are on his own
    side of the board'): B plays six seeds from house 10 into 11, 12, 1, 2, 3, 4; houses 4..1
    are made 3, 3, 2, 2 and eaten (10 seeds); houses 11 and 12, made 2 and 3, are B's own and
    stay."""
    game = position(
        "ayoyayo",
        houses(h1=1, h2=1, h3=2, h4=2, h6=4, h8=1, h10=6, h11=1, h12=2),
        [14, 14],
        to_move=1,
    )
    game.step(3)  # B plays from house 10
    assert outcome(game) == {
        "pits": houses(h6=4, h8=1, h11=2, h12=3),
        "stores": [14, 24],
        "to_move": 0,
        "end_reason": None,
    }


@pytest.mark.parametrize(
    ("max_houses", "expected"),
    [
        (
            5,
            {
                "pits": houses(h1=2, h8=1, h11=2, h12=3),
                "stores": [13, 27],
                "to_move": 0,
                "end_reason": None,
            },
        ),
        (
            6,
            {"pits": [0] * 12, "stores": [19, 29], "to_move": None, "end_reason": "no_move"},
        ),
    ],
)
def test_newberry_b_plays_from_house_10_into_a_string_of_ones_and_twos(max_houses, expected):
    """Rule 2, Newberry's last example (001, 'Ayoyayo': B 'may capture as many as 16 seeds,
    including the six played by himself, if he plays from 10 ... He does not 'eat' in houses
    11 and 12 as these are on his own side').

    The board of that diagram is not in the text; assumed here: house 10 holds 8 seeds, so
    they fall in B's houses 11 and 12 (made 2 and 3, not eaten) and in A's six houses, which
    hold the string 1, 1, 2, 2, 2, 2 and are made 2, 2, 3, 3, 3, 3: sixteen seeds, six of them
    B's. Sixteen seeds in 2s and 3s need six houses (five hold at most 15), so the example
    goes beyond the five-house limit of diagram (ii): under that limit (the default) B eats
    houses 6..2, 14 seeds, and house 1 keeps its 2; with max_houses=6 B eats all 16, and A,
    left with no seeds, takes the 6 left on B's side (rule 4)."""
    game = position(
        "ayoyayo",
        houses(h1=1, h2=1, h3=2, h4=2, h5=2, h6=2, h8=1, h10=8, h11=1, h12=2),
        [13, 13],
        to_move=1,
        options={"max_houses": max_houses},
    )
    game.step(3)  # B plays from house 10
    assert outcome(game) == expected


def test_only_the_last_seed_starts_a_capture():
    """Rule 2 (001, 'Ayoyayo': 'Otherwise the fact that he has made several twos and threes
    during his move does not count'): A's last seed makes 4 in house 8; the 2 made in house 7
    is not taken."""
    game = position(
        "ayoyayo",
        houses(h1=2, h2=1, h4=4, h5=1, h7=1, h8=3, h9=2, h10=2, h12=5),
        [13, 14],
        to_move=0,
    )
    game.step(3)  # A plays 4 seeds from house 4 into 5, 6, 7, 8
    assert outcome(game) == {
        "pits": houses(h1=2, h2=1, h5=2, h6=1, h7=2, h8=4, h9=2, h10=2, h12=5),
        "stores": [13, 14],
        "to_move": 1,
        "end_reason": None,
    }


# ---- rule 3: the odu transfer ----------------------------------------------------------------


ODU_POSITION = houses(h1=3, h3=1, h4=9, h5=2, h6=1, h7=2, h8=2, h9=1, h11=3, h12=4)


def test_odu_moves_a_house_en_bloc_to_the_next_own_house_once_a_game():
    """Rule 3 (001, 'Ayoyayo': 'a special move consisting of the transfer, en bloc, of the
    seeds in a house to the one next to it, is allowed each player once during a game'). A
    moves the 9 seeds of house 4 into house 5 (action 6 + 3); that is A's turn. B still has
    the move; A has used it: actions 6..11 are refused to A from then on."""
    game = position("ayoyayo", ODU_POSITION, [10, 10], to_move=0)
    # Lifts of the seeded houses; transfers of the seeded houses 1, 3, 4, 5 (house 6 has no
    # next house of A's own).
    assert game.legal_actions() == [0, 2, 3, 4, 5, 6, 8, 9, 10]
    game.step(9)
    assert outcome(game) == {
        "pits": houses(h1=3, h3=1, h5=11, h6=1, h7=2, h8=2, h9=1, h11=3, h12=4),
        "stores": [10, 10],
        "to_move": 1,
        "end_reason": None,
    }
    snapshot = game.snapshot()
    assert snapshot["special_used"] == [1, 0]
    assert snapshot["stall_plies"] == 1
    assert game.legal_actions() == [0, 1, 2, 4, 5, 6, 7, 8, 10]
    game.step(0)  # B lifts house 7: 2 seeds into 8, 9
    assert game.legal_actions() == [0, 2, 4, 5]
    with pytest.raises(IllegalActionError, match=r"legal actions: \[0, 2, 4, 5\]"):
        game.step(6)


def test_odu_either_option_also_moves_to_the_previous_house():
    """Rule 3, other reading (odu='either': 'the one next to it' on either hand): actions
    12..17 move house 1..6 to the house before it (house 1 has none); A moves house 4's 9 seeds
    into house 3. The action space is Discrete(18)."""
    game = position("ayoyayo", ODU_POSITION, [10, 10], to_move=0, options={"odu": "either"})
    assert game.n_actions == 18
    assert game.legal_actions() == [0, 2, 3, 4, 5, 6, 8, 9, 10, 14, 15, 16, 17]
    game.step(15)
    assert outcome(game) == {
        "pits": houses(h1=3, h3=10, h5=2, h6=1, h7=2, h8=2, h9=1, h11=3, h12=4),
        "stores": [10, 10],
        "to_move": 1,
        "end_reason": None,
    }
    assert game.snapshot()["special_used"] == [1, 0]


def test_odu_none_option_has_no_transfer():
    """Rule 3, other reading (odu='none'; Newberry: 'A win can be brought about without using
    this move'): only the six lifts, Discrete(6)."""
    game = position("ayoyayo", ODU_POSITION, [10, 10], to_move=0, options={"odu": "none"})
    assert game.n_actions == 6
    assert game.legal_actions() == [0, 2, 3, 4, 5]


@pytest.mark.parametrize(("odu", "size"), [("forward", 12), ("either", 18), ("none", 6)])
def test_pettingzoo_action_space_holds_the_odu_actions(odu, size):
    """Rule 3 in the environment: pettingzoo.make("aec", "mancala/ayoyayo-v1") has Discrete(12)
    actions (six lifts, six transfers), Discrete(18) with odu='either', Discrete(6) without."""
    env = pettingzoo.make("aec", "mancala/ayoyayo-v1", odu=odu)
    env.reset(seed=0)
    assert env.action_space("player_0").n == size
    mask = env.observe("player_0")["action_mask"]
    assert mask.tolist() == ([1] * 6 + [1] * 5 + [0] + [0, 1, 1, 1, 1, 1])[:size]


# ---- rule 4: retaliation ---------------------------------------------------------------------


def test_a_player_emptied_by_a_capture_takes_all_the_seeds_on_the_other_side():
    """Rule 4 (001, 'Ayoyayo': 'A player, as a result of his opponent's last move, is left with
    no seeds on his own side of the board and can retaliate by taking all the seeds left on
    the other side'): B plays house 11 into 12, 1, 2 and eats houses 2 and 1 (5 seeds), all A
    had; A takes the 7 seeds on B's side and wins 25-23."""
    game = position(
        "ayoyayo",
        houses(h1=1, h2=2, h7=2, h9=3, h11=3, h12=1),
        [18, 18],
        to_move=1,
    )
    game.step(4)  # B plays from house 11
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [25, 23],
        "to_move": None,
        "end_reason": "no_move",
    }
    assert game.winner() == 0


def test_a_player_left_without_seeds_retaliates_unless_the_opponent_gives_some():
    """Rule 4: A sows his last seed into B's house 7. If B then plays a move that gives A no
    seeds (house 7 into 8..11), A is left with none and takes the 10 seeds on B's side; if B
    plays house 12 into 1..4, play goes on."""
    start = houses(h6=1, h7=3, h9=2, h12=4)
    game = position("ayoyayo", start, [19, 19], to_move=0)
    game.step(5)
    assert outcome(game) == {
        "pits": houses(h7=4, h9=2, h12=4),
        "stores": [19, 19],
        "to_move": 1,
        "end_reason": None,
    }
    fed = game.copy()
    game.step(0)  # B's house 7: four seeds into 8, 9, 10, 11
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [29, 19],
        "to_move": None,
        "end_reason": "no_move",
    }
    fed.step(5)  # B's house 12: four seeds into A's houses 1..4
    assert outcome(fed) == {
        "pits": houses(h1=1, h2=1, h3=1, h4=1, h7=4, h9=2),
        "stores": [19, 19],
        "to_move": 0,
        "end_reason": None,
    }


def test_the_few_seeds_end_wins_over_the_retaliation():
    """Rules 4 and 5 on one ply: A's house 6 (2) makes 3 and 2 in B's houses 7 and 8 and eats
    both, B's last seeds. B could retaliate, but A is left with one seed and B with none: 'two
    seeds or less on either side' ends the game first, each side to its owner (A keeps his
    seed; by retaliation B would take it)."""
    game = position("ayoyayo", houses(h1=1, h6=2, h7=2, h8=1), [21, 21], to_move=0)
    game.step(5)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [27, 21],
        "to_move": None,
        "end_reason": "few_seeds",
    }


# ---- rule 5: the end with two seeds or fewer -------------------------------------------------


def test_game_ends_when_both_sides_hold_two_seeds_or_fewer():
    """Rule 5 (001, 'Ayoyayo': 'The game also ends when so few seeds remain as to make further
    play pointless, e.g., when there are two seeds or less on either side. At the end of the
    game the seeds are counted ... the player who cannot fill his own six houses being the
    loser'): A's seed makes 2 in house 7 and eats it; then each side holds 2, the game ends,
    each player counts the seeds on his side with his winnings, and A has 25."""
    game = position("ayoyayo", houses(h5=2, h6=1, h7=1, h10=1, h12=1), [21, 21], to_move=0)
    game.step(5)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [25, 23],
        "to_move": None,
        "end_reason": "few_seeds",
    }
    assert game.winner() == 0


@pytest.mark.parametrize(
    ("end_rows", "expected"),
    [
        (
            "both",
            {
                "pits": houses(h5=2, h7=1, h9=2, h10=1, h12=1),
                "stores": [20, 21],
                "to_move": 1,
                "end_reason": None,
            },
        ),
        (
            "either",
            {"pits": [0] * 12, "stores": [22, 26], "to_move": None, "end_reason": "few_seeds"},
        ),
    ],
)
def test_end_rows_option_either_ends_when_one_side_holds_two_or_fewer(end_rows, expected):
    """Rule 5, the two readings of 'two seeds or less on either side': A's move leaves 2 on his
    side and 5 on B's. Read as 'on each side' (the default) play goes on; with
    end_rows='either' the game ends and each player takes the seeds on his side."""
    game = position(
        "ayoyayo",
        houses(h5=2, h6=1, h9=2, h10=1, h12=1),
        [20, 21],
        to_move=0,
        options={"end_rows": end_rows},
    )
    game.step(5)  # house 6 into house 7 (made 1: nothing eaten)
    assert outcome(game) == expected


# ---- every game ends -------------------------------------------------------------------------


def test_a_line_without_captures_is_stopped_after_stall_limit_plies():
    """Every game ends (stall_limit, default 100): six seeds, A always lifting his highest
    seeded house and B his lowest; no seed leaves the board for 100 plies, so the game is
    stopped and each player takes the seeds on his side (2 and 4)."""
    game = position("ayoyayo", houses(h1=5, h6=1), [21, 21], to_move=0)
    for _ in range(99):
        lifts = [a for a in game.legal_actions() if a < 6]
        game.step(lifts[-1] if game.to_move == 0 else lifts[0])
        assert not game.over and sum(game.pits) == 6
    assert outcome(game) == {
        "pits": houses(h2=1, h5=1, h10=1, h12=3),
        "stores": [21, 21],
        "to_move": 1,
        "end_reason": None,
    }
    game.step(3)  # B's house 10 into house 11
    assert game.move_number == 100
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [23, 25],
        "to_move": None,
        "end_reason": "stall",
    }


def test_every_game_ends_within_49_times_stall_limit_plies():
    """The bound: seeds leave the board at most 48 times, and at most stall_limit plies pass
    between two such plies, so a game lasts at most 49 * stall_limit plies. Random games (odu
    moves included) with stall_limit = 3 all end within 147 plies."""
    rng = np.random.default_rng(11)
    for _ in range(200):
        game = Game("ayoyayo", stall_limit=3, odu="either")
        while not game.over:
            assert game.move_number < 49 * 3
            game.step(int(rng.choice(game.legal_actions())))
        assert sum(game.stores) == 48
