/* Beam search by cost: partial solutions are filed by the moves they have spent; buckets are
 * taken in order of cost and each keeps only the `width` partial solutions with the fewest ones
 * left in A, a one on A's diagonals counting half (its orbit has a 5-move single transfer,
 * every other orbit's cheapest is 7; weights 1/4, 1/2, 3/4 measured 83.4, 83.1, 83.8 moves on
 * 100 9 x 9 states, against 85.8 for plain ones). No exchange rate between moves and ones is
 * needed, and the first solution reached is the shortest the beam can see. A step is priced by
 * what it adds to the reduced move list (swaps and turns that cancel across the join are free),
 * which steers the search towards steps that overlap. The opening (the costs below 70 % of the
 * start's ones of A, by default) keeps more partial solutions per cost than the rest: for less
 * work, early choices gain more from width (9 x 9, 1 000 states, the library of 7-move
 * sequences: 160 then 44 gave 82.07 moves in 0.89 of the expansions of 88 throughout, 82.14;
 * wider late than early was worse). Nodes live in one arena and are read back by parent link. */
#include "nine_beam.h"

#include <stdlib.h>
#include <string.h>

#define SEEN_SLOTS ((size_t)1 << 16)

/* A board of at most NINE_BEAM_MAX_N rows, packed: the arena holds tens of thousands. */
typedef struct packed {
    uint16_t a[NINE_BEAM_MAX_N], b[NINE_BEAM_MAX_N];
} packed;

static void pack(const nine_board *bd, packed *p)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < bd->n; i++) p->a[i] = (uint16_t)bd->a[i], p->b[i] = (uint16_t)bd->b[i];
}

static void unpack(const packed *p, int n, nine_board *bd)
{
    bd->n = n;
    for (int i = 0; i < n; i++) bd->a[i] = p->a[i], bd->b[i] = p->b[i];
}

typedef struct node {
    packed board;
    uint64_t hash;
    int parent;
    nine_step step;
    int g, ones;
    int diag;           /* of the ones, those on A's diagonals (flat libraries, else 0) */
    int score;          /* what a bucket keeps the least of: 2 ones - diag */
    nine_suffix suffix; /* prices the next step by what it really adds */
} node;

typedef struct arena {
    node *v;
    size_t len, cap;
} arena;

static int arena_push(arena *a, const node *x)
{
    if (a->len == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 1024;
        node *v = realloc(a->v, cap * sizeof *v);
        if (!v) return -1;
        a->v = v;
        a->cap = cap;
    }
    a->v[a->len] = *x;
    return (int)a->len++;
}

static uint64_t board_hash(const nine_board *bd)
{
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < bd->n; i++) {
        h = (h ^ bd->a[i]) * 0xBF58476D1CE4E5B9ull;
        h = (h ^ bd->b[i]) * 0x94D049BB133111EBull;
    }
    return h ^ (h >> 31);
}

/* Boards already filed, with the least cost they were reached at: open addressing on the hash. */
typedef struct seen_set {
    uint64_t *key;
    int *cost;
    size_t mask;
} seen_set;

/* true when h was seen at a cost <= g; else records (h, g). A full table just stops recording. */
static bool seen_before(seen_set *s, uint64_t h, int g)
{
    h |= 1; /* 0 marks an empty slot */
    for (size_t i = h & s->mask, probes = 0; probes <= s->mask; i = (i + 1) & s->mask, probes++) {
        if (s->key[i] == 0) {
            s->key[i] = h;
            s->cost[i] = g;
            return false;
        }
        if (s->key[i] == h) {
            if (s->cost[i] <= g) return true;
            s->cost[i] = g;
            return false;
        }
        if (probes > 64) return false;
    }
    return false;
}

/* The ones of A on the library's diagonal cells. */
static int diagonal_ones(const nine_board *bd, const nine_library *lib)
{
    int n = bd->n, count = 0;
    if (!lib->flat) return 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int p = i * n + j;
            count += (int)((bd->a[i] >> j) & (lib->diag[p / 64] >> (p % 64)) & 1u);
        }
    return count;
}

static bool read_back(const arena *ar, int at, const nine_library *lib, const nine_board *start,
                      nine_moves *out)
{
    int depth = 0;
    for (int k = at; ar->v[k].parent >= 0; k = ar->v[k].parent) depth++;
    int *chain = malloc(sizeof(int) * (size_t)(depth + 1));
    if (!chain) return false;
    int d = depth;
    for (int k = at; ar->v[k].parent >= 0; k = ar->v[k].parent) chain[--d] = k;
    nine_board bd = *start;
    out->len = 0;
    bool ok = true;
    for (int t = 0; t < depth && ok; t++)
        ok = nine_step_apply(&bd, lib, &ar->v[chain[t]].step, out);
    free(chain);
    return ok;
}

