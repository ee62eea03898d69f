/* The nine codec through the API entry point (parse, solve, stream): answers are parsed back
 * and replayed by this file's own simulator; every error path gives its code and path. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "answer.h"
#include "puzzle.h"
#include "api/read_answer.h"

extern const api_puzzle codec_nine;

typedef struct grid {
    int n;
    char a[8][8], b[8][8];
} grid;

static void sim_rotate(char m[8][8], int n, int left)
{
    char old[8][8];
    memcpy(old, m, sizeof old);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) m[i][j] = left ? old[j][n - 1 - i] : old[n - 1 - j][i];
}

static void sim_move(grid *g, const char *name)
{
    if (name[0] == 'C') {
        int k = atoi(name + 1);
        ck_assert(k >= 1 && k <= g->n);
        for (int i = 0; i < g->n; i++) {
            char t = g->a[i][k - 1];
            g->a[i][k - 1] = g->b[i][k - 1];
            g->b[i][k - 1] = t;
        }
    } else {
        ck_assert(strcmp(name, "AL") == 0 || strcmp(name, "AR") == 0 || strcmp(name, "BL") == 0 ||
                  strcmp(name, "BR") == 0);
        sim_rotate(name[0] == 'A' ? g->a : g->b, g->n, name[1] == 'L');
    }
}

static int sim_goal(const grid *g)
{
    for (int i = 0; i < g->n; i++)
        for (int j = 0; j < g->n; j++)
            if (g->a[i][j] != '0' || g->b[i][j] != '1') return 0;
    return 1;
}

static const grid sample = {3, {"100", "000", "000"}, {"111", "111", "011"}};

/* The whole answer, read in small pieces to exercise the streaming; NULL + *err on failure. The
 * 9 x 9 search is bounded by work, not time: the budget only has to outlast a sanitizer build on
 * a busy machine. */
static char *run(const char *body, api_format fmt, api_error *err)
{
    return read_answer_ms(&codec_nine, fmt, body, 120000, 37, NULL, err);
}

START_TEST(sample_json_gives_a_shortest_answer)
{
    api_error err;
    char *out = run("{\"a\":[\"100\",\"000\",\"000\"],\"b\":[\"111\",\"111\",\"011\"]}",
                    API_FORMAT_JSON, &err);
    ck_assert_ptr_nonnull(out);
    /* Compact, in the documented order. */
    ck_assert_ptr_eq(strstr(out, "{\"n\":3,\"solvable\":true,\"optimal\":true,\"move_count\":5,"
                                 "\"moves\":[\""),
                     out);
    ck_assert_ptr_null(strchr(out, ' '));
    json_error_t jerr;
    json_t *root = json_loads(out, 0, &jerr);
    ck_assert_ptr_nonnull(root);
    json_t *moves = json_object_get(root, "moves");
    ck_assert_int_eq(json_array_size(moves), 5);
    ck_assert_int_eq(json_integer_value(json_object_get(root, "move_count")), 5);
    grid g = sample;
    for (size_t i = 0; i < json_array_size(moves); i++)
        sim_move(&g, json_string_value(json_array_get(moves, i)));
    ck_assert(sim_goal(&g));
    json_decref(root);
    free(out);
}
END_TEST

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    static char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

START_TEST(sample_text_gives_a_shortest_answer)
{
    api_error err;
    char *out = run(read_file(PUZZLED_TEST_DATA "/nine/sample.in"), API_FORMAT_TEXT, &err);
    ck_assert_ptr_nonnull(out);
    size_t len = strlen(out);
    ck_assert(len >= 2 && out[len - 1] == '\n' && out[len - 2] != '\n');
    char *save = NULL, *line = strtok_r(out, "\n", &save);
    ck_assert_str_eq(line, "5");
    grid g = sample;
    int count = 0;
    while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
        sim_move(&g, line);
        count++;
    }
    ck_assert_int_eq(count, 5);
    ck_assert(sim_goal(&g));
    free(out);
    /* The statement's own 9-move answer replays with the same simulator (rotation check). */
    char *expected = read_file(PUZZLED_TEST_DATA "/nine/sample.out");
    g = sample;
    line = strtok_r(expected, "\n", &save);
    ck_assert_str_eq(line, "9");
    while ((line = strtok_r(NULL, "\n", &save)) != NULL) sim_move(&g, line);
    ck_assert(sim_goal(&g));
}
END_TEST

