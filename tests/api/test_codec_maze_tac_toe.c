/* The maze-tac-toe codec through api_answer (parse + solve + streaming): the contest sample in
 * both formats, the eight boards the statement lists, a long streamed list checked by the test's
 * own win rule, tolerated text layouts, and every error path with its code and path. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "answer.h"
#include "puzzle.h"
#include "api/read_answer.h"

extern const api_puzzle codec_maze_tac_toe;

static const char *const sample_rows[] = {
    "#####################", "###O11###...###M13###", "###......O22......###",
    "###...######M22######", "###BBB###M31###M11###", "###...O32...M33O31###",
    "#####################",
};

typedef struct outcome {
    bool ok;
    char *body; /* the streamed answer (ok) */
    size_t len;
    api_error err; /* the error (not ok) */
} outcome;

/* Runs a request; reads the answer in odd-sized pieces so the streaming is exercised. */
static outcome run(api_format fmt, const char *body, long budget_ms)
{
    outcome o = {0};
    o.body = read_answer_ms(&codec_maze_tac_toe, fmt, body, budget_ms, 997, &o.len, &o.err);
    o.ok = o.body != NULL;
    return o;
}

static void expect_error(api_format fmt, const char *body, api_error_code code, const char *path,
                         const char *in_message)
{
    outcome o = run(fmt, body, -1);
    ck_assert_msg(!o.ok, "accepted: %s", body);
    ck_assert_msg(o.err.code == code, "code %s, expected %s (%s) for %s",
                  api_error_name(o.err.code), api_error_name(code), o.err.message, body);
    ck_assert_str_eq(o.err.path, path);
    /* A text body has no JSON to point into: its errors carry no path at all. */
    ck_assert_msg(fmt == API_FORMAT_JSON || !o.err.has_path, "a path for the text %s", body);
    if (in_message)
        ck_assert_msg(strstr(o.err.message, in_message) != NULL, "message \"%s\" lacks \"%s\"",
                      o.err.message, in_message);
    ck_assert_int_gt((int)strlen(o.err.message), 10);
}

/* A JSON body from rows (NULL-terminated), with extra text appended inside the object. */
static char *json_body(const char *const *rows, size_t n, const char *extra)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++) json_array_append_new(arr, json_string(rows[i]));
    json_t *root = json_pack("{s:o}", "maze", arr);
    char *text = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    if (extra) {
        size_t len = strlen(text);
        char *full = malloc(len + strlen(extra) + 2);
        memcpy(full, text, len - 1); /* drop the closing brace */
        sprintf(full + len - 1, ",%s}", extra);
        free(text);
        text = full;
    }
    return text;
}

static char *text_body(const char *const *rows, size_t n, const char *eol)
{
    size_t cap = 64 + n * 400;
    char *t = malloc(cap);
    int len = snprintf(t, cap, "%zu%s", n, eol);
    for (size_t i = 0; i < n; i++)
        len += snprintf(t + len, cap - (size_t)len, "%s%s", rows[i], eol);
    return t;
}

