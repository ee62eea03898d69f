/* Rubik's Rectangle solver: verdicts against the test's own breadth-first search over flips,
 * every move list replayed by the test's own simulator, scrambles of many shapes. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_quiet.h"
#include "check_run.h"
#include "xorshift.h"
#include "rubiks_rectangle.h"
#include "rubiks_rectangle_group.h"

/* ---- the test's own simulator ---- */

static void flip(int32_t *cells, int h, int w, int32_t move)
{
    if (move > 0) {
        int32_t *row = cells + (size_t)(move - 1) * w;
        for (int a = 0, z = w - 1; a < z; a++, z--) {
            int32_t t = row[a];
            row[a] = row[z];
            row[z] = t;
        }
    } else {
        int c = -move - 1;
        for (int a = 0, z = h - 1; a < z; a++, z--) {
            int32_t t = cells[(size_t)a * w + c];
            cells[(size_t)a * w + c] = cells[(size_t)z * w + c];
            cells[(size_t)z * w + c] = t;
        }
    }
}

static bool is_sorted(const int32_t *cells, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (cells[i] != (int32_t)(i + 1)) return false;
    return true;
}

/* Replays the answer on a copy of the board: every move names a real line, the count stays within
 * 10 * H * W, and the board ends sorted. */
static bool replay_sorts(const int32_t *cells, int h, int w, const rubiks_rectangle_answer *a)
{
    size_t n = (size_t)h * w;
    if (a->move_count > 10 * n) return false;
    int32_t *copy = malloc(n * sizeof *copy);
    memcpy(copy, cells, n * sizeof *copy);
    bool ok = true;
    for (size_t i = 0; i < a->move_count && ok; i++) {
        int32_t m = a->moves[i];
        if (m == 0 || (m > 0 && m > h) || (m < 0 && -m > w))
            ok = false;
        else
            flip(copy, h, w, m);
    }
    ok = ok && is_sorted(copy, n);
    free(copy);
    return ok;
}

static uint64_t rng_state;
static uint64_t rng(void)
{
    return xorshift64(&rng_state);
}

static int32_t *sorted_board(int h, int w)
{
    size_t n = (size_t)h * w;
    int32_t *cells = malloc(n * sizeof *cells);
    for (size_t i = 0; i < n; i++) cells[i] = (int32_t)(i + 1);
    return cells;
}

static void scramble(int32_t *cells, int h, int w, long flips)
{
    for (long k = 0; k < flips; k++) {
        uint64_t r = rng() % (uint64_t)(h + w);
        flip(cells, h, w, r < (uint64_t)h ? (int32_t)(r + 1) : -(int32_t)(r - h + 1));
    }
}

static rubiks_rectangle_status solve(const int32_t *cells, int h, int w, rubiks_rectangle_answer *a)
{
    rubiks_rectangle_board board = {h, w, cells};
    budget b;
    budget_init_unlimited(&b);
    return rubiks_rectangle_solve(&board, &b, a);
}

/* ---- exhaustive: every permutation of every board with H * W <= 9 ---- */

static void unrank(uint32_t rank, int n, int32_t *out)
{
    int32_t pool[9];
    uint32_t fact[10] = {1};
    for (int i = 1; i <= 9; i++) fact[i] = fact[i - 1] * (uint32_t)i;
    for (int i = 0; i < n; i++) pool[i] = i + 1;
    for (int i = 0, left = n; i < n; i++, left--) {
        uint32_t d = rank / fact[left - 1];
        rank %= fact[left - 1];
        out[i] = pool[d];
        memmove(pool + d, pool + d + 1, (size_t)(left - 1 - (int)d) * sizeof *pool);
    }
}

static uint32_t rank_of(const int32_t *p, int n)
{
    uint32_t rank = 0;
    for (int i = 0; i < n; i++) {
        uint32_t smaller = 0;
        for (int j = i + 1; j < n; j++) smaller += p[j] < p[i];
        rank = rank * (uint32_t)(n - i) + smaller;
    }
    return rank;
}

static void exhaustive(int h, int w)
{
    int n = h * w;
    uint32_t total = 1;
    for (int i = 2; i <= n; i++) total *= (uint32_t)i;
    uint8_t *reached = calloc(total, 1);
    uint32_t *queue = malloc(total * sizeof *queue);
    int32_t cells[9];
    for (int i = 0; i < n; i++) cells[i] = i + 1;
    uint32_t head = 0, tail = 0;
    queue[tail++] = rank_of(cells, n);
    reached[queue[0]] = 1;
    while (head < tail) {
        unrank(queue[head++], n, cells);
        for (int m = -w; m <= h; m++) {
            if (m == 0) continue;
            int32_t next[9];
            memcpy(next, cells, sizeof next);
            flip(next, h, w, m);
            uint32_t r = rank_of(next, n);
            if (!reached[r]) reached[r] = 1, queue[tail++] = r;
        }
    }
    uint32_t solvable = 0;
    for (uint32_t r = 0; r < total; r++) {
        unrank(r, n, cells);
        quiet_assert_uint_eq(rank_of(cells, n), r);
        rubiks_rectangle_answer a;
        quiet_assert_int_eq(solve(cells, h, w, &a), RUBIKS_RECTANGLE_OK);
        if (a.solvable != (reached[r] != 0))
            ck_abort_msg("%dx%d rank %u: solver says %d, search says %d", h, w, r, a.solvable,
                         reached[r]);
        if (a.solvable) {
            solvable++;
            if (!replay_sorts(cells, h, w, &a))
                ck_abort_msg("%dx%d rank %u: the moves do not sort", h, w, r);
        } else {
            quiet_assert_uint_eq(a.move_count, 0);
        }
        rubiks_rectangle_answer_free(&a);
    }
    ck_assert_uint_eq(solvable, tail);
    free(reached);
    free(queue);
}

