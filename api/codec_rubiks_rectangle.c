/* Rubik's Rectangle (CERC 2013) codec: JSON {"board": rows of integers} or the contest text (T,
 * then per instance `W H` and H rows); answers stream the solver's compact move array straight
 * into the output, so a million-move answer never exists as one string. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_fields.h"
#include "puzzle.h"
#include "rubiks_rectangle.h"
#include "text_scan.h"

#define MAX_SIDE RUBIKS_RECTANGLE_MAX_SIDE
/* Instances in one text body: each is held with its answer until the body's answer is written,
 * so the count is bounded on its own (422 beyond; README "Memory"). Read one at a time (the
 * batch reader of `puzzled solve`), instances cost nothing once written: the contest's bound. */
#define MAX_INSTANCES 100000
#define MAX_INSTANCES_STREAMED 1000000

typedef struct instance {
    int height, width;
    int32_t *cells; /* freed once solved */
    rubiks_rectangle_answer answer;
} instance;

typedef struct job {
    instance *items;
    size_t count, cap;
} job;

static void job_free(void *p)
{
    job *j = p;
    if (!j) return;
    for (size_t i = 0; i < j->count; i++) {
        free(j->items[i].cells);
        rubiks_rectangle_answer_free(&j->items[i].answer);
    }
    free(j->items);
    free(j);
}

/* A new empty instance at the end of the job; NULL when out of memory. */
static instance *job_add(job *j)
{
    if (j->count == j->cap) {
        size_t cap = j->cap ? 2 * j->cap : 4;
        instance *items = realloc(j->items, cap * sizeof *items);
        if (!items) return NULL;
        j->items = items;
        j->cap = cap;
    }
    instance *in = &j->items[j->count++];
    memset(in, 0, sizeof *in);
    return in;
}

/* ---- JSON ---- */

static void *rubiks_from_json(json_t *body, api_error *err)
{
    static const char *const allowed[] = {"board", NULL};
    if (!fields_known(body, "", allowed, err)) return NULL;
    json_t *board = fields_array(body, "", "board", err);
    if (!board) return NULL;
    char path[API_PATH_MAX], row_path[API_PATH_MAX];
    size_t h = json_array_size(board);

    /* Schema first (400): every row an array, every cell an integer. */
    for (size_t i = 0; i < h; i++) {
        json_t *row = json_array_get(board, i);
        api_path_index(row_path, sizeof row_path, "/board", i);
        if (!json_is_array(row)) {
            api_fail(err, API_INVALID_REQUEST, row_path,
                     "Row %zu of \"board\" must be an array of integers, not %s.", i,
                     fields_type_name(row));
            return NULL;
        }
        for (size_t c = 0; c < json_array_size(row); c++) {
            json_t *cell = json_array_get(row, c);
            long long v;
            /* A whole number outside 1..H*W is no permutation, a rule break (422, below), as
             * in the text format. */
            if (!fields_integral(cell, &v)) {
                api_path_index(path, sizeof path, row_path, c);
                api_fail(err, API_INVALID_REQUEST, path,
                         "Every cell of \"board\" must be an integer (the board holds 1..H*W), "
                         "not %s.",
                         fields_type_name(cell));
                return NULL;
            }
        }
    }

    /* Then the puzzle's rules (422). */
    if (h == 0) {
        api_fail(err, API_INVALID_BOARD, "/board",
                 "The board is empty: give from 1 to %d rows of 1 to %d numbers.", MAX_SIDE,
                 MAX_SIDE);
        return NULL;
    }
    if (h > MAX_SIDE) {
        api_fail(err, API_INVALID_BOARD, "/board",
                 "The board has %zu rows; at most %d are allowed.", h, MAX_SIDE);
        return NULL;
    }
    size_t w = json_array_size(json_array_get(board, 0));
    if (w == 0 || w > MAX_SIDE) {
        api_fail(err, API_INVALID_BOARD, "/board/0",
                 "The first row has %zu numbers; a row must have from 1 to %d.", w, MAX_SIDE);
        return NULL;
    }
    for (size_t i = 1; i < h; i++) {
        size_t len = json_array_size(json_array_get(board, i));
        if (len != w) {
            api_path_index(row_path, sizeof row_path, "/board", i);
            api_fail(err, API_INVALID_BOARD, row_path,
                     "Row %zu has %zu number%s but row 0 has %zu: every row must be as long as "
                     "the first.",
                     i, len, api_plural((long long)len), w);
            return NULL;
        }
    }
    size_t n = h * w;
    job *j = calloc(1, sizeof *j);
    instance *in = j ? job_add(j) : NULL;
    uint8_t *seen = calloc(n, 1);
    if (in) in->cells = malloc(n * sizeof *in->cells);
    if (!in || !seen || !in->cells) {
        free(seen);
        job_free(j);
        api_fail(err, API_INTERNAL, NULL, "Out of memory while reading the board.");
        return NULL;
    }
    in->height = (int)h;
    in->width = (int)w;
    for (size_t i = 0; i < h; i++) {
        json_t *row = json_array_get(board, i);
        for (size_t c = 0; c < w; c++) {
            long long v = 0;
            json_t *cell = json_array_get(row, c);
            fields_integral(cell, &v); /* checked above */
            bool bad_range = v < 1 || (unsigned long long)v > n;
            if (bad_range || seen[v - 1]) {
                api_path_index(row_path, sizeof row_path, "/board", i);
                api_path_index(path, sizeof path, row_path, c);
                char shown[FIELDS_NUMBER_TEXT];
                if (bad_range)
                    api_fail(err, API_INVALID_BOARD, path,
                             "The value %s is outside 1..%zu: the board must hold each of "
                             "1..%zu exactly once.",
                             fields_number_text(cell, shown), n, n);
                else
                    api_fail(err, API_INVALID_BOARD, path,
                             "The value %lld appears a second time: the board must hold each of "
                             "1..%zu exactly once.",
                             (long long)v, n);
                free(seen);
                job_free(j);
                return NULL;
            }
            seen[v - 1] = 1;
            in->cells[i * w + c] = (int32_t)v;
        }
    }
    free(seen);
    return j;
}

