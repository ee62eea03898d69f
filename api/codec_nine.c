/* The nine codec: JSON {"a": [...], "b": [...], "max_moves"} or the contest text (n rows of A,
 * then n of B) into a nine_board; the answer as compact JSON or the contest's output (the move
 * count, then one move a line; -1 when unsolvable). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_fields.h"
#include "nine.h"
#include "puzzle.h"
#include "text_scan.h"
#include "utf8.h"

typedef struct nine_job {
    nine_board board;
    long max_moves; /* -1: none */
    nine_solution sol;
    char reason[240]; /* why no answer, for solvable: false */
} nine_job;

static nine_job *job_new(api_error *err)
{
    nine_job *job = calloc(1, sizeof *job);
    if (!job) api_fail(err, API_INTERNAL, NULL, "Out of memory while reading the request.");
    return job;
}

/* The row s (len characters) as bits when it is n characters of 0 and 1; false otherwise. */
static bool row_bits(const char *s, size_t len, int n, uint64_t *bits)
{
    if (len != (size_t)n) return false;
    uint64_t row = 0;
    for (size_t j = 0; j < len; j++) {
        if (s[j] != '0' && s[j] != '1') return false;
        if (s[j] == '1') row |= (uint64_t)1 << j;
    }
    *bits = row;
    return true;
}

/* Fills row i of matrix m from s (len characters); the failure sentence goes to err. */
static bool read_row(uint64_t *m, int i, const char *s, size_t len, int n, const char *path,
                     const char *where, api_error *err)
{
    /* Characters first: a character of several bytes would make the length look wrong. */
    char shown[UTF8_CHAR_SHOWN_MAX];
    for (size_t j = 0; j < len; j++) /* every byte before j is 0 or 1: j counts characters */
        if (s[j] != '0' && s[j] != '1')
            return api_fail(err, API_INVALID_BOARD, path,
                            "%s has the character %s at position %zu; only 0 and 1 are allowed.",
                            where, utf8_char_shown(s + j, len - j, NULL, shown), j + 1);
    if (len != (size_t)n)
        return api_fail(err, API_INVALID_BOARD, path,
                        "%s has %zu character%s; every row must have %d, as many as there are "
                        "rows.",
                        where, len, api_plural((long long)len), n);
    uint64_t row = 0;
    for (size_t j = 0; j < len; j++)
        if (s[j] == '1') row |= (uint64_t)1 << j;
    m[i] = row;
    return true;
}

static bool json_matrix(json_t *arr, const char *key, int n, uint64_t *m, api_error *err)
{
    char base[8], path[API_PATH_MAX], where[48];
    snprintf(base, sizeof base, "/%s", key);
    if (json_array_size(arr) != (size_t)n)
        return api_fail(err, API_INVALID_BOARD, base,
                        "\"%s\" has %zu row%s but \"a\" has %d; A and B must be the same size.",
                        key, json_array_size(arr), api_plural((long long)json_array_size(arr)), n);
    for (int i = 0; i < n; i++) {
        json_t *row = json_array_get(arr, (size_t)i);
        const char *s = json_string_value(row);
        size_t len = json_string_length(row);
        /* The row's path and name are made only for a wrong row: formatting them for every
         * row cost more than the rest of a 3 x 3 parse. */
        if (row_bits(s, len, n, &m[i])) continue;
        api_path_index(path, sizeof path, base, (size_t)i);
        snprintf(where, sizeof where, "Row %s[%d]", key, i);
        return read_row(m, i, s, len, n, path, where, err);
    }
    return true;
}

static bool all_strings(json_t *arr, const char *key, api_error *err)
{
    for (size_t i = 0; i < json_array_size(arr); i++) {
        json_t *row = json_array_get(arr, i);
        if (json_is_string(row)) continue;
        char base[8], path[API_PATH_MAX];
        snprintf(base, sizeof base, "/%s", key);
        api_path_index(path, sizeof path, base, i);
        return api_fail(err, API_INVALID_REQUEST, path,
                        "Row %s[%zu] must be a string of 0s and 1s, not %s.", key, i,
                        fields_type_name(row));
    }
    return true;
}

