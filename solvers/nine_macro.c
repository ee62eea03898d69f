/* The macros' effects (which cells' values change matrix) are found without simulating whole
 * boards: on sets of cells up to 11 x 11, by tracing cells beyond.
 *
 * Why these families: Ck X Ck X' Ck conjugates the involution X Ck X' by Ck; the two overlap in
 * one cell, so exactly one value crosses each way (a diagonal orbit, or the centre). The
 * commutator (Ca . X Cb X')^2 of two involutions that share one cell is a 3-cycle: one value
 * crosses each way, reaching every off-diagonal orbit. */
#include "nine_macro.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "nine_cells.h"
#include "nine_x86.h"

_Static_assert(NINE_ENUM_MAX_N <= NINE_CELLS_MAX_N, "flat libraries are sets of nine_cells");

/* Boards up to NINE_ENUM_MAX_N get every canonical sequence of up to ENUM_MAX_LEN moves that
 * carries 1..few(n) cells each way, or (ENUM_BULK_LEN moves or fewer) up to ENUM_MAX_TRANSFERS,
 * found by enumeration once per process, plus the group commutators of up to GROUP_MAX cells;
 * larger boards get the two families above, which need no search, and build groups on the fly.
 * Measured on 9 x 9 (bench/RESULTS-nine.md, 100 states, the same beam): sequences of up to 7
 * moves and 3 cells gave 82.2 moves (1 392 macros), up to 9 moves and 3 cells 78.1 (2 980), up
 * to 9 moves and 7 cells 75.0 (5 494), for 1.5 and 2.3 times the work per search step; 10 moves
 * gained little for that work (8 024 macros). Small boards keep fewer cells: 7 of 16 cells is
 * almost any sequence (n = 4: 82 292 macros). */
#define ENUM_MAX_LEN 9
#define ENUM_MAX_TRANSFERS 9
#define ENUM_BULK_LEN 5

/* The most cells each way a sequence longer than ENUM_BULK_LEN may carry, per n (libraries of
 * 1 158 to 6 005 macros; 11 x 11: 5 352). */
static int enum_few(int n)
{
    static const int few[NINE_ENUM_MAX_N + 1] = {3, 3, 3, 3, 3, 3, 4, 5, 6, 7, 7, 7};
    return few[n];
}

#define GROUP_MAX 3

typedef struct cell {
    int side, i, j;
} cell;

static void cell_move(int n, cell *c, int move)
{
    if (move >= NINE_MOVE_C0) {
        if (c->j == move - NINE_MOVE_C0) c->side ^= 1;
        return;
    }
    if ((move < NINE_MOVE_BL) == (c->side == 0))
        nine_cell_rotate(n, (move & 1) ? 3 : 1, &c->i, &c->j);
}

/* Move m on labels: a holds the cells of A whose values came from B, b those of B from A. */
static void label_move(const nine_cells *t, int m, uint64_t a[2], uint64_t b[2])
{
    if (m >= NINE_MOVE_C0) {
        const uint64_t *c = t->col[m - NINE_MOVE_C0];
        /* A's column gets B's values: from B exactly where they were not from A. */
        for (int w = 0; w < 2; w++) {
            uint64_t was = a[w];
            a[w] = (was & ~c[w]) | (~b[w] & c[w]);
            b[w] = (b[w] & ~c[w]) | (~was & c[w]);
        }
        return;
    }
    nine_cells_turn(t, m & 1, m < NINE_MOVE_BL ? a : b);
}

typedef struct builder {
    nine_library *lib;
    budget *b; /* NULL: none */
    int cap_macros;
    size_t cap_pool;
    nine_cells sets;               /* flat libraries */
    uint64_t seen[2 * NINE_MAX_N]; /* marks origins: bit j of word side * n + i */
    uint16_t a_src[2 * NINE_MAX_N * NINE_MACRO_MAX_LEN], b_src[2 * NINE_MAX_N * NINE_MACRO_MAX_LEN];
} builder;

/* The cells whose values end in the other matrix, listed in bd->a_src (of A) and bd->b_src (of
 * B); returns how many of A. Big boards: a cell can only change matrix while it sits in a swapped
 * column, so the candidates are the cells of each swapped column at the moment of the swap,
 * traced back to the start; each candidate is then traced forward to see where it ends. */
