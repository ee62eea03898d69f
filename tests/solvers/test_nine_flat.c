/* The greedy's vector pass (nine_flat.c) against a plain reading of each macro, on this CPU's
 * build of it (AVX-512, AVX2, popcnt or portable): every byte of the prices, and which macros
 * the visit lets through, for random boards, tails and bars. The shortlist test in test_nine.c
 * checks what the greedy makes of them. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "check_quiet.h"
#include "check_run.h"
#include "xorshift.h"
#include "nine_flat.h"
#include "nine_macro.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
    return xorshift64(&rng);
}

/* Random bits on the first nn cells; a few boards nearly empty or nearly full. */
static void random_cells(int nn, int kind, uint64_t out[2])
{
    for (int w = 0; w < 2; w++) {
        uint64_t x = rnd();
        if (kind == 1) x &= rnd() & rnd();
        if (kind == 2) x |= rnd() | rnd();
        int bits = nn - 64 * w;
        out[w] = bits <= 0 ? 0 : bits >= 64 ? x : x & (((uint64_t)1 << bits) - 1);
    }
}

static int ones(const uint64_t x[2], const uint64_t m[2])
{
    return __builtin_popcountll(x[0] & m[0]) + __builtin_popcountll(x[1] & m[1]);
}

/* What nine_flat.h promises for macro m. */
static void expected(const nine_macro *m, const uint64_t fa[4][2], const uint64_t fb[4][2],
                     uint64_t tail, int max_save, int out[4])
{
    int most = 0, fewest = 1000;
    for (int q = 0; q < 4; q++) {
        int g = ones(fa[q], m->flat_a), l = ones(fb[q], m->flat_b);
        most = g > most ? g : most;
        fewest = l < fewest ? l : fewest;
    }
    int save = __builtin_popcountll(tail & m->lead);
    int save_mirror = m->mirror ? __builtin_popcountll(tail & m->lead_mirror) : 0;
    int least = m->len - 2 * (save > save_mirror ? save : save_mirror);
    out[0] = most - fewest;
    out[1] = least < 1 ? 1 : least;
    out[2] = m->transfers;
    out[3] = m->len - max_save;
}

/* The scan's tests: a bound that can beat the bar enters; a macro whose transfers over its
 * length less the most saved cannot beat a full list's bar ends the scan. */
static int visited(const int v[4], int wr, int wc, int full)
{
    long lhs = (long)v[0] * wc, rhs = (long)wr * v[1];
    int enters = v[0] > 0 && (!full || lhs > rhs || (lhs == rhs && v[0] > wr));
    long lhs2 = (long)v[2] * wc, rhs2 = (long)wr * v[3];
    int beats = lhs2 > rhs2 || (lhs2 == rhs2 && v[2] > wr);
    int stops = full && v[3] > 0 && !beats;
    return enters || stops;
}

START_TEST(the_pass_prices_every_macro_as_read_plainly)
{
    static const int sizes[] = {4, 7, 8, 9, 10};
    static nine_flat_prices fp;
    int checked = 0, macros = 0;
    for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
        int n = sizes[c], nn = n * n;
        const nine_library *lib = nine_library_get(n, NULL);
        ck_assert_ptr_nonnull(lib);
        ck_assert(lib->flat && lib->count <= NINE_FLAT_MAX_MACROS);
        macros += lib->count;
        for (int rep = 0; rep < 12; rep++) {
            uint64_t fa[4][2], fb[4][2];
            for (int q = 0; q < 4; q++) {
                random_cells(nn, rep % 3, fa[q]);
                random_cells(nn, (rep + 1) % 3, fb[q]);
            }
            uint64_t tail = rep < 4 ? 0 : rnd() & (((uint64_t)1 << n) - 1);
            int max_save = 2 * (int)(rnd() % 4);
            /* Filled in uneven pieces, as the greedy's blocks or a whole library at once. */
            for (int from = 0; from < lib->count;) {
                int to = rep % 2 ? lib->count : from + 1 + (int)(rnd() % 100);
                if (to > lib->count) to = lib->count;
                nine_flat_bounds(lib, from, to, fa, fb, tail, max_save, &fp);
                from = to;
            }
            for (int t = lib->count; t % 64; t++) {
                quiet_assert_int_eq(fp.bound[t], 0);
                quiet_assert_int_eq(fp.over[t], 0);
            }
            int wr = 1 + (int)(rnd() % 12), wc = 1 + (int)(rnd() % 30), full = rep % 4 != 0;
            for (int base = 0; base < lib->count; base += 64) {
                int end = base + 64 < lib->count ? base + 64 : lib->count;
                int from = base + (int)(rnd() % (uint64_t)(end - base));
                uint64_t want = 0;
                for (int t = base; t < end; t++) {
                    int v[4];
                    expected(&lib->macros[t], fa, fb, tail, max_save, v);
                    quiet_assert_int_eq(fp.bound[t], v[0]);
                    quiet_assert_int_eq(fp.least[t], v[1]);
                    quiet_assert_int_eq(fp.trans[t], v[2]);
                    quiet_assert_int_eq(fp.over[t], v[3]);
                    if (t >= from && visited(v, wr, wc, full)) want |= (uint64_t)1 << (t - base);
                    checked++;
                }
                ck_assert_uint_eq(nine_flat_visit(&fp, base, from, end, wr, wc, full), want);
            }
        }
    }
    ck_assert_int_eq(checked, 12 * macros);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("nine_flat");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, the_pass_prices_every_macro_as_read_plainly);
    suite_add_tcase(s, tc);
    return check_run(s);
}
