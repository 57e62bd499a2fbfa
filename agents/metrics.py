"""Rule-set metrics in the manner of Ludii's: what games of a rule set are like under some play.

Each game is played by one agent spec in both seats (each seat its own seeded copy) from the rule
set's starting position, reset with the game's seed, its first `opening_plies` plies played at
random (a deterministic search would otherwise play the same game again and again, and count
it as many; under random play they change nothing), and every ply is traced (`trace_game`):
who moved, how many actions were legal, the stores after it. The metrics (`summarise`) read the
traces only:

- length: plies a game (each decision the engine asks for is a ply);
- branching: legal actions a ply, over every ply of every game;
- forced: the share of plies with a single legal action;
- captures: plies a game after which a store holds more seeds and the game goes on (the seeds a
  game's end shares out are not a capture);
- lead changes: times a game the player strictly ahead in the stores is another than the last
  one strictly ahead (a level score passes no lead on);
- drawishness: the share of games drawn;
- decisiveness: over the games won whose winner leads in the stores at the end, the share of the
  game played when the winner took the lead for good (after ply t of n, t/n; low: decided
  early); the games whose winner trails in the stores at the end (a match decided on rounds)
  are counted apart;
- first player's score: the first mover's points (a win 1, a draw 1/2) a game, with the 95%
  Wilson interval.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from mancala_env import Game
from mancala_env.inputs import derived_seed, integer

from .base import Agent, RandomAgent
from .loader import check_unattended, load_agent
from .tournament.ratings import wilson


@dataclass(frozen=True)
class Ply:
    """One decision of a game: who made it, how many actions were legal, the stores after it
    and whether the game went on."""

    mover: int
    legal: int
    stores: tuple[int, int]
    over: bool


@dataclass(frozen=True)
class GameTrace:
    """A game as the metrics read it: its plies from a start whose stores were `stores`, its
    first mover and its winner (-1 for a draw)."""

    stores: tuple[int, int]
    first_player: int
    winner: int
    plies: tuple[Ply, ...]

    @property
    def captures(self) -> int:
        before = self.stores
        found = 0
        for ply in self.plies:
            found += sum(ply.stores) > sum(before) and not ply.over
            before = ply.stores
        return found

    @property
    def lead_changes(self) -> int:
        leader, changes = _leader(self.stores), 0
        for ply in self.plies:
            now = _leader(ply.stores)
            if now is not None:
                changes += leader is not None and now != leader
                leader = now
        return changes

    @property
    def decided_at(self) -> int | None:
        """The ply after which the winner led in the stores to the end (0: from the start);
        None for a draw or a winner not ahead in the stores at the end."""
        if self.winner < 0:
            return None
        leads = [_leader(self.stores) == self.winner]
        leads += [_leader(ply.stores) == self.winner for ply in self.plies]
        if not leads[-1]:
            return None
        t = len(leads) - 1
        while t > 0 and leads[t - 1]:
            t -= 1
        return t


def _leader(stores: Sequence[int]) -> int | None:
    """The player strictly ahead in `stores`, None when level."""
    if stores[0] == stores[1]:
        return None
    return 0 if stores[0] > stores[1] else 1


def trace_game(game: Game, agents: Sequence[Agent], max_plies: int = 100_000) -> GameTrace:
    """Play `game` (from where it is) to its end with `agents` (seat 0, seat 1), tracing each
    ply; `game` is played on."""
    stores = (int(game.stores[0]), int(game.stores[1]))
    first_player = game.to_move
    plies = []
    while not game.over and len(plies) < max_plies:
        mover, legal = game.to_move, len(game.legal_actions())
        game.step(agents[mover].act(game))
        after = (int(game.stores[0]), int(game.stores[1]))
        plies.append(Ply(mover, legal, after, game.over))
    if not game.over:
        raise RuntimeError(f"a {game.variant.name} game went on past {max_plies:,} plies")
    winner = game.winner()
    return GameTrace(stores, first_player, -1 if winner is None else winner, tuple(plies))


@dataclass(frozen=True)
class Metrics:
    """The metrics of a set of games (see the module's docstring); every mean is a game's."""

    games: int
    distinct: int  # games that differ in their start or their moves
    length: float
    branching: float
    forced: float
    captures: float
    lead_changes: float
    drawishness: float
    decisiveness: float | None  # None when no game was won by the player ahead in the stores
    decided_games: int  # the games decisiveness is the mean of
    first_player_score: float
    first_player_low: float
    first_player_high: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def summarise(traces: Sequence[GameTrace], distinct: int | None = None) -> Metrics:
    """The metrics of `traces` (`distinct`: how many of the games differ; all, if None)."""
    if not traces:
        raise ValueError("metrics need at least one game")
    plies = [ply for trace in traces for ply in trace.plies]
    decided = [(t.decided_at, len(t.plies)) for t in traces if t.decided_at is not None]
    first = [0.5 if t.winner < 0 else float(t.winner == t.first_player) for t in traces]
    score = float(np.mean(first))
    low, high = wilson(score, len(traces))
    return Metrics(
        games=len(traces),
        distinct=len(traces) if distinct is None else distinct,
        length=float(np.mean([len(t.plies) for t in traces])),
        branching=float(np.mean([ply.legal for ply in plies])) if plies else 0.0,
        forced=float(np.mean([ply.legal == 1 for ply in plies])) if plies else 0.0,
        captures=float(np.mean([t.captures for t in traces])),
        lead_changes=float(np.mean([t.lead_changes for t in traces])),
        drawishness=float(np.mean([t.winner < 0 for t in traces])),
        decisiveness=float(np.mean([at / n for at, n in decided])) if decided else None,
        decided_games=len(decided),
        first_player_score=score,
        first_player_low=low,
        first_player_high=high,
    )


OPENING_PLIES = 4  # as a tournament's random lines
RANDOM_PLAY = "random"
STRONG_PLAY = "alphabeta:depth=4"  # cheap: a second or so a game on the larger boards


def measure(
    variant: str,
    agent: str,
    games: int,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    opening_plies: int = OPENING_PLIES,
    played: Callable[[], None] | None = None,
) -> Metrics:
    """The metrics of `games` games of `variant` under `options`, `agent` (a spec) in both
    seats after `opening_plies` random plies: game k reset with its own seed, each seat's agent
    and the opening seeded apart; `played` is called after each game."""
    for name, value, low in (("games", games, 1), ("opening_plies", opening_plies, 0)):
        integer(value, name, low, numpy=False)
    check_unattended(agent, "metrics")
    options = dict(options or {})
    players = [load_agent(agent, variant, seed=seed) for _ in range(2)]
    traces, seen = [], set()
    for k in range(games):
        game = Game(variant, **options)
        game.reset(np.random.default_rng(derived_seed(seed, 0, k)))
        start = game.state.tobytes()
        for seat, player in enumerate(players):
            player.reset(derived_seed(seed, 1, k, seat))
        moves: list[int] = []
        opener = RandomAgent(derived_seed(seed, 2, k))
        seats = [_Seat(player, opener, opening_plies, moves) for player in players]
        traces.append(trace_game(game, seats))
        seen.add((start, tuple(moves)))
        if played is not None:
            played()
    return summarise(traces, len(seen))


class _Seat:
    """A seat of a measured game: `opener` plays the game's first `plies` plies, `agent` the
    seat's moves after them; every move is noted in `moves`, the game's."""

    def __init__(self, agent: Agent, opener: Agent, plies: int, moves: list[int]) -> None:
        self.agent, self.opener, self.plies, self.moves = agent, opener, plies, moves

    def reset(self, seed: int | None = None) -> None:
        self.agent.reset(seed)

    def act(self, game: Game) -> int:
        chooser = self.opener if len(self.moves) < self.plies else self.agent
        action = int(chooser.act(game))
        self.moves.append(action)
        return action


def compare(
    variant: str,
    agents: Sequence[str] = (RANDOM_PLAY, STRONG_PLAY),
    games: int = 50,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    opening_plies: int = OPENING_PLIES,
    played: Callable[[], None] | None = None,
) -> dict[str, Metrics]:
    """The metrics of `variant` under each of `agents` (each in both seats), by spec;
    `played` is called after each game (``games`` an agent)."""
    for spec in agents:  # refused before the first game is played
        check_unattended(spec, "metrics")
    return {
        spec: measure(variant, spec, games, options, seed, opening_plies, played)
        for spec in dict.fromkeys(agents)
    }


ROWS = (
    ("games", "games", "{:d}"),
    ("distinct", "distinct games", "{:d}"),
    ("length", "length (plies a game)", "{:.1f}"),
    ("branching", "branching (legal actions a ply)", "{:.2f}"),
    ("forced", "forced plies (one legal action)", "{:.3f}"),
    ("captures", "captures a game", "{:.1f}"),
    ("lead_changes", "lead changes a game", "{:.2f}"),
    ("drawishness", "drawishness (share drawn)", "{:.3f}"),
    ("decisiveness", "decisiveness (share played before the lead for good)", "{:.3f}"),
)


def format_metrics(columns: dict[str, Metrics]) -> str:
    """The metrics of each column (its heading: how the games were played) as a text table."""
    rows = []
    for field, label, form in ROWS:
        cells = []
        for metrics in columns.values():
            value = getattr(metrics, field)
            cells.append("-" if value is None else form.format(value))
        rows.append([label, *cells])
    rows.append(
        [
            "first player's score [95%]",
            *(
                f"{m.first_player_score:.3f} [{m.first_player_low:.3f}, {m.first_player_high:.3f}]"
                for m in columns.values()
            ),
        ]
    )
    header = ["", *columns]
    widths = [max(len(row[c]) for row in [header, *rows]) for c in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [row[0].ljust(widths[0])] + [
            cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


MARKDOWN_HEADER = (
    "| rule set | play | games (distinct) | length | branching | forced | captures "
    "| lead changes | drawishness | decisiveness | first player's score [95%] |\n"
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
)


def markdown_report(results: dict[str, Any]) -> str:
    """What a results file of benchmarks/metrics.py holds: when, where and how it was measured,
    then its table (`markdown_table`)."""
    plays = results["settings"]["plays"]
    games = " and ".join(f"{n} games of `{play}`" for play, n in plays.items())
    return (
        f"Measured on {results['date']} ({results['machine']}, {results['seconds']:,.0f} s) by "
        f"`{results['command']}`: {games} for each rule set, each after "
        f"{results['settings']['opening_plies']} random plies, seed {results['settings']['seed']}."
        "\n\n" + markdown_table(results)
    )


def markdown_table(results: dict[str, Any]) -> str:
    """The Markdown table of a results file of benchmarks/metrics.py: a row a rule set and play."""
    rows = [MARKDOWN_HEADER]
    for variant, plays in sorted(results["variants"].items()):
        for play, saved in plays.items():
            m = Metrics(**saved)
            decisiveness = "-" if m.decisiveness is None else f"{m.decisiveness:.3f}"
            rows.append(
                f"| {variant} | `{play}` | {m.games} ({m.distinct}) | {m.length:.1f} "
                f"| {m.branching:.2f} | {m.forced:.3f} | {m.captures:.1f} | {m.lead_changes:.2f} "
                f"| {m.drawishness:.3f} | {decisiveness} | {m.first_player_score:.3f} "
                f"[{m.first_player_low:.3f}, {m.first_player_high:.3f}] |"
            )
    return "\n".join(rows)
