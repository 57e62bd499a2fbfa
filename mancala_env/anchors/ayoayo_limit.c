/* The limit beside the relay family: random Ayoayo in tight C, one core.

   Ayoayo as the project's engine plays it under its default options
   (mancala_env/variants/ayoayo.py, docs/variants/ayoayo.md), by the engine's own algorithm, so
   that the engine's rate over this loop's says what its compiled code costs, not what a
   different method would save:
   - a move lifts one of the mover's houses and sows it seed by seed counter-clockwise, never
     into the pit the move began from; a last seed that leaves its pit holding more than one
     lifts that pit for the next lap (`engine/sowing.py`);
   - a relay that comes back to a board and starting pit it has been at circles for ever, found
     by Brent's cycle finding as `sowing.relay` finds it (one saved pair, renewed at laps 1, 2,
     4, 8, ...), and one still going on after RELAY_LIMIT laps counts as endless: such a lift
     is not legal;
   - a last seed alone in a pit of the mover's row takes the seeds of the pit facing it;
   - as a turn begins, every lift with seeds is played out on a copy (does it end, does it leave
     the opponent seeds?), and the copies are kept: the move chosen takes its copy, as the
     engine's kept lifts do (`turn.legal_actions`, `turn.step`);
   - feeding (Pratt's rule 5): a player whose opponent has no seeds, and no lift gives them any,
     takes every seed left; one who could have fed them and did not hands every seed left to the
     opponent; capturing the opponent's last seeds ends the game, each row to its owner;
   - the game ends when the board is empty, when the player to move has no legal lift, or when
     no seed has left the board for STALL_LIMIT plies: each row to its owner. */
#include "limit.h"

#ifndef RELAY_LIMIT /* the option `relay_limit`, at its default */
#define RELAY_LIMIT 20000
#endif
#define ENDLESS -1

static int feed_possible;
static Board kept[HOUSES]; /* each candidate lift's board after it */
static int kept_captured[HOUSES];

static int sow_lap(Board *b, int start, int hand, int origin) {
  int pos = start;
  while (hand > 0) {
    pos = pos == PITS - 1 ? 0 : pos + 1;
    if (pos == origin) continue;
    b->pits[pos]++;
    hand--;
  }
  return pos;
}

/* Sow the seeds lifted from `origin`, relaying; the last pit, or ENDLESS. */
static int relay(Board *b, int origin, int hand) {
  int last = sow_lap(b, origin, hand, origin);
  if (b->pits[last] <= 1) return last;
  int seen[PITS], seen_last = -1, power = 1, since_saved = 0, laps = 1;
  for (;;) {
    if (laps == RELAY_LIMIT) return ENDLESS;
    if (since_saved == power - 1) {
      memcpy(seen, b->pits, sizeof seen);
      seen_last = last;
      power *= 2;
      since_saved = 0;
    } else {
      since_saved++;
    }
    hand = b->pits[last];
    b->pits[last] = 0;
    last = sow_lap(b, last, hand, origin);
    laps++;
    if (b->pits[last] <= 1) return last;
    if (last == seen_last && memcmp(seen, b->pits, sizeof seen) == 0) return ENDLESS;
  }
}

/* Lift `pit` for `mover` and capture; 1 if seeds were taken, 0 if not, or ENDLESS. */
static int make_move(Board *b, int pit, int mover) {
  int hand = b->pits[pit];
  b->pits[pit] = 0;
  int last = relay(b, pit, hand);
  if (last == ENDLESS) return ENDLESS;
  int facing = PITS - 1 - last;
  if (last / HOUSES != mover || b->pits[last] != 1 || b->pits[facing] == 0) return 0;
  b->stores[mover] += b->pits[facing];
  b->pits[facing] = 0;
  return 1;
}

static void board_to(int player, int reason) {
  board.stores[player] += board_seeds(&board);
  end_game(reason);
}

/* The legal lifts of the player to move, each tried and kept, or the end of the game. */
static void settle_turn(void) {
  if (board_seeds(&board) == 0) {
    end_game(END_BOARD_EMPTY);
    return;
  }
  int mover = to_move, opponent = 1 - mover, feeds = 0;
  n_legal = 0;
  for (int house = 0; house < HOUSES; house++) {
    int pit = mover * HOUSES + house;
    if (board.pits[pit] == 0) continue;
    kept[house] = board;
    int flags = make_move(&kept[house], pit, mover);
    if (flags == ENDLESS) continue;
    kept_captured[house] = flags;
    legal[n_legal++] = house;
    if (row_seeds(&kept[house], opponent) > 0) feeds = 1;
  }
  feed_possible = feeds;
  if (!feeds && row_seeds(&board, opponent) == 0) {
    board_to(mover, END_CANNOT_FEED);
  } else if (n_legal == 0) {
    rows_to_owners(END_NO_MOVE);
  } else if (stall_plies >= STALL_LIMIT) {
    rows_to_owners(END_STALL);
  }
}

static void play(int choice) {
  int house = legal[choice], mover = to_move, opponent = 1 - mover;
  int opponent_was_empty = row_seeds(&board, opponent) == 0, could_feed = feed_possible;
  int seeds_before = board_seeds(&board);
  board = kept[house];
  count_stall(seeds_before);
  if (opponent_was_empty && row_seeds(&board, opponent) == 0) {
    if (kept_captured[house]) {
      rows_to_owners(END_NO_MOVE);
      return;
    }
    if (could_feed) {
      board_to(opponent, END_PENALTY);
      return;
    }
  }
  to_move = opponent;
  settle_turn();
}
