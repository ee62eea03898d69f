/* Moves far apart on a wide Mayan board: what the search may conclude about a move from the
 * columns another move changed.
 *
 * On a still board (no run) every run after a move holds a cell that the move, or the round of
 * its cascade before, changed; and a horizontal run cannot cross three columns that did not
 * change in that round (they would have made a run before). So each round's runs lie within two
 * columns of the columns that lost blocks the round before, and a move with its whole cascade
 * reads no cell outside the columns it changes and the two on either side of them (bit x of a
 * column mask: column x). Hence:
 * - two moves whose changed columns are three or more apart commute: either order plays each
 *   the same and gives the same board (mayan.c, moved_before);
 * - a move whose changed columns on a board P are three or more away from those another move A
 *   changed plays the same on P after A; the board it leaves then equals what it leaves on P
 *   outside A's columns (mayan.c, fails_as_on_parent). */
#ifndef PUZZLED_MAYAN_FAR_H
#define PUZZLED_MAYAN_FAR_H

#include <stdbool.h>

#include "mayan_columns.h"

/* The columns of the mask and those within two of them. */
static inline unsigned near_columns(unsigned columns)
{
    return columns | columns << 1 | columns << 2 | columns >> 1 | columns >> 2;
}

/* The columns where two boards differ. */
static inline unsigned short columns_changed(const column *before, const column *after, int width)
{
    unsigned changed = 0;
    for (int x = 0; x < width; x++)
        if (after[x] != before[x]) changed |= 1u << x;
    return (unsigned short)changed;
}

/* What a move did on a board: the columns whose cells it changed, cascade included, and the
 * columns that held blocks afterwards. */
typedef struct move_play {
    unsigned short changed, filled;
} move_play;

/* Plays the legal move (x, y, dir) on a still board of `width` columns: a swap when dir is 1 and
 * column x + 1 holds a block at row y, else a drag into the air of column x + dir. */
static inline move_play play_move(const column *col, int width, int x, int y, int dir)
{
    column after[MAYAN_MAX_SIDE];
    unsigned v = col_get(col[x], y);
    if (dir > 0 && y < col_height(col[x + 1]))
        swap(col, width, x, y, v, col_get(col[x + 1], y), after);
    else
        drag(col, width, x, y, v, x + dir, after);
    int lo = dir > 0 ? x : x - 1;
    settle(after, width, lo, lo + 1, NULL, false);
    unsigned filled = 0;
    for (int x = 0; x < width; x++)
        if (after[x]) filled |= 1u << x;
    return (move_play){columns_changed(col, after, width), (unsigned short)filled};
}

/* Whether moves that changed these columns commute (both changed something). */
static inline bool moves_commute(unsigned changed_a, unsigned changed_b)
{
    return changed_a && changed_b && !(near_columns(changed_a) & changed_b);
}

/* Whether a move whose own columns are lo and lo + 1 reads the same cells on P after a move A
 * that changed the columns changed_by_a as on P (its blocks, and whether it makes a run): its
 * columns are three or more away from A's. Only then is it the same move on both boards. */
static inline bool away_from(unsigned changed_by_a, int lo)
{
    return !(near_columns(changed_by_a) & 3u << lo);
}

/* Whether a move that played p on board P surely leaves a block on P after a move that changed
 * the columns changed_by_a: it plays there as on P, and left a block outside those columns. */
static inline bool leaves_a_block_after(move_play p, unsigned changed_by_a)
{
    return !(near_columns(p.changed) & changed_by_a) && (p.filled & ~changed_by_a);
}

#endif
