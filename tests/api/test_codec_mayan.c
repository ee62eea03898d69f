/* The Mayan codec through api_answer_solve/api_answer_read: the contest sample in JSON and text
 * (byte for byte against the statement's output), "-1", the padding example of the contract,
 * every error path with its code and JSON Pointer, and a time-out. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "check_run.h"
#include "answer.h"
#include "api/read_answer.h"

extern const api_puzzle codec_mayan;

/* Solves body in the given format under a budget of ms (< 0: unlimited); returns the whole
 * answer read in small pieces (malloc'd), or NULL with *err filled. */
static char *run(api_format fmt, const char *body, long ms, api_error *err)
{
    return read_answer_ms(&codec_mayan, fmt, body, ms, 7, NULL, err);
}

static char *run_json(const char *body)
{
    api_error err;
    char *out = run(API_FORMAT_JSON, body, -1, &err);
    ck_assert_msg(out != NULL, "unexpected error %s at %s: %s", api_error_name(err.code), err.path,
                  err.message);
    return out;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    char *buf = malloc(1 << 16);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void expect_json(const char *body, const char *want)
{
    char *out = run_json(body);
    ck_assert_str_eq(out, want);
    free(out);
}

static void expect_error(api_format fmt, const char *body, api_error_code code, const char *path)
{
    api_error err;
    char *out = run(fmt, body, -1, &err);
    ck_assert_msg(out == NULL, "expected %s for %s, got an answer %s", api_error_name(code), body,
                  out);
    ck_assert_msg(err.code == code, "expected %s, got %s (%s) for %s", api_error_name(code),
                  api_error_name(err.code), err.message, body);
    ck_assert_str_eq(err.path, path);
    ck_assert(err.message[0] != '\0');
}

START_TEST(sample_json)
{
    expect_json("{\"moves\":3,\"columns\":[[1],[2,1],[2,3,4],[3,1],[2,4,3,4]]}",
                "{\"solvable\":true,\"moves\":[{\"x\":2,\"y\":1,\"direction\":1},"
                "{\"x\":3,\"y\":1,\"direction\":1},{\"x\":3,\"y\":0,\"direction\":1}]}");
}
END_TEST

START_TEST(sample_text_byte_exact)
{
    char *in = read_file(PUZZLED_TEST_DATA "/mayan/sample.in");
    char *want = read_file(PUZZLED_TEST_DATA "/mayan/sample.out");
    api_error err;
    char *out = run(API_FORMAT_TEXT, in, -1, &err);
    ck_assert_msg(out != NULL, "%s", err.message);
    ck_assert_str_eq(out, "2 1 1\n3 1 1\n3 0 1\n");
    ck_assert_str_eq(out, want);
    free(out);
    /* CRLF line ends and trailing blanks read the same. */
    out = run(API_FORMAT_TEXT, "3\r\n1 0\r\n2 1 0\r\n2 3 4 0 \r\n3 1 0\r\n2 4 3 4 0\r\n\r\n", -1,
              &err);
    ck_assert_msg(out != NULL, "%s", err.message);
    ck_assert_str_eq(out, want);
    free(out);
    free(in);
    free(want);
    /* The example the registry advertises answers too. */
    out = run(API_FORMAT_TEXT, codec_mayan.example_text, -1, &err);
    ck_assert_str_eq(out, "2 1 1\n3 1 1\n3 0 1\n");
    free(out);
    out = run_json(codec_mayan.example_json);
    ck_assert(strncmp(out, "{\"solvable\":true,", 17) == 0);
    free(out);
}
END_TEST

START_TEST(no_solution)
{
    /* Two 2s can never vanish. */
    api_error err;
    char *out = run(API_FORMAT_TEXT, "1\n1 0\n2 0\n1 0\n2 0\n1 0\n", -1, &err);
    ck_assert_str_eq(out, "-1\n");
    free(out);
    expect_json("{\"moves\":1,\"columns\":[[1],[2],[1],[2],[1]]}",
                "{\"solvable\":false,\"moves\":[]}");
    /* The sample needs three moves: not two, not four-with-nothing-to-pad. */
    expect_json("{\"moves\":2,\"columns\":[[1],[2,1],[2,3,4],[3,1],[2,4,3,4]]}",
                "{\"solvable\":false,\"moves\":[]}");
    /* A board that settles to nothing before any move. */
    expect_json("{\"moves\":1,\"columns\":[[1],[1],[1],[],[]]}",
                "{\"solvable\":false,\"moves\":[]}");
    out = run(API_FORMAT_TEXT, "1\n1 0\n1 0\n1 0\n0\n0\n", -1, &err);
    ck_assert_str_eq(out, "-1\n");
    free(out);
}
END_TEST

START_TEST(padding_and_sizes)
{
    expect_json("{\"moves\":2,\"columns\":[[1],[1],[],[1],[]]}",
                "{\"solvable\":true,\"moves\":[{\"x\":0,\"y\":0,\"direction\":1},"
                "{\"x\":3,\"y\":0,\"direction\":-1}]}");
    expect_json("{\"moves\":1,\"columns\":[[1],[1],[],[1],[]]}",
                "{\"solvable\":true,\"moves\":[{\"x\":3,\"y\":0,\"direction\":-1}]}");
    /* Wider and taller than the contest: (7,0,-1) drops the 1 into column 6 and column 7's
     * other 1 falls: row 0 reads 1 1 1 from x = 5. */
    expect_json("{\"moves\":1,\"width\":8,\"height\":9,"
                "\"columns\":[[],[],[],[],[],[1],[],[1,1]]}",
                "{\"solvable\":true,\"moves\":[{\"x\":7,\"y\":0,\"direction\":-1}]}");
    expect_json("{\"moves\":1,\"width\":3,\"height\":1,\"columns\":[[2],[],[2]]}",
                "{\"solvable\":false,\"moves\":[]}");
    expect_json("{\"width\":4,\"height\":1,\"moves\":1,\"columns\":[[2],[],[2],[2]]}",
                "{\"solvable\":true,\"moves\":[{\"x\":0,\"y\":0,\"direction\":1}]}");
}
END_TEST

START_TEST(json_schema_errors)
{
    const api_error_code E = API_INVALID_REQUEST;
    const char *cols = "\"columns\":[[1],[2,1],[2,3,4],[3,1],[2,4,3,4]]";
    char body[512];
    expect_error(API_FORMAT_JSON, "{\"columns\":[[],[],[],[],[]]}", E, "/moves");
    snprintf(body, sizeof body, "{\"moves\":\"3\",%s}", cols);
    expect_error(API_FORMAT_JSON, body, E, "/moves");
    snprintf(body, sizeof body, "{\"moves\":3.5,%s}", cols);
    expect_error(API_FORMAT_JSON, body, E, "/moves");
    snprintf(body, sizeof body, "{\"moves\":0,%s}", cols);
    expect_error(API_FORMAT_JSON, body, E, "/moves");
    snprintf(body, sizeof body, "{\"moves\":11,%s}", cols);
    expect_error(API_FORMAT_JSON, body, E, "/moves");
    snprintf(body, sizeof body, "{\"moves\":3,\"colors\":1,%s}", cols);
    expect_error(API_FORMAT_JSON, body, E, "/colors");
    snprintf(body, sizeof body, "{\"moves\":3,\"width\":17,%s}", cols);
    expect_error(API_FORMAT_JSON, body, E, "/width");
    snprintf(body, sizeof body, "{\"moves\":3,\"width\":0,%s}", cols);
    expect_error(API_FORMAT_JSON, body, E, "/width");
    snprintf(body, sizeof body, "{\"moves\":3,\"height\":0,%s}", cols);
    expect_error(API_FORMAT_JSON, body, E, "/height");
    snprintf(body, sizeof body, "{\"moves\":3,\"height\":true,%s}", cols);
    expect_error(API_FORMAT_JSON, body, E, "/height");
    expect_error(API_FORMAT_JSON, "{\"moves\":3}", E, "/columns");
    expect_error(API_FORMAT_JSON, "{\"moves\":3,\"columns\":{}}", E, "/columns");
    expect_error(API_FORMAT_JSON, "{\"moves\":3,\"columns\":[[1],2,[],[],[]]}", E, "/columns/1");
    expect_error(API_FORMAT_JSON, "{\"moves\":3,\"columns\":[[1],[2,\"1\"],[],[],[]]}", E,
                 "/columns/1/1");
    expect_error(API_FORMAT_JSON, "{\"moves\":3,\"columns\":[[1],[2,1],[2,11,4],[],[]]}", E,
                 "/columns/2/1");
    expect_error(API_FORMAT_JSON, "{\"moves\":3,\"columns\":[[1],[2,1],[2,-1,4],[],[]]}", E,
                 "/columns/2/1");
    expect_error(API_FORMAT_JSON, "{\"moves\":3,\"columns\":[[1],[null],[],[],[]]}", E,
                 "/columns/1/0");
    /* Schema errors win over board errors found later in the body. */
    expect_error(API_FORMAT_JSON, "{\"moves\":3,\"columns\":[[0],[2.5]]}", E, "/columns/1/0");
    expect_error(API_FORMAT_JSON, "[1,2]", E, "");
    expect_error(API_FORMAT_JSON, "{\"moves\":3,", API_MALFORMED_JSON, "");
    expect_error(API_FORMAT_JSON, "{\"moves\":3,\"moves\":3}", API_MALFORMED_JSON, "");
}
END_TEST

START_TEST(json_board_errors)
{
    const api_error_code E = API_INVALID_BOARD;
    expect_error(API_FORMAT_JSON, "{\"moves\":3,\"columns\":[[1],[2,1],[2,0,4],[3,1],[2]]}", E,
                 "/columns/2/1");
    expect_error(API_FORMAT_JSON, "{\"moves\":3,\"columns\":[[1,0],[],[],[],[]]}", E,
                 "/columns/0/1");
    expect_error(API_FORMAT_JSON, "{\"moves\":3,\"columns\":[[1],[],[],[],[1,2,1,2,1,2,1,2]]}", E,
                 "/columns/4");
    expect_error(API_FORMAT_JSON, "{\"moves\":3,\"height\":2,\"columns\":[[1],[],[1,2,1],[],[]]}",
                 E, "/columns/2");
    expect_error(API_FORMAT_JSON, "{\"moves\":3,\"columns\":[[1],[2,1],[2,3,4],[3,1]]}", E,
                 "/columns");
    expect_error(API_FORMAT_JSON, "{\"moves\":3,\"columns\":[]}", E, "/columns");
    expect_error(API_FORMAT_JSON, "{\"moves\":3,\"width\":6,\"columns\":[[],[],[],[],[]]}", E,
                 "/columns");
}
END_TEST

/* Messages with counts read as written: one column, not "1 columns". */
static void expect_message_start(const char *body, const char *start)
{
    api_error err;
    char *out = run(API_FORMAT_JSON, body, -1, &err);
    ck_assert_ptr_null(out);
    ck_assert_msg(strncmp(err.message, start, strlen(start)) == 0, "message \"%s\" for %s",
                  err.message, body);
}

START_TEST(count_messages)
{
    expect_message_start("{\"moves\":1,\"columns\":[[1,1,2]]}",
                         "The board is 5 columns wide but 1 column was given;");
    expect_message_start("{\"moves\":1,\"columns\":[]}",
                         "The board is 5 columns wide but 0 columns were given;");
    expect_message_start("{\"moves\":1,\"width\":1,\"columns\":[[1],[2]]}",
                         "The board is 1 column wide but 2 columns were given;");
    expect_message_start("{\"moves\":1,\"height\":1,\"columns\":[[1,2],[],[],[],[]]}",
                         "Column 0 holds 2 blocks but the board is 1 row high.");
}
END_TEST

START_TEST(text_errors)
{
    const api_error_code M = API_MALFORMED_TEXT, B = API_INVALID_BOARD;
    expect_error(API_FORMAT_TEXT, "", M, "");
    expect_error(API_FORMAT_TEXT, "three\n1 0\n0\n0\n0\n0\n", M, "");
    expect_error(API_FORMAT_TEXT, "3\n1 0\n2 x 0\n0\n0\n0\n", M, "");
    expect_error(API_FORMAT_TEXT, "3\n1 0\n2 1 0\n2 3 4 0\n3 1 0\n", M, "");        /* 4 columns */
    expect_error(API_FORMAT_TEXT, "3\n1 0\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4", M, ""); /* no 0 */
    expect_error(API_FORMAT_TEXT, "3\n1 0\n0\n0\n0\n0\n5\n", M, "");                /* extra */
    /* an integer beyond any range is a range error like the others: 422 */
    expect_error(API_FORMAT_TEXT, "3\n1 0\n0\n0\n0\n99999999999999999999 0\n", B, "");
    expect_error(API_FORMAT_TEXT, "0\n1 0\n0\n0\n0\n0\n", B, "");
    expect_error(API_FORMAT_TEXT, "11\n1 0\n0\n0\n0\n0\n", B, "");
    expect_error(API_FORMAT_TEXT, "-2\n1 0\n0\n0\n0\n0\n", B, "");
    expect_error(API_FORMAT_TEXT, "3\n1 0\n2 11 0\n0\n0\n0\n", B, "");
    expect_error(API_FORMAT_TEXT, "3\n1 0\n2 -1 0\n0\n0\n0\n", B, "");
    expect_error(API_FORMAT_TEXT, "3\n1 0\n0\n1 2 1 2 1 2 1 2 0\n0\n0\n", B, "");
    /* The messages name the line. */
    api_error err;
    ck_assert(run(API_FORMAT_TEXT, "3\n1 0\n2 x 0\n0\n0\n0\n", -1, &err) == NULL);
    ck_assert_msg(strstr(err.message, "line 3") != NULL, "%s", err.message);
    ck_assert(run(API_FORMAT_TEXT, "3\n1 0\n0\n1 2 1 2 1 2 1 2 0\n0\n0\n", -1, &err) == NULL);
    ck_assert_msg(strstr(err.message, "line 4") != NULL, "%s", err.message);
    ck_assert(run(API_FORMAT_TEXT, "3\n1 0\n2 11 0\n0\n0\n0\n", -1, &err) == NULL);
    ck_assert_msg(strstr(err.message, "line 3") != NULL, "%s", err.message);
}
END_TEST

/* The same instance as JSON and as contest text gives the same moves, in both encodings. */
START_TEST(json_and_text_agree)
{
    unsigned seed = 12345;
    int solvable = 0;
    for (int i = 0; i < 200; i++) {
        int cols[5][7], heights[5];
        for (int x = 0; x < 5; x++) {
            seed = seed * 1103515245u + 12345u;
            heights[x] = (int)(seed >> 16) % 4;
            for (int y = 0; y < heights[x]; y++) {
                seed = seed * 1103515245u + 12345u;
                cols[x][y] = 1 + (int)(seed >> 16) % 2;
            }
        }
        int n = 1 + i % 3;
        char json[512], text[256];
        size_t jn = (size_t)snprintf(json, sizeof json, "{\"moves\":%d,\"columns\":[", n);
        size_t tn = (size_t)snprintf(text, sizeof text, "%d\n", n);
        for (int x = 0; x < 5; x++) {
            jn += (size_t)snprintf(json + jn, sizeof json - jn, "%s[", x ? "," : "");
            for (int y = 0; y < heights[x]; y++) {
                jn +=
                    (size_t)snprintf(json + jn, sizeof json - jn, "%s%d", y ? "," : "", cols[x][y]);
                tn += (size_t)snprintf(text + tn, sizeof text - tn, "%d ", cols[x][y]);
            }
            jn += (size_t)snprintf(json + jn, sizeof json - jn, "]");
            tn += (size_t)snprintf(text + tn, sizeof text - tn, "0\n");
        }
        snprintf(json + jn, sizeof json - jn, "]}");
        api_error err;
        char *jout = run(API_FORMAT_JSON, json, -1, &err);
        ck_assert_msg(jout != NULL, "%s", err.message);
        char *tout = run(API_FORMAT_TEXT, text, -1, &err);
        ck_assert_msg(tout != NULL, "%s", err.message);
        /* Rebuild the text answer from the JSON one. */
        char want[256] = "";
        json_t *root = json_loads(jout, 0, NULL);
        ck_assert(root != NULL);
        if (json_is_true(json_object_get(root, "solvable"))) {
            solvable++;
            size_t k;
            json_t *m;
            size_t wn = 0;
            ck_assert_uint_eq(json_array_size(json_object_get(root, "moves")), (size_t)n);
            json_array_foreach(json_object_get(root, "moves"), k, m)
            {
                wn += (size_t)snprintf(want + wn, sizeof want - wn, "%lld %lld %lld\n",
                                       json_integer_value(json_object_get(m, "x")),
                                       json_integer_value(json_object_get(m, "y")),
                                       json_integer_value(json_object_get(m, "direction")));
            }
        } else {
            ck_assert_str_eq(jout, "{\"solvable\":false,\"moves\":[]}");
            strcpy(want, "-1\n");
        }
        ck_assert_str_eq(tout, want);
        json_decref(root);
        free(jout);
        free(tout);
    }
    ck_assert_int_ge(solvable, 5); /* 7 with this seed: both answer kinds are compared */
}
END_TEST

/* A full 16 x 16 board without runs, 10 moves, 1 ms: the search cannot finish. */
START_TEST(time_limit)
{
    char body[4096];
    size_t n = (size_t)snprintf(body, sizeof body,
                                "{\"moves\":10,\"width\":16,\"height\":16,"
                                "\"columns\":[");
    for (int x = 0; x < 16; x++) {
        n += (size_t)snprintf(body + n, sizeof body - n, "%s[", x ? "," : "");
        for (int y = 0; y < 16; y++)
            n += (size_t)snprintf(body + n, sizeof body - n, "%s%d", y ? "," : "",
                                  1 + (x + 2 * y) % 4);
        n += (size_t)snprintf(body + n, sizeof body - n, "]");
    }
    snprintf(body + n, sizeof body - n, "]}");
    api_error err;
    ck_assert(run(API_FORMAT_JSON, body, 1, &err) == NULL);
    ck_assert_int_eq(err.code, API_TIME_LIMIT);
    ck_assert_int_eq(api_error_status(err.code), 422);
    ck_assert_str_eq(api_error_name(err.code), "time_limit");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("codec_mayan");
    TCase *tc = tcase_create("codec_mayan");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, sample_json);
    tcase_add_test(tc, sample_text_byte_exact);
    tcase_add_test(tc, no_solution);
    tcase_add_test(tc, padding_and_sizes);
    tcase_add_test(tc, json_schema_errors);
    tcase_add_test(tc, json_board_errors);
    tcase_add_test(tc, count_messages);
    tcase_add_test(tc, text_errors);
    tcase_add_test(tc, json_and_text_agree);
    tcase_add_test(tc, time_limit);
    suite_add_tcase(s, tc);
    return check_run(s);
}
