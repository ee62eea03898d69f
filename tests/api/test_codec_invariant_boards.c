/* The invariant-boards codec through api_answer (parse, solve, stream): the contest sample, the
 * JSON answer's exact shape, listed boards checked by the test's own transformation and
 * symmetries, a 2000 x 2000 board streamed in small reads, and every error path. */
#include <check.h>
#include <gmp.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "answer.h"
#include "api/read_answer.h"

extern const api_puzzle codec_invariant_boards;

typedef struct outcome {
    char *body; /* the streamed answer, NUL-terminated; NULL on error */
    size_t len;
    api_error err;
} outcome;

static outcome run_budget(api_format fmt, const char *body, budget *b, size_t read_size)
{
    outcome o = {0};
    o.body = read_answer(&codec_invariant_boards, fmt, body, b, read_size, &o.len, &o.err);
    return o;
}

static outcome run(api_format fmt, const char *body)
{
    budget b;
    budget_init_unlimited(&b);
    return run_budget(fmt, body, &b, 4096);
}

static void expect_error(api_format fmt, const char *body, api_error_code code, const char *path)
{
    outcome o = run(fmt, body);
    ck_assert_msg(o.body == NULL, "%s: expected an error, got %s", body, o.body);
    ck_assert_msg(o.err.code == code, "%s: code %s", body, api_error_name(o.err.code));
    if (path) ck_assert_str_eq(o.err.path, path);
    ck_assert(strlen(o.err.message) > 10);
}

/* ---- the test's own board rules ---- */

static bool is_invariant(int n, const char *board)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            bool minus = false; /* the product of the neighbours is -1 */
            if (i > 0) minus ^= board[(i - 1) * n + j] == '-';
            if (i + 1 < n) minus ^= board[(i + 1) * n + j] == '-';
            if (j > 0) minus ^= board[i * n + j - 1] == '-';
            if (j + 1 < n) minus ^= board[i * n + j + 1] == '-';
            if (minus != (board[i * n + j] == '-')) return false;
        }
    return true;
}

/* Image s of the board (s = 0..7: identity, then by rotating and transposing). */
static void image(int s, int n, const char *board, char *out)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int a = i, b = j;
            for (int r = 0; r < s % 4; r++) { /* rotate (a, b) by 90 degrees */
                int t = a;
                a = b;
                b = n - 1 - t;
            }
            if (s >= 4) {
                int t = a;
                a = b;
                b = t;
            }
            out[i * n + j] = board[a * n + b];
        }
    out[n * n] = '\0';
}

static char *canonical(int n, const char *board)
{
    char *best = strdup(board), *img = malloc((size_t)n * n + 1);
    for (int s = 1; s < 8; s++) {
        image(s, n, board, img);
        if (strcmp(img, best) < 0) strcpy(best, img);
    }
    free(img);
    return best;
}

/* The answer's boards as flat strings; checks shape and characters. */
static char **boards_of(json_t *root, int n, size_t *count)
{
    json_t *list = json_object_get(root, "boards");
    ck_assert(json_is_array(list));
    *count = json_array_size(list);
    char **out = calloc(*count + 1, sizeof *out);
    for (size_t k = 0; k < *count; k++) {
        json_t *rows = json_array_get(list, k);
        ck_assert(json_is_array(rows));
        ck_assert_uint_eq(json_array_size(rows), (size_t)n);
        out[k] = malloc((size_t)n * n + 1);
        for (int i = 0; i < n; i++) {
            const char *row = json_string_value(json_array_get(rows, (size_t)i));
            ck_assert_ptr_nonnull(row);
            ck_assert_uint_eq(strlen(row), (size_t)n);
            ck_assert_uint_eq(strspn(row, "+-"), (size_t)n);
            memcpy(out[k] + i * n, row, (size_t)n);
        }
        out[k][n * n] = '\0';
    }
    return out;
}

static void free_boards(char **boards, size_t count)
{
    for (size_t k = 0; k < count; k++) free(boards[k]);
    free(boards);
}

