/* A tokenizer for the contests' text inputs: whitespace-separated tokens with line numbers, so
 * that a malformed_text error can say which line is wrong. Tolerates CRLF line ends and
 * trailing white space, as judges do. */
#ifndef PUZZLED_TEXT_SCAN_H
#define PUZZLED_TEXT_SCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

typedef struct text_scan {
    const char *p;
    const char *end;
    int line; /* 1-based line of p */
} text_scan;

void scan_init(text_scan *s, const char *text, size_t len);

/* Skips white space; returns the line the next token starts on. */
int scan_next_line(text_scan *s);

/* The next token as an integer in [min, max]; `what` names it in the error message. A token
 * that is not an integer is malformed_text (400); an integer outside [min, max], however many
 * digits it has, is invalid_board (422), both naming the line. */
bool scan_int(text_scan *s, long long min, long long max, const char *what, long long *out,
              api_error *err);

/* The next token (a run of non-white-space bytes); false + err when the input has ended. */
bool scan_word(text_scan *s, const char *what, const char **word, size_t *len, api_error *err);

/* A token for a message: at most its first 40 bytes (never cutting a character), every byte
 * that is not UTF-8 (and NUL) as "\xHH", and "..." when it was cut. Returns out. */
#define SCAN_SHOWN_MAX (4 * 40 + 4)
const char *scan_shown(const char *word, size_t len, char out[SCAN_SHOWN_MAX]);

/* Only white space is left; else malformed_text naming the line. */
bool scan_end(text_scan *s, api_error *err);

/* Fails with malformed_text at the scanner's current line: "line N: <message>". */
bool scan_fail(text_scan *s, api_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
