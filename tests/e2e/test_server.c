/* End-to-end tests of the HTTP layer against the real binary: routes, errors, limits, CORS,
 * request ids, the access log, metrics, flags, and (with the nine puzzle) solving, overload,
 * time limits and graceful shutdown. */
#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "check_run.h"
#include "e2e/harness.h"

#define START(s, ...) ck_assert_msg(harness_start(&(s), (const char *[]){__VA_ARGS__}), "start")

/* A file of the source tree, which the test cannot do without. */
static char *source_file(const char *relative, size_t *len)
{
    char *text = harness_source_file(relative, len);
    ck_assert_msg(text != NULL, "cannot read %s", relative);
    return text;
}

static harness_response get(const harness_server *s, const char *path, const char *const *headers)
{
    harness_response r;
    ck_assert_msg(harness_request(s, "GET", path, NULL, NULL, 0, headers, &r), "GET %s", path);
    return r;
}

static harness_response post(const harness_server *s, const char *path, const char *ctype,
                             const char *body, const char *const *headers)
{
    harness_response r;
    ck_assert_msg(
        harness_request(s, "POST", path, ctype, body, body ? strlen(body) : 0, headers, &r),
        "POST %s", path);
    return r;
}

static void assert_header(const harness_response *r, const char *name, const char *want)
{
    char buf[512];
    const char *got = harness_header(r, name, buf, sizeof buf);
    ck_assert_msg(got != NULL, "no %s header in:\n%s", name, r->headers);
    ck_assert_str_eq(got, want);
}

/* An error response: status, JSON content type, {"error":{"code":code,"message":...}}. Returns
 * the message (static copy) for further checks. */
static const char *assert_error(const harness_response *r, long status, const char *code)
{
    static char message[512];
    ck_assert_msg(r->status == status, "status %ld, want %ld: %s", r->status, status, r->body);
    assert_header(r, "Content-Type", "application/json");
    json_error_t jerr;
    json_t *root = json_loads(r->body, 0, &jerr);
    ck_assert_msg(root != NULL, "error body is not JSON: %s", r->body);
    const char *got_code = NULL, *got_message = NULL;
    ck_assert_msg(json_unpack(root, "{s:{s:s, s:s}}", "error", "code", &got_code, "message",
                              &got_message) == 0,
                  "not the error shape: %s", r->body);
    ck_assert_str_eq(got_code, code);
    ck_assert(strlen(got_message) > 10);
    snprintf(message, sizeof message, "%s", got_message);
    json_decref(root);
    return message;
}

/* ---- routes ------------------------------------------------------------------------------- */

