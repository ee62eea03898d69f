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
 * D is computed by a small dynamic programme over the columns and cached: per request on wide
 * boards, in tables shared by the process on boards of at most 5 columns. */
#ifndef PUZZLED_MAYAN_BOUND_H
#define PUZZLED_MAYAN_BOUND_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Per-column counts of one colour: column x in bits 4x..4x+3 (counts up to 15; a still column
 * holds at most 11 blocks of one colour). */
typedef uint64_t mayan_counts;
#define MAYAN_BOUND_MAX_WIDTH 16

/* Room for the states of the automaton of valid spreads (mayan_bound.c builds it: 60 of them; with
 * fewer slots than it needs, test_mayan's wide_shift_mask_matches_programme fails). */
#define MAYAN_VALID_STATES 64

typedef struct mayan_bound_entry {
    mayan_counts key;
    unsigned char known; /* 0: D not known (empty slot, or only shifts known) */
    unsigned char bound; /* D >= bound; exact when bound <= cap_used */
    unsigned char cap_used;
    uint32_t shifts; /* mayan_wide_shifts of key, with bit 31 set; 0: not known */
} mayan_bound_entry;

/* A cache of D per request (boards of more than 5 columns), direct-mapped: a lost entry is only
 * computed again. */
typedef struct mayan_bound {
    int width;
    int index_shift; /* 64 - log2(entries) */
    mayan_bound_entry *cache;
    /* Boards of at most 5 columns, in place of the cache: what is known of D, indexed by the
     * counts themselves (0: nothing; else 1 + 2 b + e: D = b when e is 1, D >= b when e is 0);
     * NULL on wider boards. D is a fact about the spread and the width only, so one table per
     * width serves every search of the process (mayan_bound.c): searches fill it as they go, and
     * a request no longer allocates and faults in fresh tables (that was about 2.5-3 ms of a
     * typical 5-move search's 4-5 ms; bench/RESULTS-mayan.md, round 6). Entries are written whole
     * with relaxed atomics: two searches that compute one at once each write something true (a
     * weaker fact may overwrite a stronger one; it is then computed again). */
    _Atomic unsigned char *direct;
    /* Same boards: mayan_shift_mask per spread (bit 15: known), shared the same way. */
    _Atomic uint16_t *shifts;
    uint64_t step[45][5]; /* the programme's table (mayan_bound.c) */
    /* Validity alone (D = 0) as an automaton over the columns' counts, min(count, 4): state 0 at
     * the left end, valid when the state after the last column is in valid_accept. */
    unsigned char valid_next[MAYAN_VALID_STATES][5];
    uint64_t valid_accept;
} mayan_bound;

/* entries_log2: 10..20; deep searches meet tens of thousands of spreads, shallow ones few. From
 * 16 on boards of at most 5 columns, the shared direct tables instead (no cache allocated).
 * false when out of memory. */
bool mayan_bound_init(mayan_bound *mb, int width, int entries_log2);
void mayan_bound_free(mayan_bound *mb);

/* D for these counts if it is at most cap, else cap + 1. Depends only on (counts, width, cap). */
int mayan_displacement(mayan_bound *mb, mayan_counts counts, int cap);

/* What a direct table's entry e says of D at cap: D if it is at most cap, cap + 1 if D is
 * known to exceed cap; -1 when it does not say. */
static inline int mayan_direct_answer(unsigned e, int cap)
{
    if (!e) return -1;
    int b = (int)(e - 1) >> 1;
    if ((e - 1) & 1) return b <= cap ? b : cap + 1;
    return b > cap ? cap + 1 : -1;
}

/* mayan_displacement, inline for the direct tables: the search asks this for every shift it
 * tries on boards of at most 5 columns. */
static inline int mayan_displacement_small(mayan_bound *mb, mayan_counts counts, int cap)
{
    if (mb->direct && !(counts >> 20)) {
        int d = mayan_direct_answer(atomic_load_explicit(&mb->direct[counts], memory_order_relaxed),
                                    cap);
        if (d >= 0) return d;
    }
    return mayan_displacement(mb, counts, cap);
}

/* Whether D = 0 (the same as mayan_displacement(mb, counts, 0) == 0). */
static inline bool mayan_spread_valid(mayan_bound *mb, mayan_counts counts)
{
    return mayan_displacement_small(mb, counts, 0) == 0;
}

/* Boards of at most 5 columns (mb->direct set): which single shifts leave the spread valid.
 * Bit x (0..3): one block from column x to x + 1; bit 4 + x: one block from column x + 1 to x;
 * set only where the column it leaves holds a block. Computed once per spread (4 (w - 1)
 * look-ups in the direct table), then one look-up: the last two moves test shifts by bits. */
unsigned mayan_shift_mask_compute(mayan_bound *mb, mayan_counts counts);

static inline unsigned mayan_shift_mask(mayan_bound *mb, mayan_counts counts)
{
    unsigned e = atomic_load_explicit(&mb->shifts[counts], memory_order_relaxed);
    return e & 0x8000u ? e & 0xFFu : mayan_shift_mask_compute(mb, counts);
}

/* The cache's slot for these counts (boards of more than 5 columns). */
static inline mayan_bound_entry *mayan_bound_slot(const mayan_bound *mb, mayan_counts counts)
{
    return &mb->cache[(counts * 0x9E3779B97F4A7C15ULL) >> mb->index_shift];
}

/* Boards of more than 5 columns: which single shifts leave the spread valid. Bit x (0..14): one
 * block from column x to x + 1; bit 16 + x: one from column x + 1 to x; set only where the column
 * it leaves holds a block. Kept beside D in the cache, so that the search asks once per spread
 * and colour instead of once per shift; a miss walks the validity automaton once per shift. */
#define MAYAN_WIDE_LEFT 16
uint32_t mayan_wide_shifts_compute(mayan_bound *mb, mayan_counts counts);

static inline uint32_t mayan_wide_shifts(mayan_bound *mb, mayan_counts counts)
{
    const mayan_bound_entry *e = mayan_bound_slot(mb, counts);
    if (e->key == counts && e->shifts) return e->shifts & 0x7FFFFFFFu;
    return mayan_wide_shifts_compute(mb, counts);
}

/* The same without a cache (tests compare the two). */
int mayan_displacement_uncached(mayan_counts counts, int width, int cap);

#endif
