/* Rubik's Rectangle: exact decision and a short sorting sequence.
 *
 * Cells fall into orbits under the flips: {(i,j), (i,W-1-j), (H-1-i,j), (H-1-i,W-1-j)}. The middle
 * row of an odd H (middle column of an odd W) is only ever reversed as a whole by its own flip,
 * which commutes with everything else. A 4-cell orbit (p,q) is moved only by the rows of pair p
 * (T, B) and the columns of pair q (L, R), each a transposition of its cells (see
 * rubiks_rectangle_group.h), so its parity after any word is x_p + y_q (flips of row pair p plus
 * flips of column pair q, mod 2), and commutators such as (T L)^2 give every 3-cycle inside one
 * orbit without touching the rest. Hence: solvable exactly when every value lies in its home
 * orbit, the middle row/column is sorted or reversed, and par(p,q) = par(p,0) + par(0,q) +
 * par(0,0) for every orbit.
 *
 * Construction ("shared row runs with column carry"). The row pairs are grouped into blocks of
 * four (boards of at least 400 orbits) or three (or of two: boards of moderate size plan two
 * cuts and keep the cheaper), solved one block at a time. A block
 * gets one run of row flips X1..Xk (a row sequence) shared by all its orbits; before each Xi,
 * each column pair q applies some c_i in V = {e, L, R, LR}, and one column flip then serves the
 * orbits of every row pair of the block at once. Column flips also act on every other block, but
 * only through their net in V, which commutes inside V: a solved orbit of column pair q just waits
 * in state G_q A_q (G_q: the column pair's total net, fixed in advance; A_q: the net so far), and
 * one last set of column flips A_q G_q puts them all home at the end. Orbit (p,q) then needs w n =
 * A tau G A (tau: the inverse of its state, n the block's net), and the table of the row sequence
 * gives the cheapest column choices for every (targets, net). For fixed row sequences the column
 * pairs are independent: a dynamic program over the blocks with the net A in V as state gives each
 * column pair its optimum. A round of coordinate descent then picks each block's row sequence from
 * the candidates (the empty one too, for blocks already home), holding the others fixed; forward
 * and backward DP values make each try cheap. A candidate is a run laid onto the block in any order
 * of its pairs that fits their parities, and on boards of moderate size in any mirror image
 * (top/bottom of each pair, left/right): the images' tables are the run's own with conjugated
 * keys, so they cost no memory. Blocks of four (one run) also take prefixes: a row flip of a
 * pair before the run, which fits the run to any parities and is again the run's own table with
 * the key multiplied (see block). On boards of moderate size a local search then exchanges row
 * pairs between blocks (regroup): which pairs share a run is the one choice of the plan made per
 * board, so it is where the row flips carry some information. Blocks run along the longer side of
 * the board (the transposed board when H > W), and boards of moderate size are planned both ways.
 * Adjacent flips of the same kind commute, so a last pass cancels equal pairs inside each run.
 *
 * Flips on random boards: about 0.75 per 4-cell orbit on 1000 x 1000, 0.88 on 100 x 100 (a
 * per-orbit commutator method needs about 3.9). */
#include "rubiks_rectangle.h"

#include <stdlib.h>
#include <string.h>

#include "rubiks_rectangle_group.h"
#include "rubiks_rectangle_runs.h"

#define COST_INF 0x3fffffff

/* Rounds of coordinate descent: a second round gains about 0.1 %. */
#define DESCENT_ROUNDS 1
/* Boards with at most this many 4-cell orbits are planned in both orientations. */
#define BOTH_ORIENTATIONS_MAX_ORBITS 40000
/* Blocks of two pairs beat blocks of three only when a run serves few column pairs (the row
 * flips weigh more): plan that cut too below this many column pairs. */
#define CUT_TWO_MAX_COLS 40
/* Boards with this many 4-cell orbits try the mirror images and pair orders of the runs: below,
 * they gain a few flips for several times the time (a text body may hold 10^5 small boards);
 * above, the time grows past that of a 1000 x 1000 board. */
#define MIRRORS_MIN_ORBITS 400
#define MIRRORS_MAX_ORBITS 4000
/* Boards with this many 4-cell orbits plan blocks of four too (their table is built on the first
 * such board): 2.7-3.4 % fewer flips from 100 x 100 to 1000 x 1000; on smaller boards the run
 * of 36 row flips seldom pays and the plan would cost twice the time. */
#define QUADS_MIN_ORBITS 400
/* Boards of REGROUP_MIN_ORBITS..MIRRORS_MAX_ORBITS orbits are planned again in their better
 * orientation with this many tries at exchanging row pairs between blocks (regroup): on
 * 100 x 100, 300 tries give 1.0 % fewer flips for about 0.2 s of CPU, 600 tries 1.2 % for
 * 0.35 s (RESULTS-rubiks-rectangle.md). A count, not a clock, bounds them, so a board always gets
 * the same answer. Smaller boards have few blocks to exchange pairs between. */
#define REGROUP_SWAPS 300
#define REGROUP_MIN_ORBITS 2000
/* An exchange is laid out in full only when its quick layout (pair orders only) costs less than
 * the plan plus this many flips: the images and prefixes win back about that much. */
#define REGROUP_MARGIN 9

/* How many of the best runs of a block have their mirror images tried. */
#define TOP_RUNS 3

typedef struct move_list {
    rubiks_rectangle_move *m;
    size_t n, cap;
    bool out_of_memory;
} move_list;

static void push(move_list *l, rubiks_rectangle_move mv)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16; /* small: a text body may hold 10^5 tiny boards */
        rubiks_rectangle_move *m = realloc(l->m, cap * sizeof *m);
        if (!m) {
            l->out_of_memory = true;
            return;
        }
        l->m = m;
        l->cap = cap;
    }
    l->m[l->n++] = mv;
}

/* ---- the plan ---- */

/* A block: row pairs sharing one run, and how the run is laid onto them. pair[j] is the index
 * into row[] of the row pair that plays pair j of the run (three-pair runs are listed with
 * their odd pairs first). Two mirror images are free as well: bit j of tb swaps the top and
 * bottom rows of the run's pair j, and lr swaps the left and right column of every choice. Each
 * image's table is the run's own with the key conjugated (see block_key), so a block chooses
 * among many runs at no memory cost. A prefix is a row flip X of the run's pair j (bits 2j..2j+1
 * of pre: 1 = its top row, 2 = its bottom row) made before the run, with no column flips before
 * it: the orbit's word becomes X w, so the run's table serves it at the key X phi. A prefix
 * changes the pair's parity, so one run serves blocks of every parity. */
