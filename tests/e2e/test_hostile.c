/* End-to-end tests of the server against hostile clients (issue 11): HTTP framing a proxy could
 * read differently, control characters and invalid UTF-8 in what is quoted back, memory bounded
 * by configuration and given back, slow and departed clients, and the contract's rules kept
 * consistently. Raw sockets where libcurl would not send the bytes. */
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <jansson.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "check_run.h"
#include "e2e/harness.h"

#define START(s, ...) ck_assert_msg(harness_start(&(s), (const char *[]){__VA_ARGS__}), "start")

/* The bound README "Memory" states: no request raises the resident memory by more than the
 * body limit plus this much, and memory returns to within RSS_SETTLE of where it was. */
#define RSS_PER_REQUEST_MIB 128
#define RSS_SETTLE_MIB 16
#define MAX_BODY (16u << 20)

/* ---- raw connections -------------------------------------------------------------------- */

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int raw_connect(const harness_server *s)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)s->port)};
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&addr, sizeof addr), 0);
    struct timeval tv = {60, 0}; /* only against a hang: the tests wait for an end */
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return fd;
}

static void send_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        ck_assert_msg(n > 0, "send: %s", strerror(errno));
        p += n;
        len -= (size_t)n;
    }
}

typedef struct raw_reply {
    char *text; /* everything the server sent, NUL-terminated */
    size_t len;
    bool closed; /* the server closed the connection (rather than the read timing out) */
    int status;
    const char *body;
} raw_reply;

/* Reads until the server closes the connection. */
static raw_reply read_to_close(int fd)
{
    raw_reply r = {0};
    size_t cap = 4096;
    r.text = malloc(cap);
    for (;;) {
        if (r.len + 1024 > cap) r.text = realloc(r.text, cap *= 2);
        ssize_t n = recv(fd, r.text + r.len, cap - r.len - 1, 0);
        if (n == 0 || (n < 0 && errno == ECONNRESET)) {
            r.closed = true;
            break;
        }
        if (n < 0) break;
        r.len += (size_t)n;
    }
    r.text[r.len] = '\0';
    if (r.len > 12 && strncmp(r.text, "HTTP/1.", 7) == 0) r.status = atoi(r.text + 9);
    char *end = strstr(r.text, "\r\n\r\n");
    r.body = end ? end + 4 : "";
    return r;
}

static raw_reply exchange(const harness_server *s, const char *request, size_t len)
{
    int fd = raw_connect(s);
    send_all(fd, request, len);
    raw_reply r = read_to_close(fd);
    close(fd);
    return r;
}

/* Like exchange, for a request the server may refuse before reading all of it: it answers and
 * closes while the rest is still being sent (a 36 KiB header past its 32 KiB), so a send that
 * fails with EPIPE or ECONNRESET ends the sending, and the answer is read all the same. */
static raw_reply exchange_refused(const harness_server *s, const char *request, size_t len)
{
    int fd = raw_connect(s);
    for (size_t sent = 0; sent < len;) {
        ssize_t n = send(fd, request + sent, len - sent, MSG_NOSIGNAL);
        if (n < 0) {
            ck_assert_msg(errno == EPIPE || errno == ECONNRESET, "send: %s", strerror(errno));
            break;
        }
        sent += (size_t)n;
    }
    raw_reply r = read_to_close(fd);
    close(fd);
    return r;
}

/* An error body: valid JSON of the contract's shape with the given code; returns the root. */
static json_t *assert_error_json(const char *body, const char *code)
{
    json_error_t jerr;
    json_t *root = json_loads(body, 0, &jerr);
    ck_assert_msg(root != NULL, "not JSON (%s): %s", jerr.text, body);
    const char *got = NULL, *message = NULL;
    ck_assert_msg(json_unpack(root, "{s:{s:s, s:s}}", "error", "code", &got, "message", &message) ==
                      0,
                  "not an error: %s", body);
    ck_assert_msg(strcmp(got, code) == 0, "code %s, want %s: %s", got, code, body);
    return root;
}

static const char *error_path(json_t *root)
{
    json_t *path = json_object_get(json_object_get(root, "error"), "path");
    return path ? json_string_value(path) : NULL;
}

static harness_response post(const harness_server *s, const char *path, const char *ctype,
                             const char *body, size_t len)
{
    harness_response r;
    ck_assert_msg(harness_request(s, "POST", path, ctype, body, len, NULL, &r), "POST %s", path);
    return r;
}

/* The server still answers after what a test did to it, and stops cleanly. */
static void healthy_then_stop(harness_server *s)
{
    harness_response h;
    ck_assert(harness_request(s, "GET", "/healthz", NULL, NULL, 0, NULL, &h));
    ck_assert_int_eq(h.status, 200);
    harness_response_free(&h);
    ck_assert_int_eq(harness_stop(s), 0);
}

/* ---- strict HTTP -------------------------------------------------------------------------- */

