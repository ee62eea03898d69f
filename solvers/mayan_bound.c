#include "mayan_bound.h"

#include <stdlib.h>
#include <string.h>

/* The programme walks the columns left to right. Its state after column x:
 *   carry: blocks moved across the border x | x+1 (positive: to the right); each costs 1;
 *   open1, open2: horizontal lines through x that began at x, at x - 1 (they must go on);
 *   open3: lines through x of length 3 or more (they may go on or stop).
 * Only lines through a column of 1 or 2 matter (drop the others and m stays valid), and the
 * lines through a column that reach such a column on its left all pass the nearest one, so at
 * most 2 + 2 lines pass any column and at most 2 begin at one: open1, open2 <= 2, open3 <= 4. */
enum { OPEN12 = 3, OPEN3 = 5, MAX_CAP = 15, CARRIES = 2 * MAX_CAP + 1, NONE = 255 };

enum { STATES = CARRIES * OPEN12 * OPEN12 * OPEN3 };

typedef unsigned char cost_grid[CARRIES][OPEN12][OPEN12][OPEN3];

typedef struct state {
    signed char carry, o1, o2, o3;
    unsigned char cost;
} state;

/* Records the state (cost) for the next column: a new one joins the list, a known one keeps
 * the lower cost (the list reads the final costs from the grid). */
static void relax(cost_grid g, state *list, int *count, int carry, int o1, int o2, int o3, int cost)
{
    unsigned char *c = &g[carry + MAX_CAP][o1][o2][o3];
    if (*c == NONE)
        list[(*count)++] =
            (state){(signed char)carry, (signed char)o1, (signed char)o2, (signed char)o3, 0};
    if (cost < *c) *c = (unsigned char)cost;
}

static int iabs(int v)
{
    return v < 0 ? -v : v;
}

/* The lines through a column that keeps m blocks, given the open lines arriving: every line
 * of length 1 or 2 goes on; a column of 1 or 2 has exactly m lines through it, one of 0 none,
 * one of 3 or more at most min(m, 4). Lines of length 3+ go on rather than new ones beginning
 * (a line that goes on may still stop anywhere: never worse). */
static void place_lines(cost_grid grid, state *list, int *count, int carry, int m, state from,
                        int cost)
{
    int o1 = from.o1, o2 = from.o2, o3 = from.o3;
    int must = o1 + o2;
    int lo = m <= 2 ? m : must, hi = m <= 2 ? m : (m < 4 ? m : 4);
    for (int h = lo < must ? must : lo; h <= hi; h++) {
        int go_on = h - must < o3 ? h - must : o3;
        int begin = h - must - go_on;
        int n3 = o2 + go_on;
        if (begin >= OPEN12 || n3 >= OPEN3) continue;
        relax(grid, list, count, carry, begin, o1, n3, cost);
    }
}

int mayan_displacement_uncached(mayan_counts counts, int width, int cap)
{
    if (cap > MAX_CAP) cap = MAX_CAP;
    /* Reachable states only: a list per column, the grid to merge equal states. */
    static const size_t grid_bytes = sizeof(cost_grid);
    cost_grid grid;
    memset(grid, NONE, grid_bytes);
    state lists[2][STATES];
    int count[2] = {1, 0};
    lists[0][0] = (state){0, 0, 0, 0, 0};
    int cur = 0;
    for (int x = 0; x < width; x++) {
        int n = (int)(counts >> (4 * x)) & 15;
        bool last = x == width - 1;
        state *next = lists[cur ^ 1];
        int next_count = 0;
        for (int i = 0; i < count[cur]; i++) {
            state st = lists[cur][i];
            int slack = cap - st.cost;
            int out_lo = last ? 0 : -slack, out_hi = last ? 0 : slack;
            for (int out = out_lo; out <= out_hi; out++) {
                int m = n + st.carry - out;
                if (m < 0) continue;
                place_lines(grid, next, &next_count, out, m, st, st.cost + iabs(out));
            }
        }
        /* Clear the grid cells this column used, for the next one. */
        for (int i = 0; i < next_count; i++) {
            state *t = &next[i];
            t->cost = grid[t->carry + MAX_CAP][t->o1][t->o2][t->o3];
        }
        for (int i = 0; i < next_count; i++) {
            state *t = &next[i];
            grid[t->carry + MAX_CAP][t->o1][t->o2][t->o3] = NONE;
        }
        count[cur ^ 1] = next_count;
        cur ^= 1;
    }
    int best = cap + 1;
    for (int i = 0; i < count[cur]; i++) {
        state *t = &lists[cur][i];
        if (t->carry == 0 && t->o1 == 0 && t->o2 == 0 && t->cost < best) best = t->cost;
    }
    return best;
}

bool mayan_bound_init(mayan_bound *mb, int width, int entries_log2)
{
    mb->width = width;
    mb->index_shift = 64 - entries_log2;
    mb->cache = calloc((size_t)1 << entries_log2, sizeof *mb->cache);
    return mb->cache != NULL;
}

void mayan_bound_free(mayan_bound *mb)
{
    free(mb->cache);
    mb->cache = NULL;
}

int mayan_displacement(mayan_bound *mb, mayan_counts counts, int cap)
{
    uint64_t h = counts * 0x9E3779B97F4A7C15ULL;
    mayan_bound_entry *e = &mb->cache[h >> mb->index_shift];
    if (e->known && e->key == counts) {
        if (e->bound <= e->cap_used) return e->bound <= cap ? e->bound : cap + 1; /* exact */
        if (e->cap_used >= cap) return cap + 1;                                   /* > cap */
    }
    int d = mayan_displacement_uncached(counts, mb->width, cap);
    e->key = counts;
    e->known = 1;
    e->bound = (unsigned char)d;
    e->cap_used = (unsigned char)cap;
    return d;
}
