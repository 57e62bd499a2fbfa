"""The capture rules, applied once the last seed of a move has fallen.

- chain: the last seed makes a capturing count (2 or 3) in an opponent's pit, which is taken
  with the unbroken run of capturing pits before it on the opponent's row (Oware, Ayoyayo's
  at most five houses);
- opposite: the last seed falls into an empty pit of the mover's row and the pit facing it is
  taken (Ayoayo, Tampoduo), with or without the sowing seed; with P_UUR a facing pit of three
  instead gives one seed to the last pit and both become the mover's pregnant (uur) pits
  (Layli Goobalay), and pregnant pits neither capture nor are captured;
- four: the last seed makes four anywhere and the sower takes it (Obridjie, Ncho);
- even pairs: once a lap's last seed has fallen, every two facing pits that both hold an even
  number (2, 4, 6, ...) are taken by the sower, on either row (Mangala); the sowing takes them
  after every lap of a relay (see `sowing.sow_relay`), and again after the last.

A capture that would leave the opponent's row empty (a grand slam) is played as P_GRAND_SLAM
says.
"""

from .board import (
    board_seeds,
    facing_pit,
    has_uur,
    is_closed,
    is_pregnant,
    owner,
    pit_count,
    row_seeds,
    take,
)
from .jit import njit
from .layout import (
    CAPTURE_CHAIN,
    CAPTURE_EVEN_PAIRS,
    CAPTURE_FOUR,
    CAPTURE_OPPOSITE,
    FOUR_LAST_OWN_ONLY,
    FOUR_LAST_OWNER,
    P_CAPTURE,
    P_CAPTURE_COUNTS,
    P_CAPTURE_LAST_SEED,
    P_CHAIN_MAX,
    P_DIRECTION,
    P_FINAL_POT,
    P_FOUR_LAST,
    P_GRAND_SLAM,
    P_HOUSES,
    SLAM_EXTRA_TURN,
    SLAM_NO_CAPTURE,
    STORE,
    UUR,
)

# Bits of the value `capture` returns.
CAPTURED = 1  # some seeds were taken from the opponent's row
EXTRA_TURN = 2  # the mover moves again


@njit(cache=True, _nrt=False, inline="derived")
def _chain(state, last, mover, params):
    """Take the run of capturing pits ending at `last`; return the capture flags."""
    opponent = 1 - mover
    counts = params[P_CAPTURE_COUNTS]
    step_back = -params[P_DIRECTION]
    pit = last
    houses = 0
    taken = 0
    while (
        houses < params[P_CHAIN_MAX]
        and owner(state, pit, params) == opponent
        and not is_closed(state, pit, params)
        and (counts >> state[pit]) & 1 == 1
    ):
        taken += state[pit]
        houses += 1
        pit = (pit + step_back) % pit_count(params)
    if houses == 0:
        return 0
    slam = taken == row_seeds(state, opponent, params)
    if slam and params[P_GRAND_SLAM] == SLAM_NO_CAPTURE:
        return 0
    pit = last
    for _ in range(houses):
        take(state, pit, mover)
        pit = (pit + step_back) % pit_count(params)
    if slam and params[P_GRAND_SLAM] == SLAM_EXTRA_TURN:
        return CAPTURED | EXTRA_TURN
    return CAPTURED


@njit(cache=True, _nrt=False)
def _make_uur(state, last, facing, mover):
    """Layli Goobalay: one of the three seeds facing the last seed joins it, and both pits
    become pregnant (uur) pits of the mover: they hold their seeds for the mover until the
    round ends."""
    state[facing] -= 1
    state[last] += 1
    state[UUR + last] = 1 + mover
    state[UUR + facing] = 1 + mover


@njit(cache=True, _nrt=False)
def _opposite(state, last, mover, params):
    facing = facing_pit(last, params)
    if owner(state, last, params) != mover or state[last] != 1 or state[facing] == 0:
        return 0
    if is_pregnant(state, last, params) or is_pregnant(state, facing, params):
        return 0  # a pregnant pit's seeds belong to its owner: they take part in no capture
    if has_uur(params) and state[facing] == 3:
        _make_uur(state, last, facing, mover)
        return 0
    take(state, facing, mover)
    if params[P_CAPTURE_LAST_SEED] == 1:
        take(state, last, mover)
    return CAPTURED


@njit(cache=True, _nrt=False)
def in_final_pot(state, in_hand, params):
    """Whether so few seeds are still in play (on the board, and `in_hand` in the sower's
    hand) that the next last-seed four takes them all (J'erin's eight seeds)."""
    return board_seeds(state, params) + in_hand <= params[P_FINAL_POT]


@njit(cache=True, _nrt=False)
def _four(state, last, mover, params):
    if state[last] != 4:
        return 0
    if in_final_pot(state, 0, params):  # the first last-seed four anywhere takes every seed left
        for pit in range(pit_count(params)):
            take(state, pit, mover)
        return CAPTURED
    holder = owner(state, last, params)
    rule = params[P_FOUR_LAST]
    if rule == FOUR_LAST_OWN_ONLY and holder != mover:
        return 0
    take(state, last, holder if rule == FOUR_LAST_OWNER else mover)
    return CAPTURED if holder != mover and rule != FOUR_LAST_OWNER else 0


@njit(cache=True, _nrt=False)
def _even(state, pit, params):
    """An open, non-pregnant pit holding an even number of seeds, at least two."""
    count = state[pit]
    return (
        count > 0
        and count % 2 == 0
        and not is_closed(state, pit, params)
        and not is_pregnant(state, pit, params)
    )


@njit(cache=True, _nrt=False)
def even_pair(state, pit, params):
    """Whether `pit` and the pit facing it both hold an even number of seeds (2, 4, ...)."""
    return _even(state, pit, params) and _even(state, facing_pit(pit, params), params)


@njit(cache=True, _nrt=False)
def even_pairs(state, mover, params):
    """The mover takes every two facing pits that both hold an even number; return flags."""
    flags = 0
    for pit in range(params[P_HOUSES]):
        if even_pair(state, pit, params):
            take(state, pit, mover)
            take(state, facing_pit(pit, params), mover)
            flags = CAPTURED
    return flags


@njit(cache=True, _nrt=False, inline="derived")
def capture(state, last, mover, params):
    """Apply the rule set's capture after a sowing that ended at `last`; return flags."""
    if last >= STORE:  # the last seed fell into a store
        return 0
    rule = params[P_CAPTURE]
    if rule == CAPTURE_CHAIN:
        return _chain(state, last, mover, params)
    if rule == CAPTURE_OPPOSITE:
        return _opposite(state, last, mover, params)
    if rule == CAPTURE_FOUR:
        return _four(state, last, mover, params)
    if rule == CAPTURE_EVEN_PAIRS:
        return even_pairs(state, mover, params)
    return 0
