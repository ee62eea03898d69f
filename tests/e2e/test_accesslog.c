/* The access-log line and request ids, as pure functions: the hand-built timestamp against
 * gmtime_r + strftime, JSON escaping checked by parsing the line back with jansson. Then the
 * batched log: lines from many threads come out whole, each once, by themselves after a
 * while, and the server's lines written just before SIGTERM are all in its log. */
#include <check.h>
#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check_run.h"
#include "accesslog.h"
#include "e2e/harness.h"

/* Writes e through a pipe and parses the line back. */
static json_t *round_trip(const access_entry *e, char *raw, size_t cap)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    accesslog_write(fds[1], e);
    close(fds[1]);
    ssize_t n = read(fds[0], raw, cap - 1);
    close(fds[0]);
    ck_assert_int_gt(n, 0);
    raw[n] = '\0';
    ck_assert_msg(raw[n - 1] == '\n' && strchr(raw, '\n') == raw + n - 1, "one line: %s", raw);
    json_error_t jerr;
    json_t *root = json_loads(raw, 0, &jerr);
    ck_assert_msg(root != NULL, "not JSON (%s): %s", jerr.text, raw);
    return root;
}

START_TEST(timestamps_match_gmtime)
{
    const time_t cases[] = {
        0,          951782400 /* 2000-02-29 */,           1709164800 /* 2024-02-29 */,
        1735689599, 4102444799 /* 2099-12-31 23:59:59 */, time(NULL)};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        access_entry e = {.when = {cases[i], 987654321},
                          .method = "GET",
                          .path = "/",
                          .status = 200,
                          .request_id = "x"};
        char raw[2048];
        json_t *root = round_trip(&e, raw, sizeof raw);
        struct tm tm;
        gmtime_r(&cases[i], &tm);
        char want[64];
        strftime(want, sizeof want, "%Y-%m-%dT%H:%M:%S.987Z", &tm);
        ck_assert_str_eq(json_string_value(json_object_get(root, "time")), want);
        json_decref(root);
    }
}
END_TEST

START_TEST(fields_and_escaping)
{
    access_entry e = {.when = {1000, 0},
                      .method = "POST",
                      .path = "/solve/\"odd\\\x01\x7f\xc3\xa9",
                      .puzzle = "nine",
                      .status = 422,
                      .bytes = 9223372036854775807ull,
                      .duration_ms = 1234.5678,
                      .request_id = "id-1"};
    char raw[2048];
    json_t *root = round_trip(&e, raw, sizeof raw);
    ck_assert_str_eq(json_string_value(json_object_get(root, "method")), "POST");
    ck_assert_str_eq(json_string_value(json_object_get(root, "path")), e.path);
    ck_assert_str_eq(json_string_value(json_object_get(root, "puzzle")), "nine");
    ck_assert_int_eq(json_integer_value(json_object_get(root, "status")), 422);
    ck_assert_ptr_nonnull(strstr(raw, "\"bytes\":9223372036854775807,"));
    ck_assert_ptr_nonnull(strstr(raw, "\"duration_ms\":1234.568,"));
    ck_assert_str_eq(json_string_value(json_object_get(root, "request_id")), "id-1");
    json_decref(root);

    e.puzzle = NULL;
    e.duration_ms = 0.0004;
    e.bytes = 0;
    root = round_trip(&e, raw, sizeof raw);
    ck_assert(json_is_null(json_object_get(root, "puzzle")));
    ck_assert_ptr_nonnull(strstr(raw, "\"duration_ms\":0.000,"));
    json_decref(root);

    /* A very long path is cut, the line stays whole JSON. */
    char path[3000];
    memset(path, '"', sizeof path - 1);
    path[sizeof path - 1] = '\0';
    e.path = path;
    root = round_trip(&e, raw, sizeof raw);
    ck_assert_str_eq(json_string_value(json_object_get(root, "request_id")), "id-1");
    json_decref(root);
}
END_TEST