START_TEST(every_small_board_matches_search)
{
    static const int shapes[][2] = {{1, 1}, {1, 2}, {1, 3}, {1, 4}, {1, 5}, {1, 6}, {1, 7}, {1, 8},
                                    {1, 9}, {2, 1}, {3, 1}, {4, 1}, {5, 1}, {6, 1}, {7, 1}, {8, 1},
                                    {9, 1}, {2, 2}, {2, 3}, {3, 2}, {2, 4}, {4, 2}, {3, 3}};
    exhaustive(shapes[_i][0], shapes[_i][1]);
}
END_TEST

/* ---- the parity rule needs H, W >= 4: search the group from the sorted board ---- */

typedef struct key_set {
    uint64_t *lo, *hi;
    uint8_t *used;
    size_t cap, count;
} key_set;

static void key_of(const int32_t *cells, int n, uint64_t *lo, uint64_t *hi)
{
    *lo = *hi = 0;
    for (int i = 0; i < n; i++) {
        uint64_t v = (uint64_t)(cells[i] - 1);
        if (i < 12)
            *lo |= v << (5 * i);
        else
            *hi |= v << (5 * (i - 12));
    }
}

static bool set_add(key_set *s, uint64_t lo, uint64_t hi)
{
    size_t i =
        (size_t)((lo * 0x9E3779B97F4A7C15ull ^ hi * 0xC2B2AE3D27D4EB4Full) >> 20) & (s->cap - 1);
    while (s->used[i]) {
        if (s->lo[i] == lo && s->hi[i] == hi) return false;
        i = (i + 1) & (s->cap - 1);
    }
    s->used[i] = 1, s->lo[i] = lo, s->hi[i] = hi, s->count++;
    return true;
}

static bool set_has(const key_set *s, uint64_t lo, uint64_t hi)
{
    size_t i =
        (size_t)((lo * 0x9E3779B97F4A7C15ull ^ hi * 0xC2B2AE3D27D4EB4Full) >> 20) & (s->cap - 1);
    while (s->used[i]) {
        if (s->lo[i] == lo && s->hi[i] == hi) return true;
        i = (i + 1) & (s->cap - 1);
    }
    return false;
}

/* All boards reachable from sorted, by breadth-first search over flips. */
static key_set reachable(int h, int w, int32_t **states_out, size_t *count_out)
{
    int n = h * w;
    key_set s = {0};
    s.cap = 1u << 22;
    s.lo = calloc(s.cap, sizeof *s.lo);
    s.hi = calloc(s.cap, sizeof *s.hi);
    s.used = calloc(s.cap, 1);
    size_t qcap = 1u << 21, head = 0, tail = 0;
    int32_t *queue = malloc(qcap * (size_t)n * sizeof *queue);
    for (int i = 0; i < n; i++) queue[i] = i + 1;
    uint64_t lo, hi;
    key_of(queue, n, &lo, &hi);
    set_add(&s, lo, hi);
    tail = 1;
    while (head < tail) {
        const int32_t *cur = queue + head++ * (size_t)n;
        for (int m = -w; m <= h; m++) {
            if (m == 0) continue;
            int32_t next[24];
            memcpy(next, cur, (size_t)n * sizeof *next);
            flip(next, h, w, m);
            key_of(next, n, &lo, &hi);
            if (set_add(&s, lo, hi)) {
                quiet_assert_uint_lt(tail, qcap);
                memcpy(queue + tail++ * (size_t)n, next, (size_t)n * sizeof *next);
            }
        }
    }
    *states_out = queue;
    *count_out = tail;
    return s;
}

static void set_free(key_set *s)
{
    free(s->lo);
    free(s->hi);
    free(s->used);
}

