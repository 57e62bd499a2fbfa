"""Every game of the relay rule sets ends: endless relays and chases on real positions.

A relay lap starts again from the pit its last seed fell into while that pit held seeds (Pratt's
rule 3, 002_39c0c29210756e27.txt; 004_8ffe586423a61d8e.txt, 'Sowing seeds' of Tampoduo, Ayoayo
and Obridjie). The sources do not say what happens when such a relay never ends, and set no
limit on the laps of one that does: the engine plays every relay to its end, and a relay that
comes back to a board and pit it has been at before circles for ever, so that move is not legal
(`sowing.sow_relay`). The positions below were found by a search with the engine over boards
with few seeds; each test proves the relay circles by finding the same board, stores and pit to
lift again, lap after lap.

Two players may also move a few seeds round and round without a capture ever coming; 004 lets
the players agree to stop. Here the game stops after `stall_limit` plies (100) in which no seed
left the board. Two lone seeds cannot chase each other for ever in these rule sets: in Ayoayo
(Pratt's rules, either feeding option) a search over every position of two seeds finds each
chase ended by a capture or the feeding rule, and Obridjie ends as soon as fewer than four
seeds are left. The chases below use three lone seeds (Ayoayo) and four (Obridjie).
"""

import numpy as np
import pytest
from positions import boards_after_laps, outcome, position

from mancala_env import Game, IllegalActionError
from mancala_env.engine import layout as L
from mancala_env.engine.sowing import relay_lap

Relay = tuple[tuple[int, ...], tuple[int, ...], int]


def relay_laps(
    game: Game, board: list[int], stores: list[int], mover: int, pit: int, laps: int
) -> list[Relay]:
    """(board, stores, pit the next lap lifts) before lap 1 and after each of `laps` laps of the
    relay that lifts `pit` of `board`, under `game`'s rules; every lap is checked to end where
    the relay goes on."""
    state = game.state.copy()
    state[: L.MAX_PITS] = board
    state[L.STORE : L.STORE + 2] = stores
    stop_at_four = game.params[L.P_STOP_AT_FOUR] == 1
    start = pit
    laps_seen = [(tuple(board), tuple(stores), pit)]
    for _ in range(laps):
        start = int(relay_lap(state, start, pit, mover, game.params))
        assert start < L.MAX_PITS and state[start] > 1
        assert not (stop_at_four and state[start] == 4)
        laps_seen.append(
            (
                tuple(int(x) for x in state[: L.MAX_PITS]),
                tuple(int(x) for x in state[L.STORE : L.STORE + 2]),
                start,
            )
        )
    return laps_seen


# (variant, options, board, player_0's action, first lap of the cycle, laps in the cycle,
# the legal actions)
ENDLESS = [
    # Pratt's rule 2 passes over pit 2 on every lap, so the circuit has 11 pits. After the
    # first lap a pair walks two pits a lap over single seeds lying in every other pit; as the
    # circuit is odd, each time round the pair finds the pattern shifted by one and never lands
    # in an empty pit: after lap 12 the board and the pit to lift are those after lap 1.
    ("ayoayo", {}, [0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 0, 1], 2, 1, 11, [1, 3, 5]),
    # No pit passed over (Tampoduo's default): after 72 laps the last seed falls into pit 0
    # again, and the board is the one the move started from.
    ("tampoduo", {}, [2, 0, 1, 0, 1, 0, 2, 1, 0, 1, 0, 1], 0, 0, 72, [2, 4]),
    # The same relay in Obridjie: no house is ever made four on it, so it circles the same way.
    ("obridjie", {}, [2, 0, 1, 0, 1, 0, 2, 1, 0, 1, 0, 1], 0, 0, 72, [2, 4]),
]


