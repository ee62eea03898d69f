/* The API layer's one entry point for a solve request: bytes in, a streamable answer out.
 * Called by a server worker (parse, validate, solve) and then by the HTTP thread (read). */
#ifndef PUZZLED_ANSWER_H
#define PUZZLED_ANSWER_H

#include <stdbool.h>
#include <stddef.h>

#include "budget.h"
#include "error.h"
#include "puzzle.h"

typedef enum api_format { API_FORMAT_JSON, API_FORMAT_TEXT } api_format;

/* The request format named by a Content-Type value ("application/json", "text/plain", either
 * with parameters such as charset). false when it is neither, or NULL (415). */
bool api_format_from_content_type(const char *content_type, api_format *fmt);

typedef struct api_answer api_answer;

/* Parses and validates body (body[len] must be '\0') in the given format and runs the
 * puzzle's solver under b. NULL + err on failure (err->code says which contract error). */
api_answer *api_answer_solve(const api_puzzle *puzzle, api_format fmt, const char *body, size_t len,
                             budget *b, api_error *err);

/* Runs the solver on a job a codec has already read (api/batch.c reads instances one at a
 * time) and wraps the result as api_answer_solve does. Takes ownership of job. */
api_answer *api_answer_solve_job(const api_puzzle *puzzle, api_format fmt, void *job, budget *b,
                                 api_error *err);

/* "application/json" or "text/plain; charset=utf-8", by the request's format. */
const char *api_answer_content_type(const api_answer *a);

/* Copies the next at most max bytes of the encoded answer into buf: the count, 0 at the end. */
size_t api_answer_read(api_answer *a, char *buf, size_t max);

void api_answer_free(api_answer *a);

#endif