/* Every board of 4 x 4 whose values stay in their home orbits (24^4 of them). */
START_TEST(four_by_four_orbit_boards_match_search)
{
    int32_t *states;
    size_t count;
    key_set s = reachable(4, 4, &states, &count);
    free(states);
    static const int orbit_cells[4][4] = {
        {0, 3, 12, 15}, {1, 2, 13, 14}, {4, 7, 8, 11}, {5, 6, 9, 10}};
    static int8_t perms[24][4];
    int np = 0;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            for (int c = 0; c < 4; c++)
                for (int d = 0; d < 4; d++)
                    if (a != b && a != c && a != d && b != c && b != d && c != d) {
                        perms[np][0] = (int8_t)a, perms[np][1] = (int8_t)b;
                        perms[np][2] = (int8_t)c, perms[np][3] = (int8_t)d;
                        np++;
                    }
    size_t solvable = 0;
    for (int code = 0; code < 24 * 24 * 24 * 24; code++) {
        int32_t cells[16];
        for (int o = 0, c = code; o < 4; o++, c /= 24)
            for (int k = 0; k < 4; k++)
                cells[orbit_cells[o][k]] = orbit_cells[o][perms[c % 24][k]] + 1;
        uint64_t lo, hi;
        key_of(cells, 16, &lo, &hi);
        bool reach = set_has(&s, lo, hi);
        rubiks_rectangle_answer a;
        quiet_assert_int_eq(solve(cells, 4, 4, &a), RUBIKS_RECTANGLE_OK);
        if (a.solvable != reach)
            ck_abort_msg("4x4 code %d: solver %d search %d", code, a.solvable, reach);
        if (a.solvable) {
            solvable++;
            quiet_assert(replay_sorts(cells, 4, 4, &a));
        }
        rubiks_rectangle_answer_free(&a);
    }
    ck_assert_uint_eq(solvable, count);
    set_free(&s);
}
END_TEST

/* 4 x 5 and 5 x 4: random boards of the reachable set and random orbit-respecting boards. */
START_TEST(four_by_five_boards_match_search)
{
    int h = _i == 0 ? 4 : 5, w = _i == 0 ? 5 : 4, n = h * w;
    int32_t *states;
    size_t count;
    key_set s = reachable(h, w, &states, &count);
    rng_state = 0x1234567u + (uint64_t)_i;
    int agree_solvable = 0, agree_unsolvable = 0;
    for (int t = 0; t < 20000; t++) {
        int32_t cells[20];
        memcpy(cells, states + (rng() % count) * (size_t)n, (size_t)n * sizeof *cells);
        if (t % 2) {
            /* Swap two values that share an orbit: often leaves the reachable set. */
            int i = (int)(rng() % (uint64_t)n), r = i / w, c = i % w;
            int r2 = rng() % 2 ? h - 1 - r : r, c2 = rng() % 2 ? w - 1 - c : c;
            int j = r2 * w + c2;
            int32_t x = cells[i];
            cells[i] = cells[j];
            cells[j] = x;
        }
        uint64_t lo, hi;
        key_of(cells, n, &lo, &hi);
        bool reach = set_has(&s, lo, hi);
        rubiks_rectangle_answer a;
        quiet_assert_int_eq(solve(cells, h, w, &a), RUBIKS_RECTANGLE_OK);
        quiet_assert_int_eq(a.solvable, reach);
        if (a.solvable) {
            agree_solvable++;
            quiet_assert(replay_sorts(cells, h, w, &a));
        } else {
            agree_unsolvable++;
        }
        rubiks_rectangle_answer_free(&a);
    }
    ck_assert_int_gt(agree_solvable, 1000);
    ck_assert_int_gt(agree_unsolvable, 1000);
    free(states);
    set_free(&s);
}
END_TEST

/* ---- scrambles of many shapes replay to sorted ---- */

static void scrambled_round_trip(int h, int w, long flips, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        int32_t *cells = sorted_board(h, w);
        scramble(cells, h, w, flips);
        rubiks_rectangle_answer a;
        ck_assert_int_eq(solve(cells, h, w, &a), RUBIKS_RECTANGLE_OK);
        ck_assert_msg(a.solvable, "%dx%d scramble judged unsolvable", h, w);
        ck_assert_msg(replay_sorts(cells, h, w, &a), "%dx%d: the moves do not sort", h, w);
        rubiks_rectangle_answer_free(&a);
        free(cells);
    }
}

START_TEST(scrambles_sort)
{
    static const int shapes[][4] = {
        /* h, w, flips, rounds */
        {1, 1000, 7, 3},
        {1000, 1, 8, 3},
        {2, 2, 9, 200},
        {3, 3, 20, 200},
        {5, 7, 50, 50},
        {9, 9, 100, 50},
        {6, 7, 100, 50},
        {8, 5, 100, 50},
        {2, 100, 500, 5},
        {100, 2, 500, 5},
        {3, 101, 500, 5},
        {37, 53, 1000, 5},
        {99, 99, 4000, 3},
        {100, 100, 4000, 3},
        {101, 100, 4000, 2},
        {250, 333, 10000, 1},
        /* past the size planned both ways: blocks along rows, then on the transposed board */
        {201, 1000, 20000, 1},
        {1000, 201, 20000, 1},
        {4, 1000, 5000, 2},
        {1000, 5, 5000, 2},
    };
    rng_state = 0xC0FFEEu + (uint64_t)_i;
    scrambled_round_trip(shapes[_i][0], shapes[_i][1], shapes[_i][2], shapes[_i][3]);
}
END_TEST

/* Short answers: on 100 x 100 boards scrambled by 4 000 flips, a mean under 2 300 flips (four-
 * pair runs give about 2 235, three-pair runs gave 2 320, two-pair runs 2 510, the reference
 * per-orbit commutator method about 9 700). */