static void *nine_from_json(json_t *body, api_error *err)
{
    static const char *const allowed[] = {"a", "b", "max_moves", NULL};
    if (!fields_known(body, "", allowed, err)) return NULL;
    json_t *a = fields_array(body, "", "a", err);
    if (!a) return NULL;
    json_t *b = fields_array(body, "", "b", err);
    if (!b) return NULL;
    long long max_moves = -1;
    if (!fields_int(body, "", "max_moves", false, 0, 1000000000LL, -1, &max_moves, err))
        return NULL;
    if (!all_strings(a, "a", err) || !all_strings(b, "b", err)) return NULL;
    size_t n = json_array_size(a);
    if (n == 0) {
        api_fail(err, API_INVALID_BOARD, "/a", "\"a\" is empty; give from 1 to 64 rows.");
        return NULL;
    }
    if (n > NINE_MAX_N) {
        api_fail(err, API_INVALID_BOARD, "/a", "\"a\" has %zu rows; at most %d are allowed.", n,
                 NINE_MAX_N);
        return NULL;
    }
    nine_job *job = job_new(err);
    if (!job) return NULL;
    job->board.n = (int)n;
    job->max_moves = (long)max_moves;
    if (!json_matrix(a, "a", (int)n, job->board.a, err) ||
        !json_matrix(b, "b", (int)n, job->board.b, err)) {
        free(job);
        return NULL;
    }
    return job;
}

static void *nine_from_text(const char *text, size_t len, api_error *err)
{
    text_scan s;
    scan_init(&s, text, len);
    nine_job *job = job_new(err);
    if (!job) return NULL;
    job->max_moves = -1;
    int n = 0, last_line = 0;
    for (int r = 0; n == 0 || r < 2 * n; r++) {
        const char *w;
        size_t wlen;
        char what[40], where[64];
        snprintf(what, sizeof what, "row %d of %s", (n ? r % n : 0) + 1, r < n || !n ? "A" : "B");
        if (!scan_word(&s, what, &w, &wlen, err)) goto fail;
        if (s.line == last_line) {
            scan_fail(&s, err, "each row of the board must be on its own line.");
            goto fail;
        }
        last_line = s.line;
        if (n == 0) {
            if (wlen > NINE_MAX_N) {
                api_fail(err, API_INVALID_BOARD, NULL,
                         "line %d: the board is %zu wide; at most %d is allowed.", s.line, wlen,
                         NINE_MAX_N);
                goto fail;
            }
            n = (int)wlen;
            job->board.n = n;
        }
        snprintf(where, sizeof where, "line %d (%s)", s.line, what);
        if (!read_row(r < n ? job->board.a : job->board.b, r % n, w, wlen, n, NULL, where, err))
            goto fail;
    }
    if (!scan_end(&s, err)) goto fail;
    return job;
fail:
    free(job);
    return NULL;
}

static void describe_orbit(nine_job *job)
{
    const nine_orbit_report *o = &job->sol.orbit;
    char cells[96] = "";
    for (int t = 0; t < o->cells; t++) {
        size_t used = strlen(cells);
        snprintf(cells + used, sizeof cells - used, "%s(%d,%d)", t ? ", " : "", o->row[t] + 1,
                 o->col[t] + 1);
    }
    snprintf(job->reason, sizeof job->reason,
             "the rotation orbit of cells %s (row,column) holds %d ones across A and B but needs "
             "exactly %d, and no move changes that count",
             cells, o->ones, o->cells);
}

