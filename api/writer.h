/* Streaming output: an answer is encoded piece by piece into a bounded staging buffer while
 * libmicrohttpd pulls it, so a huge answer (a million moves, thousands of boards) never exists
 * as one string.
 *
 * A codec's write function appends whole items (a move, a board row, a line) while they fit and
 * remembers where it stopped in an api_cursor. The staging buffer always has room for at least
 * API_ITEM_MAX bytes when the write function is called, so every item of at most that size fits
 * and each call makes progress. */
#ifndef PUZZLED_WRITER_H
#define PUZZLED_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The stage lives inside each answer: at 64 KiB or more, freeing it makes glibc consolidate its
 * heap on every request, which showed in profiles of the request path. */
#define API_STAGE_SIZE (32 * 1024)
#define API_ITEM_MAX (8 * 1024)

typedef struct api_writer {
    char *buf;
    size_t cap;
    size_t len;
} api_writer;

/* Where a codec's write function stopped; zeroed before the first call. */
typedef struct api_cursor {
    unsigned stage;
    size_t index;
    size_t sub;
} api_cursor;

/* True when n more bytes fit. */
static inline bool writer_room(const api_writer *w, size_t n)
{
    return w->cap - w->len >= n;
}

/* Append helpers: the caller has checked writer_room() for the whole item first. */
void writer_put(api_writer *w, const char *bytes, size_t n);
void writer_puts(api_writer *w, const char *s);
void writer_putc(api_writer *w, char c);
void writer_put_u64(api_writer *w, uint64_t v);
void writer_put_i64(api_writer *w, int64_t v);
/* A JSON string literal with quotes and escapes; needs up to 6 * strlen(s) + 2 bytes. */
void writer_put_json_string(api_writer *w, const char *s);

/* A ready-made text (for small answers built with jansson) streamed in pieces:
 * cursor->index is the offset reached. Returns true when all of it has been written. */
bool writer_stream_text(api_writer *w, api_cursor *cursor, const char *text, size_t len);

#endif