static int crossing_traced(builder *bd, const uint8_t *moves, int len, int *nb)
{
    int n = bd->lib->n;
    memset(bd->seen, 0, sizeof bd->seen);
    int na = 0;
    *nb = 0;
    for (int t = 0; t < len; t++) {
        if (moves[t] < NINE_MOVE_C0) continue;
        for (int side = 0; side < 2; side++)
            for (int r = 0; r < n; r++) {
                cell c = {side, r, moves[t] - NINE_MOVE_C0};
                for (int u = t - 1; u >= 0; u--) cell_move(n, &c, nine_move_inverse(moves[u]));
                uint64_t bit = (uint64_t)1 << c.j;
                if (bd->seen[c.side * n + c.i] & bit) continue;
                bd->seen[c.side * n + c.i] |= bit;
                cell d = c;
                for (int u = 0; u < len; u++) cell_move(n, &d, moves[u]);
                if (d.side == c.side) continue;
                if (c.side == 0)
                    bd->a_src[na++] = (uint16_t)(c.i * n + c.j);
                else
                    bd->b_src[(*nb)++] = (uint16_t)(c.i * n + c.j);
            }
    }
    return na;
}

/* The same on boards of at most 128 cells, by sets: the moves played on labels say which cells
 * end up holding the other matrix's values, and the inverse moves played backwards on those
 * positions say where those values started: a few milliseconds for the 32 730 sequences of the
 * 9 x 9 library, where tracing took about 100 (bench/RESULTS-nine.md, stop 32). */
static int crossing_by_sets(builder *bd, const uint8_t *moves, int len, int *nb)
{
    const nine_cells *t = &bd->sets;
    uint64_t a[2] = {0, 0}, b[2] = {0, 0};
    for (int u = 0; u < len; u++) label_move(t, moves[u], a, b);
    for (int u = len - 1; u >= 0; u--) nine_cells_move(t, nine_move_inverse(moves[u]), a, b);
    int na = 0;
    *nb = 0;
    for (int w = 0; w < 2; w++) {
        for (uint64_t m = a[w]; m; m &= m - 1)
            bd->a_src[na++] = t->cell[64 * w + __builtin_ctzll(m)];
        for (uint64_t m = b[w]; m; m &= m - 1)
            bd->b_src[(*nb)++] = t->cell[64 * w + __builtin_ctzll(m)];
    }
    return na;
}

static bool add_macro(builder *bd, const uint8_t *moves, int len)
{
    if (bd->b && budget_expired(bd->b)) return false;
    nine_library *lib = bd->lib;
    int nb, na = lib->flat ? crossing_by_sets(bd, moves, len, &nb)
                           : crossing_traced(bd, moves, len, &nb);
    if (na == 0) return true; /* nothing crosses: useless */
    if (lib->count == bd->cap_macros) {
        int cap = bd->cap_macros ? 2 * bd->cap_macros : 256;
        nine_macro *m = realloc(lib->macros, (size_t)cap * sizeof *m);
        if (!m) return false;
        lib->macros = m;
        bd->cap_macros = cap;
    }
    if (lib->pool_len + (size_t)(na + nb) > bd->cap_pool) {
        size_t cap = bd->cap_pool ? 2 * bd->cap_pool : 4096;
        while (cap < lib->pool_len + (size_t)(na + nb)) cap *= 2;
        uint16_t *p = realloc(lib->pool, cap * sizeof *p);
        if (!p) return false;
        lib->pool = p;
        bd->cap_pool = cap;
    }
    nine_macro *m = &lib->macros[lib->count++];
    m->len = (uint8_t)len;
    memcpy(m->moves, moves, (size_t)len);
    m->transfers = (uint16_t)na;
    m->first = (uint32_t)lib->pool_len;
    m->mirror = false;
    memset(m->flat_a, 0, sizeof m->flat_a);
    memset(m->flat_b, 0, sizeof m->flat_b);
    for (int t = 0; t < na && lib->flat; t++) {
        m->flat_a[bd->a_src[t] / 64] |= (uint64_t)1 << (bd->a_src[t] % 64);
        m->flat_b[bd->b_src[t] / 64] |= (uint64_t)1 << (bd->b_src[t] % 64);
    }
    memcpy(lib->pool + lib->pool_len, bd->a_src, (size_t)na * sizeof(uint16_t));
    memcpy(lib->pool + lib->pool_len + na, bd->b_src, (size_t)nb * sizeof(uint16_t));
    lib->pool_len += (size_t)(na + nb);
    return true;
}