START_TEST(answers_are_short)
{
    rng_state = 0x5107u;
    size_t total = 0;
    for (int r = 0; r < 5; r++) {
        int32_t *cells = sorted_board(100, 100);
        scramble(cells, 100, 100, 4000);
        rubiks_rectangle_answer a;
        ck_assert_int_eq(solve(cells, 100, 100, &a), RUBIKS_RECTANGLE_OK);
        ck_assert(replay_sorts(cells, 100, 100, &a));
        total += a.move_count;
        rubiks_rectangle_answer_free(&a);
        free(cells);
    }
    ck_assert_uint_lt(total, 5 * 2300);
}
END_TEST

/* ---- every shape up to 6 x 6: scrambles, and scrambles with one swap inside an orbit ---- */

/* The test's own statement of the solvability rule (solvers/rubiks_rectangle.c's header),
 * written from the cells: each value in its home orbit, the middle row and column in order or
 * reversed, and the orbit parities par(p,q) = par(p,0) + par(0,q) + par(0,0). */
static bool rule_says_solvable(const int32_t *cells, int h, int w)
{
    if (h == 1 || w == 1) {
        int n = h * w;
        bool forward = true, backward = true;
        for (int i = 0; i < n; i++) {
            forward = forward && cells[i] == i + 1;
            backward = backward && cells[i] == n - i;
        }
        return forward || backward;
    }
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) {
            int v = cells[r * w + c] - 1, hr = v / w, hc = v % w;
            if ((hr != r && hr != h - 1 - r) || (hc != c && hc != w - 1 - c)) return false;
        }
    if (h % 2) {
        int m = h / 2;
        bool forward = true, backward = true;
        for (int c = 0; c < w; c++) {
            forward = forward && cells[m * w + c] == m * w + c + 1;
            backward = backward && cells[m * w + c] == m * w + (w - 1 - c) + 1;
        }
        if (!forward && !backward) return false;
    }
    if (w % 2) {
        int m = w / 2;
        bool forward = true, backward = true;
        for (int r = 0; r < h; r++) {
            forward = forward && cells[r * w + m] == r * w + m + 1;
            backward = backward && cells[r * w + m] == (h - 1 - r) * w + m + 1;
        }
        if (!forward && !backward) return false;
    }
    int par[32][32];
    for (int p = 0; p < h / 2; p++)
        for (int q = 0; q < w / 2; q++) {
            int pos[4] = {p * w + q, p * w + w - 1 - q, (h - 1 - p) * w + q,
                          (h - 1 - p) * w + w - 1 - q};
            int val[4], inversions = 0;
            for (int k = 0; k < 4; k++) val[k] = cells[pos[k]];
            for (int a = 0; a < 4; a++)
                for (int b = a + 1; b < 4; b++) inversions += val[a] > val[b];
            par[p][q] = inversions & 1;
        }
    for (int p = 0; p < h / 2; p++)
        for (int q = 0; q < w / 2; q++)
            if (par[p][q] ^ par[p][0] ^ par[0][q] ^ par[0][0]) return false;
    return true;
}

START_TEST(every_shape_up_to_six_matches_rule)
{
    int h = _i / 6 + 1, w = _i % 6 + 1, n = h * w;
    rng_state = 0x600DCAFEu + (uint64_t)_i;
    int solvable = 0, unsolvable = 0;
    for (int t = 0; t < 60; t++) {
        int32_t *cells = sorted_board(h, w);
        scramble(cells, h, w, 10 * (h + w));
        if (t % 2) {
            /* Swap a cell with another of its orbit (or of its middle line). */
            int i = (int)(rng() % (uint64_t)n), r = i / w, c = i % w;
            int r2 = rng() % 2 ? h - 1 - r : r, c2 = rng() % 2 ? w - 1 - c : c;
            int32_t x = cells[i];
            cells[i] = cells[r2 * w + c2];
            cells[r2 * w + c2] = x;
        }
        bool expect = rule_says_solvable(cells, h, w);
        if (t % 2 == 0) ck_assert(expect); /* the rule itself: scrambles are solvable */
        rubiks_rectangle_answer a;
        ck_assert_int_eq(solve(cells, h, w, &a), RUBIKS_RECTANGLE_OK);
        if (a.solvable != expect)
            ck_abort_msg("%dx%d try %d: solver %d rule %d", h, w, t, a.solvable, expect);
        if (a.solvable) {
            solvable++;
            ck_assert_msg(replay_sorts(cells, h, w, &a), "%dx%d try %d: the moves do not sort", h,
                          w, t);
        } else {
            unsolvable++;
            ck_assert_uint_eq(a.move_count, 0);
        }
        rubiks_rectangle_answer_free(&a);
        free(cells);
    }
    ck_assert_int_ge(solvable, 30);
    if (h >= 4 && w >= 4) ck_assert_int_gt(unsolvable, 0);
}
END_TEST

/* Blocks of three row pairs on random solvable boards of every orientation and cut: P = 3..8
 * pairs against few or many column pairs, both cuts (3k, 3k + 1, 3k + 2 pairs); from 400 orbits
 * on (the last six), blocks also try every pair order and the mirror images of their runs. */
