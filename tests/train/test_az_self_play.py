"""``mancala train --algo az`` with ``targets = "search"``: the network moves by its own search
and is fitted to that search's policy and to the game's result (`train/az/self_play.py`)."""

import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

sys.path.insert(0, str(Path(__file__).parents[1] / "agents"))
from test_az_network import make_network  # noqa: E402

from mancala_env import Game  # noqa: E402
from mancala_env.agents.az import DEFAULT_C  # noqa: E402
from mancala_env.agents.az_search import Searcher, puct_search, search_kernels  # noqa: E402
from mancala_env.agents.network import read_network  # noqa: E402
from mancala_env.endgame.adjudicate import Adjudicator  # noqa: E402
from mancala_env.endgame.build import build  # noqa: E402
from mancala_env.observation import observe as observe_position  # noqa: E402
from mancala_env.train.az import self_play as self_play_module  # noqa: E402
from mancala_env.train.az.config import CONFIGS, AZConfig, load_az_config  # noqa: E402
from mancala_env.train.az.games import Task  # noqa: E402
from mancala_env.train.az.run import train_az  # noqa: E402
from mancala_env.train.az.self_play import _scored, play_with_search  # noqa: E402
from mancala_env.variants import VARIANTS, get_variant  # noqa: E402

OWARE = Path(__file__).parents[2] / "agents" / "networks" / "oware.npz"


def self_play(positions: int, variant: str = "oware", options=None, network=None, **changes):
    settings = dict(targets="search", games=2, random_plies=0, explore=0.0, opponents=["self"])
    config = AZConfig(**{**settings, **changes})
    network = network if network is not None else make_network(variant, **(options or {}))
    task = Task(variant, options or {}, network.to_bytes(), config, positions, seed=7)
    return play_with_search(task)


def test_puct_targets_are_the_root_visit_shares_of_the_search_at_each_position():
    """With no random opening, each game's first position is the start, searched the same way
    the agent's PUCT search does (it has no noise): its visit shares, in simulations' steps."""
    network = make_network()
    batch, _ = self_play(1, network=network, search="puct", simulations=24, games=1)
    game = Game("oware")
    game.reset(np.random.default_rng(0))
    _, shares = puct_search(Searcher(network), search_kernels(game), game, 24, DEFAULT_C)
    assert np.array_equal(batch.policy[0], shares.astype(np.float32))
    steps = batch.policy * 24
    assert np.allclose(steps, np.round(steps), atol=1e-4)  # whole visits of 24
    assert np.all(batch.policy[~batch.legal] == 0)
    assert np.allclose(batch.policy.sum(axis=1), 1, atol=1e-5)


def test_gumbel_targets_are_the_improved_policy_over_every_legal_move():
    """Gumbel AlphaZero's target is softmax(logits + sigma(completed Q)): every legal move
    keeps a share (none is a visit count's zero), and it moves away from the network's own."""
    network = make_network()
    batch, _ = self_play(60, network=network, search="gumbel", simulations=16)
    assert np.all(batch.policy[batch.legal] > 0) and np.all(batch.policy[~batch.legal] == 0)
    assert np.allclose(batch.policy.sum(axis=1), 1, atol=1e-5)
    logits, _ = network.forward(batch.observations[:1])
    legal = batch.legal[0]
    prior = np.exp(logits[0] - logits[0][legal].max()) * legal
    prior /= prior.sum()
    assert not np.allclose(batch.policy[0], prior, atol=1e-3)


def test_every_position_is_valued_by_its_game_result_for_its_mover():
    """The shipped Oware network, searching, against random play from one seat: every position
    of a game is the network's, so a game's positions share one value, its result for the
    network; and that network wins nearly every game against random play."""
    network, _ = read_network(OWARE)
    batch, finished = self_play(200, network=network, simulations=16, games=2, random_plies=4,
                                opponents=["random"])  # fmt: skip
    assert finished >= 2 and len(batch) >= 200
    assert set(np.unique(batch.value)) <= {-1.0, 0.0, 1.0}
    assert batch.value.mean() > 0.8
    one, finished = self_play(1, network=network, simulations=16, games=1, opponents=["random"])
    assert finished == 1 and len(np.unique(one.value)) == 1


