/* The small group behind Rubik's Rectangle. The four cells {(p,q), (p,W-1-q), (H-1-p,q),
 * (H-1-p,W-1-q)} of an orbit are positions 0..3; the four flips that touch it act on them as
 * transpositions: top row T = (0 1), bottom row B = (2 3), left column L = (0 2), right column
 * R = (1 3). An orbit's state is an element of S4 (indexed 0..23); the column flips of one
 * column pair form V = {e, L, R, LR}, indexed 0..3 so that composing two of them is XOR.
 *
 * A "row sequence" is the run of row flips X1..Xk (each T, B or both) given to a block of one,
 * two or three pairs of rows; before each Xi each column pair q may apply any c_i in V. For an
 * orbit of the block its effect is w = c0 .. c(k-1) with its own pair's flips Xi in their places,
 * and the column net is n = c0 c1 ... c(k-1). The table of a row sequence holds, for every target
 * phi = w n of each of its pairs (a key: phi0 + 24 phi1) and every net n, the fewest column
 * flips and the choice (c0..c(k-1)) that reach it (a key: phi0 + 24 phi1 + 576 phi2). Pairs
 * sharing one run is cheaper than a run each: each column flip then serves an orbit of every
 * pair of the block. */
#ifndef PUZZLED_RUBIKS_RECTANGLE_GROUP_H
#define PUZZLED_RUBIKS_RECTANGLE_GROUP_H

#include <stdbool.h>
#include <stdint.h>

#include "budget.h"

#define RR_PERMS 24
#define RR_SEQ_MAX 48 /* a slot's code (below) fits 7 bits */
/* A choice lists the column flips it makes, one 7-bit code each from bit 0 up: 1 + 2i for the
 * left column before event i, 2 + 2i for the right; 0 ends the list. Nine fit 64 bits, and
 * entries that need more are left out of the table (no run this solver uses needs them). */
#define RR_CHOICE_FLIPS 9
#define RR_PAIRS_MAX 4
#define RR_COST_NONE 255

/* Row events of a sequence: bits 0-1 say which rows of the pair flip (1 = top, 2 = bottom,
 * 3 = both), bits 2-3 which pair of the block (0..2) it is. Written as hex digits: 1, 2 for the
 * first pair, 5, 6 for the second, 9, a for the third. */
#define RR_ROW_TOP 1
#define RR_ROW_BOTTOM 2
#define RR_ROW_PAIR(event) ((event) >> 2)

typedef struct rubiks_rectangle_group {
    uint8_t perm[RR_PERMS][4];
    uint8_t mul[RR_PERMS][RR_PERMS]; /* mul[a][b] = a o b: (a o b)(x) = a(b(x)) */
    uint8_t inverse[RR_PERMS];
    uint8_t parity[RR_PERMS];
    uint8_t index_of[256]; /* base-4 code of a perm -> index */
    uint8_t identity, top, bottom, left, right;
    uint8_t column[4]; /* V: e, L, R, LR */
    uint8_t row[4];    /* row flips by bit mask: 1 = T, 2 = B, 3 = both */
} rubiks_rectangle_group;

typedef struct rubiks_rectangle_seq {
    uint8_t len;
    uint8_t pairs;            /* row pairs the run flips: 1..3 (0 for the empty run) */
    uint8_t rows[RR_SEQ_MAX]; /* row events, RR_ROW_* bits */
    uint8_t row_cost;         /* flips spent on rows */
    uint8_t parity;           /* bit j: the parity of every phi of pair j */
    uint8_t complete;         /* reaches every tuple of targets of its parities */
    double mean_cost;         /* column flips per block column over uniformly random targets */
    uint32_t keys;            /* 24^(pairs the table covers) */
    uint8_t (*cost)[4];       /* [key][net]: fewest column flips, RR_COST_NONE if none */
    uint64_t (*choice)[4];    /* the column flips, RR_CHOICE_FLIPS codes */
} rubiks_rectangle_seq;

/* The column choice c_i (bit 0: left, bit 1: right) of a choice before event i. */
static inline unsigned rubiks_rectangle_choice_at(uint64_t choice, int i)
{
    unsigned c = 0;
    for (; choice; choice >>= 7) {
        unsigned slot = (unsigned)(choice & 127) - 1;
        if ((int)(slot >> 1) == i) c |= 1u << (slot & 1);
    }
    return c;
}

void rubiks_rectangle_group_init(rubiks_rectangle_group *g);

/* The perm index of a 4-position mapping p (p[x] in 0..3, a bijection). */
static inline uint8_t rubiks_rectangle_group_index(const rubiks_rectangle_group *g,
                                                   const uint8_t p[4])
{
    return g->index_of[p[0] | p[1] << 2 | p[2] << 4 | p[3] << 6];
}

/* Fills the table of the row sequence rows[0..len-1] (0 <= len <= RR_SEQ_MAX) for blocks of
 * `pairs` pairs (at least the pairs its events name); `complete` says whether it reaches every
 * tuple of targets of its parities with some net (mean_cost is set only then). An incomplete
 * sequence (the empty one, say) still serves blocks whose targets it reaches. Returns false when
 * out of memory or when the budget b (NULL: none) runs out first; free the tables with
 * rubiks_rectangle_seq_free either way. */
bool rubiks_rectangle_seq_init(const rubiks_rectangle_group *g, const uint8_t *rows, int len,
                               int pairs, rubiks_rectangle_seq *s, budget *b);

void rubiks_rectangle_seq_free(rubiks_rectangle_seq *s);

#endif
