"""Oware's rules on other boards: the `houses` and `seeds` options.

The rules of `mancala_env.variants.oware` are written for any row length: the pits of a board of
``N`` houses a player are ``0..N-1`` (player_0's houses 1..N) and ``N..2N-1`` (player_1's), in
the sowing direction, pit ``k`` facing ``2N-1-k``. Each test plays one rule on a real position
of a smaller board. (OpenSpiel's ``oware`` with ``num_houses_per_player`` and
``num_seeds_per_house`` agrees ply by ply: ``python benchmarks/oware_boards.py``.)
"""

import pytest
from positions import outcome, position

from mancala_env import Game
from mancala_env.env import raw_env
from mancala_env.snapshot_fields import SnapshotError

NAMES = ["oware", "kpo", "ouri"]


@pytest.mark.parametrize("name", NAMES)
def test_a_board_of_four_houses_of_three_seeds(name):
    """Rule 1 on a smaller board: `seeds` in each of 2 x `houses` houses, each row owned by the
    player nearest it, one action a house, and an observation of the board's pits."""
    game = Game(name, first_player="player_0", houses=4, seeds=3)
    assert outcome(game) == {"pits": [3] * 8, "stores": [0, 0], "to_move": 0, "end_reason": None}
    assert game.snapshot()["owners"] == [0] * 4 + [1] * 4
    assert game.total_seeds == 24
    assert game.n_actions == 4 and game.legal_actions() == [0, 1, 2, 3]
    env = raw_env(name, first_player="player_0", houses=4, seeds=3)
    env.reset(seed=0)
    names = env.observation_names
    assert names[:8] == [f"own_house_{k}" for k in range(1, 5)] + [
        f"opponent_house_{k}" for k in range(1, 5)
    ]
    assert env.action_space("player_0").n == 4


def test_the_sowing_goes_round_from_the_last_pit_to_the_first():
    """Rule 2: player_1's house 3 (pit 5) is followed by player_0's house 1 (pit 0)."""
    game = position("oware", [1, 0, 4, 1, 1, 1], [8, 8], 0, {"houses": 3})
    game.step(2)
    assert outcome(game)["pits"] == [2, 0, 0, 2, 2, 2]


def test_a_lap_round_a_small_board_passes_over_the_emptied_house():
    """Rule 3 (twelve or more seeds on the source's board): seven seeds from house 1 of a board
    of two houses go round twice and pass over house 1 each time."""
    game = position("oware", [7, 0, 0, 0], [5, 4], 0, {"houses": 2})
    game.step(0)
    assert outcome(game)["pits"] == [0, 3, 2, 2]


def test_a_chain_of_twos_and_threes_runs_back_along_a_row_of_four():
    """Rule 4: the last seed makes two in pit 6; pits 5 and 4 behind it hold three and two:
    all three are taken (seven seeds); pit 7 keeps its five, so it is no grand slam."""
    game = position("oware", [0, 0, 0, 3, 1, 2, 1, 5], [2, 10], 0, {"houses": 4, "seeds": 3})
    game.step(3)
    assert outcome(game) == {
        "pits": [0, 0, 0, 0, 0, 0, 0, 5],
        "stores": [9, 10],
        "to_move": 1,
        "end_reason": None,
    }


def test_a_grand_slam_of_a_row_of_three_captures_nothing():
    """Rule 5: taking pits 4 and 3 would empty player_1's row of three: nothing is taken."""
    game = position("oware", [0, 0, 2, 1, 1, 0], [10, 10], 0, {"houses": 3})
    game.step(2)
    assert outcome(game)["pits"] == [0, 0, 0, 2, 2, 0]
    assert outcome(game)["stores"] == [10, 10]


def test_a_seedless_opponent_on_two_houses_must_be_fed():
    """Rule 6: house 1's single seed stays on player_0's row; only house 2 feeds player_1."""
    game = position("oware", [1, 3, 0, 0], [6, 6], 0, {"houses": 2})
    assert game.legal_actions() == [1]


def test_more_than_half_of_eighteen_seeds_wins():
    """Rule 7 with three houses of three: 18 seeds, so reaching 11 of them ends the game, and
    player_1 takes the seed left on their row."""
    game = position("oware", [0, 0, 1, 2, 1, 0], [8, 6], 0, {"houses": 3, "seeds": 3})
    game.step(2)
    assert outcome(game) == {
        "pits": [0] * 6,
        "stores": [11, 7],
        "to_move": None,
        "end_reason": "majority",
    }
    assert game.winner() == 0


def test_half_of_eighteen_seeds_each_is_a_draw():
    """Rule 7: nine each of eighteen is a draw (the last three taken by a grand slam, which
    captures under grand_slam='capture')."""
    options = {"houses": 3, "seeds": 3, "grand_slam": "capture"}
    game = position("oware", [0, 0, 1, 2, 0, 0], [6, 9], 0, options)
    game.step(2)
    assert outcome(game)["stores"] == [9, 9]
    assert game.over and game.winner() is None


@pytest.mark.parametrize(
    ("option", "value", "allowed"),
    [
        ("houses", 0, "integer from 1 to 6"),
        ("houses", 7, "integer from 1 to 6"),
        ("seeds", 0, "integer from 1 to 8"),
        ("seeds", 2.5, "integer from 1 to 8"),
    ],
)
def test_a_board_size_out_of_range_is_refused(option, value, allowed):
    with pytest.raises(ValueError, match=f"option {option}={value!r} must be an {allowed}"):
        Game("oware", **{option: value})


def test_a_snapshot_of_the_wrong_board_size_is_refused():
    """A snapshot is read against its rule set's board: twelve pits for a board of three
    houses are refused, naming the six expected; the small board's own snapshot restores."""
    game = Game("oware", first_player="player_0", houses=3, seeds=2)
    snapshot = game.snapshot()
    assert len(snapshot["pits"]) == 6
    assert Game.from_snapshot(snapshot).snapshot() == snapshot
    wrong = {**snapshot, "pits": [1] * 12}
    with pytest.raises(SnapshotError, match="'pits' must be a list of 6 integers"):
        Game.from_snapshot(wrong)
    with pytest.raises(SnapshotError, match="'owners' must be a list of 6 integers"):
        Game.from_snapshot({**snapshot, "owners": [0] * 6 + [1] * 6})