static int cmp_board(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

START_TEST(sample_text_gives_eight)
{
    char *body = text_body(sample_rows, 7, "\n");
    outcome o = run(API_FORMAT_TEXT, body, -1);
    ck_assert(o.ok);
    ck_assert_str_eq(o.body, "8\n");
    free(o.body);
    free(body);
}
END_TEST

START_TEST(sample_json_count_and_the_statement_boards)
{
    char *body = json_body(sample_rows, 7, NULL);
    outcome o = run(API_FORMAT_JSON, body, -1);
    ck_assert(o.ok);
    ck_assert_str_eq(o.body, "{\"count\":8}");
    free(o.body);
    free(body);

    body = json_body(sample_rows, 7, "\"boards\":false");
    o = run(API_FORMAT_JSON, body, -1);
    ck_assert(o.ok);
    ck_assert_str_eq(o.body, "{\"count\":8}");
    free(o.body);
    free(body);

    /* The statement's eight boards, in its order; the answer lists them sorted by their
     * 9-character text in ASCII order. */
    static const char statement[8][3][4] = {
        {"O.M", ".O.", "MOM"}, {"O..", ".O.", ".OM"}, {"O.M", ".O.", ".OM"}, {"O..", ".O.", "MOM"},
        {"O..", "...", "OOM"}, {"..M", ".O.", "OOM"}, {"...", ".O.", "OOM"}, {"...", "...", "OOM"},
    };
    char flat[8][10];
    for (int k = 0; k < 8; k++)
        for (int r = 0; r < 3; r++) memcpy(flat[k] + 3 * r, statement[k][r], 3);
    for (int k = 0; k < 8; k++) flat[k][9] = '\0';
    qsort(flat, 8, sizeof flat[0], cmp_board);
    char expected[512];
    int len = snprintf(expected, sizeof expected, "{\"count\":8,\"boards\":[");
    for (int k = 0; k < 8; k++)
        len += snprintf(expected + len, sizeof expected - (size_t)len,
                        "%s[\"%.3s\",\"%.3s\",\"%.3s\"]", k ? "," : "", flat[k], flat[k] + 3,
                        flat[k] + 6);
    snprintf(expected + len, sizeof expected - (size_t)len, "]}");

    body = json_body(sample_rows, 7, "\"boards\":true");
    o = run(API_FORMAT_JSON, body, -1);
    ck_assert(o.ok);
    ck_assert_str_eq(o.body, expected);
    free(o.body);
    free(body);
}
END_TEST

static bool letters_win(const char *t)
{
    static const int lines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                    {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};
    for (int l = 0; l < 8; l++) {
        char w[4] = {t[lines[l][0]], t[lines[l][1]], t[lines[l][2]], '\0'};
        if (!strcmp(w, "MOO") || !strcmp(w, "OOM")) return true;
    }
    return false;
}

/* Reads a shared case as text: the body and the expected count. */
static char *read_case(const char *name, long *answer)
{
    char path[512];
    snprintf(path, sizeof path, "%s/maze-tac-toe/%s.in", PUZZLED_TEST_DATA, name);
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    char *buf = calloc(1, 1 << 16);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    fclose(f);
    buf[n] = '\0';
    snprintf(path, sizeof path, "%s/maze-tac-toe/%s.out", PUZZLED_TEST_DATA, name);
    f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fscanf(f, "%ld", answer), 1);
    fclose(f);
    return buf;
}

START_TEST(long_board_list_streams_whole_and_sorted)
{
    long answer = 0;
    char *text = read_case("rand7_N25", &answer);
    ck_assert_int_gt(answer, 3000); /* enough boards to fill several staging buffers */
    outcome o = run(API_FORMAT_TEXT, text, -1);
    ck_assert(o.ok);
    char want[32];
    snprintf(want, sizeof want, "%ld\n", answer);
    ck_assert_str_eq(o.body, want);
    free(o.body);

    /* The same maze as JSON with boards. */
    const char *p = text;
    int n = (int)strtol(p, (char **)&p, 10);
    json_t *rows = json_array();
    for (int r = 0; r < n; r++) {
        while (*p == '\n' || *p == '\r' || *p == ' ') p++;
        size_t len = strcspn(p, "\r\n");
        json_array_append_new(rows, json_stringn(p, len));
        p += len;
    }
    json_t *req = json_pack("{s:o,s:b}", "maze", rows, "boards", 1);
    char *body = json_dumps(req, JSON_COMPACT);
    json_decref(req);
    o = run(API_FORMAT_JSON, body, -1);
    ck_assert(o.ok);
    ck_assert_uint_gt(o.len, 2 * 64 * 1024);
    ck_assert_ptr_null(strchr(o.body, ' ')); /* compact */
    ck_assert(strncmp(o.body, "{\"count\":", 9) == 0);
    json_error_t jerr;
    json_t *ans = json_loads(o.body, 0, &jerr);
    ck_assert_msg(ans != NULL, "not JSON: %s", jerr.text);
    ck_assert_int_eq(json_integer_value(json_object_get(ans, "count")), answer);
    json_t *boards = json_object_get(ans, "boards");
    ck_assert_int_eq((long)json_array_size(boards), answer);
    char prev[10] = "";
    for (size_t i = 0; i < json_array_size(boards); i++) {
        json_t *b = json_array_get(boards, i);
        ck_assert_int_eq((int)json_array_size(b), 3);
        char flat[10] = "";
        for (int r = 0; r < 3; r++) {
            const char *row = json_string_value(json_array_get(b, r));
            ck_assert_ptr_nonnull(row);
            ck_assert_int_eq((int)strlen(row), 3);
            ck_assert_int_eq((int)strspn(row, "MO."), 3);
            strcat(flat, row);
        }
        ck_assert(letters_win(flat));
        ck_assert_int_lt(strcmp(prev, flat), 0); /* strictly ascending: sorted, distinct */
        memcpy(prev, flat, sizeof prev);
    }
    json_decref(ans);
    free(o.body);
    free(body);
    free(text);
}
END_TEST

