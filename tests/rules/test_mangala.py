"""Mangala (004_8ffe586423a61d8e.txt, section "Mangala - Egypt"): one test per rule and option.

Board convention: pits 0..5 are player_0's houses 1..6 (left to right as player_0 sees them),
pits 6..11 player_1's; pit k faces pit 11 - k. Mangala sows clockwise: from pit k to pit k - 1,
from pit 0 to pit 11. The central holes are pits 2, 3 (player_0's houses 3, 4) and 8, 9.
"""

import numpy as np
import pytest
from numba import njit
from positions import outcome, position

from mancala_env import Game, IllegalActionError, SnapshotError
from mancala_env.engine import layout as L
from mancala_env.engine.moves import make_move, rule_candidates
from mancala_env.engine.sowing import ENDLESS
from mancala_env.env import raw_env

LIFTS = 6  # actions 0..5 lift houses 1..6
KEEP = LIFTS  # KEEP + c: c seeds stay in the central hole being filled (c = 0..70)
ACCEPT = LIFTS + 71
TURN_ROUND = LIFTS + 72


def in_play(pits, stores, to_move=0, turns=(1, 1), **options):
    """A position in play (the setting out done); by default both players' first turns are
    over. The seeds on the board and in the stores add up to 70."""
    return position(
        "mangala",
        pits,
        stores,
        to_move,
        options=options,
        turns=list(turns),
        phase="play",
        setup=[0, 4, 1, 0, 0, 0, 0, 0],
    )


def set_out(game, *counts):
    for count in counts:
        game.step(KEEP + count)


# ---- rule 1: the setting out ---------------------------------------------------------------


def test_rule_1_the_distributor_fills_the_central_holes_one_after_another():
    """Setup: one player distributes all 70 seeds in the four central holes, the eight end
    holes staying empty. The seeds still to set out wait in the hole being filled; each count
    keeps that many there (at most the seeds left), the rest move on; the fourth keeps the rest."""
    game = Game("mangala", first_player="player_1")
    snap = game.snapshot()
    assert snap["phase"] == "set_out" and game.to_move == 1 and game.n_actions == 79
    assert game.pits.tolist() == [0] * 8 + [70, 0, 0, 0]  # player_1's house 3 first
    assert game.legal_actions() == list(range(KEEP, KEEP + 71))
    game.step(KEEP + 20)
    assert game.pits.tolist() == [0] * 8 + [20, 50, 0, 0]
    assert game.to_move == 1 and game.legal_actions() == list(range(KEEP, KEEP + 51))
    for illegal in (KEEP + 51, 0, 3, ACCEPT, TURN_ROUND):
        with pytest.raises(IllegalActionError, match="legal actions"):
            game.step(illegal)
    game.step(KEEP + 15)  # player_1's house 4 keeps 15; 35 go on to player_0's house 3
    assert game.pits.tolist() == [0, 0, 35, 0, 0, 0, 0, 0, 20, 15, 0, 0]
    game.step(KEEP + 10)  # player_0's house 3 keeps 10, house 4 the other 25
    assert game.pits.tolist() == [0, 0, 10, 25, 0, 0, 0, 0, 20, 15, 0, 0]
    snap = game.snapshot()
    assert snap["phase"] == "choose" and game.to_move == 0
    assert game.legal_actions() == [ACCEPT, TURN_ROUND]
    assert snap["turns"] == [0, 0] and snap["stall_plies"] == 0
    assert snap["move_number"] == 3 and game.stores.tolist() == [0, 0]


def test_rule_1_all_seeds_in_one_hole_is_a_legal_setting_out():
    """The source puts no limit on the counts: a hole may get every seed, another none."""
    game = Game("mangala", first_player="player_0")
    set_out(game, 0, 0, 70)
    assert game.pits.tolist() == [0] * 8 + [70, 0, 0, 0]
    assert game.to_move == 1 and game.legal_actions() == [ACCEPT, TURN_ROUND]