/* ---- contest text ---- */

/* Prefixes err's message with the instance it concerns. */
static void name_instance(api_error *err, size_t k)
{
    char message[API_MESSAGE_MAX + 32];
    snprintf(message, sizeof message, "instance %zu: %s", k, err->message);
    memcpy(err->message, message, API_MESSAGE_MAX - 1);
    err->message[API_MESSAGE_MAX - 1] = '\0';
}

/* Reads one instance (its `W H` line and rows) into in. */
static bool read_instance(text_scan *s, size_t k, instance *in, api_error *err)
{
    long long w, h;
    if (!scan_int(s, 1, MAX_SIDE, "the width W", &w, err)) return false;
    if (!scan_int(s, 1, MAX_SIDE, "the height H", &h, err)) return false;
    size_t n = (size_t)w * (size_t)h;
    in->width = (int)w;
    in->height = (int)h;
    in->cells = malloc(n * sizeof *in->cells);
    uint8_t *seen = calloc(n, 1);
    if (!in->cells || !seen) {
        free(seen);
        return api_fail(err, API_INTERNAL, NULL, "Out of memory while reading instance %zu.", k);
    }
    for (size_t i = 0; i < n; i++) {
        long long v;
        if (!scan_int(s, 1, (long long)n, "a number of the board", &v, err)) {
            free(seen);
            return false;
        }
        if (seen[v - 1]) {
            api_fail(err, API_INVALID_BOARD, NULL,
                     "instance %zu (line %d): the value %lld at row %zu, column %zu appears a "
                     "second time; the board must hold each of 1..%zu exactly once.",
                     k, s->line, v, i / (size_t)w + 1, i % (size_t)w + 1, n);
            free(seen);
            return false;
        }
        seen[v - 1] = 1;
        in->cells[i] = (int32_t)v;
    }
    free(seen);
    return true;
}

