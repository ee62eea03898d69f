#include "rubiks_rectangle_group.h"

#include <stdlib.h>
#include <string.h>

static uint8_t transposition(rubiks_rectangle_group *g, int a, int b)
{
    uint8_t p[4] = {0, 1, 2, 3};
    p[a] = (uint8_t)b;
    p[b] = (uint8_t)a;
    return rubiks_rectangle_group_index(g, p);
}

void rubiks_rectangle_group_init(rubiks_rectangle_group *g)
{
    memset(g, 0, sizeof *g);
    int n = 0;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            for (int c = 0; c < 4; c++)
                for (int d = 0; d < 4; d++) {
                    if (a == b || a == c || a == d || b == c || b == d || c == d) continue;
                    uint8_t *p = g->perm[n];
                    p[0] = (uint8_t)a, p[1] = (uint8_t)b, p[2] = (uint8_t)c, p[3] = (uint8_t)d;
                    g->index_of[a | b << 2 | c << 4 | d << 6] = (uint8_t)n;
                    int inversions = 0;
                    for (int i = 0; i < 4; i++)
                        for (int j = i + 1; j < 4; j++) inversions += p[i] > p[j];
                    g->parity[n] = (uint8_t)(inversions & 1);
                    n++;
                }
    for (int x = 0; x < RR_PERMS; x++) {
        uint8_t inv[4];
        for (int i = 0; i < 4; i++) inv[g->perm[x][i]] = (uint8_t)i;
        g->inverse[x] = rubiks_rectangle_group_index(g, inv);
        for (int y = 0; y < RR_PERMS; y++) {
            uint8_t p[4];
            for (int i = 0; i < 4; i++) p[i] = g->perm[x][g->perm[y][i]];
            g->mul[x][y] = rubiks_rectangle_group_index(g, p);
        }
    }
    const uint8_t id[4] = {0, 1, 2, 3};
    g->identity = rubiks_rectangle_group_index(g, id);
    g->top = transposition(g, 0, 1);
    g->bottom = transposition(g, 2, 3);
    g->left = transposition(g, 0, 2);
    g->right = transposition(g, 1, 3);
    g->column[0] = g->identity;
    g->column[1] = g->left;
    g->column[2] = g->right;
    g->column[3] = g->mul[g->left][g->right];
    g->row[0] = g->identity;
    g->row[1] = g->top;
    g->row[2] = g->bottom;
    g->row[3] = g->mul[g->top][g->bottom];
}

/* The digits of a tuple index (pair 0 least significant). */
static void unpack(unsigned index, int n, unsigned *w)
{
    for (int j = 0; j < n; j++, index /= RR_PERMS) w[j] = index % RR_PERMS;
}

/* The table is built in coordinates that keep each step local. With n the net of the column
 * flips so far, let u_j = w_j n for every pair j. A column flip c changes n only: w_j c n c =
 * w_j n, since V is abelian and each of its elements is its own inverse. A row event X of pair
 * p changes u_p only, to u_p (n X n). And at the end u is the key (phi = w n). So an event maps
 * each group of 24 x 4 states that agree on every digit but p's onto itself: the table is its
 * own work space, updated in place group by group, each state reading its 4 candidates (one per
 * c) from the group's copy. Over (w, n) every state wrote to 4 states scattered over the table,
 * which took 2.7 times as long (bench/RESULTS-rubiks-rectangle.md, stop 32). */
