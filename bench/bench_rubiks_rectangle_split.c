/* Rubik's Rectangle prototype (issue 13, sixth attempt): do blocks of four row pairs need fewer
 * column flips when their run is split and column flips made elsewhere land between the parts?
 * A block's orbits then see, between its own row events, the net (in V) of the column flips of
 * other blocks: information the solver gets without paying for it, if the plan lines it up.
 *
 *   build/bench/bench_rubiks_rectangle_split free [at ...]   # free nets before events at ...
 *   build/bench/bench_rubiks_rectangle_split chain [at=18] [blocks=13] [columns=2000]
 *   build/bench/bench_rubiks_rectangle_split unit [seg=3] [units=6] [columns=10]
 *
 * free:  an upper bound. Before each listed event of the solver's four-pair run any net of V is
 *        applied for nothing; prints the mean column flips per block column (the least over the
 *        block's net n, keys phi = w n as in rubiks_rectangle_group.h) and its histogram.
 * chain: random block columns of a column pair (targets tau, column net G, the carry DP of
 *        rubiks_rectangle.c) planned three ways, each exactly for the column: the runs one after
 *        another (today), staggered (b1.1 b2.1 b1.2 b3.1 b2.2 ...: each block's run is cut before
 *        event `at`, and its neighbours' parts lie in the cut), and in two sweeps (every first
 *        part, then every second part). The cut's table has 24^4 x 64 entries (21 MB).
 * unit:  two blocks interleaved in parts of `seg` events as one run of eight pairs, solved per
 *        column by iterative deepening with each block's exact suffix table as the bound.
 * Each prints column flips per block column. Targets come from a fixed xorshift seed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"

#include "rubiks_rectangle_group.h"

#define KEYS 331776 /* 24^4: the states of a block's four orbits */
#define NONE 255
#define RUN_MAX 48

/* The solver's four-pair run (rubiks_rectangle_runs.c). */
static const char *const quad_run = "d5ad6e52a5d21ea562e6de95da652ea2d51e";

static rubiks_rectangle_group g;
static int run_len, run_pair[RUN_MAX], row_parity[4];
static uint8_t run_x[RUN_MAX];
static const int pow24[4] = {1, 24, 576, 13824};

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static inline int part(int w, int j)
{
    return w / pow24[j] % 24;
}

/* Every orbit of the block: w c (right) or c w (left). */
static inline int times_right(int w, uint8_t c)
{
    int r = 0;
    for (int j = 0; j < 4; j++) r += g.mul[part(w, j)][c] * pow24[j];
    return r;
}

static inline int times_left(uint8_t c, int w)
{
    int r = 0;
    for (int j = 0; j < 4; j++) r += g.mul[c][part(w, j)] * pow24[j];
    return r;
}

/* Every orbit home: (e, e, e, e). */
static inline int identity_state(void)
{
    return g.identity * (1 + 24 + 576 + 13824);
}

static inline int row_event(int w, int i)
{
    int s = part(w, run_pair[i]);
    return w + (g.mul[s][run_x[i]] - s) * pow24[run_pair[i]];
}

static void parse_run(void)
{
    run_len = (int)strlen(quad_run);
    for (int i = 0; i < run_len; i++) {
        char ch = quad_run[i];
        int d = ch <= '9' ? ch - '0' : ch - 'a' + 10;
        run_pair[i] = RR_ROW_PAIR(d);
        run_x[i] = g.row[d & 3];
        if ((d & 3) != 3) row_parity[run_pair[i]] ^= 1;
    }
}

/* ---- forward tables: fewest column flips from the identity to (w, sub) ---- */

/* sub packs the nets the experiment records; a column choice c is XORed in at bit `shift`. */
typedef struct layers {
    int subs;
    uint8_t *cur, *next;
} layers;

static void layers_init(layers *l, int subs)
{
    l->subs = subs;
    l->cur = malloc((size_t)KEYS * subs);
    l->next = malloc((size_t)KEYS * subs);
    if (!l->cur || !l->next) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    memset(l->cur, NONE, (size_t)KEYS * subs);
    l->cur[(size_t)identity_state() * subs] = 0;
}

static void layers_swap(layers *l)
{
    uint8_t *t = l->cur;
    l->cur = l->next;
    l->next = t;
}

/* A column choice (paid: one flip per column) or, when `free_net`, a net that costs nothing;
 * either is recorded at bit `shift` of sub (shift < 0: not recorded). */