START_TEST(get_routes)
{
    harness_server s;
    START(s, NULL);

    harness_response r = get(&s, "/healthz", NULL);
    ck_assert_int_eq(r.status, 200);
    assert_header(&r, "Content-Type", "application/json");
    ck_assert_str_eq(r.body, "{\"status\":\"ok\"}");
    harness_response_free(&r);

    r = get(&s, "/readyz", NULL);
    ck_assert_int_eq(r.status, 200);
    assert_header(&r, "Content-Type", "application/json");
    harness_response_free(&r);

    /* /puzzles: one row per registry entry, each with its solve path. */
    r = get(&s, "/puzzles", NULL);
    ck_assert_int_eq(r.status, 200);
    assert_header(&r, "Content-Type", "application/json");
    json_t *root = json_loads(r.body, 0, NULL);
    ck_assert_ptr_nonnull(root);
    json_t *list = json_object_get(root, "puzzles");
    ck_assert(json_is_array(list));
    const char *slugs[] = {"nine", "rubiks-rectangle", "invariant-boards", "mayan", "maze-tac-toe"};
    ck_assert_uint_eq(json_array_size(list), 5);
    for (size_t i = 0; i < 5; i++) {
        const char *slug = json_string_value(json_object_get(json_array_get(list, i), "slug"));
        const char *path = json_string_value(json_object_get(json_array_get(list, i), "path"));
        ck_assert_str_eq(slug, slugs[i]);
        char want[64];
        snprintf(want, sizeof want, "/solve/%s", slugs[i]);
        ck_assert_str_eq(path, want);
    }
    json_decref(root);
    harness_response_free(&r);

    /* The embedded files are byte for byte the source files. */
    size_t len;
    char *yaml = source_file("openapi.yaml", &len);
    r = get(&s, "/openapi.yaml", NULL);
    ck_assert_int_eq(r.status, 200);
    assert_header(&r, "Content-Type", "application/yaml");
    ck_assert_uint_eq(r.body_len, len);
    ck_assert(memcmp(r.body, yaml, len) == 0);
    harness_response_free(&r);
    free(yaml);

    char *html = source_file("web/index.html", &len);
    r = get(&s, "/", NULL);
    ck_assert_int_eq(r.status, 200);
    assert_header(&r, "Content-Type", "text/html; charset=utf-8");
    ck_assert_uint_eq(r.body_len, len);
    ck_assert(memcmp(r.body, html, len) == 0);
    harness_response_free(&r);
    free(html);

    /* HEAD: the GET route's headers, no body. */
    ck_assert(harness_request(&s, "HEAD", "/healthz", NULL, NULL, 0, NULL, &r));
    ck_assert_int_eq(r.status, 200);
    ck_assert_uint_eq(r.body_len, 0);
    harness_response_free(&r);

    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

START_TEST(not_found_and_unknown_puzzle)
{
    harness_server s;
    START(s, NULL);
    harness_response r = get(&s, "/nope", NULL);
    assert_error(&r, 404, "not_found");
    harness_response_free(&r);
    r = get(&s, "/healthz/", NULL);
    assert_error(&r, 404, "not_found");
    harness_response_free(&r);
    r = post(&s, "/solve/sudoku", "application/json", "{}", NULL);
    const char *message = assert_error(&r, 404, "unknown_puzzle");
    ck_assert_ptr_nonnull(strstr(message, "sudoku"));
    harness_response_free(&r);
    r = post(&s, "/solve/", "application/json", "{}", NULL);
    assert_error(&r, 404, "unknown_puzzle");
    harness_response_free(&r);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

START_TEST(method_not_allowed)
{
    harness_server s;
    START(s, NULL);
    harness_response r;
    ck_assert(harness_request(&s, "PUT", "/healthz", NULL, NULL, 0, NULL, &r));
    assert_error(&r, 405, "method_not_allowed");
    assert_header(&r, "Allow", "GET, HEAD, OPTIONS");
    harness_response_free(&r);
    ck_assert(harness_request(&s, "POST", "/puzzles", "application/json", "{}", 2, NULL, &r));
    assert_error(&r, 405, "method_not_allowed");
    assert_header(&r, "Allow", "GET, HEAD, OPTIONS");
    harness_response_free(&r);
    r = get(&s, "/solve/nine", NULL);
    assert_error(&r, 405, "method_not_allowed");
    assert_header(&r, "Allow", "POST, OPTIONS");
    harness_response_free(&r);
    ck_assert(harness_request(&s, "DELETE", "/solve/nine", NULL, NULL, 0, NULL, &r));
    assert_error(&r, 405, "method_not_allowed");
    assert_header(&r, "Allow", "POST, OPTIONS");
    harness_response_free(&r);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

/* ---- bodies ------------------------------------------------------------------------------- */

static char *filled(size_t n)
{
    char *text = malloc(n + 1);
    memset(text, ' ', n);
    text[0] = '{';
    text[n - 1] = '}';
    text[n] = '\0';
    return text;
}

START_TEST(body_too_large)
{
    harness_server s;
    START(s, "--max-body", "100", NULL);
    char *big = filled(5000);
    harness_response r;
    /* With Content-Length: refused before the body is read. */
    ck_assert(harness_request(&s, "POST", "/solve/nine", "application/json", big, 5000, NULL, &r));
    const char *message = assert_error(&r, 413, "body_too_large");
    ck_assert_ptr_nonnull(strstr(message, "100"));
    harness_response_free(&r);
    /* Chunked, no Content-Length: read up to the cap, then refused on the last call. */
    ck_assert(harness_request_chunked(&s, "POST", "/solve/nine", "application/json", big, 5000,
                                      NULL, &r));
    assert_error(&r, 413, "body_too_large");
    harness_response_free(&r);
    /* Just past the cap, chunked. */
    ck_assert(
        harness_request_chunked(&s, "POST", "/solve/nine", "application/json", big, 101, NULL, &r));
    assert_error(&r, 413, "body_too_large");
    harness_response_free(&r);
    /* Exactly the cap is accepted (it reaches the JSON parser: malformed here). */
    char *edge = filled(100);
    edge[50] = ',';
    ck_assert(harness_request(&s, "POST", "/solve/nine", "application/json", edge, 100, NULL, &r));
    assert_error(&r, 400, "malformed_json");
    harness_response_free(&r);
    ck_assert(harness_request_chunked(&s, "POST", "/solve/nine", "application/json", edge, 100,
                                      NULL, &r));
    assert_error(&r, 400, "malformed_json");
    harness_response_free(&r);
    free(edge);
    free(big);
    /* The server still serves afterwards. */
    r = get(&s, "/healthz", NULL);
    ck_assert_int_eq(r.status, 200);
    harness_response_free(&r);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

START_TEST(unsupported_media_type)
{
    harness_server s;
    START(s, NULL);
    harness_response r = post(&s, "/solve/nine", NULL, "{}", NULL);
    assert_error(&r, 415, "unsupported_media_type");
    harness_response_free(&r);
    r = post(&s, "/solve/nine", "application/xml", "<a/>", NULL);
    assert_error(&r, 415, "unsupported_media_type");
    harness_response_free(&r);
    r = post(&s, "/solve/nine", "application/jsonx", "{}", NULL);
    assert_error(&r, 415, "unsupported_media_type");
    harness_response_free(&r);
    /* A charset parameter is fine: the body reaches the parser. */
    r = post(&s, "/solve/nine", "application/json; charset=utf-8", "[1,", NULL);
    assert_error(&r, 400, "malformed_json");
    harness_response_free(&r);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

START_TEST(malformed_json)
{
    harness_server s;
    START(s, NULL);
    harness_response r = post(&s, "/solve/nine", "application/json", "{\"a\": [1,\n  2,,]}", NULL);
    const char *message = assert_error(&r, 400, "malformed_json");
    ck_assert_msg(strstr(message, "line 2") != NULL, "no line: %s", message);
    ck_assert_msg(strstr(message, "column") != NULL, "no column: %s", message);
    harness_response_free(&r);
    /* An empty body is not JSON either. */
    r = post(&s, "/solve/nine", "application/json", "", NULL);
    assert_error(&r, 400, "malformed_json");
    harness_response_free(&r);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

/* ---- CORS, request ids, log, metrics --------------------------------------------------------- */

/* CORS: tests/e2e/test_cors.c. */

static bool is_hex_id(const char *id)
{
    if (strlen(id) != 16) return false;
    for (const char *p = id; *p; p++)
        if (!strchr("0123456789abcdef", *p)) return false;
    return true;
}

START_TEST(request_ids)
{
    harness_server s;
    START(s, NULL);
    harness_response r = get(&s, "/healthz", (const char *[]){"X-Request-Id: abc-123.x", NULL});
    assert_header(&r, "X-Request-Id", "abc-123.x");
    harness_response_free(&r);
    /* Outside the set or over 64 characters: replaced by a generated one, never trimmed (a
     * proxy's log would show the id as sent). */
    char buf[256];
    r = get(&s, "/healthz", (const char *[]){"X-Request-Id: a b<c>\"d", NULL});
    ck_assert_ptr_nonnull(harness_header(&r, "X-Request-Id", buf, sizeof buf));
    ck_assert_msg(is_hex_id(buf), "id %s", buf);
    harness_response_free(&r);
    char long_id[200] = "X-Request-Id: ";
    memset(long_id + strlen(long_id), 'z', 65);
    r = get(&s, "/healthz", (const char *[]){long_id, NULL});
    ck_assert_ptr_nonnull(harness_header(&r, "X-Request-Id", buf, sizeof buf));
    ck_assert_msg(is_hex_id(buf), "id %s", buf);
    harness_response_free(&r);
    /* Generated when absent, different each time; also on errors. */
    char first[64], second[64];
    r = get(&s, "/healthz", NULL);
    ck_assert_ptr_nonnull(harness_header(&r, "X-Request-Id", first, sizeof first));
    ck_assert_msg(is_hex_id(first), "id %s", first);
    harness_response_free(&r);
    r = get(&s, "/nope", (const char *[]){"X-Request-Id: <>", NULL});
    ck_assert_ptr_nonnull(harness_header(&r, "X-Request-Id", second, sizeof second));
    ck_assert_msg(is_hex_id(second), "id %s", second);
    ck_assert_str_ne(first, second);
    harness_response_free(&r);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

/* The access-log line with this request id, parsed. */
static json_t *log_entry(const harness_server *s, const char *request_id)
{
    char needle[128];
    snprintf(needle, sizeof needle, "\"request_id\":\"%s\"", request_id);
    char *line = harness_wait_log_line(s, needle);
    ck_assert_msg(line != NULL, "no log line for %s", request_id);
    json_error_t jerr;
    json_t *entry = json_loads(line, 0, &jerr);
    ck_assert_msg(entry != NULL, "log line is not JSON: %s", line);
    free(line);
    return entry;
}

START_TEST(access_log)
{
    harness_server s;
    START(s, NULL);
    harness_response r = get(&s, "/healthz", (const char *[]){"X-Request-Id: log-1", NULL});
    ck_assert_int_eq(r.status, 200);
    harness_response_free(&r);
    r = post(&s, "/solve/nine", "application/json", "{",
             (const char *[]){"X-Request-Id: log-2", NULL});
    size_t error_bytes = r.body_len;
    harness_response_free(&r);

    json_t *e = log_entry(&s, "log-1");
    const char *time = NULL, *method = NULL, *path = NULL, *id = NULL;
    json_t *puzzle = NULL;
    json_int_t status = 0, bytes = 0;
    double duration = -1;
    ck_assert_msg(json_unpack(e, "{s:s, s:s, s:s, s:o, s:I, s:I, s:F, s:s !}", "time", &time,
                              "method", &method, "path", &path, "puzzle", &puzzle, "status",
                              &status, "bytes", &bytes, "duration_ms", &duration, "request_id",
                              &id) == 0,
                  "log fields");
    /* RFC 3339 UTC: 2026-01-02T03:04:05.678Z */
    ck_assert_uint_eq(strlen(time), 24);
    ck_assert(time[4] == '-' && time[10] == 'T' && time[19] == '.' && time[23] == 'Z');
    ck_assert_str_eq(method, "GET");
    ck_assert_str_eq(path, "/healthz");
    ck_assert(json_is_null(puzzle));
    ck_assert_int_eq(status, 200);
    ck_assert_int_eq(bytes, (json_int_t)strlen("{\"status\":\"ok\"}"));
    ck_assert(duration >= 0);
    ck_assert_str_eq(id, "log-1");
    json_decref(e);

    e = log_entry(&s, "log-2");
    ck_assert_str_eq(json_string_value(json_object_get(e, "puzzle")), "nine");
    ck_assert_str_eq(json_string_value(json_object_get(e, "method")), "POST");
    ck_assert_int_eq(json_integer_value(json_object_get(e, "status")), 400);
    ck_assert_int_eq(json_integer_value(json_object_get(e, "bytes")), (json_int_t)error_bytes);
    json_decref(e);

    /* Every line of standard output is one JSON object. */
    ck_assert_int_eq(harness_stop(&s), 0);
    char *log = harness_log(&s);
    int lines = 0;
    for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n"), lines++) {
        json_t *any = json_loads(line, 0, NULL);
        ck_assert_msg(json_is_object(any), "not a JSON line: %s", line);
        json_decref(any);
    }
    ck_assert_int_ge(lines, 4); /* listening, healthz (and the harness's), the post, stopped */
    free(log);
}
END_TEST

START_TEST(metrics_count_requests)
{
    harness_server s;
    START(s, NULL);
    harness_response r = get(&s, "/metrics", NULL);
    ck_assert_int_eq(r.status, 200);
    assert_header(&r, "Content-Type", "text/plain; version=0.0.4; charset=utf-8");
    double before =
        harness_metric(r.body, "puzzled_requests_total{puzzle=\"none\",status=\"404\"}");
    double count_before = harness_metric(r.body, "puzzled_request_duration_seconds_count");
    ck_assert(harness_metric(r.body, "puzzled_queue_depth") == 0);
    ck_assert(harness_metric(r.body, "puzzled_workers_busy") == 0);
    ck_assert(harness_metric(r.body, "puzzled_in_flight_requests") >= 1); /* this request */
    harness_response_free(&r);

    for (int i = 0; i < 3; i++) {
        r = get(&s, "/nope", NULL);
        harness_response_free(&r);
    }
    r = post(&s, "/solve/nine", "application/json", "{", NULL);
    harness_response_free(&r);

    r = get(&s, "/metrics", NULL);
    double after = harness_metric(r.body, "puzzled_requests_total{puzzle=\"none\",status=\"404\"}");
    ck_assert_msg(after == (before < 0 ? 0 : before) + 3, "404s: %g -> %g", before, after);
    ck_assert(harness_metric(r.body, "puzzled_requests_total{puzzle=\"nine\",status=\"400\"}") ==
              1);
    /* The histogram saw them too: the first /metrics, three 404s, the solve. */
    ck_assert(harness_metric(r.body, "puzzled_request_duration_seconds_count") >= count_before + 5);
    ck_assert(harness_metric(r.body, "puzzled_request_duration_seconds_bucket{le=\"+Inf\"}") ==
              harness_metric(r.body, "puzzled_request_duration_seconds_count"));
    harness_response_free(&r);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

/* ---- flags and environment ---------------------------------------------------------------- */

START_TEST(bad_flags_exit_2)
{
    char *err = NULL;
    ck_assert_int_eq(harness_run((const char *[]){"--port", "70000", NULL}, &err), 2);
    ck_assert_msg(strstr(err, "port") && strstr(err, "0..65535"), "stderr: %s", err);
    ck_assert_ptr_eq(strchr(err, '\n'), err + strlen(err) - 1); /* one line */
    free(err);
    ck_assert_int_eq(harness_run((const char *[]){"--workers", "none", NULL}, &err), 2);
    ck_assert_msg(strstr(err, "workers"), "stderr: %s", err);
    free(err);
    ck_assert_int_eq(harness_run((const char *[]){"--no-such-flag", NULL}, &err), 2);
    ck_assert_msg(strstr(err, "no-such-flag"), "stderr: %s", err);
    free(err);
    setenv("PUZZLED_MAX_BODY", "-5", 1);
    ck_assert_int_eq(harness_run(NULL, &err), 2);
    ck_assert_msg(strstr(err, "PUZZLED_MAX_BODY"), "stderr: %s", err);
    free(err);
    unsetenv("PUZZLED_MAX_BODY");
    ck_assert_int_eq(harness_run((const char *[]){"--help", NULL}, &err), 0);
    free(err);
}
END_TEST

START_TEST(env_config_and_flag_precedence)
{
    setenv("PUZZLED_MAX_BODY", "50", 1);
    harness_server s;
    START(s, NULL);
    char *body = filled(80);
    harness_response r = post(&s, "/solve/nine", "application/json", body, NULL);
    assert_error(&r, 413, "body_too_large");
    harness_response_free(&r);
    ck_assert_int_eq(harness_stop(&s), 0);

    START(s, "--max-body", "1000", NULL); /* the flag wins */
    r = post(&s, "/solve/nine", "application/json", body, NULL);
    ck_assert_int_ne(r.status, 413);
    harness_response_free(&r);
    ck_assert_int_eq(harness_stop(&s), 0);
    unsetenv("PUZZLED_MAX_BODY");
    free(body);
}
END_TEST

START_TEST(sigterm_idle_exits_0)
{
    harness_server s;
    START(s, NULL);
    ck_assert_int_eq(harness_stop(&s), 0);
    char *line = harness_wait_log_line(&s, "\"msg\":\"stopped\"");
    ck_assert_ptr_nonnull(line);
    free(line);
}
END_TEST

/* ---- solving through the pool (the nine puzzle) ----------------------------------------- */

/* The test's own 9-Nine simulator: A and B as rows of '0'/'1'. */
#define NINE_MAX 64
typedef struct nine_state {
    int n;
    char a[NINE_MAX][NINE_MAX + 1], b[NINE_MAX][NINE_MAX + 1];
} nine_state;

static void rotate(char m[NINE_MAX][NINE_MAX + 1], int n, bool clockwise)
{
    static char t[NINE_MAX][NINE_MAX + 1];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) t[i][j] = clockwise ? m[n - 1 - j][i] : m[j][n - 1 - i];
    for (int i = 0; i < n; i++) memcpy(m[i], t[i], (size_t)n);
}

static void nine_apply(nine_state *st, const char *move)
{
    if (move[0] == 'A' || move[0] == 'B') {
        ck_assert_msg(move[1] == 'L' || move[1] == 'R', "move %s", move);
        rotate(move[0] == 'A' ? st->a : st->b, st->n, move[1] == 'R');
        return;
    }
    ck_assert_msg(move[0] == 'C', "move %s", move);
    int k = atoi(move + 1);
    ck_assert_msg(k >= 1 && k <= st->n, "move %s", move);
    for (int i = 0; i < st->n; i++) {
        char c = st->a[i][k - 1];
        st->a[i][k - 1] = st->b[i][k - 1];
        st->b[i][k - 1] = c;
    }
}

static bool nine_goal(const nine_state *st)
{
    for (int i = 0; i < st->n; i++)
        for (int j = 0; j < st->n; j++)
            if (st->a[i][j] != '0' || st->b[i][j] != '1') return false;
    return true;
}

static const nine_state sample = {3, {"100", "000", "000"}, {"111", "111", "011"}};

/* A solvable n x n instance: B is A's complement, so every orbit holds exactly its size. */
static nine_state nine_random(int n, unsigned seed)
{
    nine_state st = {.n = n};
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            seed = seed * 1103515245u + 12345u;
            st.a[i][j] = (seed >> 16) & 1 ? '1' : '0';
            st.b[i][j] = st.a[i][j] == '1' ? '0' : '1';
        }
        st.a[i][n] = st.b[i][n] = '\0';
    }
    return st;
}

static char *nine_json(const nine_state *st)
{
    json_t *a = json_array(), *b = json_array();
    for (int i = 0; i < st->n; i++) {
        json_array_append_new(a, json_string(st->a[i]));
        json_array_append_new(b, json_string(st->b[i]));
    }
    json_t *root = json_pack("{s:o, s:o}", "a", a, "b", b);
    char *text = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    return text;
}

/* Replays a JSON answer on a copy of start: solvable, moves reach the goal; the move count. */
static size_t nine_check_json(const nine_state *start, const char *body)
{
    json_t *root = json_loads(body, 0, NULL);
    ck_assert_msg(root != NULL, "answer is not JSON: %.200s", body);
    ck_assert_int_eq(json_integer_value(json_object_get(root, "n")), start->n);
    ck_assert(json_is_true(json_object_get(root, "solvable")));
    json_t *moves = json_object_get(root, "moves");
    ck_assert(json_is_array(moves));
    ck_assert_int_eq(json_integer_value(json_object_get(root, "move_count")),
                     (json_int_t)json_array_size(moves));
    nine_state st = *start;
    for (size_t i = 0; i < json_array_size(moves); i++)
        nine_apply(&st, json_string_value(json_array_get(moves, i)));
    ck_assert_msg(nine_goal(&st), "the moves do not solve the board");
    size_t count = json_array_size(moves);
    json_decref(root);
    return count;
}

START_TEST(nine_sample_json_and_text)
{
    harness_server s;
    START(s, NULL);
    char *body = nine_json(&sample);
    harness_response r = post(&s, "/solve/nine", "application/json", body, NULL);
    ck_assert_msg(r.status == 200, "status %ld: %s", r.status, r.body);
    assert_header(&r, "Content-Type", "application/json");
    /* The contest's sample answer has 5 moves, and for 3 x 3 the answer is a shortest one. */
    ck_assert_uint_eq(nine_check_json(&sample, r.body), 5);
    harness_response_free(&r);
    free(body);

    size_t len;
    char *text = harness_read_file(PUZZLED_TEST_DATA "/nine/sample.in", &len);
    ck_assert_ptr_nonnull(text);
    ck_assert(harness_request(&s, "POST", "/solve/nine", "text/plain", text, len, NULL, &r));
    ck_assert_msg(r.status == 200, "status %ld: %s", r.status, r.body);
    assert_header(&r, "Content-Type", "text/plain; charset=utf-8");
    ck_assert(r.body_len > 0 && r.body[r.body_len - 1] == '\n');
    ck_assert(r.body_len < 2 || r.body[r.body_len - 2] != '\n'); /* exactly one newline */
    nine_state st = sample;
    char *save = NULL;
    char *line = strtok_r(r.body, "\n", &save);
    ck_assert_int_eq(atoi(line), 5);
    int moves = 0;
    for (line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save), moves++)
        nine_apply(&st, line);
    ck_assert_int_eq(moves, 5);
    ck_assert(nine_goal(&st));
    harness_response_free(&r);
    free(text);

    /* A text body that does not parse: 400 malformed_text, as JSON. */
    r = post(&s, "/solve/nine", "text/plain", "100\n", NULL);
    assert_error(&r, 400, "malformed_text");
    harness_response_free(&r);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

typedef struct call {
    const harness_server *s;
    const char *path;
    const char *body;
    const char *const *headers;
    harness_response r;
} call;

static void *call_thread(void *arg)
{
    call *c = arg;
    if (!harness_request(c->s, "POST", c->path, "application/json", c->body, strlen(c->body),
                         c->headers, &c->r))
        c->r.status = 0;
    return NULL;
}

static pthread_t start_call(call *c)
{
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, call_thread, c), 0);
    return t;
}

/* A job that waited in the queue behind a long one: its budget ran from its admission, so it
 * is either solved (checked by the test's own replay) or 422 time_limit saying it waited. */
static void assert_solved_or_expired(const harness_response *r, const nine_state *state)
{
    if (r->status == 200) {
        nine_check_json(state, r->body);
        return;
    }
    assert_error(r, 422, "time_limit");
}

START_TEST(queue_full_503)
{
    harness_server s;
    START(s, "--workers", "1", "--queue", "1", "--time-limit-ms", "3000", NULL);
    /* The first request occupies the only worker ... */
    call first = {&s, "/solve/mayan", harness_slow_mayan, NULL, {0}};
    pthread_t t0 = start_call(&first);
    ck_assert(harness_wait_metric(&s, "puzzled_workers_busy", 1));
    /* ... the next fills the queue, and the ones after are refused at once. */
    char *small = nine_json(&sample);
    call second = {&s, "/solve/nine", small, NULL, {0}};
    pthread_t t1 = start_call(&second);
    ck_assert(harness_wait_metric(&s, "puzzled_queue_depth", 1));
    harness_response r = get(&s, "/readyz", NULL);
    ck_assert_int_eq(r.status, 503);
    ck_assert_str_eq(r.body, "{\"status\":\"overloaded\"}");
    harness_response_free(&r);
    for (int i = 0; i < 2; i++) {
        r = post(&s, "/solve/nine", "application/json", small, NULL);
        const char *message = assert_error(&r, 503, "overloaded");
        ck_assert_ptr_nonnull(strstr(message, "retry"));
        assert_header(&r, "Retry-After", "1");
        harness_response_free(&r);
    }
    pthread_join(t0, NULL);
    pthread_join(t1, NULL);
    assert_error(&first.r, 422, "time_limit");
    /* The second waited nearly the first's whole budget, and its own budget runs from its
     * admission: solved in what was left, or 422 time_limit (which one depends on timing). */
    assert_solved_or_expired(&second.r, &sample);
    harness_response_free(&first.r);
    harness_response_free(&second.r);
    r = get(&s, "/readyz", NULL);
    ck_assert_int_eq(r.status, 200);
    harness_response_free(&r);
    free(small);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

START_TEST(time_limit_422)
{
    harness_server s;
    START(s, "--time-limit-ms", "200", NULL);
    harness_response r = post(&s, "/solve/mayan", "application/json", harness_slow_mayan, NULL);
    assert_error(&r, 422, "time_limit");
    harness_response_free(&r);
    /* A large nine board with a budget of 1 ms. */
    harness_server tiny;
    START(tiny, "--time-limit-ms", "1", NULL);
    nine_state big = nine_random(64, 11);
    char *body = nine_json(&big);
    r = post(&tiny, "/solve/nine", "application/json", body, NULL);
    assert_error(&r, 422, "time_limit");
    harness_response_free(&r);
    free(body);
    ck_assert_int_eq(harness_stop(&tiny), 0);
    /* The worker is free again: a small instance still solves. */
    char *small = nine_json(&sample);
    r = post(&s, "/solve/nine", "application/json", small, NULL);
    ck_assert_msg(r.status == 200, "status %ld: %s", r.status, r.body);
    harness_response_free(&r);
    free(small);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

/* SIGTERM while one job runs and another waits: both are answered, the waiting one after the
 * signal, and the process exits 0 only then. The waiting one's budget ran while it waited
 * (the budget starts at admission), so it is answered 422 time_limit too. */
START_TEST(sigterm_lets_work_in_flight_finish)
{
    harness_server s;
    START(s, "--workers", "1", "--time-limit-ms", "2000", NULL);
    call slow = {&s, "/solve/mayan", harness_slow_mayan, NULL, {0}};
    pthread_t t0 = start_call(&slow);
    ck_assert(harness_wait_metric(&s, "puzzled_workers_busy", 1));
    nine_state big = nine_random(64, 5);
    char *body = nine_json(&big);
    call queued = {&s, "/solve/nine", body, (const char *[]){"X-Request-Id: in-flight", NULL}, {0}};
    pthread_t t1 = start_call(&queued);
    ck_assert(harness_wait_metric(&s, "puzzled_queue_depth", 1));
    ck_assert_int_eq(harness_stop(&s), 0); /* returns once the server has exited */
    pthread_join(t0, NULL);
    pthread_join(t1, NULL);
    assert_error(&slow.r, 422, "time_limit"); /* its own budget, not a cancellation */
    assert_solved_or_expired(&queued.r, &big);
    harness_response_free(&slow.r);
    harness_response_free(&queued.r);
    /* The log: the signal, then the queued request, then the stop. */
    char *log = harness_log(&s);
    char *draining = strstr(log, "\"msg\":\"draining\"");
    ck_assert_ptr_nonnull(draining);
    char *answered = strstr(draining, "\"request_id\":\"in-flight\"");
    ck_assert_ptr_nonnull(answered);
    ck_assert_ptr_nonnull(strstr(answered, "\"msg\":\"stopped\""));
    free(log);
    free(body);
}
END_TEST

START_TEST(sigterm_past_grace_cancels)
{
    harness_server s;
    START(s, "--workers", "1", "--time-limit-ms", "600000", "--grace-ms", "0", NULL);
    call c = {&s, "/solve/mayan", harness_slow_mayan, NULL, {0}};
    pthread_t t = start_call(&c);
    ck_assert(harness_wait_metric(&s, "puzzled_workers_busy", 1));
    ck_assert_int_eq(harness_stop(&s), 0); /* within the harness's 120 s: cancelled */
    pthread_join(t, NULL);
    /* Not its budget: the drain cut it off, and another instance may take it. */
    assert_error(&c.r, 503, "overloaded");
    assert_header(&c.r, "Retry-After", "1");
    harness_response_free(&c.r);
}
END_TEST

/* A client that leaves while its job runs: the job finishes, the request is logged and freed,
 * the server goes on serving. */
START_TEST(client_leaves_during_solve)
{
    harness_server s;
    START(s, "--workers", "1", "--time-limit-ms", "1000", NULL);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)s.port)};
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&addr, sizeof addr), 0);
    char head[256];
    int n = snprintf(head, sizeof head,
                     "POST /solve/mayan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     "X-Request-Id: gone\r\nContent-Length: %zu\r\n\r\n",
                     strlen(harness_slow_mayan));
    ck_assert_int_eq(write(fd, head, (size_t)n), n);
    ck_assert_int_eq(write(fd, harness_slow_mayan, strlen(harness_slow_mayan)),
                     (ssize_t)strlen(harness_slow_mayan));
    ck_assert(harness_wait_metric(&s, "puzzled_workers_busy", 1));
    close(fd);
    char *line = harness_wait_log_line(&s, "\"request_id\":\"gone\"");
    ck_assert_ptr_nonnull(line);
    free(line);
    ck_assert(
        harness_wait_metric(&s, "puzzled_in_flight_requests", 1)); /* only the /metrics itself */
    harness_response r = get(&s, "/healthz", NULL);
    ck_assert_int_eq(r.status, 200);
    harness_response_free(&r);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

