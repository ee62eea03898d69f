#include "text_scan.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "utf8.h"

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

void scan_init(text_scan *s, const char *text, size_t len)
{
    s->p = text;
    s->end = text + len;
    s->line = 1;
}

int scan_next_line(text_scan *s)
{
    while (s->p < s->end && is_space(*s->p)) {
        if (*s->p == '\n') s->line++;
        s->p++;
    }
    return s->line;
}

bool scan_fail(text_scan *s, api_error *err, const char *fmt, ...)
{
    char what[API_MESSAGE_MAX - 16];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return api_fail(err, API_MALFORMED_TEXT, NULL, "line %d: %s", s->line, what);
}

bool scan_word(text_scan *s, const char *what, const char **word, size_t *len, api_error *err)
{
    scan_next_line(s);
    if (s->p == s->end) return scan_fail(s, err, "the input ends where %s was expected.", what);
    const char *start = s->p;
    while (s->p < s->end && !is_space(*s->p)) s->p++;
    *word = start;
    *len = (size_t)(s->p - start);
    return true;
}

const char *scan_shown(const char *word, size_t len, char out[SCAN_SHOWN_MAX])
{
    size_t prefix = utf8_prefix_len(word, len, 40);
    size_t n = utf8_sanitize(out, SCAN_SHOWN_MAX - 3, word, prefix);
    if (prefix < len) memcpy(out + n, "...", 4);
    return out;
}

bool scan_int(text_scan *s, long long min, long long max, const char *what, long long *out,
              api_error *err)
{
    const char *w = NULL;
    size_t n = 0;
    if (!scan_word(s, what, &w, &n, err)) return false;
    size_t i = 0;
    bool negative = false;
    if (n > 1 && (w[0] == '-' || w[0] == '+')) {
        negative = w[0] == '-';
        i = 1;
    }
    long long v = 0;
    bool overflow = false;
    for (; i < n; i++) {
        if (w[i] < '0' || w[i] > '9') {
            char shown[SCAN_SHOWN_MAX];
            return scan_fail(s, err, "%s must be an integer, not \"%s\".", what,
                             scan_shown(w, n, shown));
        }
        if (v > 99999999999999999LL)
            overflow = true; /* keeps v * 10 in range */
        else
            v = v * 10 + (w[i] - '0');
    }
    if (negative) v = -v;
    /* A well-formed integer outside the puzzle's limits breaks a rule, not the syntax: 422. */
    if (overflow)
        return api_fail(err, API_INVALID_BOARD, NULL, "line %d: %s is %.*s%s, far out of range.",
                        s->line, what, (int)(n > 40 ? 40 : n), w, n > 40 ? "..." : "");
    if (v < min || v > max)
        return api_fail(err, API_INVALID_BOARD, NULL,
                        "line %d: %s is %.*s%s; it must be from %lld to %lld.", s->line, what,
                        (int)(n > 40 ? 40 : n), w, n > 40 ? "..." : "", min, max);
    *out = v;
    return true;
}

bool scan_end(text_scan *s, api_error *err)
{
    scan_next_line(s);
    if (s->p != s->end) return scan_fail(s, err, "unexpected input after the end of the instance.");
    return true;
}
