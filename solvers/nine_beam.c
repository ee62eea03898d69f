/* Beam search: level by level, every kept node proposes its best few steps; the children are
 * ranked by f = moves so far + alpha * ones left in A (alpha: the going price of a one late in
 * a solution), duplicates of a board are dropped, and the best `width` go on. A node whose A is
 * empty is a solution; the shortest is kept. Nodes live in one arena so that a solution is read
 * back through parent links. */
#include "nine_beam.h"

#include <stdlib.h>
#include <string.h>

typedef struct node {
    nine_board board;
    int parent; /* arena index, -1 for the root */
    nine_step step;
    int g;    /* moves so far */
    int ones; /* ones left in A */
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

static bool same_board(const nine_board *x, const nine_board *y)
{
    for (int i = 0; i < x->n; i++)
        if (x->a[i] != y->a[i] || x->b[i] != y->b[i]) return false;
    return true;
}

typedef struct child {
    int parent;
    nine_step step;
    long f;
} child;

static int by_f(const void *x, const void *y)
{
    const child *a = x, *b = y;
    return (a->f > b->f) - (a->f < b->f);
}

/* Rebuilds the moves from the root to arena node `at` into out. */
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

nine_greedy_status nine_beam_solve(const nine_board *start, const nine_library *lib, int width,
                                   int per_node, int alpha_x10, nine_moves *out, budget *b)
{
    arena ar = {0};
    nine_greedy_status status = NINE_GREEDY_OK;
    int *level = malloc(sizeof(int) * (size_t)width), *next = malloc(sizeof(int) * (size_t)width);
    child *kids = malloc(sizeof(child) * (size_t)(width * per_node));
    nine_step *steps = malloc(sizeof(nine_step) * (size_t)per_node);
    node root = {*start, -1, {0, 0, 0, 0, 0}, 0, nine_board_ones_a(start)};
    int count = 0, best = -1, root_at = -1;
    if (!level || !next || !kids || !steps || (root_at = arena_push(&ar, &root)) < 0) {
        status = NINE_GREEDY_NO_MEMORY;
        goto done;
    }
    level[count++] = root_at;
    while (count > 0) {
        if (budget_expired(b)) {
            status = NINE_GREEDY_TIME_OUT;
            goto done;
        }
        int nk = 0;
        for (int t = 0; t < count; t++) {
            if (budget_expired(b)) {
                status = NINE_GREEDY_TIME_OUT;
                goto done;
            }
            const node *p = &ar.v[level[t]];
            int k = nine_step_candidates(&p->board, lib, steps, per_node);
            for (int s = 0; s < k; s++) {
                long g = p->g + steps[s].cost, h = p->ones - steps[s].red;
                if (best >= 0 && g >= ar.v[best].g) continue; /* cannot beat the best */
                kids[nk++] = (child){level[t], steps[s], g * 10 + (long)alpha_x10 * h};
            }
        }
        qsort(kids, (size_t)nk, sizeof *kids, by_f);
        int nn = 0;
        for (int t = 0; t < nk && nn < width; t++) {
            node x;
            x.board = ar.v[kids[t].parent].board;
            x.parent = kids[t].parent;
            x.step = kids[t].step;
            x.g = ar.v[kids[t].parent].g + kids[t].step.cost;
            x.ones = ar.v[kids[t].parent].ones - kids[t].step.red;
            nine_step_apply(&x.board, lib, &x.step, NULL);
            bool dup = false;
            for (int u = 0; u < nn && !dup; u++) dup = same_board(&ar.v[next[u]].board, &x.board);
            if (dup) continue;
            int at = arena_push(&ar, &x);
            if (at < 0) {
                status = NINE_GREEDY_NO_MEMORY;
                goto done;
            }
            if (x.ones == 0) {
                if (best < 0 || x.g < ar.v[best].g) best = at;
                continue;
            }
            next[nn++] = at;
        }
        int *swap = level;
        level = next;
        next = swap;
        count = nn;
    }
    out->len = 0;
    if (best >= 0 && !read_back(&ar, best, lib, start, out)) status = NINE_GREEDY_NO_MEMORY;
done:
    free(ar.v);
    free(level);
    free(next);
    free(kids);
    free(steps);
    return status;
}
