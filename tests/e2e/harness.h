/* End-to-end test harness: runs the real puzzled binary on an ephemeral port and talks HTTP to
 * it with libcurl. A test (libcheck forks every test, so start the server inside it):
 */
// clang-format off
//     harness_server s;
//     ck_assert(harness_start(&s, (const char *[]){"--workers", "1", NULL})); /* or NULL */
//     harness_response r;
//     ck_assert(harness_request(&s, "POST", "/solve/nine", "application/json",
//                               body, strlen(body), NULL, &r));
//     ck_assert_int_eq(r.status, 200);   /* r.body is NUL-terminated */
//     harness_response_free(&r);
//     ck_assert_int_eq(harness_stop(&s), 0);   /* SIGTERM, then the exit status */
// clang-format on
/*
 * A server whose test dies is killed with it (PR_SET_PDEATHSIG and an atexit hook), so no test
 * leaves an orphan. harness_request and the log readers are safe to call from several threads
 * at once (for concurrent requests); start and stop are not. */
/* PUZZLED_TEST_WRAPPER in the environment (words split at spaces, no quoting) runs the server
 * under that command, e.g. "valgrind --error-exitcode=99 --leak-check=full": harness_start and
 * harness_run put it before the binary and allow for its slowness; the wrapper's own exit status
 * (99: valgrind found an error or leak) is what harness_stop and harness_run return, so a test
 * that expects 0 fails. .ci/stages/70-valgrind runs the e2e tests this way. */
#ifndef PUZZLED_E2E_HARNESS_H
#define PUZZLED_E2E_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct harness_server {
    pid_t pid;
    int port;
    int log_fd;    /* the server's standard output (listening line, access log): an unlinked
                      temporary file, so nothing is left behind however the test ends */
    int stderr_fd; /* its standard error, the same way */
} harness_server;

typedef struct harness_response {
    long status;   /* HTTP status; 0 when the request failed at the transport level */
    char *headers; /* raw response headers, "Name: value\r\n" lines, NUL-terminated */
    char *body;    /* NUL-terminated (the terminator is not counted in body_len) */
    size_t body_len;
} harness_response;

/* Starts PUZZLED_BINARY --port 0 --bind 127.0.0.1 followed by extra_args (a NULL-terminated
 * list, or NULL), reads the port from the listening line and waits until GET /healthz answers.
 * The environment is inherited: setenv() before starting to test PUZZLED_* variables. */
bool harness_start(harness_server *s, const char *const *extra_args);

/* Sends one request on a fresh connection. content_type and body may be NULL; headers is a
 * NULL-terminated list of "Name: value" strings, or NULL. true when an HTTP answer came. */
bool harness_request(const harness_server *s, const char *method, const char *path,
                     const char *content_type, const char *body, size_t body_len,
                     const char *const *headers, harness_response *out);
/* The same, but the body goes out with Transfer-Encoding: chunked (no Content-Length). */
bool harness_request_chunked(const harness_server *s, const char *method, const char *path,
                             const char *content_type, const char *body, size_t body_len,
                             const char *const *headers, harness_response *out);

/* The value of a response header (case-insensitive name) copied into buf, or NULL. */
const char *harness_header(const harness_response *r, const char *name, char *buf, size_t cap);
void harness_response_free(harness_response *r);

/* The value of one sample line ("name{labels} value") of a /metrics text, or -1. */
double harness_metric(const char *metrics_text, const char *sample);
/* Polls GET /metrics until the sample has the value wanted (false after 120 s). */
bool harness_wait_metric(const harness_server *s, const char *sample, double want);

/* Everything the server has written to standard output / standard error so far (malloc'd,
 * NUL-terminated). Still readable after harness_stop(). */
char *harness_log(const harness_server *s);
char *harness_stderr(const harness_server *s);
/* Waits (up to 120 s: a solve in the sanitizer build is slow) until standard output holds a line
 * containing needle; returns that line (malloc'd), or NULL. */
char *harness_wait_log_line(const harness_server *s, const char *needle);

/* Starts another program (argv[0] a path; e.g. a proxy in front of servers) the same way: its
 * output in s's log files, killed with the test. It must listen on 127.0.0.1:port; returns once
 * a TCP connection there succeeds (false when it exits or does not listen within 30 s). Then
 * harness_request, harness_log, harness_stop and harness_kill work on it as on a server. */
bool harness_start_program(harness_server *s, const char *const *argv, int port);
/* A TCP port on 127.0.0.1 that was free a moment ago (0 on error), for a program that cannot
 * listen on port 0 and report it. */
int harness_free_port(void);

/* SIGTERM, then waits: the exit status (0..255), 128 + signal when killed, -1 on error. */
int harness_stop(harness_server *s);
/* SIGKILL and reap, for teardown; harmless when already stopped. */
void harness_kill(harness_server *s);

/* Runs PUZZLED_BINARY with args (NULL-terminated; no --port/--bind added) to completion with a
 * 10 s limit; returns the exit status and, when err is not NULL, its standard error
 * (malloc'd). */
int harness_run(const char *const *args, char **err);

/* A solve request that runs until its time budget on any machine (422 time_limit, or until
 * cancelled): see harness.c. */
extern const char harness_slow_mayan[];

/* A whole file read into memory (malloc'd, NUL-terminated), or NULL. */
char *harness_read_file(const char *path, size_t *len);
/* The same for a file of the source tree, named from the repository root ("openapi.yaml"). */
char *harness_source_file(const char *relative, size_t *len);

#endif