static bool is_generated(const char *id)
{
    if (strlen(id) != 16) return false;
    for (const char *p = id; *p; p++)
        if (!strchr("0123456789abcdef", *p)) return false;
    return true;
}

START_TEST(request_ids)
{
    char id[REQUEST_ID_MAX + 1], other[REQUEST_ID_MAX + 1];
    accesslog_request_id("abc-123_x.y:z~+/=", id);
    ck_assert_str_eq(id, "abc-123_x.y:z~+/=");
    /* Any character outside the set, or one too many: replaced whole, never trimmed, so that a
     * proxy's log and ours never show two different ids for one request. */
    const char *const refused[] = {"a b", "has space", "\xc3\xbcn", "abc\r\n", "x\"y", "<d>"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        accesslog_request_id(refused[i], id);
        ck_assert_msg(is_generated(id), "%s gave %s", refused[i], id);
    }
    char long_id[REQUEST_ID_MAX + 2];
    memset(long_id, 'q', sizeof long_id - 1);
    long_id[sizeof long_id - 1] = '\0'; /* 65 characters */
    accesslog_request_id(long_id, id);
    ck_assert(is_generated(id));
    long_id[REQUEST_ID_MAX] = '\0'; /* 64: kept */
    accesslog_request_id(long_id, id);
    ck_assert_str_eq(id, long_id);
    /* Nothing usable: a fresh id, different every time. */
    accesslog_request_id(NULL, id);
    accesslog_request_id("", other);
    ck_assert_msg(is_generated(id) && is_generated(other), "%s %s", id, other);
    ck_assert_str_ne(id, other);
    accesslog_request_id("<>", other);
    ck_assert(is_generated(other));
    ck_assert_str_ne(id, other);
}
END_TEST

/* ---- the batch ------------------------------------------------------------------------- */

/* An unlinked temporary file: unlike a pipe it never blocks a writer nobody reads. */
static int temp_fd(void)
{
    char path[] = "/tmp/puzzled-accesslog-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    unlink(path);
    return fd;
}

static char *read_fd(int fd)
{
    struct stat st;
    ck_assert_int_eq(fstat(fd, &st), 0);
    char *text = malloc((size_t)st.st_size + 1);
    ck_assert_ptr_nonnull(text);
    ssize_t n = pread(fd, text, (size_t)st.st_size, 0);
    ck_assert_int_eq(n, st.st_size);
    text[n] = '\0';
    return text;
}

#define WRITERS 4
#define LINES_EACH 3000 /* about 600 KB in all: many flushes by size */

static void *append_lines(void *arg)
{
    int w = (int)(intptr_t)arg;
    for (int i = 0; i < LINES_EACH; i++) {
        char id[32];
        snprintf(id, sizeof id, "w%d-%d", w, i);
        access_entry e = {.when = {1000, 0},
                          .method = "POST",
                          .path = "/solve/nine",
                          .puzzle = "nine",
                          .status = 200,
                          .bytes = 89,
                          .duration_ms = 0.5,
                          .request_id = id};
        accesslog_append(&e);
    }
    return NULL;
}

/* Checks that text is exactly the lines append_lines() writes: each one whole JSON, each id
 * once, and each writer's lines in its own order. */
static void check_lines(char *text)
{
    int next[WRITERS] = {0};
    int lines = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        json_error_t jerr;
        json_t *root = json_loads(line, 0, &jerr);
        ck_assert_msg(root != NULL, "not one JSON line (%s): %.200s", jerr.text, line);
        int w = -1, i = -1;
        const char *id = json_string_value(json_object_get(root, "request_id"));
        ck_assert_msg(id && sscanf(id, "w%d-%d", &w, &i) == 2, "id %s", id ? id : "(none)");
        ck_assert(w >= 0 && w < WRITERS);
        ck_assert_int_eq(i, next[w]); /* once each, in order */
        next[w]++;
        lines++;
        json_decref(root);
    }
    ck_assert_int_eq(lines, WRITERS * LINES_EACH);
}