/* Every board invariant, its own class's smallest image, and the list ascending (so the
 * classes are pairwise different). */
static void check_boards(char **boards, size_t count, int n)
{
    for (size_t k = 0; k < count; k++) {
        ck_assert_msg(is_invariant(n, boards[k]), "board %zu is not invariant", k);
        char *c = canonical(n, boards[k]);
        ck_assert_str_eq(c, boards[k]);
        free(c);
        if (k > 0) ck_assert_msg(strcmp(boards[k - 1], boards[k]) < 0, "not ascending at %zu", k);
    }
}

START_TEST(contest_sample_text)
{
    outcome o = run(API_FORMAT_TEXT, "4\n");
    ck_assert_str_eq(o.body, "5\n");
    free(o.body);
    o = run(API_FORMAT_TEXT, "  4");
    ck_assert_str_eq(o.body, "5\n");
    free(o.body);
    o = run(API_FORMAT_TEXT, "30\r\n");
    ck_assert_str_eq(o.body, "131720\n"); /* testdata's table */
    free(o.body);
}
END_TEST

START_TEST(json_count_only)
{
    outcome o = run(API_FORMAT_JSON, "{\"n\": 4}");
    ck_assert_str_eq(o.body, "{\"n\":4,\"count\":\"5\",\"invariant_boards\":\"16\"}");
    free(o.body);
    o = run(API_FORMAT_JSON, "{\"n\": 19, \"boards\": false}");
    ck_assert_str_eq(o.body, "{\"n\":19,\"count\":\"8356\",\"invariant_boards\":\"65536\"}");
    free(o.body);
}
END_TEST

START_TEST(json_boards_for_the_sample)
{
    outcome o = run(API_FORMAT_JSON, "{\"n\":4,\"boards\":true}");
    ck_assert_ptr_nonnull(o.body);
    const char *head = "{\"n\":4,\"count\":\"5\",\"invariant_boards\":\"16\",\"boards\":[[\"";
    ck_assert_msg(strncmp(o.body, head, strlen(head)) == 0, "%s", o.body);
    ck_assert_ptr_null(strchr(o.body, ' '));
    json_error_t jerr;
    json_t *root = json_loads(o.body, 0, &jerr);
    ck_assert_msg(root != NULL, "%s", jerr.text);
    size_t count;
    char **boards = boards_of(root, 4, &count);
    ck_assert_uint_eq(count, 5);
    check_boards(boards, count, 4);
    /* pairwise non-equivalent, spelt out: no image of one board is another */
    char img[17];
    for (size_t a = 0; a < count; a++)
        for (size_t b = 0; b < count; b++)
            for (int s = 0; s < 8 && a != b; s++) {
                image(s, 4, boards[a], img);
                ck_assert_str_ne(img, boards[b]);
            }
    free_boards(boards, count);
    json_decref(root);
    free(o.body);
}
END_TEST

/* All 8356 classes for n = 19, read in odd-sized pieces. */
START_TEST(json_boards_many)
{
    budget b;
    budget_init_unlimited(&b);
    outcome o = run_budget(API_FORMAT_JSON, "{\"boards\":true,\"n\":19}", &b, 777);
    ck_assert_ptr_nonnull(o.body);
    json_t *root = json_loads(o.body, 0, NULL);
    ck_assert_ptr_nonnull(root);
    ck_assert_str_eq(json_string_value(json_object_get(root, "count")), "8356");
    size_t count;
    char **boards = boards_of(root, 19, &count);
    ck_assert_uint_eq(count, 8356);
    check_boards(boards, count, 19);
    free_boards(boards, count);
    json_decref(root);
    free(o.body);
}
END_TEST

