#include "accesslog.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

void accesslog_write(int fd, const access_entry *e)
{
    char line[1024];
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
    accesslog_json_string(line, sizeof line - 200, &n, e->method);
    put(line, &n, ",\"path\":");
    accesslog_json_string(line, sizeof line - 200, &n, e->path);
    put(line, &n, ",\"puzzle\":");
    if (e->puzzle)
        accesslog_json_string(line, sizeof line - 200, &n, e->puzzle);
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
    accesslog_json_string(line, sizeof line - 4, &n, e->request_id);
    line[n++] = '}';
    line[n++] = '\n';
    /* One write per line: stdout is shared by every thread. A short write to a pipe or file
     * of this size does not happen in practice; a failure has nowhere to be reported. */
    ssize_t w = write(fd, line, n);
    (void)w;
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
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)incoming; p && *p && n < REQUEST_ID_MAX;
         p++)
        if (id_char(*p)) out[n++] = (char)*p;
    out[n] = '\0';
    if (n) return;
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
