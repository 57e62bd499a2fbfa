"""Playing and labelling: what a worker process of ``mancala train --algo az`` does.

A worker plays `AZConfig.games` games at once. In each the network (its most likely legal
move, a random one with probability `explore`) meets an opponent drawn from
`AZConfig.opponents` (``self``: the network plays both seats), after 0 to `random_plies`
random moves. The network's moves of all the games are one batched forward pass. Every position
met with two or more legal moves is labelled by the teacher, an alpha-beta search that values
each legal move `teacher_depth` plies deep (with the endgame database, exact where it covers
the position): the policy target is the softmax of those values (seeds) over `temperature`,
the value target the tanh of the best one over `value_scale`. The positions the network
reaches in its own games are the ones it learns to play (DAgger). With `adjudication`, a game
ends at the first position the endgame database knows the result of, before it is labelled
(`mancala_env.endgame.adjudicate`, as a tournament's games end).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mancala_env import Game
from mancala_env.agents.alphabeta import WIN_ZONE, AlphaBetaAgent
from mancala_env.agents.base import Agent
from mancala_env.agents.loader import load_agent
from mancala_env.agents.network import Network, parse_network
from mancala_env.endgame.adjudicate import Adjudicator
from mancala_env.observation import observe

from ..config import SELF
from .config import AZConfig


@dataclass
class Batch:
    """Labelled positions: what the network is fitted to."""

    observations: np.ndarray  # int16, one row a position, the mover's view
    legal: np.ndarray  # bool, positions x actions
    policy: np.ndarray  # float32, the teacher's move probabilities (0 where illegal)
    value: np.ndarray  # float32, the teacher's value of the position for the mover

    def __len__(self) -> int:
        return len(self.value)

    def arrays(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in BATCH_FIELDS}

    @staticmethod
    def join(batches: list[Batch]) -> Batch:
        return Batch(
            *(np.concatenate([b.arrays()[name] for b in batches]) for name in BATCH_FIELDS)
        )

    @staticmethod
    def from_rows(rows: list[tuple[np.ndarray, np.ndarray, np.ndarray, float]]) -> Batch:
        """The positions of `rows`, each its observation, legal moves, policy and value."""
        observations, legal, policy, value = zip(*rows, strict=True)
        return Batch(
            np.array(observations, dtype=np.int16),
            np.array(legal),
            np.array(policy, dtype=np.float32),
            np.array(value, dtype=np.float32),
        )

    def tail(self, n: int) -> Batch:
        return Batch(*(array[-n:] for array in self.arrays().values()))


BATCH_FIELDS = ("observations", "legal", "policy", "value")
MAX_BUFFER_BYTES = 8 * 1024**3  # a checkpoint's kept positions: 400,000 of Oware's are 46 MB
MAX_KEPT_BYTES = MAX_BUFFER_BYTES - 1024**2  # their arrays, the archive's headers aside


def position_bytes(meta: dict[str, Any]) -> int:
    """The bytes a labelled position of a network of `meta` takes in a `Batch`: its int16
    observation, a legal flag, a float32 probability a move, and its float32 value."""
    return 2 * len(meta["observation_high"]) + 5 * meta["n_actions"] + 4


@dataclass(frozen=True)
class Task:
    """One worker's share of a generation."""

    variant: str
    options: dict[str, Any]
    network: bytes  # the network's file (`Network.to_bytes`)
    config: AZConfig
    positions: int
    seed: int


class Teacher:
    """Values every legal move of a position by an alpha-beta search one ply shallower than
    `depth` from each child (sharing one transposition table).

    With `nodes`, the moves are valued at depths 1, 2, ... up to `depth`, and the deepest
    valuation finished within `nodes` positions made is kept: a position whose tree is too wide
    for the full depth (10 Mighty Men's setting out, where one player makes ten moves in a row
    and alpha-beta cuts nothing) gets a shallower label instead of taking a hundred times
    longer than the rest."""

    def __init__(self, game: Game, depth: int, endgames: str | None, nodes: int | None) -> None:
        self.search = AlphaBetaAgent(depth=depth, tb=endgames)
        self.search.open_database(game)
        self.depth = depth
        self.nodes = nodes
        self.last_nodes = 0  # positions made valuing the last position's moves
        self.cap = float(game.total_seeds) / 2

    def move_values(self, game: Game) -> np.ndarray:
        """Each legal move's value in seeds for the player to move in `game` (NaN for illegal
        moves); a proven win or loss counts half the game's seeds."""
        children = []
        for action in game.legal_actions():
            child = game.copy()
            child.step(action)
            children.append((action, child))
        # (depth 1 always finishes: its searches evaluate the children, making no positions)
        depths = [self.depth] if self.nodes is None else range(1, self.depth + 1)
        values, spent = np.full(game.n_actions, np.nan), 0
        for depth in depths:
            budget = None if self.nodes is None else max(self.nodes - spent, 0)
            found, made = self._values(game, children, depth, budget)
            spent += made
            if found is None:
                break
            values = found
        self.last_nodes = spent
        proven = np.abs(values) > WIN_ZONE
        values[proven] = np.sign(values[proven]) * self.cap
        return np.clip(values, -self.cap, self.cap)

    def _values(
        self, game: Game, children: list[tuple[int, Game]], depth: int, budget: int | None
    ) -> tuple[np.ndarray | None, int]:
        """The moves' values searched `depth` plies from `game` and the positions made; None
        for the values when `budget` positions did not suffice."""
        values = np.full(game.n_actions, np.nan)
        spent = 0
        for action, child in children:
            # (a node's children are made together, so a search may pass its limit a little)
            left = None if budget is None else max(budget - spent, 0)
            found = self.search.search(child, depth - 1, left)
            spent += self.search.last_nodes
            if found is None:
                return None, spent
            values[action] = found[0] if child.to_move == game.to_move else -found[0]
        return values, spent


