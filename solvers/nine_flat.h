/* The greedy's vector pass over a flat library (n * n <= 128): for every macro at once, the most
 * ones it could remove from this board and the least it could cost, so that the exact pricing
 * visits only the macros that can enter the shortlist. Exact integer counts: every build and
 * every CPU gives the same bytes, so the same answers. */
#ifndef PUZZLED_NINE_FLAT_H
#define PUZZLED_NINE_FLAT_H

#include <stdint.h>

#include "nine_macro.h"

/* The most macros a flat library may hold for the vector pass (9 x 9: 5 494 macros,
 * 10 x 10: 6 005, 11 x 11: 5 352). */
#define NINE_FLAT_MAX_MACROS 8192
/* Each row a cache line longer than the most macros: rows exactly 8 KiB apart share their L1
 * sets, and the pass writes four of them at the same offsets (on an AMD EPYC without AVX-512 the
 * pass ran 1.4 times slower that way). */
#define NINE_FLAT_ROW (NINE_FLAT_MAX_MACROS + 64)

/* One byte per macro; past the library's count, up to the next multiple of 64, zeros. */
typedef struct nine_flat_prices {
    /* The most ones of A its A sources hold over A's four turns less the fewest ones of B its B
     * sources hold over B's: a bound on what any set-up removes. */
    int8_t bound[NINE_FLAT_ROW];
    /* Its least cost: its length less the swaps that cancel against the tail, at least 1. */
    int8_t least[NINE_FLAT_ROW];
    int8_t trans[NINE_FLAT_ROW]; /* its transfers */
    int8_t over[NINE_FLAT_ROW];  /* its length less the most any macro saves here */
} nine_flat_prices;

/* Fills fp's bytes from..to (to <= lib->count) for lib (lib->flat, lib->count <=
 * NINE_FLAT_MAX_MACROS) from A's and B's flat masks at their four turns; tail: the columns
 * swapped at the end of the moves so far; max_save: the most moves any macro saves against it.
 * A range that ends the library also zeros the bytes up to the next multiple of 64. */
void nine_flat_bounds(const nine_library *lib, int from, int to, const uint64_t fa[4][2],
                      const uint64_t fb[4][2], uint64_t tail, int max_save, nine_flat_prices *fp);

/* The macros from `from` to `end` (<= base + 64) the plain scan would read, as bits from base:
 * those whose bound can enter a shortlist whose last entry removes wr ones for wc moves (full:
 * the shortlist is full, else anything positive enters), and those that end the scan. */
uint64_t nine_flat_visit(const nine_flat_prices *fp, int base, int from, int end, int wr, int wc,
                         int full);

#endif
