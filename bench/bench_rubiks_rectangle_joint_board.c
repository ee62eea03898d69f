/* Rubik's Rectangle prototype (issue 13): whole 100 x 100 boards planned with blocks of k row
 * pairs sharing one given run (by default the solver's four-pair run), solved per block column by
 * a meet in the middle instead of a 24^k table (see bench_rubiks_rectangle_joint.c), with the
 * solver's carry DP over the column nets. Same boards as bench_rubiks_rectangle (generator and
 * seeds); every answer is replayed. Not the solver: one run per block size, no mirror images, no
 * cancelling of equal pairs, and pair orders only when asked for (below). Results in
 * RESULTS-rubiks-rectangle.md.
 *
 *   build/bench/bench_rubiks_rectangle_joint_board [boards=10] [fwd=4] [bwd=2] [run] [both]
 *                                                  [orders=1]
 *
 * run: the k-pair run as pair.rows tokens ("0.1 3.2 ..."; rows 1 top, 2 bottom), as printed by
 * bench_rubiks_rectangle_joint's climb ("" for the solver's four-pair run). Pairs left over at
 * the bottom get a two-pair run. both: hash both halves' sets of at most fwd flips and enumerate
 * at most bwd on each side against the other (the cheapest choice with at most fwd flips in
 * one half and bwd in the other, either way round; without both, fwd in the first half only).
 * orders: one round of coordinate descent tries that many pair orders per block (its own and random
 * ones), the other blocks held. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "bench_rubiks_rectangle_boards.h"

#include "rubiks_rectangle_group.h"

#define PAIRS 8
#define EVENTS 127  /* atom codes 1 + 2 slot + side fit 8 bits */
#define ATOMS_MAX 4 /* column flips in one half: 8-bit atom codes in a uint32 */
#define HASH_BITS 22
#define INF 1000

static rubiks_rectangle_group g;

typedef struct run {
    int k, len, h;
    uint8_t ev[EVENTS]; /* bits 0-1: rows, bits 2-4: pair */
    unsigned parity;    /* bit j: parity of pair j's row events */
    uint8_t prefix[EVENTS + 1][PAIRS];
    struct half_set {
        uint64_t *hkey; /* (words, net) + 1 -> cost, choice */
        uint8_t *hcost;
        uint32_t *hchoice;
        size_t used;
    } set[2]; /* choices before the events of the first half; of the second (both_ways) */
} run;

typedef struct half_set half_set;

/* Also look the first half's choices up in the second half's set: exact up to fwd + bwd flips
 * with at most fwd in either half instead of the first only. */
static bool both_ways;

static inline uint8_t segment(const run *r, int j, int a, int b)
{
    return g.mul[g.inverse[r->prefix[a][j]]][r->prefix[b][j]];
}

static inline uint64_t pack(const uint8_t *w, int k, unsigned net)
{
    uint64_t key = net;
    for (int j = 0; j < k; j++) key = key << 5 | w[j];
    return key;
}

static inline size_t slot_of(uint64_t key)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - HASH_BITS));
}

static void hash_put(half_set *r, uint64_t key, uint8_t cost, uint32_t choice)
{
    if (r->used > (3u << HASH_BITS) / 4) {
        fprintf(stderr, "the set of a half outgrows its table: fewer flips (fwd) or events\n");
        exit(2);
    }
    size_t s = slot_of(key);
    while (r->hkey[s] && r->hkey[s] != key + 1) s = (s + 1) & ((1u << HASH_BITS) - 1);
    if (!r->hkey[s]) r->used++;
    if (!r->hkey[s] || cost < r->hcost[s]) {
        r->hkey[s] = key + 1;
        r->hcost[s] = cost;
        r->hchoice[s] = choice;
    }
}

static inline long hash_find(const half_set *r, uint64_t key)
{
    size_t s = slot_of(key);
    while (r->hkey[s]) {
        if (r->hkey[s] == key + 1) return (long)s;
        s = (s + 1) & ((1u << HASH_BITS) - 1);
    }
    return -1;
}

typedef void (*visit_fn)(run *r, const uint8_t *w, unsigned net, int cost, uint32_t choice,
                         void *ctx);

/* Every choice of at most `left` more column flips at atoms >= atom (2 slot + side) up to event
 * end; choice lists the atoms taken (code atom + 1, 8 bits each). */
