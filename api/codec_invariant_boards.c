/* invariant-boards: {"n": 4, "boards": true} or the contest's "4\n" in, the class count out.
 *
 * The answer's counts are GMP integers turned into decimal strings once, after solving. Boards
 * are kept as their first rows (bits) and rebuilt row by row while streaming: one row is one
 * writer item (at most 2000 + a few bytes), so even one 2000 x 2000 board never exists as text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "invariant_boards.h"
#include "json_fields.h"
#include "puzzle.h"
#include "text_scan.h"

#define N_MIN 1
#define N_MAX 2000
#define BOARDS_MAX 10000
/* Boards are listed only while the list stays under this many bytes: n = 1939 has ~8 400
 * classes of 3.8 MB each, ~31.5 GB of answer from a 24-byte request. */
#define BOARDS_BYTES_MAX ((size_t)64 << 20)

/* How many boards "boards": true may list for n: BOARDS_MAX, fewer when they are large. */
static size_t boards_limit(int n)
{
    size_t per_board = (size_t)n * ((size_t)n + 4) + 8; /* rows as JSON strings, with commas */
    size_t by_size = BOARDS_BYTES_MAX / per_board;
    return by_size < BOARDS_MAX ? by_size : BOARDS_MAX;
}

/* Rebuilding rows while streaming: the iterator of the board being written. A cache only: the
 * output depends on the cursor alone, and a cursor it does not match restarts the iterator. */
typedef struct row_stream {
    bool live;
    size_t board;
    invariant_boards_rows rows;
    char *line; /* one row's JSON item */
} row_stream;

typedef struct ib_job {
    int n;
    bool boards;
    bool solved;
    invariant_boards_result result;
    char *count;     /* decimal */
    char *invariant; /* decimal */
    row_stream *stream;
} ib_job;

static ib_job *job_new(int n, bool boards, api_error *err)
{
    ib_job *job = calloc(1, sizeof *job);
    if (!job) {
        api_fail(err, API_INTERNAL, NULL, "Out of memory while reading the request.");
        return NULL;
    }
    job->n = n;
    job->boards = boards;
    return job;
}

static void *ib_from_json(json_t *body, api_error *err)
{
    static const char *const allowed[] = {"n", "boards", NULL};
    long long n;
    bool boards;
    if (!fields_known(body, "", allowed, err) ||
        !fields_int(body, "", "n", true, N_MIN, N_MAX, 0, &n, err) ||
        !fields_bool(body, "", "boards", false, &boards, err))
        return NULL;
    return job_new((int)n, boards, err);
}

static void *ib_from_text(const char *text, size_t len, api_error *err)
{
    text_scan s;
    scan_init(&s, text, len);
    const char *word;
    size_t wlen;
    if (!scan_word(&s, "n (the board size)", &word, &wlen, err)) return NULL;
    size_t i = wlen > 1 && (word[0] == '+' || word[0] == '-') ? 1 : 0;
    bool digits = i < wlen;
    for (size_t k = i; k < wlen; k++) digits &= word[k] >= '0' && word[k] <= '9';
    if (!digits) {
        char shown[SCAN_SHOWN_MAX];
        scan_fail(&s, err, "n (the board size) must be an integer, not \"%s\".",
                  scan_shown(word, wlen, shown));
        return NULL;
    }
    /* An integer, but possibly far too long for any integer type: range-check the digits. */
    long long n = -1;
    while (i < wlen && word[i] == '0') i++;
    if (word[0] != '-' && wlen - i <= 6) n = strtoll(word, NULL, 10);
    if (n < N_MIN || n > N_MAX) {
        api_fail(err, API_INVALID_BOARD, NULL,
                 "line %d: n is %.*s%s; the board size must be from %d to %d.", s.line,
                 (int)(wlen > 40 ? 40 : wlen), word, wlen > 40 ? "..." : "", N_MIN, N_MAX);
        return NULL;
    }
    if (!scan_end(&s, err)) return NULL;
    return job_new((int)n, false, err);
}

static char *decimal(const mpz_t z)
{
    char *text = malloc(mpz_sizeinbase(z, 10) + 2);
    if (text) mpz_get_str(text, 10, z);
    return text;
}

static bool ib_solve(void *opaque, budget *b, api_error *err)
{
    ib_job *job = opaque;
    invariant_boards_status st =
        invariant_boards_solve(job->n, job->boards ? boards_limit(job->n) : 0, b, &job->result);
    job->solved = true;
    switch (st) {
    case IB_OK:
        break;
    case IB_TIME_LIMIT:
        return api_fail(err, API_TIME_LIMIT, NULL,
                        "Counting the invariant boards for n = %d did not finish within the time "
                        "budget; try again later or raise the server's budget.",
                        job->n);
    case IB_TOO_MANY: {
        char *count = decimal(job->result.count);
        size_t digits = count ? strlen(count) : 0;
        if (count && digits <= 60)
            api_fail(err, API_TOO_MANY_BOARDS, "/boards",
                     "n = %d has %s classes of invariant boards, more than the %zu that "
                     "\"boards\": true may list for this n (at most %d boards and %zu MiB); ask "
                     "without \"boards\" for the count alone.",
                     job->n, count, boards_limit(job->n), BOARDS_MAX, BOARDS_BYTES_MAX >> 20);
        else
            api_fail(err, API_TOO_MANY_BOARDS, "/boards",
                     "n = %d has a %zu-digit number of classes of invariant boards, more than the "
                     "%zu that \"boards\": true may list for this n; ask without \"boards\" for "
                     "the count alone.",
                     job->n, digits, boards_limit(job->n));
        free(count);
        return false;
    }
    default:
        return api_fail(err, API_INTERNAL, NULL,
                        "Out of memory while counting the invariant boards for n = %d.", job->n);
    }
    job->count = decimal(job->result.count);
    job->invariant = decimal(job->result.invariant_boards);
    bool ok = job->count && job->invariant;
    if (ok && job->boards) {
        job->stream = calloc(1, sizeof *job->stream);
        ok = job->stream && (job->stream->line = malloc((size_t)job->n + 8));
    }
    if (!ok) return api_fail(err, API_INTERNAL, NULL, "Out of memory while preparing the answer.");
    return true;
}

