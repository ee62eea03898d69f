#include "batch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define READ_CHUNK ((size_t)64 << 10)
#define WRITE_CHUNK ((size_t)64 << 10)

/* The input seen through a window that holds at most one instance (plus what was read past
 * it). When an instance does not fit yet, the window doubles and is filled before the next
 * try, so re-reading an instance from its start costs O(its size) in total. */
typedef struct input {
    const api_batch_io *io;
    char *buf;
    size_t cap;        /* allocated: always one more than the data, for a closing NUL */
    size_t start, len; /* the unread data is buf[start, len) */
    size_t max;        /* the largest instance accepted */
    int line;          /* the line number of buf[start] */
    bool eof;
} input;

typedef enum step { STEP_DONE, STEP_FAILED, STEP_IO } step;

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

static step io_failure(api_error *err, const char *what)
{
    api_fail(err, API_INTERNAL, NULL, "Cannot %s: %s.", what, strerror(errno));
    return STEP_IO;
}

/* Moves the unread data to the front, makes room for `want` bytes of data and reads until the
 * buffer is full or the input ends. */
static step fill(input *in, size_t want, api_error *err)
{
    size_t have = in->len - in->start;
    if (have) memmove(in->buf, in->buf + in->start, have);
    in->start = 0;
    in->len = have;
    if (want + 1 > in->cap) {
        char *grown = realloc(in->buf, want + 1);
        if (!grown) {
            api_fail(err, API_INTERNAL, NULL, "Out of memory for an instance of %zu bytes.", want);
            return STEP_FAILED;
        }
        in->buf = grown;
        in->cap = want + 1;
    }
    while (!in->eof && in->len + 1 < in->cap) {
        ssize_t n = in->io->read(in->io->ctx, in->buf + in->len, in->cap - 1 - in->len);
        if (n < 0) {
            if (errno == EINTR) continue;
            return io_failure(err, "read the input");
        }
        if (n == 0) in->eof = true;
        in->len += (size_t)n;
    }
    return STEP_DONE;
}

/* The current instance does not fit in the window: double it (up to the limit). */
static step grow(input *in, api_error *err)
{
    size_t have = in->len - in->start;
    if (have > in->max) {
        api_fail(err, API_BODY_TOO_LARGE, NULL,
                 "An instance (from line %d on) is larger than %zu bytes; raise --max-body to "
                 "read it.",
                 in->line, in->max);
        return STEP_FAILED;
    }
    size_t want = have * 2 > READ_CHUNK ? have * 2 : READ_CHUNK;
    if (want > in->max + 1) want = in->max + 1; /* one byte past the limit tells it is over */
    return fill(in, want, err);
}

/* Reading from [start, window end) with text_scan: the window stops after the last white
 * space, so that no token is cut, unless the input has ended. */
static size_t text_window_end(const input *in)
{
    if (in->eof) return in->len;
    size_t end = in->len;
    while (end > in->start && !is_space(in->buf[end - 1])) end--;
    return end;
}

typedef bool (*text_reader)(text_scan *s, void *ctx, api_error *err);

/* Runs read over the window, growing it while the failure is only that the window ended. */
static step read_text(input *in, text_reader read, void *ctx, api_error *err)
{
    if (!in->buf) { /* nothing read yet: NULL + 0 below would be undefined (UBSan, fuzz_batch) */
        step st = grow(in, err);
        if (st != STEP_DONE) return st;
    }
    for (;;) {
        size_t end = text_window_end(in);
        text_scan s;
        scan_init(&s, in->buf + in->start, end - in->start);
        s.line = in->line;
        if (read(&s, ctx, err)) {
            in->line = s.line;
            in->start = (size_t)(s.p - in->buf);
            return STEP_DONE;
        }
        scan_next_line(&s);
        bool ran_out = s.p == s.end && !in->eof;
        if (!ran_out) return STEP_FAILED;
        step st = grow(in, err);
        if (st != STEP_DONE) return st;
    }
}