typedef struct block {
    uint16_t row[RR_PAIRS_MAX]; /* the block's row pairs (cut: consecutive; regroup swaps them) */
    uint8_t size;               /* 1..4 */
    uint8_t parity; /* bit j: the parity of the block's pair that plays the run's pair j */
    uint8_t pair[RR_PAIRS_MAX];
    uint8_t tb, lr;
    uint8_t pre;
    const rubiks_rectangle_seq *seq;
} block;

static inline unsigned block_row_cost(const block *bl)
{
    return bl->seq->row_cost + (unsigned)__builtin_popcount(bl->pre);
}

/* The state the core solver works on: P x Q orbits, tau = inverse of each orbit's state, and
 * the blocks of consecutive row pairs. */
typedef struct core {
    const rubiks_rectangle_group *g;
    int height, width, rows, cols; /* rows = P = H/2, cols = Q = W/2 */
    int blocks;
    const uint8_t *tau;        /* [p * Q + q] */
    uint8_t *pair_parity;      /* [p]: the parity every target of pair p has */
    uint8_t *column_parity;    /* [q]: the parity of G_q */
    block *block;              /* [block] */
    bool mirrors;              /* try the mirror images in the descent */
    bool quads;                /* plan blocks of four too */
    const rr_run_list *list;   /* the runs to choose from */
    uint8_t conj[4][RR_PERMS]; /* [tb + 2 lr][x]: x conjugated by the image */
} core;

/* The mirror images act on an orbit's state by conjugation: top <-> bottom by the column double
 * flip LR = (02)(13), left <-> right by the row double flip TB = (01)(23). Both commute with
 * every column choice, so a run's table serves its images with conjugated keys (and, for left
 * <-> right, the net's two bits swapped). */
static void core_init_conj(core *c)
{
    const rubiks_rectangle_group *g = c->g;
    for (int e = 0; e < 4; e++) {
        uint8_t m = g->identity;
        if (e & 1) m = g->mul[m][g->column[3]];
        if (e & 2) m = g->mul[m][g->row[3]];
        for (int x = 0; x < RR_PERMS; x++) c->conj[e][x] = g->mul[g->mul[m][x]][m];
    }
}

/* The net of the run's own table for the block's net n. */
static inline unsigned table_net(const block *bl, unsigned n)
{
    return bl->lr ? ((n & 1) << 1) | (n >> 1) : n;
}

static unsigned popcount2(unsigned v)
{
    return (v & 1) + ((v >> 1) & 1);
}

/* Cuts the P row pairs into blocks of `size` (2 or 3) pairs: the rest is one smaller block,
 * except that 3k + 1 pairs end with two blocks of two. */
static void cut_blocks(core *c, int size)
{
    int P = c->rows, n = 0, p = 0;
    while (p < P) {
        int left = P - p, take = left < size ? left : size;
        if (size == 3 && left == 4) take = 2;
        if (size == 4 && (left == 5 || left == 6)) take = 3;
        for (int o = 0; o < take; o++) c->block[n].row[o] = (uint16_t)(p + o);
        c->block[n].size = (uint8_t)take;
        n++;
        p += take;
    }
    c->blocks = n;
}

/* Fills a block's parity and pair order (odd pairs first) from pair_parity. */
static void order_block(const core *c, block *bl)
{
    int n = 0;
    if (bl->size >= 3) {
        for (int odd = 1; odd >= 0; odd--)
            for (int j = 0; j < bl->size; j++)
                if (c->pair_parity[bl->row[j]] == odd) bl->pair[n++] = (uint8_t)j;
    } else {
        for (int j = 0; j < bl->size; j++) bl->pair[n++] = (uint8_t)j;
    }
    bl->parity = 0;
    for (int j = 0; j < bl->size; j++)
        bl->parity |= (uint8_t)(c->pair_parity[bl->row[bl->pair[j]]] << j);
    bl->tb = bl->lr = bl->pre = 0;
}

static void order_blocks(core *c)
{
    for (int blk = 0; blk < c->blocks; blk++) order_block(c, &c->block[blk]);
}

/* The target phi of orbit (p,q) when the net so far is A and the total is G: A tau G A. */
static inline uint8_t target(const core *c, uint8_t tau, unsigned a, unsigned g_total)
{
    const rubiks_rectangle_group *g = c->g;
    uint8_t x = g->mul[tau][g->column[g_total]];
    return g->mul[g->mul[g->column[a]][x]][g->column[a]];
}

/* The key of a block in its run's table from the targets of its pairs (raw[o]: pair first + o):
 * the target of the run's pair j, conjugated by the image, in digit j (base 24). Tables of more
 * pairs than the block has (the empty run's) read the missing digits as 0, the identity. */
static inline unsigned arranged_key(const core *c, const block *bl, const uint8_t *raw)
{
    unsigned key = 0;
    for (int j = bl->size - 1; j >= 0; j--) {
        uint8_t phi = raw[bl->pair[j]];
        unsigned pre = (bl->pre >> (2 * j)) & 3;
        if (pre) phi = c->g->mul[c->g->row[pre]][phi];
        key = key * RR_PERMS + c->conj[((bl->tb >> j) & 1) | bl->lr << 1][phi];
    }
    return key;
}

/* The raw targets of block blk in column pair q. */
static inline void block_targets(const core *c, int blk, int q, unsigned a, unsigned g_total,
                                 uint8_t *raw)
{
    const block *bl = &c->block[blk];
    for (int o = 0; o < bl->size; o++)
        raw[o] = target(c, c->tau[(size_t)bl->row[o] * c->cols + q], a, g_total);
}

static inline unsigned block_key(const core *c, int blk, int q, unsigned a, unsigned g_total)
{
    uint8_t raw[RR_PAIRS_MAX];
    block_targets(c, blk, q, a, g_total, raw);
    return arranged_key(c, &c->block[blk], raw);
}

/* One step of the forward DP through block blk. */
static void forward_step(const core *c, int blk, int q, unsigned g_total, const unsigned *cur,
                         unsigned *next, uint8_t *back)
{
    const block *bl = &c->block[blk];
    for (int a = 0; a < 4; a++) next[a] = COST_INF;
    for (unsigned a = 0; a < 4; a++) {
        if (cur[a] >= COST_INF) continue;
        unsigned key = block_key(c, blk, q, a, g_total);
        for (unsigned n = 0; n < 4; n++) {
            unsigned cost = bl->seq->cost[key][table_net(bl, n)];
            if (cost == RR_COST_NONE) continue;
            unsigned v = cur[a] + cost;
            if (v < next[a ^ n]) {
                next[a ^ n] = v;
                if (back) back[a ^ n] = (uint8_t)a;
            }
        }
    }
}

