"""A match between two agents that stops when it knows: an SPRT on game pairs (`sprt`).

    from mancala_env.agents.tournament import Sprt, match_config, run_match
    config = match_config("oware", "alphabeta:depth=3", "alphabeta:depth=2")
    result = run_match(config, Sprt(elo0=0, elo1=50), db="tournaments.sqlite", max_pairs=2000)
    print(result.decision, result.llr, result.estimate)

A match is a tournament of its two agents (`match_config`) whose schedule is as long as a
tournament may be (`MAX_GAMES` games); `run_match` plays it pair by pair, each pair two games
from one opening with the seats swapped, stores every game in the tournament store as it
finishes, and after each pair updates the pentanomial counts, the log-likelihood ratio and the
Elo estimate, until the LLR crosses a bound or `max_pairs` pairs are counted.

The pairs are counted in their order in the schedule (pair 0, 1, 2, ...), whichever finishes
first, and the test stops at the first pair whose count crosses a bound. So a match's decision
depends only on its config, its test and its games: not on the number of workers, nor on
where it was interrupted. Run again, a match reads the pairs its store holds (keyed as any
tournament, by its config: the SPRT's bounds are not part of it, so the same games serve a
test with other bounds) and plays on from the first pair missing; a larger `max_pairs` goes on
where a smaller one stopped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mancala_env.endgame.adjudicate import Adjudication

from .backends import run_games
from .openings import OpeningSuite
from .repeats import distinct_games
from .runner import begin, check_before_storing
from .schedule import MAX_GAMES, GameTask, TournamentConfig, scheduled
from .sprt import Decision, EloEstimate, Sprt, elo_estimate
from .store import GameStore

MAX_PAIRS = MAX_GAMES // 2  # the pairs of a match's schedule


def match_config(
    variant: str,
    agent: str,
    baseline: str,
    options: dict[str, Any] | None = None,
    openings: int = MAX_PAIRS,
    opening_plies: int = 4,
    seed: int = 0,
    opening_suite: OpeningSuite | None = None,
    adjudication: Adjudication | None = None,
) -> TournamentConfig:
    """The tournament a match between `agent` and `baseline` plays: `MAX_PAIRS` pairs of
    games, pair k from random opening line k modulo `openings` (by default every pair its own
    line: pairs that repeat a line repeat their games between deterministic agents, and are
    not the independent trials the test counts), `opening_plies` moves long; with
    `opening_suite` (`openings` is then ignored), pair k from the suite's entry k modulo its
    size. With `adjudication`, an endgame database ends each game where it knows the result
    (`TournamentConfig`)."""
    if opening_suite is not None:
        openings = 0
    return TournamentConfig(
        variant,
        (agent, baseline),
        options=dict(options or {}),
        games_per_pair=MAX_GAMES,
        format="round-robin",
        openings=openings,
        opening_plies=opening_plies,
        seed=seed,
        opening_suite=opening_suite,
        adjudication=adjudication,
    )


@dataclass(frozen=True)
class MatchStep:
    """Where a match stands after `pairs` pairs: the counts of the first agent's pair scores
    (0, 0.5, 1, 1.5, 2 points), the LLR, the Elo estimate and the decision (None: go on)."""

    pairs: int
    counts: tuple[int, int, int, int, int]
    llr: float
    estimate: EloEstimate
    decision: Decision | None


@dataclass
class MatchResult:
    """A match stopped at a decision or at its most pairs."""

    config: TournamentConfig
    sprt: Sprt
    db: Path
    last: MatchStep | None  # None: no pair counted (max_pairs 0 is refused, so never)
    played: int  # games played by this run
    found: int  # pairs counted from the store (played by earlier runs)
    distinct: int  # how many of the counted pairs' games differ (`distinct_games`)

    @property
    def decision(self) -> Decision | None:
        return None if self.last is None else self.last.decision


def pair_points(games: tuple[Mapping[str, Any], Mapping[str, Any]], agent: str) -> float:
    """The points `agent` scored in a pair of game records (a win 1, a draw 0.5)."""
    points = 0.0
    for game in games:
        seat = 0 if game["agent_0"] == agent else 1
        points += 0.5 if game["winner"] == -1 else float(game["winner"] == seat)
    return points


def run_match(
    config: TournamentConfig,
    sprt: Sprt,
    db: str | Path = "tournaments.sqlite",
    max_pairs: int = 1000,
    backend: str = "local",
    workers: int = 1,
    ray_address: str | None = None,
    report: Callable[[MatchStep], None] | None = None,
) -> MatchResult:
    """Play the two-agent tournament `config` (see `match_config`) pair by pair, storing each
    game in the store at `db`, until `sprt` decides or `max_pairs` pairs are counted; call
    `report` with each pair's `MatchStep` (those read from the store too)."""
    if len(config.agents) != 2:
        raise ValueError(f"a match is between two agents, got {len(config.agents)}")
    couples = config.games_per_pair // 2
    if isinstance(max_pairs, bool) or not isinstance(max_pairs, int) or max_pairs < 1:
        raise ValueError(f"max_pairs must be a positive integer, got {max_pairs!r}")
    if max_pairs > couples:
        raise ValueError(f"this match's schedule has {couples:,} pairs; max_pairs {max_pairs:,}")
    tally = _Tally(config.agents[0], sprt, max_pairs, report)
    played = 0
    check_before_storing(config, backend, workers, ray_address)
    with GameStore(db) as store:
        key = begin(store, config)

        def held() -> dict[int, Mapping[str, Any]]:
            return {record["game_index"]: record for record in store.games(key)}

        stored = held()
        over = tally.advance(stored)
        found = tally.pairs
        while not over:
            games = run_games(
                _missing(config, stored, tally.pairs, max_pairs),
                backend=backend,
                workers=workers,
                skip=lambda task: store.has_game(key, task.index),
                ray_address=ray_address,
            )
            try:
                for record in games:
                    if store.add_game(record):
                        played += 1
                        stored[record["game_index"]] = record
                    else:  # another process stored it first: count its copy, as a rerun would
                        stored = held()
                    if tally.advance(stored):
                        over = True
                        break
            finally:
                close = getattr(games, "close", None)
                if close is not None:  # a decision leaves the games being played unstored
                    close()
            if not over:  # games another process played meanwhile were skipped: read them
                counted = tally.pairs
                stored = held()
                over = tally.advance(stored)
                if not over and tally.pairs == counted:
                    raise RuntimeError(f"pair {counted} of tournament {key} was not played")
    counted = [stored[index] for index in range(2 * tally.pairs)]
    return MatchResult(config, sprt, Path(db), tally.last, played, found, distinct_games(counted))


