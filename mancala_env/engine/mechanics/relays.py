"""Relays' kept lifts: the states of MCTS's simulations of a relay rule set only
(`layout.kept_layout`) keep the result of each lift, tried when the turn began, for
`turn.step` (`turn.legal_actions`): KEPT is 1 while they are the current turn's, then a record a
lift: its `make_move` flags and the KEPT slots of the state after it. None in the states of
games, batches and every other loop."""

from .declaration import Block, Mechanic

KEPT_LIFTS = Mechanic("kept_lifts", blocks=(Block("KEPT", 0),))