/* Forward DP of column pair q with total G: f[blk*4 + A] = cheapest column cost of the blocks
 * before blk ending with net A. back (optional) records the predecessor net. Returns the best
 * total including the final flips. */
static unsigned column_forward(const core *c, int q, unsigned g_total, unsigned *f, uint8_t *back)
{
    int B = c->blocks;
    for (int a = 0; a < 4; a++) f[a] = a == 0 ? 0 : COST_INF;
    for (int blk = 0; blk < B; blk++)
        forward_step(c, blk, q, g_total, f + 4 * blk, f + 4 * (blk + 1),
                     back ? back + 4 * blk : NULL);
    unsigned best = COST_INF;
    for (unsigned a = 0; a < 4; a++)
        if (f[4 * B + a] < COST_INF && f[4 * B + a] + popcount2(a ^ g_total) < best)
            best = f[4 * B + a] + popcount2(a ^ g_total);
    return best;
}

/* The two totals G of the right parity for column pair q. */
static void column_totals(const core *c, int q, unsigned out[2])
{
    if (c->column_parity[q]) {
        out[0] = 1, out[1] = 2;
    } else {
        out[0] = 0, out[1] = 3;
    }
}

static void choose_parities(core *c, unsigned g0)
{
    const rubiks_rectangle_group *g = c->g;
    int Q = c->cols;
    uint8_t base = g->parity[c->tau[0]];
    for (int q = 0; q < Q; q++) c->column_parity[q] = (uint8_t)(g->parity[c->tau[q]] ^ base ^ g0);
    for (int p = 0; p < c->rows; p++)
        c->pair_parity[p] = (uint8_t)(g->parity[c->tau[(size_t)p * Q]] ^ g0);
}

/* Sets the prefixes of a block whose run's parities differ from its pairs': the top row of each
 * pair that differs. False when they differ in a block of fewer than four pairs. */
static bool fit_prefix(const core *c, block *bl)
{
    unsigned parity = 0;
    for (int j = 0; j < bl->size; j++)
        parity |= (unsigned)c->pair_parity[bl->row[bl->pair[j]]] << j;
    unsigned differ = (parity ^ bl->seq->parity) & ((1u << bl->size) - 1);
    bl->pre = 0;
    if (!differ) return true;
    /* Blocks of three choose among runs of every parity; prefixes there gained 0.06 %. */
    if (bl->seq->len == 0 || bl->size < 4) return false;
    for (int j = 0; j < bl->size; j++)
        if ((differ >> j) & 1) bl->pre |= (uint8_t)(RR_ROW_TOP << (2 * j));
    return true;
}

static void pick_default_sequences(core *c)
{
    for (int blk = 0; blk < c->blocks; blk++) {
        block *bl = &c->block[blk];
        bl->seq = rr_runs_pick(c->list, bl->size, bl->parity, c->cols, bl->size == 4);
        fit_prefix(c, bl);
    }
}

/* Total flips of the core plan for the current row sequences; -1 when out of time. */
static long plan_cost(const core *c, unsigned *f, budget *b)
{
    long total = 0;
    for (int blk = 0; blk < c->blocks; blk++) total += block_row_cost(&c->block[blk]);
    for (int q = 0; q < c->cols; q++) {
        if (budget_expired(b)) return -1;
        unsigned totals[2];
        column_totals(c, q, totals);
        unsigned best = COST_INF;
        for (int k = 0; k < 2; k++) {
            unsigned v = column_forward(c, q, totals[k], f, NULL);
            if (v < best) best = v;
        }
        total += best;
    }
    return total;
}

/* One step of the backward DP through block blk. */
static void backward_step(const core *c, int blk, int q, unsigned g_total, const unsigned *next,
                          unsigned *cur)
{
    const block *bl = &c->block[blk];
    for (unsigned a = 0; a < 4; a++) {
        unsigned key = block_key(c, blk, q, a, g_total);
        unsigned best = COST_INF;
        for (unsigned n = 0; n < 4; n++) {
            unsigned cost = bl->seq->cost[key][table_net(bl, n)];
            if (cost == RR_COST_NONE) continue;
            unsigned v = cost + next[a ^ n];
            if (v < best) best = v;
        }
        cur[a] = best;
    }
}

/* The plan's cost with block `trial` laid as given, the other blocks held (f: forward values
 * before the block, bn: backward values after it, raw: the block's targets per column pair,
 * total and net). Stops early, at a value >= limit, once it reaches limit (limit < 0: none). */
static long trial_cost(const core *c, const block *trial, const unsigned *f, const unsigned *bn,
                       const uint8_t *raw, long limit)
{
    const rubiks_rectangle_seq *s = trial->seq;
    long cost = block_row_cost(trial);
    for (int q = 0; q < c->cols && (limit < 0 || cost < limit); q++) {
        unsigned m = COST_INF;
        for (size_t at = 8 * (size_t)q; at < 8 * (size_t)q + 8; at += 4)
            for (unsigned a = 0; a < 4; a++) {
                if (f[at + a] >= COST_INF) continue;
                const uint8_t *sc = s->cost[arranged_key(c, trial, raw + RR_PAIRS_MAX * (at + a))];
                for (unsigned n = 0; n < 4; n++) {
                    unsigned cn = sc[table_net(trial, n)];
                    if (cn == RR_COST_NONE) continue;
                    unsigned v = f[at + a] + cn + bn[at + (a ^ n)];
                    if (v < m) m = v;
                }
            }
        cost += m;
    }
    return cost;
}

/* The order number pm (0 <= pm < size!) of size pairs, by its factorial digits. */
static void order_of(int size, int pm, uint8_t *order)
{
    uint8_t left[RR_PAIRS_MAX];
    for (int j = 0; j < size; j++) left[j] = (uint8_t)j;
    for (int j = 0, n = size; j < size; j++, n--) {
        int f = 1;
        for (int k = 2; k < n; k++) f *= k;
        int at = pm / f;
        pm %= f;
        order[j] = left[at];
        for (int k = at; k < n - 1; k++) left[k] = left[k + 1];
    }
}

/* The targets of block blk for every column pair, total and carried net, laid out as trial_cost
 * reads them. */