def test_option_central_holes_at_least_one_every_central_hole_gets_a_seed():
    """central_holes='at_least_one', the other reading of 'distribute the seeds in the four
    central holes': each count keeps a seed for every hole still to fill, so no hole stays
    empty and both rows hold seeds for their first turns."""
    game = Game("mangala", first_player="player_1", central_holes="at_least_one")
    assert game.legal_actions() == list(range(KEEP + 1, KEEP + 68))
    game.step(KEEP + 20)
    assert game.legal_actions() == list(range(KEEP + 1, KEEP + 49))
    game.step(KEEP + 48)  # player_1's house 4 keeps 48: two go on, one for each hole left
    assert game.pits.tolist() == [0, 0, 2, 0, 0, 0, 0, 0, 20, 48, 0, 0]
    assert game.legal_actions() == [KEEP + 1]
    for illegal in (KEEP, KEEP + 2):
        with pytest.raises(IllegalActionError, match="legal actions"):
            game.step(illegal)
    game.step(KEEP + 1)
    assert game.pits.tolist() == [0, 0, 1, 1, 0, 0, 0, 0, 20, 48, 0, 0]
    game.step(ACCEPT)
    assert game.to_move == 0 and game.legal_actions() == [3]


def test_option_central_holes_at_least_one_random_layouts_fill_every_hole():
    """With a random layout, every way of giving each central hole a seed is drawn (the
    single game's draw and a batch's draws alike)."""
    from mancala_env.engine.setting_out import layout_hole
    from mancala_env.engine.starts import random_start_seeds

    game = Game("mangala", setting_out="random", central_holes="at_least_one")
    counts = []
    for seed in range(8):
        game.reset(np.random.default_rng(seed))
        assert game.pits.sum() == 70
        counts.append(game.pits[[2, 3, 8, 9]].tolist())
    seeds = random_start_seeds(game.params, np.random.default_rng(0), 4000)
    for seed in seeds:
        first = [int(layout_hole(seed, hole)) for hole in range(3)]
        counts.append([*first, 70 - sum(first)])
    counts = np.array(counts)
    assert counts.min() == 1 and (counts.sum(axis=1) == 70).all()
    assert len({tuple(c) for c in counts}) > 3000


def test_option_central_holes_at_least_one_refuses_a_snapshot_with_an_empty_hole():
    """A restored setting out follows the option: a central hole filled with none, or a hole
    being filled holding fewer seeds than the holes still to fill, is refused in one line."""
    game = Game("mangala", first_player="player_0", central_holes="at_least_one")
    set_out(game, 5)
    snap = game.snapshot()
    assert Game.from_snapshot(snap).snapshot() == snap
    for pits, short in (([0, 0, 0, 70], "2"), ([0, 0, 68, 2], "3")):
        bad = {**snap, "pits": pits + [0] * 8}
        with pytest.raises(SnapshotError, match=rf"central_holes='at_least_one'.* {short}$"):
            Game.from_snapshot(bad)
    default = {**snap, "options": {**snap["options"], "central_holes": "any_count"}}
    default["pits"] = [0, 0, 0, 70] + [0] * 8
    assert Game.from_snapshot(default).pits.tolist()[:4] == [0, 0, 0, 70]


# ---- rule 2: accept, or turn the board round ----------------------------------------------


def test_rule_2_accepted_position_the_accepting_player_sows_first():
    """'If she is [satisfied], they start playing': the accepting player makes the first move."""
    game = Game("mangala", first_player="player_1")
    set_out(game, 20, 15, 10)
    game.step(ACCEPT)
    snap = game.snapshot()
    assert game.pits.tolist() == [0, 0, 10, 25, 0, 0, 0, 0, 20, 15, 0, 0]
    assert snap["phase"] == "play" and game.to_move == 0 and snap["round_starter"] == 0
    assert snap["setup"][2] == 1  # accepted
    assert game.legal_actions() == [3]  # the first turn: the rightmost filled house only


