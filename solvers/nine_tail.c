/* Meet in the middle. Once per size, a breadth-first search from the goal (a single state: A all
 * 0, B all 1) files every state within `radius` moves of it with its distance, as a 64-bit
 * fingerprint in an open-addressing table. A board is then finished by a depth-first search of
 * at most `forward` moves over canonical sequences (swaps of one run in increasing column
 * order, a run of turns as A's net turn then B's), looking every state up: a state found at
 * distance d ends that branch (nothing below it can beat depth + d), a state not found is at
 * least radius + 1 away. The best depth + distance is exact whenever it is at most
 * forward + radius; the rest of the answer walks down the ball one distance at a time.
 *
 * Every move's inverse is a move, so the distance from the goal is the distance to it. Boards
 * are two sets of cells laid out by rotation orbits (nine_cells.h): a rotation is a shift. */
#include "nine_tail.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "nine_cells.h"

_Static_assert(NINE_TAIL_MAX_N <= NINE_CELLS_MAX_N, "boards are sets of nine_cells");

/* 2^19 slots (4 MiB, mostly cache-resident during a search) filled to at most 70 %: 9 x 9 gets
 * radius 6 (307 442 states), smaller boards more. */
#define BALL_SLOT_BITS 19
#define BALL_SLOTS ((size_t)1 << BALL_SLOT_BITS)
#define BALL_MAX_STATES (BALL_SLOTS * 7 / 10)
/* A one-bit-per-hash filter in front of the table: 2^22 bits (512 KiB, stays in the L2 cache)
 * at most 7 % set, so most look-ups of states outside the ball end there without touching the
 * 4 MiB table. */
#define FILTER_BITS 22

typedef struct tstate {
    uint64_t a[2], b[2];
} tstate;

struct nine_tail {
    int n, radius, move_count;
    long states;
    nine_cells cells;
    uint64_t *slots;  /* fingerprint with the distance in its low 4 bits */
    uint64_t *filter; /* bit h of every state's hash h (mod 2^FILTER_BITS) */
};

static tstate apply(const nine_tail *t, tstate s, int m)
{
    nine_cells_move(&t->cells, m, s.a, s.b);
    return s;
}

static uint64_t mix(uint64_t h)
{
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    return h;
}

/* Two independent hashes: where the state is filed, and its fingerprint; and its filter bit. */
static void hash_state(const tstate *s, uint64_t *at, uint64_t *print, uint64_t *bit)
{
    uint64_t h = mix(s->a[0] * 0x9E3779B97F4A7C15ull ^ s->a[1]);
    h = mix(h ^ s->b[0] * 0x94D049BB133111EBull);
    h = mix(h ^ s->b[1] * 0xD6E8FEB86659FD93ull);
    *at = h >> (64 - BALL_SLOT_BITS);
    *bit = h & (((uint64_t)1 << FILTER_BITS) - 1);
    uint64_t f = mix(h * 0xA0761D6478BD642Full ^ s->a[0] ^ (s->b[1] << 7));
    f &= ~(uint64_t)15;
    *print = f ? f : 16;
}

/* The distance filed for s (at most the radius), or -1. */
static int lookup(const nine_tail *t, const tstate *s)
{
    uint64_t at, print, bit;
    hash_state(s, &at, &print, &bit);
    if (!((t->filter[bit / 64] >> (bit % 64)) & 1u)) return -1;
    for (size_t i = at;; i = (i + 1) & (BALL_SLOTS - 1)) {
        uint64_t e = t->slots[i];
        if (e == 0) return -1;
        if ((e & ~(uint64_t)15) == print) {
            int d = (int)(e & 15);
            return d <= t->radius ? d : -1;
        }
    }
}

