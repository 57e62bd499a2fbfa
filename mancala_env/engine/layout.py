"""Where everything lives in the flat integer arrays the rules kernels work on.

A game state is one ``int32`` vector of length ``STATE_SIZE``; a rule set is one ``int32``
vector of length ``PARAMS_SIZE`` (its options turned into numbers). Every kernel in
``mancala_env.engine`` reads and writes these two arrays only, so the same compiled code
serves the single environment, a batch of games (a 2-D array of states) and the search agents.

Board convention: a rule set has ``N = params[P_HOUSES]`` houses a player (at most
``MAX_HOUSES``); pits ``0..N-1`` belong to ``player_0`` and ``N..2N-1`` to ``player_1`` at the
start, numbered in the counter-clockwise sowing direction; pit ``k`` faces pit ``2N-1-k``. The
state keeps room for ``MAX_PITS`` pits; those past a smaller board's ``2N`` stay empty and
unowned, and no rule reads them.
"""

from collections.abc import Sequence

from .mechanics import state_offsets
from .mechanics.ownership import NO_OWNER as NO_OWNER  # OWNER of a pit past the board's end
from .sizes import MAX_ACTIONS as MAX_ACTIONS
from .sizes import MAX_HOUSES as MAX_HOUSES
from .sizes import MAX_PIECES as MAX_PIECES
from .sizes import MAX_PITS as MAX_PITS
from .sizes import MOVE_SLOTS as MOVE_SLOTS

# ---- state vector -------------------------------------------------------------------------
# Each block's offset (PITS, STORE, TO_MOVE, ..., OWNER, CLOSED, LEGAL, ..., UUR, SETTING_OUT,
# ..., PIECE_KIND, ..., MOVE, KEPT) and STATE_SIZE, laid out from the mechanics' declarations
# (`engine.mechanics`, where each block says what it holds). They are module-level ints, as the
# kernels import them and `engine.compiler` folds them.
_STATE_OFFSETS = state_offsets()
globals().update(_STATE_OFFSETS)
KEPT_SLOTS = 0  # the kept lifts' room: none in the states of games, batches and other loops


# Why a game ended (state[END_REASON]).
END_NONE = 0
END_MAJORITY = 1  # a player captured more than half the seeds, or both exactly half
END_FEW_SEEDS = 2  # too few seeds left on the board to play on
END_NO_MOVE = 3  # the player to move has no legal move
END_CANNOT_FEED = 4  # the opponent has no seeds and no move gives them any
END_PENALTY = 5  # a player failed to feed an opponent who had no seeds (Ayoayo)
END_STALL = 6  # no seed left the board for `stall_limit` plies (the agreed stop)
END_BOARD_EMPTY = 7  # every seed has been captured

END_REASON_NAMES = {
    END_NONE: "none",
    END_MAJORITY: "majority",
    END_FEW_SEEDS: "few_seeds",
    END_NO_MOVE: "no_move",
    END_CANNOT_FEED: "cannot_feed",
    END_PENALTY: "feeding_penalty",
    END_STALL: "stall",
    END_BOARD_EMPTY: "board_empty",
}

