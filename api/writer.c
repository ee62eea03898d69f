#include "writer.h"

#include <string.h>

void writer_put(api_writer *w, const char *bytes, size_t n)
{
    memcpy(w->buf + w->len, bytes, n);
    w->len += n;
}

void writer_puts(api_writer *w, const char *s)
{
    writer_put(w, s, strlen(s));
}

void writer_putc(api_writer *w, char c)
{
    w->buf[w->len++] = c;
}

void writer_put_u64(api_writer *w, uint64_t v)
{
    char tmp[20];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) w->buf[w->len++] = tmp[--n];
}

void writer_put_i64(api_writer *w, int64_t v)
{
    if (v < 0) {
        writer_putc(w, '-');
        writer_put_u64(w, (uint64_t)0 - (uint64_t)v);
    } else {
        writer_put_u64(w, (uint64_t)v);
    }
}

void writer_put_json_string(api_writer *w, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    writer_putc(w, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            writer_putc(w, '\\');
            writer_putc(w, (char)*p);
        } else if (*p < 0x20) {
            writer_put(w, "\\u00", 4);
            writer_putc(w, hex[*p >> 4]);
            writer_putc(w, hex[*p & 15]);
        } else {
            writer_putc(w, (char)*p);
        }
    }
    writer_putc(w, '"');
}

bool writer_stream_text(api_writer *w, api_cursor *cursor, const char *text, size_t len)
{
    size_t left = len - cursor->index;
    size_t n = left < w->cap - w->len ? left : w->cap - w->len;
    writer_put(w, text + cursor->index, n);
    cursor->index += n;
    return cursor->index == len;
}