START_TEST(unsolvable_and_solved_states)
{
    api_error err;
    char *out = run("100\n000\n000\n111\n111\n111\n", API_FORMAT_TEXT, &err);
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, "-1\n");
    free(out);
    out = run("{\"a\":[\"100\",\"000\",\"000\"],\"b\":[\"111\",\"111\",\"111\"]}", API_FORMAT_JSON,
              &err);
    ck_assert_ptr_nonnull(out);
    json_t *root = json_loads(out, 0, NULL);
    ck_assert_ptr_nonnull(root);
    ck_assert(json_is_false(json_object_get(root, "solvable")));
    ck_assert_int_eq(json_integer_value(json_object_get(root, "n")), 3);
    const char *reason = json_string_value(json_object_get(root, "reason"));
    /* (1,1)'s orbit holds 5 ones: A(1,1) and B's four corners. */
    ck_assert_ptr_nonnull(strstr(reason, "(1,1)"));
    ck_assert_ptr_nonnull(strstr(reason, "(3,3)"));
    ck_assert_ptr_nonnull(strstr(reason, "5"));
    ck_assert_ptr_eq(strstr(out, "{\"n\":3,\"solvable\":false,\"reason\":\""), out);
    json_decref(root);
    free(out);
    out = run("0\n1\n", API_FORMAT_TEXT, &err);
    ck_assert_str_eq(out, "0\n");
    free(out);
    out = run("1\r\n0\r\n", API_FORMAT_TEXT, &err); /* CRLF, n = 1: one swap */
    ck_assert_str_eq(out, "1\nC1\n");
    free(out);
}
END_TEST

START_TEST(max_moves_in_json)
{
    api_error err;
    char *out =
        run("{\"a\":[\"100\",\"000\",\"000\"],\"b\":[\"111\",\"111\",\"011\"],\"max_moves\":4}",
            API_FORMAT_JSON, &err);
    ck_assert_ptr_nonnull(out);
    json_t *root = json_loads(out, 0, NULL);
    ck_assert(json_is_false(json_object_get(root, "solvable")));
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(root, "reason")), "max_moves"));
    json_decref(root);
    free(out);
    out = run("{\"a\":[\"100\",\"000\",\"000\"],\"b\":[\"111\",\"111\",\"011\"],\"max_moves\":5}",
              API_FORMAT_JSON, &err);
    ck_assert_ptr_nonnull(strstr(out, "\"move_count\":5"));
    free(out);
}
END_TEST

START_TEST(a_9x9_answer_replays)
{
    static const char *a[9] = {"101100111", "000111010", "110010011", "011011000", "100101001",
                               "001110100", "111000101", "010011110", "100110001"};
    /* B is the complement of A's 180-degree turn: each orbit then holds 4 ones in all. */
    char body[1024] = "{\"a\":[";
    for (int i = 0; i < 9; i++) sprintf(body + strlen(body), "%s\"%s\"", i ? "," : "", a[i]);
    strcat(body, "],\"b\":[");
    for (int i = 0; i < 9; i++) {
        char row[10];
        for (int j = 0; j < 9; j++) row[j] = a[8 - i][8 - j] == '1' ? '0' : '1';
        row[9] = '\0';
        sprintf(body + strlen(body), "%s\"%s\"", i ? "," : "", row);
    }
    strcat(body, "]}");
    api_error err;
    char *out = run(body, API_FORMAT_JSON, &err);
    ck_assert_ptr_nonnull(out);
    json_t *root = json_loads(out, 0, NULL);
    ck_assert_ptr_nonnull(root);
    json_t *moves = json_object_get(root, "moves");
    size_t count = json_array_size(moves);
    ck_assert_int_le(count, 999);
    ck_assert_int_eq(json_integer_value(json_object_get(root, "move_count")), (long)count);
    /* Replay on a 9 x 9 grid of our own. */
    char ga[9][10], gb[9][10];
    json_t *req = json_loads(body, 0, NULL);
    for (int i = 0; i < 9; i++) {
        memcpy(ga[i], json_string_value(json_array_get(json_object_get(req, "a"), i)), 10);
        memcpy(gb[i], json_string_value(json_array_get(json_object_get(req, "b"), i)), 10);
    }
    for (size_t t = 0; t < count; t++) {
        const char *m = json_string_value(json_array_get(moves, t));
        char old[9][10];
        char(*mat)[10] = m[0] == 'A' ? ga : gb;
        if (m[0] == 'C') {
            int k = atoi(m + 1) - 1;
            ck_assert(k >= 0 && k < 9);
            for (int i = 0; i < 9; i++) {
                char x = ga[i][k];
                ga[i][k] = gb[i][k];
                gb[i][k] = x;
            }
            continue;
        }
        memcpy(old, mat, sizeof old);
        for (int i = 0; i < 9; i++)
            for (int j = 0; j < 9; j++) mat[i][j] = m[1] == 'L' ? old[j][8 - i] : old[8 - j][i];
    }
    for (int i = 0; i < 9; i++) {
        ck_assert_str_eq(ga[i], "000000000");
        ck_assert_str_eq(gb[i], "111111111");
    }
    /* Past 3 x 3 nothing is proven shortest: not optimal, and a max_moves under the answer is
     * refused as not found, not as not existing. */
    ck_assert(json_is_false(json_object_get(root, "optimal")));
    json_decref(root);
    free(out);
    body[strlen(body) - 1] = '\0';
    sprintf(body + strlen(body), ",\"max_moves\":%zu}", count - 1);
    out = run(body, API_FORMAT_JSON, &err);
    ck_assert_ptr_nonnull(out);
    root = json_loads(out, 0, NULL);
    ck_assert(json_is_false(json_object_get(root, "solvable")));
    const char *reason = json_string_value(json_object_get(root, "reason"));
    ck_assert_msg(reason && strstr(reason, "was found"), "%s", out);
    json_decref(req);
    json_decref(root);
    free(out);
}
END_TEST

