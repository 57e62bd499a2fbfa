"""What a centralised critic and a researcher read off the AEC environment: `state()`, the
observation's names, and copies of an environment in play."""

import copy
from pathlib import Path

import numpy as np
import pytest

from mancala_env.engine.layout import KIND_NAMES
from mancala_env.env import env as make_env
from mancala_env.env import raw_env
from mancala_env.observation import observe, seen_pits
from mancala_env.observation_doc import observation_tables
from mancala_env.variants import VARIANTS

ROOT = Path(__file__).parents[2]
KIND_CODES = {name: code for code, name in KIND_NAMES.items()}
CONFIGS = [(name, {}) for name in VARIANTS] + [("ncho", {"match": True, "max_rounds": 3})]


def play(env, plies: int, seed: int) -> None:
    """`plies` random legal moves (fewer if the game ends)."""
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        mask = env.observe(env.agent_selection)["action_mask"]
        if env.terminations[env.agent_selection] or not mask.any():
            return
        env.step(int(rng.choice(np.flatnonzero(mask))))


@pytest.mark.parametrize("name, options", CONFIGS)
def test_names_cover_the_observation_and_read_the_position(name, options):
    env = raw_env(variant=name, **options)
    env.reset(seed=2)
    play(env, 15, seed=2)
    names = env.observation_names
    size = env.observation_space("player_0")["observation"].shape[0]
    assert len(names) == len(set(names)) == size
    snap = env.snapshot()
    for seat in (0, 1):
        seen = dict(zip(names, observe(env.game.state, seat, env.game.params), strict=True))
        pits = [(k + 6 * seat) % 12 for k in range(12)]
        assert [seen[pit] for pit in seen_pits(env.game.params)] == [snap["pits"][p] for p in pits]
        assert seen["own_store"] == snap["stores"][seat]
        assert seen["opponent_store"] == snap["stores"][1 - seat]
        if "own_rounds_won" in seen:
            assert seen["rounds_finished"] == snap["round"]
            assert seen["opponent_rounds_won"] == snap["rounds_won"][1 - seat]
            owned = [int(snap["owners"][p] == seat) for p in pits]
            assert [seen[f"{pit}_owned"] for pit in seen_pits(env.game.params)] == owned
        for i, piece in enumerate(snap.get("pieces", [])):
            assert seen[f"piece_{i}_kind"] == KIND_CODES.get(piece["kind"], 0)
            if isinstance(piece["at"], int) and piece["kind"] is not None:
                assert seen[f"piece_{i}_place"] == pits.index(piece["at"])


def test_uur_names_read_a_set_position():
    env = raw_env(variant="layli_goobalay")
    env.reset(seed=0)
    snap = env.snapshot()
    snap["uur"] = [None, 1] + [None] * 8 + [1, None]  # a facing pair held for player_1
    env.restore(snap)
    names = env.observation_names
    for seat, held in ((0, {"own_house_2_uur": 2, "opponent_house_5_uur": 2}),
                       (1, {"opponent_house_2_uur": 1, "own_house_5_uur": 1})):  # fmt: skip
        seen = dict(zip(names, observe(env.game.state, seat, env.game.params), strict=True))
        uur = {k: v for k, v in seen.items() if k.endswith("_uur") and v}
        assert uur == held


@pytest.mark.parametrize("name", ["oware", "layli_goobalay", "mighty_men", "mangala"])
def test_state_is_player_0s_view_and_the_player_to_move_whoever_is_selected(name):
    env = raw_env(variant=name)
    env.reset(seed=5)
    seen_seats = set()
    for plies in range(40):
        state = env.state()
        assert env.state_space.contains(state)
        assert len(env.state_names) == len(state) and env.state_names[-1] == "to_move"
        np.testing.assert_array_equal(state[:-1], env.observe("player_0")["observation"])
        assert state[-1] == env.game.to_move == int(env.agent_selection[-1])
        seen_seats.add(int(state[-1]))
        play(env, 1, seed=plies)
    assert seen_seats == {0, 1}


@pytest.mark.parametrize("name", ["oware", "mighty_men"])
def test_deepcopy_copies_the_position_and_plays_on_alone(name):
    env = make_env(variant=name)
    env.reset(seed=7)
    play(env, 9, seed=7)
    twin = copy.deepcopy(env)
    assert twin.unwrapped.snapshot() == env.unwrapped.snapshot()
    assert twin.unwrapped.snapshot()["move_number"] > 0
    assert twin.agent_selection == env.agent_selection
    assert twin.unwrapped.game.state is not env.unwrapped.game.state
    before = env.unwrapped.snapshot()
    play(twin, 3, seed=8)
    assert env.unwrapped.snapshot() == before
    assert twin.unwrapped.snapshot() != before
    play(env, 3, seed=8)  # the same moves from the same position: the same game
    assert env.unwrapped.snapshot() == twin.unwrapped.snapshot()


def test_observation_page_matches_the_code():
    page = (ROOT / "docs" / "observations.md").read_text()
    assert page == observation_tables(), (
        "docs/observations.md is stale: python -m mancala_env.observation_doc > "
        "docs/observations.md"
    )
    assert page.count("\n## ") == 1 + len(VARIANTS)  # the shared encoding, then a rule set each
