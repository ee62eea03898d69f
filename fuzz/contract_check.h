/* The contract's invariants for one request through the API layer's one entry point
 * (api_answer_solve, then api_answer_read until the end), shared by the libFuzzer targets
 * (fuzz/fuzz_answer.c) and the unit test that replays the crashes they found
 * (tests/api/test_fuzz_regressions.c):
 *   - an error is a known code with status 400 or 422, a message, a JSON Pointer path (or ""),
 *     and api_error_json gives a body that parses as {"error":{"code":..., "message":...}};
 *   - an answer has the format's content type; each read returns at most what was asked (and
 *     writes no further), the end stays the end; read out whole, a JSON answer parses as an
 *     object and a text answer ends with exactly one newline.
 * Answers longer than CONTRACT_ANSWER_MAX are checked piece by piece and then freed mid-stream
 * (as when a client goes away), so that a 24-byte request for gigabytes stays cheap. */
#ifndef PUZZLED_FUZZ_CONTRACT_CHECK_H
#define PUZZLED_FUZZ_CONTRACT_CHECK_H

#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "batch.h"
#include "registry.h"

#define CONTRACT_ANSWER_MAX (1024 * 1024)
#define CONTRACT_BUDGET_MS 20 /* per input: fuzzing wants many inputs, not deep solves */
#define CONTRACT_BATCH_INSTANCE_MAX (16 * 1024) /* the batch reader's limit, so 413 is reached */

typedef struct contract_failure {
    char why[512];
} contract_failure;

__attribute__((format(printf, 2, 3))) static inline bool contract_fail(contract_failure *f,
                                                                       const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->why, sizeof f->why, fmt, ap);
    va_end(ap);
    return false;
}

/* allow_413: body_too_large is a fair answer too (the JSON pre-scan's value limit, the batch
 * reader's instance limit). */
static inline bool contract_check_error_ex(const api_error *err, bool allow_413,
                                           contract_failure *f)
{
    if (err->code <= API_OK || err->code >= API_ERROR_CODE_COUNT)
        return contract_fail(f, "unknown error code %d", (int)err->code);
    int status = api_error_status(err->code);
    if (status != 400 && status != 422 && !(allow_413 && status == 413))
        return contract_fail(f, "%s has status %d, not 400/422: %.200s", api_error_name(err->code),
                             status, err->message);
    if (!memchr(err->message, '\0', sizeof err->message) || !err->message[0])
        return contract_fail(f, "%s without a message", api_error_name(err->code));
    if (!memchr(err->path, '\0', sizeof err->path) || (err->path[0] && err->path[0] != '/'))
        return contract_fail(f, "path is not a JSON Pointer: %.100s", err->path);

    size_t len = 0;
    char *body = api_error_json(err, &len);
    if (!body)
        return contract_fail(f, "no JSON body for %s: message \"%.200s\", path \"%.100s\"",
                             api_error_name(err->code), err->message, err->path);
    json_error_t jerr;
    json_t *root = json_loadb(body, len, 0, &jerr);
    const char *code = json_string_value(json_object_get(json_object_get(root, "error"), "code"));
    bool ok = root && len == strlen(body) && code && strcmp(code, api_error_name(err->code)) == 0 &&
              json_is_string(json_object_get(json_object_get(root, "error"), "message"));
    if (!ok) contract_fail(f, "error body is not the contract's: %.300s", body);
    json_decref(root);
    free(body);
    return ok;
}

static inline bool contract_check_answer(api_answer *a, api_format fmt, size_t piece,
                                         contract_failure *f)
{
    const char *want = fmt == API_FORMAT_JSON ? "application/json" : "text/plain; charset=utf-8";
    if (strcmp(api_answer_content_type(a), want) != 0)
        return contract_fail(f, "content type %s, not %s", api_answer_content_type(a), want);
    char *out = malloc(CONTRACT_ANSWER_MAX + 1);
    char *scratch = malloc(piece + 1);
    bool ok = out && scratch;
    if (!ok) contract_fail(f, "out of memory in the check");
    size_t n = 0;
    bool whole = true;
    while (ok) {
        scratch[piece] = 0x5a; /* a canary one past what was asked */
        size_t got = api_answer_read(a, scratch, piece);
        if (got > piece || scratch[piece] != 0x5a) {
            ok = contract_fail(f, "a read of at most %zu bytes gave %zu", piece, got);
        } else if (got == 0) {
            break;
        } else if (n + got > CONTRACT_ANSWER_MAX) {
            whole = false;
            break;
        } else {
            memcpy(out + n, scratch, got);
            n += got;
        }
    }
    if (ok && whole) {
        out[n] = '\0';
        if (api_answer_read(a, scratch, piece) != 0) {
            ok = contract_fail(f, "bytes after the end of the answer");
        } else if (fmt == API_FORMAT_JSON) {
            json_error_t jerr;
            json_t *root = json_loadb(out, n, 0, &jerr);
            if (!json_is_object(root))
                ok = contract_fail(f, "JSON answer does not parse as an object: %s: %.200s",
                                   jerr.text, out);
            json_decref(root);
        } else if (n == 0 || out[n - 1] != '\n' || (n >= 2 && out[n - 2] == '\n')) {
            ok = contract_fail(f, "text answer does not end with exactly one newline: %.200s", out);
        }
    }
    free(scratch);
    free(out);
    return ok;
}

