/* Quoting untrusted bytes in messages: request bytes (a text token, a URL, a JSON key) end up in
 * JSON error bodies and log lines, which must be valid UTF-8. */
#ifndef PUZZLED_UTF8_H
#define PUZZLED_UTF8_H

#include <stddef.h>

/* The length of a valid UTF-8 sequence starting at s (at most `avail` bytes), or 0 when the
 * bytes there are not one (a stray continuation byte, an overlong form, a surrogate, a cut). */
size_t utf8_sequence_len(const unsigned char *s, size_t avail);

/* The longest prefix of s[0..len) of at most max bytes that does not end inside a character. */
size_t utf8_prefix_len(const char *s, size_t len, size_t max);

/* Copies src into dst (cap bytes, NUL-terminated): valid UTF-8 is kept, but for NUL (which
 * would end dst); NUL and every byte that is not UTF-8 become the four characters "\xHH", and a
 * character that does not fit whole is left out rather than cut. Returns the length written. */
size_t utf8_sanitize(char *dst, size_t cap, const char *src, size_t len);

/* One byte of a cell or a row for a message: printable ASCII as itself, any other byte as
 * "\xHH" (a control character or one byte of a longer character, e.g. a BOM's first). Returns
 * out. */
const char *utf8_byte_shown(unsigned char c, char out[5]);

/* The character that starts at s (avail bytes) for a message, quoted: printable ASCII as
 * itself ('x'), a valid character of several bytes as itself with its code point ('é' (U+00E9):
 * an invisible one such as a BOM is seen too), anything else as its first byte ('\xHH'). *len
 * (when len is not NULL) gets the bytes it takes, 1 for a byte shown alone. Returns out. */
#define UTF8_CHAR_SHOWN_MAX 24
const char *utf8_char_shown(const char *s, size_t avail, size_t *len,
                            char out[UTF8_CHAR_SHOWN_MAX]);

#endif