static void fill_raw(const core *c, int blk, uint8_t *raw)
{
    for (int q = 0; q < c->cols; q++) {
        unsigned totals[2];
        column_totals(c, q, totals);
        for (int k = 0; k < 2; k++)
            for (unsigned a = 0; a < 4; a++)
                block_targets(c, blk, q, a, totals[k],
                              raw + RR_PAIRS_MAX * (8 * (size_t)q + 4 * (size_t)k + a));
    }
}

/* The best way to lay a run onto block bl with the other blocks held (f: forward values before
 * it, bn: backward values after it, raw: its targets, as in trial_cost): every run in every
 * fitting order, then (unless quick) the mirror images of the best few and the prefixes of the
 * pick. Tries that reach `bound` (>= 0) are dropped. Writes the pick (or the block as it is, when
 * nothing fits under the bound) to *out and its plan cost (as trial_cost; COST_INF for none) to
 * *out_cost; false when out of time. */
static bool best_layout(const core *c, const block *bl, const unsigned *f, const unsigned *bn,
                        const uint8_t *raw, bool quick, long bound, block *out, long *out_cost,
                        budget *b)
{
    static const int perm_count[RR_PAIRS_MAX + 1] = {1, 1, 2, 6, 24};
    const rr_run_list *list = c->list;
    int size = bl->size;
    /* First every run in every fitting order, as it is; then the mirror images of the
     * TOP_RUNS best of those only (images cost as much as runs to try, and the best image
     * of a good run is what usually wins). */
    block top[TOP_RUNS];
    long top_cost[TOP_RUNS];
    int tops = 0;
    block trial = *bl;
    for (int i = 0; i < list->count; i++) {
        const rubiks_rectangle_seq *s = list->seq[i];
        /* The empty sequence serves a block of up to three pairs. */
        if (s->len > 0 ? s->pairs != size : size > 3) continue;
        trial.seq = s;
        trial.tb = trial.lr = 0;
        /* Large boards keep the block's own order (odd pairs first): fewer tries. */
        for (int pm = 0; pm < (c->mirrors ? perm_count[size] : 1); pm++) {
            if (c->mirrors)
                order_of(size, pm, trial.pair);
            else
                memcpy(trial.pair, bl->pair, sizeof trial.pair);
            if (!fit_prefix(c, &trial)) continue;
            if (budget_expired(b)) return false;
            long limit = tops == TOP_RUNS ? top_cost[TOP_RUNS - 1] : bound;
            long cost = trial_cost(c, &trial, f, bn, raw, limit);
            if (limit < 0 || cost < limit) {
                int at = tops < TOP_RUNS ? tops++ : TOP_RUNS - 1;
                for (; at > 0 && top_cost[at - 1] > cost; at--) {
                    top[at] = top[at - 1];
                    top_cost[at] = top_cost[at - 1];
                }
                top[at] = trial;
                top_cost[at] = cost;
            }
            if (s->len == 0) break;
        }
    }
    block pick = tops ? top[0] : *bl;
    long best = tops ? top_cost[0] : -1;
    for (int t = 0; t < tops && c->mirrors && !quick; t++) {
        trial = top[t];
        if (trial.seq->len == 0) continue;
        /* The single-pair runs are every run up to their length, so each is its own
         * top/bottom image already: only left/right for them. */
        int images = size == 1 ? 2 : 2 << size;
        for (int image = 1; image < images; image++) {
            if (budget_expired(b)) return false;
            trial.tb = (uint8_t)(image >> 1);
            trial.lr = (uint8_t)(image & 1);
            long cost = trial_cost(c, &trial, f, bn, raw, best);
            if (cost < best) {
                best = cost;
                pick = trial;
            }
        }
    }
    /* Then the other prefixes of the pick: the bottom row instead of the top for any of
     * the pairs that take one. */
    if (pick.pre && c->mirrors && !quick) {
        unsigned take[RR_PAIRS_MAX], m = 0;
        for (int j = 0; j < size; j++)
            if ((pick.pre >> (2 * j)) & 3) take[m++] = (unsigned)j;
        trial = pick;
        for (unsigned v = 1; v < 1u << m; v++) {
            if (budget_expired(b)) return false;
            trial.pre = 0;
            for (unsigned k = 0; k < m; k++)
                trial.pre |=
                    (uint8_t)((((v >> k) & 1) ? RR_ROW_BOTTOM : RR_ROW_TOP) << (2 * take[k]));
            long cost = trial_cost(c, &trial, f, bn, raw, best);
            if (cost < best) {
                best = cost;
                pick = trial;
            }
        }
    }
    *out = pick;
    if (out_cost) *out_cost = tops ? best : COST_INF; /* none under the bound */
    return true;
}

/* One round of coordinate descent over the blocks' row sequences, each block in turn taking the
 * candidate that minimises the whole plan with the others held. fw and bw hold the forward and
 * backward DP values of every column pair and total, laid out [block][q][total][net] so that
 * one block's values are contiguous; keys holds one block's table keys. */
static bool descend(core *c, unsigned *fw, unsigned *bw, uint32_t *keys, uint8_t *raw, budget *b)
{
    int B = c->blocks, Q = c->cols;
    size_t row = 8 * (size_t)Q; /* one block's values */
    for (int q = 0; q < Q; q++) {
        if (budget_expired(b)) return false;
        unsigned totals[2];
        column_totals(c, q, totals);
        for (int k = 0; k < 2; k++) {
            size_t at = 8 * (size_t)q + 4 * (size_t)k;
            for (unsigned a = 0; a < 4; a++) {
                fw[at + a] = a == 0 ? 0 : COST_INF;
                bw[(size_t)B * row + at + a] = popcount2(a ^ totals[k]);
            }
        }
    }
    for (int blk = B - 1; blk >= 0; blk--) {
        if (budget_expired(b)) return false;
        for (int q = 0; q < Q; q++) {
            unsigned totals[2];
            column_totals(c, q, totals);
            for (int k = 0; k < 2; k++) {
                size_t at = 8 * (size_t)q + 4 * (size_t)k;
                backward_step(c, blk, q, totals[k], bw + (blk + 1) * row + at, bw + blk * row + at);
            }
        }
    }
    for (int blk = 0; blk < B; blk++) {
        const unsigned *f = fw + blk * row, *bn = bw + (blk + 1) * row;
        block *bl = &c->block[blk];
        fill_raw(c, blk, raw);
        block pick;
        if (!best_layout(c, bl, f, bn, raw, false, -1, &pick, NULL, b)) return false;
        *bl = pick;
        for (size_t at = 0; at < row; at++) keys[at] = arranged_key(c, bl, raw + RR_PAIRS_MAX * at);
        /* Advance the forward values through the block with its new sequence. */
        unsigned *next = fw + (blk + 1) * row;
        for (size_t at = 0; at < row; at += 4) {
            for (unsigned a = 0; a < 4; a++) next[at + a] = COST_INF;
            for (unsigned a = 0; a < 4; a++) {
                if (f[at + a] >= COST_INF) continue;
                const uint8_t *sc = bl->seq->cost[keys[at + a]];
                for (unsigned n = 0; n < 4; n++) {
                    unsigned cn = sc[table_net(bl, n)];
                    if (cn != RR_COST_NONE && f[at + a] + cn < next[at + (a ^ n)])
                        next[at + (a ^ n)] = f[at + a] + cn;
                }
            }
        }
    }
    return true;
}

