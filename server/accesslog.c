#include "accesslog.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deadline.h"

void accesslog_json_string(char *buf, size_t cap, size_t *len, const char *s)
{
    size_t n = *len;
    if (n + 2 > cap) return;
    buf[n++] = '"';
    for (const unsigned char *p = (const unsigned char *)s; *p && n + 8 < cap; p++) {
        if (*p == '"' || *p == '\\') {
            buf[n++] = '\\';
            buf[n++] = (char)*p;
        } else if (*p < 0x20 || *p == 0x7f) {
            n += (size_t)snprintf(buf + n, cap - n, "\\u%04x", *p);
        } else {
            buf[n++] = (char)*p; /* UTF-8 passes through; MHD hands us the decoded path */
        }
    }
    buf[n++] = '"';
    buf[n] = '\0';
    *len = n;
}

/* Small appenders: the log line is built by hand, since printf-style formatting was a visible
 * share of a request's CPU time. The caller keeps 64 bytes of slack for each. */
static void put(char *buf, size_t *n, const char *s)
{
    size_t len = strlen(s);
    memcpy(buf + *n, s, len);
    *n += len;
}

static void put_u64(char *buf, size_t *n, uint64_t v, int min_digits)
{
    char digits[24];
    int k = 0;
    do {
        digits[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v || k < min_digits);
    while (k) buf[(*n)++] = digits[--k];
}

/* Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm): no time-zone machinery. */
static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (int64_t)yoe + era * 400 + (*m <= 2);
}

size_t accesslog_format(const access_entry *e, char *line)
{
    const size_t cap = ACCESSLOG_LINE_MAX;
    size_t n = 0;
    int64_t secs = (int64_t)e->when.tv_sec, days = secs / 86400, rem = secs % 86400;
    if (rem < 0) {
        rem += 86400;
        days--;
    }
    int64_t year;
    unsigned month, day;
    civil_from_days(days, &year, &month, &day);
    put(line, &n, "{\"time\":\"");
    put_u64(line, &n, (uint64_t)(year < 0 ? 0 : year), 4);
    line[n++] = '-';
    put_u64(line, &n, month, 2);
    line[n++] = '-';
    put_u64(line, &n, day, 2);
    line[n++] = 'T';
    put_u64(line, &n, (uint64_t)rem / 3600, 2);
    line[n++] = ':';
    put_u64(line, &n, (uint64_t)rem / 60 % 60, 2);
    line[n++] = ':';
    put_u64(line, &n, (uint64_t)rem % 60, 2);
    line[n++] = '.';
    put_u64(line, &n, (uint64_t)e->when.tv_nsec / 1000000, 3);
    put(line, &n, "Z\",\"method\":");
    accesslog_json_string(line, cap - 200, &n, e->method);
    put(line, &n, ",\"path\":");
    accesslog_json_string(line, cap - 200, &n, e->path);
    put(line, &n, ",\"puzzle\":");
    if (e->puzzle)
        accesslog_json_string(line, cap - 200, &n, e->puzzle);
    else
        put(line, &n, "null");
    put(line, &n, ",\"status\":");
    put_u64(line, &n, (uint64_t)(e->status < 0 ? 0 : e->status), 1);
    put(line, &n, ",\"bytes\":");
    put_u64(line, &n, e->bytes, 1);
    put(line, &n, ",\"duration_ms\":");
    uint64_t us = e->duration_ms > 0 ? (uint64_t)(e->duration_ms * 1000.0 + 0.5) : 0;
    put_u64(line, &n, us / 1000, 1);
    line[n++] = '.';
    put_u64(line, &n, us % 1000, 3);
    put(line, &n, ",\"request_id\":");
    accesslog_json_string(line, cap - 4, &n, e->request_id);
    line[n++] = '}';
    line[n++] = '\n';
    return n;
}

/* Writes all n bytes unless the descriptor fails; a failure has nowhere to be reported. */
static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        p += w;
        n -= (size_t)w;
    }
}

void accesslog_write(int fd, const access_entry *e)
{
    char line[ACCESSLOG_LINE_MAX];
    write_all(fd, line, accesslog_format(e, line));
}

/* ---- the batch ---------------------------------------------------------------------------- */

#define BATCH_CAP (4 * ACCESSLOG_FLUSH_BYTES) /* room for lines arriving during a write */

/* Two buffers: appenders fill the active one while a flush writes the other. write_lock makes
 * flushes one at a time, so the buffer a flush swaps in is never still being written. */
static struct {
    pthread_mutex_t lock; /* guards active, len, running, stopping */
    pthread_cond_t wake;  /* the flusher waits here while the batch is empty */
    pthread_mutex_t write_lock;
    char buf[2][BATCH_CAP];
    int active;
    size_t len;
    int fd;
    bool running, stopping, exit_hook;
    bool flusher_idle; /* waiting for a first line, not for a deadline */
    pthread_t flusher;
} batch = {.lock = PTHREAD_MUTEX_INITIALIZER,
           .wake = PTHREAD_COND_INITIALIZER,
           .write_lock = PTHREAD_MUTEX_INITIALIZER,
           .fd = STDOUT_FILENO};

