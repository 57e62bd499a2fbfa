"""The agents: spec strings, legal play in every rule set, and what the searches find."""

from __future__ import annotations

import time

import numpy as np
import pytest
from numba import njit
from rules.positions import position

from mancala_env import Game
from mancala_env.agents import (
    SPEC_FORMS,
    AlphaBetaAgent,
    HumanAgent,
    MCTSAgent,
    QuitGame,
    RandomAgent,
    load_agent,
)
from mancala_env.agents.alphabeta import WIN, WIN_ZONE
from mancala_env.agents.loader import parse_spec
from mancala_env.engine import layout as L
from mancala_env.engine.turn import step
from mancala_env.variants import VARIANTS


class FirstLegalAgent:
    """A user's agent for the `python:` spec: the lowest legal action."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def reset(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, game: Game) -> int:
        return game.legal_actions()[0]


class NoSeedAgent:
    """A user's agent whose constructor takes no seed."""

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, game: Game) -> int:
        return game.legal_actions()[-1]


class NotAnAgent:
    """Has no `act`."""

    def reset(self, seed: int | None = None) -> None:
        pass


MATCHES = ("ncho", "jerin", "rio_kadalis", "layli_goobalay")
CONFIGS = [(name, {}) for name in sorted(VARIANTS)] + [
    (name, {"match": True, "max_rounds": 2}) for name in MATCHES
]
CONFIG_IDS = [name + ("-match" if options else "") for name, options in CONFIGS]
KINDS = [
    "random",
    "greedy",
    "alphabeta:depth=2",
    "mcts:simulations=50",
    "python:test_agents:FirstLegalAgent",
]


def play(game: Game, agents: list, max_plies: int = 20_000) -> list[int]:
    """Play `game` to its end; every action must be legal and no agent may change the game."""
    actions = []
    for _ in range(max_plies):
        if game.over:
            return actions
        before = game.state.copy()
        action = agents[game.to_move].act(game)
        assert np.array_equal(game.state, before), "an agent changed the game it was given"
        assert action in game.legal_actions()
        game.step(action)
        actions.append(action)
    raise AssertionError(f"no end after {max_plies} plies")


def random_positions(name: str, options: dict, count: int, seed: int) -> list[Game]:
    """Positions of a rule set reached by random play (games still on)."""
    rng = np.random.default_rng(seed)
    found: list[Game] = []
    while len(found) < count:
        game = Game(name, **options)
        game.reset(rng)
        plies = int(rng.integers(0, 40))
        for _ in range(plies):
            if game.over:
                break
            game.step(int(rng.choice(game.legal_actions())))
        if not game.over:
            found.append(game)
    return found


def reference_value(state: np.ndarray, params: np.ndarray, depth: int) -> float:
    """Plain minimax (no pruning, no table) with the search's conventions: the value for the
    player to move, store difference at the horizon, +-WIN for a finished game, one point
    nearer zero per ply."""
    mover = state[L.TO_MOVE]
    if state[L.OVER]:
        winner = state[L.WINNER]
        return 0.0 if winner < 0 else (WIN if winner == mover else -WIN)
    if depth == 0:
        return float(state[L.STORE + mover] - state[L.STORE + 1 - mover])
    best = -np.inf
    for action in np.flatnonzero(state[L.LEGAL : L.LEGAL + params[L.P_N_ACTIONS]]):
        child = state.copy()
        step(child, int(action), params)
        value = reference_value(child, params, depth - 1)
        if child[L.TO_MOVE] != mover:
            value = -value
        if abs(value) > WIN_ZONE:
            value -= np.sign(value)
        best = max(best, value)
    return best


# ---- spec strings ----------------------------------------------------------------------------


def test_spec_forms_cover_every_kind():
    kinds = {form.split(":")[0].split("[")[0] for form in SPEC_FORMS}
    assert kinds == {
        *("random", "greedy", "alphabeta", "mcts", "perfect", "ppo", "az", "human", "python")
    }


