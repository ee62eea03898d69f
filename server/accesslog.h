/* Structured lines on standard output: one JSON object per line.
 *
 * The access log is batched: a request's line is appended to a shared buffer (one short
 * critical section, no system call) and the buffer goes out with one write() when it holds
 * ACCESSLOG_FLUSH_BYTES, or ACCESSLOG_FLUSH_MS after its first line at the latest (a flusher
 * thread), and whenever accesslog_flush() or accesslog_stop() is called: the server flushes when
 * it starts draining (so the lines before SIGTERM precede the "draining" line) and after the
 * last request completes, and an exit() flushes too. Lines are never split across writes, so
 * they never interleave with other writers of the same descriptor. What can be lost is at most
 * ACCESSLOG_FLUSH_MS of lines on a crash or SIGKILL. */
#ifndef PUZZLED_ACCESSLOG_H
#define PUZZLED_ACCESSLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define REQUEST_ID_MAX 64

typedef struct access_entry {
    struct timespec when; /* CLOCK_REALTIME at the request's arrival */
    const char *method;
    const char *path;
    const char *puzzle; /* NULL outside /solve/{puzzle} */
    int status;         /* 0 when no response was sent (the client left first) */
    uint64_t bytes;     /* body bytes handed to the connection */
    double duration_ms;
    const char *request_id;
} access_entry;

#define ACCESSLOG_LINE_MAX 1024 /* a line is cut (still valid JSON) to fit */
#define ACCESSLOG_FLUSH_BYTES 16384
#define ACCESSLOG_FLUSH_MS 50

/* Formats the line for e, '\n' included, into line (ACCESSLOG_LINE_MAX bytes); its length. */
size_t accesslog_format(const access_entry *e, char *line);

/* Writes the line for one request to fd at once, with a single write(). */
void accesslog_write(int fd, const access_entry *e);

/* Starts the batched log on fd (the flusher thread); false when the thread cannot start, and
 * then accesslog_append() writes each line at once. Calling it again while started does nothing. */
bool accesslog_start(int fd);
/* Appends e's line to the batch (thread-safe). */
void accesslog_append(const access_entry *e);
/* Writes out every line appended so far. */
void accesslog_flush(void);
/* Flushes and stops the flusher thread; appends after it are written at once. */
void accesslog_stop(void);

/* Appends s as a JSON string literal (quotes included) to buf at *len; stops short rather than
 * overflow cap. */
void accesslog_json_string(char *buf, size_t cap, size_t *len, const char *s);

/* The request id to use: `incoming` (may be NULL) as it is when it is 1 to REQUEST_ID_MAX
 * characters of [A-Za-z0-9._:~+/=-], else a fresh 16-hex-digit id. out has REQUEST_ID_MAX + 1
 * bytes. */
void accesslog_request_id(const char *incoming, char *out);

#endif
