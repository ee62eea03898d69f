/* Solving a stream of instances without a server (`puzzled solve`): bytes come from a read
 * callback, answers go to a write callback, and only one instance is held at a time, so a file
 * of any length goes through in memory bounded by its largest instance.
 *
 * What counts as an instance:
 * - JSON: every JSON value of the input (one object, or many: JSON Lines or any white space
 *   between values). The answers are those of POST /solve/<puzzle>, joined by "\n", so a
 *   single object's output is byte for byte the HTTP answer.
 * - Contest text of a multi-instance format (T, then T instances; api_puzzle.text_count): each
 *   instance is read, solved and written before the next is read. The output is the HTTP answer
 *   to the whole text, byte for byte, when every instance is valid; at the first bad instance
 *   the answers before it are already written and the error names it.
 * - Any other contest text: the whole input is one instance, as in one HTTP request.
 *
 * Every instance gets its own time budget (a batch is many requests, not one). */
#ifndef PUZZLED_BATCH_H
#define PUZZLED_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "answer.h"
#include "error.h"
#include "puzzle.h"

typedef struct api_batch_io {
    /* Up to cap bytes into buf: the count, 0 at the end of the input, -1 on an error. */
    ssize_t (*read)(void *ctx, char *buf, size_t cap);
    /* All n bytes out: false on an error. */
    bool (*write)(void *ctx, const char *bytes, size_t n);
    void *ctx;
} api_batch_io;

typedef struct api_batch_limits {
    long time_limit_ms;        /* per instance */
    size_t max_instance_bytes; /* the largest instance read (413 body_too_large beyond) */
    int threads;               /* per instance (budget.threads) */
} api_batch_limits;

typedef enum api_batch_result {
    API_BATCH_OK,
    API_BATCH_BAD_INSTANCE, /* err is the contract's error for the first instance that failed */
    API_BATCH_IO_ERROR,     /* reading or writing failed (errno is kept); err says which */
} api_batch_result;

/* Solves every instance of the input in order. *solved counts the answers written. */
api_batch_result api_batch_solve(const api_puzzle *puzzle, api_format fmt,
                                 const api_batch_limits *limits, const api_batch_io *io,
                                 size_t *solved, api_error *err);

#endif