static void layers_column(layers *l, int shift, int free_net)
{
    memset(l->next, NONE, (size_t)KEYS * l->subs);
    for (int w = 0; w < KEYS; w++)
        for (int s = 0; s < l->subs; s++) {
            int cost = l->cur[(size_t)w * l->subs + s];
            if (cost == NONE) continue;
            for (int c = 0; c < 4; c++) {
                int k = cost + (free_net ? 0 : __builtin_popcount((unsigned)c));
                int s2 = shift < 0 ? s : s ^ c << shift;
                uint8_t *d = &l->next[(size_t)times_right(w, g.column[c]) * l->subs + s2];
                if (k < *d) *d = (uint8_t)k;
            }
        }
    layers_swap(l);
}

static void layers_row(layers *l, int i)
{
    memset(l->next, NONE, (size_t)KEYS * l->subs);
    for (int w = 0; w < KEYS; w++)
        memcpy(&l->next[(size_t)row_event(w, i) * l->subs], &l->cur[(size_t)w * l->subs],
               (size_t)l->subs);
    layers_swap(l);
}

static void layers_free(layers *l)
{
    free(l->cur);
    free(l->next);
}

/* ---- free: nets for nothing before some events ---- */

static int run_free(int argc, char **argv)
{
    int at[8], ats = 0;
    for (int a = 2; a < argc && ats < 8; a++) at[ats++] = atoi(argv[a]);
    layers l;
    layers_init(&l, 4);
    for (int i = 0; i < run_len; i++) {
        for (int a = 0; a < ats; a++)
            if (at[a] == i) layers_column(&l, -1, 1);
        layers_column(&l, 0, 0);
        layers_row(&l, i);
    }
    /* best[key]: the fewest flips over the nets, key = w n */
    static uint8_t best[KEYS];
    memset(best, NONE, sizeof best);
    for (int w = 0; w < KEYS; w++)
        for (int n = 0; n < 4; n++) {
            int cost = l.cur[(size_t)w * 4 + n];
            uint8_t *d = &best[times_right(w, g.column[n])];
            if (cost != NONE && cost < *d) *d = (uint8_t)cost;
        }
    long count = 0, sum = 0, histogram[8] = {0};
    for (int k = 0; k < KEYS; k++)
        if (best[k] != NONE) {
            count++;
            sum += best[k];
            histogram[best[k] < 7 ? best[k] : 7]++;
        }
    printf("free nets before");
    for (int a = 0; a < ats; a++) printf(" %d", at[a]);
    printf(": %.4f column flips per block column over %ld reachable keys\n",
           (double)sum / (double)count, count);
    for (int c = 0; c < 8; c++) printf("  %d: %ld", c, histogram[c]);
    printf("\n");
    layers_free(&l);
    return 0;
}

/* ---- chain: the column DP over blocks, three ways ---- */

#define BIG (1 << 28)

static uint8_t *table_whole; /* [key * 4 + n] */
static uint8_t *table_cut;   /* [key * 64 + (h1 << 4 | g << 2 | h2)] */

/* Both tables from one pass: a run cut before event `at` with a free net g in the cut; the
 * entries with g = e are the uncut run's. */
static void build_tables(int at)
{
    layers l;
    layers_init(&l, 64);
    for (int i = 0; i < run_len; i++) {
        if (i == at) layers_column(&l, 2, 1);
        layers_column(&l, i < at ? 4 : 0, 0);
        layers_row(&l, i);
    }
    table_cut = malloc((size_t)KEYS * 64);
    table_whole = malloc((size_t)KEYS * 4);
    if (!table_cut || !table_whole) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    memset(table_cut, NONE, (size_t)KEYS * 64);
    memset(table_whole, NONE, (size_t)KEYS * 4);
    for (int w = 0; w < KEYS; w++)
        for (int s = 0; s < 64; s++) {
            int cost = l.cur[(size_t)w * 64 + s];
            if (cost == NONE) continue;
            int h1 = s >> 4, gap = s >> 2 & 3, h2 = s & 3,
                key = times_right(w, g.column[h1 ^ gap ^ h2]);
            uint8_t *d = &table_cut[(size_t)key * 64 + s];
            if (cost < *d) *d = (uint8_t)cost;
            if (gap) continue;
            d = &table_whole[(size_t)key * 4 + (h1 ^ h2)];
            if (cost < *d) *d = (uint8_t)cost;
        }
    layers_free(&l);
}

