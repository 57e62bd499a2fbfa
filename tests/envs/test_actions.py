"""A rule set's actions are the blocks it lists (`mancala_env.variants.actions`): a new rule set
with a block of its own needs nothing else for the action space, the words, the keyboard."""

import numpy as np

from mancala_env import Game
from mancala_env.agents.human import move_entries, prompt_text
from mancala_env.engine import layout as L
from mancala_env.variants import VARIANTS
from mancala_env.variants.actions import LIFTS, ActionBlock, describe_blocks, find
from mancala_env.variants.base import Variant

OWARE = VARIANTS["oware"]


def carry_readings(options):
    """Oware's rules, and once a game a house carried en bloc to the next (the odu mechanic)."""
    params = OWARE.readings(options)
    params[L.P_SPECIAL_MOVE] = L.SPECIAL_TRANSFER_FORWARD
    return params


CARRY = ActionBlock(
    "carry",
    size=lambda params: int(params[L.P_HOUSES]),
    describe=lambda value, state, params: f"carries house {value + 1} to house {value + 2}",
    entry=lambda value, state, params: f"c{value + 1}",
)
OWARE_CARRY = Variant(
    name="oware_carry",
    title="Oware with a carry",
    source="this test",
    summary="Oware, and once a game a house carried to the next",
    options_type=OWARE.options_type,
    readings=carry_readings,
    actions=(LIFTS, CARRY),
)


def test_a_rule_set_with_a_block_of_its_own():
    game = Game(OWARE_CARRY, first_player="player_0")
    assert game.n_actions == 12
    assert game.describe_action(2) == "lifts house 3"
    assert game.describe_action(6 + 2) == "carries house 3 to house 4"
    entries = move_entries(game)
    assert entries == {**{str(h + 1): h for h in range(6)}, **{f"c{h}": 5 + h for h in range(1, 6)}}
    assert prompt_text(game, entries) == f"player_0, your move ({' '.join(entries)}): "
    game.step(6 + 0)  # the carry: house 1's four seeds go to house 2
    assert game.pits.tolist() == [0, 8, 4, 4, 4, 4] + [4] * 6
    game.step(0)  # player_1 lifts his house 1
    assert game.to_move == 0 and not any(game.legal_mask()[6:])  # once a game
    table = describe_blocks(OWARE_CARRY.actions, game.params)
    assert [(b["block"], b["first"], b["last"]) for b in table] == [
        ("lift", 0, 5),
        ("carry", 6, 11),
    ]


def test_every_action_of_every_rule_set_belongs_to_one_block():
    for variant in VARIANTS.values():
        params = variant.params(variant.options())
        numbers = []
        for action in range(int(params[L.P_N_ACTIONS])):
            block, value = find(variant.actions, params, action)
            numbers.append((block.name, value))
        assert len(set(numbers)) == len(numbers) == int(params[L.P_N_ACTIONS])
        assert np.all(np.diff([b["first"] for b in describe_blocks(variant.actions, params)]) > 0)


def test_an_option_can_empty_a_block():
    ayoyayo = VARIANTS["ayoyayo"]
    sizes = {
        odu: [
            b["last"] - b["first"] + 1
            for b in describe_blocks(ayoyayo.actions, ayoyayo.params(ayoyayo.options(odu=odu)))
        ]
        for odu in ("none", "forward", "either")
    }
    assert sizes == {"none": [6], "forward": [6, 6], "either": [6, 6, 6]}
