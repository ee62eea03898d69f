#include "error.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
};

int api_error_status(api_error_code code)
{
    return (unsigned)code < API_ERROR_CODE_COUNT ? error_table[code].status : 500;
}

const char *api_error_name(api_error_code code)
{
    return (unsigned)code < API_ERROR_CODE_COUNT ? error_table[code].name : "internal_error";
}

bool api_fail(api_error *err, api_error_code code, const char *path, const char *fmt, ...)
{
    err->code = code;
    snprintf(err->path, sizeof err->path, "%s", path ? path : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return false;
}

/* The length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong forms, no
 * surrogates, nothing past U+10FFFF), or 0 when s does not start one. */
static size_t utf8_sequence(const unsigned char *s)
{
    if (s[0] < 0x80) return 1;
    if (s[0] >= 0xc2 && s[0] <= 0xdf) return (s[1] & 0xc0) == 0x80 ? 2 : 0;
    unsigned char lo = 0x80, hi = 0xbf;
    size_t n;
    if (s[0] >= 0xe0 && s[0] <= 0xef) {
        n = 3;
        if (s[0] == 0xe0) lo = 0xa0;
        if (s[0] == 0xed) hi = 0x9f;
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        n = 4;
        if (s[0] == 0xf0) lo = 0x90;
        if (s[0] == 0xf4) hi = 0x8f;
    } else {
        return 0;
    }
    if (s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < n; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    return n;
}

/* Messages and paths quote request bytes, which need not be UTF-8 (or were cut inside a
 * character): each byte outside a well-formed sequence is written as the text \xHH, so the
 * body is always JSON. dst has room for 4 * strlen(src) + 1. */
static void utf8_escape_invalid(char *dst, const char *src)
{
    const unsigned char *s = (const unsigned char *)src;
    while (*s) {
        size_t n = utf8_sequence(s);
        if (n) {
            memcpy(dst, s, n);
            dst += n;
            s += n;
        } else {
            dst += sprintf(dst, "\\x%02x", *s++);
        }
    }
    *dst = '\0';
}

char *api_error_json(const api_error *err, size_t *len)
{
    char message[4 * API_MESSAGE_MAX], path[4 * API_PATH_MAX];
    utf8_escape_invalid(message, err->message[0] ? err->message : api_error_name(err->code));
    utf8_escape_invalid(path, err->path);
    json_t *inner = json_pack("{s:s, s:s}", "code", api_error_name(err->code), "message", message);
    if (!inner) return NULL;
    if (path[0]) json_object_set_new(inner, "path", json_string(path));
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
    for (const char *p = token; *p && n + 2 < cap; p++) {
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
