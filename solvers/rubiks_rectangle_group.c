#include "rubiks_rectangle_group.h"

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

void rubiks_rectangle_seq_init(const rubiks_rectangle_group *g, const uint8_t *rows, int len,
                               rubiks_rectangle_seq *s)
{
    s->len = (uint8_t)len;
    s->pairs = 1;
    s->complete = 0;
    s->mean_cost = 0;
    s->row_cost = 0;
    s->parity = 0;
    for (int i = 0; i < len; i++) {
        s->rows[i] = rows[i];
        int bits = rows[i] & 3, pair = (rows[i] & RR_ROW_SECOND) ? 1 : 0;
        if (pair) s->pairs = 2;
        s->row_cost = (uint8_t)(s->row_cost + (bits == 3 ? 2 : 1));
        if (bits != 3) s->parity ^= (uint8_t)(1 << pair);
    }
    /* All keys, even for one pair: the empty sequence serves blocks of two pairs as well. */
    int keys = s->pairs == 2 ? RR_KEYS : RR_PERMS;
    memset(s->cost, RR_COST_NONE, sizeof s->cost);
    memset(s->choice, 0, sizeof s->choice);
    /* Cheapest choice of c_0..c_(len-1) for every end state (w0, w1, net), layer by layer:
     * 2304 states and 4 choices per layer instead of all 4^len words. */
    enum { STATES = RR_PERMS * RR_PERMS * 4 };
    static const uint8_t none = RR_COST_NONE;
    uint8_t cost[2][STATES];
    uint32_t choice[2][STATES];
    memset(cost[0], none, sizeof cost[0]);
    cost[0][(g->identity * RR_PERMS + g->identity) * 4] = 0;
    choice[0][(g->identity * RR_PERMS + g->identity) * 4] = 0;
    int cur = 0;
    for (int i = 0; i < len; i++, cur ^= 1) {
        memset(cost[cur ^ 1], none, sizeof cost[0]);
        int pair = (rows[i] & RR_ROW_SECOND) ? 1 : 0;
        uint8_t x = g->row[rows[i] & 3];
        for (int st = 0; st < STATES; st++) {
            if (cost[cur][st] == none) continue;
            unsigned net = st & 3, w0 = (unsigned)(st >> 2) / RR_PERMS,
                     w1 = (unsigned)(st >> 2) % RR_PERMS;
            for (unsigned c = 0; c < 4; c++) {
                unsigned v[2] = {g->mul[w0][g->column[c]], g->mul[w1][g->column[c]]};
                v[pair] = g->mul[v[pair]][x];
                int to = (int)((v[0] * RR_PERMS + v[1]) * 4 + (net ^ c));
                unsigned cc = cost[cur][st] + (c & 1) + (c >> 1);
                if (cc < cost[cur ^ 1][to]) {
                    cost[cur ^ 1][to] = (uint8_t)cc;
                    choice[cur ^ 1][to] = choice[cur][st] | c << (2 * i);
                }
            }
        }
    }
    for (int st = 0; st < STATES; st++) {
        if (cost[cur][st] == none) continue;
        unsigned net = st & 3, w0 = (unsigned)(st >> 2) / RR_PERMS,
                 w1 = (unsigned)(st >> 2) % RR_PERMS;
        /* For one pair, w1 is the net itself and its phi the identity. */
        unsigned key = g->mul[w0][g->column[net]] + RR_PERMS * g->mul[w1][g->column[net]];
        if (cost[cur][st] < s->cost[key][net]) {
            s->cost[key][net] = cost[cur][st];
            s->choice[key][net] = choice[cur][st];
        }
    }
    double sum = 0;
    int count = 0;
    for (int key = 0; key < keys; key++) {
        int t0 = key % RR_PERMS, t1 = key / RR_PERMS;
        if (g->parity[t0] != (s->parity & 1)) continue;
        if (s->pairs == 2 && g->parity[t1] != (s->parity >> 1)) continue;
        int best = RR_COST_NONE;
        for (int n = 0; n < 4; n++)
            if (s->cost[key][n] < best) best = s->cost[key][n];
        if (best == RR_COST_NONE) return;
        sum += best;
        count++;
    }
    s->complete = 1;
    s->mean_cost = sum / count;
}
