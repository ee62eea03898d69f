/* Rubik's Rectangle prototype (issue 13, round 5): can a block's run be chosen per board? One
 * block of k row pairs (k = 3 or 4) and Q column pairs with random targets (what a random board
 * gives a block), objective J = the run's row flips + the sum over the Q block columns of the
 * cheapest column choice (any net), exact from the run's full cost table. The run starts from the
 * solver's four-pair run (or a random one) and is improved by local moves (replace, move, swap
 * pairs, insert or delete two events), each evaluated exactly: the table is rebuilt only from
 * the first event the move changes (the layers before it are kept). The baseline is the best of
 * the start run's pair orders and mirror images (what the solver's descent picks from).
 * No carry between blocks: the gain per block is what is compared. Results in
 * RESULTS-rubiks-rectangle.md.
 *
 *   build/bench/bench_rubiks_rectangle_perboard [blocks=3] [evals=400] [Q=50] [start=""] [seed=1]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"

#include "rubiks_rectangle_group.h"

#define K 4
#define DIGITS (24 * 24 * 24 * 24)
#define STATES (DIGITS * 4)
#define EV_MAX 64
#define NONE 255

static rubiks_rectangle_group g;
static uint8_t *layer[EV_MAX + 1], *spare[EV_MAX + 1];

static uint64_t rs = 0x243F6A8885A308D3ull;
static uint64_t rnd(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return rs;
}

typedef struct run {
    int len;
    uint8_t ev[EV_MAX]; /* bits 0-1 rows, bits 2-3 pair */
} run;

static int row_cost(const run *r)
{
    int c = 0;
    for (int i = 0; i < r->len; i++) c += (r->ev[i] & 3) == 3 ? 2 : 1;
    return c;
}

static unsigned parity_of(const run *r)
{
    unsigned p = 0;
    for (int i = 0; i < r->len; i++)
        if ((r->ev[i] & 3) != 3) p ^= 1u << (r->ev[i] >> 2);
    return p;
}

static void layer_step(const uint8_t *in, uint8_t *out, uint8_t ev)
{
    memset(out, NONE, STATES);
    int pair = ev >> 2;
    uint8_t x = g.row[ev & 3];
    unsigned st[K][24][4];
    for (int j = 0, wt = 4; j < K; j++, wt *= 24)
        for (unsigned w = 0; w < 24; w++)
            for (unsigned c = 0; c < 4; c++) {
                unsigned v = g.mul[w][g.column[c]];
                if (j == pair) v = g.mul[v][x];
                st[j][w][c] = v * (unsigned)wt;
            }
    for (unsigned w3 = 0; w3 < 24; w3++)
        for (unsigned w2 = 0; w2 < 24; w2++)
            for (unsigned w1 = 0; w1 < 24; w1++) {
                unsigned base[4];
                for (unsigned c = 0; c < 4; c++)
                    base[c] = st[3][w3][c] + st[2][w2][c] + st[1][w1][c];
                const uint8_t *src = in + 4 * 24 * (w1 + 24 * (w2 + 24 * w3));
                for (unsigned w0 = 0; w0 < 24; w0++, src += 4)
                    for (unsigned net = 0; net < 4; net++) {
                        unsigned v = src[net];
                        if (v == NONE) continue;
                        for (unsigned c = 0; c < 4; c++) {
                            unsigned t = base[c] + st[0][w0][c] + (net ^ c);
                            unsigned cc = v + (c & 1) + (c >> 1);
                            if (cc < out[t]) out[t] = (uint8_t)cc;
                        }
                    }
            }
}

/* Builds a trial's layers after event `from` into spare (the current layers up to from are
 * shared); keep_trial swaps them in. */
static void build_trial(const run *r, int from)
{
    for (int i = from; i < r->len; i++)
        layer_step(i == from ? layer[i] : spare[i], spare[i + 1], r->ev[i]);
}

static void keep_trial(const run *r, int from)
{
    for (int i = from + 1; i <= r->len; i++) {
        uint8_t *t = layer[i];
        layer[i] = spare[i];
        spare[i] = t;
    }
}

/* Rebuilds the layers of r from event `from` on. */
static void build_from(const run *r, int from)
{
    if (from == 0) {
        memset(layer[0], NONE, STATES);
        unsigned id = 0;
        for (int j = 0; j < K; j++) id = id * 24 + g.identity;
        layer[0][id * 4] = 0;
    }
    for (int i = from; i < r->len; i++) layer_step(layer[i], layer[i + 1], r->ev[i]);
}