typedef struct writer_ctx {
    const api_batch_io *io;
    char buf[WRITE_CHUNK];
} writer_ctx;

static step write_bytes(writer_ctx *w, const char *bytes, size_t n, api_error *err)
{
    if (n && !w->io->write(w->io->ctx, bytes, n)) return io_failure(err, "write the answer");
    return STEP_DONE;
}

/* Streams an answer out and frees it. */
static step write_answer(writer_ctx *w, api_answer *a, api_error *err)
{
    step st = STEP_DONE;
    size_t n;
    while (st == STEP_DONE && (n = api_answer_read(a, w->buf, sizeof w->buf)) > 0)
        st = write_bytes(w, w->buf, n, err);
    api_answer_free(a);
    return st;
}

/* ---- contest text with many instances ---------------------------------------------------- */

typedef struct instance_read {
    const api_puzzle *puzzle;
    size_t number;
    void *job;
} instance_read;

static bool read_count(text_scan *s, void *ctx, api_error *err)
{
    instance_read *r = ctx;
    return r->puzzle->text_count(s, &r->number, err);
}

static bool read_instance(text_scan *s, void *ctx, api_error *err)
{
    instance_read *r = ctx;
    r->job = r->puzzle->text_instance(s, r->number, err);
    return r->job != NULL;
}

static bool read_only_space(text_scan *s, void *ctx, api_error *err)
{
    (void)ctx;
    return scan_end(s, err);
}

/* Each instance gets its own budget: the time limit, and the threads it may use. */
static void instance_budget(budget *b, const api_batch_limits *limits)
{
    budget_init_ms(b, limits->time_limit_ms, NULL);
    b->threads = limits->threads;
}

static step solve_text_batch(const api_puzzle *puzzle, const api_batch_limits *limits, input *in,
                             writer_ctx *w, size_t *solved, api_error *err)
{
    instance_read r = {puzzle, 0, NULL};
    step st = read_text(in, read_count, &r, err);
    if (st != STEP_DONE) return st;
    size_t count = r.number;
    for (size_t k = 1; k <= count; k++) {
        budget b;
        instance_budget(&b, limits);
        r.number = k;
        st = read_text(in, read_instance, &r, err);
        if (st != STEP_DONE) return st;
        api_answer *a = api_answer_solve_job(puzzle, API_FORMAT_TEXT, r.job, &b, err);
        if (!a) return STEP_FAILED;
        st = write_answer(w, a, err);
        if (st != STEP_DONE) return st;
        ++*solved;
    }
    /* Only white space may follow the last instance: check it chunk by chunk. */
    for (;;) {
        st = read_text(in, read_only_space, NULL, err);
        if (st != STEP_DONE || in->eof) return st;
        st = fill(in, in->cap - 1, err);
        if (st != STEP_DONE) return st;
    }
}

/* ---- one text instance ------------------------------------------------------------------- */

static step solve_whole_text(const api_puzzle *puzzle, const api_batch_limits *limits, input *in,
                             writer_ctx *w, size_t *solved, api_error *err)
{
    while (!in->eof) {
        step st = grow(in, err);
        if (st != STEP_DONE) return st;
    }
    size_t len = in->len - in->start;
    if (len > in->max) {
        api_fail(err, API_BODY_TOO_LARGE, NULL,
                 "The input is larger than %zu bytes; raise --max-body to read it.", in->max);
        return STEP_FAILED;
    }
    in->buf[in->len] = '\0';
    budget b;
    instance_budget(&b, limits);
    api_answer *a = api_answer_solve(puzzle, API_FORMAT_TEXT, in->buf + in->start, len, &b, err);
    if (!a) return STEP_FAILED;
    step st = write_answer(w, a, err);
    if (st == STEP_DONE) *solved = 1;
    return st;
}

/* ---- JSON values ------------------------------------------------------------------------- */

/* The end of the JSON value at buf[from] (an object or array by its brackets, strings and
 * escapes respected; anything else up to white space), or 0 when the data ends first. The
 * value itself is checked by the codec, which gives the contract's message. */