START_TEST(three_pair_blocks_sort)
{
    static const int shapes[][2] = {{6, 6},   {6, 40},  {40, 6},  {7, 31},  {8, 30},  {9, 60},
                                    {12, 12}, {13, 80}, {80, 13}, {14, 50}, {16, 17}, {17, 16},
                                    {40, 42}, {42, 40}, {26, 64}, {64, 27}, {28, 61}, {61, 28}};
    int h = shapes[_i][0], w = shapes[_i][1];
    rng_state = 0x3BA1u + (uint64_t)_i;
    scrambled_round_trip(h, w, 20L * (h + w), 10);
}
END_TEST

/* ---- the tables of a row run, replayed on one 4-cell orbit per pair ---- */

/* The test's own orbit: cell k holds the label of the value there; a flip swaps two cells. */
static void orbit_swap(uint8_t *cells, int a, int b)
{
    uint8_t t = cells[a];
    cells[a] = cells[b];
    cells[b] = t;
}

/* Applies the column choice cv (bit 0: left L = cells 0,2; bit 1: right R = cells 1,3). */
static void orbit_columns(uint8_t *cells, unsigned cv)
{
    if (cv & 1) orbit_swap(cells, 0, 2);
    if (cv & 2) orbit_swap(cells, 1, 3);
}

/* Every finite entry of a random three-pair run's table: the choice costs what the table says,
 * its net is the entry's net, and the moves (choice before each event, the net undone at the
 * end) leave each pair's orbit holding the key's permutation of that pair. And a run with the
 * top and bottom rows of one pair swapped has the same table with that digit conjugated by
 * LR = (0 2)(1 3): the rule the solver's mirror images rest on. */
START_TEST(run_tables_replay)
{
    rubiks_rectangle_group g;
    rubiks_rectangle_group_init(&g);
    rng_state = 0x7AB1Eu + (uint64_t)_i;
    static const uint8_t events[6] = {1, 2, 5, 6, 9, 10};
    uint8_t rows[RR_SEQ_MAX], mirrored[RR_SEQ_MAX];
    int len = 20 + _i * 4;
    for (int i = 0; i < len; i++) {
        do rows[i] = events[rng() % 6];
        while (i > 0 && rows[i] == rows[i - 1]);
        mirrored[i] = RR_ROW_PAIR(rows[i]) == 1 ? rows[i] ^ 3 : rows[i];
    }
    rubiks_rectangle_seq s, m;
    ck_assert(rubiks_rectangle_seq_init(&g, rows, len, 3, &s, NULL));
    ck_assert(rubiks_rectangle_seq_init(&g, mirrored, len, 3, &m, NULL));
    ck_assert_uint_eq(s.keys, 24 * 24 * 24);
    uint8_t lr[4] = {2, 3, 0, 1}, conj[24];
    uint8_t lr_index = rubiks_rectangle_group_index(&g, lr);
    for (int x = 0; x < 24; x++) conj[x] = g.mul[g.mul[lr_index][x]][lr_index];
    long finite = 0;
    for (uint32_t key = 0; key < s.keys; key++)
        for (unsigned net = 0; net < 4; net++) {
            unsigned d0 = key % 24, d1 = key / 24 % 24, d2 = key / 576;
            quiet_assert_uint_eq(m.cost[key][net], s.cost[d0 + 24 * conj[d1] + 576 * d2][net]);
            if (s.cost[key][net] == RR_COST_NONE) continue;
            finite++;
            /* The choice lists its column flips as 7-bit codes 1 + 2i (left before event i)
             * and 2 + 2i (right), each once. */
            uint64_t choice = s.choice[key][net];
            unsigned cost = 0, total = 0, cvs[RR_SEQ_MAX] = {0};
            for (; choice; choice >>= 7) {
                unsigned slot = (unsigned)(choice & 127) - 1;
                quiet_assert_uint_lt(slot, 2 * (unsigned)len);
                quiet_assert_uint_eq(cvs[slot / 2] & (1u << (slot % 2)), 0);
                cvs[slot / 2] |= 1u << (slot % 2);
                cost++;
            }
            uint8_t orbit[3][4];
            for (int j = 0; j < 3; j++)
                for (int k = 0; k < 4; k++) orbit[j][k] = (uint8_t)k;
            for (int i = 0; i < len; i++) {
                unsigned cv = cvs[i];
                total ^= cv;
                for (int j = 0; j < 3; j++) orbit_columns(orbit[j], cv);
                int j = RR_ROW_PAIR(rows[i]);
                if (rows[i] & RR_ROW_TOP) orbit_swap(orbit[j], 0, 1);
                if (rows[i] & RR_ROW_BOTTOM) orbit_swap(orbit[j], 2, 3);
            }
            quiet_assert_uint_eq(cost, s.cost[key][net]);
            quiet_assert_uint_eq(total, net);
            unsigned digit[3] = {d0, d1, d2};
            for (int j = 0; j < 3; j++) {
                orbit_columns(orbit[j], net); /* phi = w n: the net applied once more */
                /* Flips swap cells, so the labels read x -> f1(f2(...(x))): the order of
                 * perm[] and mul[]. */
                for (int k = 0; k < 4; k++)
                    quiet_assert_msg(g.perm[digit[j]][k] == orbit[j][k], "key %u net %u pair %d",
                                     key, net, j);
            }
        }
    /* A complete run reaches each of the 12^3 tuples of its parities with some net. */
    ck_assert_int_ge(finite, s.complete ? 12 * 12 * 12 : 1);
    rubiks_rectangle_seq_free(&s);
    rubiks_rectangle_seq_free(&m);
}
END_TEST

