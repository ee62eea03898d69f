/* maze-tac-toe: JSON {"maze": [N strings of 3N characters], "boards": bool} or the contest text
 * (N, then N lines) into a maze_tac_toe_maze; the answer is {"count":…[,"boards":[…]]} or the
 * count on one line.
 *
 * Both formats share one row checker, so the rules (line lengths, cell codes, walls on the
 * border, exactly one start) and their messages are the same; only the place named differs: a
 * JSON Pointer (/maze/4) for JSON, the input line for text. */
#include "maze_tac_toe.h"
#include "puzzle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_fields.h"
#include "text_scan.h"
#include "utf8.h"

typedef struct maze_job {
    int n;
    unsigned char *cells; /* n * n cell codes */
    int start_row, start_col;
    int starts; /* start cells seen so far while checking */
    bool want_boards;
    maze_tac_toe_result result;
} maze_job;

/* Where a row came from, for error messages: a JSON Pointer, or a line of the text input. */
typedef struct row_place {
    char path[API_PATH_MAX]; /* "" for text */
    int text_line;           /* 0 for JSON, and for text about the whole maze */
    bool text;
} row_place;

static void job_free(void *p)
{
    maze_job *job = p;
    if (!job) return;
    maze_tac_toe_result_free(&job->result);
    free(job->cells);
    free(job);
}

static maze_job *job_new(int n, bool want_boards, api_error *err)
{
    maze_job *job = calloc(1, sizeof *job);
    if (job) job->cells = malloc((size_t)n * (size_t)n);
    if (!job || !job->cells) {
        job_free(job);
        api_fail(err, API_INTERNAL, NULL, "Out of memory while reading the maze.");
        return NULL;
    }
    job->n = n;
    job->want_boards = want_boards;
    return job;
}

/* A 422 about the maze, placed by `at`: "line L: " in front for text, the pointer for JSON
 * (then the sentence starts with a capital). */
static bool fail_board(api_error *err, const row_place *at, const char *what)
{
    if (at->text_line > 0)
        return api_fail(err, API_INVALID_BOARD, NULL, "line %d: %s", at->text_line, what);
    char first = what[0] >= 'a' && what[0] <= 'z' ? (char)(what[0] - 'a' + 'A') : what[0];
    return api_fail(err, API_INVALID_BOARD, at->text ? NULL : at->path, "%c%s", first, what + 1);
}

/* The three bytes of a cell, printable, for messages: a character of several bytes whole
 * ("Mé"), a control character or a stray byte as \xHH. */
static void cell_shown(const char *t, char out[13])
{
    out[0] = '\0';
    for (size_t k = 0; k < 3;) {
        size_t seq = (unsigned char)t[k] >= 0x80
                         ? utf8_sequence_len((const unsigned char *)t + k, 3 - k)
                         : 0;
        if (seq) {
            strncat(out, t + k, seq);
            k += seq;
        } else {
            char one[5];
            strcat(out, utf8_byte_shown((unsigned char)t[k++], one));
        }
    }
}

/* Checks maze row r (0-based) and stores its cells. */
static bool check_row(maze_job *job, int r, const char *text, size_t len, const row_place *at,
                      api_error *err)
{
    int n = job->n;
    char what[API_MESSAGE_MAX - 32];
    if (len != (size_t)(3 * n)) {
        /* A character of several bytes makes the length look wrong: name it instead. */
        for (size_t k = 0; k < len; k++) {
            unsigned char c = (unsigned char)text[k];
            if (c >= 0x20 && c < 0x7f) continue;
            char one[UTF8_CHAR_SHOWN_MAX]; /* every byte before k is ASCII: k counts characters */
            snprintf(what, sizeof what,
                     "maze row %d has the character %s at position %zu (cell %zu); cells are "
                     "written in ASCII: ### (wall), ... (empty), BBB (start), Mij / Oij.",
                     r + 1, utf8_char_shown(text + k, len - k, NULL, one), k + 1, k / 3 + 1);
            return fail_board(err, at, what);
        }
        snprintf(what, sizeof what,
                 "maze row %d has %zu character%s, but a maze of %d rows needs %d in every row "
                 "(N rows of 3N characters, 3 per cell).",
                 r + 1, len, api_plural((long long)len), n, 3 * n);
        return fail_board(err, at, what);
    }
    for (int c = 0; c < n; c++) {
        const char *t = text + 3 * c;
        char shown[13];
        bool is_start = false;
        int code = maze_tac_toe_cell_code(t, &is_start);
        if (code < 0) {
            cell_shown(t, shown);
            snprintf(what, sizeof what,
                     "the cell at row %d, column %d is \"%s\", which is no cell: use ### (wall), "
                     "... (empty), BBB (start), or Mij / Oij with i and j from 1 to 3.",
                     r + 1, c + 1, shown);
            return fail_board(err, at, what);
        }
        bool border = r == 0 || c == 0 || r == n - 1 || c == n - 1;
        if (border && code != MAZE_TAC_TOE_WALL) {
            cell_shown(t, shown);
            snprintf(what, sizeof what,
                     "the cell at row %d, column %d is \"%s\" on the border; every border cell "
                     "must be a wall (###).",
                     r + 1, c + 1, shown);
            return fail_board(err, at, what);
        }
        if (is_start) {
            if (job->starts > 0) {
                snprintf(what, sizeof what,
                         "the cell at row %d, column %d is a second start (BBB); the first is at "
                         "row %d, column %d: keep exactly one.",
                         r + 1, c + 1, job->start_row + 1, job->start_col + 1);
                return fail_board(err, at, what);
            }
            job->starts++;
            job->start_row = r;
            job->start_col = c;
        }
        job->cells[r * n + c] = (unsigned char)code;
    }
    return true;
}