# ---- rule parameters vector -----------------------------------------------------------------
# Declared like the state block: each parameter follows the one before it, a block of several
# slots says how many, and the import checks that the vector holds them all.
SETTING_OUT_LAYOUT_HOLES = 3  # the central holes a given Mangala layout fills
P_SEEDS_PER_HOUSE = 0
P_CONTINUE = P_SEEDS_PER_HOUSE + 1  # CONTINUE_*: what the last seed of a lap does
P_SKIP_ORIGIN = P_CONTINUE + 1  # SKIP_*: which lifted pit a lap passes over
P_SOW_INTO_STORE = P_SKIP_ORIGIN + 1  # 1: the mover's store is part of the sowing circuit
P_CAPTURE = P_SOW_INTO_STORE + 1  # CAPTURE_*: the capture rule applied after sowing
# bit c set: a pit holding c seeds after the last seed is captured (chain)
P_CAPTURE_COUNTS = P_CAPTURE + 1
P_CHAIN_MAX = P_CAPTURE_COUNTS + 1  # most houses one chain capture may empty
P_CAPTURE_LAST_SEED = P_CHAIN_MAX + 1  # 1: the opposite capture takes the sowing seed too
P_GRAND_SLAM = P_CAPTURE_LAST_SEED + 1  # SLAM_*: a capture that would empty the opponent's row
# fewest seeds a house must hold to be lifted (when any house holds that many)
P_MIN_LIFT = P_GRAND_SLAM + 1
P_FEEDING = P_MIN_LIFT + 1  # FEED_*: the obligation to give seeds to an opponent with none
P_NO_MOVE = P_FEEDING + 1  # NO_MOVE_*: what happens when the player to move cannot move
P_END_MAJORITY = P_NO_MOVE + 1  # 1: the game ends once a player holds more than half the seeds
# the game ends when the board holds at most this many seeds (-1: off)
P_END_BOARD_AT_MOST = P_END_MAJORITY + 1
# the game ends when both rows hold at most this many (-1: off)
P_END_EACH_SIDE_AT_MOST = P_END_BOARD_AT_MOST + 1
P_REMAINDER = P_END_EACH_SIDE_AT_MOST + 1  # REMAINDER_*: who gets the seeds left when the game ends
# plies without a seed leaving the board before the game is stopped (>= 1)
P_STALL_LIMIT = P_REMAINDER + 1
P_STALL_REMAINDER = P_STALL_LIMIT + 1  # REMAINDER_* for a game stopped by the stall limit
# SPECIAL_*: the once-a-game extra move (Ayoyayo's odu transfer)
P_SPECIAL_MOVE = P_STALL_REMAINDER + 1
# the game ends when each row holds exactly this many (-1: off)
P_END_EACH_SIDE_EXACTLY = P_SPECIAL_MOVE + 1
P_DIRECTION = P_END_EACH_SIDE_EXACTLY + 1  # +1 counter-clockwise, -1 clockwise
# FOUR_ON_THE_WAY_*: who takes a pit made four before the last seed
P_FOUR_ON_THE_WAY = P_DIRECTION + 1
P_STOP_AT_FOUR = P_FOUR_ON_THE_WAY + 1  # 1: a relay stops when the last seed makes four
# the game ends when either row holds at most this many (-1: off)
P_END_ANY_SIDE_AT_MOST = P_STOP_AT_FOUR + 1
P_TOTAL_SEEDS = P_END_ANY_SIDE_AT_MOST + 1  # seeds in the game (pits and stores together)
# lift actions: N (own row) or 2N (any pit the mover owns, in sowing order)
P_LIFT_ACTIONS = P_TOTAL_SEEDS + 1
P_OPENING = P_LIFT_ACTIONS + 1  # OPENING_*: a special first move of each player
P_FOUR_LAST = P_OPENING + 1  # FOUR_LAST_*: who takes a four made by the last seed (CAPTURE_FOUR)
# with this many seeds or fewer left, a last-seed four takes them all (0: off)
P_FINAL_POT = P_FOUR_LAST + 1
# ROUNDS_*: how the next round is set out (ROUNDS_NONE: one round an episode)
P_ROUNDS = P_FINAL_POT + 1
P_MATCH_END = P_ROUNDS + 1  # MATCH_*: when a match of rounds is won
P_MATCH_TARGET = P_MATCH_END + 1  # the rounds, or seeds, MATCH_END counts to
P_ROUND_STARTER = P_MATCH_TARGET + 1  # STARTER_*: who moves first in the next round
# 1: an opposite pit of three makes a pregnant (uur) pair (Layli Goobalay)
P_UUR = P_ROUND_STARTER + 1
P_SETTING_OUT = P_UUR + 1  # a variant's setting out before play (0: none; values are the variant's)
P_FIRST_TURN = P_SETTING_OUT + 1  # a variant's rule for each player's first turn (0: none)
P_SETTING_OUT_STARTER = (
    P_FIRST_TURN + 1
)  # SETTING_OUT_STARTER_*: who sows first when the position is accepted
# P_SETTING_OUT_LAYOUT + i (i < 3): a given layout's central holes 1..3
P_SETTING_OUT_LAYOUT = P_SETTING_OUT_STARTER + 1
# UUR_RELAY_*: what a relay's last seed does in a pregnant (uur) pit
P_UUR_RELAY = P_SETTING_OUT_LAYOUT + SETTING_OUT_LAYOUT_HOLES
# a match still undecided after this many rounds is decided on seeds held
P_MAX_ROUNDS = P_UUR_RELAY + 1
P_N_ACTIONS = P_MAX_ROUNDS + 1  # the size of the rule set's action space (set by `rule_params`)
# 1: the stall count restarts only when the board reaches a new low
P_STALL_NEW_LOW = P_N_ACTIONS + 1
P_PIECES = P_STALL_NEW_LOW + 1  # how many special pieces are in play (10 Mighty Men)
P_PIECE_KIND = P_PIECES + 1  # P_PIECE_KIND + i: the KIND_* of piece i
P_PIECE_PIT = P_PIECE_KIND + MAX_PIECES  # P_PIECE_PIT + i: piece i's pit in a given setting out
P_PIECE_RULES = P_PIECE_PIT + MAX_PIECES  # PIECE_RULES_*: when the pieces use their powers
P_PIECE_SETTING_OUT = P_PIECE_RULES + 1  # PIECE_SETTING_OUT_*: how the pieces are set out
P_PIECE_GAME = P_PIECE_SETTING_OUT + 1  # 1: a game of special pieces (moves in `engine.pieces`)
P_PIECE_UNSOWN = P_PIECE_GAME + 1  # PIECE_UNSOWN_*: whose powers hold without being sown (calm)
P_HOUSES = P_PIECE_UNSOWN + 1  # houses a player: the board has twice as many pits
# laps after which a relay still going on counts as endless (0: none, the repeat alone decides)
P_RELAY_LIMIT = P_HOUSES + 1
# 1: a four taken during a sowing that leaves at most P_END_BOARD_AT_MOST seeds in play wins
# its taker those seeds at once (Ncho: 'the player who wins the eleventh four also wins the last')
P_LAST_FOUR_TO_TAKER = P_RELAY_LIMIT + 1
# seeds every central hole gets at least when the seeds are set out (Mangala: 0 or 1)
P_SETTING_OUT_LEAST = P_LAST_FOUR_TO_TAKER + 1
P_USED = P_SETTING_OUT_LEAST + 1  # the slots the rule sets use so far
PARAMS_SIZE = 80  # room for the parameters of rule sets still to come
assert P_USED <= PARAMS_SIZE, f"the parameters need {P_USED} slots; PARAMS_SIZE is {PARAMS_SIZE}"
# The parameters that are numbers rather than choices of mechanics (seed counts, limits, round
# targets, thresholds of the endings, which special pieces are in play and where they are set
# out), and the choices read only as a game is set out (how the pieces are set out, who sows
# first after Mangala's setting out), where folding would gain nothing: a rule set's own kernels
# read them at run time, so that a new value of an option that sets one compiles nothing
# (`engine.compiler` folds the others: the board's shape and which mechanics run).
RUNTIME_PARAMS = frozenset(
    {
        *range(P_PIECE_KIND, P_PIECE_KIND + MAX_PIECES),
        *range(P_PIECE_PIT, P_PIECE_PIT + MAX_PIECES),
        P_PIECES,
        P_PIECE_SETTING_OUT,
        P_SETTING_OUT_STARTER,
        P_SETTING_OUT_LEAST,
        P_SEEDS_PER_HOUSE,
        P_TOTAL_SEEDS,
        P_STALL_LIMIT,
        P_RELAY_LIMIT,
        P_MAX_ROUNDS,
        P_MATCH_TARGET,
        P_CHAIN_MAX,
        P_FINAL_POT,
        P_END_BOARD_AT_MOST,
        P_END_EACH_SIDE_AT_MOST,
        P_END_ANY_SIDE_AT_MOST,
        P_END_EACH_SIDE_EXACTLY,
    }
)


