"""Count how long relays run, to choose the bound after which a relay counts as endless.

    python benchmarks/relay_lengths.py [--scale 1.0] [--out benchmarks/results/relay_lengths.json]

For every rule set that relays, under each of its options that changes relays, the script plays
games and, at every position where a player lifts a house, sows each lift the rules allow on a
copy of the board and follows its relay lap by lap to one of three ends:

- it ends (the last seed falls where the rules stop it): its laps are counted;
- its board and starting pit repeat (`engine.sowing.relay`'s exact cycle finding): the relay is
  endless, and the laps it took to find the repeat are counted;
- it reaches `CAP` laps still going: counted as capped.

The positions come from two kinds of play: random play (a legal move drawn uniformly) and
search play (a two-ply search on the stores' difference, ties broken at random, after four
random opening plies so that games differ). The games are played under the rule set's rules
with the relays bounded at `CAP` laps. Only plain lifts of one house are followed: J'erin's
two-house opening and Mangala's first turn, a few plies a game, are not.

The counts are kept in a JSON file after every chunk of games, written atomically, and a
second run goes on from where the first stopped: the script can be killed at any time. `--scale`
multiplies every configuration's target of lifts (1.0: 10^8 in all). `docs/relays.md` reads
the file (`python benchmarks/relay_lengths.py --report` prints its table, `--plot PNG` draws it).
"""

from __future__ import annotations

import argparse
import datetime
import io
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit
from tqdm import tqdm

from mancala_env.engine import layout as L
from mancala_env.engine.board import house_pit
from mancala_env.engine.moves import rule_candidates
from mancala_env.engine.sowing import ENDLESS, relay
from mancala_env.engine.turn import count_legal, new_game, nth_legal_action, step
from mancala_env.machine import describe_machine
from mancala_env.outputs import PNG_PICTURE, write_atomically
from mancala_env.readers import parse_json, read_bytes
from mancala_env.variants import get_variant
from mancala_env.variants.base import RelayOptions

CAP = 1_000_000  # laps a relay is followed before it is counted as capped
RESULTS = Path(__file__).parent / "results" / "relay_lengths.json"
MAX_RESULTS_BYTES = 16 << 20  # the counts of every configuration: about 100 kB
CHUNK_GAMES = {"random": 200, "search": 20}  # games a chunk, between saves
SEARCH_SHARE = 0.2  # of a configuration's lifts, those from positions of search play
MAX_PLIES = 5_000  # a game longer than this is cut (none of the rule sets' games is)
RANDOM_OPENING = 4  # plies of random play before a search game searches

# (rule set, options): every relaying rule set under its sources' readings, which get the most
# lifts, and under each option that changes how relays run.
DEFAULT_LIFTS = 10_000_000
OPTION_LIFTS = 1_000_000
CONFIGURATIONS: list[tuple[str, dict[str, Any]]] = [
    ("ayoayo", {}),
    ("ayoayo", {"skip_origin": "lap"}),
    ("ayoayo", {"skip_origin": "none"}),
    ("ayoayo", {"sow_into_stores": True}),
    ("tampoduo", {}),
    ("tampoduo", {"skip_origin": "move"}),
    ("tampoduo", {"skip_origin": "lap"}),
    ("tampoduo", {"sow_into_stores": True}),
    ("obridjie", {}),
    ("obridjie", {"skip_origin": "move"}),
    ("obridjie", {"skip_origin": "lap"}),
    ("ncho", {}),
    ("ncho", {"skip_origin": "move"}),
    ("ncho", {"skip_origin": "lap"}),
    ("ncho", {"match": True}),
    ("jerin", {}),
    ("jerin", {"skip_origin": "move"}),
    ("jerin", {"skip_origin": "lap"}),
    ("jerin", {"fours": "owner"}),
    ("jerin", {"match": True}),
    ("rio_kadalis", {}),
    ("rio_kadalis", {"skip_origin": "move"}),
    ("rio_kadalis", {"skip_origin": "lap"}),
    ("rio_kadalis", {"match": True}),
    ("layli_goobalay", {}),
    ("layli_goobalay", {"skip_origin": "move"}),
    ("layli_goobalay", {"skip_origin": "lap"}),
    ("layli_goobalay", {"uur_relay": "lift"}),
    ("layli_goobalay", {"match": True}),
    ("mangala", {}),
    ("mangala", {"continuation": "until_captured"}),
]


