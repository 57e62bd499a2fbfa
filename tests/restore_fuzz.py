"""Hostile snapshots: real snapshots of every rule set and phase, mutated, restored and played on.

Run as a script (``python tests/restore_fuzz.py EXAMPLES``) by `test_restore_hostile.py`, in a
subprocess with numba's bounds checking on, so that an index out of range in a kernel fails with
an IndexError instead of corrupting memory, and under a timeout, so that a hang fails too. It
plays on the kernels the tests play on (`tests/conftest.py`): the shared kernels hold every
mechanic's code, and a derived engine is that code with branches decided, indexing nothing the
shared one does not, so one bounds-checked compile covers every rule set. Each snapshot
restore() accepts is played on with random legal moves, and every position on the way must keep
the rule set's seeds, an observation inside the declared Box and a legal move while the game is
on. The last line printed is the
count of snapshots tried, refused and accepted.
"""

from __future__ import annotations

import copy
import json
import os
import sys
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mancala_env import Game, SnapshotError
from mancala_env.engine import layout as L
from mancala_env.kernels import SHARED_SWITCH
from mancala_env.observation import observation_high, observe
from mancala_env.snapshot import Rules
from mancala_env.variants import VARIANTS

PLAY_ON = 200  # plies played from each accepted snapshot
CONFIGS = [
    *((name, {}) for name in VARIANTS),
    *((name, {"match": True}) for name in ("ncho", "jerin", "rio_kadalis", "layli_goobalay")),
    ("mangala", {"setting_out": "random"}),
    ("mighty_men", {"setting_out": "random"}),
    ("oware", {"houses": 3, "seeds": 2}),  # a smaller board: shorter pit lists
]
HOSTILE_VALUES = [
    *(-(2**63), -(2**31) - 1, -(2**31), -2, -1, 0, 1, 2, 3, 4, 5, 6, 11, 12, 13, 14, 15),
    *(47, 48, 49, 70, 96, 127, 128, 255, 2**31 - 1, 2**31, 2**63),
    *(None, True, False, 1.5, "", "x", "hand", "store_0", "store_1", [], {}, [0] * 12),
    *L.PHASE_NAMES.values(),
    *L.KIND_NAMES.values(),
    *L.END_REASON_NAMES.values(),
]


def phase_snapshots(name: str, options: dict, games: int, seed: int) -> list[dict]:
    """Snapshots of every position of `games` random games of a rule set."""
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(games):
        game = Game(name, **options)
        game.reset(rng)
        while not game.over and game.move_number < 400:
            found.append(game.snapshot())
            game.step(int(rng.choice(game.legal_actions())))
        found.append(game.snapshot())
    return found


def reach_phase(name: str, phase: str, seed: int = 0, **options: Any) -> dict:
    """A snapshot of a random game of `name` in `phase` (10 Mighty Men's decisions)."""
    for attempt in range(500):
        for snap in phase_snapshots(name, options, 1, seed + attempt):
            if snap["phase"] == phase:
                return snap
    raise AssertionError(f"no random game of {name} reached phase {phase!r}")