/* The cost of target tuple phi (digit j: pair j) from the last layer: the cheapest net. */
static unsigned target_cost(const uint8_t *t, const uint8_t *phi)
{
    unsigned best = NONE;
    for (unsigned n = 0; n < 4; n++) {
        unsigned s = 0;
        for (int j = K - 1; j >= 0; j--) s = s * 24 + g.mul[phi[j]][g.column[n]];
        unsigned v = t[s * 4 + n];
        if (v < best) best = v;
    }
    return best;
}

static int Q = 50;
static uint8_t (*targets)[K];

static long objective(const run *r, const uint8_t *last)
{
    long j = row_cost(r);
    for (int q = 0; q < Q; q++) j += target_cost(last, targets[q]);
    return j;
}

static int parse(const char *s, run *r)
{
    r->len = 0;
    for (; *s; s++) {
        char ch = *s;
        int v = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
        if (v < 0) continue;
        r->ev[r->len++] = (uint8_t)v;
    }
    return r->len;
}

static void print_run(const run *r)
{
    for (int i = 0; i < r->len; i++) printf("%x", r->ev[i]);
    printf("\n");
}

static uint8_t random_event(void)
{
    return (uint8_t)((rnd() % K) << 2 | (1 + rnd() % 2));
}

/* A random local move that keeps each pair's parity; false if it does not apply. */
static bool mutate(run *r, int *from)
{
    int kind = (int)(rnd() % 6), L = r->len;
    int i = (int)(rnd() % (unsigned)L), i2 = (int)(rnd() % (unsigned)L);
    switch (kind) {
    case 0: /* top <-> bottom of one event */
        if ((r->ev[i] & 3) == 3) return false;
        r->ev[i] ^= 3;
        *from = i;
        return true;
    case 1: { /* move an event elsewhere */
        if (i == i2) return false;
        uint8_t e = r->ev[i];
        if (i < i2)
            memmove(r->ev + i, r->ev + i + 1, (size_t)(i2 - i));
        else
            memmove(r->ev + i2 + 1, r->ev + i2, (size_t)(i - i2));
        r->ev[i2] = e;
        *from = i < i2 ? i : i2;
        return true;
    }
    case 2: { /* exchange the pairs of two events */
        if ((r->ev[i] >> 2) == (r->ev[i2] >> 2)) return false;
        uint8_t a = r->ev[i], b = r->ev[i2];
        r->ev[i] = (uint8_t)((b & 0xc) | (a & 3));
        r->ev[i2] = (uint8_t)((a & 0xc) | (b & 3));
        *from = i < i2 ? i : i2;
        return true;
    }
    case 3: /* replace an event by another of the same pair, or swap two adjacent ones */
        if (i + 1 >= L || r->ev[i] == r->ev[i + 1]) return false;
        {
            uint8_t t = r->ev[i];
            r->ev[i] = r->ev[i + 1];
            r->ev[i + 1] = t;
        }
        *from = i;
        return true;
    case 4: { /* insert two events of one pair */
        if (L + 2 > EV_MAX) return false;
        uint8_t e = random_event();
        int a = (int)(rnd() % (unsigned)(L + 1));
        memmove(r->ev + a + 1, r->ev + a, (size_t)(L - a));
        r->ev[a] = e;
        L++;
        int b = (int)(rnd() % (unsigned)(L + 1));
        memmove(r->ev + b + 1, r->ev + b, (size_t)(L - b));
        r->ev[b] = (uint8_t)((e & 0xc) | (1 + rnd() % 2));
        r->len = L + 1;
        *from = a < b ? a : b;
        return true;
    }
    default: { /* delete two events of one pair */
        if (i == i2 || (r->ev[i] >> 2) != (r->ev[i2] >> 2)) return false;
        if ((r->ev[i] & 3) == 3 || (r->ev[i2] & 3) == 3) return false;
        int a = i > i2 ? i : i2, b = i > i2 ? i2 : i;
        memmove(r->ev + a, r->ev + a + 1, (size_t)(L - a - 1));
        memmove(r->ev + b, r->ev + b + 1, (size_t)(L - b - 2));
        r->len = L - 2;
        *from = b;
        return true;
    }
    }
}