def structure(params: Sequence[int]) -> tuple[int, ...]:
    """What a rule set's own kernels are derived from: its parameters with those read at run
    time (`RUNTIME_PARAMS`) set to 0. Rule sets and options of equal structure share them."""
    return tuple(0 if index in RUNTIME_PARAMS else int(v) for index, v in enumerate(params))


def kept_layout(params: Sequence[int], keep: bool) -> dict[str, int]:
    """With `keep`, for a relay rule set (whose turn plays every lift out when it begins), the
    state's room to keep their results after the shared state (`KEPT`): a flag, then a record
    a lift (its `make_move` flags, then the state after it), as {"KEPT_SLOTS": ...,
    "STATE_SIZE": ...}; nothing for other rule sets or without `keep`."""
    if not keep or int(params[P_CONTINUE]) == CONTINUE_NEVER:
        return {}
    kept = _STATE_OFFSETS["KEPT"]
    slots = 1 + int(params[P_LIFT_ACTIONS]) * (1 + kept)
    return {"KEPT_SLOTS": slots, "STATE_SIZE": kept + slots}


CONTINUE_NEVER = 0  # single lap: the turn ends with the last seed
CONTINUE_OCCUPIED = 1  # relay: lift the last pit again when it was not empty
CONTINUE_EVEN = 2  # relay while the last seed makes an even count, unless its even pair is taken
CONTINUE_UNTIL_TAKEN = 3  # relay from the last pit until the even-pairs capture takes it