/* Out of time: the partial solution with the fewest ones in the bucket at hand is completed by
 * the greedy (quick, and needs no budget: it ends after at most one step per one of A). */
static nine_greedy_status finish_greedily(const arena *ar, const int *bucket, int fill,
                                          const nine_library *lib, const nine_board *start,
                                          nine_moves *out)
{
    int pick = bucket[0];
    for (int u = 1; u < fill; u++)
        if (ar->v[bucket[u]].ones < ar->v[pick].ones) pick = bucket[u];
    nine_moves moves = {0};
    if (!read_back(ar, pick, lib, start, &moves)) return NINE_GREEDY_NO_MEMORY;
    nine_board bd;
    unpack(&ar->v[pick].board, start->n, &bd);
    budget unlimited;
    budget_init_unlimited(&unlimited);
    nine_greedy_status st = nine_greedy_solve(&bd, lib, &moves, &unlimited);
    if (st == NINE_GREEDY_OK && (out->len == 0 || moves.len < out->len)) {
        nine_moves swap = *out;
        *out = moves;
        moves = swap;
    }
    nine_moves_free(&moves);
    return st;
}

/* The exact tail: the nodes of bucket g with the fewest ones (at most p->tail_ones) are finished
 * by nine_tail_solve; the best total so far is kept in *tail_best (node, moves, cost). */
typedef struct tail_best {
    int node, cost, len;
    uint8_t moves[NINE_TAIL_MAX_MOVES];
} tail_best;

static void try_tails(const arena *ar, const int *bucket, int fill, int g,
                      const nine_beam_params *p, const nine_board *start, tail_best *best)
{
    bool *done = calloc((size_t)fill, sizeof *done);
    if (!done) return; /* no tail: correct, only longer */
    for (int round = 0; round < p->tail_per_bucket; round++) {
        int pick = -1;
        for (int u = 0; u < fill; u++)
            if (!done[u] && ar->v[bucket[u]].ones <= p->tail_ones &&
                (pick < 0 || ar->v[bucket[u]].ones < ar->v[bucket[pick]].ones))
                pick = u;
        if (pick < 0) break;
        done[pick] = true;
        nine_board bd;
        unpack(&ar->v[bucket[pick]].board, start->n, &bd);
        uint8_t moves[NINE_TAIL_MAX_MOVES];
        int len = nine_tail_solve(p->tail, &bd, p->tail_forward, moves);
        if (len >= 0 && g + len < best->cost) {
            best->node = bucket[pick];
            best->cost = g + len;
            best->len = len;
            memcpy(best->moves, moves, (size_t)len);
        }
    }
    free(done);
}