/* Random targets of one column pair: every block's orbits with the parities its run allows. */
static void random_targets(int *tau, int blocks)
{
    int parity = (int)(rng() & 1);
    for (int b = 0; b < blocks; b++) {
        int k = 0;
        for (int j = 0; j < 4; j++) {
            int s;
            do s = (int)(rng() % 24);
            while (g.parity[s] != ((row_parity[j] + parity) & 1));
            k += s * pow24[j];
        }
        tau[b] = k;
    }
}

/* The key of a block's orbits after the column net A (rubiks_rectangle.c: A tau G A). */
static inline int block_key(int tau, int a, int total)
{
    return times_right(times_left(g.column[a], tau), g.column[total ^ a]);
}

static int plan_whole(const int *tau, int blocks, int total)
{
    int dp[4] = {0, BIG, BIG, BIG};
    for (int b = 0; b < blocks; b++) {
        int next[4] = {BIG, BIG, BIG, BIG};
        for (int a = 0; a < 4; a++) {
            if (dp[a] >= BIG) continue;
            const uint8_t *t = &table_whole[(size_t)block_key(tau[b], a, total) * 4];
            for (int n = 0; n < 4; n++)
                if (t[n] != NONE && dp[a] + t[n] < next[a ^ n]) next[a ^ n] = dp[a] + t[n];
        }
        memcpy(dp, next, sizeof dp);
    }
    return dp[total];
}

/* Staggered, in the order b1.1 b2.1 b1.2 b3.1 b2.2 ...: block b's cut holds (b-1).2 and
 * (b+1).1. State before block b: (P_b, the net before b.1; h of (b-1).2; h of b.1 and of b.2,
 * chosen a step ahead). Block b is paid once h of (b+1).1, the rest of its cut, is chosen. */
static int plan_staggered(const int *tau, int blocks, int total)
{
    static int dp[256], next[256];
    for (int i = 0; i < 256; i++) dp[i] = BIG;
    for (int s = 0; s < 16; s++) dp[s] = 0; /* P_0 = e, no part before, h(0).1 and h(0).2 */
    for (int b = 0; b < blocks; b++) {
        for (int i = 0; i < 256; i++) next[i] = BIG;
        int keys[4];
        for (int a = 0; a < 4; a++) keys[a] = block_key(tau[b], a, total);
        bool last = b == blocks - 1;
        for (int s = 0; s < 256; s++) {
            if (dp[s] >= BIG) continue;
            int p = s >> 6, before = s >> 4 & 3, h1 = s >> 2 & 3, h2 = s & 3;
            const uint8_t *t = &table_cut[(size_t)keys[p] * 64 + h1 * 16];
            int p_next = p ^ h1 ^ before; /* before (b+1).1: P_b, b.1, (b-1).2 */
            for (int n1 = 0; n1 < (last ? 1 : 4); n1++) {
                int cost = t[(before ^ n1) * 4 + h2];
                if (cost == NONE) continue;
                for (int n2 = 0; n2 < (last ? 1 : 4); n2++) {
                    int ns = p_next << 6 | h2 << 4 | n1 << 2 | n2;
                    if (dp[s] + cost < next[ns]) next[ns] = dp[s] + cost;
                }
            }
        }
        memcpy(dp, next, sizeof dp);
    }
    int best = BIG;
    for (int s = 0; s < 256; s++) /* the whole net: P after the last block plus its h(.).2 */
        if (dp[s] < best && ((s >> 6) ^ (s >> 4 & 3)) == total) best = dp[s];
    return best;
}

/* Two sweeps: every block's first part, then every second part. State (net before b.1, net
 * before b.2); the second sweep starts where the first ends (guessed, then checked). */
static int plan_sweeps(const int *tau, int blocks, int total)
{
    int best = BIG;
    for (int guess = 0; guess < 4; guess++) {
        int dp[16], next[16];
        for (int i = 0; i < 16; i++) dp[i] = BIG;
        dp[guess] = 0;
        for (int b = 0; b < blocks; b++) {
            for (int i = 0; i < 16; i++) next[i] = BIG;
            for (int s = 0; s < 16; s++) {
                if (dp[s] >= BIG) continue;
                int p1 = s >> 2, p2 = s & 3;
                const uint8_t *t = &table_cut[(size_t)block_key(tau[b], p1, total) * 64];
                for (int h1 = 0; h1 < 4; h1++)
                    for (int h2 = 0; h2 < 4; h2++) {
                        int cost = t[h1 * 16 + (p2 ^ p1 ^ h1) * 4 + h2];
                        int ns = (p1 ^ h1) << 2 | (p2 ^ h2);
                        if (cost != NONE && dp[s] + cost < next[ns]) next[ns] = dp[s] + cost;
                    }
            }
            memcpy(dp, next, sizeof dp);
        }
        if (dp[guess << 2 | total] < best) best = dp[guess << 2 | total];
    }
    return best;
}

