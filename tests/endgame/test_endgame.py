"""Endgame databases: the numbering of boards, the values against an independent search of
the game, the files (refused when corrupt or built for other rules), resuming a build, the
perfect agent and the accuracy measure."""

from __future__ import annotations

import json
import os

import numba
import numpy as np
import pytest
from threads import run_on_threads

from mancala_env import Game
from mancala_env.agents import GreedyAgent, SpecError, load_agent
from mancala_env.agents.accuracy import measure_accuracy, wilson_interval
from mancala_env.agents.alphabeta import TB_SEED, TB_WIN, WIN, WIN_ZONE, AlphaBetaAgent
from mancala_env.agents.perfect import PerfectAgent
from mancala_env.cli import main
from mancala_env.endgame import build as build_module
from mancala_env.endgame.build import build
from mancala_env.endgame.database import EndgameDatabase
from mancala_env.endgame.files import HEADER_SIZE, DatabaseError, database_identity, level_path
from mancala_env.endgame.index import BINOMIAL, level_size, rank, total_size, unrank
from mancala_env.endgame.kernels import NO_EXIT
from mancala_env.endgame.positions import position_game, random_board, random_choices
from mancala_env.endgame.rules import solving_params, solving_template
from mancala_env.endgame.settle import GROUP, chase_start, settle_level
from mancala_env.engine import layout as L
from mancala_env.engine.turn import begin_turn, step
from mancala_env.variants import Variant, get_variant

OWARE = get_variant("oware")
SEEDS = 7  # the boards of the database the tests share (`oware_db`, tests/conftest.py)


# ---- numbering -------------------------------------------------------------------------------
@pytest.mark.parametrize("seeds", [0, 1, 3, 5])
def test_boards_are_numbered_without_gaps_in_lexicographic_order(seeds: int) -> None:
    board = np.zeros(12, np.int64)
    boards = []
    for index in range(level_size(seeds, 12)):
        unrank(index, seeds, BINOMIAL, board)
        assert board.min() >= 0 and board.sum() == seeds
        assert rank(board, seeds, BINOMIAL) == index
        boards.append(tuple(board))
    assert boards == sorted(set(boards))
    assert sum(level_size(k, 12) for k in range(seeds + 1)) == total_size(seeds, 12)


def test_level_sizes_of_the_benchmark() -> None:
    assert level_size(20, 12) == 84_672_315  # C(31, 11)
    assert total_size(20, 12) == 225_792_840  # C(32, 12): every board of at most 20 seeds