static bool read_count(text_scan *s, long long max, size_t *count, api_error *err)
{
    long long t;
    if (!scan_int(s, 1, max, "the number of instances T", &t, err)) return false;
    *count = (size_t)t;
    return true;
}

static bool rubiks_text_count(text_scan *s, size_t *count, api_error *err)
{
    return read_count(s, MAX_INSTANCES_STREAMED, count, err);
}

/* Reads instance number k (1-based) into the next slot of j. */
static bool job_read_instance(job *j, text_scan *s, size_t k, api_error *err)
{
    instance *in = job_add(j);
    if (!in) return api_fail(err, API_INTERNAL, NULL, "Out of memory while reading the instances.");
    if (read_instance(s, k, in, err)) return true;
    if (err->code == API_MALFORMED_TEXT || strncmp(err->message, "line ", 5) == 0)
        name_instance(err, k);
    return false;
}

static void *rubiks_text_instance(text_scan *s, size_t number, api_error *err)
{
    job *j = calloc(1, sizeof *j);
    if (!j) {
        api_fail(err, API_INTERNAL, NULL, "Out of memory while reading the instances.");
        return NULL;
    }
    if (job_read_instance(j, s, number, err)) return j;
    job_free(j);
    return NULL;
}

static void *rubiks_from_text(const char *text, size_t len, api_error *err)
{
    text_scan s;
    scan_init(&s, text, len);
    size_t t;
    if (!read_count(&s, MAX_INSTANCES, &t, err)) return NULL;
    job *j = calloc(1, sizeof *j);
    if (!j) {
        api_fail(err, API_INTERNAL, NULL, "Out of memory while reading the instances.");
        return NULL;
    }
    for (size_t k = 1; k <= t; k++) {
        if (!job_read_instance(j, &s, k, err)) {
            job_free(j);
            return NULL;
        }
    }
    if (!scan_end(&s, err)) {
        job_free(j);
        return NULL;
    }
    return j;
}

/* ---- solving ---- */

static bool rubiks_solve(void *p, budget *b, api_error *err)
{
    job *j = p;
    for (size_t k = 0; k < j->count; k++) {
        instance *in = &j->items[k];
        if (budget_expired(b)) {
            free(in->cells);
            in->cells = NULL;
            return api_fail(err, API_TIME_LIMIT, NULL,
                            "The time budget ran out before instance %zu; try fewer or smaller "
                            "boards, or a larger budget.",
                            k + 1);
        }
        rubiks_rectangle_board board = {in->height, in->width, in->cells};
        rubiks_rectangle_status st = rubiks_rectangle_solve(&board, b, &in->answer);
        free(in->cells);
        in->cells = NULL;
        switch (st) {
        case RUBIKS_RECTANGLE_OK:
            break;
        case RUBIKS_RECTANGLE_TIME_LIMIT:
            return api_fail(err, API_TIME_LIMIT, NULL,
                            "The solver ran out of its time budget on instance %zu (%d x %d); try "
                            "fewer or smaller boards, or a larger budget.",
                            k + 1, in->height, in->width);
        case RUBIKS_RECTANGLE_NO_MEMORY:
            return api_fail(err, API_INTERNAL, NULL,
                            "Out of memory while solving instance %zu; try a smaller board.",
                            k + 1);
        default:
            return api_fail(err, API_INTERNAL, NULL,
                            "Instance %zu was refused by the solver after validation.", k + 1);
        }
    }
    return true;
}

/* ---- answers ---- */

enum { STAGE_HEAD, STAGE_MOVES, STAGE_TAIL };

/* Writes moves from cursor->index on, each preceded by sep when not the first (JSON) or always
 * (text); true once all are written. */
static bool put_moves(const rubiks_rectangle_answer *a, api_cursor *cursor, api_writer *w,
                      bool json)
{
    while (cursor->index < a->move_count) {
        if (!writer_room(w, 16)) return false;
        rubiks_rectangle_move m = a->moves[cursor->index];
        if (json) {
            if (cursor->index > 0) writer_putc(w, ',');
            writer_putc(w, '"');
        } else {
            writer_putc(w, ' ');
        }
        writer_putc(w, m > 0 ? 'R' : 'C');
        writer_put_u64(w, (uint64_t)(m > 0 ? m : -m));
        if (json) writer_putc(w, '"');
        cursor->index++;
    }
    return true;
}

