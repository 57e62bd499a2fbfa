"""`Game.describe_action` names every kind of action in words."""

import pytest

from mancala_env import Game


def test_every_kind_of_action_is_described():
    assert Game("oware").describe_action(2) == "lifts house 3"
    assert Game("ncho").describe_action(7) == "lifts the opponent's house 2, now theirs"
    ayoyayo = Game("ayoyayo", odu="either")
    assert ayoyayo.describe_action(6 + 2) == "moves house 3 en bloc to house 4 (odu)"
    assert ayoyayo.describe_action(12 + 2) == "moves house 3 en bloc to house 2 (odu)"
    assert Game("jerin").describe_action(12 + 1) == "opens with houses 2 and 3 together"
    mangala = Game("mangala")
    assert mangala.describe_action(6 + 18) == "leaves 18 seeds in the central hole being filled"
    assert mangala.describe_action(6 + 71) == "accepts the position"
    assert mangala.describe_action(6 + 72) == "turns the board round"


def test_end_reason_names_why_the_game_ended():
    game = Game("oware", first_player="player_0")
    assert game.end_reason is None
    pits = [0] * 6 + [0, 0, 0, 1, 0, 0]  # player_1 to move cannot feed player_0
    game.restore({**game.snapshot(), "pits": pits, "stores": [23, 24], "to_move": 1})
    assert game.over and game.end_reason == game.snapshot()["end_reason"] == "cannot_feed"


@pytest.mark.parametrize(
    "variant, option",
    [
        ("jerin", "fours"),
        ("tampoduo", "stranded"),
        ("ayoayo", "ending"),
        ("mighty_men_calm", "unsown_powers"),
    ],
)
def test_a_bad_value_of_a_new_reading_names_the_allowed_ones(variant, option):
    with pytest.raises(ValueError, match=rf"option {option}='sometimes' is not allowed; choose"):
        Game(variant, **{option: "sometimes"})
