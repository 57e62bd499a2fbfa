"""restore() refuses every snapshot the engine cannot play safely, with the field named.

The compiled engine does no bounds checks: a field out of range would make it write past the
state or loop for ever. The fuzz test runs `restore_fuzz.py` in a subprocess with numba's
bounds checking on and a timeout; the other tests pin the snapshots found to crash or hang the
engine before restore() checked them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from restore_fuzz import reach_phase

from mancala_env import Game, SnapshotError
from mancala_env.engine.cache_folder import cache_folder, unsafe

ROOT = Path(__file__).resolve().parents[2]
FUZZ_EXAMPLES = 1500


def run_python(code: list[str], timeout: float, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *code],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def bounds_checked_cache() -> Path:
    """numba's cache of the bounds-checked kernels, a folder of their own in the suite's cache
    folder: each entry is stamped with whether it checks bounds (`engine.jit`), so in numba's
    usual cache the fuzz's compile and the other tests' would replace each other's."""
    folder = cache_folder() / "numba-boundscheck"
    folder.mkdir(mode=0o700, exist_ok=True)
    assert unsafe(folder) is None, unsafe(folder)
    return folder


@pytest.mark.integration
def test_hostile_snapshots_are_refused_or_played_safely_under_bounds_checking():
    """Mutated real snapshots of every rule set and phase: each one is refused with a
    SnapshotError, or played on to its end (or 200 plies) keeping its seeds, its observation
    inside the Box and a legal move; an index out of range or a hang fails the test."""
    result = run_python(
        ["tests/restore_fuzz.py", str(FUZZ_EXAMPLES)],
        timeout=600,
        NUMBA_BOUNDSCHECK="1",
        NUMBA_CACHE_DIR=str(bounds_checked_cache()),
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    counts = json.loads(result.stdout.strip().splitlines()[-1])
    print(counts)
    assert counts["tried"] == FUZZ_EXAMPLES
    assert counts["refused"] + counts["accepted"] == FUZZ_EXAMPLES
    assert counts["refused"] > 0 and counts["accepted"] > 0 and counts["plies"] > 0


def test_closed_pits_where_pits_never_close_are_refused_without_a_hang():
    """Ayoayo with only the mover's pit open used to spin for ever inside restore(), and
    Oware inside step(0)."""
    code = (
        "from mancala_env import Game, SnapshotError\n"
        "for name in ('ayoayo', 'oware'):\n"
        "    game = Game(name)\n"
        "    snap = {**game.snapshot(), 'closed': [0] + [1] * 11}\n"
        "    try:\n"
        "        game.restore(snap)\n"
        "    except SnapshotError as error:\n"
        "        print(error)\n"
    )
    result = run_python(["-c", code], timeout=300)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2 and all("'closed' must be [0, 0" in line for line in lines)
    assert "in ayoayo (its pits never close)" in lines[0]


def test_a_row_of_closed_pits_is_refused_where_pits_close():
    game = Game("rio_kadalis", match=True)
    snap = game.snapshot()
    snap.update(closed=[1] * 6 + [0] * 6, pits=[0] * 6 + [8] * 6)
    with pytest.raises(SnapshotError, match="every pit of player_0's row is closed"):
        game.restore(snap)


def test_chieftains_borrow_with_a_piece_past_the_slots_is_refused():
    """move.piece = 48 with the first piece's 'found' set made the engine write past the end
    of the state."""
    snap = reach_phase("mighty_men", "borrow")
    Game.from_snapshot(snap)  # the real position is accepted
    snap["move"]["piece"] = 48
    snap["pieces"][0]["found"] = 5
    with pytest.raises(SnapshotError, match=r"'move.piece' must be an integer from 0 to 9"):
        Game.from_snapshot(snap)


@pytest.mark.parametrize("flock", [-1, 48])
def test_shepherds_decision_with_his_pit_out_of_the_board_is_refused(flock):
    """move.flock -1 or 48 made the Shepherd's three pits lose pieces (48 became 47 or 44)."""
    snap = reach_phase("mighty_men", "flock_count")
    Game.from_snapshot(snap)
    snap["move"]["flock"] = flock
    with pytest.raises(SnapshotError, match="move.flock"):
        Game.from_snapshot(snap)


def test_a_shepherd_pit_that_is_not_his_is_refused():
    snap = reach_phase("mighty_men", "flock_count")
    game = Game.from_snapshot(snap)
    snap["move"]["piece"] = (snap["move"]["piece"] + 1) % 10
    with pytest.raises(SnapshotError, match="'phase' and 'move.piece'"):
        game.restore(snap)


def test_a_negative_hand_with_an_extra_seed_on_the_board_is_refused():
    """move.hand = -1 with the hand's seeds and one more on the board ended the game 49:0."""
    snap = reach_phase("mighty_men", "drop")
    hand = snap["move"]["hand"]
    snap["move"]["hand"] = -1
    pit = next(p for p in range(12) if snap["pits"][p] and p != snap["move"]["origin"])
    snap["pits"][pit] += hand + 1
    with pytest.raises(SnapshotError, match=r"'move.hand' must be an integer from 0 to 48"):
        Game.from_snapshot(snap)


def test_mangala_setting_out_past_its_last_hole_is_refused():
    """setup[1] = 3 while setting out: the setting out never ended and the observation
    wrapped to -93."""
    game = Game("mangala")
    snap = game.snapshot()
    assert snap["phase"] == "set_out"
    snap["setup"][1] = 3
    with pytest.raises(SnapshotError, match=r"setup\[1\] \(holes filled\)' must be .* 0 to 2"):
        game.restore(snap)


@pytest.mark.parametrize("bad", [None, [1, 2], "oware", 3])
def test_a_snapshot_that_is_not_a_dict_is_refused(bad):
    with pytest.raises(SnapshotError, match="a snapshot is a dict"):
        Game("oware").restore(bad)
    with pytest.raises(SnapshotError, match="a snapshot is a dict"):
        Game.from_snapshot(bad)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"move_number": 2**31}, r"'move_number' must be an integer from 0 to 2147418111"),
        ({"stall_plies": -1}, "'stall_plies' must be an integer from 0"),
        # a counter at the int32 limit would wrap round as the game counts on
        ({"turns": [0, 2**31 - 1]}, "'turns' must be an integer from 0 to 2147418111"),
        ({"options": {"grand_slam": "capture"}}, r"'options' differ .* grand_slam='capture'"),
        ({"options": {"stall_limit": 10**12}}, "'options': option stall_limit"),
        ({"owners": [1] * 6 + [0] * 6}, r"'owners' must be .* in oware \(its pits never"),
        ({"uur": [0] + [None] * 10 + [0]}, r"'uur' must be .* in oware \(it has no pregnant"),
        ({"round": 1}, "'round' must be an integer from 0 to 0"),
        ({"setup": [0, 1] + [0] * 6}, r"'setup' must be .* in oware \(it has no setting out"),
        ({"winner": 1}, "'winner' must be one of null"),
        ({"pieces": []}, "snapshot has field\\(s\\) pieces that oware does not use"),
        ({"pits": [4.0] * 12}, "'pits' must be an integer from 0 to 48, got 4.0"),
        ({"to_move": True}, "'to_move' must be one of 0, 1, null, got True"),
    ],
)
def test_fields_out_of_range_or_unused_by_the_rule_set_are_refused(change, message):
    game = Game("oware")
    with pytest.raises(SnapshotError, match=message):
        game.restore({**game.snapshot(), **change})