static bool rubiks_write_json(const void *p, api_cursor *cursor, api_writer *w)
{
    const job *j = p;
    const instance *in = &j->items[0];
    const rubiks_rectangle_answer *a = &in->answer;
    if (cursor->stage == STAGE_HEAD) {
        if (!writer_room(w, 128)) return false;
        writer_puts(w, "{\"height\":");
        writer_put_u64(w, (uint64_t)in->height);
        writer_puts(w, ",\"width\":");
        writer_put_u64(w, (uint64_t)in->width);
        writer_puts(w, a->solvable ? ",\"solvable\":true" : ",\"solvable\":false");
        writer_puts(w, ",\"move_count\":");
        writer_put_u64(w, a->move_count);
        writer_puts(w, ",\"moves\":[");
        cursor->stage = STAGE_MOVES;
        cursor->index = 0;
    }
    if (cursor->stage == STAGE_MOVES) {
        if (!put_moves(a, cursor, w, true)) return false;
        cursor->stage = STAGE_TAIL;
    }
    if (!writer_room(w, 2)) return false;
    writer_puts(w, "]}");
    return true;
}

static bool rubiks_write_text(const void *p, api_cursor *cursor, api_writer *w)
{
    const job *j = p;
    /* cursor->stage: the instance; cursor->sub: its phase; cursor->index: the next move. */
    while (cursor->stage < j->count) {
        const rubiks_rectangle_answer *a = &j->items[cursor->stage].answer;
        if (cursor->sub == STAGE_HEAD) {
            if (!writer_room(w, 32)) return false;
            if (!a->solvable) {
                writer_puts(w, "IMPOSSIBLE\n");
                cursor->stage++;
                continue;
            }
            writer_puts(w, "POSSIBLE ");
            writer_put_u64(w, a->move_count);
            cursor->sub = STAGE_MOVES;
            cursor->index = 0;
        }
        if (cursor->sub == STAGE_MOVES) {
            if (!put_moves(a, cursor, w, false)) return false;
            cursor->sub = STAGE_TAIL;
        }
        if (!writer_room(w, 1)) return false;
        writer_putc(w, '\n');
        cursor->sub = STAGE_HEAD;
        cursor->stage++;
    }
    return true;
}

const api_puzzle codec_rubiks_rectangle = {
    .slug = "rubiks-rectangle",
    .title = "Rubik's Rectangle (CERC 2013)",
    .summary = "Sort an H x W board holding 1..H*W by reversing whole rows and columns, or show "
               "that it cannot be sorted.",
    .limits_json = "{\"height\":{\"min\":1,\"max\":1000},\"width\":{\"min\":1,\"max\":1000},"
                   "\"max_moves\":\"10*H*W\"}",
    .example_json = "{\"board\":[[1,2,3],[4,5,6],[9,8,7]]}",
    .example_text = "4\n\n3 3\n1 2 3\n4 5 6\n9 8 7\n\n4 2\n1 2 3 4\n5 6 7 8\n\n4 4\n1 2 15 4\n"
                    "8 7 11 5\n12 6 10 9\n13 14 3 16\n\n3 4\n1 2 4\n3 5 6\n7 8 9\n10 11 12\n",
    /* {"board": 1000 rows of 1000} */
    .json_limits = {3, JSON_PRESCAN_OBJECT_COST + JSON_PRESCAN_ARRAY_COST +
                           (size_t)MAX_SIDE *(JSON_PRESCAN_ARRAY_COST + MAX_SIDE)},
    .from_json = rubiks_from_json,
    .from_text = rubiks_from_text,
    .solve = rubiks_solve,
    .write_json = rubiks_write_json,
    .write_text = rubiks_write_text,
    .free = job_free,
    .text_count = rubiks_text_count,
    .text_instance = rubiks_text_instance,
};
