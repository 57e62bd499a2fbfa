"""The batched engine plays exactly the games the single-game engine plays."""

import pickle

import numpy as np
import pytest
from threads import run_on_threads

from mancala_env import Game
from mancala_env.batch import NO_RESULT, BatchedGames
from mancala_env.engine import layout as L
from mancala_env.engine import turn
from mancala_env.observation import observe
from mancala_env.variants import VARIANTS

OPTIONS = {name: {} for name in VARIANTS}
OPTIONS.update(
    ncho={"match": True, "max_rounds": 3},
    jerin={"match": True, "max_rounds": 3},
    rio_kadalis={"match": True, "max_rounds": 5},
    layli_goobalay={"match": True, "max_rounds": 3},
)
# Each rule set, and Oware on a board of four houses of three (its own compiled kernels).
CASES = [(name, OPTIONS[name]) for name in sorted(VARIANTS)] + [
    ("oware", {"houses": 4, "seeds": 3})
]


def mirror(name: str, batch: BatchedGames, i: int, options: dict | None = None) -> Game:
    """A single game set out like row `i` of the batch (same first player), on the shared
    kernels: the batch runs the rule set's own, derived from the same source."""
    first = f"player_{int(batch.to_move[i])}"  # of a freshly set out game
    game = Game(name, **{**(OPTIONS[name] if options is None else options), "first_player": first})
    game.kernels = turn
    game.reset()
    return game


@pytest.mark.parametrize(("name", "options"), CASES)
def test_batched_and_single_games_agree_move_by_move(name, options):
    n_games, plies = 12, 400
    batch = BatchedGames(name, n_games, seed=7, **options)
    observations, masks, to_move = batch.reset()
    games = [mirror(name, batch, i, options) for i in range(n_games)]
    rng = np.random.default_rng(7)
    finished = 0
    for _ in range(plies):
        for i, game in enumerate(games):
            assert (batch.position(i) == game.state).all()
            assert (masks[i] == game.legal_mask()).all()
            assert to_move[i] == game.to_move
            assert (observations[i] == observe(game.state, game.to_move, game.params)).all()
        actions = batch.random_actions(rng)
        for i, game in enumerate(games):
            game.step(int(actions[i]))
        out = batch.step(actions)
        observations, masks, to_move = out.observations, out.masks, out.to_move
        for i, game in enumerate(games):
            assert bool(out.terminated[i]) == game.over
            if game.over:
                finished += 1
                winner = game.winner()
                assert out.final_winner[i] == (-1 if winner is None else winner)
                assert out.final_stores[i].tolist() == game.stores.tolist()
                expected = [0.0, 0.0] if winner is None else [1.0 - 2 * winner, 2 * winner - 1.0]
                assert out.rewards[i].tolist() == expected
                games[i] = mirror(name, batch, i, options)
            else:
                assert out.final_winner[i] == NO_RESULT and out.rewards[i].tolist() == [0, 0]
    assert finished > 0, "the test should see games end and start again"


def test_a_batch_with_an_illegal_action_is_refused_untouched():
    batch = BatchedGames("oware", 4, seed=0, first_player="player_0")
    batch.reset()
    game = Game("oware", first_player="player_0")
    game.step(0)
    game.step(0)  # player_0 to move, its house 1 empty
    batch.set_position(2, game)
    before = batch.states.copy()
    actions = np.zeros(4, dtype=int)
    with pytest.raises(ValueError, match=r"action 0 is not legal in game 2; legal actions"):
        batch.step(actions)
    actions[2] = batch.n_actions  # out of range
    with pytest.raises(ValueError, match=r"action 6 is out of range; actions are integers"):
        batch.step(actions)
    assert (batch.states == before).all(), "no game was stepped"
    with pytest.raises(ValueError, match="one action per game"):
        batch.step(np.zeros(3, dtype=int))
    with pytest.raises(ValueError, match="positive integer"):
        BatchedGames("oware", 0)


def test_random_first_players_follow_the_seed():
    one = BatchedGames("oware", 64, seed=3)
    two = BatchedGames("oware", 64, seed=3)
    assert (one.reset()[2] == two.reset()[2]).all()
    assert set(one.to_move.tolist()) == {0, 1}


