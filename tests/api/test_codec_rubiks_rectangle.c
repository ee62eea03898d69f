/* Rubik's Rectangle codec through api_answer_solve/read: the contest sample and the contest-style
 * data set (verdicts byte-exact, move lists replayed by the test's own simulator), JSON answers,
 * streaming in small pieces, and every error path with its code and JSON Pointer. */
#include <check.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "xorshift.h"
#include "answer.h"
#include "api/read_answer.h"

extern const api_puzzle codec_rubiks_rectangle;

/* ---- helpers ---- */

static void flip(int32_t *cells, int h, int w, long move)
{
    if (move > 0) {
        int32_t *row = cells + (size_t)(move - 1) * w;
        for (int a = 0, z = w - 1; a < z; a++, z--) {
            int32_t t = row[a];
            row[a] = row[z];
            row[z] = t;
        }
    } else {
        int c = (int)-move - 1;
        for (int a = 0, z = h - 1; a < z; a++, z--) {
            int32_t t = cells[(size_t)a * w + c];
            cells[(size_t)a * w + c] = cells[(size_t)z * w + c];
            cells[(size_t)z * w + c] = t;
        }
    }
}

/* A move name ("R3", "C12") as +row / -column; 0 when it names no line of an h x w board. */
static long parse_move(const char *s, size_t len, int h, int w)
{
    if (len < 2 || (s[0] != 'R' && s[0] != 'C')) return 0;
    long v = 0;
    for (size_t i = 1; i < len; i++) {
        if (s[i] < '0' || s[i] > '9' || v > 100000) return 0;
        v = v * 10 + (s[i] - '0');
    }
    if (v < 1 || v > (s[0] == 'R' ? h : w)) return 0;
    return s[0] == 'R' ? v : -v;
}

static bool is_sorted(const int32_t *cells, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (cells[i] != (int32_t)(i + 1)) return false;
    return true;
}

/* Solves body and reads the whole answer in pieces of `piece` bytes; NULL + err on failure. */
static char *run(api_format fmt, const char *body, size_t piece, api_error *err, long budget_ms)
{
    return read_answer_ms(&codec_rubiks_rectangle, fmt, body, budget_ms, piece, NULL, err);
}

static char *run_ok(api_format fmt, const char *body)
{
    api_error err;
    char *out = run(fmt, body, 4096, &err, -1);
    ck_assert_msg(out != NULL, "failed: %s", err.message);
    return out;
}

/* A parsed contest text input: boards in order. */
typedef struct contest {
    int count;
    int h[128], w[128];
    int32_t *cells[128];
} contest;

static void contest_parse(const char *text, contest *c)
{
    const char *p = text;
    int n, used;
    ck_assert_int_eq(sscanf(p, "%d%n", &c->count, &used), 1);
    ck_assert_int_le(c->count, 128);
    p += used;
    for (int k = 0; k < c->count; k++) {
        ck_assert_int_eq(sscanf(p, "%d %d%n", &c->w[k], &c->h[k], &used), 2);
        p += used;
        n = c->h[k] * c->w[k];
        c->cells[k] = malloc((size_t)n * sizeof(int32_t));
        for (int i = 0; i < n; i++) {
            ck_assert_int_eq(sscanf(p, "%d%n", &c->cells[k][i], &used), 1);
            p += used;
        }
    }
}

static void contest_free(contest *c)
{
    for (int k = 0; k < c->count; k++) free(c->cells[k]);
}

/* Checks a text answer against the instances: one line per instance, ending with exactly one
 * newline; verdict words equal `verdicts` (NULL: skip) and every POSSIBLE line sorts its board
 * within 10 * H * W moves. Returns the number of POSSIBLE lines. */
