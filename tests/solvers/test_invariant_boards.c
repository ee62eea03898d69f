/* Invariant boards: the solver's counts and representatives against computations of the test's
 * own, none of which shares the solver's algebra:
 * - brute force for n <= 5: every one of the 2^(n^2) boards, the transformation applied cell by
 *   cell, the 8 images built by index arithmetic;
 * - n <= 30: Gaussian elimination with all n^2 cells as unknowns, plus "cell = its image" equations
 *   for each symmetry (Burnside), and the published table in testdata;
 * - n <= 130 and a few larger: the first row's n x n matrix built by propagating unit rows, its
 *   kernel by elimination, and every kernel vector's full board mirrored or rotated explicitly;
 * - large n: the counts' arithmetic relations.
 * Listed representatives are checked to be invariant (by the test's own transformation), the
 * smallest of their 8 images, sorted and distinct. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_quiet.h"
#include "check_run.h"
#include "invariant_boards.h"

/* ---- the 8 symmetries by index arithmetic: image[i][j] = board[src_i][src_j] ---- */

static void sym_source(int s, int n, int i, int j, int *si, int *sj)
{
    int m = n - 1;
    switch (s) {
    case 0:
        *si = i, *sj = j;
        break;
    case 1:
        *si = i, *sj = m - j;
        break;
    case 2:
        *si = m - i, *sj = j;
        break;
    case 3:
        *si = m - i, *sj = m - j;
        break;
    case 4:
        *si = j, *sj = i;
        break;
    case 5:
        *si = m - j, *sj = m - i;
        break;
    case 6:
        *si = m - j, *sj = i;
        break;
    default:
        *si = j, *sj = m - i;
        break;
    }
}

/* board: n*n chars '+'/'-' row by row. */
static void sym_apply(int s, int n, const char *board, char *image)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int si, sj;
            sym_source(s, n, i, j, &si, &sj);
            image[i * n + j] = board[si * n + sj];
        }
}

/* The transformation itself, in +1/-1 arithmetic: true when the board is unchanged. */
static bool is_invariant(int n, const char *board)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int product = 1;
            static const int di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};
            for (int k = 0; k < 4; k++) {
                int a = i + di[k], b = j + dj[k];
                if (a >= 0 && a < n && b >= 0 && b < n) product *= board[a * n + b] == '-' ? -1 : 1;
            }
            if ((product == -1) != (board[i * n + j] == '-')) return false;
        }
    return true;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The solver's board k as n*n chars, rebuilt from its first row. */
static char *solver_board(const invariant_boards_result *r, size_t k)
{
    int n = r->n;
    char *board = malloc((size_t)n * n + 1);
    invariant_boards_rows it;
    ck_assert(invariant_boards_rows_init(&it, (size_t)n, r->first_rows + k * r->words));
    for (int i = 0; i < n; i++) {
        const uint64_t *row = invariant_boards_rows_next(&it);
        quiet_assert_ptr_nonnull(row);
        for (int j = 0; j < n; j++) board[i * n + j] = (row[j / 64] >> (j % 64)) & 1 ? '-' : '+';
    }
    ck_assert_ptr_null(invariant_boards_rows_next(&it));
    invariant_boards_rows_free(&it);
    board[n * n] = '\0';
    return board;
}

static bool mpz_is(const mpz_t z, unsigned long v)
{
    return mpz_cmp_ui(z, v) == 0;
}

/* Checks the listed representatives: invariant, smallest image, ascending (hence distinct). */
static void check_listed(const invariant_boards_result *r)
{
    int n = r->n;
    char *image = malloc((size_t)n * n + 1);
    image[n * n] = '\0';
    char *previous = NULL;
    for (size_t k = 0; k < r->board_count; k++) {
        char *board = solver_board(r, k);
        quiet_assert_msg(is_invariant(n, board), "n=%d board %zu is not invariant", n, k);
        for (int s = 1; s < 8; s++) {
            sym_apply(s, n, board, image);
            quiet_assert_msg(strcmp(board, image) <= 0, "n=%d board %zu: image %d is smaller", n, k,
                             s);
        }
        if (previous)
            quiet_assert_msg(strcmp(previous, board) < 0, "n=%d not ascending at %zu", n, k);
        free(previous);
        previous = board;
    }
    free(previous);
    free(image);
}

/* ---- brute force, n <= 5 ---- */