@pytest.mark.parametrize("name", ["oware", "ncho"])
def test_step_random_plays_the_legal_moves_single_games_play(name):
    batch = BatchedGames(name, 12, seed=3, **OPTIONS[name])
    batch.reset()
    games = [mirror(name, batch, i) for i in range(12)]
    active = np.arange(12) % 3 != 0
    finished = 0
    for _ in range(400):
        masks = batch.masks.copy()
        actions, out = batch.step_random(active)
        assert (actions[~active] == -1).all()
        for i in np.flatnonzero(active):
            assert masks[i, actions[i]] == 1
            games[i].step(int(actions[i]))
            assert bool(out.terminated[i]) == games[i].over
            if games[i].over:
                finished += 1
                games[i] = mirror(name, batch, i)
        assert all((batch.position(i) == game.state).all() for i, game in enumerate(games))
    assert finished > 0


def test_step_random_names_a_game_written_by_hand_with_no_legal_move():
    batch = BatchedGames("oware", 3, seed=0)
    batch.reset()
    legal = batch.layout.LEGAL
    batch.states[1, legal : legal + batch.n_actions] = 0
    with pytest.raises(ValueError, match="game 1 has no legal move"):
        batch.step_random()


def test_step_random_draws_every_legal_move_alike():
    batch = BatchedGames("oware", 6000, seed=11, first_player="player_0")
    batch.reset()  # six legal moves in every game
    counts = np.bincount(batch.step_random()[0], minlength=6)
    assert counts.sum() == 6000 and (np.abs(counts - 1000) < 120).all(), counts  # 4.2 sigma


PLAYED_ON_THREADS = """
import numba, numpy as np
from mancala_env.batch import BatchedGames

def play(threads):
    numba.set_num_threads(threads)
    batch = BatchedGames("oware", 64, seed=5)
    batch.reset()
    actions = np.stack([batch.step_random()[0] for _ in range(200)])
    return actions, batch.states.copy()

one, every = play(1), play(numba.config.NUMBA_NUM_THREADS)
print(numba.config.NUMBA_NUM_THREADS, (one[0] == every[0]).all() and (one[1] == every[1]).all())
"""


def test_random_choices_follow_the_seed_on_any_number_of_threads():
    """The same random moves and positions on one thread and on a pool of four (in a process
    of its own: the tests' processes have one thread)."""
    assert run_on_threads(["-c", PLAYED_ON_THREADS], threads=4).split() == ["4", "True"]


@pytest.mark.parametrize("name", ["oware", "ayoyayo", "mangala"])
def test_a_masked_step_plays_only_the_active_games(name):
    """step(actions, active): inactive games keep their position and view (their actions are
    not looked at); active ones play as single games, and ended games report the final
    position in final_states."""
    n_games = 12
    batch = BatchedGames(name, n_games, seed=5, first_player="player_0")
    batch.reset()
    games = [Game(name, first_player="player_0") for _ in range(n_games)]
    rng = np.random.default_rng(5)
    finished = 0
    for _ in range(600):
        active = rng.random(n_games) < 0.6
        actions = batch.random_actions(rng)
        actions[~active] = -1
        states, observations = batch.states.copy(), batch.observations.copy()
        masks, to_move = batch.masks.copy(), batch.to_move.copy()
        out = batch.step(actions, active=active)
        for i, game in enumerate(games):
            if not active[i]:
                assert (batch.states[i] == states[i]).all()
                assert (out.observations[i] == observations[i]).all()
                assert (out.masks[i] == masks[i]).all() and out.to_move[i] == to_move[i]
                assert not out.terminated[i] and out.final_winner[i] == NO_RESULT
                assert out.rewards[i].tolist() == [0, 0]
                continue
            game.step(int(actions[i]))
            assert bool(out.terminated[i]) == game.over
            if game.over:
                finished += 1
                assert (out.final_states[i] == game.state).all()
                games[i] = Game(name, first_player="player_0")
            assert (batch.position(i) == games[i].state).all()
            assert (
                out.observations[i] == observe(games[i].state, games[i].to_move, games[i].params)
            ).all()
    assert finished > 0, "the test should see games end and start again"