# ---- the values against a search of the game -----------------------------------------------
class GameGraph:
    """Every position reachable from some roots, played with the engine on whole states (not
    turned to the mover's side), solved by attractors: a player can force a share of at least
    `u` half seeds (more than half the board) when they reach it in finitely many moves (by
    the counting, worklist attractor); play that never captures again gives each half."""

    def __init__(self, variant: Variant, params: np.ndarray) -> None:
        self.params = params
        self.pits = 2 * int(params[L.P_HOUSES])
        self.template = solving_template(variant, params)
        self.moves: dict[tuple, list] = {}  # position -> [(captured, child or None, final)]
        self.values: dict[tuple, int] = {}

    def state(self, key: tuple) -> np.ndarray:
        state = self.template.copy()
        state[: self.pits] = key[:-1]
        state[L.TO_MOVE] = key[-1]
        begin_turn(state, self.params)
        return state

    def explore(self, roots: list[tuple]) -> None:
        todo = [root for root in roots if root not in self.moves]
        while todo:
            key = todo.pop()
            if key in self.moves:
                continue
            state, mover = self.state(key), key[-1]
            if state[L.OVER]:
                self.moves[key] = [(2 * int(state[L.STORE + mover]), None)]
                continue
            self.moves[key] = []
            for action in np.flatnonzero(state[L.LEGAL : L.LEGAL + self.pits // 2]):
                child = state.copy()
                step(child, int(action), self.params)
                won = 2 * int(child[L.STORE + mover])
                after = None if child[L.OVER] else (*child[: self.pits], int(child[L.TO_MOVE]))
                self.moves[key].append((won, after))
                if after is not None:
                    todo.append(after)

    def solve(self) -> None:
        by_seeds: dict[int, list[tuple]] = {}
        for key in self.moves:
            by_seeds.setdefault(sum(key[:-1]), []).append(key)
        for seeds in sorted(by_seeds):
            self._solve_level(seeds, by_seeds[seeds])

    def _solve_level(self, seeds: int, keys: list[tuple]) -> None:
        exits, edges = {}, {}
        for key in keys:
            exits[key], edges[key] = [], []
            for won, child in self.moves[key]:
                if child is not None and sum(child[:-1]) == seeds:
                    assert child[-1] != key[-1]  # a move that captures nothing hands over
                    edges[key].append(child)
                elif child is None:
                    exits[key].append(won)
                else:
                    theirs = self.values[child]
                    left = 2 * sum(child[:-1])
                    exits[key].append(won + (theirs if child[-1] == key[-1] else left - theirs))
        parents: dict[tuple, list[tuple]] = {key: [] for key in keys}
        for key in keys:
            for child in edges[key]:
                parents[child].append(key)
        forced_by_mover, forced_by_other = {}, {}
        for share in range(seeds + 1, 2 * seeds + 1):
            # other_wins: the mover's opponent forces `share`; mover_wins: the mover does
            mover_wins = {k for k in keys if any(e >= share for e in exits[k])}
            hopeless = {k for k in keys if all(e <= 2 * seeds - share for e in exits[k])}
            waiting = {k: len(edges[k]) for k in hopeless}
            for k in mover_wins:
                for parent in parents[k]:
                    if parent in waiting:
                        waiting[parent] -= 1
            other_wins = {k for k in hopeless if waiting[k] == 0}
            todo = list(other_wins)
            while todo:
                won = todo.pop()
                for parent in parents[won]:
                    if parent in mover_wins:
                        continue
                    mover_wins.add(parent)
                    for grandparent in parents[parent]:
                        if grandparent in waiting and grandparent not in other_wins:
                            waiting[grandparent] -= 1
                            if waiting[grandparent] == 0:
                                other_wins.add(grandparent)
                                todo.append(grandparent)
            for key in mover_wins:
                forced_by_mover[key] = share
            for key in other_wins:
                forced_by_other[key] = share
        for key in keys:
            if key in forced_by_mover:
                self.values[key] = forced_by_mover[key]
            elif key in forced_by_other:
                self.values[key] = 2 * seeds - forced_by_other[key]
            else:
                self.values[key] = seeds


@pytest.mark.parametrize("variant", ["oware", "ouri"])
def test_database_equals_a_search_of_the_whole_game(variant: str, tmp_path) -> None:
    rules = get_variant(variant)
    options = rules.options()
    max_seeds = 5
    build(rules, options, max_seeds, tmp_path, progress=False)
    database = EndgameDatabase(tmp_path, rules, options)
    rng = np.random.default_rng(18)
    roots = [
        (*random_board(int(rng.integers(1, max_seeds + 1)), rng), int(rng.integers(2)))
        for _ in range(1500)
    ]
    graph = GameGraph(rules, solving_params(rules, options))
    graph.explore(roots)
    graph.solve()
    assert len(graph.values) > 3000  # the roots and every position reachable from them
    for key, value in graph.values.items():
        assert database.half_seeds(np.array(key[:-1]), key[-1]) == value, key
    halves = [v for k, v in graph.values.items() if v % 2 == 1]
    assert halves  # some chases with an odd seed: scored half a seed each


def test_a_small_board_is_solved_whole(tmp_path, capsys) -> None:
    """Three houses of two seeds: a database of every board of up to 12 seeds holds the whole
    game. Every position reachable from the start has the value the search of the game graph
    gives it, and `mancala solve` reports the start's value."""
    options = OWARE.options(houses=3, seeds=2)
    args = ["solve", "oware", "--option", "houses=3", "--option", "seeds=2"]
    assert main([*args, "--max-seeds", "12", "--out", str(tmp_path), "--no-progress"]) == 0
    database = EndgameDatabase(tmp_path, OWARE, options)
    graph = GameGraph(OWARE, solving_params(OWARE, options))
    start = (2,) * 6 + (0,)
    graph.explore([start])
    graph.solve()
    assert len(graph.values) > 2000
    for key, value in graph.values.items():
        assert database.half_seeds(np.array(key[:-1]), key[-1]) == value, key
    first = graph.values[start] / 2
    assert f"the first player wins {first:g} of the 12 seeds" in capsys.readouterr().out
    with pytest.raises(ValueError, match="covers boards of 6 pit counts"):
        database.half_seeds(np.zeros(12, np.int64), 0)


def test_a_board_has_one_value_whichever_player_is_to_move(oware_db: EndgameDatabase) -> None:
    rng = np.random.default_rng(1)
    for _ in range(200):
        board = random_board(int(rng.integers(0, SEEDS + 1)), rng)
        turned = np.roll(board, 6)
        assert oware_db.half_seeds(board, 1) == oware_db.half_seeds(turned, 0)
        assert 0 <= oware_db.value(board, 0) <= board.sum()


def test_kpo_shares_owares_database(oware_db: EndgameDatabase) -> None:
    kpo = get_variant("kpo")
    database = EndgameDatabase(oware_db.directory, kpo, kpo.options(first_player="player_1"))
    assert database.max_seeds == SEEDS


def test_a_board_outside_the_database_is_refused(oware_db: EndgameDatabase) -> None:
    with pytest.raises(ValueError, match="at most 7 seeds"):
        oware_db.half_seeds(np.full(12, 1), 0)
    game = position_game(OWARE, OWARE.options(), np.full(12, 1), 0)
    assert not oware_db.covers(game)
    with pytest.raises(ValueError, match="not in the database"):
        oware_db.action_values(game)


# ---- refusals (and more in test_endgame_relay.py) ---------------------------------------------
def test_a_database_of_other_rules_is_refused(oware_db: EndgameDatabase, tmp_path) -> None:
    ouri = get_variant("ouri")
    with pytest.raises(DatabaseError, match=r"was built for oware v1 \(grand_slam=no_capture"):
        EndgameDatabase(oware_db.directory, ouri, ouri.options())
    with pytest.raises(DatabaseError, match="was built for oware"):
        EndgameDatabase(oware_db.directory, OWARE, OWARE.options(grand_slam="capture"))
    with pytest.raises(DatabaseError, match="was built for oware"):  # nor added to
        build(OWARE, OWARE.options(grand_slam="capture"), 3, oware_db.directory, False)
    with pytest.raises(DatabaseError, match="holds no endgame database"):
        EndgameDatabase(tmp_path, OWARE, OWARE.options())


def _copy_of_levels(source, target, levels: int) -> None:
    for seeds in range(levels + 1):
        level_path(target, seeds).write_bytes(level_path(source, seeds).read_bytes())


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda data: data[: HEADER_SIZE + 10], "truncated"),
        (lambda data: data[:-1] + bytes([(data[-1] + 1) % 256]), "checksum"),
        (lambda data: b"junk" + data[4:], "not an endgame database file"),
        (lambda data: data[:20] + b"\xff{" + data[22:], "header cannot be read"),
    ],
)
def test_a_corrupt_file_is_refused(oware_db, tmp_path, damage, message) -> None:
    _copy_of_levels(oware_db.directory, tmp_path, 4)
    path = level_path(tmp_path, 4)
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(DatabaseError, match=message):
        EndgameDatabase(tmp_path, OWARE, OWARE.options())


