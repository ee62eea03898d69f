/* The Mayan puzzle's codec: JSON {"moves", "columns", "width", "height"} or the NOIP 2011 text
 * (n, then five columns bottom to top, each ended by 0) in; the smallest sequence of exactly n
 * moves out, as JSON or as the contest's "x y g" lines ("-1" when there is none).
 *
 * Errors: the JSON schema (types, unknown keys, ranges of moves/width/height/colours) is
 * invalid_request; rules of the board (a 0 inside a column, a column taller than the board, a
 * column count other than the width) are invalid_board. In the text, what does not read as
 * integers is malformed_text, and integers that break the rules (n or a colour out of range, a
 * column of more than 7 blocks) are invalid_board, both naming the line. */
#include <stdlib.h>

#include "json_fields.h"
#include "mayan.h"
#include "puzzle.h"
#include "text_scan.h"

#define TEXT_WIDTH 5
#define TEXT_HEIGHT 7

typedef struct mayan_job {
    mayan_board board;
    int moves;
    mayan_result result;
} mayan_job;

static mayan_job *job_new(api_error *err)
{
    mayan_job *job = calloc(1, sizeof *job);
    if (!job) api_fail(err, API_INTERNAL, NULL, "Out of memory while reading the request.");
    return job;
}

/* Types and ranges of every column entry: the schema, 400. */
static bool columns_fit_schema(json_t *columns, api_error *err)
{
    char path[API_PATH_MAX], cell_path[API_PATH_MAX];
    size_t i, j;
    json_t *column, *value;
    json_array_foreach(columns, i, column)
    {
        api_path_index(path, sizeof path, "/columns", i);
        if (!json_is_array(column))
            return api_fail(err, API_INVALID_REQUEST, path,
                            "Each column must be an array of colours (bottom to top), not %s.",
                            fields_type_name(column));
        json_array_foreach(column, j, value)
        {
            api_path_index(cell_path, sizeof cell_path, path, j);
            long long v;
            if (!fields_integral(value, &v))
                return api_fail(err, API_INVALID_REQUEST, cell_path,
                                "A colour must be an integer from 1 to %d, not %s.",
                                MAYAN_MAX_COLOUR, fields_type_name(value));
            char shown[FIELDS_NUMBER_TEXT];
            if (v < 0 || v > MAYAN_MAX_COLOUR)
                return api_fail(err, API_INVALID_REQUEST, cell_path,
                                "Colour %s is out of range: colours are 1 to %d.",
                                fields_number_text(value, shown), MAYAN_MAX_COLOUR);
        }
    }
    return true;
}

/* The board's rules: column count, column heights, no holes. 422. */
static bool columns_fit_board(json_t *columns, mayan_board *board, api_error *err)
{
    char path[API_PATH_MAX], cell_path[API_PATH_MAX];
    size_t given = json_array_size(columns);
    if (given != (size_t)board->width)
        return api_fail(err, API_INVALID_BOARD, "/columns",
                        "The board is %d column%s wide but %zu %s given; give one array per "
                        "column (an empty array for an empty column), or set \"width\".",
                        board->width, api_plural(board->width), given,
                        given == 1 ? "column was" : "columns were");
    size_t i, j;
    json_t *column, *value;
    json_array_foreach(columns, i, column)
    {
        api_path_index(path, sizeof path, "/columns", i);
        if (json_array_size(column) > (size_t)board->height)
            return api_fail(err, API_INVALID_BOARD, path,
                            "Column %zu holds %zu blocks but the board is %d row%s high.", i,
                            json_array_size(column), board->height, api_plural(board->height));
        json_array_foreach(column, j, value)
        {
            long long v = 0;
            fields_integral(value, &v); /* checked by columns_fit_schema */
            if (v == 0) {
                api_path_index(cell_path, sizeof cell_path, path, j);
                return api_fail(err, API_INVALID_BOARD, cell_path,
                                "0 is not a colour: a column lists only its blocks, bottom to top "
                                "(a 0 would be a hole under a block; leave out the contest's "
                                "closing 0).");
            }
            board->cell[i][j] = (unsigned char)v;
        }
    }
    return true;
}

static void *mayan_from_json(json_t *body, api_error *err)
{
    static const char *const allowed[] = {"moves", "columns", "width", "height", NULL};
    if (!fields_known(body, "", allowed, err)) return NULL;
    long long moves, width, height;
    if (!fields_int(body, "", "moves", true, 1, MAYAN_MAX_MOVES, 0, &moves, err)) return NULL;
    if (!fields_int(body, "", "width", false, 1, MAYAN_MAX_SIDE, TEXT_WIDTH, &width, err))
        return NULL;
    if (!fields_int(body, "", "height", false, 1, MAYAN_MAX_SIDE, TEXT_HEIGHT, &height, err))
        return NULL;
    json_t *columns = fields_array(body, "", "columns", err);
    if (!columns || !columns_fit_schema(columns, err)) return NULL;
    mayan_job *job = job_new(err);
    if (!job) return NULL;
    job->moves = (int)moves;
    job->board.width = (int)width;
    job->board.height = (int)height;
    if (!columns_fit_board(columns, &job->board, err)) {
        free(job);
        return NULL;
    }
    return job;
}

/* Any integer the scanner can hold: range errors are the board's (422), not the syntax's. */
#define TEXT_INT_MIN (-99999999999999999LL)
#define TEXT_INT_MAX 99999999999999999LL

