/* Rubik's Rectangle benchmarks' boards: the sorted board scrambled by uniformly random row and
 * column flips from a fixed xorshift seed. Shared by bench_rubiks_rectangle and
 * bench_rubiks_rectangle_joint_board so that both measure the same boards. */
#ifndef PUZZLED_BENCH_RUBIKS_RECTANGLE_BOARDS_H
#define PUZZLED_BENCH_RUBIKS_RECTANGLE_BOARDS_H

#include <stdint.h>
#include <stdlib.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* One flip in the answer's convention: row r as r (1-based), column c as -c. */
static void flip(int32_t *cells, int h, int w, int32_t move)
{
    if (move > 0) {
        int32_t *row = cells + (size_t)(move - 1) * w;
        for (int a = 0, z = w - 1; a < z; a++, z--) {
            int32_t t = row[a];
            row[a] = row[z];
            row[z] = t;
        }
    } else {
        int c = -move - 1;
        for (int a = 0, z = h - 1; a < z; a++, z--) {
            int32_t t = cells[(size_t)a * w + c];
            cells[(size_t)a * w + c] = cells[(size_t)z * w + c];
            cells[(size_t)z * w + c] = t;
        }
    }
}

static int32_t *scrambled(int h, int w, long flips)
{
    size_t n = (size_t)h * w;
    int32_t *cells = malloc(n * sizeof *cells);
    if (!cells) abort();
    for (size_t i = 0; i < n; i++) cells[i] = (int32_t)(i + 1);
    for (long k = 0; k < flips; k++) {
        uint64_t r = rng() % (uint64_t)(h + w);
        flip(cells, h, w, r < (uint64_t)h ? (int32_t)(r + 1) : -(int32_t)(r - h + 1));
    }
    return cells;
}

#endif
