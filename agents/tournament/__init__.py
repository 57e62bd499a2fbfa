"""Agent tournaments: fair schedules, a crash-proof SQLite store, ratings with error bars,
matches of two agents that stop at an SPRT's decision (`run_match`), and opening suites of
positions a search rates even (`build_suite`, `read_suite`).

    from mancala_env.agents.tournament import TournamentConfig, run_tournament
    config = TournamentConfig("oware", ("random", "greedy", "alphabeta:depth=2"))
    result = run_tournament(config, db="tournaments.sqlite", workers=2)
    print(format_leaderboard(result))

See docs/tournaments.md.
"""

from .backends import BACKENDS, BackendError, WorkerLost, ray_session, run_games
from .match import play_game
from .openings import OpeningSuite, SuiteError, build_suite, read_suite, save_suite
from .ratings import Ratings, bradley_terry, rate, wilson
from .record import GameRecord
from .report import format_leaderboard, write_report
from .runner import TournamentResult, run_tournament
from .schedule import FORMATS, MAX_GAMES, GameTask, TournamentConfig, schedule
from .sequential import MAX_PAIRS, MatchResult, MatchStep, match_config, run_match
from .sprt import MODELS, EloEstimate, Sprt, elo_estimate
from .store import GameStore, StoreError

__all__ = [
    "BACKENDS",
    "FORMATS",
    "MAX_GAMES",
    "MAX_PAIRS",
    "MODELS",
    "BackendError",
    "EloEstimate",
    "GameRecord",
    "GameStore",
    "GameTask",
    "MatchResult",
    "MatchStep",
    "OpeningSuite",
    "Ratings",
    "Sprt",
    "StoreError",
    "SuiteError",
    "TournamentConfig",
    "TournamentResult",
    "WorkerLost",
    "bradley_terry",
    "build_suite",
    "elo_estimate",
    "format_leaderboard",
    "match_config",
    "play_game",
    "rate",
    "ray_session",
    "read_suite",
    "run_games",
    "run_match",
    "run_tournament",
    "save_suite",
    "schedule",
    "wilson",
    "write_report",
]