/* A four-pair run of 36 or 40 events (choices past 32 events): sampled finite entries of its
 * table replay as above, and with a row flip X of one pair made first (no column flip before
 * it) that pair's orbit ends at X phi instead: the rule the solver's prefixes rest on. */
START_TEST(four_pair_run_tables_replay)
{
    rubiks_rectangle_group g;
    rubiks_rectangle_group_init(&g);
    rng_state = 0x4A11u + (uint64_t)_i;
    static const uint8_t events[8] = {1, 2, 5, 6, 9, 10, 13, 14};
    uint8_t rows[RR_SEQ_MAX];
    int len = 36 + 4 * _i;
    for (int i = 0; i < len; i++) {
        do rows[i] = events[rng() % 8];
        while (i > 0 && rows[i] == rows[i - 1]);
    }
    rubiks_rectangle_seq s;
    ck_assert(rubiks_rectangle_seq_init(&g, rows, len, 4, &s, NULL));
    ck_assert_uint_eq(s.keys, 24 * 24 * 24 * 24);
    int checked = 0;
    for (int t = 0; t < 200000 && checked < 3000; t++) {
        uint32_t key = (uint32_t)(rng() % s.keys);
        unsigned net = (unsigned)(rng() % 4);
        if (s.cost[key][net] == RR_COST_NONE) continue;
        checked++;
        unsigned cost = 0, total = 0, cvs[RR_SEQ_MAX] = {0};
        for (uint64_t choice = s.choice[key][net]; choice; choice >>= 7) {
            unsigned slot = (unsigned)(choice & 127) - 1;
            quiet_assert_uint_lt(slot, 2 * (unsigned)len);
            cvs[slot / 2] |= 1u << (slot % 2);
            cost++;
        }
        int pre_pair = (int)(rng() % 4);
        unsigned pre = 1 + (unsigned)(rng() % 2); /* 1: top row, 2: bottom row */
        uint8_t orbit[4][4];
        for (int j = 0; j < 4; j++)
            for (int k = 0; k < 4; k++) orbit[j][k] = (uint8_t)k;
        if (pre == 1) orbit_swap(orbit[pre_pair], 0, 1);
        if (pre == 2) orbit_swap(orbit[pre_pair], 2, 3);
        for (int i = 0; i < len; i++) {
            total ^= cvs[i];
            for (int j = 0; j < 4; j++) orbit_columns(orbit[j], cvs[i]);
            int j = RR_ROW_PAIR(rows[i]);
            if (rows[i] & RR_ROW_TOP) orbit_swap(orbit[j], 0, 1);
            if (rows[i] & RR_ROW_BOTTOM) orbit_swap(orbit[j], 2, 3);
        }
        quiet_assert_uint_eq(cost, s.cost[key][net]);
        quiet_assert_uint_eq(total, net);
        for (int j = 0; j < 4; j++) {
            orbit_columns(orbit[j], net);
            unsigned digit = key;
            for (int d = 0; d < j; d++) digit /= 24;
            digit %= 24;
            if (j == pre_pair) digit = g.mul[g.row[pre]][digit];
            for (int k = 0; k < 4; k++)
                quiet_assert_msg(g.perm[digit][k] == orbit[j][k], "key %u net %u pair %d", key, net,
                                 j);
        }
    }
    ck_assert_int_eq(checked, 3000);
    rubiks_rectangle_seq_free(&s);
}
END_TEST

/* A run's table holds the fewest column flips for each key and net: every word of column
 * choices c_0..c_(len-1) of a short random run over three pairs (or four) is played on the
 * orbits, and the cheapest per end state must be the table's entry, the unreached ones (and
 * those past RR_CHOICE_FLIPS) must read RR_COST_NONE. */
