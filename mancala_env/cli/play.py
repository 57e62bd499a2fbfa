"""Games in the terminal: ``show`` (a seeded random game), ``play`` (against an agent, or two
agents) and ``replay`` (a recorded game, move by move).

Boards are coloured (the last-lifted pit in reverse video) only when standard output is a
terminal and ``NO_COLOR`` is unset or empty (https://no-color.org); ``--color always`` or
``never`` (``--no-color``) decides instead.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

import numpy as np

from ..arguments import fail, input_file, integer, parse_options, real
from ..arguments import seed as seed_type
from ..game import Game
from .command import add_command, add_rule_options

COLOR_CHOICES = ("auto", "always", "never")
MAX_DELAY = 3600.0  # seconds between the moves of a replay


def register(commands: argparse._SubParsersAction) -> None:
    add_command(
        commands,
        "show",
        "play a seeded random game and print every position",
        show_options,
        show,
    )
    add_command(
        commands,
        "play",
        "play a game in the terminal, against an agent or two agents",
        play_options,
        play,
    )
    add_command(commands, "replay", "step through a recorded game", replay_options, replay)


# ---- what the three share --------------------------------------------------------------------
def add_color_arguments(parser: argparse.ArgumentParser) -> None:
    """``--color auto|always|never`` and its short form ``--no-color`` (see `wants_color`)."""
    parser.add_argument(
        "--color",
        choices=COLOR_CHOICES,
        default="auto",
        help="reverse video for the last pit (auto: in a terminal, unless NO_COLOR is set)",
    )
    parser.add_argument(
        "--no-color", dest="color", action="store_const", const="never", help="--color never"
    )


def wants_color(choice: str, stream: Any = None) -> bool:
    """Whether to colour output to `stream` (default standard output) under `--color choice`:
    ``auto`` colours a terminal only, and only when ``NO_COLOR`` is unset or empty."""
    if choice not in COLOR_CHOICES:
        raise ValueError(f"--color {choice!r} is not supported; choose one of {COLOR_CHOICES}")
    if choice != "auto":
        return choice == "always"
    stream = sys.stdout if stream is None else stream
    return not os.environ.get("NO_COLOR") and stream.isatty()


def describe_result(game: Game) -> str:
    """Scores, the winner (or a draw) and why the game ended."""
    s0, s1 = (int(x) for x in game.stores)
    winner = game.winner()
    outcome = "draw" if winner is None else f"player_{winner} wins"
    reason = game.end_reason
    return f"result: player_0 {s0}, player_1 {s1}: {outcome} (end_reason: {reason})"


# ---- show ------------------------------------------------------------------------------------
def show_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variant", help="rule set name (see 'mancala variants')")
    parser.add_argument(
        "--seed", type=seed_type, default=None, help="random seed (default: a fresh one)"
    )
    add_rule_options(parser)
    add_color_arguments(parser)
    parser.add_argument(
        "--max-moves", type=integer(1), default=2000, help="stop a game still going after this many"
    )
    parser.add_argument(
        "--every", type=integer(1), default=1, metavar="N", help="print the board every N moves"
    )
    parser.add_argument(
        "--summary", action="store_true", help="print only the start, the end and the result"
    )


def show(args: argparse.Namespace) -> int:
    from ..render import render_ansi

    try:
        game = Game(args.variant, **parse_options(args.option, args.variant))
    except (TypeError, ValueError) as error:
        return fail("show", error)
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**32)
    rng = np.random.default_rng(seed)
    game.reset(rng)
    color = wants_color(args.color)
    print(f"{game.variant.title}, random play, seed {seed}")
    print(render_ansi(game.snapshot(), color=color))
    shown = game.move_number  # the move after which the last board printed was
    while not game.over and game.move_number < args.max_moves:
        player = game.to_move
        action = int(rng.choice(game.legal_actions()))
        move = f"player_{player} {game.describe_action(action)}"
        game.step(action)
        last = game.over or game.move_number >= args.max_moves
        if last or (not args.summary and game.move_number % args.every == 0):
            print()
            # A board after moves not shown is headed by its own move, named as such, so that it
            # does not read as the move after the board before it.
            if game.move_number - shown > 1:
                print(
                    f"moves {shown + 1} to {game.move_number - 1} not shown; "
                    f"move {game.move_number}: {move}"
                )
            else:
                print(move)
            print(render_ansi(game.snapshot(), color=color))
            shown = game.move_number
    print()
    if game.over:
        print(describe_result(game))
    else:
        s0, s1 = (int(x) for x in game.stores)
        print(f"stopped after {args.max_moves} moves: player_0 {s0}, player_1 {s1}, no result")
    return 0


# ---- play ------------------------------------------------------------------------------------
def play_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variant", help="rule set name (see 'mancala variants')")
    parser.add_argument("--opponent", default="greedy", help="agent spec of the other player")
    parser.add_argument(
        "--seat",
        type=integer(0, 1),
        default=0,
        help="your seat: 0 is player_0, 1 is player_1; who moves first is the rule set's "
        "first_player option, drawn from --seed where its source draws it, as in oware (see "
        "'mancala variants')",
    )
    parser.add_argument("--agent", default="human", help="agent spec for your seat (default: you)")
    parser.add_argument(
        "--seed", type=seed_type, default=None, help="random seed of the game and agents"
    )
    add_rule_options(parser)
    add_color_arguments(parser)


def play(args: argparse.Namespace) -> int:
    from mancala_env.agents import HumanAgent, QuitGame, load_agent

    from ..render import render_ansi

    try:
        game = Game(args.variant, **parse_options(args.option, args.variant))
        specs = {args.seat: args.agent, 1 - args.seat: args.opponent}
        players = {p: load_agent(spec, args.variant, seed=args.seed) for p, spec in specs.items()}
    except (TypeError, ValueError) as error:
        return fail("play", error)
    game.reset(np.random.default_rng(args.seed))
    color = wants_color(args.color)
    print(f"{game.variant.title}: player_0 is {specs[0]}, player_1 is {specs[1]}")
    first = game.options.first_player
    print(
        f"player_{game.to_move} moves first (first_player={first}{': drawn' * (first == 'random')})"
    )
    if any(isinstance(player, HumanAgent) for player in players.values()):
        print("Type a move, 'help' for the legal moves and what they do, or 'quit' to stop.")
    print(render_ansi(game.snapshot(), color=color))
    try:
        while not game.over:
            player = game.to_move
            action = players[player].act(game)
            move = f"player_{player} ({specs[player]}) {game.describe_action(action)}"
            before = int(game.stores[player])
            game.step(action)
            gained = int(game.stores[player]) - before
            print()
            print(move + (f", captures {gained}" if gained > 0 and not game.over else ""))
            print(render_ansi(game.snapshot(), color=color))
    except QuitGame as stop:
        print(f"\n{stop}: the game ends unfinished after {game.move_number} moves")
        return 0
    except (EOFError, KeyboardInterrupt):
        print("\nmancala play: game abandoned", file=sys.stderr)
        return 1
    print()
    print(describe_result(game))
    return 0


# ---- replay ----------------------------------------------------------------------------------
def replay_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "source", type=input_file, help="a tournament store (SQLite) or a JSON-lines export"
    )
    parser.add_argument(
        "game_id", type=integer(), nargs="?", help="the game's id (see 'mancala export')"
    )
    parser.add_argument(
        "--step",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="wait for enter after each move (default: when run in a terminal)",
    )
    parser.add_argument(
        "--delay", type=real(0, MAX_DELAY), default=0.0, help="seconds between moves"
    )
    add_color_arguments(parser)


def replay(args: argparse.Namespace) -> int:
    from mancala_env.agents.tournament.replay import load_record
    from mancala_env.agents.tournament.replay import replay as replayed

    from ..escaping import for_terminal as escaped
    from ..render import render_ansi

    try:
        record = load_record(args.source, args.game_id)
        color = wants_color(args.color)
        wait = args.step if args.step is not None else sys.stdin.isatty()
        print(
            f"{record['variant']}: player_0 is {escaped(record['agent_0'])}, player_1 is "
            f"{escaped(record['agent_1'])}, seed {record['seed']}, {record['length']} moves"
        )
        game = None
        for game, player, action in replayed(record):
            if player is not None:
                print()
                print(f"move {game.move_number}: player_{player} {game.describe_action(action)}")
            print(render_ansi(game.snapshot(), color=color))
            if wait and not game.over:
                input("(enter: next move) ")
            elif args.delay:
                time.sleep(args.delay)
    except ValueError as error:  # StoreError: a bad file or record, named
        return fail("replay", error)
    except (EOFError, KeyboardInterrupt):
        return 1
    print()
    if record["end_reason"] == "adjudicated":  # the moves stop where the database ended it
        winner = record["winner"]
        outcome = "draw" if winner == -1 else f"player_{winner} wins"
        print(
            f"result: player_0 {record['score_0']}, player_1 {record['score_1']}: {outcome} "
            "(end_reason: adjudicated; the endgame database's result of perfect play from here)"
        )
        return 0
    print(describe_result(game))
    if record["end_reason"] == "illegal_action":
        print(f"(recorded: player_{1 - record['winner']} forfeited with an illegal action)")
    return 0