/* strcasestr() is a GNU extension: the same, portably. */
static char *find_nocase(char *haystack, const char *needle)
{
    size_t n = strlen(needle);
    for (char *p = haystack; *p; p++)
        if (strncasecmp(p, needle, n) == 0) return p;
    return NULL;
}

/* A raw keep-alive connection: the harness opens a fresh connection per request, but a
 * draining server no longer accepts new ones. */
static int raw_connect(const harness_server *s)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)s->port)};
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&addr, sizeof addr), 0);
    return fd;
}

/* Sends one request and reads one response (headers plus a Content-Length body) into buf. */
static void raw_exchange(int fd, const char *request, char *buf, size_t cap)
{
    ck_assert_int_eq(write(fd, request, strlen(request)), (ssize_t)strlen(request));
    size_t n = 0;
    for (;;) {
        ck_assert(n + 1 < cap);
        ssize_t got = read(fd, buf + n, cap - n - 1);
        ck_assert_msg(got > 0, "connection closed after %zu bytes", n);
        n += (size_t)got;
        buf[n] = '\0';
        char *end = strstr(buf, "\r\n\r\n");
        char *clen = find_nocase(buf, "Content-Length:");
        if (end && clen && n >= (size_t)(end + 4 - buf) + (size_t)atol(clen + 15)) return;
    }
}

