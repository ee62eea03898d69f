/* Structured lines on standard output: one JSON object per line, each written with a single
 * write() so that lines from different threads never interleave. */
#ifndef PUZZLED_ACCESSLOG_H
#define PUZZLED_ACCESSLOG_H

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

/* Writes the access-log line for one request to fd. */
void accesslog_write(int fd, const access_entry *e);

/* Appends s as a JSON string literal (quotes included) to buf at *len; stops short rather than
 * overflow cap. */
void accesslog_json_string(char *buf, size_t cap, size_t *len, const char *s);

/* The request id to use: `incoming` (may be NULL) reduced to [A-Za-z0-9._:~+/=-] and at most
 * REQUEST_ID_MAX bytes, or a fresh 16-hex-digit id when nothing is left. out has
 * REQUEST_ID_MAX + 1 bytes. */
void accesslog_request_id(const char *incoming, char *out);

#endif