START_TEST(text_layouts_tolerated)
{
    const char *eols[] = {"\r\n", "  \n", "\n\n"};
    for (int k = 0; k < 3; k++) {
        char *body = text_body(sample_rows, 7, eols[k]);
        outcome o = run(API_FORMAT_TEXT, body, -1);
        ck_assert_msg(o.ok, "%s", o.err.message);
        ck_assert_str_eq(o.body, "8\n");
        free(o.body);
        free(body);
    }
    /* no newline at the very end */
    char *body = text_body(sample_rows, 7, "\n");
    body[strlen(body) - 1] = '\0';
    outcome o = run(API_FORMAT_TEXT, body, -1);
    ck_assert(o.ok);
    ck_assert_str_eq(o.body, "8\n");
    free(o.body);
    free(body);
}
END_TEST

START_TEST(zero_answer_with_boards)
{
    static const char *const rows[] = {"#########", "###BBB###", "#########"};
    char *body = json_body(rows, 3, "\"boards\":true");
    outcome o = run(API_FORMAT_JSON, body, -1);
    ck_assert(o.ok);
    ck_assert_str_eq(o.body, "{\"count\":0,\"boards\":[]}");
    free(o.body);
    free(body);
}
END_TEST

START_TEST(json_schema_errors)
{
    expect_error(API_FORMAT_JSON, "{}", API_INVALID_REQUEST, "/maze", "maze");
    expect_error(API_FORMAT_JSON, "{\"maze\":\"###\"}", API_INVALID_REQUEST, "/maze", "array");
    expect_error(API_FORMAT_JSON, "{\"maze\":null}", API_INVALID_REQUEST, "/maze", NULL);
    expect_error(API_FORMAT_JSON, "{\"maze\":[\"#########\",7,\"#########\"]}", API_INVALID_REQUEST,
                 "/maze/1", "string");
    expect_error(API_FORMAT_JSON, "[1]", API_INVALID_REQUEST, "", NULL);
    expect_error(API_FORMAT_JSON, "{\"maze\":[", API_MALFORMED_JSON, "", NULL);

    char *body = json_body(sample_rows, 7, "\"boards\":1");
    expect_error(API_FORMAT_JSON, body, API_INVALID_REQUEST, "/boards", "true or false");
    free(body);
    body = json_body(sample_rows, 7, "\"colour\":1");
    expect_error(API_FORMAT_JSON, body, API_INVALID_REQUEST, "/colour", "colour");
    free(body);
}
END_TEST

/* The sample with one row replaced. */
static char *sample_with(int row, const char *text, api_format fmt)
{
    const char *rows[7];
    for (int r = 0; r < 7; r++) rows[r] = r == row ? text : sample_rows[r];
    return fmt == API_FORMAT_JSON ? json_body(rows, 7, NULL) : text_body(rows, 7, "\n");
}