static bool nine_job_solve(void *vjob, budget *b, api_error *err)
{
    nine_job *job = vjob;
    nine_status st = nine_solve(&job->board, job->max_moves, b, &job->sol);
    switch (st) {
    case NINE_OK:
        return true;
    case NINE_UNSOLVABLE:
        describe_orbit(job);
        return true;
    case NINE_OVER_LIMIT:
        if (job->sol.optimal)
            snprintf(job->reason, sizeof job->reason,
                     "no solution within max_moves moves (%ld) exists: the shortest has %zu",
                     job->max_moves, job->sol.move_count);
        else
            snprintf(job->reason, sizeof job->reason,
                     "no solution within max_moves moves (%ld) was found: the shortest found has "
                     "%zu",
                     job->max_moves, job->sol.move_count);
        return true;
    case NINE_TIME_LIMIT:
        return api_fail(err, API_TIME_LIMIT, NULL,
                        "The solver ran out of time on this %d x %d board; try a smaller board.",
                        job->board.n, job->board.n);
    default:
        return api_fail(err, API_INTERNAL, NULL, "Out of memory while solving.");
    }
}

static bool nine_write_json(const void *vjob, api_cursor *cur, api_writer *w)
{
    const nine_job *job = vjob;
    if (cur->stage == 0) {
        if (!writer_room(w, 64 + 6 * sizeof job->reason)) return false;
        writer_puts(w, "{\"n\":");
        writer_put_i64(w, job->board.n);
        if (job->sol.status != NINE_OK) {
            writer_puts(w, ",\"solvable\":false,\"reason\":");
            writer_put_json_string(w, job->reason);
            writer_putc(w, '}');
            return true;
        }
        writer_puts(w, ",\"solvable\":true,\"optimal\":");
        writer_puts(w, job->sol.optimal ? "true" : "false");
        writer_puts(w, ",\"move_count\":");
        writer_put_u64(w, job->sol.move_count);
        writer_puts(w, ",\"moves\":[");
        cur->stage = 1;
    }
    for (; cur->index < job->sol.move_count; cur->index++) {
        if (!writer_room(w, 8)) return false;
        char name[4];
        int len = nine_move_name(job->sol.moves[cur->index], name);
        if (cur->index) writer_putc(w, ',');
        writer_putc(w, '"');
        writer_put(w, name, (size_t)len);
        writer_putc(w, '"');
    }
    if (!writer_room(w, 2)) return false;
    writer_puts(w, "]}");
    return true;
}

static bool nine_write_text(const void *vjob, api_cursor *cur, api_writer *w)
{
    const nine_job *job = vjob;
    if (cur->stage == 0) {
        if (!writer_room(w, 24)) return false;
        if (job->sol.status != NINE_OK) {
            writer_puts(w, "-1\n");
            return true;
        }
        writer_put_u64(w, job->sol.move_count);
        writer_putc(w, '\n');
        cur->stage = 1;
    }
    for (; cur->index < job->sol.move_count; cur->index++) {
        if (!writer_room(w, 5)) return false;
        char name[4];
        int len = nine_move_name(job->sol.moves[cur->index], name);
        writer_put(w, name, (size_t)len);
        writer_putc(w, '\n');
    }
    return true;
}

static void nine_job_free(void *vjob)
{
    nine_job *job = vjob;
    if (!job) return;
    nine_solution_free(&job->sol);
    free(job);
}

const api_puzzle codec_nine = {
    .slug = "nine",
    .title = "9-Nine (XJTUPC 2025), n x n",
    .summary = "Rotate two 0/1 matrices and swap their columns until A is all 0 and B all 1.",
    .limits_json = "{\"n\":{\"min\":1,\"max\":64},\"max_moves\":{\"min\":0,\"max\":1000000000},"
                   "\"optimal\":\"n <= 3\",\"n9_max_moves\":999}",
    .example_json = "{\"a\":[\"100\",\"000\",\"000\"],\"b\":[\"111\",\"111\",\"011\"]}",
    .example_text = "100\n000\n000\n111\n111\n011\n",
    /* {"a": [64 rows], "b": [64 rows], "max_moves"} */
    .json_limits = {2, JSON_PRESCAN_OBJECT_COST + 2 * (JSON_PRESCAN_ARRAY_COST + 64) + 1},
    .from_json = nine_from_json,
    .from_text = nine_from_text,
    .solve = nine_job_solve,
    .write_json = nine_write_json,
    .write_text = nine_write_text,
    .free = nine_job_free,
};