static const struct {
    const char *name, *request;
} bad_framing[] = {
    {"two Content-Length that differ",
     "POST /solve/nine HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
     "Content-Length: 2\r\nContent-Length: 5\r\n\r\n{}"},
    {"Transfer-Encoding with Content-Length",
     "POST /solve/nine HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
     "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"},
    {"Transfer-Encoding: gzip",
     "POST /solve/nine HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
     "Transfer-Encoding: gzip\r\n\r\n{}"},
    {"Transfer-Encoding: identity",
     "POST /solve/nine HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
     "Transfer-Encoding: identity\r\n\r\n{}"},
    {"HTTP/1.1 without Host", "GET /healthz HTTP/1.1\r\n\r\n"},
    {"two Host headers", "GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"},
    {"%00 in the path", "GET /readyz%00 HTTP/1.1\r\nHost: x\r\n\r\n"},
    {"%00 in a solve path",
     "POST /solve/nine%00anything HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
     "Content-Length: 2\r\n\r\n{}"},
    {"%0a in the path", "GET /healthz%0a HTTP/1.1\r\nHost: x\r\n\r\n"},
    {"%7f in the path", "GET /healthz%7F HTTP/1.1\r\nHost: x\r\n\r\n"},
    /* Shapes a proxy may read as other framing than this server's: refused whole. */
    {"a space before the colon of Content-Length, beside chunked",
     "POST /solve/invariant-boards HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
     "Content-Length : 5\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n4\n\r\n0\r\n\r\n"},
    {"Transfer-Encoding folded onto the next line, beside Content-Length",
     "POST /solve/invariant-boards HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
     "Content-Length: 2\r\nTransfer-Encoding:\r\n chunked\r\n\r\n4\n"},
    {"a space inside a header name", "GET /healthz HTTP/1.1\r\nHost: x\r\nX Y: 1\r\n\r\n"},
    {"a bare CR inside a header value",
     "GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\rTransfer-Encoding: chunked\r\n\r\n"},
    /* A later HTTP/1.x is served as HTTP/1.1 (RFC 9112, 2.6): Host is required as well. */
    {"HTTP/1.2 without Host", "GET /healthz HTTP/1.2\r\n\r\n"},
    /* HTTP/1.0 has no chunked coding: its framing is faulty (RFC 9112, 6.1), even kept alive. */
    {"HTTP/1.0 with Transfer-Encoding",
     "POST /solve/invariant-boards HTTP/1.0\r\nConnection: keep-alive\r\n"
     "Content-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n4\n\r\n0\r\n\r\n"
     "GET /readyz HTTP/1.0\r\n\r\n"},
};

/* Each is 400 invalid_request in JSON, and the connection is closed (not kept for the next
 * request, and not left hanging until a timeout). */
START_TEST(bad_framing_is_400_and_close)
{
    harness_server s;
    START(s, NULL);
    for (size_t i = 0; i < sizeof bad_framing / sizeof bad_framing[0]; i++) {
        raw_reply r = exchange(&s, bad_framing[i].request, strlen(bad_framing[i].request));
        ck_assert_msg(r.closed, "%s: the connection stayed open", bad_framing[i].name);
        ck_assert_msg(r.status == 400, "%s: %s", bad_framing[i].name, r.text);
        ck_assert_ptr_nonnull(strstr(r.text, "Connection: close"));
        json_decref(assert_error_json(r.body, "invalid_request"));
        free(r.text);
    }
    /* HTTP/1.0 needs no Host; the same value twice is one length; control characters encoded
     * in the query are no concern of the path (no route reads the query); a target in absolute
     * form is its path (RFC 9112, section 3.2.2). */
    const char *fine[] = {
        "GET /healthz HTTP/1.0\r\n\r\n",
        "POST /solve/invariant-boards HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        "Content-Type: text/plain\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n4\n",
        "GET /healthz?note=line1%0Aline2&x=%00%7f HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET http://x/healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "POST HTTPS://x:8080/solve/invariant-boards?q HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        "Content-Type: text/plain\r\nContent-Length: 2\r\n\r\n4\n",
    };
    for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++) {
        raw_reply r = exchange(&s, fine[i], strlen(fine[i]));
        ck_assert_msg(r.status == 200, "%s", r.text);
        free(r.text);
    }
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

/* Requests libmicrohttpd refuses itself, before the server's callbacks run. Its bodies are
 * HTML; server/mhd_errors.c turns them into the contract's JSON. Each answer is checked for
 * libmicrohttpd's status, a JSON Content-Type, the code, a closed connection, and (the server
 * allows every origin by default) Access-Control-Allow-Origin, so a page can read it. */
