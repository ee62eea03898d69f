/* A lower bound on the moves a Mayan board needs, from where each colour's blocks stand.
 *
 * Every block vanishes in a line of three or more of its colour: a vertical line takes three or
 * more blocks of one column, a horizontal line exactly one block from each of three or more
 * neighbouring columns. So if column x ends up holding 1 or 2 blocks of colour c (counting each
 * block in the column where it vanishes), each of them lies in a horizontal line through x; a
 * column holding 0 lies in none, and one holding 3 or more in at most as many lines as blocks.
 * Call such per-column counts m "valid" for the lines they allow.
 *
 * A block changes column only when it is dragged or swapped, one column per move, and a move
 * moves at most one block of each colour and at most two blocks (an equal swap moves none that
 * matter: identical blocks may trade names). Blocks that fall or vanish keep their column. So
 * colour c needs at least D(c) moves, D(c) = the least total displacement (the earth mover's
 * distance along the row of columns) from its counts now to any valid m; and all colours
 * together need at least sum D(c) / 2. A colour of 1 or 2 blocks has no valid m at all.
 *
 * D is computed by a small dynamic programme over the columns and cached per request. */
#ifndef PUZZLED_MAYAN_BOUND_H
#define PUZZLED_MAYAN_BOUND_H

#include <stdbool.h>
#include <stdint.h>

/* Per-column counts of one colour: column x in bits 4x..4x+3 (counts up to 15; a still column
 * holds at most 11 blocks of one colour). */
typedef uint64_t mayan_counts;

typedef struct mayan_bound_entry {
    mayan_counts key;
    unsigned char known; /* 0: empty slot */
    unsigned char bound; /* D >= bound; exact when bound <= cap_used */
    unsigned char cap_used;
} mayan_bound_entry;

/* A cache of D per request, direct-mapped: a lost entry is only computed again. */
typedef struct mayan_bound {
    int width;
    int index_shift; /* 64 - log2(entries) */
    mayan_bound_entry *cache;
    /* Boards of at most VALID_DIRECT_WIDTH columns: whether a spread is valid (D = 0), indexed
     * by the counts themselves (0: not known yet, 1: valid, 2: not); NULL on wider boards. */
    unsigned char *valid;
    /* Same boards: mayan_shift_mask per spread (bit 15: known), 2 MiB of zero pages. */
    uint16_t *shifts;
    uint64_t step[45][5]; /* the programme's table (mayan_bound.c) */
} mayan_bound;

/* entries_log2: 10..20; deep searches meet tens of thousands of spreads, shallow ones few.
 * false when out of memory. */
bool mayan_bound_init(mayan_bound *mb, int width, int entries_log2);
void mayan_bound_free(mayan_bound *mb);

/* D for these counts if it is at most cap, else cap + 1. Depends only on (counts, width, cap). */
int mayan_displacement(mayan_bound *mb, mayan_counts counts, int cap);

/* mayan_displacement for caps 0 and 1 (the last two moves), through a direct table on boards of
 * at most 5 columns: the search asks this for every shift it tries there. */
static inline int mayan_displacement_small(mayan_bound *mb, mayan_counts counts, int cap)
{
    if (!mb->valid || cap > 1 || counts >> 20) return mayan_displacement(mb, counts, cap);
    /* 0: not known; 1: D = 0; 2: D >= 1 (asked at cap 0 only); 3: D = 1; 4: D >= 2. */
    unsigned char *e = &mb->valid[counts];
    if (cap == 0) {
        if (!*e) *e = mayan_displacement(mb, counts, 0) == 0 ? 1 : 2;
        return *e != 1;
    }
    if (*e == 0 || *e == 2) {
        int d = mayan_displacement(mb, counts, 1);
        *e = d == 0 ? 1 : d == 1 ? 3 : 4;
    }
    return *e == 1 ? 0 : *e == 3 ? 1 : 2;
}

/* Whether D = 0 (the same as mayan_displacement(mb, counts, 0) == 0). */
static inline bool mayan_spread_valid(mayan_bound *mb, mayan_counts counts)
{
    return mayan_displacement_small(mb, counts, 0) == 0;
}

/* Boards of at most 5 columns (mb->valid set): which single shifts leave the spread valid.
 * Bit x (0..3): one block from column x to x + 1; bit 4 + x: one block from column x + 1 to x;
 * set only where the column it leaves holds a block. Computed once per spread (4 (w - 1)
 * look-ups in the direct table), then one look-up: the last two moves test shifts by bits. */
unsigned mayan_shift_mask_compute(mayan_bound *mb, mayan_counts counts);

static inline unsigned mayan_shift_mask(mayan_bound *mb, mayan_counts counts)
{
    unsigned e = mb->shifts[counts];
    return e & 0x8000u ? e & 0xFFu : mayan_shift_mask_compute(mb, counts);
}

/* The same without a cache (tests compare the two). */
int mayan_displacement_uncached(mayan_counts counts, int width, int cap);

#endif
