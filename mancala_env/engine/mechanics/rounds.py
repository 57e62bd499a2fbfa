"""The rounds of a match (Ncho, J'erin, Rio Kadalis, Layli Goobalay): the turns each player made
this round, the rounds finished and won, who began the round and the stores as it began."""

from .declaration import Block, Mechanic, Number, StateFields

ROUNDS = Mechanic(
    "rounds",
    blocks=(
        # TURNS + p: moves player p has made this round (the position keeps only whether it
        # is zero: `engine.position`)
        Block("TURNS", 2, hashed=False),
        Block("ROUND"),  # rounds finished so far in a match
        Block("ROUNDS_WON", 2),  # ROUNDS_WON + p: rounds player p has won
        Block("ROUND_STARTER"),  # the player who moved first this round
        Block("ROUND_START_STORE", 2),  # ROUND_START_STORE + p: p's store as the round began
        Block("ROUND_OVER"),  # 1 once the current round has ended
    ),
    snapshot_fields=(
        StateFields(
            ("round", "rounds_won", "round_starter", "round_start_stores"),
            "read_rounds",
            "write_rounds",
        ),
    ),
    observation=lambda pits: [
        Number("rounds_finished", "rounds of the match finished so far"),
        Number("own_rounds_won", "rounds the observer has won"),
        Number("opponent_rounds_won", "rounds the opponent has won"),
    ],
    observed="has_rounds",
)