typedef struct bad_case {
    const char *body;
    api_format fmt;
    api_error_code code;
    const char *path;
} bad_case;

static const bad_case bad[] = {
    {"{\"a\":[\"1\"]}", API_FORMAT_JSON, API_INVALID_REQUEST, "/b"},
    {"{\"b\":[\"1\"]}", API_FORMAT_JSON, API_INVALID_REQUEST, "/a"},
    {"{\"a\":\"1\",\"b\":[\"0\"]}", API_FORMAT_JSON, API_INVALID_REQUEST, "/a"},
    {"{\"a\":[\"1\"],\"b\":{}}", API_FORMAT_JSON, API_INVALID_REQUEST, "/b"},
    {"{\"a\":[\"1\"],\"b\":[\"0\"],\"x\":1}", API_FORMAT_JSON, API_INVALID_REQUEST, "/x"},
    {"{\"a\":[\"1\"],\"b\":[\"0\"],\"max_moves\":-1}", API_FORMAT_JSON, API_INVALID_REQUEST,
     "/max_moves"},
    {"{\"a\":[\"1\"],\"b\":[\"0\"],\"max_moves\":1.5}", API_FORMAT_JSON, API_INVALID_REQUEST,
     "/max_moves"},
    /* integers past 64 bits are valid JSON: a range error with its path, not malformed JSON */
    {"{\"a\":[\"1\"],\"b\":[\"0\"],\"max_moves\":10000000000000000000}", API_FORMAT_JSON,
     API_INVALID_REQUEST, "/max_moves"},
    {"{\"a\":[\"1\"],\"b\":[\"0\"],\"max_moves\":-99999999999999999999}", API_FORMAT_JSON,
     API_INVALID_REQUEST, "/max_moves"},
    {"{\"a\":[\"1\"],\"b\":[\"0\"],\"max_moves\":\"3\"}", API_FORMAT_JSON, API_INVALID_REQUEST,
     "/max_moves"},
    {"{\"a\":[1],\"b\":[\"0\"]}", API_FORMAT_JSON, API_INVALID_REQUEST, "/a/0"},
    {"{\"a\":[\"1\"],\"b\":[null]}", API_FORMAT_JSON, API_INVALID_REQUEST, "/b/0"},
    {"[1]", API_FORMAT_JSON, API_INVALID_REQUEST, ""},
    {"{\"a\":[\"1\"", API_FORMAT_JSON, API_MALFORMED_JSON, ""},
    {"{\"a\":[],\"b\":[]}", API_FORMAT_JSON, API_INVALID_BOARD, "/a"},
    {"{\"a\":[\"10\",\"0\"],\"b\":[\"11\",\"11\"]}", API_FORMAT_JSON, API_INVALID_BOARD, "/a/1"},
    {"{\"a\":[\"12\",\"00\"],\"b\":[\"11\",\"11\"]}", API_FORMAT_JSON, API_INVALID_BOARD, "/a/0"},
    {"{\"a\":[\"10\",\"00\"],\"b\":[\"11\",\"11\",\"11\"]}", API_FORMAT_JSON, API_INVALID_BOARD,
     "/b"},
    {"{\"a\":[\"10\",\"00\"],\"b\":[\"11\",\"111\"]}", API_FORMAT_JSON, API_INVALID_BOARD, "/b/1"},
    {"{\"a\":[\"10\",\"00\"],\"b\":[\"11\",\"1x\"]}", API_FORMAT_JSON, API_INVALID_BOARD, "/b/1"},
    {"", API_FORMAT_TEXT, API_MALFORMED_TEXT, ""},
    {"100\n000\n000\n111\n111\n", API_FORMAT_TEXT, API_MALFORMED_TEXT, ""},
    {"100\n000\n000\n111\n111\n011\n1\n", API_FORMAT_TEXT, API_MALFORMED_TEXT, ""},
    {"100 000\n000\n111\n111\n011\n", API_FORMAT_TEXT, API_MALFORMED_TEXT, ""},
    {"100\n020\n000\n111\n111\n011\n", API_FORMAT_TEXT, API_INVALID_BOARD, ""},
    {"100\n00\n000\n111\n111\n011\n", API_FORMAT_TEXT, API_INVALID_BOARD, ""},
    {"100\n000\n000\n111\n1111\n011\n", API_FORMAT_TEXT, API_INVALID_BOARD, ""},
};