static int check_text_answer(const char *answer, const contest *c, const char *const *verdicts)
{
    size_t len = strlen(answer);
    ck_assert_int_gt(len, 0);
    ck_assert_int_eq(answer[len - 1], '\n');
    int possible = 0;
    const char *line = answer;
    for (int k = 0; k < c->count; k++) {
        const char *end = strchr(line, '\n');
        ck_assert_ptr_nonnull(end);
        bool ok = strncmp(line, "POSSIBLE ", 9) == 0;
        if (!ok)
            ck_assert_msg(end - line == 10 && strncmp(line, "IMPOSSIBLE", 10) == 0,
                          "instance %d: bad line \"%.*s\"", k + 1,
                          (int)(end - line > 60 ? 60 : end - line), line);
        if (verdicts) ck_assert_str_eq(ok ? "POSSIBLE" : "IMPOSSIBLE", verdicts[k]);
        if (ok) {
            possible++;
            int h = c->h[k], w = c->w[k];
            size_t n = (size_t)h * w;
            int32_t *b = malloc(n * sizeof *b);
            memcpy(b, c->cells[k], n * sizeof *b);
            const char *p = line + 9;
            char *num_end;
            long count = strtol(p, &num_end, 10);
            ck_assert_ptr_ne(num_end, p);
            ck_assert_int_le(count, 10 * (long)n);
            p = num_end;
            long seen = 0;
            while (p < end) {
                ck_assert_int_eq(*p, ' ');
                p++;
                const char *q = p;
                while (q < end && *q != ' ') q++;
                long m = parse_move(p, (size_t)(q - p), h, w);
                ck_assert_msg(m != 0, "instance %d: bad move \"%.*s\"", k + 1, (int)(q - p), p);
                flip(b, h, w, m);
                seen++;
                p = q;
            }
            ck_assert_int_eq(seen, count);
            ck_assert_msg(is_sorted(b, n), "instance %d: the moves do not sort", k + 1);
            free(b);
        }
        line = end + 1;
    }
    ck_assert_int_eq(*line, '\0');
    return possible;
}

/* ---- the contest sample ---- */

static const char sample_in[] = "4\n\n3 3\n1 2 3\n4 5 6\n9 8 7\n\n4 2\n1 2 3 4\n5 6 7 8\n\n4 4\n"
                                "1 2 15 4\n8 7 11 5\n12 6 10 9\n13 14 3 16\n\n3 4\n1 2 4\n3 5 6\n"
                                "7 8 9\n10 11 12\n";

START_TEST(contest_sample_text)
{
    static const char *const verdicts[] = {"POSSIBLE", "POSSIBLE", "POSSIBLE", "IMPOSSIBLE"};
    contest c;
    contest_parse(sample_in, &c);
    char *out = run_ok(API_FORMAT_TEXT, sample_in);
    ck_assert_int_eq(check_text_answer(out, &c, verdicts), 3);
    /* The sorted 4 x 2 board needs nothing: "POSSIBLE 0" exactly. */
    ck_assert_ptr_nonnull(strstr(out, "\nPOSSIBLE 0\n"));
    ck_assert(strstr(out, "IMPOSSIBLE\n") == out + strlen(out) - 11);
    free(out);
    contest_free(&c);
}
END_TEST

START_TEST(lenient_blank_lines_and_crlf)
{
    const char *in = "2\r\n3 3\r\n1 2 3\r\n4 5 6\r\n9 8 7\r\n\r\n\r\n1 1\r\n1\r\n\r\n";
    contest c;
    contest_parse(in, &c);
    char *out = run_ok(API_FORMAT_TEXT, in);
    static const char *const verdicts[] = {"POSSIBLE", "POSSIBLE"};
    check_text_answer(out, &c, verdicts);
    ck_assert_ptr_nonnull(strstr(out, "\nPOSSIBLE 0\n"));
    free(out);
    contest_free(&c);
}
END_TEST

/* ---- the contest-style data set: 61 instances with known verdicts ---- */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    ck_assert_int_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

START_TEST(testdata_verdicts_match)
{
    char *in = slurp(PUZZLED_TEST_DATA "/rubiks-rectangle/rubik.in");
    char *expected = slurp(PUZZLED_TEST_DATA "/rubiks-rectangle/rubik.verdict");
    contest c;
    contest_parse(in, &c);
    ck_assert_int_eq(c.count, 61);
    static char words[61][16];
    const char *verdicts[61];
    const char *p = expected;
    for (int k = 0; k < 61; k++) {
        int used;
        ck_assert_int_eq(sscanf(p, "%15s%n", words[k], &used), 1);
        p += used;
        verdicts[k] = words[k];
    }
    char *out = run_ok(API_FORMAT_TEXT, in);
    check_text_answer(out, &c, verdicts);
    free(out);
    contest_free(&c);
    free(in);
    free(expected);
}
END_TEST

