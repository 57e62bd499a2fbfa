"""Layli Goobalay: each numbered rule of `mancala_env.variants.layli_goobalay` on a position.

Source: 004_8ffe586423a61d8e.txt, section "Layli Goobalay - Somalia" ('Starting', 'Setup',
'Sowing seeds', '"Pregnant" cups', 'Capturing seeds', 'End of game', 'Other Rules'). Pits 0..5
are player_0's houses 1..6 and pits 6..11 player_1's, in the sowing direction; pit k faces pit
11 - k; stores are [player_0, player_1]. A snapshot's 'uur' names, for each pit, the player who
owns its pregnancy (None for an ordinary pit).
"""

import numpy as np
import pytest
from positions import position

from mancala_env import Game, IllegalActionError
from mancala_env.engine import layout as L
from mancala_env.engine.sowing import ENDLESS, sow
from mancala_env.env import raw_env

NAME = "layli_goobalay"
N = None  # an ordinary (not pregnant) pit in a 'uur' list


def uur(**owners: int) -> list[int | None]:
    """A 'uur' list: uur(p3=0, p8=0) makes pits 3 and 8 pregnant pits of player_0."""
    pits = [N] * L.MAX_PITS
    for key, owner in owners.items():
        pits[int(key[1:])] = owner
    return pits


def seen(game: Game, *extra: str) -> dict:
    """What the rule tests assert: pits, stores, player to move, end reason, pregnant pits."""
    snapshot = game.snapshot()
    keys = ("pits", "stores", "to_move", "end_reason", "uur", *extra)
    return {key: snapshot[key] for key in keys}


# ---- rule 1: the start ----------------------------------------------------------------------


def test_rule_1_four_seeds_in_each_house():
    """Rule 1 (004, 'Setup'): four seeds in each house, each row its player's territory; every
    house of the mover may be lifted."""
    game = Game(NAME, first_player="player_0")
    assert seen(game) == {
        "pits": [4] * 12,
        "stores": [0, 0],
        "to_move": 0,
        "end_reason": None,
        "uur": [N] * 12,
    }
    assert game.legal_actions() == [0, 1, 2, 3, 4, 5]
    assert game.snapshot()["owners"] == [0] * 6 + [1] * 6


def test_rule_1_first_player_guessed_by_default_and_fixed_by_the_option():
    """Rule 1 (004, 'Starting'): a seed guessed in a closed fist decides who begins, so the first
    player is drawn from the reset seed (reproducibly); the first_player option fixes it."""
    drawn = []
    for seed in range(16):
        game, again = Game(NAME), Game(NAME)
        game.reset(np.random.default_rng(seed))
        again.reset(np.random.default_rng(seed))
        assert again.to_move == game.to_move
        drawn.append(game.to_move)
    assert set(drawn) == {0, 1}
    assert Game(NAME, first_player="player_0").to_move == 0
    assert Game(NAME, first_player="player_1").to_move == 1


# ---- rule 2: relay sowing -------------------------------------------------------------------


def test_rule_2_relay_sowing_from_the_start():
    """Rule 2 (004, 'Sowing seeds'): seeds go counter-clockwise one to a house; a last seed in a
    house that held seeds lifts it and sows on, until the last seed falls into an empty house.
    From the start, player_0's house 1: 4 seeds to pits 1-4 (pit 4 makes 5), lifted to 5-9
    (pit 9 makes 5), lifted to 10, 11, 0, 1, 2 (pit 2 makes 6), lifted to 3-8 (pit 8 makes 6),
    lifted to 9, 10, 11, 0, 1 and the last into pit 2, emptied by the relay: it captures the one
    seed of pit 9 facing it with the last seed (rule 3)."""
    game = Game(NAME, first_player="player_0")
    game.step(0)
    assert seen(game) == {
        "pits": [2, 7, 0, 6, 1, 6, 6, 6, 0, 0, 6, 6],
        "stores": [2, 0],
        "to_move": 1,
        "end_reason": None,
        "uur": [N] * 12,
    }


def test_rule_2_the_lifted_house_is_not_passed_over_by_default():
    """Rule 2 (004, 'Sowing seeds': 'placing 1 seed in each successive cup around the board'):
    12 seeds from pit 0 reach every other pit and the 12th falls back into pit 0, which the lift
    left empty: it captures the seed of pit 11 facing it, with itself."""
    game = position(NAME, [12, 0, 0, 0, 0, 0] + [0] * 6, [18, 18], to_move=0)
    game.step(0)
    assert seen(game) == {
        "pits": [0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0],
        "stores": [20, 18],
        "to_move": 1,
        "end_reason": None,
        "uur": [N] * 12,
    }


