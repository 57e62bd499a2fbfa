"""The C reference loops `mancala bench` measures each family against play their rule set's
games exactly as the engine does: random games replayed move by move through each loop's
``replay`` mode (anchors/limit.h) agree with `Game` on every position, legal move and ending."""

import subprocess
from collections import Counter

import numpy as np
import pytest

from mancala_env.bench import FAMILY_LOOPS, build_c_loop, family
from mancala_env.engine import layout as L
from mancala_env.game import Game
from mancala_env.variants import VARIANTS

GAMES = 300


def _line(game: Game) -> str:
    """A position as the loops print it: pits, stores, player to move (-1 once over), why the
    game ended, the legal houses."""
    state = game.state
    to_move = -1 if game.over else game.to_move
    values = [*state[L.PITS : L.PITS + 12], *game.stores, to_move, state[L.END_REASON]]
    return " ".join(str(int(v)) for v in (*values, *state[L.LEGAL : L.LEGAL + 6]))


def _replay(binary: str, name: str, games: int, **options) -> Counter:
    """Play `games` random games of `name` in `Game` and in the loop `binary`; compare every
    position. Returns what the engine's games showed: their endings, the turns played and the
    lifts of a house with seeds that were not legal (`refused`: a relay that never ends, or a
    lift that does not feed a seedless opponent where feeding is forced)."""
    rng = np.random.default_rng(0)
    lines, expected, seen = [], [], Counter()
    for number in range(games):
        game = Game(name, first_player=f"player_{number % 2}", **options)
        choices = []
        expected.append([_line(game)])
        while not game.over:
            legal = game.legal_actions()
            houses = game.pits[6 * game.to_move : 6 * game.to_move + 6]
            seen["refused"] += int(np.count_nonzero(houses)) - len(legal)
            seen["turns"] += 1
            choices.append(int(rng.integers(len(legal))))
            game.step(legal[choices[-1]])
            expected[-1].append(_line(game))
        seen[game.end_reason] += 1
        lines.append(" ".join(map(str, [number % 2, *choices])))
    run = subprocess.run(
        [binary, "replay"], input="\n".join(lines), capture_output=True, text=True, check=True
    )
    played = run.stdout.split("end\n")
    assert len(played) == games + 1 and played[-1] == ""
    for number, (positions, loop) in enumerate(zip(expected, played, strict=False)):
        assert loop.splitlines() == positions, f"game {number}: {lines[number]}"
    return seen


@pytest.fixture(scope="module")
def loops(tmp_path_factory):
    folder = tmp_path_factory.mktemp("loops")
    built = {name: build_c_loop(name, folder) for name in FAMILY_LOOPS.values()}
    bounds = tmp_path_factory.mktemp("bounds")
    built["ayoayo bounds"] = build_c_loop("ayoayo", bounds, "STALL_LIMIT=6", "RELAY_LIMIT=10")
    assert all("binary" in loop for loop in built.values()), built
    return {name: loop["binary"] for name, loop in built.items()}


@pytest.fixture(scope="module")
def ayoayo_games(loops):
    return _replay(loops["ayoayo"], "ayoayo", GAMES)


def test_ayoayos_loop_plays_the_engines_games(ayoayo_games):
    assert ayoayo_games["refused"] > 0  # relays found circling, by their repeat
    assert {"no_move", "feeding_penalty", "cannot_feed"} <= set(ayoayo_games)


def test_ayoayos_loop_plays_the_engines_games_under_small_bounds(loops, ayoayo_games):
    """Compiled with a stall limit of 6 plies and a relay bound of 10 laps, as the options
    `stall_limit=6, relay_limit=10`: games stopped, and relays that end after more than 10 laps
    refused at the bound."""
    bounded = _replay(loops["ayoayo bounds"], "ayoayo", GAMES, stall_limit=6, relay_limit=10)
    assert bounded["stall"] > 0
    exact = ayoayo_games
    assert bounded["refused"] / bounded["turns"] > 2 * exact["refused"] / exact["turns"]


def test_owares_loop_plays_the_engines_games(loops):
    seen = _replay(loops["oware"], "oware", GAMES)
    assert {"majority", "stall", "cannot_feed"} <= set(seen)


def test_every_rule_set_has_a_family_whose_loop_exists(loops):
    assert {family(name) for name in VARIANTS} == set(FAMILY_LOOPS)
    assert family("oware") == "single lap" and family("ayoayo") == "relay"