def test_rule_2_turned_round_the_distributor_sows_first():
    """'If she isn't, the board is turned around and the first player begins': each row's
    seeds go to the other side and the player who set them out moves first."""
    game = Game("mangala", first_player="player_1")
    set_out(game, 20, 15, 10)
    game.step(TURN_ROUND)
    snap = game.snapshot()
    assert game.pits.tolist() == [0, 0, 20, 15, 0, 0, 0, 0, 10, 25, 0, 0]
    assert game.to_move == 1 and snap["round_starter"] == 1 and snap["setup"][2] == 2
    assert game.legal_actions() == [3]


def test_option_accepted_starter_distributor_sows_first_after_acceptance():
    """accepted_starter='distributor': the player who set out the seeds begins either way."""
    game = Game("mangala", first_player="player_1", accepted_starter="distributor")
    set_out(game, 20, 15, 10)
    game.step(ACCEPT)
    assert game.pits.tolist() == [0, 0, 10, 25, 0, 0, 0, 0, 20, 15, 0, 0]
    assert game.to_move == 1 and game.legal_actions() == [3]


def test_option_fixed_layout():
    """setting_out='fixed': 18 and 17 in player_0's houses 3 and 4, 17 and 18 in player_1's
    (facing holes equal); first_player sows first; no setting-out actions."""
    game = Game("mangala", setting_out="fixed", first_player="player_1")
    assert game.n_actions == 6 and game.snapshot()["phase"] == "play"
    assert game.pits.tolist() == [0, 0, 18, 17, 0, 0, 0, 0, 17, 18, 0, 0]
    assert game.to_move == 1 and game.legal_actions() == [3]


def test_option_random_layout_is_drawn_from_the_reset_seed():
    """setting_out='random': the four central holes share the 70 seeds as the seed draws."""
    layouts = set()
    for seed in range(8):
        games = [Game("mangala", setting_out="random") for _ in range(2)]
        for game in games:
            game.reset(np.random.default_rng(seed))
        assert games[0].snapshot() == games[1].snapshot()
        pits = games[0].pits
        assert pits.sum() == 70 and pits[[0, 1, 4, 5, 6, 7, 10, 11]].sum() == 0
        layouts.add(tuple(pits[[2, 3, 8, 9]]))
    assert len(layouts) == 8


def test_setting_out_snapshot_round_trip():
    """A game restored in the middle of its setting out goes on exactly as the original."""
    game = Game("mangala", first_player="player_0")
    set_out(game, 30)
    restored = Game.from_snapshot(game.snapshot())
    assert restored.snapshot() == game.snapshot()
    for g in (game, restored):
        set_out(g, 5, 12)
        g.step(TURN_ROUND)
    assert restored.snapshot() == game.snapshot()
    assert game.pits.tolist() == [0, 0, 12, 23, 0, 0, 0, 0, 30, 5, 0, 0]


def test_observation_shows_the_setting_out():
    """The observation adds phase, 'I distribute', holes filled and seeds still to set out."""
    env = raw_env(variant="mangala", first_player="player_0")
    env.reset(seed=0)
    space = env.observation_space("player_0")["observation"]
    assert space.shape == (20,) and space.high.max() == 70
    assert env.observe("player_0")["observation"][-4:].tolist() == [1, 1, 0, 70]
    assert env.observe("player_1")["observation"][-4:].tolist() == [1, 0, 0, 70]
    env.step(KEEP + 30)
    assert env.observe("player_0")["observation"][-4:].tolist() == [1, 1, 1, 40]
    env.step(KEEP + 10)
    env.step(KEEP + 25)
    assert env.agent_selection == "player_1"
    assert env.observe("player_1")["observation"][-4:].tolist() == [2, 0, 4, 0]
    env.step(ACCEPT)
    assert env.observe("player_1")["observation"][-4:].tolist() == [0, 0, 4, 0]
    assert raw_env(variant="oware").observation_space("player_0")["observation"].shape == (16,)


# ---- rules 3 and 4: clockwise sowing, the opening turns -----------------------------------