START_TEST(library_refusals_are_json)
{
    harness_server s;
    START(s, "--max-body", "1048576", NULL);
    static const char post_chunked[] = "POST /solve/nine HTTP/1.1\r\nHost: x\r\n"
                                       "Content-Type: application/json\r\n"
                                       "Transfer-Encoding: chunked\r\n\r\n";
    static const char post_length[] = "POST /solve/nine HTTP/1.1\r\nHost: x\r\n"
                                      "Content-Type: application/json\r\nContent-Length: ";
    char long_path[40 * 1024], long_header[40 * 1024];
    snprintf(long_path, sizeof long_path, "GET /%0*d HTTP/1.1\r\nHost: x\r\n\r\n", 36000, 0);
    snprintf(long_header, sizeof long_header,
             "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: %0*d\r\n\r\n", 36000, 0);
    char chunk_bad[256], chunk_huge[256], length_huge[256], length_bad[256];
    snprintf(chunk_bad, sizeof chunk_bad, "%szz\r\n{}\r\n0\r\n\r\n", post_chunked);
    snprintf(chunk_huge, sizeof chunk_huge, "%sfffffffffffffffffffff\r\n", post_chunked);
    snprintf(length_huge, sizeof length_huge, "%s99999999999999999999999\r\n\r\n", post_length);
    snprintf(length_bad, sizeof length_bad, "%s12a\r\n\r\n{}", post_length);
    const struct {
        const char *name, *request, *code;
        int status;
    } cases[] = {
        {"HTTP/2.0", "GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n", "http_version_not_supported", 505},
        {"HTTP/0.9", "GET /healthz HTTP/0.9\r\n\r\n", "http_version_not_supported", 505},
        {"a header line without a colon", "GET /healthz HTTP/1.1\r\nHost: x\r\nno colon\r\n\r\n",
         "invalid_request", 400},
        {"a chunk size that is not hexadecimal", chunk_bad, "invalid_request", 400},
        {"a chunk size past 64 bits", chunk_huge, "body_too_large", 413},
        {"a Content-Length past 64 bits", length_huge, "body_too_large", 413},
        {"a Content-Length that is not a number", length_bad, "invalid_request", 400},
        {"a 36 000-byte path", long_path, "headers_too_large", 414},
        {"a 36 000-byte header", long_header, "headers_too_large", 431},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        raw_reply r = exchange_refused(&s, cases[i].request, strlen(cases[i].request));
        ck_assert_msg(r.closed, "%s: the connection stayed open", cases[i].name);
        ck_assert_msg(r.status == cases[i].status, "%s: want %d: %s", cases[i].name,
                      cases[i].status, r.text);
        ck_assert_msg(strstr(r.text, "\r\nContent-Type: application/json\r\n") != NULL, "%s: %s",
                      cases[i].name, r.text);
        ck_assert_msg(strstr(r.text, "\r\nAccess-Control-Allow-Origin: *\r\n") != NULL, "%s: %s",
                      cases[i].name, r.text);
        /* Every answer has a request id: a new one, 16 hex digits, as the library does not say
         * whose request it refused. */
        const char *id = strstr(r.text, "\r\nX-Request-Id: ");
        ck_assert_msg(id && strspn(id + 16, "0123456789abcdef") == 16 && id[32] == '\r', "%s: %s",
                      cases[i].name, r.text);
        /* libmicrohttpd 0.9.75 writes the status line and headers twice before the body when
         * it refuses a Content-Length (its state machine builds them again after its own error
         * answer; see openapi.yaml): the body is what follows the last header block. */
        const char *body = r.body;
        for (const char *next; (next = strstr(body, "\r\n\r\n")) != NULL;) body = next + 4;
        json_t *root = assert_error_json(body, cases[i].code);
        const char *message =
            json_string_value(json_object_get(json_object_get(root, "error"), "message"));
        ck_assert_msg(strlen(message) > 20 && !strchr(message, '<'), "%s: %s", cases[i].name,
                      message);
        /* A body too large names the limit: this server's --max-body. */
        if (cases[i].status == 413)
            ck_assert_msg(strstr(message, "1048576 bytes") != NULL, "%s: %s", cases[i].name,
                          message);
        json_decref(root);
        free(r.text);
    }
    healthy_then_stop(&s);
}
END_TEST

/* With an allow-list, the library's refusals cannot tell whose request they answer: no
 * Access-Control-Allow-Origin (an allowed page then sees a network error, as openapi.yaml says),
 * but Vary: Origin as on every answer of such a server. */
START_TEST(library_refusals_with_an_allow_list)
{
    harness_server s;
    START(s, "--cors-origins", "https://a.example", NULL);
    static const char request[] =
        "GET /healthz HTTP/2.0\r\nHost: x\r\nOrigin: https://a.example\r\n\r\n";
    raw_reply r = exchange_refused(&s, request, strlen(request));
    ck_assert_msg(r.status == 505, "%s", r.text);
    ck_assert_msg(strstr(r.text, "Access-Control-Allow-Origin") == NULL, "%s", r.text);
    ck_assert_msg(strstr(r.text, "\r\nVary: Origin\r\n") != NULL, "%s", r.text);
    free(r.text);
    healthy_then_stop(&s);
}
END_TEST