@pytest.mark.parametrize(
    "spec, cls, settings",
    [
        ("random", RandomAgent, {}),
        ("greedy", type(load_agent("greedy")), {}),
        ("alphabeta", AlphaBetaAgent, {"depth": 6, "time_limit": None}),
        ("alphabeta:depth=6", AlphaBetaAgent, {"depth": 6, "time_limit": None}),
        ("alphabeta:time=0.5", AlphaBetaAgent, {"depth": None, "time_limit": 0.5}),
        ("alphabeta:depth=8, time=1.5", AlphaBetaAgent, {"depth": 8, "time_limit": 1.5}),
        ("alphabeta:depth=3,eval=rounds,tt=off", AlphaBetaAgent, {"evaluate": "rounds"}),
        ("mcts", MCTSAgent, {"simulations": 800, "time_limit": None}),
        ("mcts:simulations=800", MCTSAgent, {"simulations": 800}),
        ("mcts:time=0.5", MCTSAgent, {"simulations": None, "time_limit": 0.5}),
        (
            "mcts:simulations=100,c=0.7,mix=0.2",
            MCTSAgent,
            {"simulations": 100, "c": 0.7, "mix": 0.2},
        ),
        ("human", HumanAgent, {}),
        ("python:test_agents:FirstLegalAgent", FirstLegalAgent, {"seed": 5}),
        ("python:test_agents:NoSeedAgent", NoSeedAgent, {}),
    ],
)
def test_every_spec_form_parses(spec, cls, settings):
    agent = load_agent(spec, seed=5)
    assert type(agent) is cls
    for key, value in settings.items():
        assert getattr(agent, key) == value


@pytest.mark.parametrize(
    "spec, kind, arguments",
    [
        ("greedy", "greedy", {}),
        (" alphabeta:depth=3, time=0.5", "alphabeta", {"depth": 3, "time_limit": 0.5}),
        ("mcts:c=0", "mcts", {"c": 0.0}),
        ("ppo:a,b.zip,trust=yes", "ppo", {"path": "a,b.zip", "trust": True}),
        ("python:pkg.mod:Cls", "python", {"module_name": "pkg.mod", "class_name": "Cls"}),
    ],
)
def test_a_spec_is_taken_apart_without_loading_anything(spec, kind, arguments):
    """No such model or module exists: parsing needs neither."""
    assert parse_spec(spec) == (kind, arguments)


def test_tt_key_switches_the_table_off():
    assert load_agent("alphabeta:tt=off").table is False
    assert load_agent("alphabeta:tt=on").table is True


@pytest.mark.parametrize(
    "spec, problem",
    [
        ("", "non-empty"),
        ("minimax", "unknown agent kind 'minimax'"),
        ("alphabeta:dept=3", "unknown key 'dept' for alphabeta"),
        ("alphabeta:depth=x", "bad value 'x' for depth"),
        ("alphabeta:depth=0", "bad value '0' for depth"),
        ("alphabeta:depth=3,depth=4", "given twice"),
        ("alphabeta:depth", "'depth' is not key=value"),
        ("alphabeta:eval=magic", "bad value 'magic' for eval"),
        ("alphabeta:tt=maybe", "bad value 'maybe' for tt"),
        ("mcts:time=-1", "bad value '-1' for time"),
        ("mcts:simulations=2.5", "bad value '2.5' for simulations"),
        ("mcts:simulations=1_000", "bad value '1_000' for simulations"),
        ("alphabeta:depth=\u0663", "bad value '\u0663' for depth"),
        ("mcts:time=\u0661.5", "bad value '\u0661.5' for time"),
        ("mcts:depth=3", "unknown key 'depth' for mcts"),
        ("random:seed=3", "random takes no options"),
        ("ppo:", "needs the path"),
        ("python:test_agents", "python:MODULE:CLASS"),
        ("python:no_such_module_xyz:Agent", "cannot import module 'no_such_module_xyz'"),
        ("python:test_agents:Missing", "has no class 'Missing'"),
        ("python:test_agents:NotAnAgent", "is not an agent"),
    ],
)
def test_bad_specs_say_what_is_wrong_and_list_the_valid_forms(spec, problem):
    with pytest.raises(ValueError) as error:
        load_agent(spec)
    message = str(error.value)
    assert problem in message
    for form in SPEC_FORMS:
        assert form in message


# ---- legal play everywhere -------------------------------------------------------------------