@pytest.mark.parametrize(
    "variant, options, board, action, first, period, legal",
    ENDLESS,
    ids=[case[0] for case in ENDLESS],
)
def test_a_lift_that_relays_for_ever_is_not_legal(
    variant, options, board, action, first, period, legal
):
    """Rule 3 of 002 / 'Sowing seeds' of 004: the lift circles for ever (the relay comes back to
    the same board, stores and pit), so it is not in the mask and Game.step rejects it; the
    mover's other lifts stay legal."""
    stores = [(48 - sum(board)) // 2, 48 - sum(board) - (48 - sum(board)) // 2]
    options = {"first_player": "player_0", **options}
    game = position(variant, board, stores, to_move=0, options=options)
    laps = relay_laps(game, board, stores, 0, action, first + period)
    assert laps[first + period] == laps[first]
    assert len(set(laps[first : first + period])) == period
    assert game.legal_actions() == legal
    assert game.legal_mask()[action] == 0
    with pytest.raises(IllegalActionError):
        game.step(action)
    assert outcome(game) == {"pits": board, "stores": stores, "to_move": 0, "end_reason": None}


# Obridjie, skip_origin='move'. player_1 plays pit 7 (2 seeds, into pits 8 and 9) and leaves
# player_0 one lift: pit 1, 5 seeds. That relay makes two fours for player_0 in its 12th lap
# (pits 2 and 3, passed on the way) and then circles: after lap 67 the board, the stores and
# the pit to lift are those after lap 12.
ONLY_LIFT_BEFORE = [0, 5, 0, 0, 0, 0, 1, 2, 1, 0, 5, 4]
ONLY_LIFT = [0, 5, 0, 0, 0, 0, 1, 0, 2, 1, 5, 4]


def test_when_the_only_lift_relays_for_ever_the_game_ends():
    """Rule 3 (004, 'Obridjie - Nigeria', 'Sowing seeds'): player_0's
    only lift circles for ever, so he has no legal move though he has seeds; the game ends
    (end_reason 'no_move') and each player takes the seeds on their row (remainder 'owner')."""
    options = {"first_player": "player_0", "skip_origin": "move"}
    game = position("obridjie", ONLY_LIFT_BEFORE, [15, 15], to_move=1, options=options)
    laps = relay_laps(Game("obridjie", **options), ONLY_LIFT, [15, 15], 0, 1, 67)
    assert laps[12][1] == (23, 15)
    assert laps[67] == laps[12]
    game.step(1)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [20, 28],
        "to_move": None,
        "end_reason": "no_move",
    }
    assert game.winner() == 1


# ---- chases -------------------------------------------------------------------------------

# Obridjie: four lone seeds, two a side. Each ply moves one seed a pit on, into an empty pit:
# player_0 3->4, player_1 8->9, 4->5, 9->10, 5->6, 10->11, player_0 0->1, player_1 11->0, 1->2,
# 7->8, 2->3, 6->7: after 12 plies the board is back.
OBRIDJIE_CHASE = [1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0]
OBRIDJIE_MOVES = [3, 2, 4, 3, 5, 4, 0, 5, 1, 1, 2, 0]

# Ayoayo: three lone seeds. player_0 0->1, player_1 6->7, 1->2, 7->8 (a pair: relay to 9, 10),
# 2->3, 9->10 (relay to 11, 0), 3->4, 11->0 (relay to 1, 2: player_1 has no seeds left),
# player_0 feeds with 1->2 (relay 3, 4, relay 5, 6), 6->7, 5->6, 6->7 (relay 8, 9), 3->4,
# 9->10, 4->5, 10->11, 5->6, 11->0: after 18 plies the board is back. No last seed ever falls
# into an empty pit of the mover's row facing seeds, so nothing is captured.
AYOAYO_CHASE = [1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0]
AYOAYO_MOVES = [0, 0, 1, 1, 2, 3, 3, 5, 1, 0, 5, 0, 3, 3, 4, 4, 5, 5]


def play_chase(game: Game, moves: list[int], plies: int) -> None:
    for ply in range(plies):
        assert not game.over
        game.step(moves[ply % len(moves)])


@pytest.mark.parametrize(
    "variant, board, stores, moves, final_stores",
    [
        ("obridjie", OBRIDJIE_CHASE, [20, 24], OBRIDJIE_MOVES, [22, 26]),
        ("ayoayo", AYOAYO_CHASE, [22, 23], AYOAYO_MOVES, [24, 24]),
    ],
)
def test_a_chase_is_stopped_after_exactly_stall_limit_plies(
    variant, board, stores, moves, final_stores
):
    """004 ('Obridjie - Nigeria', 'End of game': 'If there are only a few seeds left and players
    are simply taking turns going around and around, they can agree to end the game'): the
    chase comes back to its board every cycle; after 99 plies without a seed leaving the board
    the game goes on, after the 100th it is stopped (end_reason 'stall') and each player takes
    the seeds on their row: in Obridjie after 100 plies the seeds are in pits 0 and 5 (player_0)
    and 7 and 10 (player_1); in Ayoayo in pits 3 and 5 (player_0) and 7 (player_1)."""
    game = position(variant, board, stores, to_move=0, options={"first_player": "player_0"})
    play_chase(game, moves, len(moves))
    assert outcome(game) == {"pits": board, "stores": stores, "to_move": 0, "end_reason": None}
    play_chase(game, moves, 99 - len(moves))
    assert not game.over
    assert game.snapshot()["stall_plies"] == 99
    game.step(moves[99 % len(moves)])
    assert game.move_number == 100
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": final_stores,
        "to_move": None,
        "end_reason": "stall",
    }