START_TEST(draining_refuses_new_work)
{
    harness_server s;
    START(s, "--workers", "1", "--queue", "1", "--time-limit-ms", "3000", NULL);
    /* A long job and a waiting one keep the server draining for a while. */
    call slow = {&s, "/solve/mayan", harness_slow_mayan, NULL, {0}};
    pthread_t t0 = start_call(&slow);
    ck_assert(harness_wait_metric(&s, "puzzled_workers_busy", 1));
    char *small = nine_json(&sample);
    call queued = {&s, "/solve/nine", small, NULL, {0}};
    pthread_t t1 = start_call(&queued);
    ck_assert(harness_wait_metric(&s, "puzzled_queue_depth", 1));
    int fd = raw_connect(&s);
    char buf[4096];
    raw_exchange(fd, "GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n", buf, sizeof buf);
    ck_assert_msg(strncmp(buf, "HTTP/1.1 503", 12) == 0, "%s", buf); /* the queue is full */
    int fd2 = raw_connect(&s);
    raw_exchange(fd2, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", buf, sizeof buf);
    ck_assert_msg(strncmp(buf, "HTTP/1.1 200", 12) == 0, "%s", buf);

    kill(s.pid, SIGTERM);
    char *line = harness_wait_log_line(&s, "\"msg\":\"draining\"");
    ck_assert_ptr_nonnull(line);
    free(line);
    raw_exchange(fd, "GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n", buf, sizeof buf);
    ck_assert_msg(strncmp(buf, "HTTP/1.1 503", 12) == 0, "%s", buf);
    ck_assert_ptr_nonnull(strstr(buf, "{\"status\":\"draining\"}"));
    ck_assert_ptr_nonnull(find_nocase(buf, "Connection: close"));
    close(fd);
    /* A new solve on a kept-alive connection: refused, the server is going away. */
    char request[512];
    snprintf(request, sizeof request,
             "POST /solve/nine HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
             "Content-Length: %zu\r\n\r\n%s",
             strlen(small), small);
    raw_exchange(fd2, request, buf, sizeof buf);
    ck_assert_msg(strncmp(buf, "HTTP/1.1 503", 12) == 0, "%s", buf);
    ck_assert_ptr_nonnull(strstr(buf, "\"code\":\"overloaded\""));
    ck_assert_ptr_nonnull(find_nocase(buf, "Retry-After: 1"));
    close(fd2);
    /* The listening socket is no longer served: new connections get nowhere. */
    harness_response r;
    ck_assert(!harness_request(&s, "GET", "/healthz", NULL, NULL, 0, NULL, &r));
    harness_response_free(&r);

    ck_assert_int_eq(harness_stop(&s), 0);
    pthread_join(t0, NULL);
    pthread_join(t1, NULL);
    assert_error(&slow.r, 422, "time_limit");
    assert_solved_or_expired(&queued.r, &sample);
    harness_response_free(&slow.r);
    harness_response_free(&queued.r);
    free(small);
}
END_TEST

/* A body far above the first buffer size (and the preallocation for a Content-Length), in
 * many pieces: it grows geometrically and arrives whole. */
START_TEST(large_chunked_body)
{
    harness_server s;
    START(s, NULL);
    char *small = nine_json(&sample);
    size_t pad = 3 * 1024 * 1024 + 17, len = strlen(small) + pad;
    char *body = malloc(len + 1);
    memset(body, ' ', pad);
    memcpy(body + pad, small, strlen(small) + 1);
    harness_response r;
    ck_assert(harness_request_chunked(&s, "POST", "/solve/nine", "application/json", body, len,
                                      NULL, &r));
    ck_assert_msg(r.status == 200, "status %ld: %s", r.status, r.body);
    ck_assert_uint_eq(nine_check_json(&sample, r.body), 5);
    harness_response_free(&r);
    /* The same with Content-Length: past the preallocated part it grows too. */
    ck_assert(harness_request(&s, "POST", "/solve/nine", "application/json", body, len, NULL, &r));
    ck_assert_msg(r.status == 200, "status %ld: %s", r.status, r.body);
    ck_assert_uint_eq(nine_check_json(&sample, r.body), 5);
    harness_response_free(&r);
    free(body);
    free(small);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

Suite *server_suite(void);

Suite *server_suite(void)
{
    Suite *s = suite_create("server");
    TCase *tc = tcase_create("http");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, get_routes);
    tcase_add_test(tc, not_found_and_unknown_puzzle);
    tcase_add_test(tc, method_not_allowed);
    tcase_add_test(tc, body_too_large);
    tcase_add_test(tc, unsupported_media_type);
    tcase_add_test(tc, malformed_json);
    tcase_add_test(tc, request_ids);
    tcase_add_test(tc, access_log);
    tcase_add_test(tc, metrics_count_requests);
    tcase_add_test(tc, bad_flags_exit_2);
    tcase_add_test(tc, env_config_and_flag_precedence);
    tcase_add_test(tc, sigterm_idle_exits_0);
    suite_add_tcase(s, tc);
    TCase *solve = tcase_create("solve");
    tcase_set_timeout(solve, 600);
    tcase_add_test(solve, nine_sample_json_and_text);
    tcase_add_test(solve, queue_full_503);
    tcase_add_test(solve, time_limit_422);
    tcase_add_test(solve, sigterm_lets_work_in_flight_finish);
    tcase_add_test(solve, sigterm_past_grace_cancels);
    tcase_add_test(solve, client_leaves_during_solve);
    tcase_add_test(solve, draining_refuses_new_work);
    tcase_add_test(solve, large_chunked_body);
    suite_add_tcase(s, solve);
    return s;
}

int main(void)
{
    return check_run(server_suite());
}