@pytest.mark.parametrize("spec", KINDS)
@pytest.mark.parametrize("name, options", CONFIGS, ids=CONFIG_IDS)
def test_agent_plays_whole_legal_games_in_both_seats(spec, name, options):
    """Every agent kind finishes games of every rule set (and matches of rounds) in either
    seat against random, playing only legal moves and never changing the game."""
    for seat in (0, 1):
        agents = [RandomAgent(seed=seat), RandomAgent(seed=seat)]
        agents[seat] = load_agent(spec, variant=name, seed=seat)
        game = Game(name, **options)
        game.reset(np.random.default_rng(seat))
        play(game, agents)
        assert game.over


def test_greedy_moves_when_every_move_lowers_its_store():
    """Layli Goobalay match (004_*.txt, "Layli Goobalay - Somalia", rounds): player_1's only
    move ends the round, and setting out the next round takes nine seeds from their store;
    greedy still plays it."""
    game = position(
        "layli_goobalay",
        [0, 0, 0, 0, 1, 0] + [1, 0, 0, 0, 0, 0],
        [11, 35],
        to_move=1,
        options={"match": True, "max_rounds": 2},
    )
    assert game.legal_actions() == [0]
    child = game.copy()
    child.step(0)
    assert child.stores[1] - game.stores[1] == -9
    assert load_agent("greedy", seed=0).act(game) == 0


# ---- alpha-beta ------------------------------------------------------------------------------


def winning_oware_position() -> Game:
    """player_0's house 6 makes 2 and 3 in pits 6 and 7: five seeds take the store from 22 to
    27, more than half of 48 (004_*.txt, "OWARE - Ghana": capture and end rules); house 1
    takes nothing."""
    return position("oware", [1, 0, 0, 0, 0, 2] + [1, 2, 4, 4, 0, 0], [22, 12], to_move=0)


@pytest.mark.parametrize("spec", ["alphabeta:depth=1", "alphabeta:depth=6", "alphabeta:time=0.1"])
def test_alphabeta_takes_the_winning_capture(spec):
    game = winning_oware_position()
    agent = load_agent(spec, seed=0)
    assert agent.act(game) == 5
    assert agent.last_value == WIN - 1  # a win one ply away
    game.step(5)
    assert game.over and game.winner() == 0


def test_alphabeta_sees_a_capture_two_moves_ahead():
    """No move captures now (depth 1 sees the store difference, 4, whatever it plays); after
    house 3 every reply of player_1 lets player_0 capture four seeds, and depth 3 finds it: the
    other moves win at most two."""
    pits = [0, 1, 3, 6, 1, 0] + [0, 4, 3, 0, 0, 0]
    game = position("oware", pits, [17, 13], to_move=0)
    agent = AlphaBetaAgent()
    assert agent.search(game, 1)[0] == 4.0
    assert agent.search(game, 3) == (8.0, 2)
    for other in (1, 3, 4):
        child = game.copy()
        child.step(other)
        assert -agent.search(child, 2)[0] <= 6.0


@pytest.mark.parametrize("name", ["oware", "ouri", "ayoayo", "tampoduo"])
def test_alphabeta_depth_one_plays_the_greedy_move(name):
    """At depth 1 the search is greedy: where one move wins strictly the most seeds (and none
    ends the game), both pick it."""
    checked = 0
    for game in random_positions(name, {}, 60, seed=11):
        mover = game.to_move
        gains = {}
        ends = False
        for action in game.legal_actions():
            child = game.copy()
            child.step(action)
            gains[action] = int(child.stores[mover] - game.stores[mover])
            ends |= child.over
        best = max(gains.values())
        if ends or list(gains.values()).count(best) != 1:
            continue
        greedy = load_agent("greedy", seed=0).act(game)
        assert greedy == max(gains, key=gains.get)
        assert AlphaBetaAgent(depth=1).act(game) == greedy
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("name, options", CONFIGS, ids=CONFIG_IDS)
def test_alphabeta_value_is_the_minimax_value_with_and_without_the_table(name, options):
    """Fixed-depth values equal plain minimax's, with the transposition table (kept across
    positions) and without it; extra turns, passes, round ends and setting out included."""
    depth = 2 if name == "mangala" else 3
    with_table = AlphaBetaAgent(set_out_choices=0)
    without = AlphaBetaAgent(table=False, set_out_choices=0)
    for game in random_positions(name, options, 4, seed=3):
        expected = reference_value(game.state, game.params, depth)
        assert with_table.search(game, depth)[0] == expected
        assert without.search(game, depth)[0] == expected
        assert with_table.search(game, depth)[0] == expected  # from the table


