/* The Mayan board as the search sees it, and what a move does to it.
 *
 * A column is one 64-bit word of sixteen 4-bit cells (row y in bits 4y..4y+3, 0 = empty), so a
 * board is at most 16 words, and the run test works on all rows of two or three columns at
 * once with nibble-parallel bit tricks. Everything here is static inline: it is the search's
 * inner loop (solvers/mayan.c), kept in one translation unit with it. */
#ifndef PUZZLED_MAYAN_COLUMNS_H
#define PUZZLED_MAYAN_COLUMNS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "mayan.h"
#include "mayan_bound.h"

#define NIB_LOW 0x1111111111111111ULL

typedef uint64_t column;

/* Bit 0 of each nibble set where that nibble of v is nonzero. */
static inline uint64_t nib_nonzero(uint64_t v)
{
    v |= v >> 1;
    v |= v >> 2;
    return v & NIB_LOW;
}

/* Bit 0 of each nibble set where a and b hold the same block (both nonzero and equal). */
static inline uint64_t nib_same(uint64_t a, uint64_t b)
{
    return ~nib_nonzero(a ^ b) & nib_nonzero(a) & NIB_LOW;
}

static inline int col_height(column c)
{
    return c ? (63 - __builtin_clzll(c)) / 4 + 1 : 0;
}

static inline unsigned col_get(column c, int y)
{
    return (unsigned)(c >> (4 * y)) & 15u;
}

/* The column without row y; the blocks above fall by one. */
static inline column col_remove(column c, int y)
{
    uint64_t below = y ? c & (~0ULL >> (64 - 4 * y)) : 0;
    uint64_t above = y < 15 ? (c >> (4 * y + 4)) << (4 * y) : 0;
    return below | above;
}

/* Removes the marked cells (mark: bit 0 of each marked cell's nibble) and lets the rest fall.
 * Marked cells come in few contiguous stretches (usually one): cut them out one stretch at a
 * time, from the top down so that the lower ones keep their place. */
static inline column col_compact(column c, uint64_t mark, mayan_counts *cc /* may be NULL */,
                                 mayan_counts one /* this column's unit in cc */)
{
    if (cc)
        for (uint64_t m = mark; m; m &= m - 1) cc[col_get(c, __builtin_ctzll(m) / 4)] -= one;
    while (mark) {
        int top = (63 - __builtin_clzll(mark)) / 4; /* highest marked cell */
        uint64_t gaps = ~mark & NIB_LOW & ((1ULL << (4 * top)) - 1);
        int from = gaps ? (63 - __builtin_clzll(gaps)) / 4 + 1 : 0; /* its stretch: from..top */
        int len = top - from + 1;
        uint64_t below = from ? ~0ULL >> (64 - 4 * from) : 0;
        uint64_t above = len < 16 ? (c >> (4 * len)) & ~below : 0;
        c = (c & below) | above;
        mark &= below;
    }
    return c;
}

static inline int imax(int a, int b)
{
    return a > b ? a : b;
}

static inline int imin(int a, int b)
{
    return a < b ? a : b;
}

/* One round of settle: vanishes the runs there are now (each holds a cell of columns *lo..*hi)
 * and lets the rest fall; false when there were none. Else *lo..*hi become the columns that lost
 * blocks, and `lost` (may be NULL) gets the colours that lost blocks as a bit mask. */
static inline bool settle_round(column *col, int width, int *lo_io, int *hi_io, mayan_counts *cc,
                                unsigned *lost)
{
    int lo = *lo_io, hi = *hi_io;
    int mlo = imax(lo - 2, 0), mhi = imin(hi + 2, width - 1);
    uint64_t mark[MAYAN_MAX_SIDE];
    uint64_t found = 0;
    for (int x = mlo; x <= mhi; x++) {
        uint64_t r = 0;
        if (x >= lo && x <= hi) {
            uint64_t e = nib_same(col[x], col[x] >> 4);
            r = e & (e >> 4);
            r |= r << 4 | r << 8;
        }
        mark[x] = r;
        found |= r;
    }
    /* Windows x..x+2 with mlo <= x and x + 2 <= mhi. */
    if (mhi - mlo >= 2) {
        uint64_t left = nib_same(col[mlo], col[mlo + 1]);
        for (int x = mlo; x + 2 <= mhi; x++) {
            uint64_t right = nib_same(col[x + 1], col[x + 2]);
            uint64_t r = left & right;
            mark[x] |= r, mark[x + 1] |= r, mark[x + 2] |= r, found |= r;
            left = right;
        }
    }
    if (!found) return false;
    lo = width, hi = -1;
    for (int x = mlo; x <= mhi; x++)
        if (mark[x]) {
            if (lost)
                for (uint64_t m = mark[x]; m; m &= m - 1)
                    *lost |= 1u << col_get(col[x], __builtin_ctzll(m) / 4);
            col[x] = col_compact(col[x], mark[x], cc, (mayan_counts)1 << (4 * x));
            lo = imin(lo, x), hi = imax(hi, x);
        }
    *lo_io = lo, *hi_io = hi;
    return true;
}