def test_option_skip_origin_move_keeps_the_starting_house_empty():
    """Option skip_origin='move': the house the move started from is passed over on every lap.
    The 12th seed goes to pit 1 (making 2) and the relay runs 1 -> 3 -> 5 -> 7 -> 9 -> 11; from
    pit 11 it passes over pit 0 into pits 1 and 2 (making 3), lifted to 3, 4, 5: pit 5 was empty
    and takes the 2 seeds of pit 6 facing it with the last seed."""
    game = position(
        NAME, [12, 0, 0, 0, 0, 0] + [0] * 6, [18, 18], to_move=0, options={"skip_origin": "move"}
    )
    game.step(0)
    assert seen(game) == {
        "pits": [0, 1, 0, 1, 3, 0, 0, 0, 2, 0, 2, 0],
        "stores": [21, 18],
        "to_move": 1,
        "end_reason": None,
        "uur": [N] * 12,
    }


def test_option_skip_origin_lap_passes_over_each_laps_own_house():
    """Option skip_origin='lap': each lap passes over the house it was lifted from only. The
    relay runs as with 'move' to pit 11, whose 2 seeds now go into pit 0 and pit 1; pit 1 was
    emptied by the relay and takes the 2 seeds of pit 10 facing it with the last seed."""
    game = position(
        NAME, [12, 0, 0, 0, 0, 0] + [0] * 6, [18, 18], to_move=0, options={"skip_origin": "lap"}
    )
    game.step(0)
    assert seen(game) == {
        "pits": [1, 0, 2, 0, 2, 0, 2, 0, 2, 0, 0, 0],
        "stores": [21, 18],
        "to_move": 1,
        "end_reason": None,
        "uur": [N] * 12,
    }


# ---- rule 3: the opposite capture with the last seed ----------------------------------------


@pytest.mark.parametrize("facing", [1, 2, 4])
def test_rule_3_last_seed_in_an_empty_own_house_captures_1_2_or_4_opposite(facing):
    """Rule 3 (004, 'Capturing seeds'): the last seed falls into an empty house of the mover's
    row (pit 3) and the house facing it (pit 8) holds 1, 2 or 4: those seeds are captured
    together with the last seed."""
    pits = [0, 0, 1, 0, 0, 5] + [3, 2, facing, 0, 0, 4]
    stores = [20, 48 - 20 - sum(pits)]
    game = position(NAME, pits, stores, to_move=0)
    game.step(2)
    assert seen(game) == {
        "pits": [0, 0, 0, 0, 0, 5] + [3, 2, 0, 0, 0, 4],
        "stores": [20 + facing + 1, stores[1]],
        "to_move": 1,
        "end_reason": None,
        "uur": [N] * 12,
    }


def test_rule_3_five_opposite_captured_with_the_last_seed_after_a_relay():
    """Rule 3, the source's first example: the last seed of player_0's relay (pit 1's 2 seeds
    make pit 3 two, lifted into pits 4 and 5) falls into empty pit 5; the 5 seeds of pit 6
    facing it are captured with the last seed, 6 in all."""
    pits = [0, 2, 0, 1, 0, 0] + [5, 1, 0, 0, 3, 0]
    game = position(NAME, pits, [20, 16], to_move=0)
    game.step(1)
    assert seen(game) == {
        "pits": [0, 0, 1, 0, 1, 0] + [0, 1, 0, 0, 3, 0],
        "stores": [26, 16],
        "to_move": 1,
        "end_reason": None,
        "uur": [N] * 12,
    }


def test_rule_3_player_1_captures_on_its_own_row():
    """Rule 3 for player_1: its last seed falls into its empty pit 9 and takes the 4 seeds of
    pit 2 facing it, with the last seed."""
    pits = [0, 0, 4, 0, 0, 2] + [0, 0, 1, 0, 0, 3]
    game = position(NAME, pits, [20, 18], to_move=1)
    game.step(2)  # player_1's house 3 is pit 8
    assert seen(game) == {
        "pits": [0, 0, 0, 0, 0, 2] + [0, 0, 0, 0, 0, 3],
        "stores": [20, 23],
        "to_move": 0,
        "end_reason": None,
        "uur": [N] * 12,
    }


