/* Sets of cells of a 9-Nine matrix of at most 11 x 11, in two words laid out by rotation orbits
 * so that a quarter turn is a shift: cell k of orbit o (k left turns from the orbit's first cell
 * in row-major order) is bit 32 k + o, so a turn moves every cell by 32 bits round the 128; the
 * centre of an odd board is bit 31, which no turn moves (at most 30 orbits of four). The macro
 * enumeration and the exact tail turn such sets millions of times, where a set of cells i * n + j
 * took 11 byte-table look-ups per turn (bench/RESULTS-nine.md, stop 32). */
#ifndef PUZZLED_NINE_CELLS_H
#define PUZZLED_NINE_CELLS_H

#include <stdint.h>

#include "nine_board.h"

#define NINE_CELLS_MAX_N 11

typedef struct nine_cells {
    uint64_t centre; /* the centre's bit on odd boards, else 0 */
    uint64_t full[2];
    uint64_t col[NINE_CELLS_MAX_N][2];
    uint8_t cell[128];                                /* bit -> cell i * n + j */
    uint8_t bit[NINE_CELLS_MAX_N * NINE_CELLS_MAX_N]; /* cell i * n + j -> bit */
} nine_cells;

/* 1 <= n <= NINE_CELLS_MAX_N. */
void nine_cells_init(nine_cells *t, int n);

/* Turns the set m a quarter: dir 0 left (AL, BL), 1 right. */
static inline void nine_cells_turn(const nine_cells *t, int dir, uint64_t m[2])
{
    uint64_t centre = m[0] & t->centre, lo = m[0] & ~t->centre, hi = m[1];
    if (dir == 0) { /* cell k of an orbit to cell k + 1 */
        m[0] = lo << 32 | hi >> 32;
        m[1] = hi << 32 | lo >> 32;
    } else {
        m[0] = lo >> 32 | hi << 32;
        m[1] = hi >> 32 | lo << 32;
    }
    m[0] |= centre;
}

/* Plays move m on the cells that some values occupy, a in A and b in B: a column swap exchanges
 * the column's bits between the two sets, a turn moves one set. */
static inline void nine_cells_move(const nine_cells *t, int m, uint64_t a[2], uint64_t b[2])
{
    if (m >= NINE_MOVE_C0) {
        const uint64_t *c = t->col[m - NINE_MOVE_C0];
        for (int w = 0; w < 2; w++) {
            uint64_t d = (a[w] ^ b[w]) & c[w];
            a[w] ^= d;
            b[w] ^= d;
        }
        return;
    }
    nine_cells_turn(t, m & 1, m < NINE_MOVE_BL ? a : b);
}

#endif