/* Bit 3 of each nibble set where that nibble of v is nonzero, for nibbles of at most 7 (no
 * carry leaves a nibble): two operations where nib_nonzero takes five. */
static inline uint64_t nib_nonzero7(uint64_t v)
{
    return (v + 0x7777777777777777ULL) & 0x8888888888888888ULL;
}

/* The runs of a board of five columns (the contest's width), looking at all of it: on a still
 * board every run is a new one, so the whole board gives the same marks as settle_round's
 * windows, and with the width fixed there is no loop to run (about half the instructions).
 * mark[x]: bit 0 of each nibble of column x that vanishes; false (mark not set) when nothing
 * does. `narrow`: no cell exceeds 7, so nib_nonzero7 may stand for nib_nonzero (the masks then
 * have bit 3 of each nibble until the end). */
static inline __attribute__((always_inline)) bool runs5(const column *col, uint64_t *mark,
                                                        bool narrow)
{
    /* vert[x]: the lowest cell of each vertical run of three in column x; same[x]: the same
     * block in columns x and x + 1. Most boards asked have no run (every settle ends with one):
     * the marks are spread over the runs' cells only when there is one. */
    uint64_t vert[5], same[4];
    uint64_t occ = narrow ? nib_nonzero7(col[0]) : nib_nonzero(col[0]);
    for (int x = 0; x < 5; x++) {
        uint64_t c = col[x];
        uint64_t e = ~(narrow ? nib_nonzero7(c ^ (c >> 4)) : nib_nonzero(c ^ (c >> 4))) & occ;
        vert[x] = e & (e >> 4);
        if (x < 4) {
            uint64_t t = c ^ col[x + 1];
            same[x] = ~(narrow ? nib_nonzero7(t) : nib_nonzero(t)) & occ;
            occ = narrow ? nib_nonzero7(col[x + 1]) : nib_nonzero(col[x + 1]);
        }
    }
    uint64_t h0 = same[0] & same[1], h1 = same[1] & same[2], h2 = same[2] & same[3];
    if (!(vert[0] | vert[1] | vert[2] | vert[3] | vert[4] | h0 | h1 | h2)) return false;
    for (int x = 0; x < 5; x++) mark[x] = vert[x] | vert[x] << 4 | vert[x] << 8;
    mark[0] |= h0, mark[1] |= h0 | h1, mark[2] |= h0 | h1 | h2, mark[3] |= h1 | h2, mark[4] |= h2;
    if (narrow)
        for (int x = 0; x < 5; x++) mark[x] >>= 3;
    return true;
}

/* Removes the marked cells of the board's five columns (runs5's marks). Returns whether any
 * block fell: if none did, the board is still, since runs5 marked every run there was and no
 * cells came together. */
static inline __attribute__((always_inline)) bool compact5(column *col, const uint64_t *mark,
                                                           mayan_counts *cc /* may be NULL */)
{
    bool fell = false;
    for (int x = 0; x < 5; x++)
        if (mark[x]) {
            column kept = col[x] & ~(mark[x] * 15);
            col[x] = col_compact(col[x], mark[x], cc, (mayan_counts)1 << (4 * x));
            fell |= col[x] != kept;
        }
    return fell;
}

/* settle_round on a board of five columns (runs5); *fell: whether a block fell (compact5). */
static inline __attribute__((always_inline)) bool settle_round5(column *col, mayan_counts *cc,
                                                                bool narrow, bool *fell)
{
    uint64_t mark[5];
    if (!runs5(col, mark, narrow)) return false;
    *fell = compact5(col, mark, cc);
    return true;
}

/* Vanishes runs until the board is still; returns true when anything vanished.
 *
 * Only columns lo..hi changed since the board was last still, so every new run has a cell
 * there: vertical runs are looked for in lo..hi only, horizontal ones in the windows of three
 * columns that overlap lo..hi. After a removal, the columns that lost blocks are the new
 * range (a run of cells that did not move would have vanished in the round before). Boards of
 * five columns are looked at whole (settle_round5). */
static inline bool settle(column *col, int width, int lo, int hi, mayan_counts *cc, bool narrow)
{
    bool any = false;
    if (width == 5) {
        bool fell = true;
        while (fell && settle_round5(col, cc, narrow, &fell)) any = true;
        return any;
    }
    while (settle_round(col, width, &lo, &hi, cc, NULL)) any = true;
    return any;
}

static inline bool board_empty(const column *col, int width)
{
    for (int x = 0; x < width; x++)
        if (col[x]) return false;
    return true;
}