def key(name: str, options: dict[str, Any]) -> str:
    """A configuration's name in the results: ``ayoayo`` or ``ayoayo skip_origin=lap``."""
    return " ".join([name, *(f"{k}={str(v).lower()}" for k, v in sorted(options.items()))])


@njit(cache=True)
def _follow_lifts(state, params, candidates, work, ended, found, totals):
    """Follow every plain lift the player to move may make: `ended[laps]` and `found[laps]`
    count the relays that ended and the endless ones found after `laps` laps; `totals` holds
    [lifts, positions, capped]."""
    mover = state[L.TO_MOVE]
    if state[L.PHASE] != L.PHASE_PLAY or (
        params[L.P_FIRST_TURN] != L.FIRST_TURN_NONE and state[L.TURNS + mover] == 0
    ):
        return
    rule_candidates(state, mover, params, candidates)
    totals[1] += 1
    for action in range(params[L.P_LIFT_ACTIONS]):
        if candidates[action] == 0:
            continue
        work[:] = state
        pit = house_pit(mover, action, params)
        hand = work[pit]
        work[pit] = 0
        last, laps, repeated = relay(work, pit, hand, mover, params, params[L.P_CONTINUE], CAP)
        totals[0] += 1
        if last != ENDLESS:
            ended[laps] += 1
        elif repeated == 1:
            found[laps] += 1
        else:
            totals[2] += 1


@njit(cache=True)
def _store_difference_after(state, action, params, work):
    """The mover's store minus the opponent's after `action` (the final result, doubled in
    weight, once the game is over)."""
    mover = state[L.TO_MOVE]
    work[:] = state
    step(work, action, params)
    value = work[L.STORE + mover] - work[L.STORE + 1 - mover]
    return value * 2 if work[L.OVER] == 1 else value


@njit(cache=True)
def _search_move(state, params, child, grandchild):
    """A two-ply search on the stores' difference: the move whose opponent's best reply
    leaves the mover best off, ties broken at random."""
    mover = state[L.TO_MOVE]
    best, chosen, ties = -(10**9), -1, 0
    for action in range(params[L.P_N_ACTIONS]):
        if state[L.LEGAL + action] == 0:
            continue
        child[:] = state
        step(child, action, params)
        if child[L.OVER] == 1 or child[L.TO_MOVE] == mover:
            value = child[L.STORE + mover] - child[L.STORE + 1 - mover]
        else:
            value = 10**9
            for reply in range(params[L.P_N_ACTIONS]):
                if child[L.LEGAL + reply] == 1:
                    worst = -_store_difference_after(child, reply, params, grandchild)
                    value = min(value, worst)
        if value > best:
            best, chosen, ties = value, action, 1
        elif value == best:
            ties += 1
            if np.random.randint(ties) == 0:
                chosen = action
    return chosen


@njit(cache=True)
def play_and_count(params, games, seed, search, ended, found, totals):
    """Play `games` games (search play when `search`), following the lifts of every
    position; the games' random starts and choices come from `seed`."""
    np.random.seed(seed)
    state = np.zeros(L.STATE_SIZE, np.int32)
    work = np.zeros(L.STATE_SIZE, np.int32)
    child = np.zeros(L.STATE_SIZE, np.int32)
    candidates = np.zeros(L.MAX_ACTIONS, np.int32)
    for game in range(games):
        new_game(params, game % 2, state, seed + game)
        plies = 0
        while state[L.OVER] == 0 and plies < MAX_PLIES:
            _follow_lifts(state, params, candidates, work, ended, found, totals)
            if search and plies >= RANDOM_OPENING:
                action = _search_move(state, params, work, child)
            else:
                action = nth_legal_action(
                    state, params, np.random.randint(count_legal(state, params))
                )
            step(state, action, params)
            plies += 1


def _sparse(counts: np.ndarray) -> dict[str, int]:
    return {str(laps): int(n) for laps, n in enumerate(counts) if n}


def _dense(sparse: dict[str, int]) -> np.ndarray:
    counts = np.zeros(CAP + 1, np.int64)
    for laps, n in sparse.items():
        counts[int(laps)] = n
    return counts