START_TEST(run_tables_are_cheapest)
{
    rubiks_rectangle_group g;
    rubiks_rectangle_group_init(&g);
    rng_state = 0xC4EA9u + (uint64_t)_i;
    int pairs = _i < 3 ? 3 : 4, len = 7 + _i % 3;
    uint8_t rows[RR_SEQ_MAX];
    for (int i = 0; i < len; i++) {
        do rows[i] = (uint8_t)(4 * (rng() % (unsigned)pairs) + 1 + rng() % 3);
        while (i > 0 && rows[i] == rows[i - 1]);
    }
    rubiks_rectangle_seq s;
    ck_assert(rubiks_rectangle_seq_init(&g, rows, len, pairs, &s, NULL));
    uint8_t(*fewest)[4] = malloc(s.keys * sizeof *fewest);
    ck_assert_ptr_nonnull(fewest);
    memset(fewest, RR_COST_NONE, s.keys * sizeof *fewest);
    for (uint32_t word = 0; word < 1u << (2 * len); word++) {
        uint8_t orbit[4][4];
        for (int j = 0; j < pairs; j++)
            for (int k = 0; k < 4; k++) orbit[j][k] = (uint8_t)k;
        unsigned net = 0, flips = 0;
        for (int i = 0; i < len; i++) {
            unsigned cv = word >> (2 * i) & 3;
            net ^= cv;
            flips += (cv & 1) + (cv >> 1);
            for (int j = 0; j < pairs; j++) orbit_columns(orbit[j], cv);
            int j = RR_ROW_PAIR(rows[i]);
            if (rows[i] & RR_ROW_TOP) orbit_swap(orbit[j], 0, 1);
            if (rows[i] & RR_ROW_BOTTOM) orbit_swap(orbit[j], 2, 3);
        }
        uint32_t key = 0;
        for (int j = pairs - 1; j >= 0; j--) {
            orbit_columns(orbit[j], net);
            key = key * 24 + rubiks_rectangle_group_index(&g, orbit[j]);
        }
        if (flips <= RR_CHOICE_FLIPS && flips < fewest[key][net]) fewest[key][net] = (uint8_t)flips;
    }
    long reached = 0;
    for (uint32_t key = 0; key < s.keys; key++)
        for (unsigned net = 0; net < 4; net++) {
            quiet_assert_msg(s.cost[key][net] == fewest[key][net], "key %u net %u: %u, fewest %u",
                             key, net, s.cost[key][net], fewest[key][net]);
            reached += fewest[key][net] != RR_COST_NONE;
        }
    /* Distinct words reach many end states, so the comparison is not all RR_COST_NONE. */
    ck_assert_int_gt(reached, 1 << len);
    free(fewest);
    rubiks_rectangle_seq_free(&s);
}
END_TEST

/* Blocks of four row pairs (boards of 400 to 4 000 orbits), with the prefixes that fit a run to
 * any parities, and the cuts of 4k + 1 .. 4k + 3 pairs: random solvable boards replayed. */
START_TEST(four_pair_blocks_sort)
{
    static const int shapes[][2] = {{8, 200}, {10, 160}, {12, 134}, {14, 116},
                                    {18, 90}, {63, 27},  {50, 52},  {125, 120}};
    int h = shapes[_i][0], w = shapes[_i][1];
    rng_state = 0x4B10u + (uint64_t)_i;
    scrambled_round_trip(h, w, 20L * (h + w), 2);
}
END_TEST

/* Boards of 2 000 to 4 000 orbits are planned again with row pairs exchanged between blocks
 * (regroup): blocks then hold pairs that are not neighbours. Wide, tall and odd boards replay to
 * sorted, and the same board solved twice gets the same moves (the search is bounded by a count
 * of tries, not by the clock). */
START_TEST(regrouped_boards_sort_and_repeat)
{
    static const int shapes[][2] = {{80, 110}, {110, 80}, {127, 125}};
    int h = shapes[_i][0], w = shapes[_i][1];
    rng_state = 0x5E61u + (uint64_t)_i;
    int32_t *cells = sorted_board(h, w);
    scramble(cells, h, w, 20L * (h + w));
    rubiks_rectangle_answer a, again;
    ck_assert_int_eq(solve(cells, h, w, &a), RUBIKS_RECTANGLE_OK);
    ck_assert_msg(a.solvable && replay_sorts(cells, h, w, &a), "%dx%d: the moves do not sort", h,
                  w);
    ck_assert_int_eq(solve(cells, h, w, &again), RUBIKS_RECTANGLE_OK);
    ck_assert_uint_eq(again.move_count, a.move_count);
    ck_assert(memcmp(again.moves, a.moves, a.move_count * sizeof *a.moves) == 0);
    rubiks_rectangle_answer_free(&a);
    rubiks_rectangle_answer_free(&again);
    free(cells);
}
END_TEST

START_TEST(largest_board_sorts)
{
    rng_state = 0xBEEFu;
    scrambled_round_trip(1000, 1000, 20000, 1);
}
END_TEST

START_TEST(sorted_board_needs_no_moves)
{
    int32_t *cells = sorted_board(30, 40);
    rubiks_rectangle_answer a;
    ck_assert_int_eq(solve(cells, 30, 40, &a), RUBIKS_RECTANGLE_OK);
    ck_assert(a.solvable);
    ck_assert_uint_eq(a.move_count, 0);
    rubiks_rectangle_answer_free(&a);
    free(cells);
}
END_TEST