static inline mayan_counts one_at(int x)
{
    return (mayan_counts)1 << (4 * x);
}

/* Would swapping (x, y) = v with (x + 1, y) = u (u != v, both blocks) make a run? On a still
 * board every new run holds one of the two swapped cells, so four cells of the row and two
 * short stretches of the two columns decide it; most swaps make no run at all. */
static inline bool swap_makes_run(const column *col, int width, int x, int y, unsigned v,
                                  unsigned u)
{
    /* u lands at (x, y): its row neighbour on the right is now v != u. */
    if (x >= 2 && col_get(col[x - 1], y) == u && col_get(col[x - 2], y) == u) return true;
    if (x + 3 < width && col_get(col[x + 2], y) == v && col_get(col[x + 3], y) == v) return true;
    column a = col[x], b = col[x + 1];
    uint64_t m = (uint64_t)15 << (4 * y);
    a = (a & ~m) | ((uint64_t)u << (4 * y));
    b = (b & ~m) | ((uint64_t)v << (4 * y));
    uint64_t ea = nib_same(a, a >> 4), eb = nib_same(b, b >> 4);
    return (ea & (ea >> 4)) | (eb & (eb >> 4));
}

/* nib_same with the flag in bit 3 of each nibble, for nibbles of at most 7 (nib_nonzero7). */
static inline uint64_t nib_same7(uint64_t a, uint64_t b)
{
    return ~nib_nonzero7(a ^ b) & nib_nonzero7(a);
}

/* swap_makes_run for every row of the border x | x + 1 at once: bit 0 of row y's nibble set when
 * swapping (x, y) with (x + 1, y) would make a run. Meaningful only on a still board and on
 * rows where both cells hold blocks of different colours. `narrow`: no cell exceeds 7 (the
 * flags are then worked out in bit 3, nib_same7). */
static inline uint64_t swap_run_rows(const column *col, int width, int x, bool narrow)
{
#define SAME(p, q) (narrow ? nib_same7(p, q) : nib_same(p, q))
    column a = col[x], b = col[x + 1];
    /* b's block lands in column x between a's blocks above and below, a's in column x + 1. */
    uint64_t d1 = SAME(a << 4, b), d2 = SAME(a << 8, b);
    uint64_t u1 = SAME(a >> 4, b), u2 = SAME(a >> 8, b);
    uint64_t r = (d1 & (d2 | u1)) | (u1 & u2);
    d1 = SAME(b << 4, a), d2 = SAME(b << 8, a);
    u1 = SAME(b >> 4, a), u2 = SAME(b >> 8, a);
    r |= (d1 & (d2 | u1)) | (u1 & u2);
    if (x >= 2) r |= SAME(col[x - 1], b) & SAME(col[x - 2], b);
    if (x + 3 < width) r |= SAME(col[x + 2], a) & SAME(col[x + 3], a);
#undef SAME
    return narrow ? r >> 3 : r;
}

static inline void swap_cells(column *col, int x, int y)
{
    uint64_t m = (uint64_t)15 << (4 * y);
    column a = col[x] & m, b = col[x + 1] & m;
    col[x] = (col[x] & ~m) | b;
    col[x + 1] = (col[x + 1] & ~m) | a;
}

/* Copies a board's columns: the contest's five by a copy of fixed size, which the compiler
 * inlines (a call to memcpy for every child made was 1 % of a search's instructions). */
static inline void copy_columns(column *to, const column *from, int width)
{
    if (width == 5)
        memcpy(to, from, 5 * sizeof *from);
    else
        memcpy(to, from, (size_t)width * sizeof *from);
}

/* The board after dragging (x, y) = v into the empty air of column to = x +- 1. */
static inline void drag(const column *col, int width, int x, int y, unsigned v, int to,
                        column *child)
{
    copy_columns(child, col, width);
    child[x] = col_remove(col[x], y);
    child[to] |= (uint64_t)v << (4 * col_height(col[to]));
}

static inline void swap(const column *col, int width, int x, int y, unsigned v, unsigned u,
                        column *child)
{
    copy_columns(child, col, width);
    uint64_t m = (uint64_t)15 << (4 * y);
    child[x] = (child[x] & ~m) | ((uint64_t)u << (4 * y));
    child[x + 1] = (child[x + 1] & ~m) | ((uint64_t)v << (4 * y));
}

/* Bit 0 of the nibbles of rows 0..h-1. */
static inline uint64_t rows_below(int h)
{
    return NIB_LOW & (h < 16 ? (1ULL << (4 * h)) - 1 : ~0ULL);
}

/* Bit 0 of each nibble set where column c holds colour v (1..15). */
static inline uint64_t nib_is(column c, unsigned v)
{
    return ~nib_nonzero(c ^ (NIB_LOW * v)) & NIB_LOW;
}

#endif
