"""How strong the built-in agents are: each agent's score against `random` and `greedy`.

    python benchmarks/strength.py [--variant oware ...] [--games 200] [--workers 2]
                                  [--agent alphabeta:depth=4 ...] [--json]

Every agent plays `--games` games against each baseline, half of them in each seat (the rule
set's `first_player` is fixed to player_0 so that seats alternate who moves first). The score
counts a win as 1 and a draw as 1/2; the 95% interval is the Wilson interval of that score.
Search agents also report their speed: alpha-beta nodes and MCTS simulations per second of
thinking time. Games run in `--workers` processes; a table is printed at the end (and, with
`--json`, one JSON object per row).
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor

from mancala_env import Game
from mancala_env.agents import load_agent
from mancala_env.agents.tournament import wilson
from mancala_env.variants import VARIANTS

AGENTS = ["greedy", "alphabeta:depth=4", "mcts:simulations=400"]
BASELINES = ["random", "greedy"]


def play_games(variant: str, spec: str, baseline: str, seeds: list[int]) -> dict:
    """Play one game per seed (the agent in seat seed % 2); points and search effort."""
    agent = load_agent(spec, variant, seed=seeds[0])
    rival = load_agent(baseline, variant, seed=seeds[0] + 1)
    points, work, seconds = 0.0, 0, 0.0
    for seed in seeds:
        agent.reset(seed)
        rival.reset(seed + 1)
        seat = seed % 2
        game = Game(variant, first_player="player_0")
        while not game.over:
            if game.to_move == seat:
                game.step(agent.act(game))
                work += getattr(agent, "last_nodes", 0) + getattr(agent, "last_simulations", 0)
                seconds += getattr(agent, "last_seconds", 0.0)
            else:
                game.step(rival.act(game))
        winner = game.winner()
        points += 0.5 if winner is None else float(winner == seat)
    return {"points": points, "games": len(seeds), "work": work, "seconds": seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", default=[], help="rule set (repeatable)")
    parser.add_argument("--agent", action="append", default=[], help="agent spec (repeatable)")
    parser.add_argument("--games", type=int, default=200, help="games per agent and baseline")
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--json", action="store_true", help="one JSON object per row")
    args = parser.parse_args()
    variants = args.variant or list(VARIANTS)
    specs = args.agent or AGENTS
    chunks = max(1, args.workers * 2)
    jobs = {}
    with ProcessPoolExecutor(args.workers) as pool:
        for variant in variants:
            for spec in specs:
                for baseline in BASELINES:
                    seeds = list(range(args.games))
                    jobs[variant, spec, baseline] = [
                        pool.submit(play_games, variant, spec, baseline, seeds[i::chunks])
                        for i in range(chunks)
                    ]
        rows = []
        for (variant, spec, baseline), futures in jobs.items():
            parts = [f.result() for f in futures]
            games = sum(p["games"] for p in parts)
            score = sum(p["points"] for p in parts) / games
            low, high = wilson(score, games)
            seconds = sum(p["seconds"] for p in parts)
            speed = sum(p["work"] for p in parts) / seconds if seconds else None
            row = {
                "variant": variant,
                "agent": spec,
                "opponent": baseline,
                "games": games,
                "score": round(score, 3),
                "low": round(low, 3),
                "high": round(high, 3),
                "speed": round(speed) if speed else None,
            }
            rows.append(row)
            if args.json:
                print(json.dumps(row), flush=True)
    print("| rule set | agent | vs | games | score | 95% interval | nodes or simulations/s |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        speed = f"{r['speed']:,}" if r["speed"] else ""
        print(
            f"| `{r['variant']}` | `{r['agent']}` | {r['opponent']} | {r['games']} | "
            f"{r['score']:.3f} | {r['low']:.3f}–{r['high']:.3f} | {speed} |"
        )


if __name__ == "__main__":
    main()