static bool check_has_start(const maze_job *job, const row_place *at, api_error *err)
{
    if (job->starts == 1) return true;
    return fail_board(err, at, "the maze has no start cell (BBB): add exactly one.");
}

/* ---- JSON ---------------------------------------------------------------------------------- */

static void *maze_from_json(json_t *body, api_error *err)
{
    static const char *const allowed[] = {"maze", "boards", NULL};
    if (!fields_known(body, "", allowed, err)) return NULL;
    json_t *rows = fields_array(body, "", "maze", err);
    if (!rows) return NULL;
    size_t count = json_array_size(rows);
    for (size_t i = 0; i < count; i++) {
        json_t *row = json_array_get(rows, i);
        if (!json_is_string(row)) {
            char path[API_PATH_MAX];
            api_path_index(path, sizeof path, "/maze", i);
            api_fail(err, API_INVALID_REQUEST, path,
                     "Each maze row must be a string of 3N characters, not %s.",
                     fields_type_name(row));
            return NULL;
        }
    }
    bool want_boards = false;
    if (!fields_bool(body, "", "boards", false, &want_boards, err)) return NULL;
    if (count < MAZE_TAC_TOE_MIN_N || count > MAZE_TAC_TOE_MAX_N) {
        api_fail(err, API_INVALID_BOARD, "/maze",
                 "The maze has %zu row%s; an N x N maze needs N from %d to %d rows.", count,
                 api_plural((long long)count), MAZE_TAC_TOE_MIN_N, MAZE_TAC_TOE_MAX_N);
        return NULL;
    }
    maze_job *job = job_new((int)count, want_boards, err);
    if (!job) return NULL;
    row_place at = {.text_line = 0};
    for (size_t i = 0; i < count; i++) {
        json_t *row = json_array_get(rows, i);
        api_path_index(at.path, sizeof at.path, "/maze", i);
        if (!check_row(job, (int)i, json_string_value(row), json_string_length(row), &at, err)) {
            job_free(job);
            return NULL;
        }
    }
    snprintf(at.path, sizeof at.path, "/maze");
    if (!check_has_start(job, &at, err)) {
        job_free(job);
        return NULL;
    }
    return job;
}

/* ---- contest text ---------------------------------------------------------------------------- */

