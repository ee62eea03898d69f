/* Rubik's Rectangle prototype (issue 13): how many column flips a block column needs when one run
 * of row flips is shared by k = 5..8 row pairs, measured without a 24^k table by a meet in the
 * middle per block column. The run is cut at event h; the forward set (every choice of at most
 * `fwd` column flips before the events of the first half, as the pairs' words and the net) is
 * hashed once per run, and each target enumerates the choices of at most `bwd` flips in the
 * second half and looks the rest up. Counts are exact up to fwd + bwd flips with at most fwd in
 * the first half and bwd in the second (an upper bound otherwise, reported as misses).
 *
 *   build/bench/bench_rubiks_rectangle_joint [targets=200] [fwd=3] [bwd=3]
 *   build/bench/bench_rubiks_rectangle_joint targets fwd bwd k len steps   # hill-climb a run
 *   build/bench/bench_rubiks_rectangle_joint targets fwd bwd eval "0.1 3.2 ..."   # one run
 *
 * Prints the mean column flips per block column (min over the four nets, as mean_cost in
 * rubiks_rectangle_group.c) and the flips per orbit a board of Q = 50 column pairs would pay
 * before the carry DP: (L / 50 + c_k) / k. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"

#include "rubiks_rectangle_group.h"

#define PAIRS 8
#define EVENTS 160

static rubiks_rectangle_group g;

typedef struct run {
    int k, len;
    uint8_t ev[EVENTS]; /* bits 0-1: rows (1 top, 2 bottom, 3 both), bits 2-4: pair */
} run;

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* prefix[i][j]: the product of pair j's events before event i (time order, left first). */
static uint8_t prefix[EVENTS + 1][PAIRS];

static void prefixes(const run *r)
{
    for (int j = 0; j < r->k; j++) prefix[0][j] = g.identity;
    for (int i = 0; i < r->len; i++)
        for (int j = 0; j < r->k; j++) {
            uint8_t x = prefix[i][j];
            if ((r->ev[i] >> 2) == j) x = g.mul[x][g.row[r->ev[i] & 3]];
            prefix[i + 1][j] = x;
        }
}

static inline uint8_t segment(int j, int a, int b)
{
    return g.mul[g.inverse[prefix[a][j]]][prefix[b][j]];
}

static inline uint64_t pack(const uint8_t *w, int k, unsigned net)
{
    uint64_t key = net;
    for (int j = 0; j < k; j++) key = key << 5 | w[j];
    return key;
}

/* Open addressing: key + 1 (0 = empty) -> fewest flips. */
#define HASH_BITS 22
static uint64_t *hkey;
static uint8_t *hcost;

static inline size_t slot_of(uint64_t key)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - HASH_BITS));
}

static size_t hused;

static void hash_put(uint64_t key, uint8_t cost)
{
    if (hused > (3u << HASH_BITS) / 4) {
        fprintf(stderr, "the forward set outgrows its table: fewer flips (fwd) or events\n");
        exit(2);
    }
    size_t s = slot_of(key);
    while (hkey[s] && hkey[s] != key + 1) s = (s + 1) & ((1u << HASH_BITS) - 1);
    if (!hkey[s]) hused++;
    if (!hkey[s] || cost < hcost[s]) {
        hkey[s] = key + 1;
        hcost[s] = cost;
    }
}

static inline int hash_get(uint64_t key)
{
    size_t s = slot_of(key);
    while (hkey[s]) {
        if (hkey[s] == key + 1) return hcost[s];
        s = (s + 1) & ((1u << HASH_BITS) - 1);
    }
    return -1;
}

/* Every choice of at most `left` more column flips at atoms >= atom (atom = 2 slot + side) of
 * events [pos, end): w is the words up to slot pos. visit gets the words at the end. */
typedef void (*visit_fn)(const uint8_t *w, unsigned net, int cost, void *ctx);

static void enumerate(const run *r, const uint8_t *w, int pos, int end, int atom, unsigned net,
                      int cost, int left, visit_fn visit, void *ctx)
{
    uint8_t out[PAIRS];
    for (int j = 0; j < r->k; j++) out[j] = g.mul[w[j]][segment(j, pos, end)];
    visit(out, net, cost, ctx);
    if (!left) return;
    for (int a = atom; a < 2 * end; a++) {
        int slot = a >> 1;
        unsigned c = 1u + (unsigned)(a & 1);
        uint8_t next[PAIRS];
        for (int j = 0; j < r->k; j++)
            next[j] = g.mul[g.mul[w[j]][segment(j, pos, slot)]][g.column[c]];
        enumerate(r, next, slot, end, a + 1, net ^ c, cost + 1, left - 1, visit, ctx);
    }
}