def test_scored_positions_get_plus_one_for_the_winner_minus_one_for_the_loser_zero_drawn():
    rows = [(np.zeros(2), np.ones(2, bool), np.full(2, 0.5), mover) for mover in (0, 1, 1, 0)]
    assert [value for *_, value in _scored(rows, winner=1)] == [-1.0, 1.0, 1.0, -1.0]
    assert [value for *_, value in _scored(rows, winner=0)] == [1.0, -1.0, -1.0, 1.0]
    assert [value for *_, value in _scored(rows, winner=None)] == [0.0] * 4


def test_self_play_games_stop_at_the_database(tmp_path, monkeypatch):
    """With adjudication, a game ends at the first position the endgame database covers, so no
    searched position is one it covers; without it, some are (each searched position's state
    is kept as the search observes it)."""
    small, seeds = {"houses": 4, "seeds": 3}, 12
    oware = get_variant("oware")
    build(oware, oware.options(**small), seeds, tmp_path, progress=False)
    network = make_network("oware", **small)
    game = Game("oware", **small)
    database = Adjudicator.open(str(tmp_path), game.variant, game.options, "all")
    searched = []

    def observe(state, *args):
        searched.append(state.copy())
        return observe_position(state, *args)

    monkeypatch.setattr(self_play_module, "observe", observe)

    def covered(**changes) -> float:
        searched.clear()
        batch, _ = self_play(300, options=small, network=network, simulations=8,
                             random_plies=4, endgames=str(tmp_path), **changes)  # fmt: skip
        assert len(searched) == len(batch)
        return float(database.verdicts(np.stack(searched)).covered.mean())

    assert covered() > 0.01
    assert covered(adjudication="all") == 0


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("search", ["gumbel", "puct"])
def test_a_short_self_play_run_of_every_rule_set_writes_a_network_that_plays(
    tmp_path, variant, search
):
    config = AZConfig(positions=24, generation=12, games=3, workers=1, targets="search",
                      search=search, simulations=8, random_plies=4, buffer=100, fit_steps=3,
                      batch_size=8, hidden=[8], eval_every=100, eval_depths=[1], eval_games=2,
                      final_learning_rate=None)  # fmt: skip
    result = train_az(variant, config, tmp_path / "run", seed=1, progress=False)
    # (a generation plays its running games out: it may hold the whole budget's positions)
    assert 1 <= result.generations <= 2 and result.positions >= 24
    network, _ = read_network(result.final_network)
    network.check_game(Game(variant), "final")


def test_a_resumed_self_play_run_fits_the_same_network_as_one_run(tmp_path):
    def settings(positions: int) -> AZConfig:
        return AZConfig(positions=positions, generation=60, games=2, workers=1,
                        targets="search", simulations=8, random_plies=4, buffer=1000,
                        fit_steps=3, batch_size=8, hidden=[8], eval_every=100, eval_depths=[1],
                        eval_games=2, final_learning_rate=None)  # fmt: skip

    whole = train_az("oware", settings(300), tmp_path / "whole", seed=3, progress=False)
    first = train_az("oware", settings(60), tmp_path / "parts", seed=3, progress=False)
    checkpoint = tmp_path / "parts" / "checkpoints" / "gen_1.npz"
    assert first.generations == 1 and checkpoint.exists()
    rest = train_az("oware", settings(300), tmp_path / "parts", seed=3, resume=checkpoint,
                    progress=False)  # fmt: skip
    assert rest.generations == whole.generations >= 2
    assert rest.positions == whole.positions
    assert rest.final_network.read_bytes() == whole.final_network.read_bytes()


def test_the_shipped_self_play_config_loads_and_goes_on_from_the_shipped_network():
    config = load_az_config("oware", CONFIGS / "self_play" / "oware.toml")
    assert config.targets == "search" and config.search == "gumbel"
    assert config.hidden == load_az_config("oware").hidden  # --init oware fits its layers
    continued = load_az_config("oware", CONFIGS / "continued" / "oware.toml")
    assert config.final_learning_rate == continued.final_learning_rate