def test_rule_3_nothing_captured_from_an_empty_opposite_house():
    """Rule 3: 'If there are no seeds in the opposite house nothing is captured.'"""
    pits = [0, 0, 1, 0, 0, 5] + [3, 2, 0, 0, 0, 4]
    game = position(NAME, pits, [17, 16], to_move=0)
    game.step(2)
    assert seen(game) == {
        "pits": [0, 0, 0, 1, 0, 5] + [3, 2, 0, 0, 0, 4],
        "stores": [17, 16],
        "to_move": 1,
        "end_reason": None,
        "uur": [N] * 12,
    }


def test_rule_3_nothing_captured_on_the_opponents_row():
    """Rule 3: 'If a player's last seed lands in an empty cup on the opponent's side and the
    opposite house on their own side has seeds in it, no seeds are captured.' player_0 sows pit
    3's 3 seeds into pits 4, 5 (2 -> 3) and empty pit 6 of player_1: pit 5 facing it holds 3,
    yet nothing is captured and no pregnant pair is made."""
    pits = [0, 0, 0, 3, 0, 2] + [0, 1, 0, 0, 2, 0]
    game = position(NAME, pits, [20, 20], to_move=0)
    game.step(3)
    assert seen(game) == {
        "pits": [0, 0, 0, 0, 1, 3] + [1, 1, 0, 0, 2, 0],
        "stores": [20, 20],
        "to_move": 1,
        "end_reason": None,
        "uur": [N] * 12,
    }


# ---- rule 4: pregnant (uur) houses ------------------------------------------------------------


def test_rule_4_an_opposite_three_makes_a_pregnant_pair_of_the_mover():
    """Rule 4 (004, '"Pregnant" cups'): the last seed falls into empty pit 3 and pit 8 facing it
    holds 3: one of the three moves into pit 3, both hold 2 and are player_0's pregnant pits.
    Nothing is captured."""
    pits = [0, 0, 1, 0, 0, 5] + [3, 2, 3, 0, 0, 4]
    game = position(NAME, pits, [15, 15], to_move=0)
    game.step(2)
    assert seen(game) == {
        "pits": [0, 0, 0, 2, 0, 5] + [3, 2, 2, 0, 0, 4],
        "stores": [15, 15],
        "to_move": 1,
        "end_reason": None,
        "uur": uur(p3=0, p8=0),
    }


def test_rule_4_player_1_owns_the_pair_it_makes():
    """Rule 4 for player_1: its last seed falls into its empty pit 7 facing player_0's pit 4 of
    3 seeds: pits 4 and 7 hold 2 each and are player_1's pregnant pits."""
    pits = [1, 0, 0, 0, 3, 0] + [1, 0, 0, 0, 0, 2]
    game = position(NAME, pits, [20, 21], to_move=1)
    game.step(0)  # player_1's house 1 (pit 6): its seed into empty pit 7
    assert seen(game) == {
        "pits": [1, 0, 0, 0, 2, 0] + [0, 2, 0, 0, 0, 2],
        "stores": [20, 21],
        "to_move": 0,
        "end_reason": None,
        "uur": uur(p4=1, p7=1),
    }


def test_rule_4_no_turn_starts_from_a_pregnant_house():
    """Rule 4: 'A turn MAY NOT start by picking up seeds from a pregnant hole', whoever owns the
    pregnancy: player_0 may not lift its pit 3 (its own pregnancy), player_1 may not lift its
    pit 8 (player_0's pregnancy on player_1's row)."""
    pits = [1, 0, 0, 2, 0, 0] + [2, 0, 2, 0, 0, 0]
    game = position(NAME, pits, [20, 21], to_move=0, uur=uur(p3=0, p8=0))
    assert game.legal_actions() == [0]
    with pytest.raises(IllegalActionError, match="legal actions: \\[0\\]"):
        game.step(3)
    game = position(NAME, pits, [20, 21], to_move=1, uur=uur(p3=0, p8=0))
    assert game.legal_actions() == [0]
    with pytest.raises(IllegalActionError):
        game.step(2)


def test_rule_4_seeds_sown_into_pregnant_houses_stay_there():
    """Rule 4: 'any seeds dropped into those holes belong to them': player_1 sows pit 6's 3 seeds
    into pit 7, player_0's pregnant pit 8 (2 -> 3) and empty pit 9; the seed stays in pit 8,
    which stays player_0's and cannot be lifted."""
    pits = [1, 0, 0, 2, 0, 0] + [3, 0, 2, 0, 0, 0]
    game = position(NAME, pits, [20, 20], to_move=1, uur=uur(p3=0, p8=0))
    game.step(0)
    assert seen(game) == {
        "pits": [1, 0, 0, 2, 0, 0] + [0, 1, 3, 1, 0, 0],
        "stores": [20, 20],
        "to_move": 0,
        "end_reason": None,
        "uur": uur(p3=0, p8=0),
    }
    assert game.legal_actions() == [0]