static int half_k;

static void put_forward(const uint8_t *w, unsigned net, int cost, void *ctx)
{
    (void)ctx;
    hash_put(pack(w, half_k, net), (uint8_t)cost);
}

typedef struct lookup {
    const uint8_t *target;
    int best;
} lookup;

static void try_backward(const uint8_t *w2, unsigned n2, int cost, void *ctx)
{
    lookup *l = ctx;
    if (cost >= l->best) return;
    for (unsigned n1 = 0; n1 < 4; n1++) {
        uint8_t w1[PAIRS];
        unsigned n = n1 ^ n2;
        for (int j = 0; j < half_k; j++)
            w1[j] = g.mul[g.mul[l->target[j]][g.column[n]]][g.inverse[w2[j]]];
        int f = hash_get(pack(w1, half_k, n1));
        if (f >= 0 && f + cost < l->best) l->best = f + cost;
    }
}

/* Mean fewest column flips over `targets` random targets of the run's parities (the same
 * targets on every call when seed is not 0, so that a climb compares like with like). */
static double measure(const run *r, int targets, int fwd, int bwd, int *misses, double *ms,
                      uint64_t seed)
{
    if (seed) rng_state = seed;
    double t0 = cpu_ms();
    prefixes(r);
    half_k = r->k;
    memset(hkey, 0, sizeof *hkey << HASH_BITS);
    hused = 0;
    int h = r->len / 2;
    uint8_t id[PAIRS];
    for (int j = 0; j < r->k; j++) id[j] = g.identity;
    /* The first half starts at slot 0: choices before events 0..h-1. */
    enumerate(r, id, 0, h, 0, 0, 0, fwd, put_forward, NULL);
    unsigned parity = 0;
    for (int i = 0; i < r->len; i++)
        if ((r->ev[i] & 3) != 3) parity ^= 1u << (r->ev[i] >> 2);
    double sum = 0;
    *misses = 0;
    for (int t = 0; t < targets; t++) {
        uint8_t target[PAIRS];
        for (int j = 0; j < r->k; j++) {
            uint8_t x;
            do x = (uint8_t)(rng() % RR_PERMS);
            while (g.parity[x] != ((parity >> j) & 1));
            target[j] = x;
        }
        lookup l = {target, fwd + bwd + 1};
        /* The second half: choices before events h..len-1, words from slot h on. */
        enumerate(r, id, h, r->len, 2 * h, 0, 0, bwd, try_backward, &l);
        if (l.best > fwd + bwd) (*misses)++;
        sum += l.best;
    }
    *ms = cpu_ms() - t0;
    return sum / targets;
}

static int parse(run *r, const char *text, int pair_base)
{
    for (const char *p = text; *p; p++) {
        int v = *p <= '9' ? *p - '0' : *p - 'a' + 10;
        r->ev[r->len++] = (uint8_t)(((v >> 2) + pair_base) << 2 | (v & 3));
        if (((v >> 2) + pair_base) + 1 > r->k) r->k = (v >> 2) + pair_base + 1;
    }
    return r->len;
}

static void random_run(run *r, int k, int len)
{
    r->k = k;
    r->len = len;
    for (int i = 0; i < len; i++) {
        uint8_t e;
        do e = (uint8_t)((rng() % (unsigned)k) << 2 | (1 + rng() % 2));
        while (i > 0 && e == r->ev[i - 1]);
        r->ev[i] = e;
    }
}

static void report(const char *name, const run *r, int targets, int fwd, int bwd)
{
    int misses;
    double ms;
    double c = measure(r, targets, fwd, bwd, &misses, &ms, 0);
    int rows = 0;
    for (int i = 0; i < r->len; i++) rows += (r->ev[i] & 3) == 3 ? 2 : 1;
    printf("%-28s k=%d L=%d rows=%d: c=%.3f (misses %d of %d) -> %.4f flips/orbit at Q=50, "
           "%.1f ms cpu\n",
           name, r->k, r->len, rows, c, misses, targets, (rows / 50.0 + c) / r->k, ms);
    fflush(stdout);
}