/* ---- JSON ---- */

static void replay_json(const char *out, const int32_t *cells, int h, int w, bool solvable)
{
    json_error_t jerr;
    json_t *root = json_loads(out, 0, &jerr);
    ck_assert_msg(root != NULL, "answer is not JSON: %s", jerr.text);
    ck_assert_int_eq(json_integer_value(json_object_get(root, "height")), h);
    ck_assert_int_eq(json_integer_value(json_object_get(root, "width")), w);
    ck_assert_int_eq(json_is_true(json_object_get(root, "solvable")), solvable);
    json_t *moves = json_object_get(root, "moves");
    ck_assert(json_is_array(moves));
    ck_assert_int_eq(json_integer_value(json_object_get(root, "move_count")),
                     (long long)json_array_size(moves));
    ck_assert_int_le(json_array_size(moves), 10 * (size_t)h * w);
    size_t n = (size_t)h * w;
    int32_t *b = malloc(n * sizeof *b);
    memcpy(b, cells, n * sizeof *b);
    for (size_t i = 0; i < json_array_size(moves); i++) {
        const char *s = json_string_value(json_array_get(moves, i));
        ck_assert_ptr_nonnull(s);
        long m = parse_move(s, strlen(s), h, w);
        ck_assert_msg(m != 0, "bad move %s", s);
        flip(b, h, w, m);
    }
    if (solvable) ck_assert(is_sorted(b, n));
    free(b);
    json_decref(root);
}

START_TEST(json_sample)
{
    char *out = run_ok(API_FORMAT_JSON, "{\"board\": [[1, 2, 3], [4, 5, 6], [9, 8, 7]]}");
    const char *head = "{\"height\":3,\"width\":3,\"solvable\":true,\"move_count\":";
    ck_assert_int_eq(strncmp(out, head, strlen(head)), 0);
    ck_assert_ptr_null(strchr(out, ' '));
    ck_assert_ptr_null(strchr(out, '\n'));
    const int32_t cells[] = {1, 2, 3, 4, 5, 6, 9, 8, 7};
    replay_json(out, cells, 3, 3, true);
    free(out);
}
END_TEST

START_TEST(json_unsolvable_is_exact)
{
    /* 3 and 4 sit outside each other's orbits: no flip sequence can swap them back. */
    char *out = run_ok(API_FORMAT_JSON, "{\"board\":[[1,2,4],[3,5,6],[7,8,9],[10,11,12]]}");
    ck_assert_str_eq(out, "{\"height\":4,\"width\":3,\"solvable\":false,\"move_count\":0,"
                          "\"moves\":[]}");
    free(out);
}
END_TEST

START_TEST(json_sorted_board)
{
    char *out = run_ok(API_FORMAT_JSON, "{\"board\":[[1]]}");
    ck_assert_str_eq(out, "{\"height\":1,\"width\":1,\"solvable\":true,\"move_count\":0,"
                          "\"moves\":[]}");
    free(out);
}
END_TEST

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static uint64_t rng(void)
{
    return xorshift64(&rng_state);
}