def test_stall_limit_option():
    """Option stall_limit: the Obridjie chase is stopped after 12 plies with stall_limit=12 (the
    board is back where it started: 2 seeds on each row); 0, which would let the chase go on
    for ever, is refused."""
    game = position("obridjie", OBRIDJIE_CHASE, [20, 24], to_move=0, options={"stall_limit": 12})
    play_chase(game, OBRIDJIE_MOVES, 12)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [22, 26],
        "to_move": None,
        "end_reason": "stall",
    }
    with pytest.raises(
        ValueError, match=r"stall_limit=0 must be an integer from 1 to 2147483647: without a limit"
    ):
        Game("obridjie", stall_limit=0)


def test_a_seed_leaving_the_board_restarts_the_stall_count():
    """The stall count is of plies in which no seed left the board: after 99 quiet plies,
    player_0's pit 1 ends in empty pit 3 and captures pit 8 (rule 4 of 002), and the count
    starts again from 0."""
    game = position(
        "ayoayo",
        [0, 2, 0, 0, 1, 0, 3, 0, 5, 0, 1, 0],
        [18, 18],
        to_move=0,
        stall_plies=99,
    )
    game.step(1)
    assert game.snapshot()["stall_plies"] == 0
    assert not game.over


@pytest.mark.parametrize(
    "variant, options",
    [
        ("ayoayo", {}),
        ("ayoayo", {"skip_origin": "none", "feeding": "forced"}),
        ("ayoayo", {"sow_into_stores": True, "skip_origin": "lap"}),
        ("tampoduo", {}),
        ("tampoduo", {"ending": "no_seeds", "skip_origin": "move"}),
        ("obridjie", {}),
        ("obridjie", {"skip_origin": "move", "stuck": "end"}),
    ],
)
def test_every_game_ends_within_49_times_stall_limit_plies(variant, options):
    """At most 48 plies take seeds off the board, each after fewer than stall_limit quiet plies,
    and at most stall_limit quiet plies follow the last: random games end within 49 *
    stall_limit plies, with every seed handed out."""
    limit = 4
    rng = np.random.default_rng(11)
    for _ in range(30):
        game = Game(variant, stall_limit=limit, **options)
        game.reset(rng)
        while not game.over:
            assert game.move_number < 49 * limit
            game.step(int(rng.choice(game.legal_actions())))
        assert game.move_number <= 49 * limit
        assert sum(game.stores.tolist()) == 48


# (variant, board, stores, player to move, action, laps, the board after the move)
LONG_RELAYS = [
    ("tampoduo", [4, 3, 0, 9, 0, 5, 0, 1, 2, 1, 2, 2], [6, 13], 1, 4, 250,
     [1, 4, 0, 0, 1, 13, 1, 0, 4, 0, 1, 0]),
    ("ayoayo", [6, 1, 6, 1, 0, 1, 0, 3, 0, 10, 1, 3], [15, 1], 1, 3, 266,
     [1, 0, 5, 1, 2, 3, 4, 1, 2, 0, 1, 12]),
    ("layli_goobalay", [2, 3, 2, 1, 2, 3, 2, 5, 1, 2, 4, 3], [9, 9], 1, 0, 284,
     [0, 1, 9, 0, 0, 6, 0, 6, 0, 1, 2, 3]),
]  # fmt: skip