static void enumerate(run *r, const uint8_t *w, int pos, int end, int atom, unsigned net, int cost,
                      uint32_t choice, int left, visit_fn visit, void *ctx)
{
    uint8_t out[PAIRS];
    for (int j = 0; j < r->k; j++) out[j] = g.mul[w[j]][segment(r, j, pos, end)];
    visit(r, out, net, cost, choice, ctx);
    if (!left) return;
    for (int a = atom; a < 2 * end; a++) {
        int slot = a >> 1;
        unsigned c = 1u + (unsigned)(a & 1);
        uint8_t next[PAIRS];
        for (int j = 0; j < r->k; j++)
            next[j] = g.mul[g.mul[w[j]][segment(r, j, pos, slot)]][g.column[c]];
        enumerate(r, next, slot, end, a + 1, net ^ c, cost + 1,
                  choice | (uint32_t)(a + 1) << (8 * cost), left - 1, visit, ctx);
    }
}

static void put_forward(run *r, const uint8_t *w, unsigned net, int cost, uint32_t choice,
                        void *ctx)
{
    hash_put(ctx, pack(w, r->k, net), (uint8_t)cost, choice);
}

static bool run_init(run *r, int fwd)
{
    r->parity = 0;
    for (int j = 0; j < r->k; j++) r->prefix[0][j] = g.identity;
    for (int i = 0; i < r->len; i++) {
        for (int j = 0; j < r->k; j++) {
            uint8_t x = r->prefix[i][j];
            if ((r->ev[i] >> 2) == j) x = g.mul[x][g.row[r->ev[i] & 3]];
            r->prefix[i + 1][j] = x;
        }
        if ((r->ev[i] & 3) != 3) r->parity ^= 1u << (r->ev[i] >> 2);
    }
    r->h = r->len / 2;
    uint8_t id[PAIRS];
    for (int j = 0; j < r->k; j++) id[j] = g.identity;
    for (int half = 0; half < (both_ways ? 2 : 1); half++) {
        half_set *hs = &r->set[half];
        hs->hkey = calloc((size_t)1 << HASH_BITS, sizeof *hs->hkey);
        hs->hcost = malloc((size_t)1 << HASH_BITS);
        hs->hchoice = malloc(sizeof *hs->hchoice << HASH_BITS);
        if (!hs->hkey || !hs->hcost || !hs->hchoice) return false;
        if (half == 0)
            enumerate(r, id, 0, r->h, 0, 0, 0, 0, fwd, put_forward, hs);
        else
            enumerate(r, id, r->h, r->len, 2 * r->h, 0, 0, 0, fwd, put_forward, hs);
    }
    return true;
}

/* A query: for target t (per pair) and each of two totals G, the fewest column flips and their
 * atoms for each net n of the choice with w n G = t. */
typedef struct query {
    const uint8_t *t;
    unsigned G[2];
    int cost[2][4];
    uint32_t fchoice[2][4], bchoice[2][4];
} query;

static void try_backward(run *r, const uint8_t *w2, unsigned n2, int cost, uint32_t choice,
                         void *ctx)
{
    query *qy = ctx;
    for (int gi = 0; gi < 2; gi++)
        for (unsigned n1 = 0; n1 < 4; n1++) {
            unsigned n = n1 ^ n2;
            if (cost >= qy->cost[gi][n]) continue;
            uint8_t w1[PAIRS];
            for (int j = 0; j < r->k; j++)
                w1[j] = g.mul[g.mul[qy->t[j]][g.column[n ^ qy->G[gi]]]][g.inverse[w2[j]]];
            const half_set *hs = &r->set[0];
            long s = hash_find(hs, pack(w1, r->k, n1));
            if (s >= 0 && hs->hcost[s] + cost < qy->cost[gi][n]) {
                qy->cost[gi][n] = hs->hcost[s] + cost;
                qy->fchoice[gi][n] = hs->hchoice[s];
                qy->bchoice[gi][n] = choice;
            }
        }
}

/* The first half's choice (w1, n1) against the second half's set: w2 = w1^-1 t n G. */
static void try_forward(run *r, const uint8_t *w1, unsigned n1, int cost, uint32_t choice,
                        void *ctx)
{
    query *qy = ctx;
    const half_set *hs = &r->set[1];
    for (int gi = 0; gi < 2; gi++)
        for (unsigned n2 = 0; n2 < 4; n2++) {
            unsigned n = n1 ^ n2;
            if (cost >= qy->cost[gi][n]) continue;
            uint8_t w2[PAIRS];
            for (int j = 0; j < r->k; j++)
                w2[j] = g.mul[g.mul[g.inverse[w1[j]]][qy->t[j]]][g.column[n ^ qy->G[gi]]];
            long s = hash_find(hs, pack(w2, r->k, n2));
            if (s >= 0 && hs->hcost[s] + cost < qy->cost[gi][n]) {
                qy->cost[gi][n] = hs->hcost[s] + cost;
                qy->fchoice[gi][n] = choice;
                qy->bchoice[gi][n] = hs->hchoice[s];
            }
        }
}