def test_alphabeta_search_stops_at_its_node_limit():
    game = Game("oware")
    game.reset(np.random.default_rng(2))
    search = AlphaBetaAgent()
    full = search.search(game, 5)
    made = search.last_nodes
    search = AlphaBetaAgent()  # (a new table: the first search's would spare most positions)
    assert search.search(game, 5, node_limit=made // 2) is None
    assert search.last_nodes <= made // 2 + game.n_actions  # a node's children are made at once
    assert AlphaBetaAgent().search(game, 5, node_limit=made) == full
    for bad in (-1, 2.5, "many"):
        with pytest.raises(ValueError, match="node_limit must be an integer from 0 to"):
            search.search(game, 5, node_limit=bad)


def test_alphabeta_table_holds_for_one_rule_set_only():
    """The same position under other rules (Kpo, Ouri: other captures and lifts) is searched
    afresh by an agent whose table is full of Oware values."""
    agent = AlphaBetaAgent(depth=4)
    for game in random_positions("oware", {}, 3, seed=8):
        snapshot = game.snapshot()
        agent.search(game, 4)
        for name in ("kpo", "ouri"):
            other = Game.from_snapshot({**snapshot, "variant": name, "options": {}})
            if other.over:
                continue
            expected = reference_value(other.state, other.params, 4)
            assert agent.search(other, 4)[0] == expected


def test_alphabeta_reaches_its_depth_on_every_move_of_a_game():
    """The table kept from the last move answers parts of the next search; the search still
    goes to the full depth (unless the result is proven)."""
    agent = AlphaBetaAgent(depth=6)
    game = Game("oware", first_player="player_0")
    opponent = RandomAgent(seed=2)
    for _ in range(30):
        if game.over:
            break
        if game.to_move == 0:
            choices = len(game.legal_actions())
            game.step(agent.act(game))
            if choices > 1 and abs(agent.last_value) < WIN_ZONE:
                assert agent.last_depth == 6
        else:
            game.step(opponent.act(game))


def test_alphabeta_keeps_the_sign_through_a_grand_slam_extra_turn():
    """Ouri (004_*.txt, 'OURI'): house 6 takes the whole row (2+3) and player_0 moves again
    (feeding with house 4), so that child is valued from player_0's own view: +1 at depth 2,
    against -2 for house 4 (it takes two, then player_1 replies)."""
    game = position("ouri", [0, 0, 0, 3, 0, 2] + [1, 2, 0, 0, 0, 0], [18, 22], to_move=0)
    child = game.copy()
    child.step(5)
    assert child.to_move == 0 and not child.over and child.stores.tolist() == [23, 22]
    agent = AlphaBetaAgent()
    for depth in (1, 2, 3, 4):
        expected = reference_value(game.state, game.params, depth)
        assert agent.search(game, depth)[0] == expected
    assert agent.search(game, 2) == (1.0, 5)
    assert agent.search(child, 1)[0] == 1.0


@njit
def _store_difference(state, player, params):
    return float(state[L.STORE + player] - state[L.STORE + 1 - player])


def _python_store_difference(state, player, params):
    return float(state[L.STORE + player] - state[L.STORE + 1 - player])


@pytest.mark.parametrize(
    "evaluate",
    [
        # a numba evaluation compiles a search of its own in every process
        pytest.param(_store_difference, marks=pytest.mark.integration),
        _python_store_difference,
    ],
)
def test_alphabeta_takes_a_custom_evaluation(evaluate):
    """A numba or plain Python evaluation runs the same search."""
    custom = AlphaBetaAgent(evaluate=evaluate)
    built_in = AlphaBetaAgent()
    for game in random_positions("oware", {}, 3, seed=5):
        assert custom.search(game, 3) == built_in.search(game, 3)


def test_alphabeta_custom_evaluation_changes_the_choice():
    """An evaluation that counts player_0's house 1 (pit 0) for player_0 makes depth 1 keep
    it (any move but house 1); its opposite makes depth 1 empty it (house 1)."""

    def pit_zero(state, player, params):
        return float(state[0]) if player == 0 else -float(state[0])

    game = position("oware", [4] * 12, [0, 0], to_move=0)
    assert AlphaBetaAgent(depth=1, evaluate=pit_zero).act(game) != 0
    assert AlphaBetaAgent(depth=1, evaluate=lambda s, p, q: -pit_zero(s, p, q)).act(game) == 0


def test_alphabeta_reports_nodes_and_depth():
    agent = AlphaBetaAgent(depth=5)
    agent.act(Game("oware"))
    assert agent.last_depth == 5
    assert agent.last_nodes > 100


def test_alphabeta_time_budget_is_kept():
    game = Game("oware")
    agent = load_agent("alphabeta:time=0.2", seed=0)
    agent.act(game)
    start = time.perf_counter()
    agent.act(game)
    assert time.perf_counter() - start < 0.6
    assert agent.last_depth >= 4


def test_alphabeta_depth_and_time_together_stop_at_the_depth():
    agent = load_agent("alphabeta:depth=3,time=30", seed=0)
    start = time.perf_counter()
    agent.act(Game("oware"))
    assert agent.last_depth == 3
    assert time.perf_counter() - start < 5


def test_alphabeta_stops_deepening_once_the_result_is_proven():
    """A won position: the search stops at the depth that proves the win."""
    agent = AlphaBetaAgent(depth=40)
    assert agent.act(winning_oware_position()) == 5
    assert agent.last_depth == 1


# ---- Monte Carlo tree search -----------------------------------------------------------------


@pytest.mark.parametrize("spec", ["mcts:simulations=200", "mcts:time=0.1"])
def test_mcts_takes_the_move_that_wins_at_once(spec):
    """The winning move is proven won once it is tried, and that ends the search."""
    game = winning_oware_position()
    agent = load_agent(spec, seed=0)
    assert agent.act(game) == 5
    assert agent.last_proven == {5: 1.0}
    assert agent.last_root[5][1] == 1.0
    assert agent.last_simulations == sum(v for v, _ in agent.last_root.values()) + 1 < 20


def oware_endgame_won_in_five_plies() -> Game:
    """House 5 wins in 5 plies, house 1 in 9 (alpha-beta to depth 12); house 6 does not win
    (the store difference it keeps is 4)."""
    return position("oware", [1, 0, 0, 0, 1, 2] + [1, 1, 0, 0, 0, 0], [23, 19], to_move=0)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("mix", [0.0, 0.5])
def test_mcts_solver_proves_a_forced_win_in_an_oware_endgame(seed, mix):
    agent = MCTSAgent(simulations=2000, seed=seed, mix=mix)
    action = agent.act(oware_endgame_won_in_five_plies())
    assert action in (0, 4)
    assert agent.last_proven[action] == 1.0
    assert agent.last_simulations < 2000  # proving the root's result ends the search


def test_mcts_never_plays_a_proven_loss_when_another_move_is_open():
    """House 2 lets player_1 capture the 3 seeds that win (22 + 3 > 24). A prior that puts
    everything on it draws the first visits there, until a reply proves it lost: it is then
    the most visited move, and another is played."""
    game = position("oware", [1, 2, 1, 0, 1, 0] + [0, 0, 0, 0, 2, 4], [15, 22], to_move=0)

    def prior_on_house_2(position: Game):
        priors = np.ones(position.n_actions)
        if position.to_move == 0:
            priors = np.eye(position.n_actions)[1]
        return priors, 0.0

    most_visited_and_lost = 0
    for simulations in range(4, 10):
        agent = MCTSAgent(simulations=simulations, prior_value=prior_on_house_2, seed=0)
        action = agent.act(game)
        assert agent.last_proven.get(1) == 0.0
        assert action != 1
        visits = {a: v for a, (v, _) in agent.last_root.items()}
        most_visited_and_lost += visits[1] == max(visits.values())
    assert most_visited_and_lost >= 2


@pytest.mark.parametrize("mix", [0.0, 0.5])
def test_mcts_seeded_search_is_reproducible(mix):
    game = Game("oware")
    game.step(2)
    runs = []
    for _ in range(2):
        agent = MCTSAgent(simulations=300, seed=7, mix=mix)
        runs.append((agent.act(game), agent.last_root))
    assert runs[0] == runs[1]
    other = MCTSAgent(simulations=300, seed=8, mix=mix)
    other.act(game)
    assert other.last_root != runs[0][1]  # the seed is what made them equal


def test_mcts_reports_simulations_and_keeps_the_time_budget():
    agent = load_agent("mcts:time=0.2", seed=0)
    game = Game("oware")
    agent.act(game)
    start = time.perf_counter()
    agent.act(game)
    assert time.perf_counter() - start < 0.6
    assert agent.last_simulations > 100
    assert sum(v for v, _ in agent.last_root.values()) == agent.last_simulations - 1


def test_mcts_runs_exactly_the_simulations_asked_for():
    """The tree grows past its first arrays (4096 nodes) without losing simulations."""
    agent = MCTSAgent(simulations=3000, seed=1)
    agent.act(Game("oware"))
    assert agent.last_simulations == 3000
    assert sum(v for v, _ in agent.last_root.values()) == 3000 - 1  # the first expands the root


def test_mcts_prior_value_hook_replaces_priors_and_rollouts():
    """PUCT: a prior on one move draws the visits there; the hook sees each new leaf once."""
    calls = []

    def prior_value(game: Game):
        calls.append(game.to_move)
        priors = np.zeros(game.n_actions)
        priors[3] = 1.0
        return priors, 0.0

    agent = MCTSAgent(simulations=40, prior_value=prior_value, seed=0)
    assert agent.act(Game("oware")) == 3
    assert agent.last_simulations == 40
    assert len(calls) == 40  # no finished game within reach: every simulation adds a leaf


def test_mcts_prior_value_sees_a_win_at_once():
    """With uniform priors and a neutral value, the winning move's result (1) draws the visits."""

    def neutral(game: Game):
        return np.ones(game.n_actions), 0.0

    agent = MCTSAgent(simulations=60, prior_value=neutral, seed=0)
    assert agent.act(winning_oware_position()) == 5
    assert agent.last_root[5][1] == 1.0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"mix": 1.5}, "^mix must be a number from 0 to 1, got 1.5$"),
        ({"mix": -0.1}, "^mix must be a number from 0 to 1, got -0.1$"),
        ({"mix": 0.5, "prior_value": lambda game: (np.ones(6), 0.0)}, "^mix is for UCT"),
    ],
)
def test_mcts_mix_is_checked(kwargs, message):
    with pytest.raises(ValueError, match=message):
        MCTSAgent(**kwargs)


