/* The vector pass: one loop with no branches over the library's mask arrays. Three builds of it,
 * chosen at run time by what the CPU has: AVX-512's vector popcount, AVX2 with popcounts from a
 * nibble table, else one word at a time. */
#include "nine_flat.h"

#include <string.h>

#include "nine_x86.h"

#if NINE_X86_DISPATCH
#include <immintrin.h>
#endif

/* The library's mask arrays, as nine_macro.h lays them out. */
typedef struct flat_arrays {
    const uint64_t *a0, *a1, *b0, *b1, *lead, *lead_mirror, *len, *transfers;
} flat_arrays;

static flat_arrays arrays_of(const nine_library *lib)
{
    size_t c = (size_t)lib->count;
    const uint64_t *m = lib->masks;
    return (flat_arrays){m,         m + c,     m + 2 * c, m + 3 * c,
                         m + 4 * c, m + 5 * c, m + 6 * c, m + 7 * c};
}

static inline __attribute__((always_inline)) void
bounds_body(const flat_arrays *ar, size_t from, size_t to, const uint64_t fa[4][2],
            const uint64_t fb[4][2], uint64_t tail, int max_save, nine_flat_prices *restrict fp)
{
    const uint64_t *restrict a0 = ar->a0, *restrict a1 = ar->a1, *restrict b0 = ar->b0,
                             *restrict b1 = ar->b1, *restrict lead = ar->lead,
                             *restrict lead_mirror = ar->lead_mirror, *restrict len = ar->len,
                             *restrict transfers = ar->transfers;
    int8_t *restrict bound = fp->bound, *restrict least = fp->least, *restrict trans = fp->trans,
                     *restrict over = fp->over;
    uint64_t x0 = fa[0][0], x1 = fa[0][1], x2 = fa[1][0], x3 = fa[1][1], x4 = fa[2][0],
             x5 = fa[2][1], x6 = fa[3][0], x7 = fa[3][1];
    uint64_t y0 = fb[0][0], y1 = fb[0][1], y2 = fb[1][0], y3 = fb[1][1], y4 = fb[2][0],
             y5 = fb[2][1], y6 = fb[3][0], y7 = fb[3][1];
    for (size_t t = from; t < to; t++) {
        int64_t g0 = __builtin_popcountll(x0 & a0[t]) + __builtin_popcountll(x1 & a1[t]);
        int64_t g1 = __builtin_popcountll(x2 & a0[t]) + __builtin_popcountll(x3 & a1[t]);
        int64_t g2 = __builtin_popcountll(x4 & a0[t]) + __builtin_popcountll(x5 & a1[t]);
        int64_t g3 = __builtin_popcountll(x6 & a0[t]) + __builtin_popcountll(x7 & a1[t]);
        int64_t l0 = __builtin_popcountll(y0 & b0[t]) + __builtin_popcountll(y1 & b1[t]);
        int64_t l1 = __builtin_popcountll(y2 & b0[t]) + __builtin_popcountll(y3 & b1[t]);
        int64_t l2 = __builtin_popcountll(y4 & b0[t]) + __builtin_popcountll(y5 & b1[t]);
        int64_t l3 = __builtin_popcountll(y6 & b0[t]) + __builtin_popcountll(y7 & b1[t]);
        int64_t g01 = g0 > g1 ? g0 : g1, g23 = g2 > g3 ? g2 : g3;
        int64_t l01 = l0 < l1 ? l0 : l1, l23 = l2 < l3 ? l2 : l3;
        bound[t] = (int8_t)((g01 > g23 ? g01 : g23) - (l01 < l23 ? l01 : l23));
        int64_t s0 = __builtin_popcountll(tail & lead[t]);
        int64_t s1 = __builtin_popcountll(tail & lead_mirror[t]);
        int64_t l = (int64_t)len[t] - 2 * (s0 > s1 ? s0 : s1);
        least[t] = (int8_t)(l < 1 ? 1 : l);
        trans[t] = (int8_t)transfers[t];
        over[t] = (int8_t)((int64_t)len[t] - max_save);
    }
}

static void bounds_plain(const flat_arrays *ar, size_t from, size_t to, const uint64_t fa[4][2],
                         const uint64_t fb[4][2], uint64_t tail, int max_save, nine_flat_prices *fp)
{
    bounds_body(ar, from, to, fa, fb, tail, max_save, fp);
}

#if NINE_X86_DISPATCH
__attribute__((
    target("avx512f,avx512vl,avx512vpopcntdq,popcnt,prefer-vector-width=512"))) static void
