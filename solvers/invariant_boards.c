/* Invariant boards by linear algebra over GF(2) and Burnside's lemma.
 *
 * With +1 -> 0 and -1 -> 1 a board is invariant when every cell XOR its in-grid neighbours is 0.
 * Read as a recurrence on rows, row k+1 = T row k ^ row k-1 (row -1 = 0), T = A + I with A the
 * path's adjacency, so row k = P_k(T) x for the first row x (P_0 = 1, P_1 = t,
 * P_{k+1} = t P_k + P_{k-1}) and the last row's condition is P_n(T) x = 0.
 *
 * T is tridiagonal with unit off-diagonals, hence cyclic with cyclic vector e_0: its minimal
 * polynomial is its characteristic polynomial c(t) = P_n(t + 1) (the path's, shifted), and
 * f -> f(T) e_0 identifies F_2[t]/(c) with F_2^n. The kernel K of P_n(T) is therefore
 * {h(T) x_0 : deg h < d} with g = gcd(P_n, c), d = deg g, x_0 = (c / g)(T) e_0: the Krylov basis
 * x_0, T x_0, ..., T^(d-1) x_0. Everything is O(n^2) bit operations on O(n) words.
 *
 * Burnside: a symmetry maps invariant boards to invariant boards, and an invariant board is
 * determined by its first row, so each symmetry S acts linearly on K ("first row of the image")
 * and fixes 2^(d - rank(S - I)) boards. Mirroring the columns is the reversal J, which commutes
 * with T; mirroring the rows maps x to the last row P_{n-1}(T) x, a polynomial in T too. The
 * diagonal symmetries read a column: the transpose's first row is column 0, and column 0 of the
 * board built from T x is A (column 0 of the board from x) by the invariance condition on
 * column 0. So S(T^k x_0) = T^k S(x_0) or A^k S(x_0): a single board built from x_0 gives the
 * images of the whole basis, and each rank is an elimination of d vectors of n bits. Rotations
 * by 90 and 270 degrees are inverse to each other and fix the same boards.
 *
 * Representatives (only when the count is small, so 2^d <= 8 * limit): every element of K is
 * visited in Gray-code order with its 8 images updated by one XOR each; an element is its class's
 * representative when its first row is the smallest of the 8, because boards compare by their
 * first row first and equal first rows mean equal boards. */
#include "invariant_boards.h"

#include <stdlib.h>
#include <string.h>

#include "gf2.h"

/* A symmetry's image of x_0, and whether the basis images step by T (true) or by A (false). */
typedef struct sym_image {
    uint64_t *start;
    bool step_t;
} sym_image;

typedef struct work {
    size_t n, words;
    int d;
    budget *b;
    uint64_t *x0;
    sym_image img[IB_SYMMETRY_COUNT];
} work;

bool invariant_boards_rows_init(invariant_boards_rows *it, size_t n, const uint64_t *first_row)
{
    it->n = n;
    it->words = gf2_words(n);
    it->next_row = 0;
    it->block = calloc(3 * it->words, sizeof *it->block);
    if (!it->block) return false;
    it->prev = it->block;
    it->cur = it->prev + it->words;
    it->spare = it->cur + it->words;
    memcpy(it->cur, first_row, it->words * sizeof *first_row);
    return true;
}

const uint64_t *invariant_boards_rows_next(invariant_boards_rows *it)
{
    if (it->next_row >= it->n) return NULL;
    if (it->next_row > 0) {
        gf2_path_step(it->spare, it->cur, it->n, true);
        gf2_xor(it->spare, it->prev, it->words);
        uint64_t *old = it->prev;
        it->prev = it->cur;
        it->cur = it->spare;
        it->spare = old;
    }
    it->next_row++;
    return it->cur;
}

void invariant_boards_rows_free(invariant_boards_rows *it)
{
    free(it->block);
    it->block = it->prev = it->cur = it->spare = NULL;
}

