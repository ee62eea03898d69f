/* The HTTP side: the libmicrohttpd daemon, routing, CORS, request ids, the hand-off of solve
 * requests to the worker pool, streaming answers, metrics and the access log.
 *
 * libmicrohttpd's own pool of HTTP threads (one per core, poll mode) does all socket work;
 * solving happens in the worker pool. A solve request's connection is suspended while its job
 * waits and runs, and resumed by the worker when the answer (or error) is ready; the response
 * is then queued on the connection's HTTP thread. */
#ifndef PUZZLED_HTTP_H
#define PUZZLED_HTTP_H

#include <stddef.h>

#include "config.h"

typedef struct http_server http_server;

/* Starts the worker pool and the daemon listening on cfg's address. NULL + one line in err on
 * failure (address in use, no threads). */
http_server *http_start(const server_config *cfg, char *err, size_t err_cap);

/* The port actually bound (the ephemeral one for port 0). */
unsigned http_port(const http_server *s);

/* Marks the server draining: readyz and new solves answer 503 from now on. */
void http_begin_drain(http_server *s);

/* Graceful stop: refuse new work (readyz and solves answer 503), stop accepting connections,
 * wait up to the grace period for requests in flight, then cancel the remaining jobs, wait
 * for every suspended connection to be resumed, stop the daemon and free everything. */
void http_drain_and_stop(http_server *s);

#endif