/* The forward values after blocks from..to (fw rows from + 1..to + 1) from those before `from`,
 * and the backward values before blocks from down to `to` (bw rows from..to) from those after
 * `from`: every column pair and total, laid out as in descend. */
static void dp_forward(const core *c, unsigned *fw, int from, int to)
{
    size_t row = 8 * (size_t)c->cols;
    for (int q = 0; q < c->cols; q++) {
        unsigned totals[2];
        column_totals(c, q, totals);
        for (int k = 0; k < 2; k++) {
            size_t at = 8 * (size_t)q + 4 * (size_t)k;
            for (int blk = from; blk <= to; blk++)
                forward_step(c, blk, q, totals[k], fw + blk * row + at, fw + (blk + 1) * row + at,
                             NULL);
        }
    }
}

static void dp_backward(const core *c, unsigned *bw, int from, int to)
{
    size_t row = 8 * (size_t)c->cols;
    for (int q = 0; q < c->cols; q++) {
        unsigned totals[2];
        column_totals(c, q, totals);
        for (int k = 0; k < 2; k++) {
            size_t at = 8 * (size_t)q + 4 * (size_t)k;
            for (int blk = from; blk >= to; blk--)
                backward_step(c, blk, q, totals[k], bw + (blk + 1) * row + at, bw + blk * row + at);
        }
    }
}

/* All forward and backward values of the plan; returns its cost. */
static long dp_values(const core *c, unsigned *fw, unsigned *bw)
{
    int B = c->blocks, Q = c->cols;
    size_t row = 8 * (size_t)Q;
    long cost = 0;
    for (int blk = 0; blk < B; blk++) cost += block_row_cost(&c->block[blk]);
    for (int q = 0; q < Q; q++) {
        unsigned totals[2];
        column_totals(c, q, totals);
        for (int k = 0; k < 2; k++) {
            size_t at = 8 * (size_t)q + 4 * (size_t)k;
            for (unsigned a = 0; a < 4; a++) {
                fw[at + a] = a == 0 ? 0 : COST_INF;
                bw[(size_t)B * row + at + a] = popcount2(a ^ totals[k]);
            }
        }
    }
    dp_forward(c, fw, 0, B - 1);
    dp_backward(c, bw, B - 1, 0);
    for (int q = 0; q < Q; q++) {
        unsigned best = COST_INF;
        for (int k = 0; k < 2; k++)
            if (bw[8 * (size_t)q + 4 * (size_t)k] < best) best = bw[8 * (size_t)q + 4 * (size_t)k];
        cost += best;
    }
    return cost;
}

/* Whether the block's run, laid as it is, fits the parities of its pairs. */
static bool layout_fits(const core *c, const block *bl)
{
    for (int j = 0; j < bl->size; j++) {
        unsigned pre = (bl->pre >> (2 * j)) & 3;
        unsigned par = c->pair_parity[bl->row[bl->pair[j]]] ^ (pre == 1 || pre == 2);
        if (par != ((bl->seq->parity >> j) & 1u)) return false;
    }
    return true;
}

/* Local search over which row pairs share a block: exchange a pair of one block with a pair of
 * another, lay both blocks' runs anew (best_layout, the others held), and keep the exchange when
 * the whole plan gets cheaper. A quick layout (pair orders only) rejects most exchanges first.
 * `swaps` tries from a fixed seed: the same board gets the same plan. The forward values before
 * the first block of an exchange and the backward values after the second stay valid, so each
 * try recomputes only the blocks between. */
static bool regroup(core *c, unsigned *fw, unsigned *bw, uint8_t *raw, int swaps, budget *b)
{
    int B = c->blocks;
    size_t row = 8 * (size_t)c->cols;
    long cur = dp_values(c, fw, bw);
    uint64_t rng = 0x9E3779B97F4A7C15ull;
    for (int it = 0; it < swaps; it++) {
        if (budget_expired(b)) return false;
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        int b1 = (int)(rng % (uint64_t)B), b2 = (int)((rng >> 16) % (uint64_t)B);
        if (b1 == b2 || c->block[b1].size < 3 || c->block[b2].size < 3) continue;
        if (b1 > b2) {
            int t = b1;
            b1 = b2, b2 = t;
        }
        block keep[2] = {c->block[b1], c->block[b2]};
        int o1 = (int)((rng >> 32) % c->block[b1].size),
            o2 = (int)((rng >> 40) % c->block[b2].size);
        uint16_t t = c->block[b1].row[o1];
        c->block[b1].row[o1] = c->block[b2].row[o2];
        c->block[b2].row[o2] = t;
        long others = 0;
        for (int blk = 0; blk < B; blk++)
            if (blk != b1 && blk != b2) others += block_row_cost(&c->block[blk]);
        bool ok = true;
        for (int side = 0; side < 2 && ok; side++) {
            block *bl = &c->block[side ? b2 : b1];
            order_block(c, bl);
            bl->seq = rr_runs_pick(c->list, bl->size, bl->parity, c->cols, bl->size == 4);
            ok = bl->seq && fit_prefix(c, bl);
        }
        long cost = -1;
        for (int pass = 0; pass < 2 && ok; pass++) {
            block pick;
            dp_backward(c, bw, b2, b1 + 1);
            fill_raw(c, b1, raw);
            if (!best_layout(c, &c->block[b1], fw + b1 * row, bw + (b1 + 1) * row, raw, pass == 0,
                             -1, &pick, NULL, b))
                return false;
            c->block[b1] = pick;
            dp_forward(c, fw, b1, b2 - 1);
            fill_raw(c, b2, raw);
            /* Only an exchange that may pay needs the second block's layout in full. */
            long rest = others + (long)block_row_cost(&c->block[b1]);
            long bound = pass == 0 ? cur + REGROUP_MARGIN - rest : -1;
            if (!best_layout(c, &c->block[b2], fw + b2 * row, bw + (b2 + 1) * row, raw, pass == 0,
                             bound, &pick, &cost, b))
                return false;
            if (pass == 0 && cost >= bound) {
                ok = false;
                break;
            }
            c->block[b2] = pick;
            ok = layout_fits(c, &c->block[b1]) && layout_fits(c, &c->block[b2]);
            cost += rest;
        }
        if (ok && cost < cur) {
            cur = dp_values(c, fw, bw);
        } else {
            c->block[b1] = keep[0];
            c->block[b2] = keep[1];
            dp_backward(c, bw, b2, b1 + 1);
            dp_forward(c, fw, b1, b2 - 1);
        }
    }
    return true;
}