/* A read size chosen from the input, so that one-byte, odd and larger-than-the-stage pieces are
 * all exercised. */
static inline size_t contract_piece_size(const char *data, size_t size)
{
    static const size_t sizes[] = {1, 7, 512, 4096, 8193, 40000};
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; i++) h = (h ^ (unsigned char)data[i]) * 16777619u;
    return sizes[h % (sizeof sizes / sizeof sizes[0])];
}

/* One request (data need not be NUL-terminated) through the entry point under a budget of
 * CONTRACT_BUDGET_MS; true when every invariant held, else false with f->why. */
static inline bool contract_check(const api_puzzle *puzzle, api_format fmt, const char *data,
                                  size_t size, contract_failure *f)
{
    char *body = malloc(size + 1); /* the server hands the body over NUL-terminated */
    if (!body) return contract_fail(f, "out of memory in the check");
    memcpy(body, data, size);
    body[size] = '\0';
    budget b;
    budget_init_ms(&b, CONTRACT_BUDGET_MS, NULL);
    api_error err;
    memset(&err, 0, sizeof err);
    api_answer *a = api_answer_solve(puzzle, fmt, body, size, &b, &err);
    free(body); /* as the server does: the answer must not need the request any more */
    /* A JSON body holding more values than the puzzle's largest instance needs is refused before
     * parsing with 413 body_too_large (api/json_prescan.h, openapi.yaml); a few hundred bytes of
     * `{}` reach that for puzzles whose instance is one number. */
    if (!a) return contract_check_error_ex(&err, fmt == API_FORMAT_JSON, f);
    bool ok = contract_check_answer(a, fmt, contract_piece_size(data, size), f);
    api_answer_free(a);
    return ok;
}

/* ---- the batch entry point (api_batch_solve, behind `puzzled solve`) ----------------------- */

typedef struct contract_stream {
    const char *data;
    size_t len, pos, piece;
    char *out;
    size_t out_len;
    bool out_full;
} contract_stream;

static inline ssize_t contract_read_piece(void *ctx, char *buf, size_t cap)
{
    contract_stream *s = ctx;
    size_t n = s->len - s->pos;
    if (n > s->piece) n = s->piece;
    if (n > cap) n = cap;
    memcpy(buf, s->data + s->pos, n);
    s->pos += n;
    return (ssize_t)n;
}

static inline bool contract_write_all(void *ctx, const char *bytes, size_t n)
{
    contract_stream *s = ctx;
    if (s->out_len + n > CONTRACT_ANSWER_MAX) {
        s->out_full = true; /* the batch reports an output error: allowed, and the end */
        return false;
    }
    memcpy(s->out + s->out_len, bytes, n);
    s->out_len += n;
    return true;
}

/* data[0] picks the puzzle (registry order) and the size of each read; the rest is the input
 * stream. A failed instance is API_BATCH_BAD_INSTANCE with the contract's error (400, 422, or 413
 * for an instance beyond the reader's limit); memory input never gives an I/O error; on success
 * JSON output is one JSON object per line and text output ends with exactly one newline (or is
 * empty: no instance). */
static inline bool contract_check_batch(api_format fmt, const char *data, size_t size,
                                        contract_failure *f)
{
    static const size_t pieces[] = {1, 3, 64, 4096, 1 << 20};
    if (size < 1) return true;
    unsigned char pick = (unsigned char)data[0];
    const api_puzzle *puzzle = registry_at(pick % registry_count());
    contract_stream s = {data + 1, size - 1, 0, pieces[(pick >> 4) % 5], NULL, 0, false};
    s.out = malloc(CONTRACT_ANSWER_MAX + 1);
    if (!s.out) return contract_fail(f, "out of memory in the check");
    api_batch_io io = {contract_read_piece, contract_write_all, &s};
    api_batch_limits limits = {CONTRACT_BUDGET_MS, CONTRACT_BATCH_INSTANCE_MAX, 1};
    size_t solved = 0;
    api_error err;
    memset(&err, 0, sizeof err);
    api_batch_result r = api_batch_solve(puzzle, fmt, &limits, &io, &solved, &err);
    bool ok = true;
    s.out[s.out_len] = '\0';
    if (r == API_BATCH_IO_ERROR) {
        if (!s.out_full) ok = contract_fail(f, "an I/O error from memory: %s", err.message);
    } else if (r == API_BATCH_BAD_INSTANCE) {
        ok = contract_check_error_ex(&err, true, f);
    } else if (r != API_BATCH_OK) {
        ok = contract_fail(f, "unknown batch result %d", (int)r);
    } else if (fmt == API_FORMAT_TEXT) {
        if (s.out_len &&
            (s.out[s.out_len - 1] != '\n' || (s.out_len >= 2 && s.out[s.out_len - 2] == '\n')))
            ok = contract_fail(f, "text output does not end with exactly one newline: %.200s",
                               s.out);
    } else {
        for (char *line = s.out; ok && line < s.out + s.out_len;) {
            char *end = memchr(line, '\n', (size_t)(s.out + s.out_len - line));
            size_t len = end ? (size_t)(end - line) : strlen(line);
            json_t *root = json_loadb(line, len, 0, NULL);
            if (!json_is_object(root))
                ok = contract_fail(f, "an output line is not a JSON object: %.200s", line);
            json_decref(root);
            line += len + 1;
        }
    }
    free(s.out);
    return ok;
}

#endif