SKIP_NONE = 0
SKIP_MOVE_ORIGIN = 1  # the pit the move started from stays empty through every lap
SKIP_LAP_ORIGIN = 2  # each lap passes over the pit it was lifted from

CAPTURE_NONE = 0
CAPTURE_CHAIN = 1  # last seed makes a capturing count on the opponent's row, chained backwards
CAPTURE_OPPOSITE = 2  # last seed lands in an empty own pit: take the pit opposite
CAPTURE_FOUR = 3  # last seed makes four anywhere: the sower takes it
CAPTURE_EVEN_PAIRS = 4  # after each lap: every two facing pits both even (2, 4, ...) are taken

SLAM_ALLOWED = 0  # capture everything
SLAM_NO_CAPTURE = 1  # the move is played but captures nothing
SLAM_EXTRA_TURN = 2  # capture everything and move again

FEED_NONE = 0
FEED_FORCED = 1  # only moves that give the opponent seeds are legal
FEED_PENALTY = 2  # any move is legal, but failing to feed forfeits the mover's seeds

NO_MOVE_END = 0  # the game ends; seeds go as P_REMAINDER says
NO_MOVE_RETALIATE = 1  # the game ends; the stranded player takes the seeds on the other row
NO_MOVE_PASS = 2  # the turn passes to the opponent

REMAINDER_OWNER = 0  # each player takes the seeds on their own row
REMAINDER_SPLIT = 1  # split evenly; the player with more on their row keeps the odd one
REMAINDER_LAST_CAPTURER = 2  # all to the player who last took seeds (Ncho's eleventh four)
REMAINDER_LAST_MOVER = 3  # all to the player who moved last (10 Mighty Men)

SPECIAL_NONE = 0
SPECIAL_TRANSFER_FORWARD = 1  # move a house's seeds en bloc to the next own house
SPECIAL_TRANSFER_EITHER = 2  # ... to either neighbouring own house

FOUR_ON_THE_WAY_NONE = 0
FOUR_ON_THE_WAY_OWNER = 1  # the pit's owner takes it (Obridjie, Ncho)
FOUR_ON_THE_WAY_MOVER_OWN = 2  # the mover takes it from their own pits only (J'erin)