/* Request bytes quoted back (a path, a text token, a JSON key) that are not valid UTF-8 are
 * escaped, never turned into an internal error; a cut never splits a character; every access
 * log line stays JSON. */
START_TEST(invalid_utf8_is_quoted_safely)
{
    harness_server s;
    START(s, NULL);
    const char *get_ff = "GET /%ff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    raw_reply r = exchange(&s, get_ff, strlen(get_ff));
    ck_assert_int_eq(r.status, 404);
    json_t *root = assert_error_json(r.body, "not_found");
    const char *message =
        json_string_value(json_object_get(json_object_get(root, "error"), "message"));
    ck_assert_ptr_nonnull(strstr(message, "\\xff"));
    json_decref(root);
    free(r.text);

    /* A method and a raw path with bytes that are not UTF-8. */
    const char *raw[] = {"G\xffT / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                         "GET /\xc3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"};
    for (int i = 0; i < 2; i++) {
        r = exchange(&s, raw[i], strlen(raw[i]));
        ck_assert_msg(r.status == 405 || r.status == 404, "%s", r.text);
        json_decref(
            assert_error_json(r.body, r.status == 405 ? "method_not_allowed" : "not_found"));
        free(r.text);
    }

    harness_response h = post(&s, "/solve/invariant-boards", "text/plain", "\xff\n", 2);
    ck_assert_int_eq(h.status, 400);
    json_decref(assert_error_json(h.body, "malformed_text"));
    harness_response_free(&h);

    /* A key of 59 'a' and an 'é' (2 bytes): the message quotes 60 bytes of it at most. */
    char key_body[128];
    snprintf(key_body, sizeof key_body, "{\"%s\xc3\xa9\":1}",
             "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    h = post(&s, "/solve/nine", "application/json", key_body, strlen(key_body));
    ck_assert_int_eq(h.status, 400);
    root = assert_error_json(h.body, "invalid_request");
    const char *path = error_path(root);
    ck_assert_ptr_nonnull(path); /* not dropped */
    ck_assert_ptr_nonnull(strstr(path, "\xc3\xa9"));
    json_decref(root);
    harness_response_free(&h);

    const char *bad_escape = "{\"a\\ud800\":1}";
    h = post(&s, "/solve/nine", "application/json", bad_escape, strlen(bad_escape));
    ck_assert_int_eq(h.status, 400);
    json_decref(assert_error_json(h.body, "malformed_json"));
    harness_response_free(&h);

    /* A text token cut at 40 bytes inside a character. */
    char token[128] = "1\n\n";
    for (int i = 0; i < 13; i++) strcat(token, "\xe2\x82\xac"); /* 39 bytes of euro signs */
    strcat(token, "\xe2\x82\xac 1\n1\n");
    h = post(&s, "/solve/rubiks-rectangle", "text/plain", token, strlen(token));
    ck_assert_int_eq(h.status, 400);
    json_decref(assert_error_json(h.body, "malformed_text"));
    harness_response_free(&h);

    ck_assert_int_eq(harness_stop(&s), 0);
    char *log = harness_log(&s);
    int lines = 0;
    for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n"), lines++) {
        json_error_t jerr;
        json_t *entry = json_loads(line, 0, &jerr);
        ck_assert_msg(entry != NULL, "log line is not JSON (%s): %s", jerr.text, line);
        json_decref(entry);
    }
    ck_assert_int_ge(lines, 8);
    free(log);
}
END_TEST

/* ---- the contract's rules, kept consistently ------------------------------------------- */

START_TEST(contract_consistency)
{
    harness_server s;
    START(s, NULL);
    /* /solve/{puzzle} has one segment: anything longer is no route, whatever the method. */
    harness_response h;
    ck_assert(harness_request(&s, "GET", "/solve/nine/extra", NULL, NULL, 0, NULL, &h));
    ck_assert_int_eq(h.status, 404);
    json_decref(assert_error_json(h.body, "not_found"));
    harness_response_free(&h);
    h = post(&s, "/solve/nine/extra", "application/json", "{}", 2);
    ck_assert_int_eq(h.status, 404);
    json_decref(assert_error_json(h.body, "not_found"));
    harness_response_free(&h);

    /* A body that is not an object: path "" (the whole body). */
    h = post(&s, "/solve/nine", "application/json", "[1]", 3);
    ck_assert_int_eq(h.status, 400);
    json_t *root = assert_error_json(h.body, "invalid_request");
    ck_assert_ptr_nonnull(error_path(root));
    ck_assert_str_eq(error_path(root), "");
    json_decref(root);
    harness_response_free(&h);

    /* Integral numbers in any notation are integers: 4.0 and 1e1 as max_moves (the sample's
     * shortest answer has 5 moves, so 4.0 is refused by the solver and 1e1 allows it). */
    const char *four = "{\"a\":[\"100\",\"000\",\"000\"],\"b\":[\"111\",\"111\",\"011\"],"
                       "\"max_moves\":4.0}";
    h = post(&s, "/solve/nine", "application/json", four, strlen(four));
    ck_assert_msg(h.status == 200 && strstr(h.body, "\"solvable\":false"), "%s", h.body);
    harness_response_free(&h);
    const char *ten = "{\"a\":[\"100\",\"000\",\"000\"],\"b\":[\"111\",\"111\",\"011\"],"
                      "\"max_moves\":1e1}";
    h = post(&s, "/solve/nine", "application/json", ten, strlen(ten));
    ck_assert_msg(h.status == 200 && strstr(h.body, "\"move_count\":5"), "%s", h.body);
    harness_response_free(&h);
    const char *half = "{\"a\":[\"100\",\"000\",\"000\"],\"b\":[\"111\",\"111\",\"011\"],"
                       "\"max_moves\":4.5}";
    h = post(&s, "/solve/nine", "application/json", half, strlen(half));
    ck_assert_int_eq(h.status, 400);
    harness_response_free(&h);

    /* A cell of 0 makes no permutation of 1..H*W: 422 (openapi.yaml), as in the text format. */
    h = post(&s, "/solve/rubiks-rectangle", "application/json", "{\"board\":[[0,1]]}", 17);
    ck_assert_int_eq(h.status, 422);
    root = assert_error_json(h.body, "invalid_board");
    ck_assert_str_eq(error_path(root), "/board/0/0");
    json_decref(root);
    harness_response_free(&h);

    /* Out-of-range integers in text bodies: 422 for every puzzle, however many digits. */
    static const struct {
        const char *puzzle, *body;
    } ranges[] = {
        {"rubiks-rectangle", "1\n99999999999999999999 1\n1\n"},
        {"rubiks-rectangle", "1\n2 1\n1 99999999999999999999\n"},
        {"rubiks-rectangle", "100001\n"},
        {"mayan", "99999999999999999999\n"},
        {"mayan", "3\n1 0\n0\n0\n0\n99999999999999999999 0\n"},
        {"invariant-boards", "99999999999999999999\n"},
        {"maze-tac-toe", "99999999999999999999\n"},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        char path[64];
        snprintf(path, sizeof path, "/solve/%s", ranges[i].puzzle);
        h = post(&s, path, "text/plain", ranges[i].body, strlen(ranges[i].body));
        ck_assert_msg(h.status == 422, "%s %s: %s", ranges[i].puzzle, ranges[i].body, h.body);
        json_decref(assert_error_json(h.body, "invalid_board"));
        harness_response_free(&h);
    }
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

/* ---- memory --------------------------------------------------------------------------------- */

/* VmRSS and VmHWM of the server in MiB. */
static void server_memory(const harness_server *s, long *rss, long *hwm)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/status", (int)s->pid);
    char *status = harness_read_file(path, NULL);
    ck_assert_ptr_nonnull(status);
    char *p = strstr(status, "VmRSS:");
    ck_assert_ptr_nonnull(p);
    *rss = atol(p + 6) / 1024;
    p = strstr(status, "VmHWM:");
    ck_assert_ptr_nonnull(p);
    *hwm = atol(p + 6) / 1024;
    free(status);
}

/* Resets VmHWM to the current RSS (Linux clear_refs "5"). */
static void reset_peak(const harness_server *s)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/clear_refs", (int)s->pid);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("5", f);
    fclose(f);
}