static void *mayan_from_text(const char *text, size_t len, api_error *err)
{
    text_scan s;
    scan_init(&s, text, len);
    long long n;
    if (!scan_int(&s, TEXT_INT_MIN, TEXT_INT_MAX, "the move count n", &n, err)) return NULL;
    if (n < 1 || n > MAYAN_MAX_MOVES) {
        api_fail(err, API_INVALID_BOARD, NULL,
                 "line %d: the move count is %lld; it must be 1 to %d.", s.line, n,
                 MAYAN_MAX_MOVES);
        return NULL;
    }
    mayan_job *job = job_new(err);
    if (!job) return NULL;
    job->moves = (int)n;
    job->board.width = TEXT_WIDTH;
    job->board.height = TEXT_HEIGHT;
    for (int x = 0; x < TEXT_WIDTH; x++) {
        for (int y = 0;; y++) {
            long long v;
            if (!scan_int(&s, TEXT_INT_MIN, TEXT_INT_MAX, "a colour (or the column's closing 0)",
                          &v, err))
                goto fail;
            if (v == 0) break;
            if (v < 0 || v > MAYAN_MAX_COLOUR) {
                api_fail(err, API_INVALID_BOARD, NULL,
                         "line %d: colour %lld in column %d is out of range: colours are 1 to %d.",
                         s.line, v, x, MAYAN_MAX_COLOUR);
                goto fail;
            }
            if (y == TEXT_HEIGHT) {
                api_fail(err, API_INVALID_BOARD, NULL,
                         "line %d: column %d holds more than %d blocks (or its closing 0 is "
                         "missing).",
                         s.line, x, TEXT_HEIGHT);
                goto fail;
            }
            job->board.cell[x][y] = (unsigned char)v;
        }
    }
    if (!scan_end(&s, err)) goto fail;
    return job;
fail:
    free(job);
    return NULL;
}

static bool mayan_job_solve(void *opaque, budget *b, api_error *err)
{
    mayan_job *job = opaque;
    switch (mayan_solve(&job->board, job->moves, b, &job->result)) {
    case MAYAN_SOLVED:
    case MAYAN_NO_SOLUTION:
        return true;
    case MAYAN_TIME_LIMIT:
        return api_fail(err, API_TIME_LIMIT, NULL,
                        "The search for %d moves did not finish within the time budget; try fewer "
                        "moves or a smaller board.",
                        job->moves);
    case MAYAN_NO_MEMORY:
        return api_fail(err, API_INTERNAL, NULL, "Out of memory while searching.");
    default:
        return api_fail(err, API_INTERNAL, NULL,
                        "The board passed validation but the solver "
                        "refused it; please report this request.");
    }
}

/* The whole answer is one item: at most 10 moves of at most 40 bytes. */
#define ANSWER_MAX 512

static bool mayan_write_json(const void *opaque, api_cursor *cursor, api_writer *w)
{
    const mayan_job *job = opaque;
    (void)cursor;
    if (!writer_room(w, ANSWER_MAX)) return false;
    const mayan_result *r = &job->result;
    if (r->status != MAYAN_SOLVED) {
        writer_puts(w, "{\"solvable\":false,\"moves\":[]}");
        return true;
    }
    writer_puts(w, "{\"solvable\":true,\"moves\":[");
    for (int i = 0; i < r->move_count; i++) {
        if (i) writer_putc(w, ',');
        writer_puts(w, "{\"x\":");
        writer_put_i64(w, r->moves[i].x);
        writer_puts(w, ",\"y\":");
        writer_put_i64(w, r->moves[i].y);
        writer_puts(w, ",\"direction\":");
        writer_put_i64(w, r->moves[i].direction);
        writer_putc(w, '}');
    }
    writer_puts(w, "]}");
    return true;
}

static bool mayan_write_text(const void *opaque, api_cursor *cursor, api_writer *w)
{
    const mayan_job *job = opaque;
    (void)cursor;
    if (!writer_room(w, ANSWER_MAX)) return false;
    const mayan_result *r = &job->result;
    if (r->status != MAYAN_SOLVED) {
        writer_puts(w, "-1\n");
        return true;
    }
    for (int i = 0; i < r->move_count; i++) {
        writer_put_i64(w, r->moves[i].x);
        writer_putc(w, ' ');
        writer_put_i64(w, r->moves[i].y);
        writer_putc(w, ' ');
        writer_put_i64(w, r->moves[i].direction);
        writer_putc(w, '\n');
    }
    return true;
}

static void mayan_job_free(void *job)
{
    free(job);
}

const api_puzzle codec_mayan = {
    .slug = "mayan",
    .title = "Mayan puzzle (NOIP 2011)",
    .summary = "Empty a board of stacked coloured blocks in exactly n sideways drags; runs of "
               "three or more vanish. Answers the lexicographically smallest sequence.",
    .limits_json = "{\"moves\":{\"min\":1,\"max\":10},\"width\":{\"min\":1,\"max\":16,"
                   "\"default\":5},\"height\":{\"min\":1,\"max\":16,\"default\":7},"
                   "\"colours\":{\"min\":1,\"max\":10},\"text_board\":\"5x7\"}",
    .example_json = "{\"moves\":3,\"columns\":[[1],[2,1],[2,3,4],[3,1],[2,4,3,4]]}",
    .example_text = "3\n1 0\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0\n",
    /* {"moves", "width", "height", "columns": 16 columns of 16} */
    .json_limits = {3, JSON_PRESCAN_OBJECT_COST + 3 + JSON_PRESCAN_ARRAY_COST +
                           MAYAN_MAX_SIDE *(JSON_PRESCAN_ARRAY_COST + MAYAN_MAX_SIDE)},
    .from_json = mayan_from_json,
    .from_text = mayan_from_text,
    .solve = mayan_job_solve,
    .write_json = mayan_write_json,
    .write_text = mayan_write_text,
    .free = mayan_job_free,
};
