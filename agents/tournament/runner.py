"""Running a tournament: schedule, play what the store lacks, store each game, rate."""

from __future__ import annotations

import logging
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from tqdm import tqdm

from .backends import check_backend, run_games
from .endgames import EndgameAccuracy, endgame_accuracy, open_database
from .match import check_agents
from .ratings import Ratings, anchor_vector, rate
from .repeats import distinct_games
from .schedule import TournamentConfig, schedule, short
from .store import GameStore, StoreError

log = logging.getLogger("mancala_env.agents.tournament")


@dataclass
class TournamentResult:
    """A finished (or resumed and finished) tournament: its games and ratings."""

    config: TournamentConfig
    db: Path
    records: list[dict[str, Any]]
    ratings: Ratings
    played: int  # games played by this run (the rest were in the store already)
    endgames: EndgameAccuracy | None = None  # with an endgame database: the agents' accuracy

    @cached_property
    def distinct(self) -> int:
        """How many of the games differ (`distinct_games`)."""
        return distinct_games(self.records)


def run_tournament(
    config: TournamentConfig,
    db: str | Path = "tournaments.sqlite",
    backend: str = "local",
    workers: int = 1,
    ray_address: str | None = None,
    bootstrap: int = 1000,
    progress: bool = True,
    endgame_db: str | Path | None = None,
    anchors: Mapping[str, float] | None = None,
) -> TournamentResult:
    """Play every game of `config` that the store at `db` does not hold yet, writing each as
    it finishes, then rate the agents on all the tournament's games; with `endgame_db` (the
    directory of an endgame database for the rule set, checked before any game is played),
    score each agent's moves in the positions it covers as well. `anchors` (agent: rating,
    checked before any game is played) fix those agents' ratings (`rate`).

    Running it again with the same config continues where a stopped run left off; several
    processes may run it on the same store at once. A stored config (`GameStore.tournaments`)
    whose agents' files or rules have changed since is refused (`begin`).
    """
    anchor_vector(anchors or {}, config.agents)
    database = None if endgame_db is None else open_database(endgame_db, config)
    check_before_storing(config, backend, workers, ray_address, progress)
    with GameStore(db) as store:
        key = begin(store, config)
        tasks = schedule(config)
        done = store.finished(key)
        todo = [task for task in tasks if task.index not in done]
        played = 0
        bar = tqdm(
            total=len(tasks),
            initial=len(tasks) - len(todo),
            desc=f"{config.variant} tournament",
            unit="game",
            disable=not progress,
            file=sys.stderr,
        )
        with bar:
            games = run_games(
                todo,
                backend=backend,
                workers=workers,
                skip=lambda task: store.has_game(key, task.index),
                ray_address=ray_address,
            )
            for record in games:
                if store.add_game(record):
                    played += 1
                bar.update(1)
        records = store.games(key)
    ratings = rate(records, config.agents, bootstrap=bootstrap, seed=config.seed, anchors=anchors)
    endgames = (
        None
        if database is None
        else endgame_accuracy(database, records, config.agents, seed=config.seed)
    )
    return TournamentResult(config, Path(db), records, ratings, played, endgames)


def check_before_storing(
    config: TournamentConfig,
    backend: str,
    workers: int,
    ray_address: str | None,
    progress: bool = False,
) -> None:
    """Refuse, before a store is created or opened, a tournament that could not be played: a
    backend that cannot run, an agent that cannot be loaded for the rule set. A refused
    command leaves no new file. With `progress`, loading agents that takes more than a second
    (a model, a network) shows a bar of the agents loaded."""
    check_backend(backend, workers, ray_address)
    with tqdm(
        total=len(config.agents),
        desc=f"{config.variant}: loading the agents",
        unit="agent",
        disable=not progress,
        file=sys.stderr,
        delay=1,  # quick loads (the built-in agents) and refusals show nothing
        leave=False,
    ) as bar:
        check_agents(config, loaded=bar.update)


def begin(store: GameStore, config: TournamentConfig) -> str:
    """Record `config` in `store` and return its key, once it is known to be playable.

    A config that holds other agents or rules than there are now (a stored tournament whose
    model file was replaced since) is refused with a ValueError: its key names games of what it
    holds. A new tournament that is a stored one with an agent or the rules changed is announced (a
    warning on the ``mancala_env.agents.tournament`` logger, printed on stderr unless logging is set
    up otherwise): the stored games stay under their key, none of them counts here."""
    changes = config.changes()
    if changes:
        raise ValueError(
            f"tournament {config.key} cannot go on: {'; '.join(changes)}. Its games stay under "
            "its key; to play the agents as they are now, make the config again (the same "
            "command makes a new tournament)"
        )
    if config.key not in store.tournament_keys():
        for note in _earlier_versions(store, config):
            log.warning(note)
    return store.add_tournament(config)


def _earlier_versions(store: GameStore, config: TournamentConfig) -> list[str]:
    """A sentence for each stored tournament that is `config` but for an agent's identity or
    the rules."""
    try:
        stored = store.tournaments()
    except StoreError:  # a config this code cannot read: it is no earlier version of this one
        return []
    notes = []
    for key, earlier in stored:
        if earlier != config or key == config.key:
            continue
        what = [
            f"{spec} (was {short(held)}, is now {short(now)})"
            for spec, held, now in zip(
                config.agents, earlier.identities or (), config.identities or (), strict=True
            )
            if held != now
        ]
        if earlier.rules != config.rules:
            what.append("the rules")
        held, now = earlier.adjudication, config.adjudication
        if held is not None and now is not None and held.identity != now.identity:
            what.append("the endgame database that adjudicates the games")
        notes.append(
            f"note: {' and '.join(what) or 'the config'} changed since tournament {key} was "
            f"played; its {len(store.finished(key))} games stay there, and this is a new "
            f"tournament {config.key} that plays from the first game"
        )
    return notes