def snapshot_pool(configs: list[tuple[str, dict]]) -> list[tuple[str, dict, dict]]:
    """Real snapshots of every configuration, with one of each phase its rule set has (the
    rarest first found by playing on)."""
    pool = []
    for name, options in configs:
        snaps = phase_snapshots(name, options, 3, seed=CONFIGS.index((name, options)))
        phases = {s["phase"] for s in snaps}
        for phase in phase_names(Game(name, **options)):
            if phase not in phases:
                snaps.append(reach_phase(name, phase, **options))
        step = max(1, len(snaps) // 60)
        pool += [(name, options, s) for s in snaps[::step]]
        pool += [(name, options, s) for s in snaps if s["phase"] not in ("play",)][:40]
    return pool


def leaves(value: Any, path: tuple = ()) -> list[tuple]:
    """The paths of every field and entry of a snapshot, nested ones too."""
    found = [path] if path else []
    if isinstance(value, dict):
        for key, inner in value.items():
            found += leaves(inner, (*path, key))
    elif isinstance(value, list):
        for k, inner in enumerate(value):
            found += leaves(inner, (*path, k))
    return found


def mutate(snapshot: dict, data: st.DataObject) -> Any:
    """A copy of `snapshot` with one to three hostile changes."""
    snap = copy.deepcopy(snapshot)
    for _ in range(data.draw(st.integers(1, 3))):
        how = data.draw(st.sampled_from(["set", "set", "nudge", "move_seed", "delete", "whole"]))
        if how == "whole":
            return data.draw(st.sampled_from([None, [], "snapshot", 3, [snap]]))
        if how == "move_seed":  # seeds kept: the board alone is changed
            i, j = data.draw(st.integers(0, 11)), data.draw(st.integers(0, 11))
            pits = snap.get("pits")
            if isinstance(pits, list) and len(pits) == 12 and all(type(p) is int for p in pits):
                snap["pits"][i] -= 1
                snap["pits"][j] += 1
            continue
        path = data.draw(st.sampled_from(leaves(snap)))
        parent = snap
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        if how == "delete" and isinstance(parent, dict):
            del parent[key]
        elif how == "nudge" and isinstance(parent[key], int) and not isinstance(parent[key], bool):
            parent[key] += data.draw(st.sampled_from([-1, 1]))
        else:
            parent[key] = copy.deepcopy(data.draw(st.sampled_from(HOSTILE_VALUES)))
    return snap


def phase_names(game: Game) -> list[str]:
    """The phases a game of this rule set can be in."""
    rules = Rules(game.variant, game.options, game.params, game.n_actions)
    return [L.PHASE_NAMES[p] for p in rules.phases()]


def check_position(game: Game, high: np.ndarray) -> None:
    """The invariants every accepted or reached position keeps."""
    held = int(game.pits.sum() + game.stores.sum()) + game.in_hand
    assert held == game.total_seeds, f"{held} seeds, not {game.total_seeds}"
    for player in (0, 1):
        seen = observe(game.state, player, game.params)
        assert seen.shape == high.shape and (seen >= 0).all() and (seen <= high).all(), (
            f"observation {seen.tolist()} outside the Box up to {high.tolist()}"
        )
    assert game.over or game.legal_actions(), "a game still on has no legal move"


def play_on(game: Game, rng: np.random.Generator) -> int:
    """Random legal moves from an accepted position; the plies played."""
    high = observation_high(game.params)
    check_position(game, high)
    plies = 0
    while not game.over and plies < PLAY_ON:
        game.step(int(rng.choice(game.legal_actions())))
        check_position(game, high)
        plies += 1
    Game.from_snapshot(game.snapshot())  # where the engine goes, restore() follows
    return plies


def run(examples: int, configs: list[tuple[str, dict]]) -> dict[str, int]:
    pool = snapshot_pool(configs)
    for _, _, snap in pool:  # every real snapshot is accepted as it is
        Game.from_snapshot(snap)
    counts = {"pool": len(pool), "tried": 0, "refused": 0, "accepted": 0, "plies": 0}

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def hostile(data: st.DataObject) -> None:
        name, options, snap = data.draw(st.sampled_from(pool))
        hostile_snap = mutate(snap, data)
        rebuilt = data.draw(st.booleans())
        counts["tried"] += 1
        try:
            if rebuilt:
                game = Game.from_snapshot(hostile_snap)
            else:
                game = Game(name, **options)
                game.restore(hostile_snap)
        except SnapshotError as error:
            assert "\n" not in str(error)
            counts["refused"] += 1
            return
        counts["accepted"] += 1
        counts["plies"] += play_on(game, np.random.default_rng(counts["tried"]))

    hostile()
    return counts


if __name__ == "__main__":
    # the shared kernels, as under the test suite (tests/conftest.py), when run by hand too:
    # without them each rule set's own kernels compile under bounds checking (minutes)
    os.environ.setdefault(SHARED_SWITCH, "1")
    print(json.dumps(run(int(sys.argv[1]), CONFIGS)))