# ---- building --------------------------------------------------------------------------------
def test_a_build_goes_on_from_the_last_finished_seed_count(oware_db, tmp_path, monkeypatch):
    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    build(OWARE, OWARE.options(), 3, tmp_path, progress=False)
    finished = {k: os.stat(level_path(tmp_path, k)).st_mtime_ns for k in range(4)}
    with monkeypatch.context() as patch:  # a build killed while it solves 5 seeds
        real = build_module._solve_level
        patch.setattr(
            build_module,
            "_solve_level",
            lambda seeds, *rest: stopped() if seeds == 5 else real(seeds, *rest),
        )
        with pytest.raises(KeyboardInterrupt):
            build(OWARE, OWARE.options(), SEEDS, tmp_path, progress=False)
    assert level_path(tmp_path, 4).exists() and not level_path(tmp_path, 5).exists()
    report = build(OWARE, OWARE.options(), SEEDS, tmp_path, progress=False)
    assert report.found == [0, 1, 2, 3, 4] and report.solved == [5, 6, 7]
    assert {k: os.stat(level_path(tmp_path, k)).st_mtime_ns for k in range(4)} == finished
    for seeds in range(SEEDS + 1):
        fresh = level_path(oware_db.directory, seeds).read_bytes()
        assert level_path(tmp_path, seeds).read_bytes() == fresh