START_TEST(batch_keeps_every_line_whole)
{
    int fd = temp_fd();
    ck_assert(accesslog_start(fd));
    pthread_t threads[WRITERS];
    for (int w = 0; w < WRITERS; w++)
        ck_assert_int_eq(pthread_create(&threads[w], NULL, append_lines, (void *)(intptr_t)w), 0);
    for (int w = 0; w < WRITERS; w++) pthread_join(threads[w], NULL);
    accesslog_stop();
    char *text = read_fd(fd);
    check_lines(text);
    free(text);
    close(fd);
}
END_TEST

START_TEST(batch_goes_out_by_itself)
{
    /* No flush and no stop: the flusher thread writes the line after a moment. */
    int fd = temp_fd();
    ck_assert(accesslog_start(fd));
    access_entry e = {.when = {1000, 0}, .method = "GET", .path = "/", .request_id = "alone"};
    accesslog_append(&e);
    struct stat st = {0};
    for (int waited = 0; waited < 30000 && st.st_size == 0; waited += 10) {
        struct timespec ts = {0, 10 * 1000000L};
        nanosleep(&ts, NULL);
        ck_assert_int_eq(fstat(fd, &st), 0);
    }
    char *text = read_fd(fd);
    ck_assert_ptr_nonnull(strstr(text, "\"request_id\":\"alone\"}\n"));
    free(text);
    accesslog_stop();
    close(fd);
}
END_TEST

/* ---- the server: lines just before SIGTERM ---------------------------------------------- */

#define CLIENTS 4
#define REQUESTS_EACH 25

typedef struct client {
    const harness_server *server;
    int index;
    int answered;
} client;

static void *send_requests(void *arg)
{
    client *c = arg;
    for (int i = 0; i < REQUESTS_EACH; i++) {
        char header[64];
        snprintf(header, sizeof header, "X-Request-Id: c%d-%d", c->index, i);
        const char *headers[] = {header, NULL};
        static const char nine[] =
            "{\"a\":[\"100\",\"000\",\"000\"],\"b\":[\"111\",\"111\",\"011\"]}";
        harness_response r;
        bool ok = i % 2 ? harness_request(c->server, "GET", "/healthz", NULL, NULL, 0, headers, &r)
                        : harness_request(c->server, "POST", "/solve/nine", "application/json",
                                          nine, strlen(nine), headers, &r);
        if (ok && r.status == 200) c->answered++;
        if (ok) harness_response_free(&r);
    }
    return NULL;
}

/* A 16 x 16 nine instance (B the complement of A, so every orbit holds 4 ones: solvable): its
 * improvement search keeps a worker busy for a good while. */
static char *slow_nine_body(void)
{
    enum { N = 16 };
    static char body[2 * N * (N + 3) + 32];
    size_t n = (size_t)snprintf(body, sizeof body, "{\"a\":[");
    unsigned seed = 12345;
    char a[N][N + 1];
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) {
            seed = seed * 1103515245u + 12345u;
            a[i][j] = (seed >> 16) & 1 ? '1' : '0';
        }
        a[i][N] = '\0';
        n += (size_t)snprintf(body + n, sizeof body - n, "%s\"%s\"", i ? "," : "", a[i]);
    }
    n += (size_t)snprintf(body + n, sizeof body - n, "],\"b\":[");
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) a[i][j] = a[i][j] == '1' ? '0' : '1';
        n += (size_t)snprintf(body + n, sizeof body - n, "%s\"%s\"", i ? "," : "", a[i]);
    }
    snprintf(body + n, sizeof body - n, "]}");
    return body;
}

typedef struct slow_request {
    const harness_server *server;
    long status;
} slow_request;

static void *send_slow(void *arg)
{
    slow_request *q = arg;
    const char *body = slow_nine_body();
    const char *headers[] = {"X-Request-Id: slow", NULL};
    harness_response r;
    if (harness_request(q->server, "POST", "/solve/nine", "application/json", body, strlen(body),
                        headers, &r)) {
        q->status = r.status;
        harness_response_free(&r);
    }
    return NULL;
}