/* Sanitizer and valgrind builds use memory their own way: the bound is about the release
 * binary. */
static bool rss_meaningful(const harness_server *s)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    (void)s;
    return false;
#else
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/comm", (int)s->pid);
    char *comm = harness_read_file(path, NULL);
    bool ours = comm && strncmp(comm, "puzzled", 7) == 0;
    free(comm);
    return ours && !getenv("PUZZLED_TEST_NO_RSS");
#endif
}

/* A body of `len` bytes: head, then item repeated, then tail. */
static char *repeated(const char *head, const char *item, const char *tail, size_t len)
{
    char *body = malloc(len + 1);
    size_t h = strlen(head), it = strlen(item), t = strlen(tail), n = h;
    memcpy(body, head, h);
    while (n + it + t <= len) {
        memcpy(body + n, item, it);
        n += it;
    }
    memcpy(body + n, tail, t);
    n += t;
    body[n] = '\0';
    return body;
}

/* The hostile shapes of issue 11 and the largest valid ones, with the default flags: each
 * answered as the contract says, none raises the resident memory by more than the documented
 * bound, and memory returns near its level before. */
START_TEST(memory_bounded_per_request)
{
    harness_server s;
    START(s, NULL);
    bool measure = rss_meaningful(&s);
    /* The last items of each big body are trimmed so the bodies stay under 16 MiB. */
    struct {
        const char *puzzle, *ctype;
        char *body;
        int status;
    } cases[] = {
        {"nine", "application/json", repeated("{\"a\":[", "{},", "{}]}", MAX_BODY - 16), 413},
        {"rubiks-rectangle", "application/json",
         repeated("{\"board\":[", "{},", "{}]}", MAX_BODY - 16), 413},
        {"rubiks-rectangle", "application/json",
         repeated("{\"board\":[[", "1,", "1]]}", MAX_BODY - 16), 413},
        {"rubiks-rectangle", "application/json",
         repeated("{\"board\":[[", "\"aaaaaaaaaaaaa\",", "1]]}", 16032015), 400},
        {"nine", "application/json", repeated("{\"a\":[\"", "0", "\"]}", MAX_BODY - 16), 400},
        {"rubiks-rectangle", "text/plain", repeated("100000\n", "2 1\n2 1\n", "", 800007), 200},
        {"rubiks-rectangle", "text/plain", repeated("1000000\n", "2 1\n2 1\n", "", 8000008),
         422}, /* past 100 000 instances */
        {"invariant-boards", "application/json", strdup("{\"n\":1939,\"boards\":true}"), 422},
        {"mayan", "application/json", strdup(harness_slow_mayan), 422},
    };
    long idle, hwm;
    server_memory(&s, &idle, &hwm);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        long before;
        server_memory(&s, &before, &hwm);
        reset_peak(&s);
        char path[64];
        snprintf(path, sizeof path, "/solve/%s", cases[i].puzzle);
        harness_response h = post(&s, path, cases[i].ctype, cases[i].body, strlen(cases[i].body));
        ck_assert_msg(h.status == cases[i].status, "case %zu: status %ld: %.300s", i, h.status,
                      h.body);
        harness_response_free(&h);
        if (!measure) continue;
        long rss, peak;
        server_memory(&s, &rss, &peak);
        ck_assert_msg(peak - before <= (long)(MAX_BODY >> 20) + RSS_PER_REQUEST_MIB,
                      "case %zu raised the RSS by %ld MiB", i, peak - before);
        /* Given back on the watch thread's next tick (100 ms): wait up to 5 s. */
        for (int wait = 0; wait < 50 && rss > idle + RSS_SETTLE_MIB; wait++) {
            sleep_ms(100);
            server_memory(&s, &rss, &peak);
        }
        ck_assert_msg(rss <= idle + RSS_SETTLE_MIB, "case %zu left %ld MiB (idle %ld MiB)", i, rss,
                      idle);
        free(cases[i].body);
        cases[i].body = NULL;
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) free(cases[i].body);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

