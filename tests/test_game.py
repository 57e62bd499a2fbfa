"""`Game.describe_action` names every kind of action in words."""

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