/* The enumeration only needs to know which cells hold values from the other matrix: two sets of
 * cells in the current orientation, `a` the cells of A holding values that started in B, `b`
 * those of B holding values from A (label_move). */
typedef struct enumerator {
    builder *bd;
    const nine_cells *t;
    int n, max_len, max_transfers, few;
    uint64_t a[2], b[2];
    uint8_t seq[NINE_MACRO_MAX_LEN];
    bool ok;
} enumerator;

/* The cells each way once column c is swapped (c < 0: as things are). */
static inline __attribute__((always_inline)) int crossing_after(const enumerator *e, int c)
{
    int x = __builtin_popcountll(e->a[0]) + __builtin_popcountll(e->a[1]);
    if (c < 0) return x;
    x += e->n;
    for (int w = 0; w < 2; w++)
        x -= __builtin_popcountll(e->b[w] & e->t->col[c][w]) +
             __builtin_popcountll(e->a[w] & e->t->col[c][w]);
    return x;
}

/* Whether a sequence of len moves carrying `crossing` cells each way joins the library. */
static bool leaf_kept(const enumerator *e, int crossing, int len)
{
    return crossing >= 1 && (crossing <= e->few || len <= ENUM_BULK_LEN) &&
           crossing <= e->max_transfers;
}

static inline __attribute__((always_inline)) void enum_leaf(enumerator *e, int len)
{
    if (leaf_kept(e, crossing_after(e, -1), len) && e->ok) e->ok = add_macro(e->bd, e->seq, len);
}

static void enum_push(enumerator *e, int len, int m, int last_col, int rot_a, int rot_b,
                      bool in_rot);

/* Canonical sequences only: a run of column swaps in increasing order (they commute); a run of
 * rotations as A's net turn (AL, AL AL or AR) then B's; the first and last move a swap. */
NINE_POPCNT_CLONES static void enum_dfs(enumerator *e, int len, int last_col, int rot_a, int rot_b,
                                        bool in_rot)
{
    if (len > 0 && !in_rot) enum_leaf(e, len);
    if (len == e->max_len || !e->ok) return;
    /* The clock is asked above the last three moves only: below, a subtree takes microseconds. */
    if (len + 3 <= e->max_len && e->bd->b && budget_expired(e->bd->b)) {
        e->ok = false;
        return;
    }
    int n = e->n;
    /* Past the bulk lengths at most `few` cells may cross at the end, and a swap brings at most
     * n back (the cells of its column holding crossed values on both sides, less n): prune. */
    if (len >= ENUM_BULK_LEN) {
        int crossing = crossing_after(e, -1), left = e->max_len - len;
        if (crossing > e->few + left * n) return;
        if (crossing > e->few + (left - 1) * n) {
            int most = 0;
            for (int c = 0; c < n; c++) {
                int r = crossing - crossing_after(e, c);
                if (r > most) most = r;
            }
            if (crossing - most > e->few + (left - 1) * n) return;
        }
    }
    for (int c = (in_rot || len == 0) ? 0 : last_col + 1; c < n; c++) {
        if (len + 1 == e->max_len) {
            /* A leaf: swapped only when it is kept (most are not), by its crossing count. */
            if (!leaf_kept(e, crossing_after(e, c), len + 1)) continue;
        }
        enum_push(e, len, NINE_MOVE_C0 + c, c, 0, 0, false);
    }
    if (len == 0 || len + 2 > e->max_len) return; /* a rotation needs a swap after it */
    if (rot_b == 0) {
        if (rot_a == 0) {
            enum_push(e, len, NINE_MOVE_AL, last_col, 1, 0, true);
            enum_push(e, len, NINE_MOVE_AR, last_col, 3, 0, true);
        } else if (rot_a == 1) {
            enum_push(e, len, NINE_MOVE_AL, last_col, 2, 0, true);
        }
        enum_push(e, len, NINE_MOVE_BL, last_col, rot_a ? rot_a : 4, 1, true);
        enum_push(e, len, NINE_MOVE_BR, last_col, rot_a ? rot_a : 4, 3, true);
    } else if (rot_b == 1) {
        enum_push(e, len, NINE_MOVE_BL, last_col, rot_a, 2, true);
    }
}