class _Tally:
    """The test's running count over a match's pairs, taken in schedule order."""

    def __init__(
        self,
        agent: str,
        sprt: Sprt,
        max_pairs: int,
        report: Callable[[MatchStep], None] | None,
    ) -> None:
        self.agent, self.sprt, self.max_pairs, self.report = agent, sprt, max_pairs, report
        self.counts = np.zeros(5, dtype=np.int64)
        self.pairs = 0
        self.last: MatchStep | None = None

    def advance(self, stored: Mapping[int, Mapping[str, Any]]) -> bool:
        """Count the next pairs whose two games `stored` holds; True once the test has decided
        or `max_pairs` pairs are counted."""
        while self.pairs < self.max_pairs:
            first, second = stored.get(2 * self.pairs), stored.get(2 * self.pairs + 1)
            if first is None or second is None:
                return False
            self.counts[round(2 * pair_points((first, second), self.agent))] += 1
            ratio = float(self.sprt.llr(self.counts))
            self.pairs += 1
            self.last = MatchStep(
                pairs=self.pairs,
                counts=tuple(int(c) for c in self.counts),  # type: ignore[arg-type]
                llr=ratio,
                estimate=elo_estimate(self.counts),
                decision=self.sprt.decide(ratio),
            )
            if self.report is not None:
                self.report(self.last)
            if self.last.decision is not None:
                return True
        return True


def _missing(
    config: TournamentConfig, stored: Mapping[int, Any], pairs: int, max_pairs: int
) -> Iterator[GameTask]:
    """The games of pairs `pairs` to `max_pairs` - 1 that `stored` lacks, in order."""
    for task in scheduled(config, start=2 * pairs):
        if task.index >= 2 * max_pairs:
            return
        if task.index not in stored:
            yield task
