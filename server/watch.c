#define _GNU_SOURCE /* POLLRDHUP */
#include "watch.h"

#include <malloc.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#include "deadline.h"

typedef enum conn_state {
    CONN_IDLE,      /* before a request line */
    CONN_RECEIVING, /* request line seen, request not whole */
    CONN_BUSY,      /* whole: being answered */
    CONN_SOLVING,   /* suspended for a job */
    CONN_SHUT,      /* shut down by the watch: nothing more to do */
} conn_state;

struct watch_conn {
    watch_conn *prev, *next;
    int fd;
    conn_state state;
    struct timespec since;
    atomic_bool *cancel; /* CONN_SOLVING: the job's flag */
    bool bad_path;       /* HTTP thread only */
    bool fresh;          /* no request line yet on this connection */
};

struct watch {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    bool stop, cancel_all;
    atomic_bool trim; /* malloc_trim wanted */
    long deadline_ms, idle_ms;
    watch_conn head; /* a circular list's sentinel */
    unsigned solving;
    struct pollfd *fds;
    watch_conn **fd_conn;
    size_t fds_cap;
};

static long ms_between(const struct timespec *a, const struct timespec *b)
{
    return (long)(b->tv_sec - a->tv_sec) * 1000 + (b->tv_nsec - a->tv_nsec) / 1000000L;
}

/* True when no byte waits on the socket: an idle connection with nothing to read. */
static bool nothing_pending(const watch_conn *c)
{
    char byte;
    return recv(c->fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) <= 0;
}

static void shut(watch_conn *c)
{
    shutdown(c->fd, SHUT_RDWR);
    c->state = CONN_SHUT;
}

/* One pass over the connections, under the lock. */
static void check(watch *w)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    size_t n = 0;
    for (watch_conn *c = w->head.next; c != &w->head; c = c->next) {
        long age = ms_between(&c->since, &now);
        switch (c->state) {
        case CONN_RECEIVING:
            if (age > w->deadline_ms) shut(c);
            break;
        case CONN_IDLE:
            /* A new connection has the request deadline for its first request line: the
             * library reads every byte at once, so a line trickled byte by byte looks idle
             * here, and would otherwise hold the connection for the idle timeout as well. */
            if (age > (c->fresh ? 0 : w->idle_ms) + w->deadline_ms) {
                shut(c);
                break;
            }
            __attribute__((fallthrough)); /* watched for the client's departure */
        case CONN_SOLVING:
            if (n == w->fds_cap) {
                size_t cap = w->fds_cap ? 2 * w->fds_cap : 64;
                struct pollfd *fds = realloc(w->fds, cap * sizeof *fds);
                if (fds) w->fds = fds;
                watch_conn **fc = realloc(w->fd_conn, cap * sizeof *fc);
                if (fc) w->fd_conn = fc;
                if (!fds || !fc) break; /* checked on a later pass */
                w->fds_cap = cap;
            }
            w->fds[n] = (struct pollfd){.fd = c->fd, .events = POLLRDHUP};
            w->fd_conn[n++] = c;
            break;
        default:
            break;
        }
    }
    if (n == 0 || poll(w->fds, n, 0) <= 0) return;
    for (size_t i = 0; i < n; i++) {
        if (!(w->fds[i].revents & (POLLRDHUP | POLLHUP | POLLERR))) continue;
        watch_conn *c = w->fd_conn[i];
        if (c->state == CONN_SOLVING) {
            atomic_store(c->cancel, true);
            c->cancel = NULL;
            c->state = CONN_BUSY; /* once is enough; the job ends soon */
            w->solving--;
        } else if (nothing_pending(c)) {
            shut(c); /* an idle connection whose client has gone (not one whose last request
                      * still waits to be read) */
        }
    }
}