static int run_chain(int argc, char **argv)
{
    int at = argc > 2 ? atoi(argv[2]) : 18;
    int blocks = argc > 3 ? atoi(argv[3]) : 13;
    int columns = argc > 4 ? atoi(argv[4]) : 2000;
    if (at < 1 || at >= run_len || blocks < 2 || blocks > 64 || columns < 1) {
        fprintf(stderr, "at 1..%d, blocks 2..64, columns >= 1\n", run_len - 1);
        return 2;
    }
    double t0 = cpu_ms();
    build_tables(at);
    double built = cpu_ms() - t0;
    long sum[3] = {0, 0, 0};
    int tau[64];
    for (int c = 0; c < columns; c++) {
        random_targets(tau, blocks);
        int best[3] = {BIG, BIG, BIG};
        for (int total = 0; total < 4; total++) {
            int v[3] = {plan_whole(tau, blocks, total), plan_staggered(tau, blocks, total),
                        plan_sweeps(tau, blocks, total)};
            for (int k = 0; k < 3; k++)
                if (v[k] < best[k]) best[k] = v[k];
        }
        for (int k = 0; k < 3; k++) sum[k] += best[k];
    }
    double per = (double)columns * blocks;
    printf("cut before event %d, %d blocks, %d columns: column flips per block column: runs one "
           "after another %.4f, staggered %.4f, two sweeps %.4f (tables %.0f ms CPU)\n",
           at, blocks, columns, (double)sum[0] / per, (double)sum[1] / per, (double)sum[2] / per,
           built);
    return 0;
}

/* ---- unit: two blocks interleaved, searched per column ---- */

/* suffix[i][phi]: fewest column flips from the gap before event i to the end of the run for a
 * remainder M (the block's orbits' words from there) with M n_M = phi. */
static uint8_t *suffix;
static int unit_len, unit_block[2 * RUN_MAX], unit_event[2 * RUN_MAX];
static int unit_key[2], unit_net;
static long unit_nodes;

static void build_suffix(void)
{
    suffix = malloc((size_t)(run_len + 1) * KEYS);
    if (!suffix) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    memset(suffix, NONE, (size_t)(run_len + 1) * KEYS);
    suffix[(size_t)run_len * KEYS + identity_state()] = 0;
    for (int i = run_len - 1; i >= 0; i--) {
        const uint8_t *from = suffix + (size_t)(i + 1) * KEYS;
        uint8_t *to = suffix + (size_t)i * KEYS;
        for (int psi = 0; psi < KEYS; psi++) {
            if (from[psi] == NONE) continue;
            int s = part(psi, run_pair[i]);
            int x = psi + (g.mul[run_x[i]][s] - s) * pow24[run_pair[i]]; /* X_i psi */
            for (int c = 0; c < 4; c++) {
                int phi = times_right(times_left(g.column[c], x), g.column[c]);
                int k = from[psi] + __builtin_popcount((unsigned)c);
                if (k < to[phi]) to[phi] = (uint8_t)k;
            }
        }
    }
}

/* The bound for block h at its gap i: suffix[i][w^-1 key n]. */
static inline int unit_bound(int h, int i, const uint8_t *w, int n)
{
    int phi = 0;
    for (int j = 0; j < 4; j++)
        phi += g.mul[g.mul[g.inverse[w[j]]][part(unit_key[h], j)]][g.column[n]] * pow24[j];
    return suffix[(size_t)i * KEYS + phi];
}

