/* The Mayan tests' own simulator (tests/solvers/test_mayan.c, and the replays of
 * tests/e2e/test_cli.c): deliberately naive, sharing no code or idea with the solver's
 * bitboards: a 2-D int array, moves done cell by cell, gravity by compaction, runs marked by
 * scanning every cell. */
#ifndef PUZZLED_TESTS_MAYAN_SIM_H
#define PUZZLED_TESTS_MAYAN_SIM_H

#include <string.h>

typedef struct tboard {
    int w, h;
    int g[16][16]; /* g[x][y], y = 0 bottom */
} tboard;

typedef struct tmove {
    int x, y, dir;
} tmove;

static inline void t_fall(tboard *b)
{
    for (int x = 0; x < b->w; x++) {
        int to = 0;
        for (int y = 0; y < b->h; y++)
            if (b->g[x][y]) {
                int v = b->g[x][y];
                b->g[x][y] = 0;
                b->g[x][to++] = v;
            }
    }
}

static inline void t_settle(tboard *b)
{
    for (;;) {
        int mark[16][16] = {{0}};
        int any = 0;
        for (int x = 0; x < b->w; x++)
            for (int y = 0; y < b->h; y++) {
                int v = b->g[x][y];
                if (!v) continue;
                if (x + 2 < b->w && b->g[x + 1][y] == v && b->g[x + 2][y] == v)
                    mark[x][y] = mark[x + 1][y] = mark[x + 2][y] = any = 1;
                if (y + 2 < b->h && b->g[x][y + 1] == v && b->g[x][y + 2] == v)
                    mark[x][y] = mark[x][y + 1] = mark[x][y + 2] = any = 1;
            }
        if (!any) return;
        for (int x = 0; x < b->w; x++)
            for (int y = 0; y < b->h; y++)
                if (mark[x][y]) b->g[x][y] = 0;
        t_fall(b);
    }
}

static inline int t_empty(const tboard *b)
{
    for (int x = 0; x < b->w; x++)
        if (b->g[x][0]) return 0;
    return 1;
}

/* Applies a move; 0 when it is illegal (no block there, off the board). */
static inline int t_move(tboard *b, int x, int y, int dir)
{
    if (dir != 1 && dir != -1) return 0;
    if (x < 0 || x >= b->w || y < 0 || y >= b->h || !b->g[x][y]) return 0;
    int tx = x + dir;
    if (tx < 0 || tx >= b->w) return 0;
    int v = b->g[x][y];
    b->g[x][y] = b->g[tx][y]; /* a swap, or a hole when the target is empty */
    b->g[tx][y] = v;
    t_fall(b);
    t_settle(b);
    return 1;
}

/* Builds a board from columns listed bottom to top, each ended by 0 (the contest's way). */
static inline tboard make(int w, int h, const int *cols)
{
    tboard b;
    memset(&b, 0, sizeof b);
    b.w = w;
    b.h = h;
    for (int x = 0; x < w; x++) {
        int y = 0;
        while (*cols) b.g[x][y++] = *cols++;
        cols++;
    }
    return b;
}

#endif