static long readyz_status(const harness_server *s)
{
    harness_response h;
    ck_assert(harness_request(s, "GET", "/readyz", NULL, NULL, 0, NULL, &h));
    long status = h.status;
    harness_response_free(&h);
    return status;
}

/* Past the total of bodies held, new uploads get 503 + Retry-After before their body is read,
 * and /readyz says overloaded; once the held body goes, uploads are taken again. A body holds
 * what has arrived of it (here 90 000 of 100 000 bytes: its buffer is the whole 100 001). */
START_TEST(bodies_in_flight_capped)
{
    harness_server s;
    START(s, "--max-body", "100000", "--body-memory", "102000", NULL);
    int held = raw_connect(&s);
    const char *head = "POST /solve/nine HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                       "Content-Length: 100000\r\n\r\n";
    send_all(held, head, strlen(head));
    char *part = malloc(90000);
    memset(part, ' ', 90000);
    send_all(held, part, 90000);
    free(part);
    long ready = 200;
    for (int i = 0; i < 100 && ready == 200; i++) { /* until the server has read the 90 000 */
        ready = readyz_status(&s);
        if (ready == 200) sleep_ms(20);
    }
    ck_assert_int_eq(ready, 503);
    const char *second =
        "POST /solve/nine HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Content-Length: 100000\r\n\r\n";
    raw_reply r = exchange(&s, second, strlen(second));
    ck_assert_msg(r.status == 503, "%s", r.text);
    ck_assert_ptr_nonnull(strstr(r.text, "Retry-After: 1"));
    json_decref(assert_error_json(r.body, "overloaded"));
    free(r.text);
    close(held);
    /* The server notices the closed upload and releases its share. */
    long status = 0;
    for (int i = 0; i < 100 && status != 200; i++) {
        harness_response h = post(&s, "/solve/invariant-boards", "text/plain", "4\n", 2);
        status = h.status;
        harness_response_free(&h);
        if (status != 200) sleep_ms(50);
    }
    ck_assert_int_eq(status, 200);
    ck_assert_int_eq(readyz_status(&s), 200);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

/* Announcing a body holds only its first buffer until bytes arrive: 30 connections that each
 * promise the largest body and send nothing (30 x 100 000 bytes, twenty times --body-memory)
 * are all kept waiting for their bodies, leave room for everyone else, and the server stays
 * ready. */
START_TEST(promised_bodies_do_not_fill_body_memory)
{
    harness_server s;
    START(s, "--max-body", "100000", "--body-memory", "150000", NULL);
    enum { IDLE = 30 };
    int fds[IDLE];
    const char *head = "POST /solve/nine HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                       "Content-Length: 100000\r\n\r\n";
    for (int i = 0; i < IDLE; i++) {
        fds[i] = raw_connect(&s);
        send_all(fds[i], head, strlen(head));
    }
    sleep_ms(300);                   /* every header is in */
    for (int i = 0; i < IDLE; i++) { /* none refused: each still waits for its body */
        char byte;
        ck_assert_msg(recv(fds[i], &byte, 1, MSG_DONTWAIT) < 0 && errno == EAGAIN,
                      "connection %d got an answer", i);
    }
    harness_response h = post(&s, "/solve/invariant-boards", "text/plain", "4\n", 2);
    ck_assert_msg(h.status == 200, "%ld %s", h.status, h.body);
    harness_response_free(&h);
    ck_assert_int_eq(readyz_status(&s), 200);
    for (int i = 0; i < IDLE; i++) close(fds[i]);
    healthy_then_stop(&s);
}
END_TEST

/* ---- slow and departed clients -------------------------------------------------------------- */

/* A request must arrive whole within the deadline however steadily its bytes trickle: the
 * server closes the connection (libmicrohttpd's own timeout, 75 s, is reset by every byte).
 * On a new connection that includes the request line itself. */
START_TEST(request_deadline_closes_slow_clients)
{
    harness_server s;
    START(s, "--request-timeout-ms", "300", NULL);
    const char *starts[] = {
        "GET /healthz",                                 /* the request line */
        "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ", /* headers */
        ("POST /solve/nine HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
         "Content-Length: 100000\r\n\r\n{\"a\":"), /* body */
    };
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++) {
        int fd = raw_connect(&s);
        send_all(fd, starts[i], strlen(starts[i]));
        bool closed = false;
        /* One byte every 50 ms for up to 30 s (far below 75 s): the server must close. */
        for (int k = 0; k < 600 && !closed; k++) {
            sleep_ms(50);
            closed = send(fd, " ", 1, MSG_NOSIGNAL) < 0;
            char byte;
            if (!closed) closed = recv(fd, &byte, 1, MSG_DONTWAIT) == 0;
        }
        ck_assert_msg(closed, "case %zu: a trickling request was kept", i);
        close(fd);
    }
    healthy_then_stop(&s);
}
END_TEST

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The first request's deadline counts from the connection: a request line trickled for most of
 * it does not start a second one for the headers. */