/* Writes the moves of the core plan: per block, before each row event the column choices, then
 * the event's row flips; at the end the final column flips. */
static bool emit_core(const core *c, move_list *out, unsigned *f, uint8_t *back, uint64_t *choice,
                      uint8_t *final_net, budget *b)
{
    int B = c->blocks, Q = c->cols, H = c->height, W = c->width;
    for (int q = 0; q < Q; q++) {
        if (budget_expired(b)) return false;
        unsigned totals[2];
        column_totals(c, q, totals);
        unsigned best = COST_INF, g_total = totals[0];
        for (int k = 0; k < 2; k++) {
            unsigned v = column_forward(c, q, totals[k], f, NULL);
            if (v < best) best = v, g_total = totals[k];
        }
        column_forward(c, q, g_total, f, back);
        unsigned a_end = 0, end_cost = COST_INF;
        for (unsigned a = 0; a < 4; a++)
            if (f[4 * B + a] < COST_INF && f[4 * B + a] + popcount2(a ^ g_total) < end_cost)
                end_cost = f[4 * B + a] + popcount2(a ^ g_total), a_end = a;
        final_net[q] = (uint8_t)(a_end ^ g_total);
        unsigned a = a_end;
        for (int blk = B - 1; blk >= 0; blk--) {
            unsigned prev = back[4 * blk + a];
            unsigned key = block_key(c, blk, q, prev, g_total);
            const block *bl = &c->block[blk];
            choice[(size_t)blk * Q + q] = bl->seq->choice[key][table_net(bl, a ^ prev)];
            a = prev;
        }
    }
    for (int blk = 0; blk < B; blk++) {
        if (budget_expired(b)) return false;
        const block *bl = &c->block[blk];
        const rubiks_rectangle_seq *s = bl->seq;
        for (int j = 0; j < bl->size; j++) {
            unsigned pre = (bl->pre >> (2 * j)) & 3;
            int p = bl->row[bl->pair[j]];
            if (pre & RR_ROW_TOP) push(out, p + 1);
            if (pre & RR_ROW_BOTTOM) push(out, H - p);
        }
        for (int i = 0; i < s->len; i++) {
            for (int q = 0; q < Q; q++) {
                unsigned cv = rubiks_rectangle_choice_at(choice[(size_t)blk * Q + q], i);
                if (bl->lr) cv = table_net(bl, cv); /* the same swap of L and R */
                if (cv & 1) push(out, -(q + 1));
                if (cv & 2) push(out, -(W - q));
            }
            int j = RR_ROW_PAIR(s->rows[i]), p = bl->row[bl->pair[j]];
            unsigned rows = s->rows[i] & 3;
            if (((bl->tb >> j) & 1) && rows != 3) rows ^= 3;
            if (rows & RR_ROW_TOP) push(out, p + 1);
            if (rows & RR_ROW_BOTTOM) push(out, H - p);
        }
    }
    for (int q = 0; q < Q; q++) {
        if (final_net[q] & 1) push(out, -(q + 1));
        if (final_net[q] & 2) push(out, -(W - q));
    }
    return !out->out_of_memory;
}

/* Row flips commute with row flips and column flips with column flips: inside each maximal run
 * of one kind, a line flipped an even number of times is dropped. Repeated until stable, since
 * emptying a run joins its neighbours. */
static size_t cancel_pairs(rubiks_rectangle_move *m, size_t n, uint8_t *mark)
{
    bool changed = true;
    while (changed) {
        changed = false;
        size_t out = 0;
        for (size_t i = 0; i < n;) {
            bool is_row = m[i] > 0;
            size_t j = i;
            while (j < n && (m[j] > 0) == is_row) j++;
            for (size_t k = i; k < j; k++) mark[abs(m[k])] ^= 1;
            size_t kept = out;
            for (size_t k = i; k < j; k++) {
                int line = abs(m[k]);
                if (mark[line]) {
                    m[out++] = m[k];
                    mark[line] = 0;
                }
            }
            if (out - kept != j - i) changed = true;
            i = j;
        }
        n = out;
    }
    return n;
}

typedef struct workspace {
    uint8_t *pair_parity, *column_parity, *back, *final_net, *mark;
    block *block, *best_block;
    uint8_t *raw;
    unsigned *f, *fw, *bw;
    uint32_t *keys;
    uint64_t *choice;
} workspace;

static void workspace_free(workspace *ws)
{
    free(ws->pair_parity);
    free(ws->column_parity);
    free(ws->back);
    free(ws->final_net);
    free(ws->mark);
    free(ws->best_block);
    free(ws->raw);
    free(ws->f);
    free(ws->fw);
    free(ws->bw);
    free(ws->keys);
    free(ws->choice);
    free(ws->block);
}

/* Solves the 4-cell orbits (tau already filled). Blocks of three pairs need fewer flips per
 * orbit than blocks of two once a run serves enough column pairs; boards of moderate size with
 * few column pairs plan both cuts, and keep the cheaper. */
