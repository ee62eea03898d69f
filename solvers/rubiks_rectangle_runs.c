/* The catalogue of row runs (see rubiks_rectangle_runs.h): the lists found offline, their tables
 * built once per process under a lock, then shared read-only by every solve. */
#include "rubiks_rectangle_runs.h"

#include <pthread.h>

#define SINGLE_SEQ_LEN 5

/* Joint sequences for two pairs of rows (T, B of the first pair: 1, 2; of the second: 5, 6),
 * the best by mean column cost for each pair of parities and length: found by an exhaustive
 * offline search over all sequences of T/B events up to 13 flips (two per class and length),
 * and by hill climbing for 14 to 16 flips (bench/bench_rubiks_rectangle_sequences.c redoes
 * the search). */
static const char *const joint_sequences[] = {
    /* both pairs odd */
    "126525",
    "125626",
    "16152151",
    "15162161",
    "1612515615",
    "1512616516",
    "125265152151",
    "126256162161",
    "12526515215165",
    "5156526515625121",
    /* both pairs even */
    "15215615",
    "15126525",
    "1516252152",
    "1615262162",
    "152151621251",
    "162161521261",
    "51651526561565",
    "2616516126151615",
    /* first pair odd, second even */
    "1526525",
    "1625626",
    "152652151",
    "162562161",
    "15262521252",
    "16252621262",
    "1615625156515",
    "1516526165616",
    "621262156162161",
    /* first pair even, second odd */
    "1651215",
    "1561215",
    "162515615",
    "152616516",
    "15121516515",
    "16121615616",
    "1521516151251",
    "1621615161261",
    "156151216156162",
};

/* Runs shared by three pairs of rows (events of the third pair: 9, a), one list per number of odd
 * pairs: the odd pairs come first, and a block maps its own pairs onto the run's to match (the
 * pairs of a block are interchangeable, so one run serves every order). Found by hill climbing
 * (`bench_rubiks_rectangle_sequences 29 32 triple`: mean column flips per block column
 * 2.33-2.40). */
static const char *const triple_sequences[] = {
    /* no odd pair */
    "25a6516291959a152161a2a965296a",
    "25916152a5a952a2691921961a2a9259",
    /* pair 0 odd */
    "1a926a929515a19169a252192a961",
    "5952161a2195161a291619561a19651",
    /* pairs 0 and 1 odd */
    "195a69159162a5a61269265629a259",
    "a5a15a62a925a12a19a956a21656212a",
    /* all three odd */
    "6a15a592969a919659a19a612a562",
    "2a2619592a6216192561a2562a61a29",
};

/* A run shared by four pairs of rows (events of the fourth pair: d, e), by hill climbing and
 * annealing (`bench_rubiks_rectangle_sequences 36 36 quad ...`, see RESULTS-rubiks-rectangle.md):
 * 3.009 column flips per block column, pairs 0 and 1 odd. Its table is 24^4 x 4 entries (1.3 MB
 * of costs, 10.6 MB of choices, about 0.1 s to build), so it is built only when the first board
 * of at least QUADS_MIN_ORBITS plans blocks of four. A block whose parities differ from the
 * run's gets one row flip ahead of the run for each pair that differs (see block.pre), so one
 * run serves every block; with two odd pairs that is 0.75 flips per block on average. A second
 * run gained 0.2 % for twice the memory and build time. */
static const char *const quad_sequences[] = {
    "d5ad6e52a5d21ea562e6de95da652ea2d51e",
};

#define SINGLE_CAP (1 + 3 + 6 + 12 + 24 + 48)
#define JOINT_CAP (sizeof joint_sequences / sizeof joint_sequences[0])
#define TRIPLE_CAP (sizeof triple_sequences / sizeof triple_sequences[0])
#define POOL_CAP (SINGLE_CAP + JOINT_CAP + TRIPLE_CAP)

typedef struct seq_pool {
    rubiks_rectangle_group group;
    rubiks_rectangle_seq seq[POOL_CAP];
    int count;
    bool failed; /* out of memory or out of time: the pool is freed, not used */
} seq_pool;

#define QUAD_CAP (sizeof quad_sequences / sizeof quad_sequences[0])

typedef struct quad_pool {
    rubiks_rectangle_seq seq[QUAD_CAP];
    int count;
} quad_pool;

/* Built under build_lock by the first solve that needs them and complete once their flag is
 * set; read without the lock afterwards (the lock orders the build before every reader). */
static seq_pool shared_pool;
static quad_pool shared_quads;
static bool pool_built, quads_built;
static pthread_mutex_t build_lock = PTHREAD_MUTEX_INITIALIZER;