def test_rule_4_a_relay_ending_in_a_pregnant_house_ends_the_turn():
    """Rule 4, reading chosen: the last seed of a lap falls into player_0's pregnant pit 3
    (2 -> 3). The pit is not lifted (its seeds belong to its owner): the seed stays and the turn
    ends."""
    pits = [0, 2, 0, 2, 0, 0] + [0, 1, 2, 0, 0, 0]
    game = position(NAME, pits, [21, 20], to_move=0, uur=uur(p3=0, p8=0))
    game.step(1)
    assert seen(game) == {
        "pits": [0, 0, 1, 3, 0, 0] + [0, 1, 2, 0, 0, 0],
        "stores": [21, 20],
        "to_move": 1,
        "end_reason": None,
        "uur": uur(p3=0, p8=0),
    }


def test_option_uur_relay_lift_sows_the_pregnant_house_on():
    """Option uur_relay='lift': the pregnant pit 3 where the lap ended (3 seeds) is lifted and
    sown into pits 4, 5 and 6 like any other; the last falls into empty pit 6 (the opponent's)
    and the turn ends. Pit 3 stays a pregnant pit of player_0."""
    pits = [0, 2, 0, 2, 0, 0] + [0, 1, 2, 0, 0, 0]
    game = position(
        NAME, pits, [21, 20], to_move=0, uur=uur(p3=0, p8=0), options={"uur_relay": "lift"}
    )
    game.step(1)
    assert seen(game) == {
        "pits": [0, 0, 1, 0, 1, 1] + [1, 1, 2, 0, 0, 0],
        "stores": [21, 20],
        "to_move": 1,
        "end_reason": None,
        "uur": uur(p3=0, p8=0),
    }


# ---- rule 5: the end of a round -------------------------------------------------------------


def test_rule_5_round_ends_when_the_mover_has_only_pregnant_seeds():
    """Rule 5 (004, 'End of game'): player_1 sows its last free seed into its empty pit 7 (pit 4
    facing it is empty). player_0 now has seeds only in its row's pregnant pits 1 (player_1's)
    and 3 (its own): it cannot move and the round ends. Each player takes the pregnant pits it
    owns on both rows (player_0: pits 3 and 8, 2 + 3; player_1: pits 1 and 10, 4 + 2) and the
    seeds left on its side (player_1: pit 7). With match=False (the default) the episode ends."""
    pits = [0, 4, 0, 2, 0, 0] + [1, 0, 3, 0, 2, 0]
    owners = uur(p3=0, p8=0, p1=1, p10=1)
    game = position(NAME, pits, [18, 18], to_move=1, uur=owners)
    game.step(0)
    assert seen(game) == {
        "pits": [0] * 12,
        "stores": [23, 25],
        "to_move": None,
        "end_reason": "no_move",
        "uur": [N] * 12,
    }
    assert game.over and game.winner() == 1


def test_rule_5_a_player_with_free_seeds_plays_on_though_the_other_has_none():
    """Rule 5, reading chosen: the round ends when the player to move cannot move. player_1 has
    only its pregnant pits 1 and 10, but player_0 is to move and can: it sows pit 0's 3 seeds
    into pit 1 (pregnant, 4 -> 5), 2 and empty 3 (pit 8 facing it is empty). Then player_1
    cannot move: the round ends, player_1 takes 5 + 2, player_0 the 2 on its row."""
    pits = [3, 4, 0, 0, 0, 0] + [0, 0, 0, 0, 2, 0]
    game = position(NAME, pits, [20, 19], to_move=0, uur=uur(p1=1, p10=1))
    assert game.legal_actions() == [0]
    game.step(0)
    assert seen(game) == {
        "pits": [0] * 12,
        "stores": [22, 26],
        "to_move": None,
        "end_reason": "no_move",
        "uur": [N] * 12,
    }