def test_rule_3_sowing_goes_clockwise():
    """'in a CLOCKWISE direction': player_0's house 1 sows into player_1's houses 6, 5, 4."""
    game = in_play([3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0], [32, 33])
    game.step(0)  # pit 0: pits 11, 10, 9 get a seed; the last one makes 1 (odd): the turn ends
    assert outcome(game) == {
        "pits": [0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1],
        "stores": [32, 33],
        "to_move": 1,
        "end_reason": None,
    }


def test_rule_4_first_turns_lift_the_rightmost_filled_hole_and_relay_until_empty():
    """'At their first turn each player picks up the seeds of the rightmost filled hole in
    their row ... If the last seed falls into an occupied hole, its contents are distributed in
    another lap until the last seed is dropped into an empty hole. In the opening turn nothing
    can be captured.'"""
    game = in_play([0, 1, 1, 2, 0, 0, 0, 0, 0, 1, 0, 3], [31, 31], turns=(0, 0))
    assert game.legal_actions() == [3]  # house 4 is player_0's rightmost filled hole
    with pytest.raises(IllegalActionError, match=r"legal actions: \[3\]"):
        game.step(1)
    # Pit 3's two seeds: pit 2 (2), pit 1 (2, occupied): lift 2 to pit 0 (1), pit 11 (4,
    # occupied): lift 4 to pits 10, 9 (2), 8, 7 (was empty): the turn ends. Pits 2 and 9 are
    # an even pair, but nothing is captured in the opening turn.
    game.step(3)
    assert outcome(game) == {
        "pits": [1, 0, 2, 0, 0, 0, 0, 1, 1, 2, 1, 0],
        "stores": [31, 31],
        "to_move": 1,
        "end_reason": None,
    }
    assert game.legal_actions() == [4]  # player_1's first turn: house 5 (pit 10)
    game.step(4)  # pit 10's seed to pit 9 (3, occupied): lift 3 to pits 8, 7, 6 (was empty)
    assert outcome(game) == {
        "pits": [1, 0, 2, 0, 0, 0, 1, 2, 2, 0, 0, 0],
        "stores": [31, 31],
        "to_move": 0,
        "end_reason": None,
    }
    assert game.legal_actions() == [0, 2]  # from now on, any filled house


# ---- rule 5: later turns, even pairs, when the sowing goes on ------------------------------


def test_rule_5_even_pairs_are_captured_after_an_odd_last_seed_which_ends_the_sowing():
    """'The sowing now only continues if the last seed ... makes an EVEN NUMBER'; 'When a
    player has dropped his last seed, if there are any EVEN NUMBER of seeds in opposite holes
    ..., the player captures those seeds.' Odd pairs (1 and 2) stay."""
    game = in_play([1, 1, 0, 1, 2, 2, 1, 1, 2, 0, 2, 0], [28, 29])
    game.step(4)  # pit 4: pit 3 (2, facing pit 8's 2), pit 2 (1, odd): the sowing stops
    assert outcome(game) == {
        "pits": [1, 1, 1, 0, 0, 2, 1, 1, 0, 0, 2, 0],
        "stores": [32, 29],
        "to_move": 1,
        "end_reason": None,
    }


def test_option_until_captured_sows_on_from_an_odd_last_hole():
    """continuation='until_captured', the capture text's example: 'This makes an odd number in
    that cup (1 seed), so she captures any even cups facing each other, then continues sowing
    with the seeds from the last cup' — until the last seed makes an even pair."""
    game = in_play([1, 1, 0, 1, 2, 2, 1, 1, 2, 0, 2, 0], [28, 29], continuation="until_captured")
    # As above, pits 3 and 8 are taken; then pit 2's single seed goes to pit 1 (2), facing
    # pit 10's 2: that pair is taken and the turn ends.
    game.step(4)
    assert outcome(game) == {
        "pits": [1, 0, 0, 0, 0, 2, 1, 1, 0, 0, 0, 0],
        "stores": [36, 29],
        "to_move": 1,
        "end_reason": None,
    }