/* Hill climbing on a run of k pairs and len events: change one event, keep it unless the mean
 * over fixed targets grows (misses count fwd + bwd + 1). */
static void climb(int k, int len, int steps, int targets, int fwd, int bwd)
{
    run r, best;
    random_run(&r, k, len);
    int misses;
    double ms;
    double cost = measure(&r, targets, fwd, bwd, &misses, &ms, 0x9E3779B97F4A7C15ull);
    best = r;
    for (int step = 0; step < steps; step++) {
        uint64_t saved = rng_state;
        run t = best;
        int i = (int)(rng() % (unsigned)len);
        do t.ev[i] = (uint8_t)((rng() % (unsigned)k) << 2 | (1 + rng() % 2));
        while (t.ev[i] == best.ev[i]);
        uint64_t next = rng();
        double c = measure(&t, targets, fwd, bwd, &misses, &ms, 0x9E3779B97F4A7C15ull);
        rng_state = saved ^ next;
        if (c <= cost) {
            if (c < cost) {
                printf("step %d: c=%.3f (misses %d) -> %.4f flips/orbit at Q=50: ", step, c, misses,
                       (len / 50.0 + c) / k);
                for (int e = 0; e < len; e++) printf("%x.%d ", t.ev[e] >> 2, t.ev[e] & 3);
                printf("\n");
                fflush(stdout);
            }
            cost = c;
            best = t;
        }
    }
    printf("run k=%d L=%d c=%.3f: ", k, len, cost);
    for (int i = 0; i < len; i++) printf("%x.%d ", best.ev[i] >> 2, best.ev[i] & 3);
    printf("\n");
}

static const char *const quad = "d5ad6e52a5d21ea562e6de95da652ea2d51e";

int main(int argc, char **argv)
{
    int targets = argc > 1 ? atoi(argv[1]) : 200;
    int fwd = argc > 2 ? atoi(argv[2]) : 3, bwd = argc > 3 ? atoi(argv[3]) : 3;
    rubiks_rectangle_group_init(&g);
    hkey = malloc(sizeof *hkey << HASH_BITS);
    hcost = malloc((size_t)1 << HASH_BITS);
    if (!hkey || !hcost) return 1;
    if (argc > 5 && !strcmp(argv[4], "eval")) {
        /* A run as printed by the climb: pair.rows tokens. */
        run r = {0};
        for (const char *p = argv[5]; *p && r.len < EVENTS;) {
            int pair = 0, rows = 0, used = 0;
            if (sscanf(p, "%x.%d%n", (unsigned *)&pair, &rows, &used) != 2) break;
            r.ev[r.len++] = (uint8_t)(pair << 2 | rows);
            if (pair + 1 > r.k) r.k = pair + 1;
            p += used;
            while (*p == ' ') p++;
        }
        report("given run", &r, targets, fwd, bwd);
        free(hkey);
        free(hcost);
        return 0;
    }
    if (argc > 6) {
        climb(atoi(argv[4]), atoi(argv[5]), atoi(argv[6]), targets, fwd, bwd);
        free(hkey);
        free(hcost);
        return 0;
    }

    run r = {0};
    parse(&r, quad, 0);
    report("kept four-pair run", &r, targets, fwd, bwd);

    run a = {0}, b = {0}, m = {0};
    parse(&a, quad, 0);
    parse(&b, quad, 4);
    m.k = 8;
    for (int i = 0; i < a.len; i++) m.ev[m.len++] = a.ev[i];
    for (int i = 0; i < b.len; i++) m.ev[m.len++] = b.ev[i];
    report("two runs one after the other", &m, targets, fwd, bwd);
    m.len = 0;
    for (int i = 0; i < a.len; i++) {
        m.ev[m.len++] = a.ev[i];
        m.ev[m.len++] = b.ev[i];
    }
    report("two runs interleaved", &m, targets, fwd, bwd);

    for (int k = 5; k <= 8; k++)
        for (int len = 9 * k; len <= 11 * k; len += k) {
            random_run(&m, k, len);
            char name[64];
            snprintf(name, sizeof name, "random run k=%d", k);
            report(name, &m, targets, fwd, bwd);
        }
    free(hkey);
    free(hcost);
    return 0;
}