FOUR_LAST_SOWER = 0  # the sower, wherever it is (Ncho, Obridjie)
FOUR_LAST_OWN_ONLY = 1  # the sower, on their own pits only; elsewhere it stays (J'erin)
FOUR_LAST_OWNER = 2  # the pit's owner (J'erin's other reading)

OPENING_NONE = 0
OPENING_TWO_HOUSES = 1  # J'erin: a first move lifts two adjoining houses, one hand after another
OPENING_TWO_HOUSES_ROUND_START = 2  # ... only the very first move of a round

PHASE_PLAY = 0
PHASE_SET_OUT = 1  # the distributor places the seeds in the central holes (Mangala)
PHASE_CHOOSE = 2  # the other player accepts the position or turns the board round
PHASE_PLACE = 3  # one player places the next special piece in a pit (10 Mighty Men)
PHASE_SIDE = 4  # the other player keeps the board or turns it round
PHASE_DROP = 5  # the mover chooses where in the sowing a lifted special piece falls
PHASE_SHIFT = 6  # ... how far the Hunter or the Trickster moves on
PHASE_BORROW = 7  # ... whose power the Chieftain takes
PHASE_FLOCK_COUNT = 8  # ... how many pieces the Shepherd leaves in the next of his three pits
PHASE_FLOCK_PIECE = 9  # ... which of his three pits a special piece among them goes to
PHASE_NAMES = {
    PHASE_PLAY: "play",
    PHASE_SET_OUT: "set_out",
    PHASE_CHOOSE: "choose",
    PHASE_PLACE: "place",
    PHASE_SIDE: "side",
    PHASE_DROP: "drop",
    PHASE_SHIFT: "shift",
    PHASE_BORROW: "borrow",
    PHASE_FLOCK_COUNT: "flock_count",
    PHASE_FLOCK_PIECE: "flock_piece",
}

ROUNDS_NONE = 0  # an episode is one round
ROUNDS_FOURS_BUY_HOUSES = 1  # each four captured fills a house; houses change hands (Ncho, J'erin)
ROUNDS_REFILL_OWN_ROW = 2  # refill own holes in fours, close the ones that cannot be (Rio Kadalis)
ROUNDS_EQUAL_ROWS = 3  # the poorer player's seeds dealt out, matched by the other (Layli Goobalay)

MATCH_CANNOT_FILL = 0  # the match ends when a player cannot fill a single house
MATCH_ROUNDS_WON = 1  # ... when a player has won P_MATCH_TARGET rounds
MATCH_SEEDS = 2  # ... when a player holds P_MATCH_TARGET seeds or more after a round

STARTER_ALTERNATE = 0  # the players take turns to start the rounds
STARTER_ROUND_LOSER = 1  # the loser of the last round starts the next

# Layli Goobalay's pregnant (uur) pits.

UUR_RELAY_END = 0  # the seed stays with the pit's owner and the turn ends
UUR_RELAY_LIFT = 1  # the pit is lifted and sown on like any other (it stays pregnant)

# Mangala's setting out and opening turns.

# P_SETTING_OUT: how the seeds are set out before play.
SETTING_OUT_NONE = 0  # P_SEEDS_PER_HOUSE in every pit
SETTING_OUT_CENTRAL_CHOSEN = (
    1  # one player fills the central holes, the other accepts or turns round
)
SETTING_OUT_CENTRAL_GIVEN = (
    2  # the central holes hold P_SETTING_OUT_LAYOUT, the rest to the last hole
)
SETTING_OUT_CENTRAL_RANDOM = 3  # as GIVEN, with a layout drawn from the reset seed
SETTING_OUT_CENTRAL_HOLES = 4  # holes filled: the distributor's houses 3 and 4, then the other's
SETTING_OUT_DISTRIBUTOR = 0  # SETTING_OUT + i: the player who sets out the seeds
SETTING_OUT_FILLED = 1  # ... central holes filled so far
SETTING_OUT_CHOICE = 2  # ... SETTING_OUT_CHOICE_*: the other player's decision
SETTING_OUT_CHOICE_NONE = 0
SETTING_OUT_CHOICE_ACCEPTED = 1
SETTING_OUT_CHOICE_TURNED = 2

