#include "gf2.h"

#include <stdlib.h>
#include <string.h>

void gf2_xor(uint64_t *dst, const uint64_t *src, size_t words)
{
    for (size_t i = 0; i < words; i++) dst[i] ^= src[i];
}

bool gf2_is_zero(const uint64_t *v, size_t words)
{
    uint64_t any = 0;
    for (size_t i = 0; i < words; i++) any |= v[i];
    return any == 0;
}

void gf2_path_step(uint64_t *dst, const uint64_t *src, size_t n, bool with_self)
{
    size_t words = gf2_words(n);
    for (size_t i = 0; i < words; i++) {
        uint64_t from_left = src[i] << 1 | (i > 0 ? src[i - 1] >> 63 : 0);
        uint64_t from_right = src[i] >> 1 | (i + 1 < words ? src[i + 1] << 63 : 0);
        dst[i] = from_left ^ from_right ^ (with_self ? src[i] : 0);
    }
    if (n % 64) dst[words - 1] &= ((uint64_t)1 << (n % 64)) - 1;
}

void gf2_reverse(uint64_t *dst, const uint64_t *src, size_t n)
{
    memset(dst, 0, gf2_words(n) * sizeof *dst);
    for (size_t j = 0; j < n; j++)
        if (gf2_get(src, j)) gf2_flip(dst, n - 1 - j);
}

int gf2_lex_cmp(const uint64_t *a, const uint64_t *b, size_t words)
{
    for (size_t i = 0; i < words; i++) {
        uint64_t diff = a[i] ^ b[i];
        if (diff) return (a[i] >> __builtin_ctzll(diff)) & 1u ? 1 : -1;
    }
    return 0;
}

bool gf2_poly_init(gf2_poly *p, long max_deg)
{
    p->cap = gf2_words((size_t)(max_deg < 0 ? 0 : max_deg) + 1);
    p->w = calloc(p->cap, sizeof *p->w);
    p->deg = -1;
    return p->w != NULL;
}

void gf2_poly_free(gf2_poly *p)
{
    free(p->w);
    p->w = NULL;
    p->cap = 0;
    p->deg = -1;
}

void gf2_poly_normalise(gf2_poly *p)
{
    size_t i = p->cap;
    while (i > 0 && p->w[i - 1] == 0) i--;
    p->deg = i == 0 ? -1 : (long)(64 * (i - 1) + 63 - (size_t)__builtin_clzll(p->w[i - 1]));
}

/* The degree after the top term was cancelled: scans down from the old degree's word only. */
static void lower_degree(gf2_poly *p)
{
    size_t i = (size_t)p->deg / 64 + 1;
    while (i > 0 && p->w[i - 1] == 0) i--;
    p->deg = i == 0 ? -1 : (long)(64 * (i - 1) + 63 - (size_t)__builtin_clzll(p->w[i - 1]));
}

void gf2_poly_copy(gf2_poly *dst, const gf2_poly *src)
{
    memset(dst->w, 0, dst->cap * sizeof *dst->w);
    size_t used = src->deg < 0 ? 0 : (size_t)src->deg / 64 + 1;
    memcpy(dst->w, src->w, used * sizeof *src->w);
    dst->deg = src->deg;
}

/* a ^= b * t^shift, where the result's degree is at most a->deg. */
static void xor_shifted(gf2_poly *a, const gf2_poly *b, size_t shift)
{
    size_t ws = shift / 64, bs = shift % 64, bw = (size_t)b->deg / 64 + 1;
    for (size_t i = 0; i < bw; i++) {
        a->w[i + ws] ^= b->w[i] << bs;
        if (bs && i + ws + 1 < a->cap) a->w[i + ws + 1] ^= b->w[i] >> (64 - bs);
    }
}

void gf2_poly_mod(gf2_poly *a, const gf2_poly *b)
{
    while (a->deg >= b->deg) {
        xor_shifted(a, b, (size_t)(a->deg - b->deg));
        lower_degree(a);
    }
}

void gf2_poly_gcd(gf2_poly *a, gf2_poly *b)
{
    while (b->deg >= 0) {
        gf2_poly_mod(a, b);
        gf2_poly swap = *a;
        *a = *b;
        *b = swap;
    }
}

void gf2_poly_div(gf2_poly *q, gf2_poly *a, const gf2_poly *b)
{
    memset(q->w, 0, q->cap * sizeof *q->w);
    q->deg = -1;
    while (a->deg >= b->deg) {
        size_t shift = (size_t)(a->deg - b->deg);
        gf2_flip(q->w, shift);
        if (q->deg < 0) q->deg = (long)shift;
        xor_shifted(a, b, shift);
        lower_degree(a);
    }
}

bool gf2_basis_init(gf2_basis *b, size_t words, size_t cap)
{
    b->words = words;
    b->rank = 0;
    b->cap = cap;
    b->rows = malloc((cap ? cap : 1) * (words ? words : 1) * sizeof *b->rows);
    b->pivot = malloc((cap ? cap : 1) * sizeof *b->pivot);
    if (!b->rows || !b->pivot) {
        gf2_basis_free(b);
        return false;
    }
    return true;
}

void gf2_basis_free(gf2_basis *b)
{
    free(b->rows);
    free(b->pivot);
    b->rows = NULL;
    b->pivot = NULL;
    b->rank = b->cap = 0;
}

void gf2_basis_clear(gf2_basis *b)
{
    b->rank = 0;
}

bool gf2_basis_insert(gf2_basis *b, uint64_t *v)
{
    for (size_t r = 0; r < b->rank; r++) {
        size_t p = b->pivot[r];
        if (gf2_get(v, p)) {
            /* The row is zero below its pivot's word, so only the rest needs the XOR. */
            size_t from = p / 64;
            gf2_xor(v + from, b->rows + r * b->words + from, b->words - from);
        }
    }
    for (size_t i = 0; i < b->words; i++) {
        if (!v[i]) continue;
        if (b->rank == b->cap) return false;
        memcpy(b->rows + b->rank * b->words, v, b->words * sizeof *v);
        b->pivot[b->rank++] = 64 * i + (size_t)__builtin_ctzll(v[i]);
        return true;
    }
    return false;
}