def test_mcts_prior_value_with_wrong_length_is_named():
    agent = MCTSAgent(simulations=5, prior_value=lambda game: (np.ones(3), 0.0))
    with pytest.raises(ValueError, match="returned 3 priors; the action space has 6"):
        agent.act(Game("oware"))


# ---- what the searches share ----------------------------------------------------------------


@pytest.mark.parametrize(
    "cls, key, bad, allowed",
    [
        (AlphaBetaAgent, "depth", 0, "from 1 to 64"),
        (AlphaBetaAgent, "depth", 65, "from 1 to 64"),
        (AlphaBetaAgent, "depth", 2.5, "from 1 to 64"),
        (AlphaBetaAgent, "depth", True, "from 1 to 64"),
        (MCTSAgent, "simulations", 0, "from 1 to 1,000,000"),
        (MCTSAgent, "simulations", 2.5, "from 1 to 1,000,000"),
        (MCTSAgent, "simulations", 2**62, "from 1 to 1,000,000"),
    ],
)
def test_search_work_budget_is_checked(cls, key, bad, allowed):
    with pytest.raises(ValueError, match=f"^{key} must be an integer {allowed}, got {bad!r}$"):
        cls(**{key: bad})


@pytest.mark.parametrize("cls", [AlphaBetaAgent, MCTSAgent])
@pytest.mark.parametrize("time_limit", [0, -1.5, 86400.5])
def test_search_time_limit_is_checked(cls, time_limit):
    with pytest.raises(
        ValueError, match=f"^time must be a number above 0 and at most 86400, got {time_limit}$"
    ):
        cls(time_limit=time_limit)


