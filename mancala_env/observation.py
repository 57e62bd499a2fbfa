"""What a player sees: the observation vector of a position, from that player's side.

Every rule set's observation starts with the same numbers: the board's pits (twelve on the
sources' boards; `2 * houses` under Oware's `houses` option) counted in sowing order from the
observer's house 1 (their own row, then the opponent's), the observer's
store, the opponent's store, and whether each has used the once-a-game special move (own
first). Rule sets whose houses change hands or close between rounds add, in the same pit
order, whether the observer owns each pit and whether it is closed, then the number of rounds
finished and the rounds won by the observer and by the opponent. Rule sets with pregnant
(uur) pits (Layli Goobalay) then add, in the same pit order, who owns each pit's pregnancy:
0 for none, 1 for the observer, 2 for the opponent.
Rule sets whose players set out the seeds (Mangala) then add four numbers: the phase (0 play,
1 setting out the central holes, 2 accepting or turning the board round), whether the observer
is the player who sets out the seeds, the central holes filled so far, and the seeds still to
be set out (they wait in the central hole being filled).
Rule sets with special pieces (10 Mighty Men) then add, for each of the 12 piece slots: its kind
(0 none or a regular piece, 1 Farmer .. 10 Spy, as `layout.KIND_*`), where it is (0..11 the
pits in the observer's order, 12 the observer's store, 13 the opponent's, 14 in hand, 15
nowhere), how many special pieces in its pit came there before it (what the Spy asks), its
place in the sowing under way (0 none, else 1 + place) and the Hunter's or Trickster's distance
chosen (0 none or undecided, else 1 + distance); then whether each pit is poisoned (observer's
order); then the decision asked: the phase (`layout.PHASE_*`), the slot it is about (1 + slot),
the pieces lifted, the lifted pit (observer's order, 12 for none), the Shepherd's pit (the
same), and the two counts he has chosen (0 none, else 1 + count).
"""

import numpy as np

from .engine import board
from .engine import layout as L
from .engine.board import has_pieces, has_rounds, has_setting_out, has_uur, house_pit
from .engine.jit import njit
from .engine.mechanics import MECHANICS, Number
from .engine.mechanics.pieces import PLACE_CODES
from .engine.setting_out import central_pit

MAX_OBSERVATION = 128  # more numbers than any rule set's observation has


@njit(cache=True, _nrt=False)
def _seen_pit(pit, player, params):
    """A pit in `player`'s order (their house 1 first); the board's pit count for none."""
    houses = params[L.P_HOUSES]
    return (pit - player * houses) % (2 * houses) if pit >= 0 else 2 * houses


@njit(cache=True, _nrt=False)
def _seen_place(at, player, params):
    pits = 2 * params[L.P_HOUSES]
    if 0 <= at < pits:
        return _seen_pit(at, player, params)
    if at == L.AT_STORE + player:
        return pits
    if at == L.AT_STORE + 1 - player:
        return pits + 1
    return pits + 2 if at == L.AT_HAND else pits + 3


@njit(cache=True, _nrt=False)
def _write_pieces(state, player, params, out, n, bounds):
    """The special pieces and the decision asked (see the module's docstring)."""
    pits = 2 * params[L.P_HOUSES]
    for i in range(L.MAX_PIECES):
        kind = state[L.PIECE_KIND + i]
        at = state[L.PIECE_AT + i] if kind != 0 else L.AT_NOWHERE
        earlier = 0
        for j in range(L.MAX_PIECES):
            if j != i and state[L.PIECE_KIND + j] != 0 and state[L.PIECE_AT + j] == at:
                earlier += state[L.PIECE_SINCE + j] < state[L.PIECE_SINCE + i]
        out[n] = 10 if bounds else kind
        out[n + 1] = PLACE_CODES - 1 if bounds else _seen_place(at, player, params)
        out[n + 2] = L.MAX_PIECES - 1 if bounds else (earlier if 0 <= at < pits else 0)
        out[n + 3] = 48 if bounds else state[L.PIECE_DROP + i] + 1
        out[n + 4] = pits if bounds else max(state[L.PIECE_SHIFT + i], -1) + 1
        n += 5
    for k in range(pits):
        out[n] = 1 if bounds else state[L.CLOSED + house_pit(player, k, params)]
        n += 1
    in_move = state[L.PHASE] >= L.PHASE_DROP
    flock = state[L.MOVE + L.MOVE_FLOCK] if in_move else -1
    out[n] = L.PHASE_FLOCK_PIECE if bounds else state[L.PHASE]
    asked = state[L.PHASE] != L.PHASE_PLAY
    out[n + 1] = L.MAX_PIECES if bounds else (state[L.MOVE + L.MOVE_PIECE] + 1 if asked else 0)
    out[n + 2] = 48 if bounds else (state[L.MOVE + L.MOVE_HAND] if in_move else 0)
    origin = state[L.MOVE + L.MOVE_ORIGIN] if in_move else -1
    out[n + 3] = pits if bounds else _seen_pit(origin, player, params)
    out[n + 4] = pits if bounds else _seen_pit(flock, player, params)
    for k in range(2):
        chosen = state[L.MOVE + L.MOVE_FLOCK_COUNTS + k] if flock >= 0 else -1
        out[n + 5 + k] = 49 if bounds else chosen + 1
    return n + 7