/* A big scrambled board read back in small odd-sized pieces, as JSON and as text. */
START_TEST(large_answer_streams_in_pieces)
{
    int h = 120, w = 97;
    size_t n = (size_t)h * w;
    int32_t *cells = malloc(n * sizeof *cells);
    for (size_t i = 0; i < n; i++) cells[i] = (int32_t)(i + 1);
    for (int k = 0; k < 5000; k++) {
        uint64_t r = rng() % (uint64_t)(h + w);
        flip(cells, h, w, r < (uint64_t)h ? (long)r + 1 : -(long)(r - h + 1));
    }
    size_t cap = n * 8 + 64, len = 0;
    char *json = malloc(cap), *text = malloc(cap);
    len += (size_t)sprintf(json, "{\"board\":[");
    size_t tlen = (size_t)sprintf(text, "1\n\n%d %d\n", w, h);
    for (int i = 0; i < h; i++) {
        len += (size_t)sprintf(json + len, i ? ",[" : "[");
        for (int j = 0; j < w; j++) {
            len += (size_t)sprintf(json + len, j ? ",%d" : "%d", cells[(size_t)i * w + j]);
            tlen += (size_t)sprintf(text + tlen, j ? " %d" : "%d", cells[(size_t)i * w + j]);
        }
        len += (size_t)sprintf(json + len, "]");
        tlen += (size_t)sprintf(text + tlen, "\n");
    }
    sprintf(json + len, "]}");
    api_error err;
    char *out = run(API_FORMAT_JSON, json, 7, &err, -1);
    ck_assert_ptr_nonnull(out);
    replay_json(out, cells, h, w, true);
    char *whole = run(API_FORMAT_JSON, json, 1 << 20, &err, -1);
    ck_assert_str_eq(out, whole);
    free(out);
    free(whole);
    out = run(API_FORMAT_TEXT, text, 13, &err, -1);
    ck_assert_ptr_nonnull(out);
    contest c = {.count = 1, .h = {h}, .w = {w}, .cells = {cells}};
    ck_assert_int_eq(check_text_answer(out, &c, NULL), 1);
    free(out);
    free(json);
    free(text);
    free(cells);
}
END_TEST

/* ---- errors ---- */

typedef struct error_case {
    api_format fmt;
    const char *body;
    api_error_code code;
    const char *path;    /* NULL: not checked */
    const char *message; /* a fragment the message must hold, or NULL */
} error_case;

