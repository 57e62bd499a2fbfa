"""Random-play throughput of every layer of the suite, measured in one run.

For each rule set: the raw compiled engine on one core and on all cores (random legal moves
chosen inside the compiled loop of the rule set's own kernels, `mancala_env.kernels`; on one
core also in the kernels all rule sets share, `engine_1_core_shared`, to show the gain), the
batched engine (`BatchedGames.step_random`, the random actions chosen inside its compiled step;
`batched_given_actions`: `BatchedGames.step`, handed the actions a compiled call drew before),
the PettingZoo AEC environment with its standard wrappers, the single-agent Gymnasium
environment against a random opponent, and the stable-baselines3 `MancalaVecEnv` against a
random opponent (needs the `train` extra; it counts the learner's moves only, as a training
run sees them), and likewise Gymnasium's vector environment of the batched engine
(``gymnasium.make_vec(id, num_envs=4096)``, `make_vec`). For Oware the same run also measures
two anchors: PettingZoo's `connect_four_v3` (needs pygame) and OpenSpiel's `oware` (needs the
optional `open-spiel` package), stepped from the fastest ordinary Python loop
(`random.choice` over `state.legal_actions()`); a missing one is reported, not measured.

Right after each rule set's `engine_1_core` row comes its family's limit: the C reference loop
of random play of the family's rule set (`FAMILY_LOOPS`: Oware's `anchors/oware_limit.c` for
the rule sets of single laps, Ayoayo's `anchors/ayoayo_limit.c` for the relay rule sets), built
with the system C compiler into a temporary folder (``-O3 -march=native``, as numba compiles the
engine for the host's processor; ``-O3`` where the compiler refuses that: the row's `flags`
say which) and run for `seconds`; its row carries the engine's rate over the loop's (`ratio`)
and says whether the loop plays the rule set's own rules (`same_rules`) or only its family's.
Without a C compiler the row says so.

A move is one ply: one player's action (a setting-out step counts as one). Each measurement
runs for about `seconds` after an untimed warm-up that compiles what it needs.

Two rows per rule set measure other things: a search agent's simulations a second (`searches`:
the command line passes MCTS, `mcts:simulations=1000`, thinking on positions of random play;
its `moves` are simulations), and `game_step_slowest`, the slowest of `slowest_moves` calls of
`Game.step` in random play (a relay rule set's rare long turns show there, not in a rate).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import random
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numba
import numpy as np
from numba import prange

from .batch import BatchedGames
from .engine import layout as L
from .engine.jit import njit
from .engine.turn import new_game, step
from .game import Game
from .kernels import HOT_MODULES, kernels_for
from .opponents import random_actions, random_legal_action
from .variants import VARIANTS, get_variant

CACHE_LINE = 64  # bytes: two threads writing to one line slow each other down


@njit(cache=True, _nrt=False)
def _random_moves(state, params, n_moves):
    """Play `n_moves` random legal moves, starting a new game whenever one ends; return the
    number of games finished."""
    games = 0
    for _ in range(n_moves):
        if state[L.OVER] == 1:
            games += 1
            new_game(params, games % 2, state)
        step(state, random_legal_action(state, params), params)
    return games


@njit(cache=True, parallel=True)
def _random_moves_parallel(states, spread, params, n_moves, games):
    """`_random_moves` on rows 0, `spread`, 2 * `spread`, ... of `states`, one a thread: the
    rows between keep the threads' states off each other's cache lines."""
    for i in prange(games.shape[0]):
        np.random.seed(i)
        games[i] = _random_moves(states[i * spread], params, n_moves)


def _timed(run: Callable[[], tuple[int, int]], seconds: float) -> tuple[int, int, float]:
    """Call `run` (returning moves and games done) until `seconds` have passed."""
    run()  # warm-up: compiles
    moves = games = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        m, g = run()
        moves, games = moves + m, games + g
    return moves, games, elapsed


def _engine(name: str, threads: int, shared: bool = False) -> Callable[[], tuple[int, int]]:
    """Random play inside the rule set's own compiled kernels (`mancala_env.kernels`; a relay
    rule set's keeping the lifts it tried, as MCTS's do), or in the kernels all rule sets share
    (`shared`, one thread)."""
    game = Game(name, first_player="player_0")
    modules = (*HOT_MODULES, __name__)
    uses = ("_random_moves",)
    kernels = kernels_for(game.variant, game.params, modules, True, uses=uses, shared=shared)
    chunk = 20_000
    own = np.zeros(kernels.layout.STATE_SIZE, dtype=np.int32)  # and room for kept lifts
    own[: L.STATE_SIZE] = game.state
    if threads == 1:
        return lambda: (chunk, kernels._random_moves(own, game.params, chunk))
    spread = 1 + -(-CACHE_LINE * 2 // own.nbytes)  # rows apart, at least two lines between
    states = np.stack([own] * (threads * spread))
    games = np.zeros(threads, dtype=np.int64)

    def run() -> tuple[int, int]:
        kernels._random_moves_parallel(states, spread, game.params, chunk, games)
        return chunk * threads, int(games.sum())

    return run


def _batched(name: str, given: bool, n_games: int = 4096) -> Callable[[], tuple[int, int]]:
    """`n_games` games a call of `BatchedGames.step_random`, or with `given` of
    `BatchedGames.step`, its random actions drawn by `BatchedGames.random_actions` before."""
    batch = BatchedGames(name, n_games, seed=0)
    batch.reset()

    def run() -> tuple[int, int]:
        out = batch.step(batch.random_actions()) if given else batch.step_random()[1]
        return n_games, int(out.terminated.sum())

    return run


def _aec(make_env: Callable) -> Callable[[], tuple[int, int]]:
    env = make_env()
    rng = np.random.default_rng(0)
    seed = iter(range(10**9))

    def run() -> tuple[int, int]:
        env.reset(seed=next(seed))
        moves = 0
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            moves += 1
        return moves, 1

    return run


def _gymnasium(name: str) -> Callable[[], tuple[int, int]] | None:
    import gymnasium

    env_id = get_variant(name).gym_id()
    if env_id not in gymnasium.registry:
        return None
    env = gymnasium.make(env_id, opponent="random")
    rng = np.random.default_rng(0)
    seed = iter(range(10**9))

    def run() -> tuple[int, int]:
        env.reset(seed=next(seed))
        moves, done = 0, False
        while not done:
            mask = env.unwrapped.action_masks()
            before = env.unwrapped.game.move_number
            _, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
            moves += env.unwrapped.game.move_number - before  # the opponent's plies too
            done = terminated or truncated
        return moves, 1

    return run


def _vec_env(name: str, n_envs: int = 4096) -> Callable[[], tuple[int, int]] | None:
    if importlib.util.find_spec("stable_baselines3") is None:
        return None
    from .vec_env import MancalaVecEnv

    env = MancalaVecEnv(name, n_envs, seed=0)
    env.reset()
    rng = np.random.default_rng(0)

    def run() -> tuple[int, int]:
        masks = env.action_masks()
        actions = random_actions(masks, rng)
        _, _, dones, _ = env.step(actions)
        return n_envs, int(dones.sum())

    return run


def _make_vec(name: str, n_envs: int = 4096) -> Callable[[], tuple[int, int]]:
    import gymnasium

    env = gymnasium.make_vec(get_variant(name).gym_id(), num_envs=n_envs, opponent="random")
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)

    def run() -> tuple[int, int]:
        nonlocal info
        _, _, terminated, _, info = env.step(random_actions(info["action_mask"], rng))
        return n_envs, int(terminated.sum())

    return run


SEARCH_POSITIONS = 16  # positions a search thinks on, from random play


def _search(name: str, make_agent: Callable[[str], Any]) -> Callable[[], tuple[int, int]]:
    """A search agent's simulations on `SEARCH_POSITIONS` positions of random play, 6 to 36
    plies in (an agent that reports ``last_simulations`` after ``act``)."""
    agent = make_agent(name)
    rng = np.random.default_rng(0)
    positions = []
    for i in range(SEARCH_POSITIONS):
        game = Game(name, first_player="player_0")
        game.reset(np.random.default_rng(i))
        for _ in range(6 + 2 * i):
            legal = game.legal_actions()
            if len(legal) == 0:
                break
            before = game.copy()
            game.step(int(rng.choice(legal)))
            if game.over:
                game = before
                break
        positions.append(game)

    def run() -> tuple[int, int]:
        simulations = 0
        for game in positions:
            agent.act(game.copy())
            simulations += agent.last_simulations
        return simulations, 0

    return run


def slowest_game_step(name: str, moves: int) -> dict[str, Any]:
    """`moves` random moves through `Game.step` (a new game whenever one ends), each timed:
    the slowest in milliseconds, and the rate."""
    game = Game(name)
    rng = np.random.default_rng(0)
    game.reset(rng)
    game.step(int(rng.choice(game.legal_actions())))  # compiles
    game.reset(rng)
    slowest, games, clock = 0.0, 0, time.perf_counter
    start = clock()
    for _ in range(moves):
        if game.over:
            game.reset(rng)
            games += 1
        action = int(rng.choice(game.legal_actions()))
        began = clock()
        game.step(action)
        slowest = max(slowest, clock() - began)
    elapsed = clock() - start
    return {
        "moves": moves,
        "seconds": round(elapsed, 3),
        "moves_per_s": round(moves / elapsed),
        "games_per_s": round(games / elapsed, 1),
        "slowest_ms": round(slowest * 1000, 3),
    }


def _open_spiel_oware() -> Callable[[], tuple[int, int]] | None:
    if importlib.util.find_spec("pyspiel") is None:
        return None
    pyspiel = importlib.import_module("pyspiel")
    game = pyspiel.load_game("oware")
    choice = random.Random(0).choice

    def run() -> tuple[int, int]:
        """The fastest ordinary Python loop: bound methods, `random.choice` on the list."""
        state, moves = game.new_initial_state(), 0
        apply, legal, terminal = state.apply_action, state.legal_actions, state.is_terminal
        while not terminal():
            apply(choice(legal()))
            moves += 1
        return moves, 1

    return run


ANCHORS = Path(__file__).with_name("anchors")
C_COMPILER = "cc"
# numba compiles the engine for the processor it runs on, so the loops are built for it too;
# where the compiler refuses -march=native (some platforms), with C_FALLBACK_FLAGS alone.
C_FLAGS = ("-O3", "-march=native")
C_FALLBACK_FLAGS = ("-O3",)
OPEN_SPIEL = "open_spiel oware (python)"
C_REFERENCE = "c reference loop"  # its row's `flags` say how it was built
# A family of rule sets and the rule set whose C loop (anchors/<name>_limit.c) is its limit.
FAMILY_LOOPS = {"single lap": "oware", "relay": "ayoayo"}


def family(name: str) -> str:
    """The family of a rule set, as its default rules sow: single laps or relays."""
    params = _default_params(name)
    return "single lap" if params[L.P_CONTINUE] == L.CONTINUE_NEVER else "relay"


def _default_params(name: str) -> np.ndarray:
    variant = get_variant(name)
    return variant.params(variant.options_type())


def build_c_loop(name: str, folder: str | Path, *defines: str) -> dict:
    """Compile the C loop of the rule set `name` into `folder` (`defines`: ``NAME=VALUE``
    given to the compiler) with `C_FLAGS`, or `C_FALLBACK_FLAGS` where the compiler refuses
    those: ``{"binary": path, "flags": "-O3 ..."}``, or ``{"note": ...}`` saying why there is
    no binary."""
    compiler = shutil.which(C_COMPILER)
    if compiler is None:
        return {"note": f"no C compiler ({C_COMPILER}) on the PATH"}
    binary = str(Path(folder) / f"{name}_limit")
    source = str(ANCHORS / f"{name}_limit.c")
    macros = [f"-D{define}" for define in defines]
    for flags in (C_FLAGS, C_FALLBACK_FLAGS):
        build = subprocess.run(
            [compiler, *flags, *macros, "-o", binary, source], capture_output=True, text=True
        )
        if build.returncode == 0:
            return {"binary": binary, "flags": " ".join(flags)}
    error = build.stderr.strip().splitlines()[-1:]
    return {"note": f"{C_COMPILER} {' '.join(C_FALLBACK_FLAGS)} failed: {error}"}


def c_reference(name: str = "oware", seconds: float = 3.0) -> dict:
    """Build the C loop of the rule set `name` and run it for `seconds`; its measurement and
    the flags it was built with, or a note saying why there is none. The binary lives in a
    temporary folder removed afterwards."""
    with tempfile.TemporaryDirectory() as folder:
        built = build_c_loop(name, folder)
        if "note" in built:
            return built
        output = subprocess.run(
            [built["binary"], str(seconds)], capture_output=True, text=True, check=True
        ).stdout
    found = dict(re.findall(r"(\w+)=([\d.]+)", output))
    elapsed = float(found["seconds"])
    return {
        "moves": int(found["plies"]),
        "seconds": elapsed,
        "moves_per_s": round(int(found["plies"]) / elapsed),
        "games_per_s": round(int(found["games"]) / elapsed, 1),
        "flags": f"{C_COMPILER} {built['flags']}",
    }


def family_loop(name: str, engine_rate: int, seconds: float) -> dict:
    """The row of the C loop of the family of the rule set `name`, run for `seconds` right
    after its one-core engine row: the loop's rate, which loop it is, whether it plays the
    same rules, and `ratio`, the engine's rate (`engine_rate`) over the loop's."""
    loop = FAMILY_LOOPS[family(name)]
    row = {"variant": name, "benchmark": C_REFERENCE, "threads": 1, "loop": loop}
    row["family"] = family(name)
    row["same_rules"] = bool(np.array_equal(_default_params(name), _default_params(loop)))
    measured = c_reference(loop, seconds)
    if "moves_per_s" in measured:
        measured["ratio"] = round(engine_rate / measured["moves_per_s"], 3)
    return {**row, **measured}


def describe_ratio(row: dict) -> str:
    """A family loop's row in words: "engine_1_core / loop 0.412 (ayoayo's loop, relay
    family; cc -O3 -march=native)"; the rules are "same rules" when the loop plays the rule
    set's own."""
    rules = "same rules" if row["same_rules"] else f"{row['family']} family"
    return (
        f"engine_1_core / loop {row['ratio']:.3f} ({row['loop']}'s loop, {rules}; {row['flags']})"
    )