static bool unit_search(int t, const uint8_t *w, int n, int used, int limit, int *next_event)
{
    unit_nodes++;
    int b0 = unit_bound(0, next_event[0], w, n), b1 = unit_bound(1, next_event[1], w + 4, n);
    if (used + (b0 > b1 ? b0 : b1) > limit) return false;
    if (t == unit_len) {
        if (n != unit_net) return false;
        for (int j = 0; j < 8; j++)
            if (g.mul[w[j]][g.column[n]] != part(unit_key[j >> 2], j & 3)) return false;
        return true;
    }
    for (int c = 0; c < 4; c++) {
        int k = used + __builtin_popcount((unsigned)c);
        if (k > limit) continue;
        uint8_t v[8];
        for (int j = 0; j < 8; j++) v[j] = g.mul[w[j]][g.column[c]];
        int h = unit_block[t], i = unit_event[t];
        v[4 * h + run_pair[i]] = g.mul[v[4 * h + run_pair[i]]][run_x[i]];
        next_event[h]++;
        bool found = unit_search(t + 1, v, n ^ c, k, limit, next_event);
        next_event[h]--;
        if (found) return true;
    }
    return false;
}

static int unit_cost(int key0, int key1, int net)
{
    unit_key[0] = key0;
    unit_key[1] = key1;
    unit_net = net;
    uint8_t w[8];
    memset(w, g.identity, sizeof w);
    for (int limit = 0; limit <= 12; limit++) {
        int next_event[2] = {0, 0};
        if (unit_search(0, w, 0, 0, limit, next_event)) return limit;
    }
    return BIG;
}

static int run_unit(int argc, char **argv)
{
    int seg = argc > 2 ? atoi(argv[2]) : 3;
    int units = argc > 3 ? atoi(argv[3]) : 6;
    int columns = argc > 4 ? atoi(argv[4]) : 10;
    if (seg < 1 || units < 1 || units > 32 || columns < 1) {
        fprintf(stderr, "seg >= 1, units 1..32, columns >= 1\n");
        return 2;
    }
    build_tables(run_len / 2); /* the whole run's table for the comparison */
    build_suffix();
    unit_len = 0;
    for (int a = 0, b = 0; a < run_len || b < run_len;) {
        for (int k = 0; k < seg && a < run_len; k++, unit_len++)
            unit_block[unit_len] = 0, unit_event[unit_len] = a++;
        for (int k = 0; k < seg && b < run_len; k++, unit_len++)
            unit_block[unit_len] = 1, unit_event[unit_len] = b++;
    }
    int blocks = 2 * units, tau[64];
    long sum_whole = 0, sum_unit = 0;
    double t0 = cpu_ms();
    unit_nodes = 0;
    for (int c = 0; c < columns; c++) {
        random_targets(tau, blocks);
        int best_whole = BIG, best_unit = BIG;
        for (int total = 0; total < 4; total++) {
            int v = plan_whole(tau, blocks, total);
            if (v < best_whole) best_whole = v;
            int dp[4] = {0, BIG, BIG, BIG};
            for (int u = 0; u < units; u++) {
                int next[4] = {BIG, BIG, BIG, BIG};
                for (int a = 0; a < 4; a++) {
                    if (dp[a] >= BIG) continue;
                    int k0 = block_key(tau[2 * u], a, total),
                        k1 = block_key(tau[2 * u + 1], a, total);
                    for (int n = 0; n < 4; n++) {
                        int cost = unit_cost(k0, k1, n);
                        if (cost < BIG && dp[a] + cost < next[a ^ n]) next[a ^ n] = dp[a] + cost;
                    }
                }
                memcpy(dp, next, sizeof dp);
            }
            if (dp[total] < best_unit) best_unit = dp[total];
        }
        sum_whole += best_whole;
        sum_unit += best_unit;
    }
    double per = (double)columns * blocks;
    printf("parts of %d events, %d units, %d columns: column flips per block column: runs one "
           "after another %.4f, interleaved pairs %.4f; %.0f nodes and %.1f ms CPU per unit "
           "column and net\n",
           seg, units, columns, (double)sum_whole / per, (double)sum_unit / per,
           (double)unit_nodes / (columns * 16.0 * units),
           (cpu_ms() - t0) / (columns * 16.0 * units));
    return 0;
}

int main(int argc, char **argv)
{
    rubiks_rectangle_group_init(&g);
    parse_run();
    const char *mode = argc > 1 ? argv[1] : "chain";
    if (!strcmp(mode, "free")) return run_free(argc, argv);
    if (!strcmp(mode, "chain")) return run_chain(argc, argv);
    if (!strcmp(mode, "unit")) return run_unit(argc, argv);
    fprintf(stderr,
            "usage: %s free [at ...] | chain [at] [blocks] [columns] | unit [seg] [units] "
            "[columns]\n",
            argv[0]);
    return 2;
}