static void enum_push(enumerator *e, int len, int m, int last_col, int rot_a, int rot_b,
                      bool in_rot)
{
    uint64_t a0 = e->a[0], a1 = e->a[1], b0 = e->b[0], b1 = e->b[1];
    e->seq[len] = (uint8_t)m;
    label_move(e->t, m, e->a, e->b);
    enum_dfs(e, len + 1, last_col, rot_a, rot_b, in_rot);
    e->a[0] = a0, e->a[1] = a1, e->b[0] = b0, e->b[1] = b1;
}

static bool enumerate(builder *bd, int n, int max_len, int few)
{
    enumerator e = {.bd = bd,
                    .t = &bd->sets,
                    .n = n,
                    .max_len = max_len,
                    .max_transfers = ENUM_MAX_TRANSFERS,
                    .few = few,
                    .ok = true};
    enum_dfs(&e, 0, 0, 0, 0, false);
    return e.ok;
}

/* Commutators of a column group: [Ca, X Cb1..Cbk X'] overlaps in k cells, one per b, so it
 * carries k cells each way for 2k + 5 moves (its closing X' left to the next set-up), where k
 * single commutators would cost 7k; likewise [Ca1..Cak, X Cb X'] for k cells sharing a row. */
static bool add_groups(builder *bd, int n)
{
    bool ok = true;
    for (int x = 0; x < 4 && ok; x++)
        for (int k = 2; k <= GROUP_MAX; k++)
            for (int side = 0; side < 2 && ok; side++)
                for (int lone = 0; lone < n && ok; lone++) {
                    /* every k-subset of the other columns, by a bit mask */
                    uint64_t limit = (uint64_t)1 << n;
                    for (uint64_t set = 0; set < limit && ok; set++) {
                        if (__builtin_popcountll(set) != k || ((set >> lone) & 1u)) continue;
                        uint8_t group[GROUP_MAX], m[NINE_MACRO_MAX_LEN];
                        int g = 0, len = 0;
                        for (int c = 0; c < n; c++)
                            if ((set >> c) & 1u) group[g++] = (uint8_t)(NINE_MOVE_C0 + c);
                        for (int half = 0; half < 2; half++) {
                            if (side == 0)
                                m[len++] = (uint8_t)(NINE_MOVE_C0 + lone);
                            else
                                for (int t = 0; t < k; t++) m[len++] = group[t];
                            m[len++] = (uint8_t)x;
                            if (side == 0)
                                for (int t = 0; t < k; t++) m[len++] = group[t];
                            else
                                m[len++] = (uint8_t)(NINE_MOVE_C0 + lone);
                            if (half == 0) m[len++] = (uint8_t)(x ^ 1);
                        }
                        ok = add_macro(bd, m, len);
                    }
                }
    return ok;
}

/* Order: same effect together (flat libraries), then shortest first. */
static int by_effect(const void *x, const void *y)
{
    const nine_macro *a = x, *b = y;
    for (int w = 0; w < 2; w++) {
        if (a->flat_a[w] != b->flat_a[w]) return a->flat_a[w] < b->flat_a[w] ? -1 : 1;
        if (a->flat_b[w] != b->flat_b[w]) return a->flat_b[w] < b->flat_b[w] ? -1 : 1;
    }
    return (int)a->len - (int)b->len;
}

/* Best possible rate first: transfers / len, larger first. */
static int by_rate(const void *x, const void *y)
{
    const nine_macro *a = x, *b = y;
    long lhs = (long)a->transfers * b->len, rhs = (long)b->transfers * a->len;
    if (lhs != rhs) return lhs > rhs ? -1 : 1;
    return (int)a->len - (int)b->len;
}