/* Files s at distance d unless already there; true when it was new. */
static bool insert(nine_tail *t, const tstate *s, int d)
{
    uint64_t at, print, bit;
    hash_state(s, &at, &print, &bit);
    for (size_t i = at;; i = (i + 1) & (BALL_SLOTS - 1)) {
        uint64_t e = t->slots[i];
        if (e == 0) {
            t->slots[i] = print | (uint64_t)d;
            t->filter[bit / 64] |= (uint64_t)1 << (bit % 64);
            return true;
        }
        if ((e & ~(uint64_t)15) == print) return false;
    }
}

/* Breadth-first from the goal, level by level, while the table has room: a level that does not
 * fit entirely is abandoned (its entries stay, marked by a distance above the radius). */
static bool build_ball(nine_tail *t, budget *b)
{
    t->slots = calloc(BALL_SLOTS, sizeof *t->slots);
    t->filter = calloc((size_t)1 << (FILTER_BITS - 6), sizeof *t->filter);
    tstate *cur = malloc(BALL_MAX_STATES * sizeof *cur);
    tstate *next = malloc(BALL_MAX_STATES * sizeof *next);
    bool ok = t->slots && t->filter && cur && next;
    size_t cur_len = 0, total = 1;
    if (ok) {
        tstate goal = {{0, 0}, {t->cells.full[0], t->cells.full[1]}};
        insert(t, &goal, 0);
        cur[cur_len++] = goal;
    }
    t->radius = 0;
    while (ok && cur_len > 0 && t->radius < NINE_TAIL_MAX_RADIUS) {
        size_t next_len = 0;
        bool fits = true;
        for (size_t k = 0; k < cur_len && fits && ok; k++) {
            if (b && budget_expired(b)) ok = false;
            for (int m = 0; m < t->move_count && fits; m++) {
                tstate u = apply(t, cur[k], m);
                if (!insert(t, &u, t->radius + 1)) continue;
                if (total + next_len + 1 > BALL_MAX_STATES)
                    fits = false;
                else
                    next[next_len++] = u;
            }
        }
        if (!fits || !ok) break;
        total += next_len;
        t->radius++;
        tstate *swap = cur;
        cur = next;
        next = swap;
        cur_len = next_len;
    }
    t->states = (long)total;
    free(cur);
    free(next);
    return ok;
}

typedef struct search {
    const nine_tail *t;
    int max_depth, best, best_depth;
    uint8_t path[NINE_TAIL_MAX_FORWARD], best_path[NINE_TAIL_MAX_FORWARD];
    tstate best_state;
} search;

/* run: 0 none yet, 1 swaps (last column `last`), 2 turns (A's net turn qa, B's qb). */
static void forward(search *q, const tstate *s, int depth, int run, int last, int qa, int qb)
{
    const nine_tail *t = q->t;
    int d = lookup(t, s);
    if (d >= 0) {
        /* Nothing below can beat this: a move changes the distance by at most one. */
        if (depth + d < q->best) {
            q->best = depth + d;
            q->best_depth = depth;
            memcpy(q->best_path, q->path, (size_t)depth);
            q->best_state = *s;
        }
        return;
    }
    /* Every state below is at least radius + 1 - (moves taken since) away. */
    if (depth == q->max_depth || depth + t->radius + 2 > q->best) return;
    for (int c = run == 1 ? last + 1 : 0; c < t->n; c++) {
        tstate u = apply(t, *s, NINE_MOVE_C0 + c);
        q->path[depth] = (uint8_t)(NINE_MOVE_C0 + c);
        forward(q, &u, depth + 1, 1, c, 0, 0);
    }
    if (run != 2) qa = qb = 0;
    /* Canonical turns: A's net turn as AL, AL AL or AR, then B's the same way. */
    static const struct {
        int move, from_a, from_b, to_a, to_b;
    } turns[] = {
        {NINE_MOVE_AL, 0, 0, 1, 0},   {NINE_MOVE_AL, 1, 0, 2, 0},   {NINE_MOVE_AR, 0, 0, 3, 0},
        {NINE_MOVE_BL, -1, 0, -1, 1}, {NINE_MOVE_BL, -1, 1, -1, 2}, {NINE_MOVE_BR, -1, 0, -1, 3},
    };
    for (size_t k = 0; k < sizeof turns / sizeof turns[0]; k++) {
        if (turns[k].from_b != qb || (turns[k].from_a >= 0 && turns[k].from_a != qa)) continue;
        tstate u = apply(t, *s, turns[k].move);
        q->path[depth] = (uint8_t)turns[k].move;
        forward(q, &u, depth + 1, 2, last, turns[k].to_a >= 0 ? turns[k].to_a : qa, turns[k].to_b);
    }
}