/* n = 2000 has one class: a 4 MB board streamed row by row. */
START_TEST(json_board_2000)
{
    budget b;
    budget_init_unlimited(&b);
    outcome o = run_budget(API_FORMAT_JSON, "{\"n\":2000,\"boards\":true}", &b, 1000);
    ck_assert_ptr_nonnull(o.body);
    json_t *root = json_loads(o.body, 0, NULL);
    ck_assert_ptr_nonnull(root);
    size_t count;
    char **boards = boards_of(root, 2000, &count);
    ck_assert_uint_eq(count, 1);
    ck_assert(is_invariant(2000, boards[0]));
    free_boards(boards, count);
    json_decref(root);
    free(o.body);
}
END_TEST

/* n = 1994: a few classes of nontrivial 1994 x 1994 boards, streamed and checked. */
START_TEST(json_boards_large_nontrivial)
{
    budget b;
    budget_init_unlimited(&b);
    outcome o = run_budget(API_FORMAT_JSON, "{\"n\":1994,\"boards\":true}", &b, 65536);
    ck_assert_ptr_nonnull(o.body);
    json_t *root = json_loads(o.body, 0, NULL);
    ck_assert_ptr_nonnull(root);
    const char *count = json_string_value(json_object_get(root, "count"));
    size_t listed;
    char **boards = boards_of(root, 1994, &listed);
    ck_assert_uint_eq(listed, strtoul(count, NULL, 10));
    unsigned long all = strtoul(json_string_value(json_object_get(root, "invariant_boards")), NULL,
                                10); /* classes <= all invariant boards <= 8 classes */
    ck_assert(listed <= all && all <= 8 * listed);
    check_boards(boards, listed, 1994);
    free_boards(boards, listed);
    json_decref(root);
    free(o.body);
}
END_TEST

/* A large kernel: both formats give the same count, a power of two bounds it. */
START_TEST(large_counts_agree)
{
    outcome t = run(API_FORMAT_TEXT, "1983\n");
    outcome j = run(API_FORMAT_JSON, "{\"n\":1983}");
    ck_assert_ptr_nonnull(t.body);
    ck_assert_ptr_nonnull(j.body);
    json_t *root = json_loads(j.body, 0, NULL);
    const char *count = json_string_value(json_object_get(root, "count"));
    const char *inv = json_string_value(json_object_get(root, "invariant_boards"));
    ck_assert_uint_eq(strlen(t.body), strlen(count) + 1);
    ck_assert(strncmp(t.body, count, strlen(count)) == 0);
    mpz_t c, i;
    ck_assert_int_eq(mpz_init_set_str(c, count, 10), 0);
    ck_assert_int_eq(mpz_init_set_str(i, inv, 10), 0);
    ck_assert_uint_eq(mpz_popcount(i), 1);
    mpz_mul_ui(c, c, 8);
    ck_assert(mpz_cmp(c, i) >= 0);
    mpz_clears(c, i, NULL);
    json_decref(root);
    free(t.body);
    free(j.body);
}
END_TEST

START_TEST(json_errors)
{
    expect_error(API_FORMAT_JSON, "{\"n\":0}", API_INVALID_REQUEST, "/n");
    expect_error(API_FORMAT_JSON, "{\"n\":2001}", API_INVALID_REQUEST, "/n");
    expect_error(API_FORMAT_JSON, "{\"n\":-5}", API_INVALID_REQUEST, "/n");
    expect_error(API_FORMAT_JSON, "{\"n\":\"4\"}", API_INVALID_REQUEST, "/n");
    expect_error(API_FORMAT_JSON, "{\"n\":4.5}", API_INVALID_REQUEST, "/n");
    expect_error(API_FORMAT_JSON, "{}", API_INVALID_REQUEST, "/n");
    expect_error(API_FORMAT_JSON, "{\"n\":4,\"size\":4}", API_INVALID_REQUEST, "/size");
    expect_error(API_FORMAT_JSON, "{\"n\":4,\"boards\":1}", API_INVALID_REQUEST, "/boards");
    expect_error(API_FORMAT_JSON, "[4]", API_INVALID_REQUEST, "");
    expect_error(API_FORMAT_JSON, "{\"n\":4", API_MALFORMED_JSON, NULL);
}
END_TEST