/* The cells of a flat mask turned half way: cell p -> n^2 - 1 - p. */
static void half_turn(const uint64_t in[2], int nn, uint64_t out[2])
{
    out[0] = out[1] = 0;
    for (int p = 0; p < nn; p++)
        if ((in[p / 64] >> (p % 64)) & 1u)
            out[(nn - 1 - p) / 64] |= (uint64_t)1 << ((nn - 1 - p) % 64);
}

static int by_masks(const void *x, const void *y)
{
    const nine_macro *a = x, *b = y;
    for (int w = 0; w < 2; w++) {
        if (a->flat_a[w] != b->flat_a[w]) return a->flat_a[w] < b->flat_a[w] ? -1 : 1;
        if (a->flat_b[w] != b->flat_b[w]) return a->flat_b[w] < b->flat_b[w] ? -1 : 1;
    }
    return 0;
}

/* Folds mirror pairs (the macros are sorted by effect, one per effect): the search evaluates a
 * macro's mirror from the macro's own counts, so only one of each pair is kept. */
static void fold_mirrors(nine_library *lib)
{
    int nn = lib->n * lib->n, kept = 0;
    bool *dropped = calloc((size_t)lib->count, sizeof *dropped);
    if (!dropped) return; /* no folding: correct, only slower */
    for (int t = 0; t < lib->count; t++) {
        if (dropped[t]) continue;
        nine_macro key;
        half_turn(lib->macros[t].flat_a, nn, key.flat_a);
        half_turn(lib->macros[t].flat_b, nn, key.flat_b);
        const nine_macro *hit =
            bsearch(&key, lib->macros, (size_t)lib->count, sizeof key, by_masks);
        int j = hit ? (int)(hit - lib->macros) : -1;
        if (j > t && !dropped[j] && lib->macros[j].len == lib->macros[t].len) {
            dropped[j] = true;
            lib->macros[t].mirror = true;
        }
    }
    for (int t = 0; t < lib->count; t++)
        if (!dropped[t]) lib->macros[kept++] = lib->macros[t];
    lib->count = kept;
    free(dropped);
}

/* Drops macros whose effect a shorter one already has, and sorts by best possible rate so that
 * a search can stop at the first macro that cannot beat what it holds. */
static void tidy(nine_library *lib)
{
    if (lib->flat && lib->count > 0) {
        qsort(lib->macros, (size_t)lib->count, sizeof *lib->macros, by_effect);
        int kept = 1;
        for (int t = 1; t < lib->count; t++) {
            const nine_macro *p = &lib->macros[kept - 1], *m = &lib->macros[t];
            if (memcmp(p->flat_a, m->flat_a, sizeof p->flat_a) == 0 &&
                memcmp(p->flat_b, m->flat_b, sizeof p->flat_b) == 0)
                continue;
            lib->macros[kept++] = *m;
        }
        lib->count = kept;
        fold_mirrors(lib);
    }
    qsort(lib->macros, (size_t)lib->count, sizeof *lib->macros, by_rate);
}

static bool pack_masks(nine_library *lib)
{
    int n = lib->n;
    for (int t = 0; t < lib->count; t++) {
        nine_macro *m = &lib->macros[t];
        m->lead = m->lead_mirror = 0;
        for (int u = 0; u < m->len && m->moves[u] >= NINE_MOVE_C0; u++) {
            int col = m->moves[u] - NINE_MOVE_C0;
            m->lead |= (uint64_t)1 << col;
            m->lead_mirror |= (uint64_t)1 << (n - 1 - col);
        }
        int lead = __builtin_popcountll(m->lead);
        if (lead > lib->max_lead) lib->max_lead = lead;
    }
    if (!lib->flat) return true;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int p = i * n + j;
            if ((i == j || i + j == n - 1) && !(i == j && i + j == n - 1))
                lib->diag[p / 64] |= (uint64_t)1 << (p % 64);
        }
    size_t count = lib->count > 0 ? (size_t)lib->count : 1;
    lib->masks = malloc(sizeof *lib->masks * 8 * count);
    if (!lib->masks) return false;
    for (size_t t = 0; t < (size_t)lib->count; t++) {
        const nine_macro *m = &lib->macros[t];
        lib->masks[t] = m->flat_a[0];
        lib->masks[count + t] = m->flat_a[1];
        lib->masks[2 * count + t] = m->flat_b[0];
        lib->masks[3 * count + t] = m->flat_b[1];
        lib->masks[4 * count + t] = m->lead;
        lib->masks[5 * count + t] = m->mirror ? m->lead_mirror : 0;
        lib->masks[6 * count + t] = m->len;
        lib->masks[7 * count + t] = m->transfers;
    }
    return true;
}