static void pool_add(seq_pool *pool, const uint8_t *rows, int len, int pairs, budget *b)
{
    if (pool->failed || pool->count >= (int)POOL_CAP) return;
    if (!rubiks_rectangle_seq_init(&pool->group, rows, len, pairs, &pool->seq[pool->count++], b))
        pool->failed = true;
}

static int parse_rows(const char *text, uint8_t *rows)
{
    int len = 0;
    for (const char *p = text; *p && len < RR_SEQ_MAX; p++)
        rows[len++] = (uint8_t)(*p <= '9' ? *p - '0' : *p - 'a' + 10);
    return len;
}

static void pool_add_text(seq_pool *pool, const char *text, budget *b)
{
    uint8_t rows[RR_SEQ_MAX];
    int len = parse_rows(text, rows);
    pool_add(pool, rows, len, 1, b);
}

static void free_seqs(rubiks_rectangle_seq *seq, int *count)
{
    for (int i = 0; i < *count; i++) rubiks_rectangle_seq_free(&seq[i]);
    *count = 0;
}

/* Every single-pair run of up to SINGLE_SEQ_LEN row events without two equal neighbours (the
 * empty one included, with a table for three pairs: it serves blocks that are already home), and
 * the joint lists. About 30 ms. */
static bool pool_build(seq_pool *pool, budget *b)
{
    rubiks_rectangle_group_init(&pool->group);
    pool->count = 0;
    pool->failed = false;
    for (int len = 0; len <= SINGLE_SEQ_LEN; len++) {
        int total = 1;
        for (int i = 0; i < len; i++) total *= 3;
        for (int code = 0; code < total; code++) {
            uint8_t rows[RR_SEQ_MAX];
            bool ok = true;
            for (int i = 0, v = code; i < len; i++, v /= 3) {
                rows[i] = (uint8_t)(v % 3 + 1);
                if (i > 0 && rows[i] == rows[i - 1]) ok = false;
            }
            if (ok) pool_add(pool, rows, len, len == 0 ? 3 : 1, b);
        }
    }
    for (size_t k = 0; k < JOINT_CAP; k++) pool_add_text(pool, joint_sequences[k], b);
    for (size_t k = 0; k < TRIPLE_CAP; k++) pool_add_text(pool, triple_sequences[k], b);
    if (pool->failed) free_seqs(pool->seq, &pool->count);
    return !pool->failed;
}

/* The four-pair runs: about 75 ms. */
static bool quads_build(const seq_pool *pool, quad_pool *quads, budget *b)
{
    quads->count = 0;
    for (size_t k = 0; k < QUAD_CAP; k++) {
        uint8_t rows[RR_SEQ_MAX];
        int len = parse_rows(quad_sequences[k], rows);
        if (!rubiks_rectangle_seq_init(&pool->group, rows, len, 4, &quads->seq[quads->count++],
                                       b)) {
            free_seqs(quads->seq, &quads->count);
            return false;
        }
    }
    return true;
}

/* Builds what is missing (the four-pair runs only when asked for); false when out of memory or
 * out of time, and a build cut short is freed, to be started again by the next caller. */
static bool runs_ready(bool quads, budget *b)
{
    pthread_mutex_lock(&build_lock);
    if (!pool_built) pool_built = pool_build(&shared_pool, b);
    if (pool_built && quads && !quads_built)
        quads_built = quads_build(&shared_pool, &shared_quads, b);
    bool ready = pool_built && (!quads || quads_built);
    pthread_mutex_unlock(&build_lock);
    return ready;
}

_Static_assert(POOL_CAP + QUAD_CAP <= RR_RUNS_MAX, "rr_run_list holds every run");

const rubiks_rectangle_group *rr_runs_group(budget *b)
{
    return runs_ready(false, b) ? &shared_pool.group : NULL;
}

bool rr_runs_list(rr_run_list *list, bool quads, budget *b)
{
    list->count = 0;
    if (!runs_ready(quads, b)) return false;
    for (int i = 0; i < shared_pool.count; i++) list->seq[list->count++] = &shared_pool.seq[i];
    if (quads)
        for (int i = 0; i < shared_quads.count; i++)
            list->seq[list->count++] = &shared_quads.seq[i];
    return true;
}

const rubiks_rectangle_seq *rr_runs_pick(const rr_run_list *list, int pairs, unsigned parity,
                                         int cols, bool prefix)
{
    const rubiks_rectangle_seq *best = NULL;
    double best_cost = 0;
    for (int i = 0; i < list->count; i++) {
        const rubiks_rectangle_seq *s = list->seq[i];
        if (!s->complete || s->pairs != pairs || (!prefix && s->parity != parity)) continue;
        double cost =
            s->row_cost + (unsigned)__builtin_popcount(s->parity ^ parity) + cols * s->mean_cost;
        if (!best || cost < best_cost) best = s, best_cost = cost;
    }
    return best;
}