/* N as written: an integer token (else malformed_text), then 3..100 (else invalid_board). */
static bool scan_size(text_scan *s, int *n, api_error *err)
{
    const char *w = NULL;
    size_t len = 0;
    if (!scan_word(s, "N (the maze size)", &w, &len, err)) return false;
    size_t i = (w[0] == '+' || w[0] == '-') && len > 1 ? 1 : 0;
    long long v = 0;
    for (size_t k = i; k < len; k++) {
        if (w[k] < '0' || w[k] > '9') {
            char shown[SCAN_SHOWN_MAX];
            return scan_fail(s, err, "N (the maze size) must be an integer, not \"%s\".",
                             scan_shown(w, len, shown));
        }
        if (v < 1000) v = v * 10 + (w[k] - '0'); /* saturates: only the range matters */
    }
    if (w[0] == '-') v = -v;
    if (v < MAZE_TAC_TOE_MIN_N || v > MAZE_TAC_TOE_MAX_N)
        return api_fail(err, API_INVALID_BOARD, NULL,
                        "line %d: N is %.*s; the maze size must be from %d to %d.", s->line,
                        (int)(len > 40 ? 40 : len), w, MAZE_TAC_TOE_MIN_N, MAZE_TAC_TOE_MAX_N);
    *n = (int)v;
    return true;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static void *maze_from_text(const char *text, size_t len, api_error *err)
{
    text_scan s;
    scan_init(&s, text, len);
    int n = 0;
    if (!scan_size(&s, &n, err)) return NULL;
    maze_job *job = job_new(n, false, err);
    if (!job) return NULL;
    row_place at = {.path = "", .text = true};
    for (int r = 0; r < n; r++) {
        at.text_line = scan_next_line(&s); /* skips blank lines and leading white space */
        if (s.p == s.end) {
            api_fail(err, API_MALFORMED_TEXT, NULL,
                     "line %d: the input ends after %d maze row%s, but N = %d needs %d rows.",
                     s.line, r, api_plural(r), n, n);
            job_free(job);
            return NULL;
        }
        const char *row = s.p;
        const char *eol = memchr(row, '\n', (size_t)(s.end - row));
        if (!eol) eol = s.end;
        const char *stop = eol;
        while (stop > row && is_blank(stop[-1])) stop--; /* CR and trailing blanks */
        s.p = eol;
        if (!check_row(job, r, row, (size_t)(stop - row), &at, err)) {
            job_free(job);
            return NULL;
        }
    }
    int line = scan_next_line(&s);
    if (s.p != s.end) {
        api_fail(err, API_MALFORMED_TEXT, NULL,
                 "line %d: the input goes on after the %d maze rows that N = %d announces; give "
                 "exactly N rows.",
                 line, n, n);
        job_free(job);
        return NULL;
    }
    at.text_line = 0;
    if (!check_has_start(job, &at, err)) {
        job_free(job);
        return NULL;
    }
    return job;
}

/* ---- solve and write -------------------------------------------------------------------- */

static bool maze_solve(void *p, budget *b, api_error *err)
{
    maze_job *job = p;
    maze_tac_toe_maze maze = {job->n, job->cells, job->start_row, job->start_col};
    switch (maze_tac_toe_solve(&maze, job->want_boards, b, &job->result)) {
    case MAZE_TAC_TOE_OK:
        return true;
    case MAZE_TAC_TOE_TIME_LIMIT:
        return api_fail(err, API_TIME_LIMIT, NULL,
                        "The search did not finish within the time budget; try a smaller maze.");
    case MAZE_TAC_TOE_NO_MEMORY:
        return api_fail(err, API_INTERNAL, NULL, "Out of memory while searching the maze.");
    default:
        return api_fail(err, API_INTERNAL, NULL, "The checked maze was refused by the solver.");
    }
}

enum { STAGE_HEAD, STAGE_BOARDS, STAGE_TAIL, STAGE_DONE };

static bool maze_write_json(const void *p, api_cursor *cur, api_writer *w)
{
    const maze_job *job = p;
    const maze_tac_toe_result *res = &job->result;
    if (cur->stage == STAGE_HEAD) {
        if (!writer_room(w, 48)) return false;
        writer_puts(w, "{\"count\":");
        writer_put_u64(w, res->count);
        if (job->want_boards) writer_puts(w, ",\"boards\":[");
        cur->stage = job->want_boards ? STAGE_BOARDS : STAGE_TAIL;
        cur->index = 0;
    }
    if (cur->stage == STAGE_BOARDS) {
        /* one board: ,["O.M",".O.","MOM"] — 20 bytes */
        while (cur->index < res->count && writer_room(w, 24)) {
            char rows[3][4];
            maze_tac_toe_board_rows(res->boards[cur->index], rows);
            if (cur->index) writer_putc(w, ',');
            writer_putc(w, '[');
            for (int r = 0; r < 3; r++) {
                if (r) writer_putc(w, ',');
                writer_put_json_string(w, rows[r]);
            }
            writer_putc(w, ']');
            cur->index++;
        }
        if (cur->index < res->count) return false;
        cur->stage = STAGE_TAIL;
    }
    if (cur->stage == STAGE_TAIL) {
        if (!writer_room(w, 2)) return false;
        if (job->want_boards) writer_putc(w, ']');
        writer_putc(w, '}');
        cur->stage = STAGE_DONE;
    }
    return true;
}

static bool maze_write_text(const void *p, api_cursor *cur, api_writer *w)
{
    const maze_job *job = p;
    if (cur->stage == 0) {
        if (!writer_room(w, 24)) return false;
        writer_put_u64(w, job->result.count);
        writer_putc(w, '\n');
        cur->stage = 1;
    }
    return true;
}

#define SAMPLE_ROWS                                                                                \
    "\"#####################\",\"###O11###...###M13###\",\"###......O22......###\","               \
    "\"###...######M22######\",\"###BBB###M31###M11###\",\"###...O32...M33O31###\","               \
    "\"#####################\""

const api_puzzle codec_maze_tac_toe = {
    .slug = "maze-tac-toe",
    .title = "Maze Tac Toe (USACO 2021 US Open, Silver)",
    .summary = "Walk an N x N maze whose cells place M or O on a tic-tac-toe board; count the "
               "distinct boards on which MOO or OOM first appears.",
    .limits_json = "{\"n\":{\"min\":3,\"max\":100}}",
    .example_json = "{\"maze\":[" SAMPLE_ROWS "],\"boards\":true}",
    .example_text = "7\n#####################\n###O11###...###M13###\n###......O22......###\n"
                    "###...######M22######\n###BBB###M31###M11###\n###...O32...M33O31###\n"
                    "#####################\n",
    /* {"maze": 100 rows, "boards"} */
    .json_limits = {2, JSON_PRESCAN_OBJECT_COST + JSON_PRESCAN_ARRAY_COST + MAZE_TAC_TOE_MAX_N + 1},
    .from_json = maze_from_json,
    .from_text = maze_from_text,
    .solve = maze_solve,
    .write_json = maze_write_json,
    .write_text = maze_write_text,
    .free = job_free,
};
