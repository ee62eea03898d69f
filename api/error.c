#include "error.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "utf8.h"

static const struct {
    int status;
    const char *name;
} error_table[API_ERROR_CODE_COUNT] = {
    [API_OK] = {200, "ok"},
    [API_MALFORMED_JSON] = {400, "malformed_json"},
    [API_INVALID_REQUEST] = {400, "invalid_request"},
    [API_MALFORMED_TEXT] = {400, "malformed_text"},
    [API_UNKNOWN_PUZZLE] = {404, "unknown_puzzle"},
    [API_NOT_FOUND] = {404, "not_found"},
    [API_METHOD_NOT_ALLOWED] = {405, "method_not_allowed"},
    [API_BODY_TOO_LARGE] = {413, "body_too_large"},
    [API_UNSUPPORTED_MEDIA_TYPE] = {415, "unsupported_media_type"},
    [API_INVALID_BOARD] = {422, "invalid_board"},
    [API_TOO_MANY_BOARDS] = {422, "too_many_boards"},
    [API_TIME_LIMIT] = {422, "time_limit"},
    [API_OVERLOADED] = {503, "overloaded"},
    [API_INTERNAL] = {500, "internal_error"},
    [API_HEADERS_TOO_LARGE] = {431, "headers_too_large"},
    [API_HTTP_VERSION_NOT_SUPPORTED] = {505, "http_version_not_supported"},
};

int api_error_status(api_error_code code)
{
    return (unsigned)code < API_ERROR_CODE_COUNT ? error_table[code].status : 500;
}

const char *api_error_name(api_error_code code)
{
    return (unsigned)code < API_ERROR_CODE_COUNT ? error_table[code].name : "internal_error";
}

bool api_failv(api_error *err, api_error_code code, const char *path, const char *fmt, va_list ap)
{
    err->code = code;
    err->has_path = path != NULL;
    if (!path) path = "";
    utf8_sanitize(err->path, sizeof err->path, path, strlen(path));
    /* Twice the room, so that the cut happens in utf8_sanitize, which never splits a character. */
    char text[2 * API_MESSAGE_MAX];
    int n = vsnprintf(text, sizeof text, fmt, ap);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof text ? (size_t)n : sizeof text - 1;
    utf8_sanitize(err->message, sizeof err->message, text, len);
    return false;
}

bool api_fail(api_error *err, api_error_code code, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    api_failv(err, code, path, fmt, ap);
    va_end(ap);
    return false;
}

char *api_error_json(const api_error *err, size_t *len)
{
    /* Sanitized again: an api_error filled by hand must not turn into "out of memory". */
    char message[API_MESSAGE_MAX], path[API_PATH_MAX];
    utf8_sanitize(message, sizeof message, err->message,
                  strnlen(err->message, sizeof err->message));
    utf8_sanitize(path, sizeof path, err->path, strnlen(err->path, sizeof err->path));
    json_t *inner = json_pack("{s:s, s:s}", "code", api_error_name(err->code), "message",
                              message[0] ? message : api_error_name(err->code));
    if (!inner) return NULL;
    if (err->has_path) json_object_set_new(inner, "path", json_string(path));
    json_t *root = json_pack("{s:o}", "error", inner);
    if (!root) return NULL;
    char *text = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    if (text && len) *len = strlen(text);
    return text;
}

void api_path_join(char *dst, size_t cap, const char *base, const char *token)
{
    size_t n = (size_t)snprintf(dst, cap, "%s/", base);
    if (n >= cap) return;
    size_t tlen = strlen(token);
    for (const char *p = token; *p && n + 2 < cap; p++) {
        size_t seq = utf8_sequence_len((const unsigned char *)p, tlen - (size_t)(p - token));
        if (seq > 1) { /* a character goes in whole or not at all */
            if (n + seq + 1 > cap) break;
            memcpy(dst + n, p, seq);
            n += seq;
            p += seq - 1;
            continue;
        }
        if (*p == '~' || *p == '/') {
            dst[n++] = '~';
            dst[n++] = *p == '~' ? '0' : '1';
        } else {
            dst[n++] = *p;
        }
    }
    if (n < cap) dst[n] = '\0';
}

void api_path_index(char *dst, size_t cap, const char *base, size_t index)
{
    snprintf(dst, cap, "%s/%zu", base, index);
}