nine_greedy_status nine_beam_solve(const nine_board *start, const nine_library *lib,
                                   const nine_beam_params *p, int bound, nine_moves *out, budget *b)
{
    int per_node = p->per_node;
    /* The opening (costs below opening_percent % of the start's ones) keeps opening_width per
     * cost, the rest `width`: buckets are laid out for the larger. */
    int width = p->opening_width > p->width ? p->opening_width : p->width;
    long expansions = 0;
    tail_best tail = {-1, bound, 0, {0}};
    arena ar = {0};
    nine_greedy_status status = NINE_GREEDY_OK;
    int *buckets = malloc(sizeof(int) * (size_t)width * (size_t)(bound + 1));
    int *fill = calloc((size_t)bound + 1, sizeof(int));
    int *worst_at = malloc(sizeof(int) * ((size_t)bound + 1)); /* -1: not known */
    nine_step *steps = malloc(sizeof(nine_step) * (size_t)per_node);
    seen_set seen = {calloc(SEEN_SLOTS, sizeof(uint64_t)), calloc(SEEN_SLOTS, sizeof(int)),
                     SEEN_SLOTS - 1};
    node root;
    memset(&root, 0, sizeof root);
    pack(start, &root.board);
    root.hash = board_hash(start);
    root.parent = -1;
    root.ones = nine_board_ones_a(start);
    root.diag = diagonal_ones(start, lib);
    root.score = 2 * root.ones - root.diag;
    int opening_end = p->opening_width > 0 ? root.ones * p->opening_percent / 100 : 0;
    int best = -1, at = -1;
    if (worst_at)
        for (int g = 0; g <= bound; g++) worst_at[g] = -1;
    if (!buckets || !fill || !worst_at || !steps || !seen.key || !seen.cost ||
        (at = arena_push(&ar, &root)) < 0) {
        status = NINE_GREEDY_NO_MEMORY;
        goto done;
    }
    buckets[0] = at;
    fill[0] = 1;
    int cut_at = -1; /* the bucket being worked on when the work ran out */
    for (int g = 0; g < bound && cut_at < 0; g++) {
        if (p->tail && fill[g] > 0) {
            try_tails(&ar, buckets + (size_t)g * width, fill[g], g, p, start, &tail);
            if (tail.cost < bound) bound = tail.cost; /* a step costs at least one move */
        }
        for (int t = 0; t < fill[g] && cut_at < 0 && g + 1 < bound; t++) {
            if (budget_expired(b)) {
                status = NINE_GREEDY_TIME_OUT;
                goto done;
            }
            if (++expansions > p->max_expansions) {
                cut_at = g;
                break;
            }
            int pi = buckets[(size_t)g * width + t];
            nine_board parent;
            unpack(&ar.v[pi].board, start->n, &parent);
            int k = nine_step_candidates(&parent, lib, steps, per_node,
                                         nine_suffix_tail(&ar.v[pi].suffix));
            for (int s = 0; s < k; s++) {
                node x;
                int cg =
                    g + nine_suffix_join(&ar.v[pi].suffix, start->n, lib, &steps[s], &x.suffix);
                if (cg <= g) cg = g + 1; /* buckets up to g are done (a step undoing the last) */
                if (cg >= bound) continue;
                nine_board child = parent;
                x.parent = pi;
                x.step = steps[s];
                x.g = cg;
                x.ones = ar.v[pi].ones - steps[s].red;
                x.diag = ar.v[pi].diag - steps[s].red_diag;
                x.score = 2 * x.ones - x.diag;
                int *bk = buckets + (size_t)cg * width;
                /* The bucket's worst (the first of the highest score), to beat when it is full;
                 * kept until the bucket changes (most children are turned away by it). */
                int worst = -1;
                int keep = cg < opening_end ? p->opening_width : p->width;
                if (fill[cg] >= keep) {
                    if (worst_at[cg] < 0) {
                        worst = 0;
                        for (int u = 1; u < fill[cg]; u++)
                            if (ar.v[bk[u]].score > ar.v[bk[worst]].score) worst = u;
                        worst_at[cg] = worst;
                    }
                    worst = worst_at[cg];
                    if (ar.v[bk[worst]].score <= x.score) continue;
                }
                nine_step_apply(&child, lib, &x.step, NULL);
                x.hash = board_hash(&child);
                pack(&child, &x.board);
                if (seen_before(&seen, x.hash, cg)) continue;
                int xi = arena_push(&ar, &x);
                if (xi < 0) {
                    status = NINE_GREEDY_NO_MEMORY;
                    goto done;
                }
                if (x.ones == 0) {
                    if (best < 0 || cg < ar.v[best].g) best = xi;
                    bound = cg; /* nothing at this cost or more can beat it */
                    continue;
                }
                worst_at[cg] = -1;
                if (worst >= 0)
                    bk[worst] = xi;
                else
                    bk[fill[cg]++] = xi;
            }
        }
    }
    out->len = 0;
    if (tail.node >= 0 && (best < 0 || tail.cost < ar.v[best].g)) {
        if (!read_back(&ar, tail.node, lib, start, out)) status = NINE_GREEDY_NO_MEMORY;
        for (int t = 0; t < tail.len && status == NINE_GREEDY_OK; t++)
            if (!nine_moves_push(out, tail.moves[t])) status = NINE_GREEDY_NO_MEMORY;
    } else if (best >= 0 && !read_back(&ar, best, lib, start, out)) {
        status = NINE_GREEDY_NO_MEMORY;
    }
    if (cut_at >= 0 && fill[cut_at] > 0 && status == NINE_GREEDY_OK)
        status =
            finish_greedily(&ar, buckets + (size_t)cut_at * width, fill[cut_at], lib, start, out);
done:
    free(ar.v);
    free(buckets);
    free(fill);
    free(worst_at);
    free(steps);
    free(seen.key);
    free(seen.cost);
    return status;
}