START_TEST(brute_force_small)
{
    for (int n = 1; n <= 5; n++) {
        int cells = n * n;
        unsigned long fixed[8] = {0}, invariant = 0;
        size_t classes = 0, cap = 64;
        char **canon = malloc(cap * sizeof *canon);
        char *board = malloc((size_t)cells + 1), *image = malloc((size_t)cells + 1);
        board[cells] = image[cells] = '\0';
        uint32_t row_mask = (1u << n) - 1;
        for (uint64_t mask = 0; mask < (uint64_t)1 << cells; mask++) {
            /* The transformation on bits (XOR = product of +-1): new cell = XOR of neighbours. */
            bool same = true;
            for (int i = 0; i < n && same; i++) {
                uint32_t r = (uint32_t)(mask >> (i * n)) & row_mask;
                uint32_t up = i > 0 ? (uint32_t)(mask >> ((i - 1) * n)) & row_mask : 0;
                uint32_t down = i + 1 < n ? (uint32_t)(mask >> ((i + 1) * n)) & row_mask : 0;
                uint32_t next = ((r << 1) & row_mask) ^ (r >> 1) ^ up ^ down;
                same = next == r;
            }
            if (!same) continue;
            invariant++;
            for (int c = 0; c < cells; c++) board[c] = (mask >> c) & 1 ? '-' : '+';
            quiet_assert(is_invariant(n, board)); /* the two renderings of the rule agree */
            char *best = strdup(board);
            for (int s = 0; s < 8; s++) {
                sym_apply(s, n, board, image);
                if (strcmp(image, board) == 0) fixed[s]++;
                if (strcmp(image, best) < 0) strcpy(best, image);
            }
            if (strcmp(best, board) == 0) {
                if (classes == cap) canon = realloc(canon, (cap *= 2) * sizeof *canon);
                canon[classes++] = best;
            } else {
                free(best);
            }
        }
        qsort(canon, classes, sizeof *canon, cmp_str);

        budget b;
        budget_init_unlimited(&b);
        invariant_boards_result r;
        ck_assert_int_eq(invariant_boards_solve(n, 10000, &b, &r), IB_OK);
        ck_assert_msg(mpz_is(r.invariant_boards, invariant), "n=%d invariant", n);
        ck_assert_msg(mpz_is(r.count, classes), "n=%d count", n);
        ck_assert_uint_eq(1ul << r.kernel_dim, invariant);
        for (int s = 0; s < 8; s++)
            ck_assert_msg(1ul << r.fixed_dim[s] == fixed[s], "n=%d symmetry %d fixes %lu", n, s,
                          fixed[s]);
        ck_assert_uint_eq(r.board_count, classes);
        for (size_t k = 0; k < classes; k++) {
            char *mine = solver_board(&r, k);
            quiet_assert_str_eq(mine, canon[k]);
            free(mine);
            free(canon[k]);
        }
        invariant_boards_result_free(&r);
        free(canon);
        free(board);
        free(image);
    }
}
END_TEST

/* ---- an elimination of the test's own: pivot = highest set bit, a table from bit to row ---- */

typedef struct elim {
    size_t words, bits, rank;
    uint64_t *rows; /* bits rows of words words */
    long *row_of;   /* bit -> row with that pivot, or -1 */
} elim;

static void elim_init(elim *e, size_t bits)
{
    e->bits = bits;
    e->words = (bits + 63) / 64;
    e->rank = 0;
    e->rows = calloc(bits * e->words + 1, sizeof *e->rows);
    e->row_of = malloc((bits + 1) * sizeof *e->row_of);
    for (size_t i = 0; i < bits; i++) e->row_of[i] = -1;
}

static void elim_copy(elim *dst, const elim *src)
{
    elim_init(dst, src->bits);
    memcpy(dst->rows, src->rows, src->bits * src->words * sizeof *src->rows);
    memcpy(dst->row_of, src->row_of, src->bits * sizeof *src->row_of);
    dst->rank = src->rank;
}

static void elim_free(elim *e)
{
    free(e->rows);
    free(e->row_of);
}

static void elim_add(elim *e, uint64_t *v)
{
    for (size_t w = e->words; w-- > 0;) {
        while (v[w]) {
            size_t top = 64 * w + 63 - (size_t)__builtin_clzll(v[w]);
            long r = e->row_of[top];
            if (r < 0) {
                memcpy(e->rows + e->rank * e->words, v, e->words * sizeof *v);
                e->row_of[top] = (long)e->rank++;
                return;
            }
            for (size_t i = 0; i <= w; i++) v[i] ^= e->rows[(size_t)r * e->words + i];
        }
    }
}

