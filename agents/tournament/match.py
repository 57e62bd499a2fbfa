"""Playing one scheduled game and recording it.

`play_game` is what a worker runs, in this process, in a pool process or as a Ray task. It is
where agents are loaded (a tournament's config only checks their specs): once per worker for
each spec, rule set and identity (what the spec names: a model file's content), reset with the
game's seed before each game. An agent that answers with an illegal action loses that game
(``end_reason: illegal_action``). With an adjudicating endgame database (`GameTask.adjudication`)
a game ends at the first position the database knows the result of (``end_reason:
adjudicated``): its moves stop there, its winner and scores are the database's (the seeds each
player ends with, both playing on for the most: `mancala_env.endgame.adjudicate`). The record
of a game is a `GameRecord`, handed on as a dict."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from mancala_env import Game
from mancala_env.endgame.adjudicate import END_REASON as ADJUDICATED
from mancala_env.endgame.adjudicate import Adjudication, Adjudicator
from mancala_env.game import IllegalActionError
from mancala_env.variants import get_variant

from ..base import Agent
from ..loader import load_agent
from ..ppo import ModelLoadError
from .record import GameRecord
from .schedule import GameTask, TournamentConfig
from .starts import read_record_start, record_start, set_out

_AGENTS: dict[tuple[str, str, str], Agent] = {}  # (spec, variant, identity) -> agent
_KEPT = 16  # agents kept loaded per worker (a training run evaluates a new model each time)
_ADJUDICATORS: dict[tuple[Adjudication, str | None, str, str], Adjudicator] = {}


def _agent(spec: str, variant: str, identity: str, seed: int) -> Agent:
    """The agent `spec` names, as it was when the tournament was set up (`identity`)."""
    key = (spec, variant, identity)
    agent = _AGENTS.pop(key, None)
    if agent is None:
        agent = load_agent(spec, variant, seed=seed)
        if getattr(agent, "identity", identity) != identity:
            raise ModelLoadError(
                f"the model file of {spec} changed while the tournament ran; "
                "run the command again to play the new one"
            )
        while len(_AGENTS) >= _KEPT:
            del _AGENTS[next(iter(_AGENTS))]  # the least recently used
    _AGENTS[key] = agent  # now the most recently used
    agent.reset(seed)
    return agent


def _adjudicator(adjudication: Adjudication, variant: str, options: dict[str, Any]) -> Adjudicator:
    """The adjudicator of `adjudication` for the rules of a game, opened once per worker and
    checked to be the database the tournament was set up with."""
    key = (adjudication, adjudication.identity, variant, repr(sorted(options.items())))
    if key not in _ADJUDICATORS:
        rules = get_variant(variant)
        _ADJUDICATORS.clear()  # a worker plays one tournament's rules at a time
        _ADJUDICATORS[key] = adjudication.open(rules, rules.options(**options))
    return _ADJUDICATORS[key]


def check_agents(config: TournamentConfig, loaded: Callable[[], None] | None = None) -> None:
    """Load each agent of `config` for its rule set, here, so that one that cannot play it (a
    network of another rule set, a model file over its size cap, an endgame database that is
    corrupt or of other rules: what an agent's `open_database` opens for a game's rules) is
    refused before a store is opened; the agents stay loaded for the games this process
    plays. So is an adjudicating endgame database that is not one for the rules. `loaded` is
    called after each agent."""
    game = Game(config.variant, **config.options)
    if config.adjudication is not None:
        _adjudicator(config.adjudication, config.variant, config.options)
    for spec, identity in zip(config.agents, config.identities or (), strict=True):
        check_agent(spec, game, identity)
        if loaded is not None:
            loaded()


def check_agent(spec: str, game: Game, identity: str) -> None:
    """Load the agent `spec` for `game`'s rule set and open what it opens for the game's rules
    (its endgame database): `check_agents` for one agent."""
    agent = _agent(spec, game.variant.name, identity, seed=0)
    open_database = getattr(agent, "open_database", None)
    if open_database is not None:
        open_database(game)


def start(task: GameTask | dict[str, Any]) -> Game:
    """The game of a task or a record, set out from its seed (and at its start board, where it
    has one: a record's is checked first, `starts.read_start`), before any move."""
    variant = task.variant if isinstance(task, GameTask) else task["variant"]
    options = task.options if isinstance(task, GameTask) else task["options"]
    seed = task.seed if isinstance(task, GameTask) else task["seed"]
    game = Game(variant, **options)
    game.reset(np.random.default_rng(seed))
    if isinstance(task, GameTask):
        board = task.start
    else:
        board = read_record_start(task.get("start", {}), game)  # a version-1 store's: none
    if board is not None:
        set_out(game, board)
    return game


def play_game(task: GameTask) -> dict[str, Any]:
    """Play `task` to the end; the game record the store keeps (a `GameRecord` as a dict, as
    the store writes it and the ratings read it)."""
    began = time.perf_counter()
    game = start(task)
    first_player = game.to_move
    for action in task.opening:
        game.step(action)
    agents = [
        _agent(spec, task.variant, identity, seed)
        for spec, identity, seed in zip(task.agents, task.identities, task.agent_seeds, strict=True)
    ]
    moves = list(task.opening)
    think = [0.0, 0.0]
    forfeit = None
    adjudicator = (
        None
        if task.adjudication is None
        else _adjudicator(task.adjudication, task.variant, task.options)
    )
    verdict = None
    while not game.over:
        if adjudicator is not None:
            verdict = adjudicator.verdict(game.state)
            if verdict is not None:
                break
        player = game.to_move
        clock = time.perf_counter()
        action = agents[player].act(game)
        think[player] += time.perf_counter() - clock
        try:
            game.step(action)
        except IllegalActionError:
            forfeit = player
            break
        moves.append(int(action))
    scores = [int(game.stores[0]), int(game.stores[1])]
    if verdict is not None:
        winner, end_reason, scores = verdict.winner, ADJUDICATED, list(verdict.scores)
    elif forfeit is None:
        winner = game.winner()
        end_reason = game.snapshot()["end_reason"]
    else:
        winner, end_reason = 1 - forfeit, "illegal_action"
    return GameRecord(
        tournament=task.tournament,
        game_index=task.index,
        variant=task.variant,
        options=game.snapshot()["options"],
        agent_0=task.agents[0],
        agent_1=task.agents[1],
        seed=task.seed,
        start=record_start(task.start),
        opening=list(task.opening),
        moves=moves,
        first_player=first_player,
        winner=-1 if winner is None else winner,
        score_0=scores[0],
        score_1=scores[1],
        length=len(moves),
        seconds=time.perf_counter() - began,
        think_0=think[0],
        think_1=think[1],
        end_reason=end_reason,
    ).to_dict()