def test_search_agents_show_their_budgets():
    assert repr(AlphaBetaAgent()) == "AlphaBetaAgent(depth=6)"
    assert repr(AlphaBetaAgent(depth=3, time_limit=0.5)) == "AlphaBetaAgent(depth=3, time=0.5)"
    assert repr(AlphaBetaAgent(time_limit=2)) == "AlphaBetaAgent(time=2)"
    assert repr(MCTSAgent()) == "MCTSAgent(simulations=800, c=0.5, mix=0.5)"
    assert repr(MCTSAgent(time_limit=1.0, c=0.7, mix=0)) == "MCTSAgent(time=1.0, c=0.7, mix=0)"


@pytest.mark.parametrize("agent", [AlphaBetaAgent(depth=6), MCTSAgent(simulations=50)])
def test_search_agents_play_a_lone_legal_move_without_searching(agent):
    """Only house 6 holds seeds: it is played with no search, and the statistics of the last
    search are cleared."""
    agent.act(Game("oware"))
    game = position("oware", [0, 0, 0, 0, 0, 1] + [4] * 6, [11, 12], to_move=0)
    assert game.legal_actions() == [5]
    assert agent.act(game) == 5
    assert agent.last_seconds == 0.0
    assert getattr(agent, "last_nodes", 0) == 0 and getattr(agent, "last_simulations", 0) == 0
    assert getattr(agent, "last_root", {}) == {}