def _settle_every_board_every_pass(seeds, exits, edge_counts, targets, max_passes):
    """`settle.settle_level` without skipping: every board worked out again every pass."""
    edges = np.concatenate(list(targets))
    starts = np.concatenate([[0], np.cumsum(edge_counts, dtype=np.int64)])
    best_exit = np.where(exits == NO_EXIT, -1, exits.astype(np.int64))
    values = np.where(edge_counts > 0, np.maximum(best_exit, seeds), best_exit)
    for passes in range(1, max_passes + 1):
        changed = 0
        for i in range(values.shape[0]):
            best = best_exit[i]
            for child in edges[starts[i] : starts[i + 1]]:
                best = max(best, 2 * seeds - values[child])
            if best != values[i]:
                values[i] = best
                changed += 1
        if changed == 0:
            return values.astype(np.uint8), passes
    return values.astype(np.uint8), -1


@pytest.mark.parametrize("houses, seeds", [(3, 14), (6, 7)])
def test_settling_a_level_skips_only_boards_whose_children_did_not_change(houses, seeds, tmp_path):
    """The settling passes skip a board when no child changed since it was last worked out:
    on one thread the values and the passes are those of working out every board every pass
    in order; on all threads (the blocks of boards in parallel, each pass reading what the
    others have written so far) the values are the same."""
    options = OWARE.options(houses=houses)
    build(OWARE, options, seeds - 1, tmp_path, progress=False)
    pits = 2 * houses
    offsets = np.array([total_size(k - 1, pits) if k else 0 for k in range(seeds + 2)], np.int64)
    values = np.zeros(offsets[-1], np.uint8)
    for k in range(seeds):
        values[offsets[k] : offsets[k + 1]] = np.fromfile(
            level_path(tmp_path, k), np.uint8, offset=HEADER_SIZE
        )
    params = solving_params(OWARE, options)
    moves = build_module.solver_kernels(OWARE, params)
    *edges, _ = build_module._edges_of_level(
        seeds, values, offsets, params, solving_template(OWARE, params), lambda boards: None, moves
    )
    exits, edge_counts, _, targets = edges
    count = level_size(seeds, pits)
    assert count > 10 * GROUP
    expected, expected_passes = _settle_every_board_every_pass(
        seeds, exits, edge_counts, targets, count + 2
    )
    level = values[offsets[seeds] :]

    def settle(max_passes: int) -> int:
        chase_start(seeds, exits, edge_counts, level)
        return settle_level(seeds, *edges, level, level[:0], max_passes)[0]

    assert settle(count + 2) > 0
    assert (level == expected).all()
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        level[:] = 0
        assert settle(count + 2) == expected_passes > 3
        assert (level == expected).all()
        # cut off early, the passes made so far agree as well
        level[:] = 0
        assert settle(3) == -1
        cut = _settle_every_board_every_pass(seeds, exits, edge_counts, targets, 3)[0]
        assert (level == cut).all()
    finally:
        numba.set_num_threads(threads)


def test_a_database_built_on_several_threads_is_the_one_built_on_one(tmp_path):
    """The settling passes work out blocks of boards in parallel, each reading what the others
    have written so far: built on a pool of two threads (in a process of its own: the tests'
    processes have one thread under xdist), every level's file is the one built on one."""
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        build(OWARE, OWARE.options(), SEEDS, tmp_path / "one", progress=False)
    finally:
        numba.set_num_threads(threads)
    command = ["-m", "mancala_env.cli", "solve", "oware", "--max-seeds", str(SEEDS)]
    run_on_threads([*command, "--out", str(tmp_path / "two"), "--no-progress"], threads=2)
    for seeds in range(SEEDS + 1):
        one = level_path(tmp_path / "one", seeds).read_bytes()
        assert level_path(tmp_path / "two", seeds).read_bytes() == one, seeds


