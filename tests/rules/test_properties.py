"""Invariants over many random games of every rule set, under any combination of its options."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import examples, random_playout, rule_options

from mancala_env import Game, IllegalActionError
from mancala_env.engine import layout as L
from mancala_env.env import raw_env
from mancala_env.variants import VARIANTS

NAMES = sorted(VARIANTS)
SEEDS = st.integers(0, 2**32 - 1)


def game_bound(game: Game) -> int:
    """The documented bound on a game's length: every capture takes seeds off a board of at most
    `total_seeds`, and `stall_limit` plies without one stop a round; a match has at most
    `max_rounds` rounds. With special pieces the stall count restarts only at a new low of the
    board (the Witch Doctor brings seeds back), and a turn is a lift and at most
    `decisions_per_turn` decisions."""
    rounds = game.options.max_rounds if getattr(game.options, "match", False) else 1
    return rounds * (game.total_seeds + 1) * game.options.stall_limit * decisions_per_turn(game)


def decisions_per_turn(game: Game) -> int:
    """The most actions one turn can take: the lift, then for each special piece where it
    falls, how far it moves, and its power (a borrowed one, the Shepherd's two counts and a
    place for every piece)."""
    pieces = int(game.params[L.P_PIECES])
    return 1 + 2 * pieces + pieces * (3 + pieces)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(300), deadline=None)
@given(data=st.data(), seed=SEEDS)
def test_seeds_are_conserved_and_games_end_within_their_bound(name, data, seed):
    game = Game(name, **data.draw(rule_options(name)))
    rng = np.random.default_rng(seed)
    game.reset(rng)
    bound = game_bound(game)
    for _ in random_playout(game, rng, bound + 1):
        assert (game.pits >= 0).all() and (game.stores >= 0).all()
        assert int(game.pits.sum() + game.stores.sum()) + game.in_hand == game.total_seeds
    assert int(game.pits.sum() + game.stores.sum()) == game.total_seeds
    assert game.over, f"{name} game still going after its bound of {bound} plies"
    assert game.pits.sum() == 0, "a finished game has handed out every seed"


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(80), deadline=None)
@given(data=st.data(), seed=SEEDS)
def test_mask_is_exactly_the_set_of_accepted_actions(name, data, seed):
    game = Game(name, **data.draw(rule_options(name)))
    rng = np.random.default_rng(seed)
    game.reset(rng)
    for _ in random_playout(game, rng, 400):
        mask = game.legal_mask()
        assert mask.shape == (game.n_actions,) and mask.any()
        for action in range(game.n_actions):
            trial = game.copy()
            try:
                trial.step(action)
                accepted = True
            except IllegalActionError:
                accepted = False
            assert accepted == bool(mask[action]), (action, game.snapshot())


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(10), deadline=None)
@given(seed=SEEDS)
def test_same_seed_same_game(name, seed):
    def play() -> list:
        game = Game(name, first_player="random")
        rng = np.random.default_rng(seed)
        game.reset(rng)
        moves = list(random_playout(game, rng, 10_000))
        return [moves, game.snapshot()]

    assert play() == play()


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(10), deadline=None)
@given(seed=SEEDS)
def test_snapshot_restore_round_trip_mid_game(name, seed):
    game = Game(name)
    rng = np.random.default_rng(seed)
    game.reset(rng)
    for _ in random_playout(game, rng, int(rng.integers(0, 60))):
        pass
    restored = Game.from_snapshot(game.snapshot())
    assert restored.snapshot() == game.snapshot()
    assert (restored.legal_mask() == game.legal_mask()).all()
    rest_of_game = [
        list(random_playout(g, np.random.default_rng(seed), 10_000)) for g in (game, restored)
    ]
    assert rest_of_game[0] == rest_of_game[1]
    assert restored.snapshot() == game.snapshot()


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(10), deadline=None)
@given(seed=SEEDS, action=st.integers(-5, 40))
def test_illegal_or_out_of_range_actions_are_refused_without_changing_the_game(name, seed, action):
    game = Game(name)
    rng = np.random.default_rng(seed)
    game.reset(rng)
    for _ in random_playout(game, rng, int(rng.integers(0, 30))):
        pass
    if game.over or (0 <= action < game.n_actions and game.legal_mask()[action]):
        return
    before = game.state.copy()
    with pytest.raises(IllegalActionError, match="legal actions|out of range"):
        game.step(action)
    assert (game.state == before).all()


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(20), deadline=None)
@given(data=st.data(), seed=SEEDS)
def test_observations_stay_inside_their_space_under_any_options(name, data, seed):
    env = raw_env(variant=name, **data.draw(rule_options(name)))
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in env.agent_iter():
        for observer in env.possible_agents:
            observation = env.observe(observer)
            assert env.observation_space(observer).contains(observation), (observer, observation)
        obs, _, terminated, truncated, _ = env.last()
        legal = np.flatnonzero(obs["action_mask"])
        env.step(None if terminated or truncated else int(rng.choice(legal)))


PIECE_GAMES = ["mighty_men", "mighty_men_calm"]


@pytest.mark.parametrize("name", PIECE_GAMES)
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data(), seed=SEEDS)
def test_every_special_piece_is_always_in_exactly_one_place(name, data, seed):
    """Pieces, not only counts, are conserved: each special piece is in one pit, one store or
    the mover's hand; a pit or store never holds more special pieces than pieces; a poisoned pit
    is empty; a piece leaves the game only by becoming a regular one (the Spy)."""
    game = Game(name, **data.draw(rule_options(name)))
    rng = np.random.default_rng(seed)
    game.reset(rng)
    kinds_before = None
    for _ in random_playout(game, rng, game_bound(game) + 1):
        snap = game.snapshot()
        kinds = [p["kind"] for p in snap["pieces"]]
        if kinds_before is not None:  # only the Spy changes a piece, and only to a regular one
            assert all(k == b or k is None for k, b in zip(kinds, kinds_before, strict=True))
        kinds_before = kinds
        holders = snap["pits"] + snap["stores"]
        for piece in snap["pieces"]:
            if piece["kind"] is None:
                continue
            at = piece["at"]
            assert at == "hand" or at in range(12) or at in ("store_0", "store_1"), piece
            if at == "hand":
                assert snap["phase"] != "play"
        for index, held in enumerate(holders):
            place = index if index < 12 else f"store_{index - 12}"
            there = sum(1 for p in snap["pieces"] if p["kind"] and p["at"] == place)
            assert there <= held, (place, snap)
        assert all(snap["pits"][p] == 0 for p in range(12) if snap["closed"][p])
    assert game.over