static const error_case error_cases[] = {
    {API_FORMAT_JSON, "{", API_MALFORMED_JSON, NULL, "line"},
    {API_FORMAT_JSON, "[1]", API_INVALID_REQUEST, "", NULL},
    {API_FORMAT_JSON, "{}", API_INVALID_REQUEST, "/board", "missing"},
    {API_FORMAT_JSON, "{\"board\":[[1]],\"x\":1}", API_INVALID_REQUEST, "/x", "Unknown"},
    {API_FORMAT_JSON, "{\"board\":5}", API_INVALID_REQUEST, "/board", "array"},
    {API_FORMAT_JSON, "{\"board\":[[1,2],\"3 4\"]}", API_INVALID_REQUEST, "/board/1", "array"},
    {API_FORMAT_JSON, "{\"board\":[[1,\"2\"]]}", API_INVALID_REQUEST, "/board/0/1", "integer"},
    {API_FORMAT_JSON, "{\"board\":[[1,2.5]]}", API_INVALID_REQUEST, "/board/0/1", "integer"},
    {API_FORMAT_JSON, "{\"board\":[[1,null]]}", API_INVALID_REQUEST, "/board/0/1", NULL},
    /* a type error wins over a rule break found earlier in the board */
    {API_FORMAT_JSON, "{\"board\":[[1,1],[true,4]]}", API_INVALID_REQUEST, "/board/1/0", NULL},
    {API_FORMAT_JSON, "{\"board\":[]}", API_INVALID_BOARD, "/board", "empty"},
    {API_FORMAT_JSON, "{\"board\":[[]]}", API_INVALID_BOARD, "/board/0", NULL},
    {API_FORMAT_JSON, "{\"board\":[[1,2],[3]]}", API_INVALID_BOARD, "/board/1", "row"},
    {API_FORMAT_JSON, "{\"board\":[[1,2],[3,4,5]]}", API_INVALID_BOARD, "/board/1", NULL},
    {API_FORMAT_JSON, "{\"board\":[[1,2,3,4],[5,6,7,8],[9,10,11,3]]}", API_INVALID_BOARD,
     "/board/2/3", "second"},
    {API_FORMAT_JSON, "{\"board\":[[1,2,3],[4,5,6],[7,8,13]]}", API_INVALID_BOARD, "/board/2/2",
     "outside"},
    /* below 1: no permutation either, 422 (openapi.yaml), as in the text format */
    {API_FORMAT_JSON, "{\"board\":[[0,1]]}", API_INVALID_BOARD, "/board/0/0", "value 0 is outside"},
    {API_FORMAT_JSON, "{\"board\":[[-3,1]]}", API_INVALID_BOARD, "/board/0/0", "value -3"},
    /* integral numbers in any notation are integers */
    {API_FORMAT_JSON, "{\"board\":[[1,2.5]]}", API_INVALID_REQUEST, "/board/0/1", NULL},
    {API_FORMAT_JSON, "{\"board\":[[1,99999999999999]]}", API_INVALID_BOARD, "/board/0/1", NULL},
    /* past +-9e15 every double is whole: a value outside 1..H*W, quoted as written */
    {API_FORMAT_JSON, "{\"board\":[[1,2],[3,1e19]]}", API_INVALID_BOARD, "/board/1/1",
     "value 1e+19 is outside"},
    {API_FORMAT_JSON, "{\"board\":[[1,2],[3,-1e19]]}", API_INVALID_BOARD, "/board/1/1",
     "value -1e+19 is outside"},
    /* integers past 64 bits, written out, are valid JSON and meet the same check */
    {API_FORMAT_JSON, "{\"board\":[[1,2],[3,10000000000000000000]]}", API_INVALID_BOARD,
     "/board/1/1", "value 1e+19 is outside"},
    {API_FORMAT_JSON, "{\"board\":[[1,2],[3,-9223372036854775809]]}", API_INVALID_BOARD,
     "/board/1/1", "outside"},
    {API_FORMAT_JSON, "{\"board\":[[1,2],[3,1E400]]}", API_MALFORMED_JSON, NULL, "too large"},
    {API_FORMAT_TEXT, "", API_MALFORMED_TEXT, NULL, "line 1"},
    {API_FORMAT_TEXT, "x", API_MALFORMED_TEXT, NULL, "line 1"},
    {API_FORMAT_TEXT, "0\n", API_INVALID_BOARD, NULL, NULL}, /* T out of range: 422 */
    {API_FORMAT_TEXT, "100001\n", API_INVALID_BOARD, NULL, "100000"},
    {API_FORMAT_TEXT, "1\n\n99999999999999999999 1\n", API_INVALID_BOARD, NULL, "line 3"},
    {API_FORMAT_TEXT, "1\n\n2 2\n1 2\n3", API_MALFORMED_TEXT, NULL, "instance 1"},
    {API_FORMAT_TEXT, "1\n\n2 2\n1 2\n3 x\n", API_MALFORMED_TEXT, NULL, "line 5"},
    {API_FORMAT_TEXT, "1\n\n1 1\n1\n2\n", API_MALFORMED_TEXT, NULL, "line 5"},
    /* a bad second instance fails the whole request and is named */
    {API_FORMAT_TEXT, "2\n\n1 1\n1\n\n2 2\n1 2\n3\n", API_MALFORMED_TEXT, NULL, "instance 2"},
    {API_FORMAT_TEXT, "2\n\n1 1\n1\n\n2 2\n1 2\n3 3\n", API_INVALID_BOARD, NULL, "instance 2"},
    {API_FORMAT_TEXT, "3\n\n1 1\n1\n\n2 1\n1 2\n\n2 2\n1 2\n3 5\n", API_INVALID_BOARD, NULL,
     "instance 3"},
    {API_FORMAT_TEXT, "1\n\n1001 1\n1\n", API_INVALID_BOARD, NULL, "1001"},
    /* the message gives the real range of a side, however far out the number is */
    {API_FORMAT_TEXT, "1\n\n1000000000 1\n1\n", API_INVALID_BOARD, NULL, "from 1 to 1000"},
    {API_FORMAT_TEXT, "1\n\n2 2\n1 2\n3 -4\n", API_INVALID_BOARD, NULL, "from 1 to 4"},
    {API_FORMAT_TEXT, "1\n\n0 3\n", API_INVALID_BOARD, NULL, "instance 1"},
    {API_FORMAT_TEXT, "1\n\n3 -2\n", API_INVALID_BOARD, NULL, "instance 1"},
    {API_FORMAT_TEXT, "1\n\n2 1\n1 0\n", API_INVALID_BOARD, NULL, "from 1 to 2"},
    /* one number, not "1 numbers" */
    {API_FORMAT_JSON, "{\"board\":[[1,2],[3]]}", API_INVALID_BOARD, "/board/1",
     "Row 1 has 1 number but row 0 has 2"},
};

