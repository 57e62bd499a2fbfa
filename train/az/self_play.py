"""Self-play with search-improved targets: what a worker process of ``mancala train --algo az``
does with ``targets = "search"`` (AlphaZero's loop, where `games.play_and_label` is expert
iteration's).

A worker plays `AZConfig.games` games at once, opened as `games.play_and_label`'s are (0 to
`random_plies` random moves, then an opponent drawn from `AZConfig.opponents`; ``self``: the
network plays both seats). At each of the network's moves with two or more legal moves it
searches `simulations` simulations with the compiled tree search of
`mancala_env.agents.az_search`:

- ``search = "gumbel"`` (Gumbel AlphaZero, Danihelka et al. 2022): the move sequential halving
  keeps among `considered` root moves drawn by Gumbel-top-k is played, and the search's improved
  policy ``softmax(logits + sigma(completed Q))`` is the position's policy target. Its Gumbel
  noise is its exploration: every move keeps a chance, and the target improves the policy even
  at a few simulations.
- ``search = "puct"`` (AlphaZero): the most visited move is played, and the root's visit
  shares are the target.

A random move replaces the searched one with probability `explore`. When a game ends, each
position the network searched in it gets the game's result for the player who moved there: +1,
0 or -1 (the value target). With `adjudication`, a game ends at the first position the endgame
database covers, with the database's exact result. A worker starts no new game once its
finished and running games hold its share of positions, and plays the running games out: every
searched position is kept, with its game's true result.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from mancala_env import Game
from mancala_env.agents.az import DEFAULT_C, DEFAULT_C_SCALE, DEFAULT_C_VISIT
from mancala_env.agents.az_search import Searcher, gumbel_search, puct_search, search_kernels
from mancala_env.agents.network import parse_network
from mancala_env.endgame.adjudicate import Adjudicator, Verdicts
from mancala_env.observation import observe

from .config import AZConfig
from .games import Batch, Match, Task, opponents_and_adjudicator

# a searched position waiting for its game's result: observation, legal moves, policy target, mover
Pending = tuple[np.ndarray, np.ndarray, np.ndarray, int]


def play_with_search(task: Task) -> tuple[Batch, int]:
    """At least `task.positions` positions, each with its search's policy and its game's
    result, from games played as the module docstring says; and how many games ended."""
    rng = np.random.default_rng(task.seed)
    config = task.config
    network = parse_network(task.network)
    matches: list[Match | None] = [Match(task, rng) for _ in range(config.games)]
    first = matches[0].game  # type: ignore[union-attr]
    opponents, adjudicator = opponents_and_adjudicator(task, first)
    for agent in opponents.values():
        agent.reset(int(rng.integers(2**31)))
    searcher, kernels = Searcher(network), search_kernels(first)
    pending: list[list[Pending]] = [[] for _ in matches]
    rows: list[tuple[np.ndarray, np.ndarray, np.ndarray, float]] = []
    finished = 0
    while any(match is not None for match in matches):
        verdicts = _verdicts(matches, adjudicator)
        for i, match in enumerate(matches):
            if match is None:
                continue
            covered = verdicts is not None and bool(verdicts.covered[i])
            if not (match.game.over or covered):
                continue
            winner = match.game.winner() if match.game.over else _winner(verdicts, i)
            rows.extend(_scored(pending[i], winner))
            pending[i] = []
            finished += 1
            held = len(rows) + sum(len(waiting) for waiting in pending)
            matches[i] = Match(task, rng) if held < task.positions else None
        for i, match in enumerate(matches):
            if match is None or match.game.over:
                continue
            game = match.game
            if not match.network_moves():
                game.step(opponents[match.opponent].act(game))
                continue
            legal = game.legal_mask().astype(bool)
            moves = np.flatnonzero(legal)
            if len(moves) == 1:
                game.step(int(moves[0]))
                continue
            action, policy = _search(game, searcher, kernels, config, rng)
            observation = observe(game.state, game.to_move, game.params)
            pending[i].append((observation, legal, policy.astype(np.float32), game.to_move))
            if rng.random() < config.explore:
                action = int(rng.choice(moves))
            game.step(action)
    return Batch.from_rows(rows), finished


def _search(
    game: Game,
    searcher: Searcher,
    kernels: SimpleNamespace,
    config: AZConfig,
    rng: np.random.Generator,
) -> tuple[int, np.ndarray]:
    """The move `config.search` chooses in `game` and its policy target."""
    if config.search == "gumbel":
        gumbel = rng.gumbel(size=game.n_actions)
        return gumbel_search(
            searcher,
            kernels,
            game,
            config.simulations,
            gumbel,
            config.considered,
            DEFAULT_C_VISIT,
            DEFAULT_C_SCALE,
        )
    return puct_search(searcher, kernels, game, config.simulations, DEFAULT_C)


def _verdicts(matches: list[Match | None], adjudicator: Adjudicator | None) -> Verdicts | None:
    """The database's verdicts on the games' positions (a finished or retired game's row is
    not looked at); None without an adjudicator."""
    live = [match for match in matches if match is not None]
    if adjudicator is None or not live:
        return None
    states = np.stack([(match or live[0]).game.state for match in matches])
    return adjudicator.verdicts(states)


def _winner(verdicts: Verdicts, row: int) -> int | None:
    winner = int(verdicts.winner[row])
    return None if winner < 0 else winner


def _scored(
    positions: list[Pending], winner: int | None
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, float]]:
    """The positions of a game that `winner` won (None: drawn), each valued for its mover."""
    return [
        (observation, legal, policy, 0.0 if winner is None else (1.0 if mover == winner else -1.0))
        for observation, legal, policy, mover in positions
    ]