static rubiks_rectangle_status solve_core(core *c, workspace *ws, move_list *out, bool both_cuts,
                                          int swaps, budget *b)
{
    int B = (c->rows + 1) / 2, Q = c->cols; /* blocks of two: the most blocks of any cut */
    size_t stride = 4 * (size_t)(B + 1);
    ws->f = malloc(stride * sizeof *ws->f);
    ws->fw = malloc(2 * (size_t)Q * stride * sizeof *ws->fw);
    ws->bw = malloc(2 * (size_t)Q * stride * sizeof *ws->bw);
    ws->keys = malloc(8 * (size_t)Q * sizeof *ws->keys);
    ws->back = malloc(4 * (size_t)B);
    ws->choice = malloc((size_t)B * Q * sizeof *ws->choice);
    ws->final_net = malloc((size_t)Q);
    ws->block = malloc((size_t)B * sizeof *ws->block);
    ws->best_block = malloc((size_t)B * sizeof *ws->best_block);
    ws->raw = malloc(8 * (size_t)Q * RR_PAIRS_MAX);
    if (!ws->f || !ws->fw || !ws->bw || !ws->keys || !ws->back || !ws->choice || !ws->final_net ||
        !ws->block || !ws->best_block || !ws->raw)
        return RUBIKS_RECTANGLE_NO_MEMORY;
    c->block = ws->block;
    core_init_conj(c);
    /* Blocks of four need at least four row pairs and enough orbits to pay (QUADS_MIN_ORBITS). */
    bool cut_four = c->quads && c->rows >= 4;
    rr_run_list list;
    if (!rr_runs_list(&list, cut_four, b))
        return budget_expired(b) ? RUBIKS_RECTANGLE_TIME_LIMIT : RUBIKS_RECTANGLE_NO_MEMORY;
    c->list = &list;

    /* The free choices: the cut, and the parity of G_0. Plan each, keep the cheapest. */
    long best = -1;
    unsigned best_g0 = 0;
    int best_size = 3;
    /* The cuts to plan: fours where they are tried (threes too with few column pairs, where the
     * row flips weigh more), else threes (and twos with few column pairs). Up to two pairs,
     * every cut is the same one block. */
    bool few_cols = both_cuts && Q < CUT_TWO_MAX_COLS && c->rows >= 3;
    int sizes[2] = {3, few_cols ? 2 : 0};
    if (cut_four) sizes[0] = 4, sizes[1] = few_cols ? 3 : 0;
    for (int s = 0; s < 2 && sizes[s]; s++)
        for (unsigned g0 = 0; g0 < 2; g0++) {
            int size = sizes[s];
            cut_blocks(c, size);
            choose_parities(c, g0);
            order_blocks(c);
            pick_default_sequences(c);
            for (int round = 0; round < DESCENT_ROUNDS; round++)
                if (!descend(c, ws->fw, ws->bw, ws->keys, ws->raw, b))
                    return RUBIKS_RECTANGLE_TIME_LIMIT;

            long cost = plan_cost(c, ws->f, b);
            if (cost < 0) return RUBIKS_RECTANGLE_TIME_LIMIT;
            if (best < 0 || cost < best) {
                best = cost, best_g0 = g0, best_size = size;
                memcpy(ws->best_block, c->block, (size_t)c->blocks * sizeof *ws->best_block);
            }
        }
    cut_blocks(c, best_size);
    choose_parities(c, best_g0);
    memcpy(c->block, ws->best_block, (size_t)c->blocks * sizeof *ws->best_block);
    if (swaps > 0 && !regroup(c, ws->fw, ws->bw, ws->raw, swaps, b))
        return RUBIKS_RECTANGLE_TIME_LIMIT;
    if (!emit_core(c, out, ws->f, ws->back, ws->choice, ws->final_net, b))
        return out->out_of_memory ? RUBIKS_RECTANGLE_NO_MEMORY : RUBIKS_RECTANGLE_TIME_LIMIT;
    return RUBIKS_RECTANGLE_OK;
}

/* Plans the 4-cell orbits of an H x W board (tau [p * Q + q]) into out, then cancels pairs. */
static rubiks_rectangle_status solve_orbits(const rubiks_rectangle_group *g, int H, int W,
                                            const uint8_t *tau, move_list *out, bool both_cuts,
                                            bool mirrors, int swaps, budget *b)
{
    int P = H / 2, Q = W / 2;
    workspace ws = {0};
    rubiks_rectangle_status status = RUBIKS_RECTANGLE_NO_MEMORY;
    ws.pair_parity = malloc((size_t)P);
    ws.column_parity = malloc((size_t)Q);
    ws.mark = calloc((size_t)(H > W ? H : W) + 1, 1);
    if (ws.pair_parity && ws.column_parity && ws.mark) {
        core c = {.g = g,
                  .height = H,
                  .width = W,
                  .rows = P,
                  .cols = Q,
                  .tau = tau,
                  .pair_parity = ws.pair_parity,
                  .column_parity = ws.column_parity,
                  .mirrors = mirrors,
                  .quads = (size_t)P * Q >= QUADS_MIN_ORBITS};
        status = solve_core(&c, &ws, out, both_cuts, swaps, b);
    }
    if (status == RUBIKS_RECTANGLE_OK && out->out_of_memory) status = RUBIKS_RECTANGLE_NO_MEMORY;
    if (status == RUBIKS_RECTANGLE_OK) out->n = cancel_pairs(out->m, out->n, ws.mark);
    workspace_free(&ws);
    return status;
}

/* The same orbits seen on the transposed board (rows and columns swapped): orbit (q,p) there
 * lists the cells of orbit (p,q) with positions 1 and 2 exchanged. */
static uint8_t *transpose_orbits(const rubiks_rectangle_group *g, const uint8_t *tau, int P, int Q)
{
    uint8_t *t = malloc((size_t)P * Q);
    if (!t) return NULL;
    const uint8_t swap12[4] = {0, 2, 1, 3};
    uint8_t s = rubiks_rectangle_group_index(g, swap12);
    for (int p = 0; p < P; p++)
        for (int q = 0; q < Q; q++)
            t[(size_t)q * P + p] = g->mul[s][g->mul[tau[(size_t)p * Q + q]][s]];
    return t;
}

static bool valid_permutation(const rubiks_rectangle_board *board, uint8_t *seen)
{
    size_t n = (size_t)board->height * (size_t)board->width;
    for (size_t i = 0; i < n; i++) {
        int32_t v = board->cells[i];
        if (v < 1 || (size_t)v > n || seen[v - 1]) return false;
        seen[v - 1] = 1;
    }
    return true;
}

/* Every value in its home orbit, middle row and column sorted or reversed. *reverse_row and
 * *reverse_col say which middle line needs its flip. */
