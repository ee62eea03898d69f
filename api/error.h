/* The contract's error model: one table of codes and HTTP statuses, and an error value that
 * carries a sentence a person can act on plus a JSON Pointer to the offending field. */
#ifndef PUZZLED_ERROR_H
#define PUZZLED_ERROR_H

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
    API_ERROR_CODE_COUNT
} api_error_code;

#define API_MESSAGE_MAX 320
#define API_PATH_MAX 128

typedef struct api_error {
    api_error_code code;
    char message[API_MESSAGE_MAX];
    char path[API_PATH_MAX]; /* JSON Pointer, "" when no field is at fault */
} api_error;

/* The HTTP status and the contract's code string of an error code. */
int api_error_status(api_error_code code);
const char *api_error_name(api_error_code code);

/* Fills *err; `path` may be NULL; `fmt` is printf-style. Returns false so that parsers can
 * `return api_fail(...)`. */
bool api_fail(api_error *err, api_error_code code, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The error as the contract's JSON body, NUL-terminated, malloc'd (the caller frees).
 * Returns NULL only when out of memory. */
char *api_error_json(const api_error *err, size_t *len);

/* dst = base + "/token" (a JSON Pointer; '~' and '/' escaped as RFC 6901 says). dst and base
 * must not overlap. */
void api_path_join(char *dst, size_t cap, const char *base, const char *token);
void api_path_index(char *dst, size_t cap, const char *base, size_t index);

#endif
