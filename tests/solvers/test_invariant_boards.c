/* Invariant boards: the solver's counts and representatives against computations of the test's
 * own, none of which shares the solver's algebra:
 * - brute force for n <= 5: every one of the 2^(n^2) boards, the transformation applied cell by
 *   cell, the 8 images built by index arithmetic;
 * - n <= 30: Gaussian elimination with all n^2 cells as unknowns, plus "cell = its image" equations
 *   for each symmetry (Burnside), and the published table in testdata;
 * - n <= 130 and a few larger, up to 2000: the first row's n x n matrix built by propagating
 *   unit rows (64 cells at a time), its kernel by elimination, and each kernel vector's images
 *   read off its board's borders; the count by Burnside from those;
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

/* A board from its first row (n bits, packed in words of 64) by the invariance rule, row by
 * row: cell (i+1, j) = cell (i, j) ^ (i, j-1) ^ (i, j+1) ^ (i-1, j), 64 cells at a time. Gives the
 * row after the last (all zero exactly when the board is invariant) and the board's borders:
 * its last row, and its first and last columns (bit i: row i). The borders are all that the
 * symmetries need: the image of an invariant board is invariant, so its first row decides it,
 * and that row is a border of the board (sym_source with i = 0). */
typedef struct borders {
    uint64_t *last_row, *first_col, *last_col, *after; /* n bits each */
} borders;

static void propagate(int n, const uint64_t *first, uint64_t *rows3, const borders *b)
{
    size_t words = ((size_t)n + 63) / 64;
    uint64_t top = n % 64 ? ((uint64_t)1 << (n % 64)) - 1 : ~(uint64_t)0;
    uint64_t *prev = rows3, *cur = rows3 + words, *next = rows3 + 2 * words;
    memset(prev, 0, words * sizeof *prev);
    memcpy(cur, first, words * sizeof *cur);
    memset(b->first_col, 0, words * sizeof *b->first_col);
    memset(b->last_col, 0, words * sizeof *b->last_col);
    for (int i = 0; i < n; i++) {
        if (cur[0] & 1) set_bit(b->first_col, (size_t)i);
        if ((cur[(n - 1) / 64] >> ((n - 1) % 64)) & 1) set_bit(b->last_col, (size_t)i);
        if (i == n - 1) memcpy(b->last_row, cur, words * sizeof *cur);
        for (size_t w = 0; w < words; w++) {
            uint64_t left = cur[w] << 1 | (w ? cur[w - 1] >> 63 : 0);              /* cell j-1 */
            uint64_t right = cur[w] >> 1 | (w + 1 < words ? cur[w + 1] << 63 : 0); /* j+1 */
            next[w] = cur[w] ^ left ^ right ^ prev[w];
        }
        next[words - 1] &= top;
        uint64_t *t = prev;
        prev = cur, cur = next, next = t;
    }
    memcpy(b->after, cur, words * sizeof *cur);
}

/* Bit j of v reversed into bit n-1-j of out. */
static void reverse_bits(int n, const uint64_t *v, uint64_t *out)
{
    size_t words = ((size_t)n + 63) / 64;
    memset(out, 0, words * sizeof *out);
    for (int j = 0; j < n; j++)
        if ((v[j / 64] >> (j % 64)) & 1) set_bit(out, (size_t)(n - 1 - j));
}

