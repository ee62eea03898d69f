/* The cells a last move may depend on, for the search's cut of still swaps with two moves left
 * (solvers/mayan.c). Apart so that the tests can check the claim below on its own. */
#ifndef PUZZLED_MAYAN_REACH_H
#define PUZZLED_MAYAN_REACH_H

#include "mayan_bound.h"
#include "mayan_columns.h"

/* Boards of more than 5 columns, still (no runs), with colour a (counts ca) out of place: marks
 * in near[x] (bit 0 of row y's nibble) the cells where a first move that is a still swap of two
 * blocks not of a could change what the last move does.
 *
 * Such a swap leaves a's blocks and counts as they are, so the last move must still shift a
 * block of a across one of a's mending borders (the borders of mayan_wide_shifts): the same
 * moves, by position, as on this board. Each of them, played here, either makes no run, which
 * four cells of its row and two short stretches of its two columns decide (swap_makes_run), or
 * plays a cascade that reads only the columns within two of those that changed in the round
 * before (settle_round). A first move that writes none of those cells leaves each last move
 * doing just the same, and the two cells it swapped keep their blocks: the board is not emptied.
 * So such a first move leads to no solution unless one of its two cells is marked. */
static inline void mayan_last_move_reach(mayan_bound *mb, const column *col, int w, mayan_counts ca,
                                         unsigned a, uint64_t *near)
{
    for (int x = 0; x < w; x++) near[x] = 0;
    uint32_t mends = mayan_wide_shifts(mb, ca);
    for (int x = 0; x + 1 < w; x++) {
        uint64_t right = mends >> x & 1 ? nib_is(col[x], a) : 0;
        uint64_t back = mends >> (MAYAN_WIDE_LEFT + x) & 1 ? nib_is(col[x + 1], a) : 0;
        int hx = col_height(col[x]), hr = col_height(col[x + 1]);
        for (uint64_t rows = right | back; rows; rows &= rows - 1) {
            int y = __builtin_ctzll(rows) / 4;
            bool swapping = y < hx && y < hr;
            if (swapping) {
                unsigned v = col_get(col[x], y), u = col_get(col[x + 1], y);
                if (u == v) continue; /* both hold a, which the first move cannot write */
                if (!swap_makes_run(col, w, x, y, v, u)) {
                    for (int cx = imax(x - 2, 0); cx <= imin(x + 3, w - 1); cx++)
                        near[cx] |= 1ULL << (4 * y);
                    /* rows y - 2 .. y + 2 */
                    uint64_t stretch = y >= 2 ? NIB_LOW & (0xFFFFFULL << (4 * y)) >> 8
                                              : NIB_LOW & 0xFFFFFULL >> (4 * (2 - y));
                    near[x] |= stretch, near[x + 1] |= stretch;
                    continue;
                }
            }
            /* A swap that makes a run, or a block dragged into the air beside it: played out. */
            column child[MAYAN_MAX_SIDE];
            if (swapping)
                swap(col, w, x, y, col_get(col[x], y), col_get(col[x + 1], y), child);
            else if (right >> (4 * y) & 1)
                drag(col, w, x, y, a, x + 1, child);
            else
                drag(col, w, x + 1, y, a, x, child);
            int lo = x, hi = x + 1, read_lo = lo - 2, read_hi = hi + 2;
            while (settle_round(child, w, &lo, &hi, NULL, NULL))
                read_lo = imin(read_lo, lo - 2), read_hi = imax(read_hi, hi + 2);
            for (int cx = imax(read_lo, 0); cx <= imin(read_hi, w - 1); cx++) near[cx] = NIB_LOW;
        }
    }
}

#endif
