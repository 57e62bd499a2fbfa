"""How the search agents fare against OpenSpiel's on Oware, at the same budget.

    python benchmarks/vs_openspiel.py [--games 100] [--match mcts-200 ...] [--time SECONDS]
                                      [--agent SPEC] [--seed 0]

Needs the `bench` extra (open-spiel). The matches (`--match`, repeatable; all by default):

- ``mcts-200``, ``mcts-1000``: ``mcts:simulations=N`` against OpenSpiel's C++ ``MCTSBot`` with
  N simulations (uct_c 2, one random rollout a leaf, the solver on);
- ``alphabeta-4``: ``alphabeta:depth=4`` against OpenSpiel's ``alpha_beta_search`` to depth 4
  with the store difference as its evaluation;
- ``alphabeta-time``: ``alphabeta:time=T`` against ``MCTSBot`` with 1000 simulations, T being
  the time ``MCTSBot`` took a move in this run's ``mcts-1000`` match (or ``--time``).

``--agent`` replaces this project's agent in every match played (to try a setting).

First (unless ``--rates 0``), the simulations a second of this project's MCTS (with and without
its evaluation mixed in) and of ``MCTSBot``, 1000 simulations a search on the same 50
middle-game positions.

Each match is a gauntlet's schedule (`mancala_env.agents.tournament.schedule`): games in pairs with
the seats swapped, each pair from its own 4 random opening plies, OpenSpiel's bot in the seat of the
stand-in. The project's ``oware`` with ``first_player="player_0"`` and OpenSpiel's ``oware``
are stepped side by side (the action numbers are the same: the mover's house less one), and
at every ply the benchmark checks that they agree on the board, the stores, the player to move
and the legal actions. They end a chase differently: OpenSpiel at the first repeated position
since the last capture (each player then takes the seeds on their row), this rule set after
100 plies without a capture (the seeds left are split). A game ends when either rule set ends
it and is scored by that one (when both end it at once, the benchmark checks that they name the
same winner); the table counts the games OpenSpiel ended first (``repeated``)
and those this rule set ended first (``stalled``).

The score counts a win as 1 and a draw as 1/2, with its 95% Wilson interval; ms/move is the
mean time of each side's moves. Games are played one at a time, in this process, so that the
times are comparable.
"""

from __future__ import annotations

import argparse
import importlib
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
from tqdm import tqdm

from mancala_env import Game
from mancala_env.agents import load_agent
from mancala_env.agents.tournament import TournamentConfig, schedule, wilson
from mancala_env.agents.tournament.match import start

VARIANT = "oware"
OPTIONS = {"first_player": "player_0"}  # OpenSpiel's player 0 always begins
STAND_IN = "random"  # the spec whose seat OpenSpiel's bot takes in the schedule
UCT_C = 2.0  # MCTSBot's exploration constant (values in [-1, 1])
MEMORY_MB = 1000  # MCTSBot's tree before it collects garbage (never reached here)


@dataclass(frozen=True)
class Match:
    ours: str  # the project's agent spec ({time} is filled in with T)
    bot: str  # "mcts" or "alphabeta"
    budget: int  # MCTSBot's simulations or alpha_beta_search's depth


MATCHES = {
    "mcts-200": Match("mcts:simulations=200", "mcts", 200),
    "mcts-1000": Match("mcts:simulations=1000", "mcts", 1000),
    "alphabeta-4": Match("alphabeta:depth=4", "alphabeta", 4),
    "alphabeta-time": Match("alphabeta:time={time:.4f}", "mcts", 1000),
}
TIMED = "alphabeta-time"  # the match whose time comes from...
TIMER = "mcts-1000"  # ... MCTSBot's time a move in this one


