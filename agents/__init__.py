"""Agents for the mancala suite: one small protocol (`Agent`), built from spec strings."""

from .base import Agent, GreedyAgent, RandomAgent

__all__ = ["Agent", "GreedyAgent", "RandomAgent"]
