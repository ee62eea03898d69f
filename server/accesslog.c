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

void accesslog_write(int fd, const access_entry *e)
{
    char line[1024];
    struct tm tm;
    gmtime_r(&e->when.tv_sec, &tm);
    size_t n = strftime(line, sizeof line, "{\"time\":\"%Y-%m-%dT%H:%M:%S", &tm);
    n += (size_t)snprintf(line + n, sizeof line - n,
                          ".%03ldZ\",\"method\":", e->when.tv_nsec / 1000000);
    accesslog_json_string(line, sizeof line - 200, &n, e->method);
    n += (size_t)snprintf(line + n, sizeof line - n, ",\"path\":");
    accesslog_json_string(line, sizeof line - 200, &n, e->path);
    n += (size_t)snprintf(line + n, sizeof line - n, ",\"puzzle\":");
    if (e->puzzle)
        accesslog_json_string(line, sizeof line - 200, &n, e->puzzle);
    else
        n += (size_t)snprintf(line + n, sizeof line - n, "null");
    n += (size_t)snprintf(line + n, sizeof line - n,
                          ",\"status\":%d,\"bytes\":%llu,\"duration_ms\":%.3f,\"request_id\":",
                          e->status, (unsigned long long)e->bytes, e->duration_ms);
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
    snprintf(out, REQUEST_ID_MAX + 1, "%016llx",
             (unsigned long long)mix64(atomic_load_explicit(&seed, memory_order_relaxed) + k));
}
