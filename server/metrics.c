#include "metrics.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "registry.h"

#define PUZZLE_SLOTS 32 /* registry rows, then one for "no puzzle" */

static const int statuses[] = {200, 204, 400, 404, 405, 413, 415, 422, 500, 503};
#define STATUS_SLOTS (sizeof statuses / sizeof statuses[0] + 1) /* the last is "other" */

static const double bucket_bounds[] = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
                                       0.25,  0.5,    1,     2.5,  5,     10,   30};
#define BUCKETS (sizeof bucket_bounds / sizeof bucket_bounds[0])

static atomic_ulong requests[PUZZLE_SLOTS + 1][STATUS_SLOTS];
static atomic_ulong histogram[BUCKETS + 1]; /* non-cumulative; the last is +Inf */
static atomic_ullong duration_sum_us;

static size_t puzzle_slot(const api_puzzle *puzzle)
{
    size_t n = registry_count();
    if (puzzle)
        for (size_t i = 0; i < n && i < PUZZLE_SLOTS; i++)
            if (registry_at(i) == puzzle) return i;
    return PUZZLE_SLOTS;
}

static size_t status_slot(int status)
{
    for (size_t i = 0; i < STATUS_SLOTS - 1; i++)
        if (statuses[i] == status) return i;
    return STATUS_SLOTS - 1;
}

void metrics_record(const api_puzzle *puzzle, int status, double seconds)
{
    atomic_fetch_add_explicit(&requests[puzzle_slot(puzzle)][status_slot(status)], 1,
                              memory_order_relaxed);
    size_t b = 0;
    while (b < BUCKETS && seconds > bucket_bounds[b]) b++;
    atomic_fetch_add_explicit(&histogram[b], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&duration_sum_us, (unsigned long long)(seconds * 1e6),
                              memory_order_relaxed);
}

typedef struct text {
    char *buf;
    size_t len, cap;
    int failed;
} text;

__attribute__((format(printf, 2, 3))) static void put(text *t, const char *fmt, ...)
{
    for (;;) {
        if (t->failed) return;
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (n >= 0 && (size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = t->cap * 2 + (size_t)(n > 0 ? n : 0);
        char *grown = realloc(t->buf, cap);
        if (!grown) {
            t->failed = 1;
            return;
        }
        t->buf = grown;
        t->cap = cap;
    }
}

char *metrics_render(const metrics_gauges *g, size_t *len)
{
    text t = {malloc(4096), 0, 4096, 0};
    if (!t.buf) return NULL;
    put(&t, "# HELP puzzled_requests_total Requests answered, by puzzle and HTTP status.\n"
            "# TYPE puzzled_requests_total counter\n");
    size_t n = registry_count();
    for (size_t p = 0; p <= PUZZLE_SLOTS; p++) {
        if (p >= n && p < PUZZLE_SLOTS) continue;
        const char *slug = p < n ? registry_at(p)->slug : "none";
        for (size_t s = 0; s < STATUS_SLOTS; s++) {
            unsigned long v = atomic_load_explicit(&requests[p][s], memory_order_relaxed);
            if (!v) continue;
            if (s < STATUS_SLOTS - 1)
                put(&t, "puzzled_requests_total{puzzle=\"%s\",status=\"%d\"} %lu\n", slug,
                    statuses[s], v);
            else
                put(&t, "puzzled_requests_total{puzzle=\"%s\",status=\"other\"} %lu\n", slug, v);
        }
    }
    put(&t, "# HELP puzzled_request_duration_seconds Time from a request's arrival to its "
            "response being queued.\n"
            "# TYPE puzzled_request_duration_seconds histogram\n");
    unsigned long cumulative = 0;
    for (size_t b = 0; b <= BUCKETS; b++) {
        cumulative += atomic_load_explicit(&histogram[b], memory_order_relaxed);
        if (b < BUCKETS)
            put(&t, "puzzled_request_duration_seconds_bucket{le=\"%g\"} %lu\n", bucket_bounds[b],
                cumulative);
        else
            put(&t, "puzzled_request_duration_seconds_bucket{le=\"+Inf\"} %lu\n", cumulative);
    }
    put(&t, "puzzled_request_duration_seconds_sum %.6f\n",
        (double)atomic_load_explicit(&duration_sum_us, memory_order_relaxed) / 1e6);
    put(&t, "puzzled_request_duration_seconds_count %lu\n", cumulative);
    put(&t,
        "# HELP puzzled_queue_depth Solve jobs waiting for a worker.\n"
        "# TYPE puzzled_queue_depth gauge\npuzzled_queue_depth %zu\n"
        "# HELP puzzled_workers_busy Workers running a solver.\n"
        "# TYPE puzzled_workers_busy gauge\npuzzled_workers_busy %zu\n"
        "# HELP puzzled_in_flight_requests Requests received and not yet completed.\n"
        "# TYPE puzzled_in_flight_requests gauge\npuzzled_in_flight_requests %zu\n",
        g->queue_depth, g->workers_busy, g->in_flight);
    if (t.failed) {
        free(t.buf);
        return NULL;
    }
    *len = t.len;
    return t.buf;
}
