/* Exact finishing search for 9-Nine boards of 4 x 4 to 9 x 9 (see nine_tail.c): the shortest
 * solution of a board whose distance to the goal is at most the forward depth plus the radius of
 * a ball of states around the goal, found by meeting in the middle. */
#ifndef PUZZLED_NINE_TAIL_H
#define PUZZLED_NINE_TAIL_H

#include <stdint.h>

#include "budget.h"
#include "nine_board.h"

#define NINE_TAIL_MIN_N 4
#define NINE_TAIL_MAX_N 9
/* The most forward moves a search may take, and so the longest answer it can return. */
#define NINE_TAIL_MAX_FORWARD 6
#define NINE_TAIL_MAX_RADIUS 12
#define NINE_TAIL_MAX_MOVES (NINE_TAIL_MAX_FORWARD + NINE_TAIL_MAX_RADIUS)

typedef struct nine_tail nine_tail;

/* The ball for n (NINE_TAIL_MIN_N <= n <= NINE_TAIL_MAX_N), built once per process and size
 * (thread-safe) and then read-only; NULL for other sizes, when out of memory, or when the budget
 * b (NULL: none) runs out during the build (budget_expired(b) tells; such a build is not kept,
 * the next call starts it again). The build takes about 50-80 ms. */
const nine_tail *nine_tail_get(int n, budget *b);

/* Every state within this many moves of the goal is in the ball. */
int nine_tail_radius(const nine_tail *t);
/* How many states the ball holds. */
long nine_tail_states(const nine_tail *t);

/* A shortest solution of bd when one of at most forward + radius moves exists (forward <=
 * NINE_TAIL_MAX_FORWARD): its moves into `moves` (room for NINE_TAIL_MAX_MOVES) and their count.
 * -1 when the board is farther from the goal. The work is fixed by `forward` alone. */
int nine_tail_solve(const nine_tail *t, const nine_board *bd, int forward, uint8_t *moves);

/* Shortens a solution of bd from its end: the states the last moves pass through (the last
 * forward + radius + `window` of them) are finished exactly where that is shorter. In place;
 * returns the new length. */
size_t nine_tail_polish(const nine_tail *t, const nine_board *bd, uint8_t *moves, size_t len,
                        int forward, int window);

#endif
