"""The agent protocol: what every agent of the suite is, from random play to trained policies.

An agent is given the game (a `mancala_env.Game`: the position, the rule set and its options)
and returns the action it plays for the player to move; the legal actions are
``game.legal_actions()``. It may be seeded and is reset between games. Agents never change the
game they are given: a search works on copies of the engine's state arrays. An agent that
plays from an endgame database has ``open_database(game)``, which opens it for the game's rules
and refuses one that is corrupt or of other rules: a tournament calls it before its store.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from mancala_env import Game
from mancala_env.kernels import OPPONENTS, kernels_for


@runtime_checkable
class Agent(Protocol):
    """Anything with `reset` and `act` is an agent."""

    def reset(self, seed: int | None = None) -> None:
        """Forget the last game; `seed` makes the agent's random choices reproducible."""

    def act(self, game: Game) -> int:
        """The action to play for `game.to_move` in `game`'s position (one of its legal ones)."""


class _SeededAgent:
    """An agent whose only state is its random generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)


class RandomAgent(_SeededAgent):
    """Plays a uniformly random legal action."""

    code_version = 1  # part of its identity: raise it when its play changes

    def act(self, game: Game) -> int:
        return int(self.rng.choice(game.legal_actions()))


class GreedyAgent(_SeededAgent):
    """Plays the legal action that wins the most seeds this move, ties broken at random."""

    code_version = 1  # part of its identity: raise it when its play changes

    def act(self, game: Game) -> int:
        noise = self.rng.random(game.n_actions)
        kernels = kernels_for(game.variant, game.params, OPPONENTS, uses=("greedy_action",))
        return int(kernels.greedy_action(game.state, game.params, noise))