@pytest.mark.parametrize("agent", [AlphaBetaAgent(depth=2), MCTSAgent(simulations=5)])
def test_search_agents_refuse_a_finished_game(agent):
    game = Game("oware")
    play(game, [RandomAgent(seed=0), RandomAgent(seed=1)])
    with pytest.raises(ValueError, match="the game is over: there is no move to choose"):
        agent.act(game)


# ---- seeds -----------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["random", "greedy", "alphabeta:depth=3", "mcts:simulations=30"])
def test_seeded_agents_are_reproducible(spec):
    def moves(agent) -> list[int]:
        game = Game("oware", first_player="player_0")
        return play(game, [agent, RandomAgent(seed=9)])

    first = moves(load_agent(spec, seed=4))
    assert moves(load_agent(spec, seed=4)) == first
    again = load_agent(spec, seed=1)
    moves(again)
    again.reset(4)
    assert moves(again) == first


# ---- trained policies ------------------------------------------------------------------------


def test_ppo_spec_names_a_missing_file(tmp_path):
    path = tmp_path / "nowhere" / "model.zip"
    with pytest.raises(ValueError, match="no such file") as error:
        load_agent(f"ppo:{path}")
    assert str(path) in str(error.value)


def test_ppo_spec_names_a_file_that_is_not_a_model(tmp_path):
    path = tmp_path / "notes.zip"
    path.write_text("not a model")
    with pytest.raises(ValueError, match="cannot load a MaskablePPO model from") as error:
        load_agent(f"ppo:{path}")
    assert str(path) in str(error.value)


def test_ppo_spec_loads_a_trained_model_and_plays(tmp_path):
    from sb3_contrib import MaskablePPO

    from mancala_env.vec_env import MancalaVecEnv

    env = MancalaVecEnv("oware", n_envs=2, seed=0)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=16, batch_size=16, n_epochs=1, seed=0, device="cpu"
    )
    model.learn(32)
    model.save(tmp_path / "tiny")
    for spec in (f"ppo:{tmp_path / 'tiny.zip'}", f"ppo:{tmp_path / 'tiny'}"):
        agent = load_agent(spec, variant="oware", seed=0)
        game = Game("oware")
        play(game, [agent, RandomAgent(seed=0)])
        assert game.over
    with pytest.raises(ValueError, match="does not fit mangala"):
        load_agent(f"ppo:{tmp_path / 'tiny.zip'}", variant="mangala")


# ---- people ----------------------------------------------------------------------------------