static void run_query(run *r, query *qy, int bwd)
{
    for (int gi = 0; gi < 2; gi++)
        for (int n = 0; n < 4; n++) qy->cost[gi][n] = INF;
    uint8_t id[PAIRS];
    for (int j = 0; j < r->k; j++) id[j] = g.identity;
    enumerate(r, id, r->h, r->len, 2 * r->h, 0, 0, 0, bwd, try_backward, qy);
    if (both_ways) enumerate(r, id, 0, r->h, 0, 0, 0, 0, bwd, try_forward, qy);
    /* None found for a total within the split: once more with one more flip in the second
     * half, so that the carry DP always has a way on. */
    bool both = true;
    for (int gi = 0; gi < 2; gi++) {
        bool any = false;
        for (int n = 0; n < 4; n++) any |= qy->cost[gi][n] < INF;
        both &= any;
    }
    if (!both && bwd < ATOMS_MAX) run_query(r, qy, bwd + 1);
}

/* ---- move lists ---- */

typedef struct moves {
    int32_t *m;
    size_t n, cap;
} moves;

static void push(moves *l, int32_t mv)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->m = realloc(l->m, l->cap * sizeof *l->m);
    }
    l->m[l->n++] = mv;
}

/* ---- the plan ---- */

#define BLOCKS_MAX 64
#define QMAX 64

typedef struct plan_block {
    int first;
    run *r;
} plan_block;

/* Pair orders tried per block by the descent (1: the block's own order only). */
static int orders = 1;

static uint8_t tau[64 * QMAX];
/* [g0][block][q][G][a][n]: column flips and their atoms of block column q */
static int cost[2][BLOCKS_MAX][QMAX][2][4][4];
static uint32_t fch[2][BLOCKS_MAX][QMAX][2][4][4], bch[2][BLOCKS_MAX][QMAX][2][4][4];
static int cand_cost[QMAX][2][4][4];
static uint32_t cand_fch[QMAX][2][4][4], cand_bch[QMAX][2][4][4];

/* The two totals G of column pair q's parity. */
static void totals(int q, unsigned g0, unsigned gs[2])
{
    unsigned gpar = g.parity[tau[q]] ^ g.parity[tau[0]] ^ g0;
    gs[0] = gpar ? 1u : 0u;
    gs[1] = gpar ? 2u : 3u;
}

/* The prefix of a block laid in `order` (order[j]: the block's pair playing run pair j): a top-row
 * flip where the parities differ. */
static unsigned block_pre(const plan_block *bl, const uint8_t *order, int Q, unsigned g0)
{
    unsigned pre = 0;
    for (int j = 0; j < bl->r->k; j++) {
        unsigned par = g.parity[tau[(bl->first + order[j]) * Q]] ^ g0;
        if (par != ((bl->r->parity >> j) & 1)) pre |= 1u << j;
    }
    return pre;
}

/* The queries of one block in one order: target per pair P_j a tau a, w n G = target. */
static void block_queries(const plan_block *bl, const uint8_t *order, unsigned pre, int Q,
                          unsigned g0, int bwd, int (*c)[2][4][4], uint32_t (*fc)[2][4][4],
                          uint32_t (*bc)[2][4][4], long *queries)
{
    run *r = bl->r;
    for (int q = 0; q < Q; q++) {
        unsigned gs[2];
        totals(q, g0, gs);
        for (unsigned a = 0; a < 4; a++) {
            uint8_t t[PAIRS];
            for (int j = 0; j < r->k; j++) {
                uint8_t x = tau[(bl->first + order[j]) * Q + q];
                x = g.mul[g.mul[g.column[a]][x]][g.column[a]];
                if ((pre >> j) & 1) x = g.mul[g.row[1]][x];
                t[j] = x;
            }
            query qy = {.t = t, .G = {gs[0], gs[1]}};
            run_query(r, &qy, bwd);
            (*queries)++;
            for (int gi = 0; gi < 2; gi++)
                for (int n = 0; n < 4; n++) {
                    c[q][gi][a][n] = qy.cost[gi][n];
                    fc[q][gi][a][n] = qy.fchoice[gi][n];
                    bc[q][gi][a][n] = qy.bchoice[gi][n];
                }
        }
    }
}