START_TEST(too_many_boards)
{
    outcome o = run(API_FORMAT_JSON, "{\"n\":30,\"boards\":true}");
    ck_assert_ptr_null(o.body);
    ck_assert_int_eq(o.err.code, API_TOO_MANY_BOARDS);
    ck_assert_int_eq(api_error_status(o.err.code), 422);
    ck_assert_msg(strstr(o.err.message, "131720") && strstr(o.err.message, "10000"), "%s",
                  o.err.message);
    /* a count with hundreds of digits still gives a readable message */
    o = run(API_FORMAT_JSON, "{\"n\":1983,\"boards\":true}");
    ck_assert_int_eq(o.err.code, API_TOO_MANY_BOARDS);
    ck_assert(strstr(o.err.message, "digit") != NULL);
}
END_TEST

START_TEST(text_errors)
{
    expect_error(API_FORMAT_TEXT, "", API_MALFORMED_TEXT, NULL);
    expect_error(API_FORMAT_TEXT, "  \n\n", API_MALFORMED_TEXT, NULL);
    expect_error(API_FORMAT_TEXT, "four\n", API_MALFORMED_TEXT, NULL);
    expect_error(API_FORMAT_TEXT, "4.5\n", API_MALFORMED_TEXT, NULL);
    expect_error(API_FORMAT_TEXT, "4 4\n", API_MALFORMED_TEXT, NULL);
    expect_error(API_FORMAT_TEXT, "4\n5\n", API_MALFORMED_TEXT, NULL);
    expect_error(API_FORMAT_TEXT, "0\n", API_INVALID_BOARD, NULL);
    expect_error(API_FORMAT_TEXT, "-4\n", API_INVALID_BOARD, NULL);
    expect_error(API_FORMAT_TEXT, "2001\n", API_INVALID_BOARD, NULL);
    expect_error(API_FORMAT_TEXT, "123456789012345678901234567890\n", API_INVALID_BOARD, NULL);
    outcome o = run(API_FORMAT_TEXT, "00012\n");
    ck_assert_str_eq(o.body, "1\n");
    free(o.body);
}
END_TEST

START_TEST(time_limit)
{
    budget b;
    budget_init_ms(&b, 0, NULL);
    outcome o = run_budget(API_FORMAT_JSON, "{\"n\":1983}", &b, 4096);
    ck_assert_ptr_null(o.body);
    ck_assert_int_eq(o.err.code, API_TIME_LIMIT);
}
END_TEST

START_TEST(registry_row)
{
    ck_assert_str_eq(codec_invariant_boards.slug, "invariant-boards");
    json_t *limits = json_loads(codec_invariant_boards.limits_json, 0, NULL);
    ck_assert(json_is_object(limits));
    json_decref(limits);
    outcome o = run(API_FORMAT_JSON, codec_invariant_boards.example_json);
    ck_assert_ptr_nonnull(o.body);
    free(o.body);
    o = run(API_FORMAT_TEXT, codec_invariant_boards.example_text);
    ck_assert_str_eq(o.body, "5\n");
    free(o.body);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("codec_invariant_boards");
    TCase *tc = tcase_create("codec_invariant_boards");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, contest_sample_text);
    tcase_add_test(tc, json_count_only);
    tcase_add_test(tc, json_boards_for_the_sample);
    tcase_add_test(tc, json_boards_many);
    tcase_add_test(tc, json_board_2000);
    tcase_add_test(tc, json_boards_large_nontrivial);
    tcase_add_test(tc, large_counts_agree);
    tcase_add_test(tc, json_errors);
    tcase_add_test(tc, too_many_boards);
    tcase_add_test(tc, text_errors);
    tcase_add_test(tc, time_limit);
    tcase_add_test(tc, registry_row);
    suite_add_tcase(s, tc);
    return check_run(s);
}