def _connect_four() -> Callable[[], tuple[int, int]] | None:
    if importlib.util.find_spec("pygame") is None:
        return None
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    module = importlib.import_module("pettingzoo.classic.connect_four_v3")
    return _aec(module.env)


def measure(
    variants: list[str] | None = None,
    seconds: float = 2.0,
    searches: dict[str, Callable[[str], Any]] | None = None,
    slowest_moves: int = 100_000,
) -> Iterator[dict]:
    """Yield one row per (rule set, layer): moves and games per second; per search in
    `searches` (a name and what makes its agent for a rule set), simulations per second; and
    the slowest `Game.step` of `slowest_moves` (none when 0)."""
    import mancala_env  # the versioned modules for the AEC layer

    threads = numba.get_num_threads()
    for name in variants or list(VARIANTS):
        runs = {
            "engine_1_core": _engine(name, 1),
            "engine_1_core_shared": _engine(name, 1, shared=True),
            "engine_all_cores": _engine(name, threads),
            "batched": _batched(name, given=False),
            "batched_given_actions": _batched(name, given=True),
            "aec": _aec(getattr(mancala_env, get_variant(name).module_name()).env),
            "gymnasium": _gymnasium(name),
            "vec_env": _vec_env(name),
            "make_vec": _make_vec(name),
            **{kind: _search(name, make) for kind, make in (searches or {}).items()},
        }
        if name == "oware":
            runs["pettingzoo connect_four_v3"] = _connect_four()
            runs[OPEN_SPIEL] = _open_spiel_oware()
        for kind, run in runs.items():
            parallel = ("engine_all_cores", "batched", "batched_given_actions", "vec_env")
            parallel += ("make_vec",)
            used = threads if kind in parallel else 1
            row = {"variant": name, "benchmark": kind, "threads": used}
            if run is None:
                row["note"] = "not installed" + (
                    " (pip install open-spiel)" if kind == OPEN_SPIEL else ""
                )
                yield row
                continue
            moves, games, elapsed = _timed(run, seconds)
            row.update(
                moves=moves,
                seconds=round(elapsed, 3),
                moves_per_s=round(moves / elapsed),
                games_per_s=round(games / elapsed, 1),
            )
            yield row
            if kind == "engine_1_core":
                yield family_loop(name, row["moves_per_s"], seconds)
        if slowest_moves:
            row = slowest_game_step(name, slowest_moves)
            yield {"variant": name, "benchmark": "game_step_slowest", "threads": 1, **row}