def test_a_masked_step_checks_its_mask():
    """`active` must hold one bool per game."""
    batch = BatchedGames("oware", 4, seed=0)
    batch.reset()
    with pytest.raises(ValueError, match="active must be 4 bools"):
        batch.step(np.zeros(4, dtype=int), active=np.ones(4, dtype=int))
    with pytest.raises(ValueError, match="active must be 4 bools"):
        batch.step(np.zeros(4, dtype=int), active=np.ones(3, dtype=bool))
    before = batch.states.copy()
    with pytest.raises(ValueError, match="active must be 4 bools"):
        batch.step_random(active=[1, 1, 1, 1])
    assert (batch.states == before).all()


def test_a_random_start_is_drawn_for_each_game_by_the_one_hook():
    """Mangala's random setting out in a batch: each game draws its own layout of the central
    holes from the batch's seed (the same hook as a single game's reset), 70 seeds in all."""
    from mancala_env.engine.setting_out import central_pit

    layouts = []
    for _ in range(2):
        batch = BatchedGames("mangala", 16, seed=3, setting_out="random")
        holes = [central_pit(0, i, batch.params) for i in range(4)]
        batch.reset(seed=3)
        layouts.append(batch.states[:, holes].copy())
    assert (layouts[0] == layouts[1]).all()
    assert (layouts[0].sum(axis=1) == 70).all()
    assert len({tuple(row) for row in layouts[0]}) == 16
    assert (batch.states[:, : batch.layout.MAX_PITS].sum(axis=1) == 70).all()


@pytest.mark.parametrize("name", ["oware", "ncho", "mighty_men"])
def test_a_batch_row_carries_a_position_to_and_from_a_game(name):
    """A row is a state as a Game holds it: set from a game in play, read back unchanged, with
    the game's mask, mover and observation."""
    batch = BatchedGames(name, 3, seed=1, first_player="player_0")
    batch.reset()
    assert batch.states.shape == (3, L.STATE_SIZE) and batch.layout is L
    game = Game(name, first_player="player_0")
    rng = np.random.default_rng(2)
    for _ in range(6):
        game.step(int(rng.choice(game.legal_actions())))
    batch.set_position(1, game)
    assert (batch.position(1) == game.state).all()
    assert (batch.masks[1] == game.legal_mask()).all() and batch.to_move[1] == game.to_move
    assert (batch.observations[1] == observe(game.state, game.to_move, game.params)).all()
    assert (batch.position(0) == Game(name, first_player="player_0").state).all()


def test_set_position_takes_a_game_of_the_batchs_rules_only():
    batch = BatchedGames("oware", 2, seed=1)
    with pytest.raises(ValueError, match="a Game of oware under the batch's options"):
        batch.set_position(0, Game("oware", seeds=3))
    with pytest.raises(ValueError, match="a Game of oware"):
        batch.set_position(0, Game("ouri"))
    with pytest.raises(ValueError, match=r"a game's row is an integer 0..1, got 2"):
        batch.set_position(2, Game("oware"))
    with pytest.raises(ValueError, match=r"a game's row is an integer 0..1, got -1"):
        batch.position(-1)
    over = Game("oware", first_player="player_0")
    while not over.over:
        over.step(over.legal_actions()[0])
    with pytest.raises(ValueError, match="a game in play"):
        batch.set_position(0, over)
    short = Game("oware")
    short.state = short.state[:50]
    with pytest.raises(ValueError, match=r"int32 of shape \(297,\)"):
        batch.set_position(0, short)


def test_a_pickled_batch_holds_no_compiled_code_and_plays_on():
    """Ray and multiprocessing pickle environments: the batch's kernels are asked for again
    rather than serialised by value (megabytes of them)."""
    batch = BatchedGames("ayoayo", 3, seed=0)
    batch.reset()
    data = pickle.dumps(batch)
    assert len(data) < 100_000
    twin = pickle.loads(data)
    np.testing.assert_array_equal(twin.states, batch.states)
    actions = batch.random_actions(np.random.default_rng(1))
    batch.step(actions)
    twin.step(actions)
    np.testing.assert_array_equal(twin.states, batch.states)
