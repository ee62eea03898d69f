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
    memset(s->cost, RR_COST_NONE, sizeof s->cost);
    memset(s->choice, 0, sizeof s->choice);
    s->len = (uint8_t)len;
    s->row_cost = 0;
    s->parity = 0;
    for (int i = 0; i < len; i++) {
        s->rows[i] = rows[i];
        s->row_cost = (uint8_t)(s->row_cost + (rows[i] == 3 ? 2 : 1));
        s->parity ^= rows[i] != 3;
    }
    /* Every choice of c_0..c_(len-1): 4^len <= 4096 words. */
    for (unsigned choice = 0; choice < (1u << (2 * len)); choice++) {
        uint8_t w = g->identity;
        unsigned net = 0, cost = 0;
        for (int i = 0; i < len; i++) {
            unsigned c = (choice >> (2 * i)) & 3;
            w = g->mul[g->mul[w][g->column[c]]][g->row[rows[i]]];
            net ^= c;
            cost += (c & 1) + (c >> 1);
        }
        uint8_t phi = g->mul[w][g->column[net]];
        if (cost < s->cost[phi][net]) {
            s->cost[phi][net] = (uint8_t)cost;
            s->choice[phi][net] = (uint16_t)choice;
        }
    }
}

int rubiks_rectangle_seq_complete(const rubiks_rectangle_group *g, const rubiks_rectangle_seq *s)
{
    for (int t = 0; t < RR_PERMS; t++) {
        if (g->parity[t] != s->parity) continue;
        int reached = 0;
        for (int n = 0; n < 4; n++) reached |= s->cost[t][n] != RR_COST_NONE;
        if (!reached) return 0;
    }
    return 1;
}