static uint64_t order_rng_state;
static uint64_t order_rng(void)
{
    order_rng_state ^= order_rng_state << 13;
    order_rng_state ^= order_rng_state >> 7;
    order_rng_state ^= order_rng_state << 17;
    return order_rng_state;
}

/* Plans and emits one board (H, W even, H/2 = P row pairs); returns the moves. */
static void plan_board(const int32_t *cells, int H, int W, run *big, run *two, int bwd, moves *out,
                       long *queries)
{
    int P = H / 2, Q = W / 2;
    for (int p = 0; p < P; p++)
        for (int q = 0; q < Q; q++) {
            const int rr[2] = {p, H - 1 - p}, col[2] = {q, W - 1 - q};
            uint8_t state[4];
            for (int k = 0; k < 4; k++) {
                int v = cells[(size_t)rr[k >> 1] * W + col[k & 1]] - 1;
                state[k] = (uint8_t)((v / W == p ? 0 : 2) + (v % W == q ? 0 : 1));
            }
            tau[p * Q + q] = g.inverse[rubiks_rectangle_group_index(&g, state)];
        }
    plan_block bl[BLOCKS_MAX];
    int B = 0;
    for (int p = 0; p < P;) {
        int left = P - p;
        run *r = left >= big->k ? big : two;
        bl[B].first = p;
        bl[B].r = r;
        B++;
        p += r->k;
    }
    /* Best over the parity of G_0: the full plan for each, keep the cheaper. */
    long best_total = -1;
    unsigned best_g0 = 0;
    static unsigned pre[2][BLOCKS_MAX];
    static uint8_t order[2][BLOCKS_MAX][PAIRS];
    static unsigned path_g[2][QMAX];
    static uint8_t path_a[2][QMAX][BLOCKS_MAX + 1];
    static int fw[BLOCKS_MAX + 1][QMAX][2][4], bw[BLOCKS_MAX + 1][QMAX][2][4];
    for (unsigned g0 = 0; g0 < 2; g0++) {
        order_rng_state = 0x243F6A8885A308D3ull;
        for (int b = 0; b < B; b++) {
            for (int j = 0; j < bl[b].r->k; j++) order[g0][b][j] = (uint8_t)j;
            pre[g0][b] = block_pre(&bl[b], order[g0][b], Q, g0);
            block_queries(&bl[b], order[g0][b], pre[g0][b], Q, g0, bwd, cost[g0][b], fch[g0][b],
                          bch[g0][b], queries);
        }
        if (orders > 1) {
            /* One round of coordinate descent over the blocks' pair orders, the others held. */
            for (int q = 0; q < Q; q++) {
                unsigned gs[2];
                totals(q, g0, gs);
                for (int gi = 0; gi < 2; gi++)
                    for (unsigned a = 0; a < 4; a++) {
                        fw[0][q][gi][a] = a ? INF : 0;
                        bw[B][q][gi][a] = __builtin_popcount(a ^ gs[gi]);
                    }
                for (int b = B - 1; b >= 0; b--)
                    for (int gi = 0; gi < 2; gi++)
                        for (unsigned a = 0; a < 4; a++) {
                            int m = INF;
                            for (unsigned n = 0; n < 4; n++) {
                                int v = cost[g0][b][q][gi][a][n] + bw[b + 1][q][gi][a ^ n];
                                if (v < m) m = v;
                            }
                            bw[b][q][gi][a] = m;
                        }
            }
            for (int b = 0; b < B; b++) {
                if (bl[b].r->k < 3) goto advance;
                long best = -1;
                for (int o = 0; o < orders; o++) {
                    uint8_t ord[PAIRS];
                    int k = bl[b].r->k;
                    for (int j = 0; j < k; j++) ord[j] = (uint8_t)j;
                    if (o > 0)
                        for (int j = k - 1; j > 0; j--) {
                            int x = (int)(order_rng() % (unsigned)(j + 1));
                            uint8_t t = ord[j];
                            ord[j] = ord[x];
                            ord[x] = t;
                        }
                    unsigned pr = block_pre(&bl[b], ord, Q, g0);
                    block_queries(&bl[b], ord, pr, Q, g0, bwd, cand_cost, cand_fch, cand_bch,
                                  queries);
                    long v = __builtin_popcount(pr);
                    for (int q = 0; q < Q; q++) {
                        int m = INF;
                        for (int gi = 0; gi < 2; gi++)
                            for (unsigned a = 0; a < 4; a++) {
                                if (fw[b][q][gi][a] >= INF) continue;
                                for (unsigned n = 0; n < 4; n++) {
                                    int x = fw[b][q][gi][a] + cand_cost[q][gi][a][n] +
                                            bw[b + 1][q][gi][a ^ n];
                                    if (x < m) m = x;
                                }
                            }
                        v += m;
                    }
                    if (best < 0 || v < best) {
                        best = v;
                        memcpy(order[g0][b], ord, sizeof ord);
                        pre[g0][b] = pr;
                        memcpy(cost[g0][b], cand_cost, sizeof cand_cost);
                        memcpy(fch[g0][b], cand_fch, sizeof cand_fch);
                        memcpy(bch[g0][b], cand_bch, sizeof cand_bch);
                    }
                }
            advance:
                for (int q = 0; q < Q; q++)
                    for (int gi = 0; gi < 2; gi++) {
                        for (unsigned a = 0; a < 4; a++) fw[b + 1][q][gi][a] = INF;
                        for (unsigned a = 0; a < 4; a++) {
                            if (fw[b][q][gi][a] >= INF) continue;
                            for (unsigned n = 0; n < 4; n++) {
                                int x = fw[b][q][gi][a] + cost[g0][b][q][gi][a][n];
                                if (x < fw[b + 1][q][gi][a ^ n]) fw[b + 1][q][gi][a ^ n] = x;
                            }
                        }
                    }
            }
        }
        long total = 0;
        for (int b = 0; b < B; b++) {
            total += __builtin_popcount(pre[g0][b]);
            for (int i = 0; i < bl[b].r->len; i++) total += (bl[b].r->ev[i] & 3) == 3 ? 2 : 1;
        }
        for (int q = 0; q < Q; q++) {
            unsigned gs[2];
            totals(q, g0, gs);
            /* the carry DP for each total G of the right parity */
            long best_q = -1;
            for (int gi = 0; gi < 2; gi++) {
                unsigned G = gs[gi];
                int f[BLOCKS_MAX + 1][4];
                uint8_t back[BLOCKS_MAX + 1][4];
                for (int a = 0; a < 4; a++) f[0][a] = a ? INF : 0;
                for (int b = 0; b < B; b++) {
                    for (int a = 0; a < 4; a++) f[b + 1][a] = INF;
                    for (unsigned a = 0; a < 4; a++) {
                        if (f[b][a] >= INF) continue;
                        for (unsigned n = 0; n < 4; n++) {
                            int c = cost[g0][b][q][gi][a][n];
                            if (c >= INF) continue;
                            if (f[b][a] + c < f[b + 1][a ^ n]) {
                                f[b + 1][a ^ n] = f[b][a] + c;
                                back[b + 1][a ^ n] = (uint8_t)a;
                            }
                        }
                    }
                }
                for (unsigned a = 0; a < 4; a++) {
                    if (f[B][a] >= INF) continue;
                    long v = f[B][a] + __builtin_popcount(a ^ G);
                    if (best_q < 0 || v < best_q) {
                        best_q = v;
                        path_g[g0][q] = (unsigned)gi;
                        unsigned x = a;
                        path_a[g0][q][B] = (uint8_t)x;
                        for (int b = B; b > 0; b--) {
                            x = back[b][x];
                            path_a[g0][q][b - 1] = (uint8_t)x;
                        }
                    }
                }
            }
            if (best_q < 0) {
                fprintf(stderr, "column pair %d: no plan\n", q);
                exit(1);
            }
            total += best_q;
        }
        if (best_total < 0 || total < best_total) {
            best_total = total;
            best_g0 = g0;
        }
    }
    /* Emit. */
    unsigned g0 = best_g0;
    for (int b = 0; b < B; b++) {
        run *r = bl[b].r;
        int p0 = bl[b].first;
        const uint8_t *ord = order[g0][b];
        for (int j = 0; j < r->k; j++)
            if ((pre[g0][b] >> j) & 1) push(out, p0 + ord[j] + 1);
        for (int i = 0; i < r->len; i++) {
            for (int q = 0; q < Q; q++) {
                unsigned a = path_a[g0][q][b], n = a ^ path_a[g0][q][b + 1];
                unsigned gi = path_g[g0][q];
                uint32_t chs[2] = {fch[g0][b][q][gi][a][n], bch[g0][b][q][gi][a][n]};
                for (int s = 0; s < 2; s++)
                    for (uint32_t ch = chs[s]; ch; ch >>= 8) {
                        int atom = (int)(ch & 255) - 1;
                        if (atom >> 1 != i) continue;
                        push(out, (atom & 1) ? -(W - q) : -(q + 1));
                    }
            }
            int p = p0 + ord[r->ev[i] >> 2], rows = r->ev[i] & 3;
            if (rows & 1) push(out, p + 1);
            if (rows & 2) push(out, H - p);
        }
    }
    for (int q = 0; q < Q; q++) {
        unsigned gs[2];
        totals(q, g0, gs);
        unsigned fin = path_a[g0][q][B] ^ gs[path_g[g0][q]];
        if (fin & 1) push(out, -(q + 1));
        if (fin & 2) push(out, -(W - q));
    }
}