/* out = P_n(t) (plus_one false) or P_n(t + 1) (plus_one true). */
static bool chain_poly(gf2_poly *out, size_t n, bool plus_one, budget *b)
{
    gf2_poly prev, cur;
    if (!gf2_poly_init(&prev, (long)n) || !gf2_poly_init(&cur, (long)n)) {
        gf2_poly_free(&prev);
        gf2_poly_free(&cur);
        return false;
    }
    size_t cap = out->cap;
    memset(out->w, 0, cap * sizeof *out->w);
    prev.w[0] = 1;                 /* P_0 = 1 */
    cur.w[0] = plus_one ? 3u : 2u; /* P_1 = t (+ 1) */
    bool ok = true;
    for (size_t k = 1; k < n && ok; k++) {
        if (budget_expired(b)) ok = false;
        /* prev = t cur (+ cur) + prev, then swap: prev becomes P_{k+1}. */
        uint64_t carry = 0;
        for (size_t i = 0; i < cap; i++) {
            uint64_t w = cur.w[i];
            prev.w[i] ^= (w << 1 | carry) ^ (plus_one ? w : 0);
            carry = w >> 63;
        }
        gf2_poly swap = prev;
        prev = cur;
        cur = swap;
    }
    memcpy(out->w, cur.w, cap * sizeof *out->w);
    gf2_poly_normalise(out);
    gf2_poly_free(&prev);
    gf2_poly_free(&cur);
    return ok;
}

/* The kernel: d and x_0 (see the top). */
static invariant_boards_status kernel(work *wk)
{
    size_t n = wk->n;
    gf2_poly p, c, q;
    invariant_boards_status st = IB_NO_MEMORY;
    /* All three are initialised whatever fails, so that `done` can free each one. */
    bool ok = gf2_poly_init(&p, (long)n);
    ok &= gf2_poly_init(&c, (long)n);
    ok &= gf2_poly_init(&q, (long)n);
    if (!ok) goto done;
    st = IB_TIME_LIMIT;
    if (!chain_poly(&p, n, false, wk->b) || !chain_poly(&q, n, true, wk->b)) goto done;
    gf2_poly_copy(&c, &q);
    gf2_poly_gcd(&p, &q); /* p = g */
    wk->d = (int)p.deg;
    gf2_poly_div(&q, &c, &p); /* q = c / g */

    /* x_0 = q(T) e_0 by Horner's rule. */
    uint64_t *tmp = calloc(wk->words, sizeof *tmp);
    st = IB_NO_MEMORY;
    if (!tmp) goto done;
    for (long i = q.deg; i >= 0; i--) {
        gf2_path_step(tmp, wk->x0, n, true);
        memcpy(wk->x0, tmp, wk->words * sizeof *tmp);
        if (gf2_get(q.w, (size_t)i)) wk->x0[0] ^= 1u;
        if (budget_expired(wk->b)) break;
    }
    free(tmp);
    st = budget_expired(wk->b) ? IB_TIME_LIMIT : IB_OK;
done:
    gf2_poly_free(&p);
    gf2_poly_free(&c);
    gf2_poly_free(&q);
    return st;
}

/* Images of x_0 under the 8 symmetries, from the one board built from x_0. */
static invariant_boards_status symmetry_images(work *wk)
{
    size_t n = wk->n, words = wk->words;
    uint64_t *col0 = wk->img[IB_TRANSPOSE].start;
    uint64_t *col_last = wk->img[IB_ROTATE_CCW].start;
    invariant_boards_rows it;
    if (!invariant_boards_rows_init(&it, n, wk->x0)) return IB_NO_MEMORY;
    const uint64_t *row = NULL;
    for (size_t i = 0; i < n; i++) {
        row = invariant_boards_rows_next(&it);
        if (gf2_get(row, 0)) gf2_flip(col0, i);
        if (gf2_get(row, n - 1)) gf2_flip(col_last, i);
        if (budget_expired(wk->b)) break;
    }
    if (row) memcpy(wk->img[IB_MIRROR_ROWS].start, row, words * sizeof *row);
    invariant_boards_rows_free(&it);
    if (budget_expired(wk->b)) return IB_TIME_LIMIT;

    memcpy(wk->img[IB_IDENTITY].start, wk->x0, words * sizeof *wk->x0);
    gf2_reverse(wk->img[IB_MIRROR_COLUMNS].start, wk->x0, n);
    gf2_reverse(wk->img[IB_ROTATE_180].start, wk->img[IB_MIRROR_ROWS].start, n);
    gf2_reverse(wk->img[IB_ANTI_TRANSPOSE].start, col_last, n);
    gf2_reverse(wk->img[IB_ROTATE_CW].start, col0, n);
    for (int s = 0; s < IB_SYMMETRY_COUNT; s++) wk->img[s].step_t = s < IB_TRANSPOSE;
    return IB_OK;
}