static bool lines_and_orbits_fit(const rubiks_rectangle_board *board, bool *reverse_row,
                                 bool *reverse_col)
{
    int H = board->height, W = board->width;
    for (int i = 0; i < H; i++)
        for (int j = 0; j < W; j++) {
            int v = board->cells[(size_t)i * W + j] - 1;
            int hi = v / W, hj = v % W;
            if ((hi != i && hi != H - 1 - i) || (hj != j && hj != W - 1 - j)) return false;
        }
    *reverse_row = *reverse_col = false;
    if (H % 2 == 1) {
        int m = H / 2;
        for (int j = 0; j < W / 2; j++) {
            bool reversed = (board->cells[(size_t)m * W + j] - 1) % W != j;
            if (j == 0)
                *reverse_row = reversed;
            else if (reversed != *reverse_row)
                return false;
        }
    }
    if (W % 2 == 1) {
        int m = W / 2;
        for (int i = 0; i < H / 2; i++) {
            bool reversed = (board->cells[(size_t)i * W + m] - 1) / W != i;
            if (i == 0)
                *reverse_col = reversed;
            else if (reversed != *reverse_col)
                return false;
        }
    }
    return true;
}

/* Fills tau (the inverse of each orbit's state) and checks the parity rule. */
static bool orbits_fit(const rubiks_rectangle_board *board, const rubiks_rectangle_group *g,
                       uint8_t *tau)
{
    int H = board->height, W = board->width, P = H / 2, Q = W / 2;
    for (int p = 0; p < P; p++)
        for (int q = 0; q < Q; q++) {
            const int r[2] = {p, H - 1 - p}, col[2] = {q, W - 1 - q};
            uint8_t state[4];
            for (int k = 0; k < 4; k++) {
                int v = board->cells[(size_t)r[k >> 1] * W + col[k & 1]] - 1;
                state[k] = (uint8_t)((v / W == p ? 0 : 2) + (v % W == q ? 0 : 1));
            }
            tau[(size_t)p * Q + q] = g->inverse[rubiks_rectangle_group_index(g, state)];
        }
    for (int p = 0; p < P; p++)
        for (int q = 0; q < Q; q++)
            if (g->parity[tau[(size_t)p * Q + q]] ^ g->parity[tau[(size_t)p * Q]] ^
                g->parity[tau[q]] ^ g->parity[tau[0]])
                return false;
    return true;
}

rubiks_rectangle_status rubiks_rectangle_solve(const rubiks_rectangle_board *board, budget *b,
                                               rubiks_rectangle_answer *answer)
{
    answer->solvable = false;
    answer->moves = NULL;
    answer->move_count = 0;
    int H = board->height, W = board->width;
    if (H < 1 || W < 1 || H > RUBIKS_RECTANGLE_MAX_SIDE || W > RUBIKS_RECTANGLE_MAX_SIDE ||
        !board->cells)
        return RUBIKS_RECTANGLE_INVALID;
    size_t cells = (size_t)H * W;
    uint8_t *seen = calloc(cells, 1);
    if (!seen) return RUBIKS_RECTANGLE_NO_MEMORY;
    bool valid = valid_permutation(board, seen);
    free(seen);
    if (!valid) return RUBIKS_RECTANGLE_INVALID;

    bool reverse_row, reverse_col;
    if (!lines_and_orbits_fit(board, &reverse_row, &reverse_col)) return RUBIKS_RECTANGLE_OK;

    const rubiks_rectangle_group *g = rr_runs_group(b);
    if (!g) return budget_expired(b) ? RUBIKS_RECTANGLE_TIME_LIMIT : RUBIKS_RECTANGLE_NO_MEMORY;
    int P = H / 2, Q = W / 2;
    rubiks_rectangle_status status = RUBIKS_RECTANGLE_OK;
    move_list out = {0}, wide = {0}, tall = {0};
    uint8_t *tau = malloc((size_t)P * Q + 1), *tau_t = NULL;
    if (!tau) {
        status = RUBIKS_RECTANGLE_NO_MEMORY;
        goto done;
    }
    if (!orbits_fit(board, g, tau)) goto done; /* unsolvable: parity */

    /* The middle lines' flips commute with every other flip: do them first. */
    if (reverse_row) push(&out, H / 2 + 1);
    if (reverse_col) push(&out, -(W / 2 + 1));
    if (P > 0 && Q > 0) {
        /* A run of row flips is shared by a block's column pairs, so blocks should run along
         * the longer side: plan with rows as blocks when P <= Q, on the transposed board when
         * P > Q; boards of moderate size try both and keep the shorter. */
        bool both = (size_t)P * Q <= BOTH_ORIENTATIONS_MAX_ORBITS;
        bool plan_wide = P <= Q || both, plan_tall = P > Q || both;
        bool mirrors = (size_t)P * Q >= MIRRORS_MIN_ORBITS && (size_t)P * Q <= MIRRORS_MAX_ORBITS;
        if (plan_wide) status = solve_orbits(g, H, W, tau, &wide, both, mirrors, 0, b);
        if (status == RUBIKS_RECTANGLE_OK && plan_tall) {
            tau_t = transpose_orbits(g, tau, P, Q);
            status = tau_t ? solve_orbits(g, W, H, tau_t, &tall, both, mirrors, 0, b)
                           : RUBIKS_RECTANGLE_NO_MEMORY;
        }
        /* Exchanging row pairs between blocks (regroup) costs far more than a plan: only the
         * better orientation is planned again with them. */
        bool exchange = (size_t)P * Q >= REGROUP_MIN_ORBITS && mirrors;
        if (status == RUBIKS_RECTANGLE_OK && exchange) {
            bool redo_wide = plan_wide && (!plan_tall || wide.n <= tall.n);
            move_list *redo = redo_wide ? &wide : &tall;
            redo->n = 0;
            status = redo_wide
                         ? solve_orbits(g, H, W, tau, redo, both, mirrors, REGROUP_SWAPS, b)
                         : solve_orbits(g, W, H, tau_t, redo, both, mirrors, REGROUP_SWAPS, b);
        }
        if (status != RUBIKS_RECTANGLE_OK) goto done;
        /* A row of the transposed board is a column of this one. */
        for (size_t i = 0; i < tall.n; i++) tall.m[i] = -tall.m[i];
        const move_list *pick = plan_wide && (!plan_tall || wide.n <= tall.n) ? &wide : &tall;
        for (size_t i = 0; i < pick->n; i++) push(&out, pick->m[i]);
    }
    if (out.out_of_memory) {
        status = RUBIKS_RECTANGLE_NO_MEMORY;
        goto done;
    }
    answer->solvable = true;
    answer->moves = out.m;
    answer->move_count = out.n;
    out.m = NULL;
done:
    free(out.m);
    free(wide.m);
    free(tall.m);
    free(tau);
    free(tau_t);
    return status;
}

void rubiks_rectangle_answer_free(rubiks_rectangle_answer *answer)
{
    free(answer->moves);
    answer->moves = NULL;
    answer->move_count = 0;
    answer->solvable = false;
}