static void *watch_main(void *arg)
{
    watch *w = arg;
    pthread_mutex_lock(&w->lock);
    while (!w->stop) {
        check(w);
        if (atomic_exchange(&w->trim, false)) {
            pthread_mutex_unlock(&w->lock); /* trimming takes a few ms: not under the lock */
            malloc_trim(0);
            pthread_mutex_lock(&w->lock);
        }
        long tick = w->solving ? WATCH_SOLVING_TICK_MS : WATCH_IDLE_TICK_MS;
        struct timespec until = realtime_in_ms(tick);
        pthread_cond_timedwait(&w->wake, &w->lock, &until);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

watch *watch_start(long request_deadline_ms, long idle_timeout_ms)
{
    watch *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, NULL);
    w->deadline_ms = request_deadline_ms;
    w->idle_ms = idle_timeout_ms;
    w->head.next = w->head.prev = &w->head;
    if (pthread_create(&w->thread, NULL, watch_main, w) != 0) {
        pthread_cond_destroy(&w->wake);
        pthread_mutex_destroy(&w->lock);
        free(w);
        return NULL;
    }
    return w;
}

void watch_stop(watch *w)
{
    if (!w) return;
    pthread_mutex_lock(&w->lock);
    w->stop = true;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    /* Connections still listed belong to a daemon that has stopped: only the records go. */
    while (w->head.next != &w->head) {
        watch_conn *c = w->head.next;
        w->head.next = c->next;
        free(c);
    }
    free(w->fds);
    free(w->fd_conn);
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
    free(w);
}

static void set_state(watch *w, watch_conn *c, conn_state st)
{
    if (c->state == CONN_SOLVING) w->solving--;
    if (c->state == CONN_SHUT) return; /* shut down: it only waits to be closed */
    c->state = st;
    clock_gettime(CLOCK_MONOTONIC, &c->since);
}

watch_conn *watch_open(watch *w, int fd)
{
    watch_conn *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->fd = fd;
    c->state = CONN_IDLE;
    c->fresh = true;
    clock_gettime(CLOCK_MONOTONIC, &c->since);
    pthread_mutex_lock(&w->lock);
    c->next = &w->head;
    c->prev = w->head.prev;
    w->head.prev->next = c;
    w->head.prev = c;
    pthread_mutex_unlock(&w->lock);
    return c;
}

void watch_close(watch *w, watch_conn *c)
{
    if (!c) return;
    pthread_mutex_lock(&w->lock);
    if (c->state == CONN_SOLVING) w->solving--;
    c->prev->next = c->next;
    c->next->prev = c->prev;
    pthread_mutex_unlock(&w->lock);
    free(c);
}

void watch_receiving(watch *w, watch_conn *c)
{
    if (!c) return;
    pthread_mutex_lock(&w->lock);
    /* A new connection's first request counts from the connection, not from its request line:
     * a line trickled for most of the deadline must not buy the headers a second one. */
    struct timespec opened = c->since;
    bool fresh = c->fresh && c->state == CONN_IDLE;
    set_state(w, c, CONN_RECEIVING);
    if (fresh) c->since = opened;
    c->fresh = false;
    pthread_mutex_unlock(&w->lock);
}

void watch_busy(watch *w, watch_conn *c)
{
    if (!c) return;
    pthread_mutex_lock(&w->lock);
    set_state(w, c, CONN_BUSY);
    pthread_mutex_unlock(&w->lock);
}

void watch_idle(watch *w, watch_conn *c)
{
    if (!c) return;
    pthread_mutex_lock(&w->lock);
    set_state(w, c, CONN_IDLE);
    pthread_mutex_unlock(&w->lock);
}

void watch_solving(watch *w, watch_conn *c, atomic_bool *cancel)
{
    if (!c) return;
    pthread_mutex_lock(&w->lock);
    if (w->cancel_all) atomic_store(cancel, true);
    if (c->state != CONN_SHUT) {
        set_state(w, c, CONN_SOLVING);
        c->cancel = cancel;
        if (w->solving++ == 0) pthread_cond_signal(&w->wake); /* to the fast tick */
    }
    pthread_mutex_unlock(&w->lock);
}

void watch_solved(watch *w, watch_conn *c)
{
    if (!c) return;
    pthread_mutex_lock(&w->lock);
    c->cancel = NULL;
    if (c->state == CONN_SOLVING) set_state(w, c, CONN_BUSY);
    pthread_mutex_unlock(&w->lock);
}

void watch_mark_bad_path(watch_conn *c)
{
    if (c) c->bad_path = true;
}

bool watch_take_bad_path(watch_conn *c)
{
    if (!c) return false;
    bool bad = c->bad_path;
    c->bad_path = false;
    return bad;
}

void watch_request_trim(watch *w)
{
    atomic_store(&w->trim, true);
}

void watch_cancel_all(watch *w)
{
    pthread_mutex_lock(&w->lock);
    w->cancel_all = true;
    for (watch_conn *c = w->head.next; c != &w->head; c = c->next)
        if (c->state == CONN_SOLVING && c->cancel) atomic_store(c->cancel, true);
    pthread_mutex_unlock(&w->lock);
}