def test_rule_5_an_even_last_hole_facing_an_even_hole_is_captured_and_ends_the_turn():
    """'If the last seed dropped makes an even number and the hole across from it has an even
    number of seeds, that player captures those seeds, plus any even pairs across the
    board—then their turn is over.' Pits 1 and 10 (3 and 2) are no pair."""
    game = in_play([0, 3, 1, 1, 2, 0, 0, 0, 4, 2, 2, 0], [27, 28])
    game.step(4)  # pit 3 (2, facing 4), last in pit 2 (2, facing 2): both pairs taken
    assert outcome(game) == {
        "pits": [0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0],
        "stores": [37, 28],
        "to_move": 1,
        "end_reason": None,
    }


def test_rule_5_an_even_last_hole_facing_an_odd_hole_sows_on_after_the_other_pairs():
    """'If the last seed dropped did not make a pair of "even" holes, the player captures any
    other even groups of seeds, then their turn continues using the seeds dropped in the last
    hole (those are not captured ...)'."""
    game = in_play([0, 0, 1, 1, 2, 0, 0, 0, 4, 3, 0, 0], [29, 30])
    # Pit 3 (2, facing pit 8's 4), last in pit 2 (2, facing 3): pits 3 and 8 are taken, pit
    # 2's two seeds are sown on: pit 1 (1), pit 0 (1, odd): the sowing stops.
    game.step(4)
    assert outcome(game) == {
        "pits": [1, 1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0],
        "stores": [35, 30],
        "to_move": 1,
        "end_reason": None,
    }


def test_the_first_free_move_takes_the_even_pairs_the_forced_openings_leave():
    """Why the first to sow wins with a fixed or random layout, where nobody chooses who that
    is: both opening turns are forced, and the first free move captures every facing pair
    that is even on both sides. From the fixed layout the two opening relays leave three such
    pairs, reached by lifting house 1: 36 seeds, more than half of the 70."""
    game = Game("mangala", setting_out="fixed", first_player="player_0")
    assert game.legal_actions() == [3]
    game.step(3)
    assert game.legal_actions() == [5]
    game.step(5)
    assert game.pits.tolist() == [7, 3, 25, 6, 6, 1, 7, 7, 5, 3, 0, 0]
    assert game.legal_actions() == [0, 1, 2, 3, 4, 5]
    # Pit 0's seven seeds go to pits 11..5; the last makes pit 5 two, facing pit 6's eight:
    # pits 5 and 6 (2, 8), 4 and 7 (6, 8), 3 and 8 (6, 6) are taken.
    game.step(0)
    assert outcome(game) == {
        "pits": [0, 3, 25, 0, 0, 0, 0, 0, 0, 4, 1, 1],
        "stores": [36, 0],
        "to_move": 1,
        "end_reason": None,
    }
    assert game.stores[0] > 70 // 2


# ---- rule 6 and every game's end -----------------------------------------------------------


def test_rule_6_the_game_ends_when_the_player_to_move_has_no_seeds():
    """The section gives no end rule, only 'The object of the game is to capture more seeds
    than your opponent'. Reading: the game ends when the player to move has no seeds on their
    side. Player_1 takes player_0's last seeds; player_0, to move, has none: the game ends,
    player_1 keeps the seeds on their row and has captured more."""
    game = in_play([0, 0, 2, 0, 0, 0, 0, 0, 0, 1, 1, 5], [30, 31], to_move=1)
    game.step(4)  # pit 10's seed makes pit 9 two, facing pit 2's two: captured
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [30, 40],
        "to_move": None,
        "end_reason": "no_move",
    }
    assert game.winner() == 1


def test_option_remainder_split_shares_the_seeds_left():
    """remainder='split': the seeds left are shared evenly, the odd one to the fuller row."""
    game = in_play([0, 0, 2, 0, 0, 0, 0, 0, 0, 1, 1, 5], [30, 31], to_move=1, remainder="split")
    game.step(4)
    assert outcome(game)["stores"] == [32, 38]