@pytest.mark.parametrize(
    "variant, board, stores, mover, action, laps, after",
    LONG_RELAYS,
    ids=[case[0] for case in LONG_RELAYS],
)
def test_a_long_relay_that_ends_is_legal_and_played_to_its_end(
    variant, board, stores, mover, action, laps, after
):
    """No source limits the laps of a relay: these end after 250, 266 and 284 laps (no board
    and pit repeats on the way), so the move is legal and is played to its end."""
    game = position(variant, board, stores, to_move=mover)
    assert len(boards_after_laps(game, action, 1000)) == laps
    assert action in game.legal_actions()
    game.step(action)
    assert game.pits.tolist() == after
    assert game.to_move == 1 - mover


# (variant, board, stores, action, what the rule set's own ending gives)
OWN_ENDING_ON_THE_STALL_PLY = [
    # Player_0's row is empty and no move of player_1 feeds it (Oware's rule 6).
    ("oware", [0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0], [23, 23], 5, [23, 25], "cannot_feed"),
    ("kpo", [0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0], [23, 23], 5, [23, 25], "cannot_feed"),
    ("ouri", [0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0], [23, 23], 5, [23, 25], "cannot_feed"),
    # Player_1 has no seeds and retaliates, taking the three on player_0's row (Ayoyayo).
    ("ayoyayo", [0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0], [23, 22], 1, [23, 25], "no_move"),
    # Player_1 cannot feed player_0 (Pratt's rule 6, Tampoduo's forced feeding).
    ("ayoayo", [0, 0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0], [21, 24], 5, [21, 27], "cannot_feed"),
    ("tampoduo", [0, 0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0], [21, 24], 5, [21, 27], "cannot_feed"),
]


@pytest.mark.parametrize(
    "variant, board, stores, action, final_stores, reason",
    OWN_ENDING_ON_THE_STALL_PLY,
    ids=[case[0] for case in OWN_ENDING_ON_THE_STALL_PLY],
)
def test_the_rule_sets_own_ending_wins_over_the_stall_stop_on_the_same_ply(
    variant, board, stores, action, final_stores, reason
):
    """The ply that reaches stall_limit (the 100th without a capture) also ends the game by the
    source's own rule: the source's ending is the one played, with its stores and reason."""
    options = {"first_player": "player_0"}
    game = position(variant, board, stores, to_move=0, options=options, stall_plies=99)
    game.step(action)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": final_stores,
        "to_move": None,
        "end_reason": reason,
    }


@pytest.mark.parametrize(
    "variant, board, stores, mover, action, laps, after",
    LONG_RELAYS,
    ids=[case[0] for case in LONG_RELAYS],
)
def test_relay_limit_counts_a_relay_of_more_laps_as_endless(
    variant, board, stores, mover, action, laps, after
):
    """Option relay_limit: the relay above of `laps` laps is legal under relay_limit=laps, and
    played to the same end as without a bound; under relay_limit=laps - 1 it is still going on
    when the bound is reached, so it counts as endless and the move is not legal."""
    game = position(variant, board, stores, to_move=mover, options={"relay_limit": laps})
    assert action in game.legal_actions()
    game.step(action)
    assert game.pits.tolist() == after
    game = position(variant, board, stores, to_move=mover, options={"relay_limit": laps - 1})
    assert action not in game.legal_actions()
    with pytest.raises(IllegalActionError):
        game.step(action)


def test_relay_limit_is_an_option_of_every_rule_set_that_relays():
    """Every rule set whose lap may be followed by another has the option, from 1 lap up or
    None (the exact cycle finding alone); a rule set of single laps has none."""
    from mancala_env.variants import VARIANTS

    relaying = {name for name, v in VARIANTS.items() if v.params(v.options())[L.P_CONTINUE]}
    assert relaying == {
        "ayoayo",
        "tampoduo",
        "obridjie",
        "ncho",
        "jerin",
        "rio_kadalis",
        "layli_goobalay",
        "mangala",
    }
    for name in relaying:
        assert VARIANTS[name].params(VARIANTS[name].options(relay_limit=None))[L.P_RELAY_LIMIT] == 0
        assert VARIANTS[name].params(VARIANTS[name].options(relay_limit=7))[L.P_RELAY_LIMIT] == 7
        with pytest.raises(
            ValueError, match=r"relay_limit=0 must be an integer from 1 to .*, or None"
        ):
            Game(name, relay_limit=0)
    with pytest.raises(ValueError, match="unknown option.*relay_limit"):
        Game("oware", relay_limit=1000)
