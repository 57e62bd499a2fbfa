"""The engine handle (`mancala_env.kernels.kernels_for`): every player of games runs the rule
set's own kernels under any options; the shared kernels run only when asked for by name, and
play the same games."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mancala_env import Game
from mancala_env.batch import BatchedGames
from mancala_env.engine import layout as L
from mancala_env.engine import turn
from mancala_env.engine.compiler import specialised
from mancala_env.kernels import HOT_MODULES, SHARED_SWITCH, kernels_for
from mancala_env.variants import VARIANTS

# the derived kernels are the subject
pytestmark = [pytest.mark.integration, pytest.mark.usefixtures("own_kernels")]

ROOT = Path(__file__).resolve().parents[2]
# every rule set under its defaults, and structural options (a board size, a reading, a match)
RULES = [
    *((name, {}) for name in sorted(VARIANTS)),
    ("oware", {"houses": 4}),
    ("oware", {"grand_slam": "capture"}),
    ("ncho", {"match": True}),
]


def _random_play(kernels, game: Game, seed: int) -> list[np.ndarray]:
    """Every state of a game of random moves from `game`'s start, stepped by `kernels`."""
    rng = np.random.default_rng(seed)
    state = game.state.copy()
    n_actions = game.n_actions
    states = [state.copy()]
    while state[L.OVER] == 0 and len(states) < 2000:
        legal = np.flatnonzero(state[L.LEGAL : L.LEGAL + n_actions])
        kernels.step(state, int(rng.choice(legal)), game.params)
        states.append(state.copy())
    return states


@pytest.mark.parametrize(("variant", "options"), RULES)
def test_the_shared_kernels_play_the_games_the_rule_sets_own_play(variant, options):
    game = Game(variant, first_player="player_0", **options)
    shared = kernels_for(game.variant, game.params, shared=True)
    assert shared.step is turn.step and game.kernels.step is not turn.step
    for seed in range(3):
        own = _random_play(game.kernels, game, seed)
        written = _random_play(shared, game, seed)
        assert len(own) == len(written) > 1
        for a, b in zip(own, written, strict=True):
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name", ["oware", "ayoayo", "mighty_men"])
def test_the_batch_plays_the_same_games_on_its_own_and_the_shared_kernels(name, monkeypatch):
    own = BatchedGames(name, 8, seed=3)
    monkeypatch.setenv(SHARED_SWITCH, "1")
    shared = BatchedGames(name, 8, seed=3)
    assert own.kernels.batch_step is not shared.kernels.batch_step
    for a, b in zip(own.reset(), shared.reset(), strict=True):
        np.testing.assert_array_equal(a, b)
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(300):
        actions = own.random_actions(rng)
        a, b = own.step(actions), shared.step(actions)
        for field in ("observations", "masks", "to_move", "terminated", "rewards", "final_stores"):
            np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
        ended += int(a.terminated.sum())
    assert ended > 0


def test_the_switch_in_the_environment_gives_the_shared_kernels(monkeypatch):
    game = Game("oware")
    monkeypatch.setenv(SHARED_SWITCH, "1")
    switched = kernels_for(game.variant, game.params)
    assert switched is kernels_for(game.variant, game.params, shared=True)
    assert Game("oware").kernels.step is turn.step
    monkeypatch.setenv(SHARED_SWITCH, "0")
    assert kernels_for(game.variant, game.params) is game.kernels


def test_a_bad_switch_value_is_refused_in_one_line(monkeypatch):
    monkeypatch.setenv(SHARED_SWITCH, "yes")
    with pytest.raises(ValueError, match=r"^MANCALA_ENV_SHARED_KERNELS must be 0 or 1, got 'yes'$"):
        Game("oware")


# The modules the players of games ask the handle to derive beside the engine.
DERIVED = (
    *HOT_MODULES,
    "mancala_env.bench",
    "mancala_env.endgame.kernels",
    "mancala_env.endgame.probe",
    "mancala_env.agents.alphabeta",
    "mancala_env.agents.az_search",
    "mancala_env.agents.mcts",
)