static size_t json_value_end(const char *buf, size_t from, size_t len)
{
    if (buf[from] != '{' && buf[from] != '[') {
        size_t i = from;
        while (i < len && !is_space(buf[i])) i++;
        return i < len ? i : 0;
    }
    size_t depth = 0;
    bool in_string = false;
    for (size_t i = from; i < len; i++) {
        char c = buf[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            if (--depth == 0) return i + 1;
        }
    }
    return 0;
}

/* A later value's error says which value it was; the first one's stays the HTTP answer's. */
static void name_value(api_error *err, size_t number)
{
    if (number < 2) return;
    char message[API_MESSAGE_MAX + 32];
    int n = snprintf(message, sizeof message, "JSON value %zu: %s", number, err->message);
    size_t keep = n < 0 ? 0 : (size_t)n < API_MESSAGE_MAX ? (size_t)n : API_MESSAGE_MAX - 1;
    memcpy(err->message, message, keep);
    err->message[keep] = '\0';
}

static step solve_json_values(const api_puzzle *puzzle, const api_batch_limits *limits, input *in,
                              writer_ctx *w, size_t *solved, api_error *err)
{
    for (size_t number = 1;; number++) {
        size_t end;
        for (;;) {
            while (in->start < in->len && is_space(in->buf[in->start])) {
                if (in->buf[in->start] == '\n') in->line++;
                in->start++;
            }
            if (in->start == in->len) {
                if (in->eof) return STEP_DONE;
                step st = fill(in, in->cap > 1 ? in->cap - 1 : READ_CHUNK, err);
                if (st != STEP_DONE) return st;
                continue;
            }
            end = json_value_end(in->buf, in->start, in->len);
            if (end || in->eof) break;
            step st = grow(in, err);
            if (st != STEP_DONE) return st;
        }
        if (!end) end = in->len; /* cut short: the codec says what is missing */
        if (end - in->start > in->max) {
            api_fail(err, API_BODY_TOO_LARGE, NULL,
                     "JSON value %zu is larger than %zu bytes; raise --max-body to read it.",
                     number, in->max);
            return STEP_FAILED;
        }
        char saved = in->buf[end];
        in->buf[end] = '\0';
        budget b;
        instance_budget(&b, limits);
        api_answer *a = api_answer_solve(puzzle, API_FORMAT_JSON, in->buf + in->start,
                                         end - in->start, &b, err);
        in->buf[end] = saved;
        if (!a) {
            name_value(err, number);
            return STEP_FAILED;
        }
        step st = number > 1 ? write_bytes(w, "\n", 1, err) : STEP_DONE;
        if (st == STEP_DONE)
            st = write_answer(w, a, err);
        else
            api_answer_free(a);
        if (st != STEP_DONE) return st;
        ++*solved;
        in->start = end;
    }
}

api_batch_result api_batch_solve(const api_puzzle *puzzle, api_format fmt,
                                 const api_batch_limits *limits, const api_batch_io *io,
                                 size_t *solved, api_error *err)
{
    *solved = 0;
    err->code = API_OK;
    input in = {.io = io, .max = limits->max_instance_bytes, .line = 1};
    writer_ctx *w = malloc(sizeof *w);
    step st = STEP_FAILED;
    if (!w) {
        api_fail(err, API_INTERNAL, NULL, "Out of memory.");
    } else {
        w->io = io;
        if (fmt == API_FORMAT_JSON)
            st = solve_json_values(puzzle, limits, &in, w, solved, err);
        else if (puzzle->text_count && puzzle->text_instance)
            st = solve_text_batch(puzzle, limits, &in, w, solved, err);
        else
            st = solve_whole_text(puzzle, limits, &in, w, solved, err);
    }
    free(w);
    free(in.buf);
    return st == STEP_DONE ? API_BATCH_OK
           : st == STEP_IO ? API_BATCH_IO_ERROR
                           : API_BATCH_BAD_INSTANCE;
}
