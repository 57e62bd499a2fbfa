"""Golden game records: seeded games of every rule set, move by move, replayed by the tests.

Each playable rule-set version (the current one, and the earlier ones a rule set still plays
with their options, `Variant.earlier_versions`) has a file
``tests/golden_games/<name>-v<version>.jsonl``. A
game opens with a header line (its options, the seed its start was drawn from, who played it);
then one line a ply: the action played and the position it left (board, stores, player to move,
legal actions, and whatever else the rule set keeps: phase, owners, closed and pregnant pits,
rounds, special pieces; the end reason and winner once the game is over). The replay feeds the
recorded actions to the engine, so a record checks the rules only, not the agents that chose
the moves.

Rewrite the records on purpose, and say why in the commit::

    python -m tests.golden --update            # every rule set
    python -m tests.golden --update jerin ncho # some

Without ``--update`` the command replays the records and prints the first difference of each.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from mancala_env import Game
from mancala_env.agents.loader import load_agent
from mancala_env.variants import VARIANTS, Variant
from mancala_env.variants.base import RelayOptions

GOLDEN_DIR = Path(__file__).parent / "golden_games"
MAX_PLIES = 3000  # no recorded game is longer; a longer one is cut here, and said so

# The option sets recorded besides the defaults: rounds, random starts, other readings.
OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "oware": [{"grand_slam": "capture"}],
    "ouri": [{"singles_rule": False}],
    "tampoduo": [{"sow_into_stores": True}],
    "ayoayo": [{"skip_origin": "none", "capture_sowing_seed": True}],
    "obridjie": [{"stuck": "end"}],
    "ayoyayo": [{"odu": "either"}],
    "ncho": [{"match": True, "max_rounds": 3}],
    "jerin": [{"match": True, "max_rounds": 3}, {"opening": "first_move"}],
    "rio_kadalis": [{"match": True, "max_rounds": 3}],
    "layli_goobalay": [{"match": True, "max_rounds": 3}],
    "mangala": [{"setting_out": "random"}, {"continuation": "until_captured"}],
    "mighty_men": [{"setting_out": "random"}],
    "mighty_men_calm": [{"setting_out": "random"}],
}
# A relaying rule set's record also plays with a tight bound on relays, which refuses lifts
# that the default bound (RELAY_LIMIT laps) plays: the bound's own mechanism in the record.
TIGHT_RELAYS = {"relay_limit": 12}
# Who plays each recorded game of an option set: four random games and one of search play.
PLAYERS = (("random", "random"),) * 4 + (("alphabeta:depth=2", "greedy"),)


def playable_versions(variant: Variant) -> list[int]:
    """The versions of `variant` that make an environment: the earlier ones it still plays,
    then the current one."""
    return [*sorted(variant.earlier_versions), variant.version]


def record_path(variant: Variant, version: int | None = None) -> Path:
    return GOLDEN_DIR / f"{variant.name}-v{variant.version if version is None else version}.jsonl"


def position(game: Game, action: int | None) -> dict[str, Any]:
    """What a record line says of the position `action` left (None: the start)."""
    snap = game.snapshot()
    line: dict[str, Any] = {"action": action, "to_move": snap["to_move"]}
    line["pits"], line["stores"] = snap["pits"], snap["stores"]
    line["legal"] = game.legal_actions()
    if snap["phase"] != "play":
        line["phase"] = snap["phase"]
    if snap["owners"] != [0] * 6 + [1] * 6:
        line["owners"] = snap["owners"]
    if any(snap["closed"]):
        line["closed"] = snap["closed"]
    if any(u is not None for u in snap["uur"]):
        line["uur"] = snap["uur"]
    if snap["round"] or any(snap["rounds_won"]):
        line["round"], line["rounds_won"] = snap["round"], snap["rounds_won"]
    if "pieces" in snap:
        line["pieces"] = [[p["kind"], p["at"]] for p in snap["pieces"]]
    if game.over:
        line["end"], line["winner"] = snap["end_reason"], snap["winner"]
    return line


def record_game(variant: Variant, options: dict[str, Any], seed: int, players: tuple) -> list:
    """Play one seeded game and return its header and lines."""
    game = Game(variant, **options)
    game.reset(np.random.default_rng(seed))
    agents = [load_agent(spec, variant.name, seed=seed + i) for i, spec in enumerate(players)]
    header = {"options": options, "seed": seed, "players": list(players)}
    lines = [position(game, None)]
    while not game.over and len(lines) <= MAX_PLIES:
        action = agents[game.to_move].act(game)
        game.step(action)
        lines.append(position(game, action))
    return [header, *lines]


def recorded_games(variant: Variant) -> Iterator[list]:
    """The games a record of `variant` holds, freshly played."""
    seed = 0
    relays = issubclass(variant.options_type, RelayOptions)
    for options in [{}, *OPTION_SETS.get(variant.name, []), *([TIGHT_RELAYS] if relays else [])]:
        for players in PLAYERS:
            yield record_game(variant, options, seed, players)
            seed += 1


def write_record(variant: Variant) -> Path:
    path = record_path(variant)
    path.parent.mkdir(exist_ok=True)
    text = "".join(
        json.dumps(line, separators=(",", ":")) + "\n"
        for game in recorded_games(variant)
        for line in game
    )
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text)
    tmp.replace(path)
    return path


def read_record(path: Path) -> list[list]:
    """The games of a record file: each a header followed by its lines."""
    games: list[list] = []
    for line in path.read_text().splitlines():
        entry = json.loads(line)
        if "seed" in entry:
            games.append([entry])
        else:
            games[-1].append(entry)
    return games


def replay_difference(
    variant: Variant, game_number: int, recorded: list, version: int | None = None
) -> str | None:
    """Replay a recorded game's actions under the rules of `version` (the current one by
    default); describe the first ply that differs, or None."""
    header, *lines = recorded
    version = variant.version if version is None else version
    game = Game(variant, **{**variant.earlier_versions.get(version, {}), **header["options"]})
    game.reset(np.random.default_rng(header["seed"]))
    where = f"{variant.name}-v{version} game {game_number} ({header['options']})"
    for ply, expected in enumerate(lines):
        if ply > 0:
            try:
                game.step(expected["action"])
            except ValueError as error:
                return f"{where}, ply {ply}: action {expected['action']} refused: {error}"
        got = position(game, expected["action"])
        if got != expected:
            keys = sorted(k for k in set(got) | set(expected) if got.get(k) != expected.get(k))
            diffs = "; ".join(f"{k}: recorded {expected.get(k)}, now {got.get(k)}" for k in keys)
            return f"{where}, ply {ply}: {diffs}"
    if not game.over and len(lines) <= MAX_PLIES:
        return f"{where}: the record ends at ply {len(lines) - 1} but the game goes on"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.golden", description=__doc__)
    parser.add_argument("variants", nargs="*", help="rule sets (default: all)")
    parser.add_argument("--update", action="store_true", help="rewrite the records")
    args = parser.parse_args(argv)
    names = args.variants or list(VARIANTS)
    unknown = sorted(set(names) - set(VARIANTS))
    if unknown:
        parser.error(f"unknown rule sets {unknown}; known: {', '.join(VARIANTS)}")
    failed = 0
    for name in names:
        variant = VARIANTS[name]
        if args.update:
            print(f"wrote {write_record(variant)}")
            continue
        for version in playable_versions(variant):
            for number, recorded in enumerate(read_record(record_path(variant, version))):
                difference = replay_difference(variant, number, recorded, version)
                if difference:
                    failed += 1
                    print(difference)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
