/* The contract's error model: one table of codes and HTTP statuses, and an error value that
 * carries a sentence a person can act on plus a JSON Pointer to the offending field. */
#ifndef PUZZLED_ERROR_H
#define PUZZLED_ERROR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

typedef enum api_error_code {
    API_OK = 0,
    API_MALFORMED_JSON,
    API_INVALID_REQUEST,
    API_MALFORMED_TEXT,
    API_UNKNOWN_PUZZLE,
    API_NOT_FOUND,
    API_METHOD_NOT_ALLOWED,
    API_BODY_TOO_LARGE,
    API_UNSUPPORTED_MEDIA_TYPE,
    API_INVALID_BOARD,
    API_TOO_MANY_BOARDS,
    API_TIME_LIMIT,
    API_OVERLOADED,
    API_INTERNAL,
    /* HTTP framing errors that libmicrohttpd detects itself (server/mhd_errors.c). */
    API_HEADERS_TOO_LARGE,
    API_HTTP_VERSION_NOT_SUPPORTED,
    API_ERROR_CODE_COUNT
} api_error_code;

/* "s" unless n is 1, for the nouns of messages: "1 row", "2 rows". */
static inline const char *api_plural(long long n)
{
    return n == 1 ? "" : "s";
}

#define API_MESSAGE_MAX 320
#define API_PATH_MAX 128

typedef struct api_error {
    api_error_code code;
    char message[API_MESSAGE_MAX];
    char path[API_PATH_MAX]; /* JSON Pointer ("" is the whole body) ... */
    bool has_path;           /* ... or none, when no part of the body is at fault */
} api_error;

/* The HTTP status and the contract's code string of an error code. */
int api_error_status(api_error_code code);
const char *api_error_name(api_error_code code);

/* Fills *err; `path` may be NULL (no path); `fmt` is printf-style. Request bytes quoted in the
 * message or path need not be valid UTF-8: invalid bytes become "\xHH", and a message cut to
 * its size never ends inside a character. Returns false so that parsers can
 * `return api_fail(...)`. */
bool api_fail(api_error *err, api_error_code code, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Fills *err like api_fail from a va_list. */
bool api_failv(api_error *err, api_error_code code, const char *path, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

/* The error as the contract's JSON body, NUL-terminated, malloc'd (the caller frees).
 * Returns NULL only when out of memory. */
char *api_error_json(const api_error *err, size_t *len);

/* dst = base + "/token" (a JSON Pointer; '~' and '/' escaped as RFC 6901 says). dst and base
 * must not overlap. */
void api_path_join(char *dst, size_t cap, const char *base, const char *token);
void api_path_index(char *dst, size_t cap, const char *base, size_t index);

#endif