/* v = T v or A v, using tmp. */
static void step(uint64_t *v, uint64_t *tmp, size_t n, bool step_t)
{
    gf2_path_step(tmp, v, n, step_t);
    memcpy(v, tmp, gf2_words(n) * sizeof *v);
}

/* d - rank(S - I) on K, for symmetry s. */
static invariant_boards_status fixed_dim(work *wk, int s, gf2_basis *basis, uint64_t *scratch,
                                         int *out)
{
    size_t n = wk->n, words = wk->words;
    uint64_t *u = scratch, *v = u + words, *w = v + words, *tmp = w + words;
    memcpy(u, wk->x0, words * sizeof *u);
    memcpy(v, wk->img[s].start, words * sizeof *v);
    gf2_basis_clear(basis);
    for (int k = 0; k < wk->d; k++) {
        if (budget_expired(wk->b)) return IB_TIME_LIMIT;
        for (size_t i = 0; i < words; i++) w[i] = u[i] ^ v[i];
        gf2_basis_insert(basis, w);
        step(u, tmp, n, true);
        step(v, tmp, n, wk->img[s].step_t);
    }
    *out = wk->d - (int)basis->rank;
    return IB_OK;
}

typedef struct row_ref {
    const uint64_t *row;
    size_t words;
} row_ref;

static int row_ref_cmp(const void *a, const void *b)
{
    const row_ref *x = a, *y = b;
    return gf2_lex_cmp(x->row, y->row, x->words);
}

/* Lists the representatives of all `classes` classes into out->first_rows, sorted. */
static invariant_boards_status representatives(work *wk, size_t classes,
                                               invariant_boards_result *out)
{
    size_t n = wk->n, words = wk->words, d = (size_t)wk->d;
    invariant_boards_status st = IB_NO_MEMORY;
    /* basis[s][k] = S(T^k x_0); cur[s] = S(current element). */
    uint64_t *basis = calloc(IB_SYMMETRY_COUNT * (d + 1) * words, sizeof *basis);
    uint64_t *cur = calloc((IB_SYMMETRY_COUNT + 1) * words, sizeof *cur);
    uint64_t *found = calloc(classes * words, sizeof *found);
    row_ref *refs = calloc(classes ? classes : 1, sizeof *refs);
    if (!basis || !cur || !found || !refs) goto done;
    uint64_t *tmp = cur + IB_SYMMETRY_COUNT * words;
    for (int s = 0; s < IB_SYMMETRY_COUNT; s++) {
        uint64_t *v = basis + (size_t)s * (d + 1) * words;
        memcpy(v, wk->img[s].start, words * sizeof *v);
        for (size_t k = 1; k < d; k++) {
            memcpy(v + words, v, words * sizeof *v);
            v += words;
            step(v, tmp, n, wk->img[s].step_t);
        }
    }
    size_t count = 0;
    st = IB_TIME_LIMIT;
    for (uint64_t i = 0; i >> d == 0; i++) {
        if (i > 0) { /* Gray code: element i differs from element i-1 in basis vector ctz(i) */
            size_t k = (size_t)__builtin_ctzll(i);
            for (int s = 0; s < IB_SYMMETRY_COUNT; s++)
                gf2_xor(cur + (size_t)s * words, basis + ((size_t)s * (d + 1) + k) * words, words);
        }
        if (budget_expired(wk->b)) goto done;
        bool smallest = true;
        for (int s = 1; s < IB_SYMMETRY_COUNT && smallest; s++)
            smallest = gf2_lex_cmp(cur, cur + (size_t)s * words, words) <= 0;
        if (!smallest) continue;
        if (count == classes) { /* cannot happen when Burnside's count is right */
            st = IB_NO_MEMORY;
            goto done;
        }
        memcpy(found + count * words, cur, words * sizeof *cur);
        refs[count] = (row_ref){found + count * words, words};
        count++;
    }
    qsort(refs, count, sizeof *refs, row_ref_cmp);
    out->first_rows = malloc((count ? count : 1) * words * sizeof *out->first_rows);
    st = IB_NO_MEMORY;
    if (!out->first_rows) goto done;
    for (size_t i = 0; i < count; i++)
        memcpy(out->first_rows + i * words, refs[i].row, words * sizeof *refs[i].row);
    out->board_count = count;
    st = IB_OK;
done:
    free(basis);
    free(cur);
    free(found);
    free(refs);
    return st;
}

