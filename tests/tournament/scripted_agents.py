"""The source of a scripted agent module the tests write and load as ``python:MODULE:Agent``: it
always plays the legal action at one index, so two such agents replay the same game from the
same start."""

AGENT_SOURCE = '''
class Agent:
    """Always the {which} legal action: the same game from the same position."""

    def __init__(self, seed=None):
        pass

    def reset(self, seed=None):
        pass

    def act(self, game):
        return game.legal_actions()[{index}]
'''