SETTING_OUT_STARTER_CHOOSER = 0  # the player who accepted the position sows first
SETTING_OUT_STARTER_DISTRIBUTOR = 1  # the player who set out the seeds sows first

# P_FIRST_TURN: each player's first turn.
FIRST_TURN_NONE = 0
FIRST_TURN_RIGHTMOST = 1  # lift the rightmost filled own hole, relay until empty, no capture

# 10 Mighty Men: the kinds of special piece (PIECE_KIND, P_PIECE_KIND), 0 for a regular piece.
KIND_NONE = 0
KIND_FARMER = 1
KIND_SHEPHERD = 2
KIND_HUNTER = 3
KIND_WARRIOR = 4
KIND_CHIEFTAIN = 5
KIND_WISE_MOTHER = 6
KIND_WITCH_DOCTOR = 7
KIND_TRICKSTER = 8
KIND_ASSASSIN = 9
KIND_SPY = 10
KIND_NAMES = {
    KIND_FARMER: "farmer",
    KIND_SHEPHERD: "shepherd",
    KIND_HUNTER: "hunter",
    KIND_WARRIOR: "warrior",
    KIND_CHIEFTAIN: "chieftain",
    KIND_WISE_MOTHER: "wise_mother",
    KIND_WITCH_DOCTOR: "witch_doctor",
    KIND_TRICKSTER: "trickster",
    KIND_ASSASSIN: "assassin",
    KIND_SPY: "spy",
}

# Where a special piece is (PIECE_AT): a pit 0..MAX_PITS-1, or one of these.
AT_STORE = MAX_PITS  # AT_STORE + p: captured by player p
AT_HAND = MAX_PITS + 2  # lifted, waiting to be sown or set down again
AT_NOWHERE = -1  # no piece in this slot (or it became a regular piece)

# A move of pieces under way (MOVE + MOVE_*).
MOVE_ORIGIN = 0  # the pit lifted
MOVE_HAND = 1  # pieces lifted
MOVE_PIECE = 2  # the slot of the piece a decision is about
MOVE_LAST_PIT = 3  # the pit the last piece fell into
MOVE_LAST_PIECE = 4  # the slot of the last piece sown, -1 for a regular piece
MOVE_CAPTURES = 5  # 1: the last piece fell into an empty pit of the mover's row
MOVE_SLAM_ALLOWED = 6  # 1: every lift would take the opponent's last pieces
MOVE_RESOLVED = 7  # places in the sowing whose powers have been resolved
MOVE_STAMP = 8  # stamps handed out so far (PIECE_SINCE)
MOVE_FLOCK = 9  # the Shepherd's pit while he rearranges
MOVE_FLOCK_COUNTS = 10  # the counts chosen for his preceding and own pits, two slots

# P_PIECE_RULES: when a special piece uses its power.
PIECE_RULES_MAHER = 0  # whenever it is sown (Maher)
PIECE_RULES_CALM = 1  # only as the last piece sown; the Trickster is sown first (Gering)

# P_PIECE_UNSOWN: under Gering's rules, which standing powers hold without being the last sown.
PIECE_UNSOWN_STANDING = 0  # the Warrior's, the Wise Mother's and the Assassin's
PIECE_UNSOWN_WARRIOR = 1  # the Warrior's only (Gering's one stated exception)

# P_PIECE_SETTING_OUT: how the special pieces are set out.
PIECE_SETTING_OUT_PLAYERS = (
    0  # one player places them, the other chooses a side, the first moves first
)
PIECE_SETTING_OUT_GIVEN = 1  # in the pits P_PIECE_PIT
PIECE_SETTING_OUT_RANDOM = 2  # in pits drawn from the reset seed
PIECES_PER_PIT = 4  # a pit holds at most this many special pieces when they are set out
