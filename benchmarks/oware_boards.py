"""Oware on every board size against OpenSpiel's ``oware``: the same game, ply by ply.

    python benchmarks/oware_boards.py [--games 300] [--seed 0]

Needs the `bench` extra (open-spiel). For each board (``houses`` x ``seeds``, OpenSpiel's
``num_houses_per_player`` x ``num_seeds_per_house``), random games are stepped side by side in
the project's ``oware`` (``first_player="player_0"``) and OpenSpiel's, checking at every ply
that they agree on the board, the stores, the player to move and the legal actions
(`vs_openspiel.check_agree`). A game is followed until either rule set ends it: OpenSpiel ends
a chase at the first repeated position, this rule set after ``stall_limit`` plies without a
capture (see `vs_openspiel`). Prints a table of the plies checked on each board.
"""

from __future__ import annotations

import argparse
import importlib
import random

from vs_openspiel import check_agree

from mancala_env import Game

BOARDS = [(6, 4), (1, 4), (2, 2), (3, 3), (4, 3), (4, 4), (5, 5), (6, 8)]


def plies_agreeing(pyspiel: object, houses: int, seeds: int, games: int, seed: int) -> int:
    """Play `games` random games on the board; return the plies checked (AssertionError at the
    first disagreement)."""
    rng = random.Random(seed)
    parameters = {"num_houses_per_player": houses, "num_seeds_per_house": seeds}
    theirs = pyspiel.load_game("oware", parameters)
    plies = 0
    for _ in range(games):
        ours = Game("oware", first_player="player_0", houses=houses, seeds=seeds)
        state = theirs.new_initial_state()
        while not (state.is_terminal() or ours.over):
            check_agree(ours, state)
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            ours.step(action)
            plies += 1
    return plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="random games a board")
    parser.add_argument("--seed", type=int, default=0, help="the games' seed")
    args = parser.parse_args()
    pyspiel = importlib.import_module("pyspiel")
    print("| houses | seeds | games | plies checked, all agreeing |")
    print("|---|---|---|---|")
    for houses, seeds in BOARDS:
        plies = plies_agreeing(pyspiel, houses, seeds, args.games, args.seed)
        print(f"| {houses} | {seeds} | {args.games} | {plies:,} |", flush=True)


if __name__ == "__main__":
    main()
