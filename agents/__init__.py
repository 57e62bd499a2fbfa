"""Agents for the mancala suite: one small protocol (`Agent`), built from spec strings.

    from mancala_env.agents import load_agent
    agent = load_agent("alphabeta:depth=6", seed=0)
    action = agent.act(game)  # game: a mancala_env.Game; the agent never changes it

See docs/agents.md for the spec forms (`SPEC_FORMS`) and how to write an agent of your own.
The environments take agent specs as opponents (``opponent="alphabeta:depth=2"``) without this
package being imported: pyproject.toml declares `load_agent` as the loader of every kind.
"""

from .alphabeta import AlphaBetaAgent
from .base import Agent, GreedyAgent, RandomAgent
from .human import HumanAgent, QuitGame
from .loader import SPEC_FORMS, SpecError, load_agent
from .mcts import MCTSAgent

__all__ = [
    "SPEC_FORMS",
    "Agent",
    "AlphaBetaAgent",
    "GreedyAgent",
    "HumanAgent",
    "MCTSAgent",
    "QuitGame",
    "RandomAgent",
    "SpecError",
    "load_agent",
]
