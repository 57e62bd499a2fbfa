"""The mechanics' declarations (`engine.mechanics`): the layout, the position hash, the
snapshot and the observation derived from them."""

import numpy as np
import pytest

from mancala_env.engine import board
from mancala_env.engine import layout as L
from mancala_env.engine.mechanics import MECHANICS, Block, Mechanic, state_offsets
from mancala_env.engine.position import POSITION_SLOTS
from mancala_env.game import Game
from mancala_env.snapshot import PIT_FIELDS, SnapshotError

BLOCKS = [block for mechanic in MECHANICS for block in mechanic.blocks]


def test_the_layout_exports_each_declared_block_at_its_offset():
    offsets = state_offsets()
    assert [getattr(L, block.name) for block in BLOCKS] == [offsets[b.name] for b in BLOCKS]
    assert sum(block.size for block in BLOCKS) == L.STATE_SIZE


def test_blocks_follow_one_another_without_gaps():
    for block, after in zip(BLOCKS, BLOCKS[1:], strict=False):
        assert getattr(L, after.name) == getattr(L, block.name) + block.size


def test_two_blocks_of_one_name_are_refused():
    twice = Mechanic("twice", blocks=(Block("FLAG"), Block("FLAG")))
    with pytest.raises(ValueError, match="two blocks of the state are named FLAG"):
        state_offsets((twice,))


def test_the_position_reads_every_slot_of_the_hashed_blocks_once():
    hashed = {getattr(L, b.name) + i for b in BLOCKS if b.hashed for i in range(b.size)}
    assert sorted(POSITION_SLOTS.tolist()) == sorted(hashed)
    assert len(set(POSITION_SLOTS.tolist())) == len(POSITION_SLOTS)


def test_every_named_predicate_is_one_of_the_boards():
    names = [m.observed for m in MECHANICS if m.observed] + [f.in_use for f in PIT_FIELDS]
    assert names and all(callable(getattr(board, name, None)) for name in names)


@pytest.mark.parametrize("field", PIT_FIELDS, ids=lambda field: field.key)
def test_each_pit_field_round_trips_every_value_it_may_hold(field):
    for value in field.codes:
        assert field.shown(field.stored(value)) == value


def test_a_pit_field_a_rule_set_does_not_use_is_refused_in_one_line():
    game = Game("oware")
    snapshot = game.snapshot()
    snapshot["closed"] = [1] + [0] * 11
    with pytest.raises(SnapshotError, match=r"^'closed' must be \[0, 0.*its pits never close"):
        game.restore(snapshot)


def test_pregnant_pits_round_trip_through_a_snapshot():
    game = Game("layli_goobalay")
    snapshot = game.snapshot()
    snapshot["uur"] = [None] * 3 + [1] + [None] * 4 + [1] + [None] * 3
    game.restore(snapshot)
    assert game.state[L.UUR + 3] == game.state[L.UUR + 8] == 2
    assert not np.any(np.delete(game.state[L.UUR : L.UUR + L.MAX_PITS], [3, 8]))
    assert game.snapshot()["uur"] == snapshot["uur"]