class OpenSpielBot:
    """OpenSpiel's ``MCTSBot`` (C++) or ``alpha_beta_search`` (Python) on a ``pyspiel`` state."""

    def __init__(self, game: Any, kind: str, budget: int) -> None:
        self.pyspiel = importlib.import_module("pyspiel")
        self.minimax = importlib.import_module("open_spiel.python.algorithms.minimax")
        self.game, self.kind, self.budget = game, kind, budget
        self.bot: Any = None

    def __str__(self) -> str:
        if self.kind == "mcts":
            return f"MCTSBot {self.budget} simulations"
        return f"alpha_beta_search depth {self.budget}"

    def reset(self, seed: int) -> None:
        if self.kind == "mcts":
            seed %= 2**31  # a C++ int
            evaluator = self.pyspiel.RandomRolloutEvaluator(1, seed)
            self.bot = self.pyspiel.MCTSBot(
                self.game, evaluator, UCT_C, self.budget, MEMORY_MB, True, seed, False
            )

    def act(self, state: Any) -> int:
        if self.kind == "mcts":
            return int(self.bot.step(state))
        player = state.current_player()

        def store_difference(position: Any) -> float:  # the scores, over the seeds in play
            scores = position.observation_tensor(player)[-2:]
            return scores[player] - scores[1 - player]

        _, action = self.minimax.alpha_beta_search(
            self.game,
            state=state.clone(),
            value_function=store_difference,
            maximum_depth=self.budget,
            maximizing_player_id=player,
        )
        return int(action)


def check_agree(game: Game, state: Any) -> None:
    """Fail unless the two rule sets have reached the same position."""
    board = np.asarray(state.observation_tensor(0)) * game.total_seeds
    agree = (
        game.to_move == state.current_player()
        and np.allclose(board[: game.n_pits], game.pits)
        and np.allclose(board[game.n_pits :], game.stores)
        and sorted(game.legal_actions()) == sorted(state.legal_actions())
    )
    if not agree:
        raise AssertionError(f"the rule sets disagree after {game.move_number} plies:\n{state}")


def play(task: Any, ours: Any, bot: OpenSpielBot, seat: int) -> dict[str, Any]:
    """Play one scheduled game, the project's agent in `seat`; its points, the think time and
    moves of each side, and which rule set ended the game."""
    game = start(task)
    state = bot.game.new_initial_state()
    for action in task.opening:
        game.step(action)
        state.apply_action(action)
    ours.reset(task.agent_seeds[seat])
    bot.reset(task.agent_seeds[1 - seat])
    think, moves = [0.0, 0.0], [0, 0]  # ours, OpenSpiel's
    while not game.over and not state.is_terminal():
        check_agree(game, state)
        side = 0 if game.to_move == seat else 1
        clock = time.perf_counter()
        action = ours.act(game) if side == 0 else bot.act(state)
        think[side] += time.perf_counter() - clock
        moves[side] += 1
        game.step(action)
        state.apply_action(action)
    returns = state.returns()
    theirs = None if returns[0] == returns[1] else int(returns[1] > returns[0])
    if game.over and state.is_terminal() and game.winner() != theirs:
        raise AssertionError(f"the rule sets end the same game with different winners:\n{state}")
    winner = game.winner() if game.over else theirs
    return {
        "points": 0.5 if winner is None else float(winner == seat),
        "think": think,
        "moves": moves,
        "repeated": int(state.is_terminal() and not game.over),
        "stalled": int(game.over and not state.is_terminal()),
    }


def run_match(spec: str, bot: OpenSpielBot, games: int, seed: int, label: str) -> dict[str, Any]:
    """`games` games of `spec` against `bot`, the seats swapped in each pair."""
    config = TournamentConfig(
        VARIANT,
        (spec, STAND_IN),
        options=OPTIONS,
        games_per_pair=games,
        format="gauntlet",
        openings=games // 2,
        seed=seed,
    )
    ours = load_agent(spec, VARIANT)
    ours.act(Game(VARIANT, **OPTIONS))  # compile before the clock starts
    totals = {"points": 0.0, "think": np.zeros(2), "moves": np.zeros(2), "repeated": 0}
    totals["stalled"] = 0
    for task in tqdm(schedule(config), desc=label, unit="game", leave=False):
        result = play(task, ours, bot, task.agents.index(spec))
        for key in ("points", "repeated", "stalled"):
            totals[key] += result[key]
        totals["think"] += result["think"]
        totals["moves"] += result["moves"]
    low, high = wilson(totals["points"] / games, games)
    ms = 1000 * totals["think"] / np.maximum(totals["moves"], 1)
    return {
        "agent": spec,
        "opponent": str(bot),
        "games": games,
        "score": totals["points"] / games,
        "low": low,
        "high": high,
        "ms_ours": float(ms[0]),
        "ms_openspiel": float(ms[1]),
        "repeated": totals["repeated"],
        "stalled": totals["stalled"],
    }


