/* Shortest 9-Nine solutions for n <= 3 from breadth-first distance tables (every state reachable
 * from the goal; 9 800 of them for 3 x 3), built once per process and then read-only. */
#ifndef PUZZLED_NINE_SMALL_H
#define PUZZLED_NINE_SMALL_H

#include <stdbool.h>
#include <stdint.h>

#include "nine_board.h"

#define NINE_SMALL_MAX_N 3

/* Writes a shortest solution of bd (bd->n <= 3) into moves (room for 32) and its length into
 * *count. false when the state cannot reach the goal. Thread-safe. */
bool nine_small_solve(const nine_board *bd, uint8_t *moves, int *count);

/* How many states of the n x n puzzle (n <= 3) reach the goal, and the largest distance. */
void nine_small_stats(int n, long *states, int *max_distance);

#endif