@njit(cache=True, _nrt=False)
def write_observation(state, player, params, out, bounds):
    """Write the observation of `player` into `out` and return how many numbers it has; with
    `bounds`, write the highest value each number can take instead (the lowest is 0)."""
    other = 1 - player
    seeds = params[L.P_TOTAL_SEEDS]
    pits = 2 * params[L.P_HOUSES]
    n = 0
    for k in range(pits):
        out[n] = seeds if bounds else state[house_pit(player, k, params)]
        n += 1
    out[n] = seeds if bounds else state[L.STORE + player]
    out[n + 1] = seeds if bounds else state[L.STORE + other]
    out[n + 2] = 1 if bounds else state[L.SPECIAL_USED + player]
    out[n + 3] = 1 if bounds else state[L.SPECIAL_USED + other]
    n += 4
    if has_rounds(params):
        for k in range(pits):
            pit = house_pit(player, k, params)
            out[n] = 1 if bounds else state[L.OWNER + pit] == player
            out[n + pits] = 1 if bounds else state[L.CLOSED + pit]
            n += 1
        n += pits
        rounds = params[L.P_MAX_ROUNDS]
        out[n] = rounds if bounds else state[L.ROUND]
        out[n + 1] = rounds if bounds else state[L.ROUNDS_WON + player]
        out[n + 2] = rounds if bounds else state[L.ROUNDS_WON + other]
        n += 3
    if has_uur(params):
        for k in range(pits):
            uur = state[L.UUR + house_pit(player, k, params)]  # 1 + owner, 0 for none
            out[n] = 2 if bounds else (0 if uur == 0 else (1 if uur == 1 + player else 2))
            n += 1
    if has_setting_out(params):
        phase = state[L.PHASE]
        distributor = state[L.SETTING_OUT + L.SETTING_OUT_DISTRIBUTOR]
        filled = state[L.SETTING_OUT + L.SETTING_OUT_FILLED]
        waiting = state[central_pit(distributor, filled, params)] if phase == L.PHASE_SET_OUT else 0
        out[n] = 2 if bounds else phase
        out[n + 1] = 1 if bounds else distributor == player
        out[n + 2] = L.SETTING_OUT_CENTRAL_HOLES if bounds else filled
        out[n + 3] = seeds if bounds else waiting
        n += 4
    if has_pieces(params):
        n = _write_pieces(state, player, params, out, n, bounds)
    return n


def observation_high(params: np.ndarray) -> np.ndarray:
    """The highest value each number of the observation can take (the lowest is 0)."""
    out = np.zeros(MAX_OBSERVATION, dtype=np.int8)
    n = write_observation(np.zeros(L.STATE_SIZE, dtype=np.int32), 0, params, out, True)
    return out[:n]


def observe(state: np.ndarray, player: int, params: np.ndarray) -> np.ndarray:
    """The observation of `player` (0 or 1) as an int8 vector, bounded by `observation_high`."""
    out = np.zeros(MAX_OBSERVATION, dtype=np.int8)
    return out[: write_observation(state, player, params, out, False)]


# ---- what each number means (the order `write_observation` writes them in) -------------------


def seen_pits(params: np.ndarray) -> list[str]:
    """The names of the board's pits in the observer's order."""
    houses = range(1, int(params[L.P_HOUSES]) + 1)
    return [f"own_house_{k}" for k in houses] + [f"opponent_house_{k}" for k in houses]


def observation_spec(params: np.ndarray) -> list[Number]:
    """Each number of the observation under `params`, in order (the names of
    `raw_env.observation_names`; `docs/observations.md` has the tables): those the mechanics
    declare (`engine.mechanics`), of each mechanic the rule set observes (the special pieces'
    last)."""
    pits = seen_pits(params)
    spec = []
    for mechanic in MECHANICS:
        if mechanic.observation and (
            mechanic.observed is None or getattr(board, mechanic.observed)(params)
        ):
            spec += mechanic.observation(pits)
    return spec


def observation_names(params: np.ndarray) -> list[str]:
    """The name of each number of the observation under `params` (see `observation_spec`)."""
    return [number.name for number in observation_spec(params)]