/* True once /metrics shows a worker running a solver. */
static bool worker_busy(const harness_server *s)
{
    harness_response r;
    if (!harness_request(s, "GET", "/metrics", NULL, NULL, 0, NULL, &r)) return false;
    bool busy = r.body && strstr(r.body, "\npuzzled_workers_busy 0\n") == NULL;
    harness_response_free(&r);
    return busy;
}

START_TEST(lines_before_sigterm_are_in_the_log)
{
    harness_server s;
    /* The slow request must still be solving at the signal and then be answered: a budget a
     * sanitizer build solving it beside other tests does not run out of. */
    ck_assert(
        harness_start(&s, (const char *[]){"--workers", "2", "--time-limit-ms", "120000", NULL}));
    /* Many requests over several connections, answered before the signal... */
    pthread_t threads[CLIENTS];
    client clients[CLIENTS];
    for (int c = 0; c < CLIENTS; c++) {
        clients[c] = (client){&s, c, 0};
        ck_assert_int_eq(pthread_create(&threads[c], NULL, send_requests, &clients[c]), 0);
    }
    for (int c = 0; c < CLIENTS; c++) pthread_join(threads[c], NULL);
    /* The counters, bumped from several HTTP threads at once, lost nothing. */
    harness_response m;
    ck_assert(harness_request(&s, "GET", "/metrics", NULL, NULL, 0, NULL, &m));
    char want[128];
    snprintf(want, sizeof want, "\npuzzled_requests_total{puzzle=\"nine\",status=\"200\"} %d\n",
             CLIENTS * (REQUESTS_EACH + 1) / 2);
    ck_assert_msg(strstr(m.body, want) != NULL, "want %s in\n%s", want + 1, m.body);
    harness_response_free(&m);
    /* ... and one still solving when it comes, whose line is written during the drain. */
    slow_request slow = {&s, 0};
    pthread_t slow_thread;
    ck_assert_int_eq(pthread_create(&slow_thread, NULL, send_slow, &slow), 0);
    bool busy = false;
    for (int waited = 0; waited < 60000 && !busy; waited += 5) {
        busy = worker_busy(&s);
        struct timespec ts = {0, 5 * 1000000L};
        if (!busy) nanosleep(&ts, NULL);
    }
    ck_assert_int_eq(harness_stop(&s), 0); /* at once: SIGTERM, then the exit status */
    pthread_join(slow_thread, NULL);
    ck_assert_int_eq(slow.status, 200);

    char *log = harness_log(&s);
    ck_assert_ptr_nonnull(log);
    const char *stopped = strstr(log, "\"msg\":\"stopped\"");
    ck_assert_ptr_nonnull(stopped);
    const char *hit = strstr(log, "\"request_id\":\"slow\"}\n");
    ck_assert_msg(hit != NULL && hit < stopped, "the slow request's line is missing or late");
    for (int c = 0; c < CLIENTS; c++) {
        ck_assert_int_eq(clients[c].answered, REQUESTS_EACH);
        for (int i = 0; i < REQUESTS_EACH; i++) {
            char needle[64];
            snprintf(needle, sizeof needle, "\"request_id\":\"c%d-%d\"}\n", c, i);
            hit = strstr(log, needle);
            ck_assert_msg(hit != NULL, "no line for c%d-%d", c, i);
            ck_assert_msg(hit < stopped, "line for c%d-%d after \"stopped\"", c, i);
            ck_assert_msg(strstr(hit + 1, needle) == NULL, "two lines for c%d-%d", c, i);
        }
    }
    free(log);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("accesslog");
    TCase *tc = tcase_create("lines");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, timestamps_match_gmtime);
    tcase_add_test(tc, fields_and_escaping);
    tcase_add_test(tc, request_ids);
    tcase_add_test(tc, batch_keeps_every_line_whole);
    tcase_add_test(tc, batch_goes_out_by_itself);
    tcase_add_test(tc, lines_before_sigterm_are_in_the_log);
    suite_add_tcase(s, tc);
    return check_run(s);
}