/* The best of the run's pair orders and mirror images on the targets (the descent's choice):
 * images conjugate each digit (LR for top/bottom of pair j, TB for left/right). */
static long best_image(const run *r)
{
    uint8_t conj[4][24];
    for (int e = 0; e < 4; e++) {
        uint8_t m = g.identity;
        if (e & 1) m = g.mul[m][g.column[3]];
        if (e & 2) m = g.mul[m][g.row[3]];
        for (int x = 0; x < 24; x++) conj[e][x] = g.mul[g.mul[m][x]][m];
    }
    unsigned rp = parity_of(r), tp = 0;
    for (int j = 0; j < K; j++) tp |= (unsigned)g.parity[targets[0][j]] << j;
    long best = -1;
    int perm[24][K], np = 0;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            for (int c = 0; c < 4; c++)
                for (int d = 0; d < 4; d++)
                    if (a != b && a != c && a != d && b != c && b != d && c != d) {
                        perm[np][0] = a, perm[np][1] = b, perm[np][2] = c, perm[np][3] = d;
                        np++;
                    }
    for (int p = 0; p < np; p++) {
        bool fits = true;
        for (int j = 0; j < K; j++)
            if (((rp >> j) & 1) != ((tp >> perm[p][j]) & 1)) fits = false;
        if (!fits) continue;
        for (int image = 0; image < 32; image++) {
            long j = row_cost(r);
            for (int q = 0; q < Q; q++) {
                uint8_t phi[K];
                for (int d = 0; d < K; d++)
                    phi[d] =
                        conj[((image >> (d + 1)) & 1) | (image & 1) << 1][targets[q][perm[p][d]]];
                j += target_cost(layer[r->len], phi);
            }
            if (best < 0 || j < best) best = j;
        }
    }
    return best;
}

int main(int argc, char **argv)
{
    int blocks = argc > 1 ? atoi(argv[1]) : 3;
    long evals = argc > 2 ? atol(argv[2]) : 400;
    Q = argc > 3 ? atoi(argv[3]) : 50;
    const char *start = argc > 4 && argv[4][0] ? argv[4] : "d5ad6e52a5d21ea562e6de95da652ea2d51e";
    rs ^= argc > 5 ? (uint64_t)atol(argv[5]) * 0x9E3779B97F4A7C15ull : 0;
    rubiks_rectangle_group_init(&g);
    for (int i = 0; i <= EV_MAX; i++) layer[i] = malloc(STATES), spare[i] = malloc(STATES);
    targets = malloc((size_t)Q * sizeof *targets);
    run base;
    parse(start, &base);
    unsigned rp = parity_of(&base);
    double sum0 = 0, sum_img = 0, sum_end = 0;
    for (int blk = 0; blk < blocks; blk++) {
        for (int q = 0; q < Q; q++)
            for (int j = 0; j < K; j++) {
                uint8_t t;
                do t = (uint8_t)(rnd() % 24);
                while (g.parity[t] != ((rp >> j) & 1));
                targets[q][j] = t;
            }
        run r = base;
        double t0 = (cpu_ms() / 1000);
        build_from(&r, 0);
        long j0 = objective(&r, layer[r.len]), jimg = best_image(&r), cur = j0;
        double t1 = (cpu_ms() / 1000);
        long accepted = 0, improved = 0;
        for (long e = 0; e < evals; e++) {
            run trial = r;
            int from;
            if (!mutate(&trial, &from)) {
                e--;
                continue;
            }
            build_trial(&trial, from);
            long v = objective(&trial, trial.len > from ? spare[trial.len] : layer[trial.len]);
            if (v <= cur) {
                improved += v < cur;
                accepted++;
                cur = v;
                r = trial;
                keep_trial(&r, from);
            }
        }
        double t2 = (cpu_ms() / 1000);
        printf("block %d: start %ld, best image %ld, climbed %ld (%ld accepted, %ld better), "
               "len %d, %.2f s build+images, %.1f s climb (%.1f ms/eval)\n",
               blk, j0, jimg, cur, accepted, improved, r.len, t1 - t0, t2 - t1,
               1000 * (t2 - t1) / (double)evals);
        print_run(&r);
        fflush(stdout);
        sum0 += (double)j0, sum_img += (double)jimg, sum_end += (double)cur;
    }
    printf("mean per block: start %.2f, best image %.2f, climbed %.2f\n", sum0 / blocks,
           sum_img / blocks, sum_end / blocks);
    return 0;
}