# a worker's teacher, and its opponents and adjudicator, kept between its tasks
_TEACHER: dict[tuple, Teacher] = {}
_AGENTS: dict[tuple, tuple[dict[str, Agent], Adjudicator | None]] = {}


def _teacher(task: Task, game: Game) -> Teacher:
    config = task.config
    key = (task.variant, repr(sorted(task.options.items())), config.teacher_depth,
           config.teacher_nodes, config.endgames)  # fmt: skip
    if key not in _TEACHER:
        _TEACHER.clear()
        _TEACHER[key] = Teacher(game, config.teacher_depth, config.endgames, config.teacher_nodes)
    return _TEACHER[key]


def opponents_and_adjudicator(
    task: Task, game: Game
) -> tuple[dict[str, Agent], Adjudicator | None]:
    """The worker's opponents (one agent a spec of `AZConfig.opponents` but ``self``) and the
    adjudicator of its endgame database (None without `adjudication`), made at its first task."""
    config = task.config
    key = (config.adjudication, task.variant, repr(sorted(task.options.items())),
           config.endgames, tuple(config.opponents))  # fmt: skip
    if key not in _AGENTS:
        _AGENTS.clear()
        opponents = {
            spec: load_agent(spec, task.variant, seed=task.seed)
            for spec in config.opponents
            if spec != SELF
        }
        adjudicator = None
        if config.adjudication is not None and config.endgames is not None:
            adjudicator = Adjudicator.open(
                config.endgames, game.variant, game.options, config.adjudication
            )
        _AGENTS[key] = opponents, adjudicator
    return _AGENTS[key]


def _targets(values: np.ndarray, config: AZConfig) -> tuple[np.ndarray, float]:
    legal = ~np.isnan(values)
    best = float(np.max(values[legal]))
    weights = np.where(
        legal, np.exp((np.where(legal, values, best) - best) / config.temperature), 0.0
    )
    return weights / weights.sum(), float(np.tanh(best / config.value_scale))


class Match:
    """One game of the worker's: its opponent and the network's seat (None: both seats)."""

    def __init__(self, task: Task, rng: np.random.Generator) -> None:
        self.game = Game(task.variant, **task.options)
        self.game.reset(rng)
        self.opponent = task.config.opponents[int(rng.integers(len(task.config.opponents)))]
        self.seat = None if self.opponent == SELF else int(rng.integers(2))
        for _ in range(int(rng.integers(task.config.random_plies + 1))):
            if self.game.over:
                break
            self.game.step(int(rng.choice(self.game.legal_actions())))

    def network_moves(self) -> bool:
        return self.seat is None or self.game.to_move == self.seat


def play_and_label(task: Task) -> tuple[Batch, int]:
    """At least `task.positions` labelled positions from games played as the module docstring
    says, and how many games ended."""
    rng = np.random.default_rng(task.seed)
    network: Network = parse_network(task.network)
    config = task.config
    matches = [Match(task, rng) for _ in range(config.games)]
    teacher = _teacher(task, matches[0].game)
    opponents, adjudicator = opponents_and_adjudicator(task, matches[0].game)
    for agent in opponents.values():
        agent.reset(int(rng.integers(2**31)))
    rows: list[tuple[np.ndarray, np.ndarray, np.ndarray, float]] = []
    finished = 0
    while len(rows) < task.positions:
        # (a new game is looked at again in the next round: its random opening may end it)
        ended = _adjudicated(matches, adjudicator)
        for i, match in enumerate(matches):
            if match.game.over or ended[i]:
                finished += 1
                matches[i] = Match(task, rng)
        for match in matches:  # label every position before its move is played
            game = match.game
            if not game.over and len(game.legal_actions()) > 1:
                policy, value = _targets(teacher.move_values(game), config)
                observation = observe(game.state, game.to_move, game.params)
                rows.append((observation, game.legal_mask().astype(bool), policy, value))
        _move_all(matches, network, opponents, config.explore, rng)
    return Batch.from_rows(rows), finished


def _adjudicated(matches: list[Match], adjudicator: Adjudicator | None) -> np.ndarray:
    """Which of the games `adjudicator` ends now (none without one): one batched call."""
    if adjudicator is None:
        return np.zeros(len(matches), np.bool_)
    return adjudicator.verdicts(np.stack([match.game.state for match in matches])).covered


def _move_all(
    matches: list[Match],
    network: Network,
    opponents: dict[str, Agent],
    explore: float,
    rng: np.random.Generator,
) -> None:
    """One move in every game still on: the network's in one forward pass, the opponents' one
    by one."""
    learner = [m for m in matches if not m.game.over and m.network_moves()]
    if learner:
        observations = np.array(
            [observe(m.game.state, m.game.to_move, m.game.params) for m in learner]
        )
        logits, _ = network.forward(observations)
        for match, row in zip(learner, logits, strict=True):
            legal = match.game.legal_mask().astype(bool)
            if rng.random() < explore:
                match.game.step(int(rng.choice(np.flatnonzero(legal))))
            else:
                match.game.step(int(np.argmax(np.where(legal, row, -np.inf))))
    moved = {id(match) for match in learner}
    for match in matches:
        if not match.game.over and not match.network_moves() and id(match) not in moved:
            match.game.step(opponents[match.opponent].act(match.game))