static void apply_event(const rubiks_rectangle_group *g, rubiks_rectangle_seq *s, int i)
{
    int pair = RR_ROW_PAIR(s->rows[i]);
    uint8_t x = g->row[s->rows[i] & 3];
    /* from[v][n]: u_p before the event of the state with u_p = v and net n after it. */
    uint8_t from[RR_PERMS][4];
    for (unsigned n = 0; n < 4; n++) {
        uint8_t y = g->mul[g->mul[g->column[n]][x]][g->column[n]];
        for (unsigned v = 0; v < RR_PERMS; v++) from[v][n] = g->mul[v][g->inverse[y]];
    }
    unsigned stride = 1;
    for (int j = 0; j < pair; j++) stride *= RR_PERMS;
    const uint64_t slot_left = 1 + 2 * (uint64_t)i, slot_right = 2 + 2 * (uint64_t)i;
    for (unsigned high = 0; high < s->keys; high += stride * RR_PERMS)
        for (unsigned low = 0; low < stride; low++) {
            uint8_t(*cost)[4] = s->cost + high + low;
            uint64_t(*choice)[4] = s->choice + high + low;
            uint8_t old_cost[RR_PERMS][4];
            uint64_t old_choice[RR_PERMS][4];
            bool reached = false;
            for (unsigned d = 0; d < RR_PERMS; d++) {
                memcpy(old_cost[d], cost[d * stride], 4);
                reached |= (old_cost[d][0] & old_cost[d][1] & old_cost[d][2] & old_cost[d][3]) !=
                           RR_COST_NONE;
            }
            if (!reached) continue; /* and stays so */
            for (unsigned d = 0; d < RR_PERMS; d++) memcpy(old_choice[d], choice[d * stride], 32);
            for (unsigned v = 0; v < RR_PERMS; v++)
                for (unsigned n = 0; n < 4; n++) {
                    const uint8_t *c_old = old_cost[from[v][n]];
                    /* The cheapest c, the first of equals: cost and c packed, so that one
                     * minimum (without branches) picks both. */
                    unsigned m0 = (unsigned)c_old[n] << 2, m1 = (c_old[n ^ 1] + 1u) << 2 | 1,
                             m2 = (c_old[n ^ 2] + 1u) << 2 | 2, m3 = (c_old[n ^ 3] + 2u) << 2 | 3;
                    unsigned m01 = m0 < m1 ? m0 : m1, m23 = m2 < m3 ? m2 : m3;
                    unsigned m = m01 < m23 ? m01 : m23, best = m >> 2, c = m & 3;
                    if (best > RR_CHOICE_FLIPS) {
                        cost[v * stride][n] = RR_COST_NONE;
                        continue;
                    }
                    unsigned had = c_old[n ^ c];
                    uint64_t ch = old_choice[from[v][n]][n ^ c];
                    if (c & 1) ch |= slot_left << (7 * had++);
                    if (c & 2) ch |= slot_right << (7 * had);
                    cost[v * stride][n] = (uint8_t)best;
                    choice[v * stride][n] = ch;
                }
        }
}

bool rubiks_rectangle_seq_init(const rubiks_rectangle_group *g, const uint8_t *rows, int len,
                               int pairs, rubiks_rectangle_seq *s, budget *b)
{
    s->len = (uint8_t)len;
    s->pairs = 1;
    s->complete = 0;
    s->mean_cost = 0;
    s->row_cost = 0;
    s->parity = 0;
    for (int i = 0; i < len; i++) {
        s->rows[i] = rows[i];
        int bits = rows[i] & 3, pair = RR_ROW_PAIR(rows[i]);
        if (pair + 1 > s->pairs) s->pairs = (uint8_t)(pair + 1);
        s->row_cost = (uint8_t)(s->row_cost + (bits == 3 ? 2 : 1));
        if (bits != 3) s->parity ^= (uint8_t)(1 << pair);
    }
    /* The table covers `pairs` pairs even when the run names fewer: the empty run serves blocks
     * of any size. A pair the run does not name keeps u the identity: phi the identity. */
    int n = pairs > s->pairs ? pairs : s->pairs;
    unsigned keys = 1;
    for (int j = 0; j < n; j++) keys *= RR_PERMS;
    s->keys = keys;
    s->cost = malloc(keys * sizeof *s->cost);
    s->choice = calloc(keys, sizeof *s->choice); /* fresh zero pages: cheaper than a memset */
    if (!s->cost || !s->choice) return false;
    /* Cheapest choice of c_0..c_(len-1) for every state (u, net), event by event: 24^n * 4
     * states and 4 choices per event instead of all 4^len words. */
    memset(s->cost, RR_COST_NONE, keys * sizeof *s->cost);
    unsigned id = 0;
    for (int j = 0; j < n; j++) id = id * RR_PERMS + g->identity;
    s->cost[id][0] = 0;
    s->choice[id][0] = 0;
    for (int i = 0; i < len; i++) {
        /* An event of a four-pair table takes milliseconds: look at the clock each time. */
        if (b && budget_expired_now(b)) return false;
        apply_event(g, s, i);
    }
    double sum = 0;
    int count = 0;
    for (unsigned key = 0; key < keys; key++) {
        unsigned t[RR_PAIRS_MAX];
        unpack(key, n, t);
        bool fits = true;
        for (int j = 0; j < n; j++)
            if (g->parity[t[j]] != ((s->parity >> j) & 1)) fits = false;
        if (!fits) continue;
        int best = RR_COST_NONE;
        for (int net = 0; net < 4; net++)
            if (s->cost[key][net] < best) best = s->cost[key][net];
        if (best == RR_COST_NONE) return true;
        sum += best;
        count++;
    }
    s->complete = 1;
    s->mean_cost = sum / count;
    return true;
}

void rubiks_rectangle_seq_free(rubiks_rectangle_seq *s)
{
    free(s->cost);
    free(s->choice);
    s->cost = NULL;
    s->choice = NULL;
}