bounds_avx512(const flat_arrays *ar, size_t from, size_t to, const uint64_t fa[4][2],
              const uint64_t fb[4][2], uint64_t tail, int max_save, nine_flat_prices *fp)
{
    bounds_body(ar, from, to, fa, fb, tail, max_save, fp);
}

__attribute__((target("popcnt"))) static void bounds_popcnt(const flat_arrays *ar, size_t from,
                                                            size_t to, const uint64_t fa[4][2],
                                                            const uint64_t fb[4][2], uint64_t tail,
                                                            int max_save, nine_flat_prices *fp)
{
    bounds_body(ar, from, to, fa, fb, tail, max_save, fp);
}

/* The ones of each byte of v, from a table of the 16 nibbles. */
__attribute__((target("avx2"))) static inline __m256i byte_counts(__m256i v)
{
    const __m256i table = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1,
                                           2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const __m256i low = _mm256_set1_epi8(0x0F);
    __m256i lo = _mm256_and_si256(v, low), hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), low);
    return _mm256_add_epi8(_mm256_shuffle_epi8(table, lo), _mm256_shuffle_epi8(table, hi));
}

/* Per 64-bit lane, the ones of x & m, in the lane's low dword. */
__attribute__((target("avx2"))) static inline __m256i count_one(__m256i x, __m256i m)
{
    return _mm256_sad_epu8(byte_counts(_mm256_and_si256(x, m)), _mm256_setzero_si256());
}

/* Per 64-bit lane, the ones of (x0 & m0) and (x1 & m1) together, in the lane's low dword. */
__attribute__((target("avx2"))) static inline __m256i count_pair(__m256i x0, __m256i m0, __m256i x1,
                                                                 __m256i m1)
{
    __m256i bytes = _mm256_add_epi8(byte_counts(_mm256_and_si256(x0, m0)),
                                    byte_counts(_mm256_and_si256(x1, m1)));
    return _mm256_sad_epu8(bytes, _mm256_setzero_si256());
}

/* Four macros at a time, the same arithmetic as bounds_body. Every value is small and stays in
 * its lane's low dword (the high dwords are zero and stay zero), so 32-bit min, max and
 * subtraction serve; the low byte of each lane is the value's int8_t, as in bounds_body. */
__attribute__((target("avx2,popcnt"))) static void
bounds_avx2(const flat_arrays *ar, size_t from, size_t to, const uint64_t fa[4][2],
            const uint64_t fb[4][2], uint64_t tail, int max_save, nine_flat_prices *fp)
{
    __m256i x[8], y[8];
    for (int w = 0; w < 8; w++) {
        x[w] = _mm256_set1_epi64x((long long)fa[w / 2][w % 2]);
        y[w] = _mm256_set1_epi64x((long long)fb[w / 2][w % 2]);
    }
    const __m256i vtail = _mm256_set1_epi64x((long long)tail), one = _mm256_set1_epi64x(1),
                  save = _mm256_set1_epi64x(max_save), byte = _mm256_set1_epi64x(0xFF);
    /* Per 128-bit half, the low bytes of the four values of its two macros gathered by value:
     * bound, bound, least, least, trans, trans, over, over. */
    const __m256i gather =
        _mm256_setr_epi8(0, 8, 1, 9, 2, 10, 3, 11, -1, -1, -1, -1, -1, -1, -1, -1, 0, 8, 1, 9, 2,
                         10, 3, 11, -1, -1, -1, -1, -1, -1, -1, -1);
    size_t t = from;
    for (; t + 4 <= to; t += 4) {
        __m256i a0 = _mm256_loadu_si256((const __m256i *)(ar->a0 + t));
        __m256i a1 = _mm256_loadu_si256((const __m256i *)(ar->a1 + t));
        __m256i b0 = _mm256_loadu_si256((const __m256i *)(ar->b0 + t));
        __m256i b1 = _mm256_loadu_si256((const __m256i *)(ar->b1 + t));
        __m256i g = count_pair(x[0], a0, x[1], a1);
        for (int q = 1; q < 4; q++)
            g = _mm256_max_epi32(g, count_pair(x[2 * q], a0, x[2 * q + 1], a1));
        __m256i lead = _mm256_loadu_si256((const __m256i *)(ar->lead + t));
        __m256i mirror = _mm256_loadu_si256((const __m256i *)(ar->lead_mirror + t));
        __m256i saved = _mm256_max_epi32(count_one(vtail, lead), count_one(vtail, mirror));
        __m256i len = _mm256_loadu_si256((const __m256i *)(ar->len + t));
        __m256i least =
            _mm256_max_epi32(_mm256_sub_epi32(len, _mm256_add_epi32(saved, saved)), one);
        __m256i l = count_pair(y[0], b0, y[1], b1);
        for (int q = 1; q < 4; q++)
            l = _mm256_min_epi32(l, count_pair(y[2 * q], b0, y[2 * q + 1], b1));
        __m256i bound = _mm256_sub_epi32(g, l);
        __m256i trans = _mm256_loadu_si256((const __m256i *)(ar->transfers + t));
        __m256i over = _mm256_sub_epi32(len, save);
        __m256i packed =
            _mm256_or_si256(_mm256_or_si256(_mm256_and_si256(bound, byte),
                                            _mm256_slli_epi64(_mm256_and_si256(least, byte), 8)),
                            _mm256_or_si256(_mm256_slli_epi64(_mm256_and_si256(trans, byte), 16),
                                            _mm256_slli_epi64(_mm256_and_si256(over, byte), 24)));
        __m256i pairs = _mm256_shuffle_epi8(packed, gather);
        __m128i four =
            _mm_unpacklo_epi16(_mm256_castsi256_si128(pairs), _mm256_extracti128_si256(pairs, 1));
        uint32_t v[4];
        _mm_storeu_si128((__m128i *)v, four);
        memcpy(fp->bound + t, &v[0], 4);
        memcpy(fp->least + t, &v[1], 4);
        memcpy(fp->trans + t, &v[2], 4);
        memcpy(fp->over + t, &v[3], 4);
    }
    bounds_popcnt(ar, t, to, fa, fb, tail, max_save, fp);
}
#endif

