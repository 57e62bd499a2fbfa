"""Agents for the mancala suite: one small protocol (`Agent`), built from spec strings.

    from agents import load_agent
    agent = load_agent("alphabeta:depth=6", seed=0)
    action = agent.act(game)  # game: a mancala_env.Game; the agent never changes it

See docs/agents.md for the spec forms (`SPEC_FORMS`) and how to write an agent of your own.
Importing this package registers `load_agent` with `mancala_env.opponents`, so the environments
take agent specs as opponents (``opponent="alphabeta:depth=2"``).
"""

from mancala_env.opponents import register_opponent_loader

from .alphabeta import AlphaBetaAgent
from .base import Agent, GreedyAgent, RandomAgent
from .human import HumanAgent, QuitGame
from .loader import SPEC_FORMS, SpecError, load_agent
from .mcts import MCTSAgent

# the environments' opponents may be agent specs (mancala_env.opponents.load_opponent)
register_opponent_loader(load_agent)

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