def _load(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {"cap": CAP, "configurations": {}}
    data = parse_json(read_bytes(path, MAX_RESULTS_BYTES), path)
    if data.get("cap") != CAP:
        sys.exit(f"{path} was counted with a cap of {data.get('cap')} laps, not {CAP}")
    return data


def count(path: Path, scale: float) -> None:
    """Play and count until every configuration has its share of lifts, saving as it goes."""
    data = _load(path)
    targets = {
        key(name, options): (name, options, (OPTION_LIFTS if options else DEFAULT_LIFTS) * scale)
        for name, options in CONFIGURATIONS
    }
    total = sum(target for _, _, target in targets.values())
    done = sum(
        min(c["lifts"][play], targets[k][2] * share)
        for k, c in data["configurations"].items()
        if k in targets
        for play, share in (("random", 1 - SEARCH_SHARE), ("search", SEARCH_SHARE))
    )
    bar = tqdm(total=int(total), initial=int(done), unit="lift", unit_scale=True, smoothing=0.02)
    for config, (name, options, target) in targets.items():
        variant = get_variant(name)
        play_options = {**options, "relay_limit": CAP}
        params = variant.params(variant.options(**play_options))
        entry = data["configurations"].setdefault(
            config,
            {
                "variant": name,
                "version": variant.version,
                "options": options,
                **{field: {"random": 0, "search": 0} for field in ("lifts", "positions", "games")},
                "capped": {"random": 0, "search": 0},
                "ended": {"random": {}, "search": {}},
                "found": {"random": {}, "search": {}},
                "seconds": 0.0,
            },
        )
        for play, share in (("random", 1 - SEARCH_SHARE), ("search", SEARCH_SHARE)):
            ended, found = _dense(entry["ended"][play]), _dense(entry["found"][play])
            bar.set_description(f"{config} ({play})")
            while entry["lifts"][play] < target * share:
                totals = np.array([entry["lifts"][play], entry["positions"][play], 0], np.int64)
                totals[2] = entry["capped"][play]
                games = CHUNK_GAMES[play]
                seed = entry["games"][play] + (0 if play == "random" else 1 << 30)
                started = time.perf_counter()
                play_and_count(params, games, seed, play == "search", ended, found, totals)
                bar.update(int(totals[0]) - entry["lifts"][play])
                entry["lifts"][play], entry["positions"][play] = int(totals[0]), int(totals[1])
                entry["capped"][play] = int(totals[2])
                entry["games"][play] += games
                entry["ended"][play], entry["found"][play] = _sparse(ended), _sparse(found)
                entry["seconds"] += time.perf_counter() - started
                data["date"] = datetime.date.today().isoformat()
                data["machine"] = describe_machine()
                command = ["python", "benchmarks/relay_lengths.py", *sys.argv[1:]]
                data["command"] = shlex.join(command)
                path.parent.mkdir(parents=True, exist_ok=True)
                write_atomically(path, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode())
    bar.close()


def laps_played(ended: dict[int, int], found: dict[int, int], capped: int, limit: int) -> int:
    """The laps these relays cost when a relay is given up after `limit` laps: each ended
    relay's own, each endless one's until its repeat was found or the limit, whichever is
    first (a capped relay costs the limit, or the cap: at least that when there is no limit)."""
    return sum(min(laps, limit) * n for counts in (ended, found) for laps, n in counts.items()) + (
        min(CAP, limit) * capped
    )


def summary(data: dict[str, Any]) -> list[dict[str, Any]]:
    """One row a configuration: lifts, the longest relay that ended, the laps endless relays
    took to be found (median, 99th percentile, longest), the capped count, and the laps a lift
    costs on average with the exact cycle finding alone (a lower bound: the capped relays are
    counted at the cap) and with the default `relay_limit`."""
    limit = RelayOptions().relay_limit or CAP
    rows = []
    for config, entry in data["configurations"].items():
        ended, found = (_merged(entry[kind].values()) for kind in ("ended", "found"))
        lifts, capped = sum(entry["lifts"].values()), sum(entry["capped"].values())
        rows.append(
            {
                "configuration": config,
                "lifts": lifts,
                "longest_ended": max(ended, default=0),
                "endless_found": sum(found.values()),
                "found_median": _quantile(found, 0.5),
                "found_p99": _quantile(found, 0.99),
                "found_longest": max(found, default=0),
                "capped": capped,
                "laps_exact": laps_played(ended, found, capped, CAP) / max(lifts, 1),
                "laps_bounded": laps_played(ended, found, capped, limit) / max(lifts, 1),
            }
        )
    return rows


def _merged(plays: Any) -> dict[int, int]:
    """The counts of random and search play, added up: laps -> relays."""
    total: dict[int, int] = {}
    for play in plays:
        for k, v in play.items():
            total[int(k)] = total.get(int(k), 0) + v
    return total


def _quantile(counts: dict[int, int], q: float) -> int:
    total = sum(counts.values())
    seen = 0
    for laps in sorted(counts):
        seen += counts[laps]
        if seen >= q * total:
            return laps
    return 0


def report(data: dict[str, Any]) -> str:
    """The Markdown table of `summary`, with the totals."""
    rows = summary(data)
    limit = RelayOptions().relay_limit
    lines = [
        "| configuration | lifts | longest relay that ended | endless found | laps to find "
        "one: median | 99% | longest | capped at 10^6 | laps a lift: exact (at least) | "
        f"relay_limit={limit:,} |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['configuration']} | {r['lifts']:,} | {r['longest_ended']:,} | "
            f"{r['endless_found']:,} | {r['found_median']:,} | {r['found_p99']:,} | "
            f"{r['found_longest']:,} | {r['capped']:,} | {r['laps_exact']:.2f} | "
            f"{r['laps_bounded']:.2f} |"
        )
    lifts = sum(r["lifts"] for r in rows)
    longest = max((r["longest_ended"] for r in rows), default=0)
    counted = data["configurations"].values()
    positions, games = (sum(sum(c[f].values()) for c in counted) for f in ("positions", "games"))
    lines.append(
        f"\n{lifts:,} lifts in all, from {positions:,} positions of {games:,} games; the longest "
        f"relay that ended: {longest:,} laps."
    )
    return "\n".join(lines)


def plot(data: dict[str, Any], out: Path) -> None:
    """Two panels: laps of the relays that ended, and laps to find the endless ones."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    totals: dict[str, dict[str, dict[int, int]]] = {}
    for entry in data["configurations"].values():
        for kind in ("ended", "found"):
            into = totals.setdefault(entry["variant"], {}).setdefault(kind, {})
            for laps, n in _merged(entry[kind].values()).items():
                into[laps] = into.get(laps, 0) + n
    bins = np.unique(np.logspace(0, np.log10(CAP), 60).astype(int))
    for name, kinds in sorted(totals.items()):
        for axis, kind in ((left, "ended"), (right, "found")):
            laps = np.array(list(kinds.get(kind, {})), dtype=float)
            weights = np.array(list(kinds.get(kind, {}).values()), dtype=float)
            if len(laps):
                axis.hist(laps, bins=bins, weights=weights, histtype="step", label=name)
    for axis, title in (
        (left, "relays that ended: laps"),
        (right, "endless relays: laps until the repeat was found"),
    ):
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_xlabel("laps")
        axis.set_ylabel("lifts")
        axis.set_title(title)
    limit = RelayOptions().relay_limit
    if limit:
        for axis in (left, right):
            axis.axvline(limit, color="black", linestyle="--", label=f"relay_limit = {limit:,}")
    right.legend(fontsize=7)
    figure.tight_layout()
    picture = io.BytesIO()
    figure.savefig(picture, format="png", dpi=110)
    write_atomically(out, picture.getvalue(), PNG_PICTURE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=RESULTS, help="the results file")
    parser.add_argument("--scale", type=float, default=1.0, help="times each target of lifts")
    parser.add_argument("--report", action="store_true", help="print the table and stop")
    parser.add_argument("--plot", type=Path, help="draw the distributions into this PNG")
    args = parser.parse_args()
    if args.scale <= 0:
        parser.error(f"--scale must be above 0, got {args.scale}")
    if args.report or args.plot:
        data = _load(args.out)
        if args.plot:
            plot(data, args.plot)
        if args.report:
            print(report(data))
        return
    count(args.out, args.scale)
    print(report(_load(args.out)))


if __name__ == "__main__":
    main()