void nine_flat_bounds(const nine_library *lib, int from, int to, const uint64_t fa[4][2],
                      const uint64_t fb[4][2], uint64_t tail, int max_save, nine_flat_prices *fp)
{
    flat_arrays ar = arrays_of(lib);
    size_t lo = (size_t)from, hi = (size_t)to;
#if NINE_X86_DISPATCH
    if (__builtin_cpu_supports("avx512vpopcntdq") && __builtin_cpu_supports("avx512vl"))
        bounds_avx512(&ar, lo, hi, fa, fb, tail, max_save, fp);
    else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt"))
        bounds_avx2(&ar, lo, hi, fa, fb, tail, max_save, fp);
    else if (__builtin_cpu_supports("popcnt"))
        bounds_popcnt(&ar, lo, hi, fa, fb, tail, max_save, fp);
    else
#endif
        bounds_plain(&ar, lo, hi, fa, fb, tail, max_save, fp);
    if (hi == (size_t)lib->count)
        for (size_t t = hi; t % 64; t++)
            fp->bound[t] = fp->least[t] = fp->trans[t] = fp->over[t] = 0;
}

/* The scan's own tests, on the pass's bytes; branch-free so that it vectorizes. */
static uint64_t visit_plain(const nine_flat_prices *fp, int base, int from, int end, int wr, int wc,
                            int full)
{
    uint8_t flag[64];
    for (int t = from; t < end; t++) {
        int b = fp->bound[t], l = fp->least[t], tr = fp->trans[t], el = fp->over[t];
        int lhs = b * wc, rhs = wr * l;
        int enters = (b > 0) & ((!full) | (lhs > rhs) | ((lhs == rhs) & (b > wr)));
        int lhs2 = tr * wc, rhs2 = wr * el;
        int stops = full & (el > 0) & !((lhs2 > rhs2) | ((lhs2 == rhs2) & (tr > wr)));
        flag[t - base] = (uint8_t)(enters | stops);
    }
    uint64_t mask = 0;
    for (int t = from; t < end; t++) mask |= (uint64_t)flag[t - base] << (t - base);
    return mask;
}

#if NINE_X86_DISPATCH
/* The bits from..end of a word of 64 from base. */
static uint64_t range_bits(int base, int from, int end)
{
    int lo = from - base, hi = end - base;
    return (hi >= 64 ? ~0ull : ((uint64_t)1 << hi) - 1) & (~0ull << lo);
}

/* The same tests, 32 macros per instruction (AVX-512BW): the bytes widened to 16 bits, whose
 * products cannot overflow (|values| < 128, bar <= 127). The bytes past the library's end are
 * zero (nine_flat_bounds) and masked off anyway. */