def test_every_game_ends_two_seeds_chasing_are_stopped_by_the_stall_limit():
    """Two lone seeds can never make an even pair: they chase each other round the board, and
    the game is stopped after `stall_limit` plies without a capture, rows to their owners."""
    game = in_play([0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0], [34, 34], stall_limit=4)
    for action in (3, 2, 2):  # each seed steps one hole clockwise, into an empty one
        game.step(action)
        assert not game.over
    game.step(1)
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [35, 35],
        "to_move": None,
        "end_reason": "stall",
    }
    assert game.winner() is None


def test_option_until_captured_a_move_that_never_ends_is_not_legal():
    """With continuation='until_captured', two lone seeds would be sown on for ever: the relay
    comes back to a board and pit it has been at, and such a move is not legal. Player_0's only
    move never ends, so the game ends at once, rows to their owners. The default reading stops
    at the odd seed."""
    pits = [0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0]
    game = in_play(pits, [34, 34], continuation="until_captured")
    assert outcome(game) == {
        "pits": [0] * 12,
        "stores": [35, 35],
        "to_move": None,
        "end_reason": "no_move",
    }
    assert in_play(pits, [34, 34]).legal_actions() == [3]


@pytest.mark.parametrize("continuation", ["even", "until_captured"])
def test_every_game_of_mangala_ends_within_its_bound(continuation):
    """Random games (random setting out included) end with every seed in a store, within the
    bound: 4 setting-out plies, then at most 17 captures (each takes 4 seeds or more) and
    `stall_limit` plies without one before and after each: 4 + 18 * stall_limit plies."""
    rng = np.random.default_rng(11)
    for _ in range(40):
        game = Game("mangala", continuation=continuation, stall_limit=10)
        game.reset(rng)
        while not game.over:
            game.step(int(rng.choice(game.legal_actions())))
            assert game.move_number <= 4 + 18 * game.options.stall_limit
        assert sum(game.stores) == 70 and not game.pits.any()


def test_the_forced_opening_turns_of_every_setting_out_end():
    """For every way of sharing 70 seeds among the central holes and either first mover, both
    forced opening relays end within the 200-lap bound, so they are always legal moves. A
    player is left without a first turn only where a whole row was set out empty (146 cases),
    which central_holes='at_least_one' rules out."""
    game = Game("mangala", setting_out="fixed")
    cases, without_first_turn, broken = _forced_openings(game.state.copy(), game.params)
    assert broken == (-1, -1, -1, -1), "seeds a, b, c in pits 2, 3, 8 and first mover"
    assert cases == 2 * 62196 and without_first_turn == 146


@njit  # not cached: numba's cache would not see a change of the kernels it calls
def _forced_openings(base, params):
    """Play both forced opening turns of every setting out of the central holes (pits 2, 3, 8
    and 9) and first mover: the cases, those where a player had no first turn, and the first
    case that broke a rule (a player without a first turn though their row holds seeds, other
    than one candidate, an endless relay), or -1s."""
    out = np.zeros(L.MAX_ACTIONS, dtype=np.int32)
    cases = without_first_turn = 0
    for a in range(71):
        for b in range(71 - a):
            for c in range(71 - a - b):
                for first in range(2):
                    state = base.copy()
                    state[2], state[3], state[8], state[9] = a, b, c, 70 - a - b - c
                    for mover in (first, 1 - first):
                        rule_candidates(state, mover, params, out)
                        if out.sum() == 0:  # a row left empty: that player cannot move
                            if a + b != 0 and a + b != 70:
                                return cases, without_first_turn, (a, b, c, first)
                            without_first_turn += 1
                            break
                        if (
                            out.sum() != 1
                            or make_move(state, np.argmax(out), mover, params) == ENDLESS
                        ):
                            return cases, without_first_turn, (a, b, c, first)
                        state[L.TURNS + mover] = 1
                    cases += 1
    return cases, without_first_turn, (-1, -1, -1, -1)


def test_option_central_holes_refuses_a_reading_it_does_not_know():
    with pytest.raises(ValueError, match="choose one of 'any_count', 'at_least_one'"):
        Game("mangala", central_holes="some")