def test_an_interrupted_solve_command_says_how_to_go_on(tmp_path, monkeypatch, capsys):
    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(build_module, "build", stopped)
    assert main(["solve", "oware", "--max-seeds", "4", "--out", str(tmp_path)]) == 130
    assert "run the same command to continue" in capsys.readouterr().err


def test_max_seeds_is_checked(tmp_path) -> None:
    """At most 31 seeds on twelve pits (a level's boards are numbered in 32 bits), and never
    more than the game has."""
    for bad in (-1, 32, 2.0, True):
        with pytest.raises(ValueError, match="max_seeds must be an integer from 0 to 31"):
            build(OWARE, OWARE.options(), bad, tmp_path, progress=False)
    small = OWARE.options(houses=4, seeds=3)
    with pytest.raises(ValueError, match="max_seeds must be an integer from 0 to 24"):
        build(OWARE, small, 25, tmp_path, progress=False)


# ---- the perfect agent -----------------------------------------------------------------------
def test_the_perfect_agent_never_gives_value_away(oware_db: EndgameDatabase) -> None:
    agent = load_agent(f"perfect:db={oware_db.directory}", variant="oware", seed=3)
    opponent = load_agent("random", seed=4)
    rng = np.random.default_rng(5)
    for _ in range(40):
        seeds = int(rng.integers(3, SEEDS + 1))
        game = position_game(OWARE, OWARE.options(), random_board(seeds, rng), 0)
        start = game.stores[0] + oware_db.value(game.pits, 0) if oware_db.covers(game) else None
        while oware_db.covers(game):
            if game.to_move == 0:
                values = oware_db.action_values(game)
                assert values[agent.act(game)] == max(values.values())
            game.step((agent if game.to_move == 0 else opponent).act(game))
            if oware_db.covers(game):  # what player_0 holds and can still win never drops
                mine = (
                    oware_db.value(game.pits, 0)
                    if game.to_move == 0
                    else (game.pits.sum() - oware_db.value(game.pits, 1))
                )
                assert game.stores[0] + mine >= start


def test_the_perfect_agent_plays_greedily_outside_its_database(oware_db) -> None:
    # 12 seeds: house 6 sows into houses of 1 and 1 and takes both (4 seeds); house 1 takes none
    pits = np.array([1, 0, 0, 0, 0, 2, 1, 1, 3, 1, 1, 2])
    game = position_game(OWARE, OWARE.options(), pits, 0)
    assert not oware_db.covers(game)
    agent = PerfectAgent(oware_db.directory, seed=0)
    greedy = GreedyAgent(seed=0)
    assert agent.act(game) == greedy.act(game) == 5


def test_perfect_specs(oware_db, tmp_path) -> None:
    with pytest.raises(SpecError, match="needs its database's directory"):
        load_agent("perfect")
    with pytest.raises(SpecError, match="not a directory"):
        load_agent(f"perfect:db={tmp_path / 'none'}")
    with pytest.raises(SpecError, match="unknown key 'depth'"):
        load_agent("perfect:depth=2")


# ---- accuracy --------------------------------------------------------------------------------
def test_wilson_interval() -> None:
    low, high = wilson_interval(8, 10)
    assert (round(low, 3), round(high, 3)) == (0.490, 0.943)


def test_accuracy_of_perfect_and_random_play(oware_db: EndgameDatabase) -> None:
    perfect = PerfectAgent(oware_db.directory, seed=0)
    rows = measure_accuracy(perfect, oware_db, OWARE, OWARE.options(), 6, 40, seed=1)
    assert [row.seeds for row in rows] == [3, 4, 5, 6, None]
    assert [row.positions for row in rows] == [10, 10, 10, 10, 40]
    assert all(row.keeps_value == 1 and row.seeds_lost == 0 for row in rows)
    random_rows = measure_accuracy(
        load_agent("random", seed=0), oware_db, OWARE, OWARE.options(), 6, 200, seed=1
    )
    everything = random_rows[-1]
    assert everything.keeps_low < everything.keeps_value < everything.keeps_high < 1
    assert 0 < everything.lost_low < everything.seeds_lost < everything.lost_high