__attribute__((target("avx512f,avx512bw"))) static uint64_t
visit_avx512(const nine_flat_prices *fp, int base, int from, int end, int wr, int wc, int full)
{
    uint64_t mask = 0;
    const __m512i zero = _mm512_setzero_si512(), vwr = _mm512_set1_epi16((short)wr),
                  vwc = _mm512_set1_epi16((short)wc);
    for (int half = 0; half < 2; half++) {
        int at = base + 32 * half;
        __m512i b = _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)(fp->bound + at)));
        __m512i l = _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)(fp->least + at)));
        __m512i tr = _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)(fp->trans + at)));
        __m512i el = _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)(fp->over + at)));
        __mmask32 enters = _mm512_cmpgt_epi16_mask(b, zero), stops = 0;
        if (full) {
            __m512i lhs = _mm512_mullo_epi16(b, vwc), rhs = _mm512_mullo_epi16(vwr, l);
            enters &= _mm512_cmpgt_epi16_mask(lhs, rhs) |
                      (_mm512_cmpeq_epi16_mask(lhs, rhs) & _mm512_cmpgt_epi16_mask(b, vwr));
            __m512i lhs2 = _mm512_mullo_epi16(tr, vwc), rhs2 = _mm512_mullo_epi16(vwr, el);
            __mmask32 beats =
                _mm512_cmpgt_epi16_mask(lhs2, rhs2) |
                (_mm512_cmpeq_epi16_mask(lhs2, rhs2) & _mm512_cmpgt_epi16_mask(tr, vwr));
            stops = _mm512_cmpgt_epi16_mask(el, zero) & (__mmask32)~beats;
        }
        mask |= (uint64_t)(uint32_t)(enters | stops) << (32 * half);
    }
    return mask & range_bits(base, from, end);
}

/* The same tests with AVX2, 16 macros per instruction: each test's lanes are all ones or zero. */
__attribute__((target("avx2"))) static __m256i visit16_avx2(const nine_flat_prices *fp, int at,
                                                            __m256i vwr, __m256i vwc, int full)
{
    const __m256i zero = _mm256_setzero_si256();
    __m256i b = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(fp->bound + at)));
    __m256i enters = _mm256_cmpgt_epi16(b, zero);
    if (!full) return enters;
    __m256i l = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(fp->least + at)));
    __m256i tr = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(fp->trans + at)));
    __m256i el = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(fp->over + at)));
    __m256i lhs = _mm256_mullo_epi16(b, vwc), rhs = _mm256_mullo_epi16(vwr, l);
    enters =
        _mm256_and_si256(enters, _mm256_or_si256(_mm256_cmpgt_epi16(lhs, rhs),
                                                 _mm256_and_si256(_mm256_cmpeq_epi16(lhs, rhs),
                                                                  _mm256_cmpgt_epi16(b, vwr))));
    __m256i lhs2 = _mm256_mullo_epi16(tr, vwc), rhs2 = _mm256_mullo_epi16(vwr, el);
    __m256i beats = _mm256_or_si256(
        _mm256_cmpgt_epi16(lhs2, rhs2),
        _mm256_and_si256(_mm256_cmpeq_epi16(lhs2, rhs2), _mm256_cmpgt_epi16(tr, vwr)));
    __m256i stops = _mm256_andnot_si256(beats, _mm256_cmpgt_epi16(el, zero));
    return _mm256_or_si256(enters, stops);
}

__attribute__((target("avx2"))) static uint64_t
visit_avx2(const nine_flat_prices *fp, int base, int from, int end, int wr, int wc, int full)
{
    uint64_t mask = 0;
    const __m256i vwr = _mm256_set1_epi16((short)wr), vwc = _mm256_set1_epi16((short)wc);
    for (int half = 0; half < 2; half++) {
        int at = base + 32 * half;
        /* Two sets of 16 words to 32 bytes: packs works per 128-bit half, the permute puts the
         * macros back in order. */
        __m256i bytes = _mm256_packs_epi16(visit16_avx2(fp, at, vwr, vwc, full),
                                           visit16_avx2(fp, at + 16, vwr, vwc, full));
        bytes = _mm256_permute4x64_epi64(bytes, 0xD8);
        mask |= (uint64_t)(uint32_t)_mm256_movemask_epi8(bytes) << (32 * half);
    }
    return mask & range_bits(base, from, end);
}
#endif

uint64_t nine_flat_visit(const nine_flat_prices *fp, int base, int from, int end, int wr, int wc,
                         int full)
{
    if (from >= end) return 0;
#if NINE_X86_DISPATCH
    if (__builtin_cpu_supports("avx512bw")) return visit_avx512(fp, base, from, end, wr, wc, full);
    if (__builtin_cpu_supports("avx2")) return visit_avx2(fp, base, from, end, wr, wc, full);
#endif
    return visit_plain(fp, base, from, end, wr, wc, full);
}