START_TEST(bad_requests_give_their_code_and_path)
{
    const bad_case *c = &bad[_i];
    api_error err;
    char *out = run(c->body, c->fmt, &err);
    ck_assert_msg(out == NULL, "case %d was accepted: %s", _i, out ? out : "");
    ck_assert_msg(err.code == c->code, "case %d: code %s", _i, api_error_name(err.code));
    ck_assert_str_eq(err.path, c->path);
    ck_assert(strlen(err.message) > 10);
}
END_TEST

/* A control character is named as \xHH in the message, as openapi.yaml says, not as '?'; a
 * character of several bytes (a BOM, a letter) as itself with its code point. */
START_TEST(odd_bytes_are_quoted_as_hex)
{
    api_error err;
    ck_assert_ptr_null(run("\xEF\xBB\xBF"
                           "100\n000\n000\n111\n111\n011\n",
                           API_FORMAT_TEXT, &err));
    ck_assert_int_eq(err.code, API_INVALID_BOARD);
    ck_assert_msg(strstr(err.message, "'\xEF\xBB\xBF' (U+FEFF) at position 1") != NULL, "%s",
                  err.message);
    ck_assert_ptr_null(
        run("{\"a\":[\"1\\t\",\"00\"],\"b\":[\"11\",\"11\"]}", API_FORMAT_JSON, &err));
    ck_assert_str_eq(err.path, "/a/0");
    ck_assert_msg(strstr(err.message, "'\\x09' at position 2") != NULL, "%s", err.message);
    /* A letter of two bytes in a row of three: named, not the row's length in bytes. */
    ck_assert_ptr_null(
        run("{\"a\":[\"1\xC3\xA9\",\"000\",\"000\"],\"b\":[\"111\",\"111\",\"011\"]}",
            API_FORMAT_JSON, &err));
    ck_assert_str_eq(err.path, "/a/0");
    ck_assert_msg(strstr(err.message, "'\xC3\xA9' (U+00E9) at position 2") != NULL, "%s",
                  err.message);
}
END_TEST

/* Messages with counts read as written: one row, not "1 rows". */
START_TEST(counts_of_one_read_as_written)
{
    api_error err;
    ck_assert_ptr_null(run("{\"a\":[\"10\",\"0\"],\"b\":[\"11\",\"11\"]}", API_FORMAT_JSON, &err));
    ck_assert_str_eq(err.path, "/a/1");
    ck_assert_msg(strstr(err.message, "has 1 character;") != NULL, "%s", err.message);
    ck_assert_ptr_null(run("{\"a\":[\"10\",\"00\"],\"b\":[\"11\"]}", API_FORMAT_JSON, &err));
    ck_assert_str_eq(err.path, "/b");
    ck_assert_msg(strstr(err.message, "has 1 row but") != NULL, "%s", err.message);
}
END_TEST