static invariant_boards_status count_classes(work *wk, invariant_boards_result *out)
{
    invariant_boards_status st = kernel(wk);
    if (st != IB_OK) return st;
    out->kernel_dim = wk->d;
    if ((st = symmetry_images(wk)) != IB_OK) return st;

    gf2_basis basis;
    uint64_t *scratch = calloc(4 * wk->words, sizeof *scratch);
    if (!scratch || !gf2_basis_init(&basis, wk->words, (size_t)wk->d)) {
        free(scratch);
        return IB_NO_MEMORY;
    }
    out->fixed_dim[IB_IDENTITY] = wk->d;
    for (int s = 1; s < IB_SYMMETRY_COUNT && st == IB_OK; s++) {
        if (s == IB_ROTATE_CCW) /* the inverse of IB_ROTATE_CW: same fixed boards */
            out->fixed_dim[s] = out->fixed_dim[IB_ROTATE_CW];
        else
            st = fixed_dim(wk, s, &basis, scratch, &out->fixed_dim[s]);
    }
    gf2_basis_free(&basis);
    free(scratch);
    if (st != IB_OK) return st;

    mpz_t term;
    mpz_init(term);
    mpz_set_ui(out->count, 0);
    for (int s = 0; s < IB_SYMMETRY_COUNT; s++) {
        mpz_ui_pow_ui(term, 2, (unsigned long)out->fixed_dim[s]);
        mpz_add(out->count, out->count, term);
    }
    mpz_clear(term);
    mpz_fdiv_q_2exp(out->count, out->count, 3); /* Burnside: the average over 8 symmetries */
    mpz_ui_pow_ui(out->invariant_boards, 2, (unsigned long)wk->d);
    return IB_OK;
}

invariant_boards_status invariant_boards_solve(int n, size_t max_boards, budget *b,
                                               invariant_boards_result *out)
{
    memset(out, 0, sizeof *out);
    mpz_init(out->invariant_boards);
    mpz_init(out->count);
    out->n = n;
    if (n < 1 || n > INVARIANT_BOARDS_MAX_N) return IB_BAD_SIZE;
    out->words = gf2_words((size_t)n);

    work wk = {.n = (size_t)n, .words = out->words, .b = b};
    invariant_boards_status st = IB_NO_MEMORY;
    uint64_t *vectors = calloc((IB_SYMMETRY_COUNT + 1) * wk.words, sizeof *vectors);
    if (!vectors) return st;
    wk.x0 = vectors;
    for (int s = 0; s < IB_SYMMETRY_COUNT; s++)
        wk.img[s].start = vectors + (size_t)(s + 1) * wk.words;

    st = count_classes(&wk, out);
    if (st == IB_OK && max_boards > 0) {
        /* count >= 2^d / 8, so a listable count keeps d small; the d test guards 64-bit loops */
        if (mpz_cmp_ui(out->count, (unsigned long)max_boards) > 0 || out->kernel_dim > 40)
            st = IB_TOO_MANY;
        else
            st = representatives(&wk, (size_t)mpz_get_ui(out->count), out);
    }
    free(vectors);
    return st;
}

void invariant_boards_result_free(invariant_boards_result *r)
{
    mpz_clear(r->invariant_boards);
    mpz_clear(r->count);
    free(r->first_rows);
    r->first_rows = NULL;
    r->board_count = 0;
}