@pytest.mark.parametrize("place", [[], {}, 3.0, True, "pit"])
def test_a_piece_placed_nowhere_a_piece_can_be_is_refused(place):
    game = Game("mighty_men", setting_out="random")
    snap = game.snapshot()
    snap["pieces"][8]["at"] = place
    with pytest.raises(SnapshotError, match="a piece's 'at' must be a pit 0..11"):
        game.restore(snap)


def test_pregnant_pits_come_in_facing_pairs():
    game = Game("layli_goobalay")
    snap = {**game.snapshot(), "uur": [0] + [None] * 11}
    with pytest.raises(SnapshotError, match="facing pairs"):
        game.restore(snap)


def test_a_snapshot_written_with_the_earlier_name_of_a_field_restores():
    """'plies_since_capture' was the name of 'stall_plies' (the count is not always since a
    capture: 10 Mighty Men's counts since the board's last new low)."""
    game = Game("oware")
    old = {**game.snapshot(), "plies_since_capture": 42}
    del old["stall_plies"]
    game.restore(old)
    assert game.snapshot()["stall_plies"] == 42


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("mighty_men", {"pieces": "none"}),
        ("mighty_men_calm", {"pieces": ""}),
        ("mighty_men", {"pieces": "none", "setting_out": "fixed"}),
    ],
)
def test_a_pieces_game_without_pieces_restores_its_own_snapshots(variant, options):
    """With no special pieces there is no setting out and no side to choose: the snapshot's
    setup[2] (the side chosen) is 0, which restore used to refuse ('must be one of 1, 2')."""
    import numpy as np

    game = Game(variant, **options)
    game.reset(np.random.default_rng(3))
    rng = np.random.default_rng(4)
    for ply in range(7):
        if ply > 0:  # the start first: move 0 used to be refused ('move.last_piece')
            game.step(int(rng.choice(game.legal_actions())))
        snap = game.snapshot()
        assert snap["setup"][2] == 0
        twin = Game(variant, **options)
        twin.restore(snap)
        assert twin.snapshot() == snap