/* Row `row` of board `board`, from the stream's iterator (restarted when it is elsewhere). */
static const uint64_t *stream_row(const ib_job *job, size_t board, size_t row)
{
    row_stream *st = job->stream;
    const invariant_boards_result *r = &job->result;
    if (st->live && (st->board != board || st->rows.next_row != row)) {
        invariant_boards_rows_free(&st->rows);
        st->live = false;
    }
    if (!st->live) {
        if (!invariant_boards_rows_init(&st->rows, (size_t)job->n,
                                        r->first_rows + board * r->words))
            return NULL;
        st->live = true;
        st->board = board;
        while (st->rows.next_row < row) invariant_boards_rows_next(&st->rows);
    }
    return invariant_boards_rows_next(&st->rows);
}

enum { STAGE_HEAD, STAGE_BOARDS, STAGE_TAIL };

static bool ib_write_json(const void *opaque, api_cursor *cursor, api_writer *w)
{
    const ib_job *job = opaque;
    size_t n = (size_t)job->n;
    if (cursor->stage == STAGE_HEAD) {
        size_t need = 64 + strlen(job->count) + strlen(job->invariant);
        if (!writer_room(w, need)) return false;
        writer_puts(w, "{\"n\":");
        writer_put_u64(w, n);
        writer_puts(w, ",\"count\":\"");
        writer_puts(w, job->count);
        writer_puts(w, "\",\"invariant_boards\":\"");
        writer_puts(w, job->invariant);
        writer_putc(w, '"');
        if (!job->boards) {
            writer_putc(w, '}');
            return true;
        }
        writer_puts(w, ",\"boards\":[");
        cursor->stage = STAGE_BOARDS;
        cursor->index = cursor->sub = 0;
    }
    if (cursor->stage == STAGE_BOARDS) {
        char *line = job->stream->line;
        while (cursor->index < job->result.board_count) {
            if (!writer_room(w, n + 8)) return false;
            const uint64_t *row = stream_row(job, cursor->index, cursor->sub);
            if (!row) return false; /* out of memory: stop rather than write a wrong answer */
            size_t len = 0;
            if (cursor->sub == 0) {
                if (cursor->index > 0) line[len++] = ',';
                line[len++] = '[';
            } else {
                line[len++] = ',';
            }
            line[len++] = '"';
            for (size_t j = 0; j < n; j++) line[len++] = (row[j / 64] >> (j % 64)) & 1 ? '-' : '+';
            line[len++] = '"';
            if (++cursor->sub == n) {
                line[len++] = ']';
                cursor->sub = 0;
                cursor->index++;
            }
            writer_put(w, line, len);
        }
        cursor->stage = STAGE_TAIL;
    }
    if (!writer_room(w, 2)) return false;
    writer_puts(w, "]}");
    return true;
}

static bool ib_write_text(const void *opaque, api_cursor *cursor, api_writer *w)
{
    const ib_job *job = opaque;
    (void)cursor;
    if (!writer_room(w, strlen(job->count) + 1)) return false;
    writer_puts(w, job->count);
    writer_putc(w, '\n');
    return true;
}

static void ib_free(void *opaque)
{
    ib_job *job = opaque;
    if (!job) return;
    if (job->solved) invariant_boards_result_free(&job->result);
    if (job->stream) {
        if (job->stream->live) invariant_boards_rows_free(&job->stream->rows);
        free(job->stream->line);
        free(job->stream);
    }
    free(job->count);
    free(job->invariant);
    free(job);
}

const api_puzzle codec_invariant_boards = {
    .slug = "invariant-boards",
    .title = "Chessboard transformation (HNOI2001)",
    .summary = "Count the n x n boards of +1/-1 that equal their own transformation (every cell "
               "becomes the product of its neighbours), up to rotations and reflections.",
    .limits_json = "{\"n\":{\"min\":1,\"max\":2000},\"boards_max\":10000,"
                   "\"boards_bytes_max\":67108864}",
    .example_json = "{\"n\":4,\"boards\":true}",
    .example_text = "4\n",
    /* {"n", "boards"} */
    .json_limits = {1, JSON_PRESCAN_OBJECT_COST + 2},
    .from_json = ib_from_json,
    .from_text = ib_from_text,
    .solve = ib_solve,
    .write_json = ib_write_json,
    .write_text = ib_write_text,
    .free = ib_free,
};