void accesslog_flush(void)
{
    pthread_mutex_lock(&batch.write_lock);
    pthread_mutex_lock(&batch.lock);
    const char *out = batch.buf[batch.active];
    size_t n = batch.len;
    int fd = batch.fd;
    batch.active ^= 1;
    batch.len = 0;
    pthread_mutex_unlock(&batch.lock);
    write_all(fd, out, n);
    pthread_mutex_unlock(&batch.write_lock);
}

static void *flusher_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&batch.lock);
    while (!batch.stopping) {
        if (batch.len == 0) {
            batch.flusher_idle = true;
            pthread_cond_wait(&batch.wake, &batch.lock);
            batch.flusher_idle = false;
            continue;
        }
        /* The first line of a batch is waiting: give it ACCESSLOG_FLUSH_MS for company. */
        struct timespec until = realtime_in_ms(ACCESSLOG_FLUSH_MS);
        while (!batch.stopping &&
               pthread_cond_timedwait(&batch.wake, &batch.lock, &until) != ETIMEDOUT) {
        }
        pthread_mutex_unlock(&batch.lock);
        accesslog_flush();
        pthread_mutex_lock(&batch.lock);
    }
    pthread_mutex_unlock(&batch.lock);
    return NULL;
}

bool accesslog_start(int fd)
{
    pthread_mutex_lock(&batch.lock);
    bool ok = batch.running;
    if (!ok) {
        batch.fd = fd;
        batch.stopping = false;
        ok = pthread_create(&batch.flusher, NULL, flusher_main, NULL) == 0;
        batch.running = ok;
    }
    bool hook = ok && !batch.exit_hook;
    if (hook) batch.exit_hook = true;
    pthread_mutex_unlock(&batch.lock);
    if (hook) atexit(accesslog_flush); /* exit() without a stop still writes every line */
    return ok;
}

void accesslog_append(const access_entry *e)
{
    char line[ACCESSLOG_LINE_MAX];
    size_t n = accesslog_format(e, line);
    pthread_mutex_lock(&batch.lock);
    if (!batch.running) {
        int fd = batch.fd;
        pthread_mutex_unlock(&batch.lock);
        write_all(fd, line, n);
        return;
    }
    while (batch.len + n > BATCH_CAP) { /* the descriptor is slower than the requests */
        pthread_mutex_unlock(&batch.lock);
        accesslog_flush();
        pthread_mutex_lock(&batch.lock);
    }
    memcpy(batch.buf[batch.active] + batch.len, line, n);
    batch.len += n;
    /* The first line of a batch starts the flusher's clock; a flusher already counting down
     * (the previous batch went out by size) is left alone. */
    if (batch.len == n && batch.flusher_idle) pthread_cond_signal(&batch.wake);
    bool full = batch.len >= ACCESSLOG_FLUSH_BYTES;
    pthread_mutex_unlock(&batch.lock);
    if (full) accesslog_flush();
}

void accesslog_stop(void)
{
    pthread_mutex_lock(&batch.lock);
    bool running = batch.running;
    batch.stopping = true;
    pthread_cond_signal(&batch.wake);
    pthread_mutex_unlock(&batch.lock);
    if (running) pthread_join(batch.flusher, NULL);
    pthread_mutex_lock(&batch.lock);
    batch.running = false;
    pthread_mutex_unlock(&batch.lock);
    accesslog_flush();
}

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static int id_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           strchr("._:~+/=-", c) != NULL;
}

void accesslog_request_id(const char *incoming, char *out)
{
    /* Taken whole or not at all: an id trimmed or filtered here would no longer match the one a
     * proxy or client logged. */
    size_t n = 0;
    while (incoming && incoming[n] && n <= REQUEST_ID_MAX && id_char((unsigned char)incoming[n]))
        n++;
    if (n > 0 && n <= REQUEST_ID_MAX && !incoming[n]) {
        memcpy(out, incoming, n);
        out[n] = '\0';
        return;
    }
    /* Unique within the process (a counter) and unlikely to repeat across restarts (seeded
     * from the clock and pid once). */
    static atomic_ullong counter, seed;
    unsigned long long k = atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
    if (!atomic_load_explicit(&seed, memory_order_relaxed)) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        unsigned long long fresh = mix64((uint64_t)ts.tv_sec * 1000000007ULL ^
                                         (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32));
        unsigned long long none = 0;
        atomic_compare_exchange_strong(&seed, &none, fresh | 1);
    }
    static const char hex[] = "0123456789abcdef";
    uint64_t id = mix64(atomic_load_explicit(&seed, memory_order_relaxed) + k);
    for (int i = 15; i >= 0; i--, id >>= 4) out[i] = hex[id & 15];
    out[16] = '\0';
}