int nine_tail_solve(const nine_tail *t, const nine_board *bd, int fwd, uint8_t *moves)
{
    if (bd->n != t->n || fwd < 0 || fwd > NINE_TAIL_MAX_FORWARD) return -1;
    int n = t->n;
    tstate s;
    memset(&s, 0, sizeof s);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int bit = t->cells.bit[i * n + j];
            s.a[bit / 64] |= (uint64_t)nine_get(bd->a, i, j) << (bit % 64);
            s.b[bit / 64] |= (uint64_t)nine_get(bd->b, i, j) << (bit % 64);
        }
    search q;
    memset(&q, 0, sizeof q);
    q.t = t;
    q.max_depth = fwd;
    q.best = fwd + t->radius + 1;
    forward(&q, &s, 0, 0, 0, 0, 0);
    if (q.best > fwd + t->radius) return -1;
    int len = q.best_depth;
    memcpy(moves, q.best_path, (size_t)len);
    /* Down the ball: some move always leads one step closer. */
    tstate at = q.best_state;
    for (int d = q.best - q.best_depth; d > 0; d--) {
        int m = 0;
        tstate u;
        for (; m < t->move_count; m++) {
            u = apply(t, at, m);
            if (lookup(t, &u) == d - 1) break;
        }
        if (m == t->move_count) return -1; /* a fingerprint collision: no answer */
        moves[len++] = (uint8_t)m;
        at = u;
    }
    return len;
}

size_t nine_tail_polish(const nine_tail *t, const nine_board *bd, uint8_t *moves, size_t len,
                        int fwd, int window)
{
    size_t reach = (size_t)(fwd + t->radius + window);
    size_t from = len > reach ? len - reach : 0;
    nine_board at = *bd;
    for (size_t k = 0; k < from; k++) nine_board_apply(&at, moves[k]);
    /* The earliest state that finishes shorter wins: it saves the most. */
    for (size_t k = from; k < len; k++) {
        uint8_t tail[NINE_TAIL_MAX_MOVES];
        int got = nine_tail_solve(t, &at, fwd, tail);
        if (got >= 0 && (size_t)got < len - k) {
            memcpy(moves + k, tail, (size_t)got);
            return k + (size_t)got;
        }
        nine_board_apply(&at, moves[k]);
    }
    return len;
}

int nine_tail_radius(const nine_tail *t)
{
    return t->radius;
}

long nine_tail_states(const nine_tail *t)
{
    return t->states;
}

static nine_tail *cache[NINE_TAIL_MAX_N + 1];
static bool tried[NINE_TAIL_MAX_N + 1];
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

const nine_tail *nine_tail_get(int n, budget *b)
{
    if (n < NINE_TAIL_MIN_N || n > NINE_TAIL_MAX_N) return NULL;
    pthread_mutex_lock(&cache_lock);
    if (!tried[n]) {
        nine_tail *t = calloc(1, sizeof *t);
        if (t) {
            t->n = n;
            t->move_count = NINE_MOVE_C0 + n;
            nine_cells_init(&t->cells, n);
            if (!build_ball(t, b)) {
                free(t->slots);
                free(t->filter);
                free(t);
                t = NULL;
            }
        }
        /* Out of memory is for good; out of time only for this caller. */
        tried[n] = t || !b || !budget_expired(b);
        cache[n] = t;
    }
    const nine_tail *t = cache[n];
    pthread_mutex_unlock(&cache_lock);
    return t;
}