def scripted(entries: list[str]):
    """An input function that types `entries` in turn, and a list of what was said back."""
    typed = iter(entries)
    prompts: list[str] = []
    said: list[str] = []

    def input_fn(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed)

    return input_fn, said.append, prompts, said


def test_human_agent_explains_bad_entries_and_asks_again():
    game = position("oware", [4, 0, 5, 5, 5, 5] + [4] * 6, [0, 0], to_move=0)
    input_fn, output_fn, prompts, said = scripted(["", "seven", "9", "2", " 3 "])
    agent = HumanAgent(input_fn, output_fn)
    assert agent.act(game) == 2
    assert len(prompts) == 5
    assert prompts[0] == "player_0, your move (1 3 4 5 6): "
    assert said[0].startswith("Please enter a move")
    assert said[1] == "'seven' is not a move. Legal moves: 1, 3, 4, 5, 6 (or help, quit)."
    assert said[2].startswith("There is no house 9.")
    assert said[3].startswith("House 2 cannot be played now")
    assert len(said) == 4


def test_human_agent_help_lists_the_legal_entries_with_what_they_do():
    game = position("oware", [4, 0, 5, 5, 5, 5] + [4] * 6, [0, 0], to_move=0)
    input_fn, output_fn, prompts, said = scripted([" Help ", "4"])
    assert HumanAgent(input_fn, output_fn).act(game) == 3
    assert len(prompts) == 2
    assert said == [
        "Legal entries for player_0:\n"
        "  1  lifts house 1\n  3  lifts house 3\n  4  lifts house 4\n"
        "  5  lifts house 5\n  6  lifts house 6\n"
        "  help: this list; quit: stop"
    ]


def test_human_agent_help_names_special_entries():
    game = Game("ayoyayo")
    input_fn, output_fn, _, said = scripted(["help", "1"])
    HumanAgent(input_fn, output_fn).act(game)
    odu = next(line for line in said[0].splitlines() if line.strip().startswith("2>3"))
    assert game.describe_action(int(game.params[L.P_LIFT_ACTIONS]) + 1) in odu


def test_human_agent_quit_stops_the_game():
    game = Game("oware", first_player="player_1")
    input_fn, output_fn, _, said = scripted(["quit"])
    with pytest.raises(QuitGame, match="player_1 quit"):
        HumanAgent(input_fn, output_fn).act(game)
    assert said == []


def test_human_agent_types_special_moves():
    """Ayoyayo's odu transfer ('2>3'), J'erin's opening ('1+2'), Mangala's setting out (a
    count, then accept or turn)."""
    game = Game("ayoyayo")
    assert HumanAgent(scripted(["2>3"])[0]).act(game) == int(game.params[L.P_LIFT_ACTIONS]) + 1
    game = Game("jerin")
    lifts = int(game.params[L.P_LIFT_ACTIONS])
    assert HumanAgent(scripted(["1+2"])[0]).act(game) == lifts
    game = Game("mangala", first_player="player_0")
    input_fn, output_fn, prompts, said = scripted(["71", "20", "20", "15", "turn"])
    human = HumanAgent(input_fn, output_fn)
    for _ in range(3):
        game.step(human.act(game))
    assert said == ["71 is not allowed here: leave from 0 to 70 seeds in this hole."]
    assert prompts[0].startswith("player_0, how many of the 70 seeds stay in central hole 1?")
    game.step(human.act(game))
    assert game.snapshot()["phase"] == "play"
    assert sum(game.pits) == 70


def test_alphabeta_plays_the_same_game_whether_or_not_its_search_was_warm():
    """The compile warm-up of a process's first move must not leave positions in the table
    (it once steered that game away from the same game played later)."""
    from mancala_env.agents import alphabeta

    def game_moves() -> list[int]:
        game = Game("obridjie")
        game.reset(np.random.default_rng(4088532484))
        for action in (5, 3, 0, 2):
            game.step(action)
        players = [AlphaBetaAgent(depth=1, seed=766065486), RandomAgent(4124778874)]
        moves = []
        while not game.over:
            moves.append(players[game.to_move].act(game))
            game.step(moves[-1])
        return moves

    alphabeta._WARM.clear()
    cold = game_moves()
    assert game_moves() == cold
