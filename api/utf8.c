#include "utf8.h"

#include <stdio.h>
#include <string.h>

size_t utf8_sequence_len(const unsigned char *s, size_t avail)
{
    if (avail == 0) return 0;
    unsigned char c = s[0];
    if (c < 0x80) return 1;
    size_t n;
    unsigned lo = 0x80, hi = 0xBF; /* the allowed range of the second byte (RFC 3629) */
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F; /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else
        return 0;
    if (avail < n) return 0;
    if (s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF) return 0;
    return n;
}

size_t utf8_prefix_len(const char *s, size_t len, size_t max)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        size_t seq = utf8_sequence_len(u + i, len - i);
        size_t step = seq ? seq : 1; /* an invalid byte stands alone */
        if (i + step > max) break;
        i += step;
    }
    return i;
}

const char *utf8_byte_shown(unsigned char c, char out[5])
{
    if (c >= 0x20 && c < 0x7f) {
        out[0] = (char)c;
        out[1] = '\0';
    } else {
        snprintf(out, 5, "\\x%02X", c);
    }
    return out;
}

const char *utf8_char_shown(const char *s, size_t avail, size_t *len, char out[UTF8_CHAR_SHOWN_MAX])
{
    const unsigned char *u = (const unsigned char *)s;
    size_t n = avail && u[0] >= 0x80 ? utf8_sequence_len(u, avail) : 0;
    if (len) *len = n ? n : 1;
    if (!n) {
        char byte[5];
        snprintf(out, UTF8_CHAR_SHOWN_MAX, "'%s'", utf8_byte_shown(avail ? u[0] : 0, byte));
        return out;
    }
    /* The code point: the lead byte's payload bits, then six from each continuation byte. */
    unsigned long cp = u[0] & (0x7Fu >> n);
    for (size_t i = 1; i < n; i++) cp = cp << 6 | (u[i] & 0x3Fu);
    out[0] = '\'';
    memcpy(out + 1, s, n);
    snprintf(out + 1 + n, UTF8_CHAR_SHOWN_MAX - 1 - n, "' (U+%04lX)", cp);
    return out;
}

size_t utf8_sanitize(char *dst, size_t cap, const char *src, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    if (cap == 0) return 0;
    const unsigned char *s = (const unsigned char *)src;
    size_t out = 0;
    for (size_t i = 0; i < len;) {
        size_t seq = s[i] ? utf8_sequence_len(s + i, len - i) : 0;
        if (seq > 0) {
            if (out + seq >= cap) break;
            for (size_t k = 0; k < seq; k++) dst[out++] = (char)s[i + k];
            i += seq;
        } else {
            if (out + 4 >= cap) break;
            dst[out++] = '\\';
            dst[out++] = 'x';
            dst[out++] = hex[s[i] >> 4];
            dst[out++] = hex[s[i] & 15];
            i++;
        }
    }
    dst[out] = '\0';
    return out;
}