/* A random permutation of a large board puts values outside their orbits: unsolvable. */
START_TEST(random_permutations_are_unsolvable)
{
    static const int shapes[][2] = {{10, 10}, {37, 53}, {200, 150}, {1, 50}, {50, 1}};
    rng_state = 0xFACEu + (uint64_t)_i;
    int h = shapes[_i][0], w = shapes[_i][1];
    int32_t *cells = sorted_board(h, w);
    size_t n = (size_t)h * w;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = rng() % (i + 1);
        int32_t t = cells[i];
        cells[i] = cells[j];
        cells[j] = t;
    }
    rubiks_rectangle_answer a;
    ck_assert_int_eq(solve(cells, h, w, &a), RUBIKS_RECTANGLE_OK);
    ck_assert(!a.solvable);
    ck_assert_uint_eq(a.move_count, 0);
    ck_assert_ptr_null(a.moves);
    free(cells);
}
END_TEST

/* One swap inside one orbit of a large board breaks the parity rule (H, W >= 4). */
START_TEST(single_orbit_swap_is_unsolvable)
{
    rng_state = 0xABCDu;
    int h = 60, w = 70;
    int32_t *cells = sorted_board(h, w);
    scramble(cells, h, w, 3000);
    int32_t t = cells[5 * w + 7];
    cells[5 * w + 7] = cells[5 * w + (w - 1 - 7)];
    cells[5 * w + (w - 1 - 7)] = t;
    rubiks_rectangle_answer a;
    ck_assert_int_eq(solve(cells, h, w, &a), RUBIKS_RECTANGLE_OK);
    ck_assert(!a.solvable);
    free(cells);
}
END_TEST

START_TEST(bad_boards_are_refused)
{
    int32_t dup[4] = {1, 2, 2, 4}, range[4] = {1, 2, 3, 5};
    rubiks_rectangle_answer a;
    ck_assert_int_eq(solve(dup, 2, 2, &a), RUBIKS_RECTANGLE_INVALID);
    ck_assert_int_eq(solve(range, 2, 2, &a), RUBIKS_RECTANGLE_INVALID);
    ck_assert_int_eq(solve(dup, 0, 4, &a), RUBIKS_RECTANGLE_INVALID);
    ck_assert_int_eq(solve(dup, 1001, 1, &a), RUBIKS_RECTANGLE_INVALID);
    ck_assert_ptr_null(a.moves);
}
END_TEST

START_TEST(expired_budget_stops)
{
    rng_state = 0x5EEDu;
    int32_t *cells = sorted_board(300, 300);
    scramble(cells, 300, 300, 5000);
    rubiks_rectangle_board board = {300, 300, cells};
    budget b;
    budget_init_ms(&b, 0, NULL);
    rubiks_rectangle_answer a;
    ck_assert_int_eq(rubiks_rectangle_solve(&board, &b, &a), RUBIKS_RECTANGLE_TIME_LIMIT);
    ck_assert_ptr_null(a.moves);
    /* The run tables are built within the budget too (a four-pair table takes tens of
     * milliseconds): cut short, the build fails and frees what it made; the next solve builds them.
     */
    rubiks_rectangle_group g;
    rubiks_rectangle_group_init(&g);
    static const uint8_t run[] = {1, 5, 9, 13, 2, 6, 10, 14};
    rubiks_rectangle_seq seq;
    ck_assert(!rubiks_rectangle_seq_init(&g, run, 8, 4, &seq, &b));
    rubiks_rectangle_seq_free(&seq);
    ck_assert(rubiks_rectangle_seq_init(&g, run, 8, 4, &seq, NULL));
    rubiks_rectangle_seq_free(&seq);
    budget_init_unlimited(&b);
    ck_assert_int_eq(rubiks_rectangle_solve(&board, &b, &a), RUBIKS_RECTANGLE_OK);
    ck_assert(replay_sorts(cells, 300, 300, &a));
    rubiks_rectangle_answer_free(&a);
    free(cells);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rubiks_rectangle");
    TCase *tc = tcase_create("rubiks_rectangle");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, every_small_board_matches_search, 0, 23);
    tcase_add_test(tc, four_by_four_orbit_boards_match_search);
    tcase_add_loop_test(tc, four_by_five_boards_match_search, 0, 2);
    tcase_add_loop_test(tc, scrambles_sort, 0, 20);
    tcase_add_test(tc, answers_are_short);
    tcase_add_loop_test(tc, every_shape_up_to_six_matches_rule, 0, 36);
    tcase_add_loop_test(tc, three_pair_blocks_sort, 0, 18);
    tcase_add_loop_test(tc, run_tables_replay, 0, 4);
    tcase_add_loop_test(tc, four_pair_run_tables_replay, 0, 2);
    tcase_add_loop_test(tc, run_tables_are_cheapest, 0, 5);
    tcase_add_loop_test(tc, four_pair_blocks_sort, 0, 8);
    tcase_add_loop_test(tc, regrouped_boards_sort_and_repeat, 0, 3);
    tcase_add_test(tc, largest_board_sorts);
    tcase_add_test(tc, sorted_board_needs_no_moves);
    tcase_add_loop_test(tc, random_permutations_are_unsolvable, 0, 5);
    tcase_add_test(tc, single_orbit_swap_is_unsolvable);
    tcase_add_test(tc, bad_boards_are_refused);
    tcase_add_test(tc, expired_budget_stops);
    suite_add_tcase(s, tc);
    return check_run(s);
}