@pytest.mark.parametrize(
    "key", ["variant", "to_move", "end_reason", "winner", "round_starter", "phase"]
)
@pytest.mark.parametrize("value", [[1, 2], [], [0]])
def test_an_array_in_a_named_field_is_refused_as_a_snapshot_error(key, value):
    """A numpy array where a name or a player is due is refused naming the field (comparing it
    to each allowed value used to raise numpy's 'truth value of an array is ambiguous')."""
    import numpy as np

    game = Game("oware")
    with pytest.raises(SnapshotError, match=f"'{key}' must be|snapshot is of variant"):
        game.restore({**game.snapshot(), key: np.array(value)})


@pytest.mark.parametrize(
    ("variant", "change"),
    [
        ("oware", {"move_number": 2**30}),
        ("oware", {"turns": [2**30 + 5, 0]}),
        ("oware", {"move_number": 2**31 - 2**17 - 30}),  # 20 moves below the limit
        ("mighty_men", {"move_number": 2**30 + 1}),
    ],
)
def test_every_snapshot_a_restored_game_makes_restores(variant, change):
    """A game restored with a count as high as a snapshot may hold plays on and each of its
    snapshots restores (one at move_number 2**30 used to be refused one move later)."""
    import numpy as np

    game = Game(variant)
    game.reset(np.random.default_rng(1))
    game.restore({**game.snapshot(), **change})
    rng = np.random.default_rng(2)
    for _ in range(20):
        if game.over:
            break
        game.step(int(rng.choice(game.legal_actions())))
        Game(variant).restore(game.snapshot())


def test_a_game_with_its_counts_at_the_limit_refuses_a_move_naming_the_count():
    """A count a snapshot may hold but the game cannot count on from stops the next move with
    the count named, rather than wrap round to a negative number the engine then plays."""
    from mancala_env.snapshot_fields import COUNTER_MAX

    game = Game("oware")
    game.restore({**game.snapshot(), "move_number": COUNTER_MAX})
    before = game.snapshot()
    with pytest.raises(ValueError, match="count 'move_number' is 2,147,418,111, past the"):
        game.step(int(game.legal_actions()[0]))
    assert game.snapshot() == before
    Game("oware").restore(before)