/* A whole number too large to be exact is out of range, quoted as written, not "a fraction". */
START_TEST(huge_numbers_are_out_of_range)
{
    api_error err;
    ck_assert_ptr_null(
        run("{\"a\":[\"1\"],\"b\":[\"0\"],\"max_moves\":1e300}", API_FORMAT_JSON, &err));
    ck_assert_int_eq(err.code, API_INVALID_REQUEST);
    ck_assert_str_eq(err.path, "/max_moves");
    ck_assert_msg(strstr(err.message, "is 1e+300; it must be from 0") != NULL, "%s", err.message);
}
END_TEST

static char *sized_body(int rows, int width, int b_rows)
{
    size_t cap = 32 + (size_t)(rows + b_rows) * (size_t)(width + 3);
    char *body = malloc(cap), *p = body;
    p += sprintf(p, "{\"a\":[");
    for (int m = 0; m < 2; m++) {
        int count = m ? b_rows : rows;
        for (int i = 0; i < count; i++) {
            *p++ = i ? ',' : ' ';
            *p++ = '"';
            memset(p, m ? '1' : '0', (size_t)width);
            p += width;
            *p++ = '"';
        }
        p += sprintf(p, m ? "]}" : "],\"b\":[");
    }
    return body;
}

START_TEST(size_limits)
{
    api_error err;
    char *body = sized_body(65, 65, 65);
    ck_assert_ptr_null(run(body, API_FORMAT_JSON, &err));
    ck_assert_int_eq(err.code, API_INVALID_BOARD);
    ck_assert_str_eq(err.path, "/a");
    free(body);
    body = sized_body(64, 64, 64); /* the largest board, already solved */
    char *out = run(body, API_FORMAT_JSON, &err);
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out,
                     "{\"n\":64,\"solvable\":true,\"optimal\":true,\"move_count\":0,\"moves\":[]}");
    free(out);
    free(body);
    char text[65 * 2 + 4];
    memset(text, '0', 65);
    strcpy(text + 65, "\n");
    ck_assert_ptr_null(run(text, API_FORMAT_TEXT, &err));
    ck_assert_int_eq(err.code, API_INVALID_BOARD);
}
END_TEST

/* Random texts of 0, 1, line breaks, spaces and strangers: never a crash, always either an
 * answer ending in one newline or one of the two text errors. */
START_TEST(random_texts_never_break_the_codec)
{
    static const char alphabet[] = "0101010\n\n\n \r2x";
    unsigned state = 12345;
    for (int rep = 0; rep < 3000; rep++) {
        char text[64];
        size_t len = (size_t)(rep % 40);
        for (size_t i = 0; i < len; i++) {
            state = state * 1103515245u + 12345u;
            text[i] = alphabet[(state >> 16) % (sizeof alphabet - 1)];
        }
        text[len] = '\0';
        api_error err;
        char *out = run(text, API_FORMAT_TEXT, &err);
        if (out) {
            size_t n = strlen(out);
            ck_assert(n >= 2 && out[n - 1] == '\n' && out[n - 2] != '\n');
            free(out);
        } else {
            ck_assert(err.code == API_MALFORMED_TEXT || err.code == API_INVALID_BOARD);
        }
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("codec_nine");
    TCase *tc = tcase_create("codec_nine");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, sample_json_gives_a_shortest_answer);
    tcase_add_test(tc, sample_text_gives_a_shortest_answer);
    tcase_add_test(tc, unsolvable_and_solved_states);
    tcase_add_test(tc, max_moves_in_json);
    tcase_add_test(tc, huge_numbers_are_out_of_range);
    tcase_add_test(tc, a_9x9_answer_replays);
    tcase_add_loop_test(tc, bad_requests_give_their_code_and_path, 0,
                        (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(tc, odd_bytes_are_quoted_as_hex);
    tcase_add_test(tc, counts_of_one_read_as_written);
    tcase_add_test(tc, size_limits);
    tcase_add_test(tc, random_texts_never_break_the_codec);
    suite_add_tcase(s, tc);
    return check_run(s);
}