START_TEST(first_request_deadline_counts_from_the_connection)
{
    harness_server s;
    START(s, "--request-timeout-ms", "1000", NULL);
    const char *line = "GET /healthz HTTP/1.1\r\n";
    double start = seconds_now();
    int fd = raw_connect(&s);
    for (size_t i = 0; line[i]; i++) { /* 23 bytes over about 0.95 s */
        send_all(fd, line + i, 1);
        sleep_ms(950 / (int)strlen(line));
    }
    bool closed = false;
    while (!closed && seconds_now() - start < 5) {
        closed = send(fd, "X", 1, MSG_NOSIGNAL) < 0;
        char byte;
        if (!closed) closed = recv(fd, &byte, 1, MSG_DONTWAIT) == 0;
        if (!closed) sleep_ms(20);
    }
    double took = seconds_now() - start;
    /* About 1.0 s; the old clock closed at 1.95 s (0.95 + 1.0). */
    ck_assert_msg(closed && took < 1.8, "closed %d after %.2f s", closed, took);
    close(fd);
    healthy_then_stop(&s);
}
END_TEST

/* A client that leaves while its job runs cancels the job: with a 10-minute budget and one
 * worker, the next request is answered (it would otherwise wait the 10 minutes, past the
 * client's timeout). Twice, to show the worker is free each time. */
