/* For codec tests: run a request through the API layer's entry point and read the whole
 * streamed answer back in pieces of a chosen size, so that streaming is exercised as the
 * server's content reader would exercise it. */
#ifndef PUZZLED_TEST_READ_ANSWER_H
#define PUZZLED_TEST_READ_ANSWER_H

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"

/* Solves body (NUL-terminated) under b and returns the whole answer, malloc'd and
 * NUL-terminated, its length in *len (may be NULL). NULL with *err filled on failure. */
static inline char *read_answer(const api_puzzle *puzzle, api_format fmt, const char *body,
                                budget *b, size_t piece, size_t *len, api_error *err)
{
    memset(err, 0, sizeof *err);
    api_answer *a = api_answer_solve(puzzle, fmt, body, strlen(body), b, err);
    if (!a) return NULL;
    ck_assert_str_eq(api_answer_content_type(a),
                     fmt == API_FORMAT_JSON ? "application/json" : "text/plain; charset=utf-8");
    size_t cap = 1 << 16, n = 0;
    char *out = malloc(cap);
    ck_assert_ptr_nonnull(out);
    for (;;) {
        if (cap - n < piece + 1) {
            out = realloc(out, cap *= 2);
            ck_assert_ptr_nonnull(out);
        }
        size_t got = api_answer_read(a, out + n, piece);
        if (got == 0) break;
        n += got;
    }
    out[n] = '\0';
    api_answer_free(a);
    if (len) *len = n;
    return out;
}

/* The same under a budget of ms milliseconds (< 0: unlimited). */
static inline char *read_answer_ms(const api_puzzle *puzzle, api_format fmt, const char *body,
                                   long ms, size_t piece, size_t *len, api_error *err)
{
    budget b;
    if (ms < 0)
        budget_init_unlimited(&b);
    else
        budget_init_ms(&b, ms, NULL);
    return read_answer(puzzle, fmt, body, &b, piece, len, err);
}

#endif
