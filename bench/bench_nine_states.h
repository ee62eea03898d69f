/* 9-Nine benchmarks' instances: random solvable states, every orbit's ones placed uniformly
 * among its cells of A and B (the solvability criterion of nine_solvable), from a fixed seed.
 * Shared by bench_nine and bench_nine_optimal4 so that both measure the same states. */
#ifndef PUZZLED_BENCH_NINE_STATES_H
#define PUZZLED_BENCH_NINE_STATES_H

#include <stdbool.h>
#include <stdint.h>

#include "nine_board.h"

static uint64_t rng_state; /* the seed: set before the first state */

static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void random_solvable(nine_board *bd, int n)
{
    bd->n = n;
    for (int i = 0; i < n; i++) bd->a[i] = bd->b[i] = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int cells[4][2], k = nine_orbit_cells(n, i, j, cells);
            bool first = true;
            for (int t = 0; t < k; t++)
                if (cells[t][0] * n + cells[t][1] < i * n + j) first = false;
            if (!first) continue;
            int slots[8], ones = 0;
            for (int t = 0; t < 2 * k; t++) slots[t] = t;
            for (int t = 2 * k - 1; t > 0; t--) { /* shuffle, the first k hold ones */
                int u = (int)(rnd() % (uint64_t)(t + 1)), x = slots[t];
                slots[t] = slots[u];
                slots[u] = x;
            }
            for (; ones < k; ones++) {
                int s = slots[ones], t = s % k;
                uint64_t *m = s < k ? bd->a : bd->b;
                m[cells[t][0]] |= (uint64_t)1 << cells[t][1];
            }
        }
}

#endif