static void set_bit(uint64_t *v, size_t i)
{
    v[i / 64] |= (uint64_t)1 << (i % 64);
}

/* ---- n <= 30: all n^2 cells as unknowns ---- */

static void cells_dims(int n, int dims[8])
{
    size_t cells = (size_t)n * n, words = (cells + 63) / 64;
    elim inv;
    elim_init(&inv, cells);
    uint64_t *v = malloc(words * sizeof *v);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            memset(v, 0, words * sizeof *v);
            set_bit(v, (size_t)(i * n + j));
            if (i > 0) set_bit(v, (size_t)((i - 1) * n + j));
            if (i + 1 < n) set_bit(v, (size_t)((i + 1) * n + j));
            if (j > 0) set_bit(v, (size_t)(i * n + j - 1));
            if (j + 1 < n) set_bit(v, (size_t)(i * n + j + 1));
            elim_add(&inv, v);
        }
    for (int s = 0; s < 8; s++) {
        elim e;
        elim_copy(&e, &inv);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                int si, sj;
                sym_source(s, n, i, j, &si, &sj);
                if (si == i && sj == j) continue;
                memset(v, 0, words * sizeof *v);
                set_bit(v, (size_t)(i * n + j));
                set_bit(v, (size_t)(si * n + sj));
                elim_add(&e, v);
            }
        dims[s] = (int)(cells - e.rank);
        elim_free(&e);
    }
    free(v);
    elim_free(&inv);
}

static void read_table(unsigned long table[31])
{
    FILE *f = fopen(PUZZLED_TEST_DATA "/invariant-boards/answers.tsv", "r");
    ck_assert_ptr_nonnull(f);
    char line[128];
    int rows = 0;
    while (fgets(line, sizeof line, f)) {
        int n;
        unsigned long answer;
        if (sscanf(line, "%d %lu", &n, &answer) == 2 && n >= 1 && n <= 30) {
            table[n] = answer;
            rows++;
        }
    }
    fclose(f);
    ck_assert_int_eq(rows, 30);
}

START_TEST(cells_as_unknowns_and_table)
{
    unsigned long table[31] = {0};
    read_table(table);
    for (int n = 1; n <= 30; n++) {
        int dims[8];
        cells_dims(n, dims);
        mpz_t total;
        mpz_init_set_ui(total, 0);
        for (int s = 0; s < 8; s++) {
            mpz_t term;
            mpz_init(term);
            mpz_ui_pow_ui(term, 2, (unsigned long)dims[s]);
            mpz_add(total, total, term);
            mpz_clear(term);
        }
        ck_assert(mpz_divisible_2exp_p(total, 3));
        mpz_fdiv_q_2exp(total, total, 3);
        ck_assert_msg(mpz_is(total, table[n]), "n=%d: own elimination vs the table", n);

        budget b;
        budget_init_unlimited(&b);
        invariant_boards_result r;
        ck_assert_int_eq(invariant_boards_solve(n, 0, &b, &r), IB_OK);
        ck_assert_int_eq(r.kernel_dim, dims[0]);
        for (int s = 0; s < 8; s++)
            ck_assert_msg(r.fixed_dim[s] == dims[s], "n=%d symmetry %d: %d vs %d", n, s,
                          r.fixed_dim[s], dims[s]);
        ck_assert_msg(mpz_cmp(r.count, total) == 0, "n=%d count", n);
        ck_assert_msg(mpz_is(r.count, table[n]), "n=%d vs the table", n);
        mpz_clear(total);
        invariant_boards_result_free(&r);
    }
}
END_TEST

START_TEST(representatives_up_to_29)
{
    unsigned long table[31] = {0};
    read_table(table);
    for (int n = 1; n <= 29; n++) {
        budget b;
        budget_init_unlimited(&b);
        invariant_boards_result r;
        ck_assert_int_eq(invariant_boards_solve(n, 10000, &b, &r), IB_OK);
        ck_assert_uint_eq(r.board_count, table[n]); /* distinct classes, as many as there are */
        check_listed(&r);
        invariant_boards_result_free(&r);
    }
}
END_TEST

/* ---- medium n: the first row's matrix, its kernel, explicit symmetric boards ---- */