/* The fixed-space dimension of each symmetry in the kernel of x -> the row after the last. */
static void first_row_dims(int n, int dims[8])
{
    size_t words = ((size_t)n + 63) / 64;
    uint64_t *first = malloc(words * sizeof *first), *rows3 = malloc(3 * words * sizeof *rows3);
    uint64_t *space = calloc(6 * words, sizeof *space);
    borders b = {space, space + words, space + 2 * words, space + 3 * words};
    uint64_t *reversed = space + 4 * words, *image = space + 5 * words;
    /* Kernel of x -> after(x): eliminate the rows [after(e_j) | e_j] with the map's part in the
     * high bits. A row whose pivot (its highest bit) falls in the low half has a zero map part:
     * its low half is a kernel vector, and these rows span the kernel. */
    elim e;
    elim_init(&e, 2 * (size_t)n);
    uint64_t *v = malloc(e.words * sizeof *v);
    for (int j = 0; j < n; j++) {
        memset(first, 0, words * sizeof *first);
        set_bit(first, (size_t)j);
        propagate(n, first, rows3, &b);
        memset(v, 0, e.words * sizeof *v);
        for (int c = 0; c < n; c++)
            if ((b.after[c / 64] >> (c % 64)) & 1) set_bit(v, (size_t)(n + c));
        set_bit(v, (size_t)j);
        elim_add(&e, v);
    }
    int d = 0;
    elim fixed[8];
    for (int s = 0; s < 8; s++) elim_init(&fixed[s], (size_t)n);
    for (int p = 0; p < n; p++) {
        if (e.row_of[p] < 0) continue;
        const uint64_t *row = e.rows + (size_t)e.row_of[p] * e.words;
        d++;
        memset(first, 0, words * sizeof *first);
        for (int c = 0; c < n; c++)
            if ((row[c / 64] >> (c % 64)) & 1) set_bit(first, (size_t)c);
        propagate(n, first, rows3, &b);
        for (size_t w = 0; w < words; w++)
            quiet_assert_msg(!b.after[w], "n=%d: not a kernel vector", n);
        /* The image's first row for each symmetry (sym_source at i = 0): first row, reversed;
         * last row, reversed; first column; last column reversed; first column reversed; last
         * column. The vector of symmetry s is image + first: zero when x is fixed. */
        for (int s = 0; s < 8; s++) {
            const uint64_t *src = s == 0 || s == 1   ? first
                                  : s == 2 || s == 3 ? b.last_row
                                  : s == 4 || s == 6 ? b.first_col
                                                     : b.last_col;
            bool reverse = s == 1 || s == 3 || s == 5 || s == 6;
            if (reverse) reverse_bits(n, src, reversed);
            const uint64_t *src_image = reverse ? reversed : src;
            for (size_t w = 0; w < words; w++) image[w] = src_image[w] ^ first[w];
            elim_add(&fixed[s], image);
        }
    }
    for (int s = 0; s < 8; s++) {
        dims[s] = d - (int)fixed[s].rank;
        elim_free(&fixed[s]);
    }
    elim_free(&e);
    free(v);
    free(first);
    free(rows3);
    free(space);
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
    /* Burnside: the classes are the mean of the 8 fixed spaces' sizes; 2^d boards in all. */
    mpz_t sum, one;
    mpz_inits(sum, one, NULL);
    for (int s = 0; s < 8; s++) {
        mpz_set_ui(one, 1);
        mpz_mul_2exp(one, one, (mp_bitcnt_t)dims[s]);
        mpz_add(sum, sum, one);
    }
    ck_assert(mpz_divisible_ui_p(sum, 8));
    mpz_divexact_ui(sum, sum, 8);
    ck_assert_msg(mpz_cmp(sum, r.count) == 0, "n=%d: the count differs from Burnside's", n);
    mpz_set_ui(one, 1);
    mpz_mul_2exp(one, one, (mp_bitcnt_t)dims[0]);
    ck_assert_msg(mpz_cmp(one, r.invariant_boards) == 0, "n=%d: not 2^%d boards", n, dims[0]);
    mpz_clears(sum, one, NULL);
    invariant_boards_result_free(&r);
}

START_TEST(first_row_matrix_up_to_130)
{
    for (int n = 1; n <= 130; n++) check_against_first_row_matrix(n);
}
END_TEST

/* Larger kernels: 128 (n = 159), 160 (247), 174 (263), and the largest n: 1 280 (1983, the
 * slowest for the solver), 2000 and 1999 (the limit). */
START_TEST(first_row_matrix_large_kernels)
{
    static const int sizes[] = {159, 247, 263, 1983, 1999, 2000};
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
        int dims[8];
        first_row_dims(n, dims);
        unsigned long total = 0;
        for (int s = 0; s < 8; s++) total += 1ul << dims[s];
        ck_assert_uint_eq(r.board_count, total / 8);
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