static int parse_run(run *r, const char *text)
{
    r->len = r->k = 0;
    for (const char *p = text; *p && r->len < EVENTS;) {
        unsigned pair = 0;
        int rows = 0, used = 0;
        if (sscanf(p, "%x.%d%n", &pair, &rows, &used) != 2) break;
        r->ev[r->len++] = (uint8_t)(pair << 2 | (unsigned)rows);
        if ((int)pair + 1 > r->k) r->k = (int)pair + 1;
        p += used;
        while (*p == ' ') p++;
    }
    return r->len;
}

int main(int argc, char **argv)
{
    int boards = argc > 1 ? atoi(argv[1]) : 10;
    int fwd = argc > 2 ? atoi(argv[2]) : 4, bwd = argc > 3 ? atoi(argv[3]) : 2;
    both_ways = argc > 5 && !strcmp(argv[5], "both");
    orders = argc > 6 ? atoi(argv[6]) : 1;
    if (orders < 1) orders = 1;
    if (fwd < 0 || fwd > ATOMS_MAX || bwd < 0 || bwd > ATOMS_MAX) {
        fprintf(stderr, "fwd and bwd: 0..%d column flips per half\n", ATOMS_MAX);
        return 2;
    }
    rubiks_rectangle_group_init(&g);
    static run big, two;
    if (argc > 4 && argv[4][0]) {
        if (!parse_run(&big, argv[4]) || big.k > PAIRS || big.k > 50) {
            fprintf(stderr, "run: pair.rows tokens of at most %d pairs\n", PAIRS);
            return 2;
        }
    } else {
        /* the solver's four-pair run, for comparison */
        static const char *quad = "d5ad6e52a5d21ea562e6de95da652ea2d51e";
        for (const char *p = quad; *p; p++) {
            int v = *p <= '9' ? *p - '0' : *p - 'a' + 10;
            big.ev[big.len++] = (uint8_t)v;
            if ((v >> 2) + 1 > big.k) big.k = (v >> 2) + 1;
        }
    }
    /* a joint two-pair run of the solver's catalogue */
    {
        static const char *joint = "12526515215165";
        for (const char *p = joint; *p; p++) {
            int v = *p - '0';
            two.ev[two.len++] = (uint8_t)v;
        }
        two.k = 2;
    }
    double t0 = cpu_ms();
    if (!run_init(&big, fwd) || !run_init(&two, fwd)) return 1;
    printf("runs k=%d L=%d and k=2 L=%d: forward sets %.0f ms cpu\n", big.k, big.len, two.len,
           cpu_ms() - t0);
    double sum = 0, cpu = 0;
    size_t lo = (size_t)-1, hi = 0;
    for (int k = 0; k < boards; k++) {
        int32_t *cells = scrambled(100, 100, 4000);
        moves out = {0};
        long queries = 0;
        double c0 = cpu_ms();
        plan_board(cells, 100, 100, &big, &two, bwd, &out, &queries);
        cpu += cpu_ms() - c0;
        for (size_t i = 0; i < out.n; i++) flip(cells, 100, 100, out.m[i]);
        for (int i = 0; i < 100 * 100; i++)
            if (cells[i] != i + 1) {
                fprintf(stderr, "board %d: not sorted\n", k);
                return 1;
            }
        printf("board %d: %zu flips (%ld queries)\n", k, out.n, queries);
        fflush(stdout);
        sum += (double)out.n;
        if (out.n < lo) lo = out.n;
        if (out.n > hi) hi = out.n;
        free(out.m);
        free(cells);
    }
    printf("%d boards: mean %.1f flips (min %zu, max %zu), %.0f ms cpu per board\n", boards,
           sum / boards, lo, hi, cpu / boards);
    return 0;
}