def test_option_round_end_row_empty_ends_the_round_at_once():
    """Option round_end='row_empty': the same position ends the round at once, since player_1
    has no seeds outside pregnant pits; player_1 takes its pregnant pits (4 + 2), player_0 its
    row (3)."""
    pits = [3, 4, 0, 0, 0, 0] + [0, 0, 0, 0, 2, 0]
    game = position(
        NAME, pits, [20, 19], to_move=0, uur=uur(p1=1, p10=1), options={"round_end": "row_empty"}
    )
    assert seen(game) == {
        "pits": [0] * 12,
        "stores": [23, 25],
        "to_move": None,
        "end_reason": "few_seeds",
        "uur": [N] * 12,
    }


# ---- rule 6: rounds and the match -----------------------------------------------------------


def test_rule_6_match_next_round_deals_the_poorer_players_seeds():
    """Rule 6 (004, 'Other Rules'), option match=True: player_1's move leaves player_0 unable to
    move; player_0 takes its pregnant pits 2 and 9 (31 seeds in all), player_1 its pit 7 (17).
    player_1, the poorer, deals its 17 seeds one at a time into its houses from house 1 (3, 3,
    3, 3, 3, 2); player_0 places the same 17 the same way and keeps 14. player_1 started the
    round, so player_0 starts the next (the players take turns)."""
    pits = [0, 0, 2, 0, 0, 0] + [1, 0, 0, 2, 0, 0]
    game = position(
        NAME,
        pits,
        [27, 16],
        to_move=1,
        uur=uur(p2=0, p9=0),
        round_starter=1,
        options={"match": True},
    )
    game.step(0)
    extra = ("round", "rounds_won", "round_start_stores", "round_starter")
    assert seen(game, *extra) == {
        "pits": [3, 3, 3, 3, 3, 2] * 2,
        "stores": [14, 0],
        "to_move": 0,
        "end_reason": None,
        "uur": [N] * 12,
        "round": 1,
        "rounds_won": [1, 0],
        "round_start_stores": [14, 0],
        "round_starter": 0,
    }
    assert game.legal_actions() == [0, 1, 2, 3, 4, 5] and not game.over


def test_option_round_starter_loser_starts_the_next_round():
    """Option round_starter='loser': the same round, won by player_0; player_1, who captured
    fewer seeds in it, starts the next round although it started this one."""
    pits = [0, 0, 2, 0, 0, 0] + [1, 0, 0, 2, 0, 0]
    game = position(
        NAME,
        pits,
        [27, 16],
        to_move=1,
        uur=uur(p2=0, p9=0),
        round_starter=1,
        options={"match": True, "round_starter": "loser"},
    )
    game.step(0)
    assert game.to_move == 1 and game.snapshot()["round_starter"] == 1
    assert game.pits.tolist() == [3, 3, 3, 3, 3, 2] * 2


def test_rule_6_the_match_ends_when_a_player_holds_43():
    """Rule 6: 'until one player captures 43 or more seeds'. In round 3, player_1's move leaves
    player_0 stuck; player_0 takes its pregnant pits (2 + 2) and holds 44: the match is over and
    player_0 has won it."""
    pits = [0, 0, 2, 0, 0, 0] + [1, 0, 0, 2, 0, 0]
    game = position(
        NAME,
        pits,
        [40, 3],
        to_move=1,
        uur=uur(p2=0, p9=0),
        round=3,
        round_start_stores=[30, 0],
        options={"match": True},
    )
    game.step(0)
    assert seen(game, "round", "winner") == {
        "pits": [0] * 12,
        "stores": [44, 4],
        "to_move": None,
        "end_reason": "no_move",
        "uur": [N] * 12,
        "round": 4,
        "winner": 0,
    }


