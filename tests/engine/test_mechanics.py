"""The mechanics' declarations (`engine.mechanics`): the layout, the position hash, the
snapshot and the observation derived from them."""

import numpy as np
import pytest

from mancala_env import snapshot as snapshot_module
from mancala_env import state_fields
from mancala_env.engine import board
from mancala_env.engine import layout as L
from mancala_env.engine.mechanics import MECHANICS, Block, Mechanic, StateFields, state_offsets
from mancala_env.engine.position import POSITION_SLOTS
from mancala_env.game import Game
from mancala_env.snapshot import (
    FIELDS,
    PIT_FIELDS,
    RULE_SET_FIELDS,
    SnapshotError,
    declared_fields,
    known_fields,
    written_fields,
)
from mancala_env.variants import VARIANTS, get_variant

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


def test_every_named_reader_writer_and_predicate_of_a_state_field_exists():
    fields = [f for f in FIELDS if isinstance(f, StateFields)]
    assert fields
    for field in fields:
        assert callable(getattr(state_fields, field.read, None)), field.read
        assert callable(getattr(state_fields, field.write, None)), field.write
        assert field.known_when is None or callable(getattr(board, field.known_when, None))


def test_no_two_declared_fields_share_a_key():
    keys = [*RULE_SET_FIELDS, *(key for field in FIELDS for key in field.keys)]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_writer_writes_exactly_the_known_fields_in_the_declared_order(name):
    variant = get_variant(name)
    params = variant.params(variant.options())
    written = written_fields(np.zeros(L.STATE_SIZE, dtype=np.int32), params)
    assert [*RULE_SET_FIELDS, *written] == known_fields(params)


def test_every_declared_key_is_written_by_some_rule_set():
    written = set()
    for variant in VARIANTS.values():
        params = variant.params(variant.options())
        written |= set(written_fields(np.zeros(L.STATE_SIZE, dtype=np.int32), params))
    assert written == {key for field in FIELDS for key in field.keys}


def test_a_games_snapshot_holds_every_declared_field_and_each_is_read_back():
    """10 Mighty Men knows every declared field: each is in its snapshot, and a restore reads
    each one (a value no field takes is refused naming it)."""
    game = Game("mighty_men")
    snapshot = game.snapshot()
    assert list(snapshot) == known_fields(game.params)
    assert set(snapshot) == {*RULE_SET_FIELDS, *(key for field in FIELDS for key in field.keys)}
    for key in (key for field in FIELDS for key in field.keys):
        with pytest.raises(SnapshotError, match=f"'{key}'"):
            game.restore({**snapshot, key: "no value of any field"})


def test_a_made_up_mechanics_field_is_known_written_and_read(monkeypatch):
    """A mechanic's new field needs only its declaration and its reader and writer: the known
    fields, Game.snapshot and restore take it from there."""
    read = []
    monkeypatch.setattr(
        state_fields, "read_tired", lambda snap, s, rules: read.append(snap["tired"]), raising=False
    )
    monkeypatch.setattr(
        state_fields, "write_tired", lambda state, params: {"tired": [0] * 12}, raising=False
    )
    tired = Mechanic(
        "tired_houses",
        blocks=(Block("TIRED", 12),),
        snapshot_fields=(StateFields(("tired",), "read_tired", "write_tired"),),
    )
    monkeypatch.setattr(snapshot_module, "FIELDS", declared_fields((*MECHANICS, tired)))
    game = Game("oware")
    assert known_fields(game.params)[-1] == "tired"
    snapshot = game.snapshot()
    assert snapshot["tired"] == [0] * 12
    game.restore({**snapshot, "tired": [1] + [0] * 11})
    assert read == [[1] + [0] * 11]


def test_a_field_known_only_where_its_predicate_holds_is_refused_elsewhere():
    oware, mighty_men = Game("oware"), Game("mighty_men")
    pieces = next(f for f in FIELDS if isinstance(f, StateFields) and f.known_when == "has_pieces")
    assert not set(pieces.keys) & set(known_fields(oware.params))
    assert set(pieces.keys) <= set(known_fields(mighty_men.params))
    with pytest.raises(SnapshotError, match="snapshot has field\\(s\\) board_low that oware"):
        oware.restore({**oware.snapshot(), "board_low": 48})
