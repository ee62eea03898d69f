/* The connection watch: one thread that looks at every connection from outside libmicrohttpd,
 * for what libmicrohttpd cannot see or bound by itself.
 *
 * - A request must arrive whole (request line, headers, body) within the request deadline,
 *   counted from its request line; libmicrohttpd only has an inactivity timeout, which every
 *   byte resets (slowloris). A new connection's first request line must come within the
 *   deadline too; between requests of a kept-alive one, it may wait the idle timeout plus the
 *   deadline. Past either, the watch shuts the socket down (shutdown(2), never close:
 *   the descriptor stays libmicrohttpd's), and libmicrohttpd closes the connection on its next
 *   read, without an answer.
 * - A connection suspended while its job runs is not read by libmicrohttpd, so a client that
 *   leaves is not noticed: the watch polls such sockets for the peer's end of stream
 *   (POLLRDHUP) every WATCH_SOLVING_TICK_MS and sets the job's cancel flag, which its budget
 *   reads. A client that half-closes (shutdown(SHUT_WR)) and waits counts as gone, as nginx
 *   treats it by default.
 * - After large requests it returns freed heap to the system (glibc keeps it otherwise).
 * - An idle keep-alive connection whose client has gone (end of stream, nothing left to read)
 *   is shut down too, rather than kept for the inactivity timeout.
 *
 * The watch_conn of a connection is libmicrohttpd's socket context: created and freed by the
 * daemon's connection notifications, on the HTTP thread. Every state change takes one
 * uncontended mutex. */
#ifndef PUZZLED_WATCH_H
#define PUZZLED_WATCH_H

#include <stdatomic.h>
#include <stdbool.h>

#define WATCH_SOLVING_TICK_MS 10 /* how soon a departed client's job is cancelled */
#define WATCH_IDLE_TICK_MS 100   /* how late a deadline may be enforced */

typedef struct watch watch;
typedef struct watch_conn watch_conn;

/* NULL when the thread cannot be started. */
watch *watch_start(long request_deadline_ms, long idle_timeout_ms);
void watch_stop(watch *w);

/* The connection's life (HTTP thread). */
watch_conn *watch_open(watch *w, int fd);
void watch_close(watch *w, watch_conn *c);
/* A request line arrived: the request deadline runs from now. */
void watch_receiving(watch *w, watch_conn *c);
/* The request is whole (answering, or solving): no deadline. */
void watch_busy(watch *w, watch_conn *c);
/* The request is done: waiting for the next one. */
void watch_idle(watch *w, watch_conn *c);
/* The connection is suspended while a job runs: *cancel is set if the client leaves. */
void watch_solving(watch *w, watch_conn *c, atomic_bool *cancel);
/* The job is done (any thread; before the connection is resumed): *cancel is not touched again. */
void watch_solved(watch *w, watch_conn *c);

/* Set by the URL decoder when the path held an encoded control character; read (and cleared)
 * when the request starts. */
void watch_mark_bad_path(watch_conn *c);
bool watch_take_bad_path(watch_conn *c);

/* Asks the watch thread to give freed heap memory back to the system (malloc_trim) on its
 * next tick: after a large request, off the HTTP thread and the workers. */
void watch_request_trim(watch *w);

/* Past the grace period: every job still watched is cancelled, and later ones at once. */
void watch_cancel_all(watch *w);

#endif