def test_rule_6_a_whole_match_is_played_to_43():
    """Rule 6: a whole match of random moves from the start. Every new round sets out the poorer
    player's seeds dealt one at a time on both rows, the richer player keeping the rest, and
    the match ends once a player holds 43 seeds or more; that player wins."""
    rng = np.random.default_rng(3)
    game = Game(NAME, match=True, first_player="player_0")
    rounds_seen = 0
    while not game.over:
        before = game.snapshot()["round"]
        game.step(int(rng.choice(game.legal_actions())))
        snapshot = game.snapshot()
        if not game.over and snapshot["round"] != before:
            rounds_seen += 1
            kept = snapshot["stores"]
            dealt = sum(snapshot["pits"]) // 2
            deal = [dealt // 6 + (1 if house < dealt % 6 else 0) for house in range(6)]
            assert snapshot["pits"] == deal + deal
            assert min(kept) == 0 and max(kept) + 2 * dealt == 48
            assert snapshot["uur"] == [N] * 12 and snapshot["round_start_stores"] == kept
    stores = game.stores.tolist()
    assert rounds_seen >= 2 and game.snapshot()["round"] == rounds_seen + 1
    assert max(stores) >= 43 and game.winner() == stores.index(max(stores))
    assert sum(stores) == 48 and not game.pits.any()


def test_option_max_rounds_stops_a_match():
    """Bound, option max_rounds: a match still going after max_rounds rounds is stopped; the
    player holding more seeds wins. Round 3 of a match limited to 3 rounds ends 31 to 17."""
    pits = [0, 0, 2, 0, 0, 0] + [1, 0, 0, 2, 0, 0]
    game = position(
        NAME,
        pits,
        [27, 16],
        to_move=1,
        uur=uur(p2=0, p9=0),
        round=2,
        options={"match": True, "max_rounds": 3},
    )
    game.step(0)
    assert seen(game, "round", "winner") == {
        "pits": [0] * 12,
        "stores": [31, 17],
        "to_move": None,
        "end_reason": "no_move",
        "uur": [N] * 12,
        "round": 3,
        "winner": 0,
    }


# ---- how every game and match ends ----------------------------------------------------------


def test_bound_stall_limit_stops_a_round_without_captures():
    """Bound: after stall_limit plies in which no seed left the board, the round is stopped;
    the pregnant pits go to their owner (player_1: 2 + 3) and each row to its player."""
    pits = [1, 0, 2, 0, 0, 2] + [0, 1, 0, 3, 0, 0]
    game = position(
        NAME,
        pits,
        [20, 19],
        to_move=0,
        uur=uur(p2=1, p9=1),
        stall_plies=2,
        options={"stall_limit": 3},
    )
    game.step(0)  # pit 0's seed into empty pit 1; pit 10 facing it is empty
    assert seen(game) == {
        "pits": [0] * 12,
        "stores": [23, 25],
        "to_move": None,
        "end_reason": "stall",
        "uur": [N] * 12,
    }


def test_bound_a_relay_circling_for_ever_is_not_legal():
    """Bound: a relay that comes back to a board and pit it has been at circles for ever, and a
    move that starts one is not legal."""
    pits = [0, 1, 0, 2, 1, 2] + [2, 1, 0, 1, 0, 1]
    game = position(NAME, pits, [20, 17], to_move=0)
    assert game.legal_actions() == [1, 3, 4]
    assert sow(game.state.copy(), 5, 0, game.params) == ENDLESS
    with pytest.raises(IllegalActionError):
        game.step(5)


@pytest.mark.parametrize("options", [{}, {"stall_limit": 3}, {"uur_relay": "lift"}])
def test_bound_every_round_and_match_ends(options):
    """Bound: every round ends within 49 * stall_limit plies (each capture takes seeds off a
    board of 48; stall_limit plies without one stop the round), and a match within max_rounds
    rounds; all 48 seeds are then in the stores."""
    rng = np.random.default_rng(11)
    for match in (False, True):
        for _ in range(20):
            game = Game(NAME, match=match, **options)
            game.reset(rng)
            round_start, current = 0, 0
            while not game.over:
                game.step(int(rng.choice(game.legal_actions())))
                if game.snapshot()["round"] != current:
                    current, round_start = game.snapshot()["round"], game.move_number
                assert game.move_number - round_start <= 49 * game.options.stall_limit
            assert current <= (game.options.max_rounds if match else 0)
            assert sum(game.stores) == 48 and not game.pits.any()


# ---- the observation ------------------------------------------------------------------------


def test_observation_shows_the_pregnant_pits():
    """The environment's observation ends with, for each pit in the observer's order, 0 for an
    ordinary pit, 1 for the observer's pregnant pit and 2 for the opponent's."""
    env = raw_env(variant=NAME, first_player="player_0")
    env.reset(seed=0)
    snapshot = env.snapshot()
    snapshot.update(
        pits=[0, 4, 0, 2, 0, 0] + [1, 0, 3, 0, 2, 0],
        stores=[18, 18],
        to_move=1,
        uur=uur(p3=0, p8=0, p1=1, p10=1),
    )
    env.restore(snapshot)
    mine = env.observe("player_0")["observation"]
    theirs = env.observe("player_1")["observation"]
    assert mine[-12:].tolist() == [0, 2, 0, 1, 0, 0] + [0, 0, 1, 0, 2, 0]
    assert theirs[-12:].tolist() == [0, 0, 2, 0, 1, 0] + [0, 1, 0, 2, 0, 0]
    assert env.observation_space("player_0")["observation"].contains(mine)