START_TEST(json_rule_errors)
{
    static const char *const two[] = {"######", "######"};
    char *body = json_body(two, 2, NULL);
    expect_error(API_FORMAT_JSON, body, API_INVALID_BOARD, "/maze", "3 to 100");
    free(body);
    const char *many[101];
    for (int r = 0; r < 101; r++) many[r] = "###";
    body = json_body(many, 101, NULL);
    expect_error(API_FORMAT_JSON, body, API_INVALID_BOARD, "/maze", "101 rows");
    free(body);
    static const char *const one[] = {"###"};
    body = json_body(one, 1, NULL);
    expect_error(API_FORMAT_JSON, body, API_INVALID_BOARD, "/maze", "The maze has 1 row;");
    free(body);

    struct {
        int row;
        const char *text;
        const char *in_message;
    } cases[] = {
        {3, "###...######M22####", "needs 21"},          /* short line */
        {3, "###...######M22#########", "needs 21"},     /* long line */
        {3, "#", "has 1 character,"},                    /* one character, not "1 characters" */
        {4, "###BBB###X31###M11###", "row 5, column 4"}, /* unknown cell */
        {4, "###BBB###M41###M11###", "\"M41\""},         /* i out of 1..3 */
        {4, "###BBB###M30###M11###", "\"M30\""},         /* j out of 1..3 */
        {4, "###BBB###m31###M11###", "\"m31\""},         /* lower case */
        {0, "###...###############", "row 1, column 2"}, /* open top border */
        {5, "...BBB...............", "row 6, column 1"}, /* open side border */
        {5, "###...O32...M33O31BBB", "border"},          /* start on the border */
        {6, "###############...###", "row 7, column 6"}, /* open bottom border */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char path[16];
        snprintf(path, sizeof path, "/maze/%d", cases[k].row);
        body = sample_with(cases[k].row, cases[k].text, API_FORMAT_JSON);
        expect_error(API_FORMAT_JSON, body, API_INVALID_BOARD, path, cases[k].in_message);
        free(body);
    }
    /* two starts: the path names the line of the second one (row 5 holds the first BBB) */
    body = sample_with(5, "###...O32...BBBO31###", API_FORMAT_JSON);
    expect_error(API_FORMAT_JSON, body, API_INVALID_BOARD, "/maze/5",
                 "first is at row 5, column 2");
    free(body);
    /* no start */
    body = sample_with(4, "###...###M31###M11###", API_FORMAT_JSON);
    expect_error(API_FORMAT_JSON, body, API_INVALID_BOARD, "/maze", "no start");
    free(body);
    /* a start above the sample's own: the second one found is the sample's, on /maze/4 */
    body = sample_with(2, "###......O22...BBB###", API_FORMAT_JSON);
    expect_error(API_FORMAT_JSON, body, API_INVALID_BOARD, "/maze/4",
                 "row 5, column 2 is a second start (BBB); the first is at row 3, column 6");
    free(body);
    /* a NUL byte inside a cell */
    /* a control character inside a cell: shown as \xHH; a two-byte letter: itself */
    expect_error(API_FORMAT_JSON, "{\"maze\":[\"#########\",\"###B\\u0001B###\",\"#########\"]}",
                 API_INVALID_BOARD, "/maze/1", "\"B\\x01B\"");
    expect_error(API_FORMAT_JSON, "{\"maze\":[\"#########\",\"###B\\u00e9###\",\"#########\"]}",
                 API_INVALID_BOARD, "/maze/1", "\"B\xC3\xA9\"");
    /* the same letter where it makes the row a byte too long: named, not the length */
    body = sample_with(3, "###...######M2\xC3\xA9######", API_FORMAT_JSON);
    expect_error(API_FORMAT_JSON, body, API_INVALID_BOARD, "/maze/3",
                 "character '\xC3\xA9' (U+00E9) at position 15 (cell 5)");
    free(body);
}
END_TEST