START_TEST(departed_client_cancels_job)
{
    harness_server s;
    START(s, "--workers", "1", "--time-limit-ms", "600000", NULL);
    for (int round = 0; round < 2; round++) {
        int fd = raw_connect(&s);
        char head[256];
        int n = snprintf(head, sizeof head,
                         "POST /solve/mayan HTTP/1.1\r\nHost: x\r\nContent-Type: "
                         "application/json\r\nContent-Length: %zu\r\n\r\n",
                         strlen(harness_slow_mayan));
        send_all(fd, head, (size_t)n);
        send_all(fd, harness_slow_mayan, strlen(harness_slow_mayan));
        ck_assert(harness_wait_metric(&s, "puzzled_workers_busy", 1)); /* the job has started */
        close(fd);
        harness_response h = post(&s, "/solve/invariant-boards", "text/plain", "4\n", 2);
        ck_assert_msg(h.status == 200, "round %d: %ld %s", round, h.status, h.body);
        ck_assert_str_eq(h.body, "5\n");
        harness_response_free(&h);
    }
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

/* SIGTERM does not wait the grace period for a stalled upload (it is closed at its deadline)
 * nor for a client that closed right after its last byte. */
START_TEST(sigterm_not_held_by_gone_clients)
{
    harness_server s;
    START(s, "--request-timeout-ms", "500", "--grace-ms", "600000", NULL);
    int stalled = raw_connect(&s);
    const char *head = "POST /solve/nine HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                       "Content-Length: 1000\r\n\r\n{";
    send_all(stalled, head, strlen(head));
    char *body = repeated("{\"a\":[\"1\"],\"b\":[\"1\"]", " ", "}", 4u << 20);
    for (int i = 0; i < 4; i++) {
        int fd = raw_connect(&s);
        char h[256];
        int n = snprintf(h, sizeof h,
                         "POST /solve/nine HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                         "\r\nContent-Length: %zu\r\n\r\n",
                         strlen(body));
        send_all(fd, h, (size_t)n);
        send_all(fd, body, strlen(body));
        close(fd);
    }
    free(body);
    /* Exits 0 well within the harness's 120 s (the grace is 10 minutes). */
    ck_assert_int_eq(harness_stop(&s), 0);
    close(stalled);
}
END_TEST

/* One client address may hold at most --per-ip-connections; the file limit is raised to its
 * hard limit at start. */
START_TEST(per_client_limit_and_file_limit)
{
    harness_server s;
    START(s, "--per-ip-connections", "2", NULL);
    /* Two kept-alive connections, each shown to be served ... */
    int kept[2];
    const char *ping = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
    for (int i = 0; i < 2; i++) {
        /* The harness's own start-up probe may still count for a moment after it closed: a
         * refused connection is retried until the server has seen that close. */
        bool served = false;
        for (int attempt = 0; attempt < 50 && !served; attempt++) {
            if (attempt) nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL);
            kept[i] = raw_connect(&s);
            send_all(kept[i], ping, strlen(ping));
            char buf[512];
            ssize_t n = recv(kept[i], buf, sizeof buf - 1, 0);
            served = n > 12 && strncmp(buf, "HTTP/1.1 200", 12) == 0;
            if (!served) close(kept[i]);
        }
        ck_assert_msg(served, "connection %d was never served", i);
    }
    /* ... then a third from the same address is accepted by the kernel and closed by the
     * server without an answer. */
    int c = raw_connect(&s);
    send_all(c, ping, strlen(ping));
    raw_reply r = read_to_close(c);
    char *err = harness_stderr(&s);
    ck_assert_msg(r.closed && r.len == 0, "the third connection was served: %s; stderr: %s", r.text,
                  err);
    free(err);
    free(r.text);
    close(c);
    close(kept[0]);
    close(kept[1]);

    char path[64];
    snprintf(path, sizeof path, "/proc/%d/limits", (int)s.pid);
    char *limits = harness_read_file(path, NULL);
    ck_assert_ptr_nonnull(limits);
    char *line = strstr(limits, "Max open files");
    ck_assert_ptr_nonnull(line);
    char soft[32], hard[32];
    ck_assert_int_eq(sscanf(line + 14, "%31s %31s", soft, hard), 2);
    ck_assert_str_eq(soft, hard);
    free(limits);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

Suite *hostile_suite(void);

Suite *hostile_suite(void)
{
    Suite *s = suite_create("hostile");
    TCase *http = tcase_create("http");
    tcase_set_timeout(http, 600);
    tcase_add_test(http, bad_framing_is_400_and_close);
    tcase_add_test(http, library_refusals_are_json);
    tcase_add_test(http, library_refusals_with_an_allow_list);
    tcase_add_test(http, invalid_utf8_is_quoted_safely);
    tcase_add_test(http, contract_consistency);
    suite_add_tcase(s, http);
    TCase *memory = tcase_create("memory");
    tcase_set_timeout(memory, 600);
    tcase_add_test(memory, memory_bounded_per_request);
    tcase_add_test(memory, bodies_in_flight_capped);
    tcase_add_test(memory, promised_bodies_do_not_fill_body_memory);
    suite_add_tcase(s, memory);
    TCase *clients = tcase_create("clients");
    tcase_set_timeout(clients, 600);
    tcase_add_test(clients, request_deadline_closes_slow_clients);
    tcase_add_test(clients, first_request_deadline_counts_from_the_connection);
    tcase_add_test(clients, departed_client_cancels_job);
    tcase_add_test(clients, sigterm_not_held_by_gone_clients);
    tcase_add_test(clients, per_client_limit_and_file_limit);
    suite_add_tcase(s, clients);
    return s;
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    return check_run(hostile_suite());
}
