#include "answer.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct api_answer {
    const api_puzzle *puzzle;
    api_format fmt;
    void *job;
    api_cursor cursor;
    bool complete; /* the write function has said the answer is whole */
    api_writer stage;
    size_t stage_pos; /* bytes of stage already handed out */
    char stage_buf[API_STAGE_SIZE];
};

bool api_format_from_content_type(const char *content_type, api_format *fmt)
{
    if (!content_type) return false;
    while (*content_type == ' ' || *content_type == '\t') content_type++;
    size_t n = strcspn(content_type, "; \t");
    if (n == 16 && strncasecmp(content_type, "application/json", 16) == 0) {
        *fmt = API_FORMAT_JSON;
        return true;
    }
    if (n == 10 && strncasecmp(content_type, "text/plain", 10) == 0) {
        *fmt = API_FORMAT_TEXT;
        return true;
    }
    return false;
}

/* A raw NUL byte is never JSON (in a string it must be written \u0000), but jansson's reader
 * skips one in some places ({"n":4<NUL>} read as {"n":4}): refused here, with where it is. */
static bool has_no_nul(const char *body, size_t len, api_error *err)
{
    const char *nul = memchr(body, '\0', len);
    if (!nul) return true;
    int line = 1;
    const char *line_start = body;
    for (const char *p = body; p < nul; p++)
        if (*p == '\n') line++, line_start = p + 1;
    return api_fail(err, API_MALFORMED_JSON, NULL,
                    "The body is not valid JSON: it holds a NUL byte (0x00) at line %d, column "
                    "%d; a string writes that character as \\u0000.",
                    line, (int)(nul - line_start) + 1);
}

static void *job_from_json(const api_puzzle *puzzle, const char *body, size_t len, api_error *err)
{
    if (!has_no_nul(body, len, err) || !json_prescan(body, len, &puzzle->json_limits, err))
        return NULL;
    json_error_t jerr;
    /* \u0000 in a string is valid JSON: it reaches the puzzle, which reads strings by their
     * length and refuses the character like any other wrong one (422, with its path). */
    size_t flags = JSON_REJECT_DUPLICATES | JSON_DECODE_ANY | JSON_ALLOW_NUL;
    json_t *root = json_loadb(body, len, flags, &jerr);
    /* An integer past 64 bits is valid JSON: read every number as a double then, so that it
     * meets its field's range check (and path) as 1e19 does. Integers up to 2^53, all that any
     * field accepts, stay exact. */
    if (!root && json_error_code(&jerr) == json_error_numeric_overflow)
        root = json_loadb(body, len, flags | JSON_DECODE_INT_AS_REAL, &jerr);
    if (!root && json_error_code(&jerr) == json_error_numeric_overflow) {
        api_fail(err, API_MALFORMED_JSON, NULL,
                 "The body holds a number too large to read, past about 1.8e308 (line %d, "
                 "column %d).",
                 jerr.line, jerr.column);
        return NULL;
    }
    if (!root && strstr(jerr.text, "NUL byte in object key")) {
        /* Valid JSON that jansson cannot hold; no field of any puzzle has such a name. */
        api_fail(err, API_INVALID_REQUEST, NULL,
                 "An object key holds \\u0000 (line %d, column %d); no field has such a name.",
                 jerr.line, jerr.column);
        return NULL;
    }
    if (!root) {
        api_fail(err, API_MALFORMED_JSON, NULL,
                 "The body is not valid JSON: %s (line %d, column %d).", jerr.text, jerr.line,
                 jerr.column);
        return NULL;
    }
    void *job = NULL;
    if (!json_is_object(root))
        api_fail(err, API_INVALID_REQUEST, "",
                 "The body must be a JSON object, not %s; see GET /puzzles for an example.",
                 json_is_array(root) ? "an array" : "a single value");
    else
        job = puzzle->from_json(root, err);
    json_decref(root);
    return job;
}

api_answer *api_answer_solve(const api_puzzle *puzzle, api_format fmt, const char *body, size_t len,
                             budget *b, api_error *err)
{
    void *job = fmt == API_FORMAT_JSON ? job_from_json(puzzle, body, len, err)
                                       : puzzle->from_text(body, len, err);
    if (!job) return NULL;
    /* Parsing counts against the budget too (it started when the request was admitted). */
    b->countdown = 0;
    if (budget_expired(b)) {
        puzzle->free(job);
        api_fail(err, API_TIME_LIMIT, NULL,
                 "The time budget ran out while the request waited and was read; retry, or "
                 "send a smaller instance.");
        return NULL;
    }
    return api_answer_solve_job(puzzle, fmt, job, b, err);
}

api_answer *api_answer_solve_job(const api_puzzle *puzzle, api_format fmt, void *job, budget *b,
                                 api_error *err)
{
    if (!puzzle->solve(job, b, err)) {
        puzzle->free(job);
        return NULL;
    }
    api_answer *a = malloc(sizeof *a);
    if (!a) {
        puzzle->free(job);
        api_fail(err, API_INTERNAL, NULL, "Out of memory while preparing the answer.");
        return NULL;
    }
    a->puzzle = puzzle;
    a->fmt = fmt;
    a->job = job;
    memset(&a->cursor, 0, sizeof a->cursor);
    a->complete = false;
    a->stage = (api_writer){a->stage_buf, sizeof a->stage_buf, 0};
    a->stage_pos = 0;
    return a;
}

const char *api_answer_content_type(const api_answer *a)
{
    return a->fmt == API_FORMAT_JSON ? "application/json" : "text/plain; charset=utf-8";
}

/* Refills the staging buffer; the space left there is always at least API_ITEM_MAX, since the
 * buffer is emptied before each refill. */
static void refill(api_answer *a)
{
    a->stage.len = 0;
    a->stage_pos = 0;
    while (!a->complete && a->stage.cap - a->stage.len >= API_ITEM_MAX) {
        size_t before = a->stage.len;
        a->complete = a->fmt == API_FORMAT_JSON
                          ? a->puzzle->write_json(a->job, &a->cursor, &a->stage)
                          : a->puzzle->write_text(a->job, &a->cursor, &a->stage);
        if (!a->complete && a->stage.len == before) break; /* the writer wants a fresh buffer */
    }
}

size_t api_answer_read(api_answer *a, char *buf, size_t max)
{
    if (a->stage_pos == a->stage.len) {
        if (a->complete) return 0;
        refill(a);
    }
    size_t n = a->stage.len - a->stage_pos;
    if (n > max) n = max;
    memcpy(buf, a->stage_buf + a->stage_pos, n);
    a->stage_pos += n;
    return n;
}

void api_answer_free(api_answer *a)
{
    if (!a) return;
    a->puzzle->free(a->job);
    free(a);
}