bool nine_library_build(nine_library *lib, int n, budget *b)
{
    return nine_library_build_ex(lib, n, ENUM_MAX_LEN, n <= NINE_ENUM_MAX_N ? enum_few(n) : 0, b);
}

bool nine_library_build_ex(nine_library *lib, int n, int max_len, int few, budget *b)
{
    memset(lib, 0, sizeof *lib);
    lib->n = n;
    lib->flat = n * n <= 128;
    builder *bd = calloc(1, sizeof *bd);
    if (!bd) return false;
    bd->lib = lib;
    bd->b = b;
    if (lib->flat) nine_cells_init(&bd->sets, n);
    bool ok = true;
    for (int c = 0; c < n && ok; c++) {
        uint8_t m[1] = {(uint8_t)(NINE_MOVE_C0 + c)};
        ok = add_macro(bd, m, 1);
    }
    lib->group_min = 2;
    if (n <= NINE_ENUM_MAX_N) {
        if (ok) ok = enumerate(bd, n, max_len, few);
        if (ok) ok = add_groups(bd, n);
        lib->group_min = GROUP_MAX + 1; /* smaller groups are in the library already */
        lib->has_groups = true;
    } else {
        for (int x = 0; x < 4 && ok; x++)
            for (int c = 0; c < n && ok; c++) {
                uint8_t cc = (uint8_t)(NINE_MOVE_C0 + c);
                uint8_t m[5] = {cc, (uint8_t)x, cc, (uint8_t)(x ^ 1), cc};
                ok = add_macro(bd, m, 5);
            }
    }
    lib->comm = malloc(sizeof(int16_t) * 2 * 4 * (size_t)(n * n));
    ok = ok && lib->comm;
    for (int x = 0; x < 4 && ok; x++)
        for (int a = 0; a < n && ok; a++)
            for (int b = 0; b < n && ok; b++) {
                int16_t *entry = lib->comm + ((x * n + a) * n + b) * 2;
                entry[0] = entry[1] = -1;
                if (a == b) continue;
                uint8_t ca = (uint8_t)(NINE_MOVE_C0 + a), cb = (uint8_t)(NINE_MOVE_C0 + b);
                uint8_t m[7] = {ca, (uint8_t)x, cb, (uint8_t)(x ^ 1), ca, (uint8_t)x, cb};
                int before = lib->count;
                ok = add_macro(bd, m, 7);
                const nine_macro *added = &lib->macros[lib->count - 1];
                if (ok && lib->count > before && added->transfers == 1) {
                    int cell_a = lib->pool[added->first], cell_b = lib->pool[added->first + 1];
                    entry[0] = (int16_t)(((cell_a / n) << 8) | (cell_a % n));
                    entry[1] = (int16_t)(((cell_b / n) << 8) | (cell_b % n));
                }
            }
    free(bd);
    if (ok) tidy(lib);
    if (ok) ok = pack_masks(lib);
    if (!ok) nine_library_free(lib);
    return ok;
}

void nine_library_free(nine_library *lib)
{
    free(lib->macros);
    free(lib->pool);
    free(lib->masks);
    free(lib->comm);
    memset(lib, 0, sizeof *lib);
}

/* One library per board size, built on first use and read-only afterwards. */
static nine_library cache[NINE_MAX_N + 1];
static bool cached[NINE_MAX_N + 1];
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

const nine_library *nine_library_get(int n, budget *b)
{
    const nine_library *lib = NULL;
    pthread_mutex_lock(&cache_lock);
    if (!cached[n]) cached[n] = nine_library_build(&cache[n], n, b);
    if (cached[n]) lib = &cache[n];
    pthread_mutex_unlock(&cache_lock);
    return lib;
}