def simulation_rates(positions: int, simulations: int, seed: int) -> list[tuple[str, float]]:
    """Simulations a second of each search on the same `positions` middle-game positions (30
    random plies from the start, both rule sets stepped side by side): this project's MCTS with
    its evaluation mixed in and without, and ``MCTSBot``; the same number of simulations a
    search, none of them ending it early (the positions are far from the end)."""
    pyspiel = importlib.import_module("pyspiel")
    game = pyspiel.load_game(VARIANT)
    rng = np.random.default_rng(seed)
    searchers = {
        f"mcts:simulations={simulations}": load_agent(f"mcts:simulations={simulations}", VARIANT),
        f"mcts:simulations={simulations},mix=0": load_agent(
            f"mcts:simulations={simulations},mix=0", VARIANT
        ),
    }
    bot = OpenSpielBot(game, "mcts", simulations)
    seconds = dict.fromkeys([*searchers, str(bot)], 0.0)
    for agent in searchers.values():
        agent.act(Game(VARIANT, **OPTIONS))  # compile before the clock starts
    for k in tqdm(range(positions), desc="simulation rates", unit="position", leave=False):
        ours, theirs = Game(VARIANT, **OPTIONS), game.new_initial_state()
        while ours.move_number < 30 and not ours.over:
            action = int(rng.choice(ours.legal_actions()))
            ours.step(action)
            theirs.apply_action(action)
        check_agree(ours, theirs)
        for name, agent in searchers.items():
            began = time.perf_counter()
            agent.act(ours)
            seconds[name] += time.perf_counter() - began
        bot.reset(seed + k)
        began = time.perf_counter()
        bot.act(theirs)
        seconds[str(bot)] += time.perf_counter() - began
    return [(name, positions * simulations / spent) for name, spent in seconds.items()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games a match (even)")
    parser.add_argument("--match", action="append", choices=list(MATCHES), help="(repeatable)")
    parser.add_argument("--time", type=float, help=f"T of {TIMED} (default: measured)")
    parser.add_argument("--agent", help="play this spec instead of the project's agents")
    parser.add_argument("--seed", type=int, default=0, help="the schedule's seed")
    parser.add_argument(
        "--rates", type=int, default=50, help="positions for the simulation rates (0: none)"
    )
    args = parser.parse_args()
    if args.games < 2 or args.games % 2:
        parser.error(f"--games must be an even number of 2 or more, got {args.games}")
    names = [name for name in MATCHES if not args.match or name in args.match]
    if TIMED in names and args.time is None and TIMER not in names:
        parser.error(f"{TIMED} needs --time or the {TIMER} match to measure it")
    if args.rates:
        rates = simulation_rates(args.rates, 1000, args.seed)
        print("| search (Oware, 1000 simulations a search) | simulations/s | / MCTSBot |")
        print("|---|---|---|")
        for name, rate in rates:
            print(f"| `{name}` | {rate:,.0f} | {rate / rates[-1][1]:.2f} |", flush=True)
    pyspiel = importlib.import_module("pyspiel")
    game = pyspiel.load_game(VARIANT)
    seconds = args.time
    rows = []
    for name in names:
        match = MATCHES[name]
        spec = args.agent or match.ours.format(time=seconds or 0.0)
        row = run_match(
            spec, OpenSpielBot(game, match.bot, match.budget), args.games, args.seed, name
        )
        if name == TIMER and args.time is None:
            seconds = row["ms_openspiel"] / 1000
        rows.append(row)
        print(
            f"{name}: {row['score']:.3f} ({row['low']:.3f}-{row['high']:.3f}), "
            f"{row['ms_ours']:.1f} vs {row['ms_openspiel']:.1f} ms/move",
            flush=True,
        )
    print(
        "| project | OpenSpiel | games | score | 95% interval | ms/move (project, OpenSpiel) "
        "| repeated, stalled |"
    )
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| `{r['agent']}` | {r['opponent']} | {r['games']} | {r['score']:.3f} | "
            f"{r['low']:.2f}–{r['high']:.2f} | {r['ms_ours']:.1f}, {r['ms_openspiel']:.1f} | "
            f"{r['repeated']}, {r['stalled']} |"
        )


if __name__ == "__main__":
    main()
