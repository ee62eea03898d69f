/* One puzzle as the API layer sees it: a row of the registry. Adding a puzzle is one solver
 * (solvers/<slug>.c), one codec (api/codec_<slug>.c) defining its api_puzzle, and one line in
 * api/registry.c.
 *
 * A job is the codec's own struct: the parsed instance plus, after solve(), the answer in compact
 * form. The worker thread calls from_json/from_text then solve; the HTTP thread later calls a
 * write function repeatedly to stream the answer, then free. */
#ifndef PUZZLED_PUZZLE_H
#define PUZZLED_PUZZLE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "budget.h"
#include "error.h"
#include "json_prescan.h"
#include "text_scan.h"
#include "writer.h"

typedef struct api_puzzle {
    const char *slug;
    const char *title;
    const char *summary;      /* one sentence for GET /puzzles */
    const char *limits_json;  /* a JSON object text: the size limits, for GET /puzzles */
    const char *example_json; /* one valid JSON request body */
    const char *example_text; /* the same in the contest text format */
    /* The deepest nesting and the most (weighted) values of a valid JSON request, checked
     * before parsing (json_prescan.h). */
    json_prescan_limits json_limits;

    /* Validate a JSON body (already known to be an object) into a new job. NULL + err
     * (invalid_request, invalid_board, ...) when it does not fit. */
    void *(*from_json)(json_t *body, api_error *err);
    /* The same from the contest's text input; text[len] is '\0'. */
    void *(*from_text)(const char *text, size_t len, api_error *err);
    /* Run the solver. false + err (time_limit, too_many_boards, internal) on failure. */
    bool (*solve)(void *job, budget *b, api_error *err);
    /* Encode the answer from *cursor on; true once it is complete (see writer.h). */
    bool (*write_json)(const void *job, api_cursor *cursor, api_writer *w);
    bool (*write_text)(const void *job, api_cursor *cursor, api_writer *w);
    void (*free)(void *job);

    /* Contest texts that hold many instances (a count T, then T instances) also read them one
     * at a time, so that a batch streams through in bounded memory (`puzzled solve`): first
     * the count, then each instance into a job of its own. The answers of those one-instance
     * jobs, concatenated, are the answer to the whole text. NULL for one-instance formats. */
    bool (*text_count)(text_scan *s, size_t *count, api_error *err);
    void *(*text_instance)(text_scan *s, size_t number, api_error *err);
} api_puzzle;

#endif