def test_positions_with_a_choice() -> None:
    rng = np.random.default_rng(0)
    game = next(random_choices(OWARE, OWARE.options(), 4, rng))
    assert len(game.legal_actions()) >= 2 and game.pits.sum() == 4
    assert game.stores.tolist() == [22, 22]
    with pytest.raises(ValueError, match="no position of 2 seeds in 500 random boards"):
        next(random_choices(OWARE, OWARE.options(), 2, rng, max_draws=500))


def test_accuracy_command(oware_db, capsys) -> None:
    db = str(oware_db.directory)
    args = ["accuracy", "greedy", "--db", db, "--max-seeds", "5", "--positions", "30"]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"greedy on oware: 30 positions of 3 to 5 seeds (seed 0), scored by {db}"
    assert lines[1].split()[:2] == ["seeds", "positions"]
    assert [line.split()[:2] for line in lines[2:]] == [
        ["3", "10"],
        ["4", "10"],
        ["5", "10"],
        ["all", "30"],
    ]
    assert main([*args, "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows[-1]["seeds"] is None and 0 <= rows[-1]["keeps_value"] <= 1
    assert main([*args[:4], "--max-seeds", "9", "--positions", "30"]) == 2
    assert "max_seeds must be an integer from 3 to 7" in capsys.readouterr().err


def test_solve_command(tmp_path, capsys) -> None:
    out = str(tmp_path / "db")
    assert main(["solve", "kpo", "--max-seeds", "4", "--out", out, "--no-progress"]) == 0
    assert "boards of 0 to 4 seeds" in capsys.readouterr().out
    assert main(["solve", "oware", "--max-seeds", "5", "--out", out, "--no-progress"]) == 0
    assert "5 seed counts found, 1 solved" in capsys.readouterr().out
    assert main(["solve", "ayoyayo", "--max-seeds", "4", "--out", out]) == 2
    assert "odu transfer" in capsys.readouterr().err


def test_a_perfect_agent_is_known_by_its_database_content(tmp_path):
    """Tournaments key games by what an agent is: a perfect agent by its database's files, so a
    database rebuilt or replaced at the same path means new games."""
    from mancala_env.agents.loader import agent_identity

    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "seeds_00.egdb").write_bytes(name.encode() * 10)
    first = agent_identity(f"perfect:db={tmp_path / 'a'}")
    assert first.startswith("perfect v") and first != agent_identity(f"perfect:db={tmp_path / 'b'}")
    (tmp_path / "a" / "seeds_00.egdb").write_bytes(b"changed")
    assert agent_identity(f"perfect:db={tmp_path / 'a'}") != first


# ---- alpha-beta with a database -------------------------------------------------------------
def outcome(database: EndgameDatabase, game) -> tuple[int, bool]:
    """The final seed margin of the player to move under best play, by the database's Python
    reader, and whether the result is proven (not an odd chase seed deciding it)."""
    mover, seeds = game.to_move, int(game.pits.sum())
    half = database.half_seeds(game.pits, mover)
    margin = int(game.stores[mover] - game.stores[1 - mover]) - seeds + half
    return margin, not (half % 2 == 1 and abs(margin) <= 1)


def positions_with_stores(count: int, seed: int, low: int = 3, high: int = SEEDS) -> list:
    """Positions with a choice, of `low` to `high` seeds, the stores shared out at random (no
    majority yet), so wins, draws and losses all come up."""
    rng = np.random.default_rng(seed)
    positions = []
    while len(positions) < count:
        seeds = int(rng.integers(low, high + 1))
        game = next(random_choices(OWARE, OWARE.options(), seeds, rng))
        off_board = 48 - seeds
        mine = int(rng.integers(off_board - 24, 25))
        game.state[L.STORE : L.STORE + 2] = (mine, off_board - mine)
        begin_turn(game.state, game.params)
        if not game.over:
            positions.append(game)
    return positions


def test_alphabeta_with_a_database_plays_perfectly_where_depth_one_does_not(oware_db) -> None:
    with_db = load_agent(f"alphabeta:depth=1,tb={oware_db.directory}", seed=0)
    without = load_agent("alphabeta:depth=1", seed=0)
    gave_away = 0
    for game in positions_with_stores(60, seed=1):
        values = oware_db.action_values(game)
        assert values[with_db.act(game)] == max(values.values())
        gave_away += values[without.act(game)] < max(values.values())
    assert gave_away >= 5


def test_alphabeta_root_value_is_the_databases_outcome(oware_db) -> None:
    agent = load_agent(f"alphabeta:depth=3,tb={oware_db.directory}", seed=0)
    results = set()
    for game in positions_with_stores(200, seed=2):
        margin, proven = outcome(oware_db, game)
        agent.act(game)
        value = agent.last_value
        assert agent.last_depth == 1  # exact at once: no deeper iteration
        if not proven:
            assert value == margin
        elif margin == 0:
            assert value == 0
        else:
            assert abs(value) > WIN_ZONE and np.sign(value) == np.sign(margin)
            assert value == np.sign(margin) * TB_WIN + TB_SEED * margin
        assert agent.search(game, 2)[0] == value
        results.add((int(np.sign(margin)), proven))
    assert {(1, True), (0, True), (-1, True), (1, False), (-1, False)} <= results


def test_alphabeta_probes_the_database_below_its_root(oware_db) -> None:
    """From boards of one to three seeds more than the database holds, a depth-1 search values
    each move's child as the database's Python reader does: an end by the game's own result,
    a covered child by its proven result (a ply away), any other by the store difference."""
    agent = AlphaBetaAgent(depth=1, tb=oware_db.directory)
    probed = 0
    for game in positions_with_stores(200, 3, SEEDS + 1, SEEDS + 3):
        agent.open_database(game)
        mover = game.to_move
        expected = -np.inf
        for action in game.legal_actions():
            child = game.copy()
            child.step(action)
            sign = 1 if child.to_move == mover else -1
            if child.over:
                winner = child.winner()
                value = 0.0 if winner is None else (WIN - 1) * (1 if winner == mover else -1)
            elif oware_db.covers(child):
                probed += 1
                margin, proven = outcome(oware_db, child)
                value = margin if not proven else np.sign(margin) * TB_WIN + TB_SEED * margin
                value = sign * (value - np.sign(value) * (abs(value) > WIN_ZONE))
            else:
                value = float(child.stores[mover] - child.stores[1 - mover])
            expected = max(expected, value)
        assert agent.search(game, 1)[0] == expected
    assert probed >= 15


def test_alphabeta_refuses_a_database_of_other_rules(oware_db) -> None:
    agent = load_agent(f"alphabeta:depth=2,tb={oware_db.directory}", seed=0)
    with pytest.raises(DatabaseError, match="was built for oware v1 .* not for ouri"):
        agent.act(Game("ouri"))
    with pytest.raises(DatabaseError, match="was built for oware v1 .* not for ayoayo"):
        agent.act(Game("ayoayo"))
    with pytest.raises(ValueError, match="no endgame database for obridjie"):
        agent.act(Game("obridjie"))
    agent.act(Game("kpo"))  # the same rules as Oware's


def test_alphabeta_database_specs(oware_db, tmp_path) -> None:
    from mancala_env.agents.loader import agent_identity, parse_spec

    db = str(oware_db.directory)
    assert parse_spec(f"alphabeta:depth=3,tb={db}") == ("alphabeta", {"depth": 3, "tb": db})
    assert repr(load_agent(f"alphabeta:tb={db}")) == f"AlphaBetaAgent(depth=6, tb={db})"
    with pytest.raises(SpecError, match="'tb=' is not key=value"):
        load_agent("alphabeta:depth=2,tb=")
    with pytest.raises(SpecError, match="not a directory holding an endgame database"):
        load_agent(f"alphabeta:tb={tmp_path / 'none'}")
    assert "[,tb=DIR]" in str(pytest.raises(SpecError, load_agent, "alphabeta:tb").value)
    plain = agent_identity("alphabeta:depth=2")
    with_db = agent_identity(f"alphabeta:depth=2,tb={db}")
    assert plain == "alphabeta v1" and with_db == f"{plain} db {database_identity(db)}"
    assert with_db.split(" db ")[1] == agent_identity(f"perfect:db={db}").split(" db ")[1]