/* The full board (n*n chars) from a first row (n chars 0/1) by the invariance rule. */
static void propagate(int n, const unsigned char *first, unsigned char *board, unsigned char *last)
{
    memcpy(board, first, (size_t)n);
    for (int i = 0; i < n; i++) {
        unsigned char *out = i + 1 < n ? board + (size_t)(i + 1) * n : last;
        for (int j = 0; j < n; j++) {
            const unsigned char *r = board + (size_t)i * n;
            unsigned char v = r[j];
            if (j > 0) v ^= r[j - 1];
            if (j + 1 < n) v ^= r[j + 1];
            if (i > 0) v ^= board[(size_t)(i - 1) * n + j];
            out[j] = v;
        }
    }
}

static void first_row_dims(int n, int dims[8])
{
    size_t words = ((size_t)n + 63) / 64;
    unsigned char *first = calloc((size_t)n, 1), *board = malloc((size_t)n * n),
                  *last = malloc((size_t)n), *image = malloc((size_t)n * n);
    /* Kernel of x -> last(x): eliminate the rows [last(e_j) | e_j] with the map's part in the
     * high bits. A row whose pivot (its highest bit) falls in the low half has a zero map part:
     * its low half is a kernel vector, and these rows span the kernel. */
    elim e;
    elim_init(&e, 2 * (size_t)n);
    uint64_t *v = malloc(e.words * sizeof *v);
    for (int j = 0; j < n; j++) {
        memset(first, 0, (size_t)n);
        first[j] = 1;
        propagate(n, first, board, last);
        memset(v, 0, e.words * sizeof *v);
        for (int c = 0; c < n; c++)
            if (last[c]) set_bit(v, (size_t)(n + c));
        set_bit(v, (size_t)j);
        elim_add(&e, v);
    }
    int d = 0;
    elim fixed[8];
    for (int s = 0; s < 8; s++) elim_init(&fixed[s], (size_t)n);
    uint64_t *w = malloc(words * sizeof *w);
    for (int p = 0; p < n; p++) {
        if (e.row_of[p] < 0) continue;
        const uint64_t *row = e.rows + (size_t)e.row_of[p] * e.words;
        d++;
        for (int c = 0; c < n; c++) first[c] = (row[c / 64] >> (c % 64)) & 1;
        propagate(n, first, board, last);
        for (int c = 0; c < n; c++) quiet_assert_msg(!last[c], "n=%d: not a kernel vector", n);
        for (int s = 0; s < 8; s++) {
            char *cb = (char *)board, *ci = (char *)image;
            sym_apply(s, n, cb, ci);
            memset(w, 0, words * sizeof *w);
            for (int c = 0; c < n; c++)
                if (image[c] != first[c]) set_bit(w, (size_t)c);
            elim_add(&fixed[s], w);
        }
    }
    for (int s = 0; s < 8; s++) {
        dims[s] = d - (int)fixed[s].rank;
        elim_free(&fixed[s]);
    }
    elim_free(&e);
    free(w);
    free(v);
    free(first);
    free(board);
    free(last);
    free(image);
}

static void check_against_first_row_matrix(int n)
{
    int dims[8];
    first_row_dims(n, dims);
    budget b;
    budget_init_unlimited(&b);
    invariant_boards_result r;
    ck_assert_int_eq(invariant_boards_solve(n, 0, &b, &r), IB_OK);
    for (int s = 0; s < 8; s++)
        ck_assert_msg(r.fixed_dim[s] == dims[s], "n=%d symmetry %d: %d vs %d", n, s, r.fixed_dim[s],
                      dims[s]);
    invariant_boards_result_free(&r);
}

START_TEST(first_row_matrix_up_to_130)
{
    for (int n = 1; n <= 130; n++) check_against_first_row_matrix(n);
}
END_TEST

/* Larger kernels: 128 (n = 159), 160 (247), 174 (263). */
START_TEST(first_row_matrix_large_kernels)
{
    static const int sizes[] = {159, 247, 263};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        check_against_first_row_matrix(sizes[i]);
}
END_TEST

/* Listings beyond the brute force: each listed board is checked (invariant, smallest image,
 * ascending), and their number equals the count from the test's own first-row matrix, so the
 * list holds every class exactly once. */
START_TEST(listings_for_larger_n)
{
    static const int sizes[] = {33, 139, 1985};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        int n = sizes[i];
        budget b;
        budget_init_unlimited(&b);
        invariant_boards_result r;
        ck_assert_int_eq(invariant_boards_solve(n, 10000, &b, &r), IB_OK);
        ck_assert(mpz_is(r.count, r.board_count));
        if (n <= 263) {
            int dims[8];
            first_row_dims(n, dims);
            unsigned long total = 0;
            for (int s = 0; s < 8; s++) total += 1ul << dims[s];
            ck_assert_uint_eq(r.board_count, total / 8);
        }
        check_listed(&r);
        invariant_boards_result_free(&r);
    }
}
END_TEST