@pytest.mark.parametrize("module", DERIVED)
def test_every_derived_module_keeps_the_compilers_conventions_in_every_rule_set(module):
    """Each module derives (written, not compiled) for every rule set, the engine's kept lifts
    too: the compiler checks each of its conventions as it derives (`engine.compiler`), among
    them that no constant of the module's own takes the place of the layout's ``L.X``."""
    for variant in VARIANTS.values():
        params = variant.params(variant.options())
        for keep in (False, True):
            assert specialised(params, (module,), keep).files[module]


def test_a_structural_option_derives_kernels_of_its_own():
    default, smaller = Game("oware"), Game("oware", houses=4)
    assert smaller.kernels.files["engine"] != default.kernels.files["engine"]
    assert Game("oware", stall_limit=50).kernels is default.kernels  # a number: read at run time


# What each player of games does, in turn in one fresh process: none compiles the shared kernels.
PLAYERS = {
    "a game with a houses option": """
game = Game("oware", houses=4)
rng = np.random.default_rng(0)
while not game.over:
    game.step(int(rng.choice(game.legal_actions())))
""",
    "a game with a grand_slam option": """
game = Game("oware", grand_slam="capture")
rng = np.random.default_rng(0)
while not game.over:
    game.step(int(rng.choice(game.legal_actions())))
""",
    "alpha-beta": "play(load_agent('alphabeta:depth=3', 'oware', seed=0))",
    "greedy": "play(load_agent('greedy', 'oware', seed=0))",
    "mcts": "play(load_agent('mcts:simulations=50', 'oware', seed=0))",
    "mcts with a prior": """
from mancala_env.agents.mcts import MCTSAgent
play(MCTSAgent(simulations=20, prior_value=lambda game: (np.ones(game.n_actions), 0.0)))
""",
    "the az search": "play(load_agent('az:oware,simulations=20', 'oware', seed=0))",
    "az training's game player": """
from mancala_env.agents.network import read_network
from mancala_env.train.az.config import AZConfig
from mancala_env.train.az.games import Task, play_and_label
network, _ = read_network("oware")
config = AZConfig(games=2, teacher_depth=2, opponents=["self", "alphabeta:depth=1"])
batch, _ = play_and_label(Task("oware", {}, network.to_bytes(), config, 6, 0))
assert len(batch) >= 6
""",
    "the endgame builder and alpha-beta with its database": """
import tempfile
from mancala_env.endgame.build import build
from mancala_env.endgame.positions import position_game
from mancala_env.agents.alphabeta import AlphaBetaAgent
oware = get_variant("oware")
folder = tempfile.mkdtemp()
build(oware, oware.options(), 4, folder, progress=False)
game = position_game(oware, oware.options(), np.array([1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0]), 0)
AlphaBetaAgent(depth=3, tb=folder).act(game)
""",
}
PRELUDE = """
import json
import numpy as np
from mancala_env import Game
from mancala_env.batch import BatchedGames
from mancala_env.agents import load_agent
from mancala_env.engine import layout as L
from mancala_env.engine import turn
from mancala_env.variants import get_variant

def play(agent, moves=12):
    game = Game("oware")
    while not game.over and game.move_number < moves:
        game.step(agent.act(game))
"""
REPORT = """
def report(player):
    kernels = ("new_game", "step", "begin_turn")
    compiled = [name for name in kernels if getattr(turn, name).signatures]
    print(json.dumps([player, compiled]), flush=True)
"""


def test_no_player_of_games_compiles_the_shared_kernels():
    """Each player of games in turn in one fresh process (which compiles each of the rule set's
    own modules once for all of them): after every turn the shared kernels are still
    uncompiled, and the first player that compiled them is named."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONWARNINGS": "ignore"}
    env.pop(SHARED_SWITCH, None)
    turns = "".join(
        f"exec({PLAYERS[player]!r}, dict(globals()))\nreport({player!r})\n" for player in PLAYERS
    )
    done = subprocess.run(
        [sys.executable, "-c", PRELUDE + REPORT + turns],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    reports = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("[")]
    assert [player for player, _ in reports] == list(PLAYERS), done.stderr
    compiled = [(player, kernels) for player, kernels in reports if kernels]
    assert compiled == [], f"the first player that compiled the shared kernels: {compiled[0]}"
