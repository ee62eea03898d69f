/* GF(2) linear algebra on bit-packed words: vectors (bit j of a vector lives in word j / 64,
 * bit j % 64), polynomials (bit i is the coefficient of t^i), and an incremental row-echelon
 * basis for ranks. Plain loops over uint64_t words that the compiler vectorises. */
#ifndef PUZZLED_GF2_H
#define PUZZLED_GF2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Words needed for `bits` bits. */
static inline size_t gf2_words(size_t bits)
{
    return (bits + 63) / 64;
}

static inline bool gf2_get(const uint64_t *v, size_t i)
{
    return (v[i / 64] >> (i % 64)) & 1u;
}

static inline void gf2_flip(uint64_t *v, size_t i)
{
    v[i / 64] ^= (uint64_t)1 << (i % 64);
}

/* dst ^= src over `words` words. */
void gf2_xor(uint64_t *dst, const uint64_t *src, size_t words);

/* True when all `words` words are zero. */
bool gf2_is_zero(const uint64_t *v, size_t words);

/* dst[j] = src[j-1] ^ src[j+1] (^ src[j] when with_self), bits outside 0..n-1 taken as 0:
 * the path graph's adjacency (A) or A + I applied to an n-bit vector. dst != src. */
void gf2_path_step(uint64_t *dst, const uint64_t *src, size_t n, bool with_self);

/* dst = src with bit j moved to n-1-j. dst != src. */
void gf2_reverse(uint64_t *dst, const uint64_t *src, size_t n);

/* Compares n-bit vectors as strings: bit 0 first, a 0 before a 1. <0, 0, >0. */
int gf2_lex_cmp(const uint64_t *a, const uint64_t *b, size_t words);

/* A polynomial over GF(2) with room for degrees < 64 * cap. deg is -1 for zero. */
typedef struct gf2_poly {
    uint64_t *w;
    size_t cap;
    long deg;
} gf2_poly;

/* Allocates a zero polynomial with room for degree max_deg. false when out of memory. */
bool gf2_poly_init(gf2_poly *p, long max_deg);
void gf2_poly_free(gf2_poly *p);
/* Recomputes p->deg from the words (after a change that may have lowered it). */
void gf2_poly_normalise(gf2_poly *p);
/* dst = src (dst has the room). */
void gf2_poly_copy(gf2_poly *dst, const gf2_poly *src);
/* a = a mod b; b non-zero. */
void gf2_poly_mod(gf2_poly *a, const gf2_poly *b);
/* a = gcd(a, b); b is used as scratch, and the two may exchange buffers (give them equal room). */
void gf2_poly_gcd(gf2_poly *a, gf2_poly *b);
/* q = a / b, the remainder dropped; a is used as scratch (left with the remainder). */
void gf2_poly_div(gf2_poly *q, gf2_poly *a, const gf2_poly *b);

/* An incremental basis of `words`-word vectors in row-echelon form: each stored row's lowest
 * set bit is its pivot, and every later row is zero at the earlier pivots. */
typedef struct gf2_basis {
    uint64_t *rows;
    size_t *pivot;
    size_t words;
    size_t rank;
    size_t cap;
} gf2_basis;

/* Room for `cap` rows of `words` words. false when out of memory. */
bool gf2_basis_init(gf2_basis *b, size_t words, size_t cap);
void gf2_basis_free(gf2_basis *b);
void gf2_basis_clear(gf2_basis *b);
/* Reduces v (modified in place) by the basis and adds it when independent; true when added.
 * A full basis (rank == cap) only reduces. */
bool gf2_basis_insert(gf2_basis *b, uint64_t *v);

#endif
