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

bool rubiks_rectangle_seq_init(const rubiks_rectangle_group *g, const uint8_t *rows, int len,
                               int pairs, rubiks_rectangle_seq *s, budget *b)
{
    s->len = (uint8_t)len;
    s->pairs = 1;
    s->complete = 0;
    s->mean_cost = 0;
    s->row_cost = 0;
    s->parity = 0;
    s->cost = NULL;
    s->choice = NULL;
    for (int i = 0; i < len; i++) {
        s->rows[i] = rows[i];
        int bits = rows[i] & 3, pair = RR_ROW_PAIR(rows[i]);
        if (pair + 1 > s->pairs) s->pairs = (uint8_t)(pair + 1);
        s->row_cost = (uint8_t)(s->row_cost + (bits == 3 ? 2 : 1));
        if (bits != 3) s->parity ^= (uint8_t)(1 << pair);
    }
    /* The table covers `pairs` pairs even when the run names fewer: the empty run serves blocks
     * of any size. */
    int n = pairs > s->pairs ? pairs : s->pairs;
    unsigned keys = 1;
    for (int j = 0; j < n; j++) keys *= RR_PERMS;
    s->keys = keys;
    /* Cheapest choice of c_0..c_(len-1) for every end state (w_0..w_(n-1), net), layer by layer:
     * 24^n * 4 states and 4 choices per layer instead of all 4^len words. */
    size_t states = (size_t)keys * 4;
    s->cost = malloc(keys * sizeof *s->cost);
    s->choice = malloc(keys * sizeof *s->choice);
    uint8_t *cost[2] = {malloc(states), malloc(states)};
    uint64_t *choice[2] = {malloc(states * sizeof(uint64_t)), malloc(states * sizeof(uint64_t))};
    bool ok = s->cost && s->choice && cost[0] && cost[1] && choice[0] && choice[1];
    if (!ok) goto done;
    memset(s->cost, RR_COST_NONE, keys * sizeof *s->cost);
    memset(s->choice, 0, keys * sizeof *s->choice);
    static const uint8_t none = RR_COST_NONE;
    unsigned id = 0;
    for (int j = 0; j < n; j++) id = id * RR_PERMS + g->identity;
    memset(cost[0], none, states);
    cost[0][(size_t)id * 4] = 0;
    choice[0][(size_t)id * 4] = 0;
    int cur = 0;
    for (int i = 0; i < len; i++, cur ^= 1) {
        /* A layer of a four-pair table takes milliseconds: look at the clock each time. */
        if (b && budget_expired_now(b)) {
            ok = false;
            goto done;
        }
        memset(cost[cur ^ 1], none, states);
        int pair = RR_ROW_PAIR(rows[i]);
        uint8_t x = g->row[rows[i] & 3];
        /* step[j][w][c]: digit j's next value; its weight 24^j is folded in, so a state's
         * successor is a sum of table reads. */
        unsigned step[RR_PAIRS_MAX][RR_PERMS][4];
        for (int j = 0, weight = 1; j < n; j++, weight *= RR_PERMS)
            for (unsigned w = 0; w < RR_PERMS; w++)
                for (unsigned c = 0; c < 4; c++) {
                    unsigned v = g->mul[w][g->column[c]];
                    if (j == pair) v = g->mul[v][x];
                    step[j][w][c] = v * (unsigned)weight * 4;
                }
        for (size_t st = 0; st < states; st++) {
            if (cost[cur][st] == none) continue;
            unsigned net = st & 3, w[RR_PAIRS_MAX];
            unpack((unsigned)(st >> 2), n, w);
            for (unsigned c = 0; c < 4; c++) {
                size_t at = net ^ c;
                for (int j = 0; j < n; j++) at += step[j][w[j]][c];
                unsigned had = cost[cur][st], cc = had + (c & 1) + (c >> 1);
                if (cc > RR_CHOICE_FLIPS || cc >= cost[cur ^ 1][at]) continue;
                uint64_t ch = choice[cur][st];
                if (c & 1) ch |= (uint64_t)(1 + 2 * i) << (7 * had++);
                if (c & 2) ch |= (uint64_t)(2 + 2 * i) << (7 * had);
                cost[cur ^ 1][at] = (uint8_t)cc;
                choice[cur ^ 1][at] = ch;
            }
        }
    }
    for (size_t st = 0; st < states; st++) {
        if (cost[cur][st] == none) continue;
        unsigned net = st & 3, w[RR_PAIRS_MAX], key = 0;
        unpack((unsigned)(st >> 2), n, w);
        /* A pair the run does not name has w = its net, and phi the identity. */
        for (int j = n - 1; j >= 0; j--) key = key * RR_PERMS + g->mul[w[j]][g->column[net]];
        if (cost[cur][st] < s->cost[key][net]) {
            s->cost[key][net] = cost[cur][st];
            s->choice[key][net] = choice[cur][st];
        }
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
        if (best == RR_COST_NONE) goto done;
        sum += best;
        count++;
    }
    s->complete = 1;
    s->mean_cost = sum / count;
done:
    free(cost[0]);
    free(cost[1]);
    free(choice[0]);
    free(choice[1]);
    return ok;
}

void rubiks_rectangle_seq_free(rubiks_rectangle_seq *s)
{
    free(s->cost);
    free(s->choice);
    s->cost = NULL;
    s->choice = NULL;
}