START_TEST(error_paths)
{
    const error_case *e = &error_cases[_i];
    api_error err;
    char *out = run(e->fmt, e->body, 4096, &err, -1);
    ck_assert_msg(out == NULL, "case %d (%s) was accepted: %s", _i, e->body, out ? out : "");
    ck_assert_msg(err.code == e->code, "case %d (%s): code %s, message %s", _i, e->body,
                  api_error_name(err.code), err.message);
    if (e->path) ck_assert_str_eq(err.path, e->path);
    if (e->message)
        ck_assert_msg(strstr(err.message, e->message) != NULL, "case %d: message \"%s\"", _i,
                      err.message);
    ck_assert_int_gt(strlen(err.message), 10);
}
END_TEST

/* Sizes past the limits, built as bodies. */
START_TEST(json_size_limits)
{
    size_t cap = 8 * 1024 + 64;
    char *body = malloc(cap);
    /* 1001 rows of one number */
    size_t n = (size_t)sprintf(body, "{\"board\":[");
    for (int i = 0; i < 1001; i++) n += (size_t)sprintf(body + n, i ? ",[%d]" : "[%d]", i + 1);
    sprintf(body + n, "]}");
    api_error err;
    ck_assert_ptr_null(run(API_FORMAT_JSON, body, 4096, &err, -1));
    ck_assert_int_eq(err.code, API_INVALID_BOARD);
    ck_assert_str_eq(err.path, "/board");
    /* one row of 1001 numbers */
    n = (size_t)sprintf(body, "{\"board\":[[");
    for (int i = 0; i < 1001; i++) n += (size_t)sprintf(body + n, i ? ",%d" : "%d", i + 1);
    sprintf(body + n, "]]}");
    ck_assert_ptr_null(run(API_FORMAT_JSON, body, 4096, &err, -1));
    ck_assert_int_eq(err.code, API_INVALID_BOARD);
    ck_assert_str_eq(err.path, "/board/0");
    /* 1 x 1000 is fine: a reversed row takes one move */
    n = (size_t)sprintf(body, "{\"board\":[[");
    for (int i = 0; i < 1000; i++) n += (size_t)sprintf(body + n, i ? ",%d" : "%d", 1000 - i);
    sprintf(body + n, "]]}");
    char *out = run(API_FORMAT_JSON, body, 4096, &err, -1);
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, "{\"height\":1,\"width\":1000,\"solvable\":true,\"move_count\":1,"
                          "\"moves\":[\"R1\"]}");
    free(out);
    free(body);
}
END_TEST

START_TEST(time_limit)
{
    api_error err;
    char *out = run(API_FORMAT_JSON, "{\"board\":[[1,2,3,4],[5,6,7,8],[9,10,11,12],[16,15,14,13]]}",
                    4096, &err, 0);
    ck_assert_ptr_null(out);
    ck_assert_int_eq(err.code, API_TIME_LIMIT);
    ck_assert_int_eq(api_error_status(err.code), 422);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("codec_rubiks_rectangle");
    TCase *tc = tcase_create("codec_rubiks_rectangle");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, contest_sample_text);
    tcase_add_test(tc, lenient_blank_lines_and_crlf);
    tcase_add_test(tc, testdata_verdicts_match);
    tcase_add_test(tc, json_sample);
    tcase_add_test(tc, json_unsolvable_is_exact);
    tcase_add_test(tc, json_sorted_board);
    tcase_add_test(tc, large_answer_streams_in_pieces);
    tcase_add_loop_test(tc, error_paths, 0, (int)(sizeof error_cases / sizeof error_cases[0]));
    tcase_add_test(tc, json_size_limits);
    tcase_add_test(tc, time_limit);
    suite_add_tcase(s, tc);
    return check_run(s);
}