START_TEST(text_errors)
{
    expect_error(API_FORMAT_TEXT, "", API_MALFORMED_TEXT, "", "line 1");
    expect_error(API_FORMAT_TEXT, "seven\n", API_MALFORMED_TEXT, "", "line 1");
    expect_error(API_FORMAT_TEXT, "\n\n7x\n", API_MALFORMED_TEXT, "", "line 3");
    expect_error(API_FORMAT_TEXT, "2\n######\n######\n", API_INVALID_BOARD, "", "line 1");
    expect_error(API_FORMAT_TEXT, "101\n", API_INVALID_BOARD, "", "from 3 to 100");
    expect_error(API_FORMAT_TEXT, "99999999999999999999999\n", API_INVALID_BOARD, "", "line 1");
    expect_error(API_FORMAT_TEXT, "-7\n", API_INVALID_BOARD, "", "line 1");

    /* fewer rows than N, more rows than N */
    char *body = text_body(sample_rows, 7, "\n");
    char *cut = strstr(body, "###...O32");
    *cut = '\0';
    expect_error(API_FORMAT_TEXT, body, API_MALFORMED_TEXT, "", "after 5 maze rows");
    free(body);
    body = text_body(sample_rows, 7, "\n");
    size_t len = strlen(body);
    body = realloc(body, len + 32);
    strcat(body, "#####################\n");
    expect_error(API_FORMAT_TEXT, body, API_MALFORMED_TEXT, "", "line 9");
    free(body);
    /* N alone: no rows at all */
    expect_error(API_FORMAT_TEXT, "3\n", API_MALFORMED_TEXT, "", "after 0 maze rows");

    struct {
        int row;
        const char *text;
        const char *in_message;
    } cases[] = {
        {3, "###...######M22####", "line 5: maze row 4 has 19"},
        {4, "###BBB###X31###M11###", "line 6: the cell at row 5, column 4"},
        {4, "###BBB### M31##M11###", "line 6: the cell at row 5, column 4"}, /* a space */
        {4, "###BBB###O04###M11###", "line 6:"},
        {0, "###...###############", "line 2: the cell at row 1, column 2"},
        {2, "###......O22...BBB###",
         "line 6: the cell at row 5, column 2 is a second start (BBB); the first is at row 3, "
         "column 6"},
        {4, "###...###M31###M11###", "no start"},
        /* a byte that is no character on its own: shown as \xHH, not as '?' */
        {4,
         "###BBB###\xEF"
         "31###M11###",
         "is \"\\xEF31\""},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        body = sample_with(cases[k].row, cases[k].text, API_FORMAT_TEXT);
        expect_error(API_FORMAT_TEXT, body, API_INVALID_BOARD, "", cases[k].in_message);
        free(body);
    }
}
END_TEST

START_TEST(time_limit)
{
    char *body = text_body(sample_rows, 7, "\n");
    outcome o = run(API_FORMAT_TEXT, body, 0);
    ck_assert(!o.ok);
    ck_assert_int_eq(o.err.code, API_TIME_LIMIT);
    ck_assert_int_eq(api_error_status(o.err.code), 422);
    free(body);
}
END_TEST

START_TEST(registry_row_is_consistent)
{
    ck_assert_str_eq(codec_maze_tac_toe.slug, "maze-tac-toe");
    json_t *limits = json_loads(codec_maze_tac_toe.limits_json, 0, NULL);
    ck_assert_ptr_nonnull(limits);
    json_decref(limits);
    /* The examples are valid requests and answer the sample's 8. */
    outcome o = run(API_FORMAT_JSON, codec_maze_tac_toe.example_json, -1);
    ck_assert(o.ok);
    ck_assert(strncmp(o.body, "{\"count\":8,", 11) == 0);
    free(o.body);
    o = run(API_FORMAT_TEXT, codec_maze_tac_toe.example_text, -1);
    ck_assert(o.ok);
    ck_assert_str_eq(o.body, "8\n");
    free(o.body);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("codec_maze_tac_toe");
    TCase *tc = tcase_create("codec_maze_tac_toe");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, sample_text_gives_eight);
    tcase_add_test(tc, sample_json_count_and_the_statement_boards);
    tcase_add_test(tc, long_board_list_streams_whole_and_sorted);
    tcase_add_test(tc, text_layouts_tolerated);
    tcase_add_test(tc, zero_answer_with_boards);
    tcase_add_test(tc, json_schema_errors);
    tcase_add_test(tc, json_rule_errors);
    tcase_add_test(tc, text_errors);
    tcase_add_test(tc, time_limit);
    tcase_add_test(tc, registry_row_is_consistent);
    suite_add_tcase(s, tc);
    return check_run(s);
}
