/* What the C reference loops share: the board, the end of a game, the random numbers, the
   timed run and the replay.

   A loop (oware_limit.c, ayoayo_limit.c) plays one game at a time in the static variables
   below and defines `settle_turn` (the legal moves of the player to move, or the end of the
   game) and `play` (the move with that index among the legal ones); this header gives it its
   `main`:

     SECONDS   random play for that long (3 without an argument) on one core, a new game
               whenever one ends (the first player alternating, as `mancala bench`'s engine rows
               do); prints "games=G plies=P seconds=S plies_per_s=R games_per_s=R";
     replay    reads one game a line from stdin, "FIRST_PLAYER C1 C2 ...", each C the index of
               the move chosen among the legal moves in their order, and prints the position
               before the first move and after each (`print_position`), then "end".

   `tests/engine/test_limits.py` replays random games through `replay` against the engine. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HOUSES 6
#define PITS 12
#define SEEDS 4
#ifndef STALL_LIMIT /* the option `stall_limit`, at its default */
#define STALL_LIMIT 100
#endif
/* Why a game ended: engine/layout.py's END_* codes. */
#define END_MAJORITY 1
#define END_NO_MOVE 3
#define END_CANNOT_FEED 4
#define END_PENALTY 5
#define END_STALL 6
#define END_BOARD_EMPTY 7

typedef struct {
  int pits[PITS];
  int stores[2];
} Board;

static Board board;
static int to_move, stall_plies, end_reason, n_legal;
static int legal[HOUSES]; /* the legal lifts (houses), in order */

static void settle_turn(void);
static void play(int choice);

static int row_seeds(const Board *b, int player) {
  int total = 0;
  for (int pit = player * HOUSES; pit < (player + 1) * HOUSES; pit++) total += b->pits[pit];
  return total;
}

static int board_seeds(const Board *b) { return row_seeds(b, 0) + row_seeds(b, 1); }

static void end_game(int reason) {
  memset(board.pits, 0, sizeof board.pits);
  end_reason = reason;
  n_legal = 0;
}

static void rows_to_owners(int reason) {
  for (int player = 0; player < 2; player++) board.stores[player] += row_seeds(&board, player);
  end_game(reason);
}

/* A move's plies towards the stall limit: none once seeds have left the board. */
static void count_stall(int seeds_before) {
  stall_plies = board_seeds(&board) < seeds_before ? 0 : stall_plies + 1;
}

static void new_game(int first_player) {
  for (int pit = 0; pit < PITS; pit++) board.pits[pit] = SEEDS;
  board.stores[0] = board.stores[1] = 0;
  to_move = first_player;
  stall_plies = end_reason = 0;
  settle_turn();
}

/* The pits, the stores, the player to move (-1 once over), why it ended, the legal houses. */
static void print_position(void) {
  for (int pit = 0; pit < PITS; pit++) printf("%d ", board.pits[pit]);
  printf("%d %d %d %d", board.stores[0], board.stores[1], end_reason ? -1 : to_move, end_reason);
  for (int house = 0, i = 0; house < HOUSES; house++) {
    int is_legal = i < n_legal && legal[i] == house;
    i += is_legal;
    printf(" %d", is_legal);
  }
  putchar('\n');
}

static uint64_t random_state = 88172645463325252ULL;

static inline uint64_t random_draw(void) {
  random_state ^= random_state << 13;
  random_state ^= random_state >> 7;
  random_state ^= random_state << 17;
  return random_state;
}

static int timed(double seconds) {
  long games = 0, plies = 0;
  struct timespec t0, t1;
  double elapsed = 0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  while (elapsed < seconds) {
    for (int g = 0; g < 100; g++) {
      new_game((int)(games % 2));
      while (n_legal > 0) {
        play((int)(random_draw() % (uint64_t)n_legal));
        plies++;
      }
      games++;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    elapsed = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
  }
  printf("games=%ld plies=%ld seconds=%.3f plies_per_s=%.0f games_per_s=%.0f\n", games, plies,
         elapsed, (double)plies / elapsed, (double)games / elapsed);
  return 0;
}

static int replay(void) {
  static char line[1 << 20];
  while (fgets(line, sizeof line, stdin)) {
    char *at = line, *end;
    long first = strtol(at, &end, 10);
    if (end == at) continue; /* a blank line */
    new_game((int)first);
    print_position();
    for (at = end;; at = end) {
      long choice = strtol(at, &end, 10);
      if (end == at) break;
      if (choice < 0 || choice >= n_legal) {
        fprintf(stderr, "replay: choice %ld, but %d legal moves\n", choice, n_legal);
        return 1;
      }
      play((int)choice);
      print_position();
    }
    puts("end");
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "replay") == 0) return replay();
  return timed(argc > 1 ? atof(argv[1]) : 3.0);
}