/* ---- large n: relations the counts must satisfy ---- */

START_TEST(large_n_relations)
{
    static const int sizes[] = {100, 500, 991, 1055, 1279, 1983, 1999, 2000};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        int n = sizes[i];
        budget b;
        budget_init_unlimited(&b);
        invariant_boards_result r;
        ck_assert_int_eq(invariant_boards_solve(n, 0, &b, &r), IB_OK);
        /* invariant_boards = 2^d, a power of two */
        ck_assert(mpz_popcount(r.invariant_boards) == 1);
        ck_assert_uint_eq(mpz_scan1(r.invariant_boards, 0), (unsigned long)r.kernel_dim);
        mpz_t x;
        mpz_init(x);
        mpz_mul_ui(x, r.count, 8);
        ck_assert(mpz_cmp(x, r.invariant_boards) >= 0); /* count * 8 >= invariant */
        mpz_cdiv_q_2exp(x, r.invariant_boards, 3);
        ck_assert(mpz_cmp(r.count, x) >= 0); /* count >= invariant / 8 */
        ck_assert(mpz_cmp(r.count, r.invariant_boards) <= 0);
        mpz_clear(x);
        for (int s = 1; s < 8; s++) ck_assert_int_le(r.fixed_dim[s], r.kernel_dim);
        /* a board fixed by a rotation by 90 degrees is fixed by the rotation by 180 */
        ck_assert_int_le(r.fixed_dim[6], r.fixed_dim[3]);
        invariant_boards_result_free(&r);
    }
}
END_TEST

/* One representative as a whole board for a large n where there is one class only. */
START_TEST(large_single_class_board)
{
    budget b;
    budget_init_unlimited(&b);
    invariant_boards_result r;
    ck_assert_int_eq(invariant_boards_solve(2000, 10000, &b, &r), IB_OK);
    ck_assert(mpz_is(r.count, 1));
    ck_assert_uint_eq(r.board_count, 1);
    char *board = solver_board(&r, 0);
    for (size_t c = 0; c < 2000u * 2000u; c++) quiet_assert(board[c] == '+');
    free(board);
    invariant_boards_result_free(&r);
}
END_TEST

START_TEST(too_many_boards_keeps_the_counts)
{
    budget b;
    budget_init_unlimited(&b);
    invariant_boards_result r;
    ck_assert_int_eq(invariant_boards_solve(30, 10000, &b, &r), IB_TOO_MANY);
    ck_assert(mpz_is(r.count, 131720));
    ck_assert_uint_eq(r.board_count, 0);
    invariant_boards_result_free(&r);
    ck_assert_int_eq(invariant_boards_solve(30, 131720, &b, &r), IB_OK);
    ck_assert_uint_eq(r.board_count, 131720);
    invariant_boards_result_free(&r);
}
END_TEST

START_TEST(bad_size_and_time_limit)
{
    budget b;
    budget_init_unlimited(&b);
    invariant_boards_result r;
    ck_assert_int_eq(invariant_boards_solve(0, 0, &b, &r), IB_BAD_SIZE);
    invariant_boards_result_free(&r);
    ck_assert_int_eq(invariant_boards_solve(-3, 0, &b, &r), IB_BAD_SIZE);
    invariant_boards_result_free(&r);
    budget_init_ms(&b, 0, NULL);
    ck_assert_int_eq(invariant_boards_solve(1983, 0, &b, &r), IB_TIME_LIMIT);
    invariant_boards_result_free(&r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("invariant_boards");
    TCase *tc = tcase_create("invariant_boards");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, brute_force_small);
    tcase_add_test(tc, cells_as_unknowns_and_table);
    tcase_add_test(tc, representatives_up_to_29);
    tcase_add_test(tc, first_row_matrix_up_to_130);
    tcase_add_test(tc, first_row_matrix_large_kernels);
    tcase_add_test(tc, listings_for_larger_n);
    tcase_add_test(tc, large_n_relations);
    tcase_add_test(tc, large_single_class_board);
    tcase_add_test(tc, too_many_boards_keeps_the_counts);
    tcase_add_test(tc, bad_size_and_time_limit);
    suite_add_tcase(s, tc);
    return check_run(s);
}
