"""The golden game records replay move for move (see `tests/golden.py`): a change of behaviour
shows here, naming the rule set, the game and the ply. Rewrite the records on purpose only,
with the next version of the rule set whose play changed."""

import pytest
from golden import GOLDEN_DIR, playable_versions, read_record, record_path, replay_difference

from mancala_env.kernels import SHARED_SWITCH
from mancala_env.variants import VARIANTS

VERSIONS = [(name, version) for name, v in VARIANTS.items() for version in playable_versions(v)]
# the shared kernels the other tests play on, and the rule sets' own, which users run
KERNELS = [
    pytest.param("1", id="shared"),
    pytest.param("0", id="own", marks=pytest.mark.integration),
]


@pytest.mark.parametrize("shared", KERNELS)
@pytest.mark.parametrize("name, version", VERSIONS, ids=[f"{n}-v{v}" for n, v in VERSIONS])
def test_recorded_games_replay_unchanged(name, version, shared, monkeypatch):
    """Every playable version replays its own record: an earlier version (v1 of the relaying
    rule sets, relay_limit=None) plays exactly as it did."""
    monkeypatch.setenv(SHARED_SWITCH, shared)
    variant = VARIANTS[name]
    games = read_record(record_path(variant, version))
    assert len(games) >= 5
    differences = [replay_difference(variant, n, game, version) for n, game in enumerate(games)]
    assert [d for d in differences if d] == []


def test_every_record_belongs_to_a_registered_version():
    """One record a playable rule-set version; records of retired versions are removed."""
    expected = {record_path(VARIANTS[name], version).name for name, version in VERSIONS}
    assert {p.name for p in GOLDEN_DIR.glob("*.jsonl")} == expected


def test_a_changed_move_is_reported_with_its_ply():
    variant = VARIANTS["oware"]
    header, *lines = read_record(record_path(variant))[0]
    lines[3] = {**lines[3], "stores": [99, 99]}
    difference = replay_difference(variant, 0, [header, *lines])
    assert difference.startswith(f"oware-v{variant.version} game 0")
    assert "ply 3: stores: recorded [99, 99]" in difference
