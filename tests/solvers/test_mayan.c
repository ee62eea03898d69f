/* The Mayan solver against this test's own plain simulator and an unpruned exhaustive search:
 * same verdict and the same smallest sequence on thousands of random boards, hand-made boards
 * for every rule, and every returned sequence replayed to an empty board in exactly n moves.
 *
 * The simulator (tests/mayan_sim.h) is deliberately naive and shares no code or idea with the
 * solver's bitboards. The reference search tries every legal move (left into occupied cells and
 * equal swaps included) in the contest's order and prunes nothing. The lower bound's programme
 * (mayan_bound.c) is checked against a brute force over target spreads and sets of lines. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_quiet.h"
#include "check_run.h"
#include "mayan_sim.h"
#include "xorshift.h"
#include "mayan.h"
#include "mayan_bound.h"
#include "mayan_columns.h"
#include "mayan_far.h"
#include "mayan_reach.h"
#include "mayan_table.h"

/* Exhaustive reference: every legal move in order x, y, right before left; nothing pruned. */
static int t_search(const tboard *b, int left, tmove *path)
{
    if (left == 0) return t_empty(b);
    if (t_empty(b)) return 0;
    for (int x = 0; x < b->w; x++)
        for (int y = 0; y < b->h; y++)
            for (int d = 0; d < 2; d++) {
                tboard c = *b;
                int dir = d == 0 ? 1 : -1;
                if (!t_move(&c, x, y, dir)) continue;
                if (t_search(&c, left - 1, path + 1)) {
                    path[0] = (tmove){x, y, dir};
                    return 1;
                }
            }
    return 0;
}

static int t_reference(const tboard *start, int n, tmove *path)
{
    tboard b = *start;
    t_settle(&b);
    return t_search(&b, n, path);
}

/* ---------- helpers ---------- */

static mayan_board to_mayan(const tboard *t)
{
    mayan_board m;
    memset(&m, 0, sizeof m);
    m.width = t->w;
    m.height = t->h;
    for (int x = 0; x < t->w; x++)
        for (int y = 0; y < t->h; y++) m.cell[x][y] = (unsigned char)t->g[x][y];
    return m;
}

/* Replays the solver's answer with the test's simulator: every move legal, the board
 * non-empty before each move and empty after the last. */
static void assert_replays(const tboard *start, const mayan_result *r, int n)
{
    ck_assert_int_eq(r->move_count, n);
    tboard b = *start;
    t_settle(&b);
    for (int i = 0; i < n; i++) {
        ck_assert_msg(!t_empty(&b), "board empty before move %d", i);
        ck_assert_msg(t_move(&b, r->moves[i].x, r->moves[i].y, r->moves[i].direction),
                      "move %d (%d,%d,%d) is illegal", i, r->moves[i].x, r->moves[i].y,
                      r->moves[i].direction);
    }
    ck_assert_msg(t_empty(&b), "board not empty after the answer");
}

static mayan_status solve(const tboard *t, int n, mayan_result *r)
{
    mayan_board m = to_mayan(t);
    budget b;
    budget_init_unlimited(&b);
    return mayan_solve(&m, n, &b, r);
}

/* The solver's answer is the reference's: verdict and the exact sequence. */
static void assert_answer(const tboard *t, int n, int expect, const tmove *ref,
                          const mayan_result *r)
{
    ck_assert_int_eq(r->status, expect ? MAYAN_SOLVED : MAYAN_NO_SOLUTION);
    if (expect) {
        assert_replays(t, r, n);
        for (int i = 0; i < n; i++) {
            ck_assert_int_eq(r->moves[i].x, ref[i].x);
            ck_assert_int_eq(r->moves[i].y, ref[i].y);
            ck_assert_int_eq(r->moves[i].direction, ref[i].dir);
        }
    }
}

/* Colours renamed 2 -> 9, 3 -> 10, 4 -> 8 (the others kept): a name changes no answer, and past
 * 7 colours the failure table keys 4 bits per cell. Cut to 3 bits, 9 would read as 1 and 8 as
 * empty, so a key too narrow merges different boards. */
static const int renamed_colour[MAYAN_MAX_COLOUR + 1] = {0, 1, 9, 10, 8, 5, 6, 7, 8, 9, 10};

/* Both the solver and, on boards of at most 5 columns, the solver with its direct tables
 * forced on (mayan_solve_direct: else only used from 5 moves up) agree with the reference; and
 * so does the solver on the board with its colours renamed (boards of at most 5 colours). */
static void assert_answers(const tboard *t, int n, int expect, const tmove *ref)
{
    mayan_result r;
    solve(t, n, &r);
    assert_answer(t, n, expect, ref, &r);
    tboard renamed = *t;
    bool few = true;
    for (int x = 0; x < t->w; x++)
        for (int y = 0; y < t->h; y++) {
            few = few && t->g[x][y] <= 5;
            renamed.g[x][y] = renamed_colour[t->g[x][y]];
        }
    if (few) {
        solve(&renamed, n, &r);
        assert_answer(&renamed, n, expect, ref, &r);
    }
    if (t->w <= 5) {
        mayan_board m = to_mayan(t);
        budget b;
        budget_init_unlimited(&b);
        mayan_solve_direct(&m, n, &b, &r);
        assert_answer(t, n, expect, ref, &r);
    }
}

/* Solver and reference agree: verdict and the exact sequence. Returns 1 when solvable. */
static int check_against_reference(const tboard *t, int n)
{
    tmove ref[MAYAN_MAX_MOVES];
    int expect = t_reference(t, n, ref);
    assert_answers(t, n, expect, ref);
    return expect;
}

static uint64_t rng = 0x2545F4914F6CDD1DULL;
static int rnd(int n)
{
    return (int)(xorshift64(&rng) % (uint64_t)n);
}

/* An empty w x h board. */
static tboard empty_board(int w, int h)
{
    tboard b;
    memset(&b, 0, sizeof b);
    b.w = w;
    b.h = h;
    return b;
}

/* Drops a block of colour v onto a random column with room; false when that column is full. */
static bool drop_block(tboard *b, int v)
{
    int x = rnd(b->w), y = 0;
    while (y < b->h && b->g[x][y]) y++;
    if (y == b->h) return false;
    b->g[x][y] = v;
    return true;
}

/* Random stacks: heights 0..max_h, colours 1..k (initial runs allowed: both sides settle). */
static tboard random_board(int w, int h, int max_h, int k)
{
    tboard b = empty_board(w, h);
    for (int x = 0; x < w; x++) {
        int hx = rnd(max_h + 1);
        for (int y = 0; y < hx; y++) b.g[x][y] = 1 + rnd(k);
    }
    return b;
}

static int imin_t(int a, int b)
{
    return a < b ? a : b;
}

static void expect_moves(const mayan_result *r, int n, const int (*m)[3])
{
    ck_assert_int_eq(r->status, MAYAN_SOLVED);
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(r->moves[i].x, m[i][0]);
        ck_assert_int_eq(r->moves[i].y, m[i][1]);
        ck_assert_int_eq(r->moves[i].direction, m[i][2]);
    }
}

/* ---------- hand-made boards ---------- */

START_TEST(contest_sample)
{
    static const int cols[] = {1, 0, 2, 1, 0, 2, 3, 4, 0, 3, 1, 0, 2, 4, 3, 4, 0};
    tboard b = make(5, 7, cols);
    mayan_result r;
    solve(&b, 3, &r);
    static const int want[][3] = {{2, 1, 1}, {3, 1, 1}, {3, 0, 1}};
    expect_moves(&r, 3, want);
    assert_replays(&b, &r, 3);
    /* The bound cuts children on the way (and the last move's filter runs): the answer is
     * still the reference's. */
    ck_assert_uint_ge(r.bound_cuts, 1);
    ck_assert_uint_ge(r.nodes, 2);
    check_against_reference(&b, 3);
    for (int n = 1; n <= 2; n++) check_against_reference(&b, n);
}
END_TEST

/* The move (0,0,1) into an empty column falls into it; (0,0,1) onto a block swaps. */
START_TEST(fall_into_empty_column)
{
    static const int cols[] = {1, 0, 0, 1, 0, 1, 0};
    tboard b = make(4, 3, cols);
    mayan_result r;
    solve(&b, 1, &r);
    static const int want[][3] = {{0, 0, 1}};
    expect_moves(&r, 1, want);
    check_against_reference(&b, 1);
}
END_TEST

/* A block dragged from high up falls to the floor of the next column; the column it left
 * closes up. */
START_TEST(fall_from_height_and_hole_closes)
{
    /* c0 = [2,2,1], c1 = [], c2 = [1,2], c3 = [1,2]: dragging (0,2) right drops the 1 to (1,0),
     * row 0 reads 2 1 1 1 and the 1s vanish; the 2s above fall. The reference decides. */
    static const int cols[] = {2, 2, 1, 0, 0, 1, 2, 0, 1, 2, 0};
    tboard b = make(4, 4, cols);
    for (int n = 1; n <= 3; n++) check_against_reference(&b, n);
    /* And the plain case: c0 = [2,1], c1 = [], c2 = [1], c3 = [1], c4 = [2], c5 = [2]. The 1 at
     * (0,1) falls to (1,0): 1 1 1 vanish; then 2 . . . 2 2 stays. n = 1 has no answer. */
    static const int cols2[] = {2, 1, 0, 0, 1, 0, 1, 0, 2, 0, 2, 0};
    tboard b2 = make(6, 3, cols2);
    mayan_result r;
    ck_assert_int_eq(solve(&b2, 1, &r), MAYAN_NO_SOLUTION);
    for (int n = 1; n <= 3; n++) check_against_reference(&b2, n);
}
END_TEST

START_TEST(swap_with_occupied_target)
{
    /* row 0: 1 1 2 1 2 2 -> (2,0,1) swaps 2 and 1: 1 1 1 2 2 2, two runs, empty. */
    static const int cols[] = {1, 0, 1, 0, 2, 0, 1, 0, 2, 0, 2, 0};
    tboard b = make(6, 2, cols);
    mayan_result r;
    solve(&b, 1, &r);
    static const int want[][3] = {{2, 0, 1}};
    expect_moves(&r, 1, want);
    check_against_reference(&b, 1);
}
END_TEST

/* (5,0,-1) completes 2 2 2 on row 0; they vanish, the 1 above (2,0) falls and completes
 * 1 1 1: a chain reaction empties the board. */
START_TEST(chain_reaction)
{
    static const int cols[] = {1, 0, 1, 0, 2, 1, 0, 2, 0, 0, 2, 0};
    tboard b = make(6, 3, cols);
    mayan_result r;
    solve(&b, 1, &r);
    static const int want[][3] = {{5, 0, -1}};
    expect_moves(&r, 1, want);
    check_against_reference(&b, 1);
    check_against_reference(&b, 2);
}
END_TEST

/* (2,0,1) drops the 3 into column 3; column 2 falls: row 0 becomes 1 1 1 3 3 3 and row 1
 * 2 2 2 at once; all three runs vanish together. */
START_TEST(runs_vanish_together)
{
    static const int cols[] = {1, 2, 0, 1, 2, 0, 3, 1, 2, 0, 0, 3, 0, 3, 0};
    tboard b = make(6, 3, cols);
    mayan_result r;
    solve(&b, 1, &r);
    static const int want[][3] = {{2, 0, 1}};
    expect_moves(&r, 1, want);
    check_against_reference(&b, 1);
}
END_TEST

/* Row 0 1 1 1 and column 2 1 1 1 share (2,0): all five vanish at once (one after the other,
 * the column would be broken by the row's fall). */
START_TEST(row_and_column_share_a_block)
{
    static const int cols[] = {1, 0, 1, 0, 2, 1, 1, 0, 1, 0, 2, 0, 2, 0};
    tboard b = make(6, 3, cols);
    mayan_result r;
    solve(&b, 1, &r);
    static const int want[][3] = {{2, 0, 1}};
    expect_moves(&r, 1, want);
    check_against_reference(&b, 1);
    check_against_reference(&b, 2);
}
END_TEST

/* [[1],[1],[],[1],[]]: (3,0,-1) alone; for 2 moves the equal swap (0,0,1) pads first. */
START_TEST(padding_with_equal_swap)
{
    static const int cols[] = {1, 0, 1, 0, 0, 1, 0, 0};
    tboard b = make(5, 7, cols);
    mayan_result r;
    solve(&b, 1, &r);
    static const int one[][3] = {{3, 0, -1}};
    expect_moves(&r, 1, one);
    solve(&b, 2, &r);
    static const int two[][3] = {{0, 0, 1}, {3, 0, -1}};
    expect_moves(&r, 2, two);
    assert_replays(&b, &r, 2);
    solve(&b, 3, &r);
    static const int three[][3] = {{0, 0, 1}, {0, 0, 1}, {3, 0, -1}};
    expect_moves(&r, 3, three);
    for (int n = 1; n <= 3; n++) check_against_reference(&b, n);
}
END_TEST

/* [[1],[],[1],[1]]: (0,0,1) empties the board after one move, which is no answer for two moves
 * (an empty board has no move left): the answer pads with the equal swap (2,0,1) first. */
START_TEST(emptied_too_early)
{
    static const int cols[] = {1, 0, 0, 1, 0, 1, 0};
    tboard b = make(4, 3, cols);
    mayan_result r;
    solve(&b, 2, &r);
    static const int two[][3] = {{2, 0, 1}, {0, 0, 1}};
    expect_moves(&r, 2, two);
    check_against_reference(&b, 2);
    /* One move empties it, so one move is solvable; three moves pad twice. */
    ck_assert_int_eq(check_against_reference(&b, 1), 1);
    check_against_reference(&b, 3);
}
END_TEST

START_TEST(initially_unstable_board)
{
    /* [[1],[1],[1]] vanishes before any move: nothing left to move. */
    static const int gone[] = {1, 0, 1, 0, 1, 0};
    tboard b = make(3, 3, gone);
    mayan_result r;
    for (int n = 1; n <= 3; n++) {
        ck_assert_int_eq(solve(&b, n, &r), MAYAN_NO_SOLUTION);
        check_against_reference(&b, n);
    }
    /* A chain on settling: column 0's 1 1 1 vanishes, its 2 falls to 2 2 2: empty. */
    static const int chain[] = {1, 1, 1, 2, 0, 2, 0, 2, 0};
    tboard c = make(3, 4, chain);
    ck_assert_int_eq(solve(&c, 1, &r), MAYAN_NO_SOLUTION);
    /* Settles to [[1],[1],[],[1]], then (3,0,-1). */
    static const int rest[] = {2, 2, 2, 1, 0, 1, 0, 0, 1, 0};
    tboard d = make(4, 4, rest);
    solve(&d, 1, &r);
    static const int one[][3] = {{3, 0, -1}};
    expect_moves(&r, 1, one);
    check_against_reference(&d, 1);
}
END_TEST

START_TEST(dead_colour_and_single_column)
{
    /* Two 2s can never vanish, whatever the moves. */
    static const int cols[] = {1, 2, 0, 1, 0, 2, 0, 1, 0};
    tboard b = make(4, 3, cols);
    mayan_result r;
    for (int n = 1; n <= 3; n++) {
        ck_assert_int_eq(solve(&b, n, &r), MAYAN_NO_SOLUTION);
        check_against_reference(&b, n);
    }
    /* A one-column board allows no move at all. */
    static const int one[] = {1, 2, 1, 2, 0};
    tboard c = make(1, 16, one);
    ck_assert_int_eq(solve(&c, 1, &r), MAYAN_NO_SOLUTION);
}
END_TEST

START_TEST(large_boards)
{
    /* 16 x 16: the padding example pushed to the right edge, tall column on the left. */
    tboard b;
    memset(&b, 0, sizeof b);
    b.w = 16;
    b.h = 16;
    for (int y = 0; y < 16; y++) b.g[0][y] = 1 + (y / 2) % 2 * 2; /* 1 1 3 3 1 1 ... */
    b.g[12][0] = 1, b.g[13][0] = 1, b.g[15][0] = 1;
    /* Column 0 holds eight 1s and eight 3s in pairs: no run, and they cannot all vanish in
     * two moves; the reference decides. */
    for (int n = 1; n <= 2; n++) check_against_reference(&b, n);
    /* Without column 0: (15,0,-1) for one move; (12,0,1) pads for two. */
    memset(b.g[0], 0, sizeof b.g[0]);
    mayan_result r;
    solve(&b, 1, &r);
    static const int one[][3] = {{15, 0, -1}};
    expect_moves(&r, 1, one);
    solve(&b, 2, &r);
    static const int two[][3] = {{12, 0, 1}, {15, 0, -1}};
    expect_moves(&r, 2, two);
    /* Random sparse boards up to 16 x 16 against the reference. */
    for (int i = 0; i < 120; i++) {
        int w = 6 + rnd(11), h = 6 + rnd(11);
        tboard t = random_board(w, h, 2 + rnd(3), 2 + rnd(2));
        check_against_reference(&t, 1 + rnd(2));
    }
}
END_TEST

START_TEST(bad_input)
{
    mayan_board m;
    memset(&m, 0, sizeof m);
    m.width = 5;
    m.height = 7;
    m.cell[0][0] = 1;
    budget b;
    budget_init_unlimited(&b);
    mayan_result r;
    ck_assert_int_eq(mayan_solve(&m, 0, &b, &r), MAYAN_BAD_INPUT);
    ck_assert_int_eq(mayan_solve(&m, 11, &b, &r), MAYAN_BAD_INPUT);
    m.cell[1][1] = 2; /* floating */
    ck_assert_int_eq(mayan_solve(&m, 1, &b, &r), MAYAN_BAD_INPUT);
    m.cell[1][1] = 0;
    m.cell[0][1] = 11;
    ck_assert_int_eq(mayan_solve(&m, 1, &b, &r), MAYAN_BAD_INPUT);
    m.cell[0][1] = 0;
    m.width = 17;
    ck_assert_int_eq(mayan_solve(&m, 1, &b, &r), MAYAN_BAD_INPUT);
    m.width = 5;
    m.height = 0;
    ck_assert_int_eq(mayan_solve(&m, 1, &b, &r), MAYAN_BAD_INPUT);
}
END_TEST

/* A full 16 x 16 board of four colours in diagonal stripes, without runs: 10 moves on it are
 * far beyond a millisecond (and a second). */
static mayan_board striped_16x16(void)
{
    mayan_board m;
    memset(&m, 0, sizeof m);
    m.width = 16;
    m.height = 16;
    for (int x = 0; x < 16; x++)
        for (int y = 0; y < 16; y++) m.cell[x][y] = (unsigned char)(1 + (x + 2 * y) % 4);
    return m;
}

START_TEST(time_limit)
{
    mayan_board m = striped_16x16();
    budget b;
    mayan_result r;
    budget_init_ms(&b, 1, NULL);
    ck_assert_int_eq(mayan_solve(&m, 10, &b, &r), MAYAN_TIME_LIMIT);
    ck_assert_int_eq(r.move_count, 0);
    atomic_bool cancel = true;
    budget_init_ms(&b, 60000, &cancel);
    ck_assert_int_eq(mayan_solve(&m, 10, &b, &r), MAYAN_TIME_LIMIT);
}
END_TEST

/* ---------- the lower bound (mayan_bound.h) ---------- */

/* Brute force of the bound's definition: per-column counts m are valid when some multiset of
 * horizontal segments (3+ columns) passes exactly m_x times through a column of 1 or 2, never
 * through a column of 0, at most m_x times through the others. Every segment worth having
 * passes a column of 1 or 2, so it is needed at most twice. */
static int t_lines_fit(const int *m, int w, int *h, int a, int b)
{
    if (a + 2 >= w) {
        for (int x = 0; x < w; x++)
            if ((m[x] <= 2 && h[x] != m[x]) || h[x] > m[x]) return 0;
        return 1;
    }
    int nb = b + 1 < w ? b + 1 : -1; /* the next segment: (a, b + 1) or (a + 1, a + 3) */
    int na = nb < 0 ? a + 1 : a;
    if (nb < 0) nb = na + 2;
    for (int times = 0; times <= 2; times++) {
        int ok = 1;
        for (int x = a; x <= b; x++) h[x] += times, ok &= h[x] <= m[x];
        if (ok && t_lines_fit(m, w, h, na, nb)) {
            for (int x = a; x <= b; x++) h[x] -= times;
            return 1;
        }
        for (int x = a; x <= b; x++) h[x] -= times;
        if (!ok) break;
    }
    return 0;
}

/* Remembered per width for m_x <= 9 (index: m in base 10): 0 unknown, 1 invalid, 2 valid. */
static unsigned char t_valid_memo[7][1000000];

static int t_valid(const int *m, int w)
{
    int index = 0;
    for (int x = 0; x < w; x++) index = index * 10 + m[x];
    unsigned char *memo = &t_valid_memo[w][index];
    if (!*memo) {
        int h[16] = {0};
        *memo = (unsigned char)(1 + t_lines_fit(m, w, h, 0, 2));
    }
    return *memo == 2;
}

/* Least earth mover's distance from n to a valid m of the same total: every m tried. */
static int t_best;
static void t_targets(const int *n, int w, int *m, int x, int left)
{
    if (x == w - 1) {
        m[x] = left;
        if (!t_valid(m, w)) return;
        int carry = 0, cost = 0;
        for (int i = 0; i < w; i++) carry += n[i] - m[i], cost += carry < 0 ? -carry : carry;
        if (cost < t_best) t_best = cost;
        return;
    }
    for (int v = 0; v <= left; v++) m[x] = v, t_targets(n, w, m, x + 1, left - v);
}

static int t_displacement(const int *n, int w)
{
    int total = 0, m[16];
    for (int x = 0; x < w; x++) total += n[x];
    t_best = 1000;
    t_targets(n, w, m, 0, total);
    return t_best;
}

static mayan_counts pack_counts(const int *n, int w)
{
    mayan_counts c = 0;
    for (int x = 0; x < w; x++) c |= (mayan_counts)n[x] << (4 * x);
    return c;
}

START_TEST(bound_matches_brute_force)
{
    mayan_bound mb[1];
    int checked_positive = 0;
    for (int i = 0; i < 1500; i++) {
        /* Widths up to 6 (the brute force grows as 3^segments); totals up to 9 (the memo's
         * digits), up to 6 on width 6. */
        int w = 1 + rnd(6), n[16] = {0}, total = 0;
        for (int x = 0; x < w; x++) n[x] = rnd(4), total += n[x];
        if (!total || total > (w == 6 ? 6 : 9)) continue;
        int want = t_displacement(n, w);
        mayan_counts c = pack_counts(n, w);
        /* A fresh cache (its key is the counts alone, for one width), asked at rising and
         * falling caps in turn. */
        ck_assert(mayan_bound_init(mb, w, 10));
        for (int cap = 0; cap <= 6; cap++) {
            int expect = want <= cap ? want : cap + 1;
            quiet_assert_int_eq(mayan_displacement_uncached(c, w, cap), expect);
            /* The cache answers every cap alike, whatever it saw before. */
            quiet_assert_int_eq(mayan_displacement(mb, c, cap), expect);
            quiet_assert_int_eq(mayan_displacement(mb, c, 6 - cap),
                                want <= 6 - cap ? want : 7 - cap);
        }
        mayan_bound_free(mb);
        checked_positive += want >= 1 && want <= 6;
    }
    ck_assert_int_ge(checked_positive, 200);
    /* By hand: 1 . . 1 . . 1 needs 4 (the outer two move two columns each, to 2..4); two
     * blocks never clear; three side by side, or stacked, need nothing. */
    int spread[] = {1, 0, 0, 1, 0, 0, 1};
    ck_assert_int_eq(mayan_displacement_uncached(pack_counts(spread, 7), 7, 10), 4);
    int two[] = {1, 1};
    ck_assert_int_eq(mayan_displacement_uncached(pack_counts(two, 2), 2, 10), 11);
    int row[] = {1, 1, 1}, stack[] = {0, 3, 0};
    ck_assert_int_eq(mayan_displacement_uncached(pack_counts(row, 3), 3, 0), 0);
    ck_assert_int_eq(mayan_displacement_uncached(pack_counts(stack, 3), 3, 0), 0);
}
END_TEST

/* Every colour has three blocks (the dead-colour rule says nothing), but 1 . . 1 . . 1 on the
 * floor needs four moves to bring the 1s side by side: three moves are refused at once, and
 * the unpruned search agrees. With four moves the answer matches the reference too. */
START_TEST(bound_refuses_spread_colour)
{
    static const int cols[] = {1, 0, 2, 0, 2, 0, 1, 0, 2, 0, 0, 1, 0};
    tboard b = make(7, 3, cols);
    mayan_result r;
    ck_assert_int_eq(solve(&b, 3, &r), MAYAN_NO_SOLUTION);
    ck_assert_uint_eq(r.nodes, 0);
    ck_assert_uint_ge(r.bound_cuts, 1);
    for (int n = 1; n <= 3; n++) check_against_reference(&b, n);
}
END_TEST

/* check_against_reference, and counts the boards solvable and those where the bound cut. */
static void check_counting_bound_cuts(const tboard *t, int n, int *solvable, int *cut)
{
    *solvable += check_against_reference(t, n);
    mayan_result r;
    solve(t, n, &r);
    *cut += r.bound_cuts > 0;
}

/* The bound deep in the search: boards of 3 to 4 blocks per colour scattered over wide rows, so
 * that most colours start far from any line. Verdicts and answers equal the reference's. */
START_TEST(bound_on_scattered_boards)
{
    int solvable = 0, cut = 0;
    for (int i = 0; i < 400; i++) {
        int w = 5 + rnd(3), h = 3, k = 2 + rnd(2); /* at most 12 blocks in >= 15 cells */
        tboard t = empty_board(w, h);
        for (int v = 1; v <= k; v++)
            for (int j = 0, c = 3 + rnd(2); j < c;) j += drop_block(&t, v);
        check_counting_bound_cuts(&t, 1 + rnd(3), &solvable, &cut);
    }
    printf("scattered: %d of 400 solvable, bound cut in %d\n", solvable, cut);
    ck_assert_int_ge(solvable, 20);
    ck_assert_int_ge(cut, 200);
}
END_TEST

/* Boards of 9 to 16 columns take the wide paths only: the per-spread shift masks with the
 * validity automaton, the two-move pair test through them, the last move limited to the
 * columns beside a mending border, and no table probe at the last move unless every colour is
 * in place. Piles of colours in threes on a few neighbouring columns somewhere on the board,
 * and low boards filled with 3 or 4 colours (every spread valid: the masks allow nearly every
 * shift); verdicts and answers equal the unpruned reference's. */
START_TEST(wide_boards_match_reference)
{
    int solvable = 0, cut = 0;
    for (int i = 0; i < 240; i++) {
        int w = 9 + rnd(8), n = 2;
        tboard t;
        if (i % 3 == 2) {
            t = random_board(9 + rnd(4), 2, 2, 3 + rnd(2));
        } else {
            /* Colours in threes dropped on 4 or 5 neighbouring columns: often solvable. */
            tboard pile = empty_board(4 + rnd(2), 3);
            for (int v = 1, k = 2 + rnd(2); v <= k; v++)
                for (int j = 0; j < 3;) j += drop_block(&pile, v);
            t = empty_board(w, pile.h);
            int at = rnd(w - pile.w + 1);
            for (int x = 0; x < pile.w; x++) memcpy(t.g[at + x], pile.g[x], sizeof pile.g[x]);
            n += i % 3 == 0;
        }
        check_counting_bound_cuts(&t, n, &solvable, &cut);
    }
    printf("wide: %d of 240 solvable, bound cut in %d\n", solvable, cut);
    ck_assert_int_ge(solvable, 30);
    ck_assert_int_ge(cut, 100);
}
END_TEST

/* A board that one move (*last) empties, made by dropping colours in threes onto 3 to 6
 * neighbouring columns of a wide board, with some colour out of place if `colour_out`; false
 * when none was found in `tries`. */
static bool one_move_board(tboard *t, tmove *last, int tries, bool colour_out)
{
    for (int i = 0; i < tries; i++) {
        int w = 9 + rnd(8), h = 4 + rnd(3);
        tboard pile = empty_board(3 + rnd(4), h);
        for (int v = 1, k = 2 + rnd(3); v <= k; v++)
            for (int j = 0; j < 3;) j += drop_block(&pile, v);
        *t = empty_board(w, h);
        int at = rnd(w - pile.w + 1);
        for (int x = 0; x < pile.w; x++) memcpy(t->g[at + x], pile.g[x], sizeof pile.g[x]);
        t_settle(t);
        if (colour_out) {
            /* some colour's spread invalid: the last move must shift it */
            mayan_counts cc[MAYAN_MAX_COLOUR + 1] = {0};
            for (int x = 0; x < w; x++)
                for (int y = 0; y < h; y++) cc[t->g[x][y]] += t->g[x][y] ? one_at(x) : 0;
            int out = 0;
            for (int v = 1; v <= MAYAN_MAX_COLOUR; v++)
                out += cc[v] && mayan_displacement_uncached(cc[v], w, 0) > 0;
            if (!out) continue;
        }
        if (!t_empty(t) && t_reference(t, 1, last)) return true;
    }
    return false;
}

/* mayan_last_move_reach's claim, on its own: from a board that one move empties, every still
 * swap of two blocks gives a board P from which swapping back leads to a solution; so for every
 * colour out of place in P that the swap does not move, one of its two cells must be marked.
 * Every such swap of boards made by one_move_board, each colour checked. */
START_TEST(last_move_reach_marks_every_way_back)
{
    int checked = 0;
    for (int i = 0; i < 40000; i++) {
        tboard t;
        tmove last;
        ck_assert(one_move_board(&t, &last, 1000, true));
        int w = t.w;
        mayan_bound mb[1];
        ck_assert(mayan_bound_init(mb, w, 16));
        for (int x = 0; x + 1 < w; x++)
            for (int y = 0; y < t.h; y++) {
                int v = t.g[x][y], u = t.g[x + 1][y];
                if (!v || !u || v == u) continue;
                tboard p = t;
                p.g[x][y] = u, p.g[x + 1][y] = v;
                tboard settled = p;
                t_settle(&settled);
                if (memcmp(&settled, &p, sizeof p)) continue; /* not a still swap */
                column col[MAYAN_MAX_SIDE] = {0};
                mayan_counts cc[MAYAN_MAX_COLOUR + 1] = {0};
                for (int cx = 0; cx < w; cx++)
                    for (int cy = 0; cy < t.h; cy++)
                        if (p.g[cx][cy]) {
                            col[cx] |= (column)p.g[cx][cy] << (4 * cy);
                            cc[p.g[cx][cy]] += one_at(cx);
                        }
                for (int a = 1; a <= MAYAN_MAX_COLOUR; a++) {
                    if (!cc[a] || a == v || a == u || mayan_spread_valid(mb, cc[a])) continue;
                    uint64_t near[MAYAN_MAX_SIDE];
                    mayan_last_move_reach(mb, col, w, cc[a], (unsigned)a, near);
                    quiet_assert_int_eq((int)((near[x] | near[x + 1]) >> (4 * y) & 1), 1);
                    checked++;
                }
            }
        mayan_bound_free(mb);
    }
    printf("last move reach: %d swaps back checked\n", checked);
    ck_assert_int_ge(checked, 2000);
}
END_TEST

/* With two moves left and a colour out of place, a still swap of two other blocks is refused
 * when it writes no cell that the colour's possible last moves read (mayan_reach.h): the
 * cells of their rows and columns that decide whether they make a run, and the columns their
 * cascades look at, round after round. Boards that one move empties, with a still swap of two
 * blocks made within six columns of that move: the search must find the swap back (or an
 * earlier answer); verdicts and answers equal the reference's. */
START_TEST(still_swaps_out_of_reach_match_reference)
{
    int boards = 0, solvable = 0, cut = 0;
    while (boards < 1500) {
        tboard t;
        tmove last;
        ck_assert(one_move_board(&t, &last, 1000, false));
        /* A swap with one cell (cx, y) in the last move's row, two columns either side; or in
         * one of its two columns, two rows either side; or anywhere within six columns. */
        int lx = last.dir > 0 ? last.x : last.x - 1, cx, y;
        switch (boards % 3) {
        case 0:
            cx = lx - 2 + rnd(6), y = last.y;
            break;
        case 1:
            cx = lx + rnd(2), y = last.y - 2 + rnd(5);
            break;
        default:
            cx = lx - 6 + rnd(14), y = rnd(t.h);
        }
        int x = cx - rnd(2);
        if (y < 0 || y >= t.h) continue;
        if (x < 0 || x + 1 >= t.w || !t.g[x][y] || !t.g[x + 1][y] || t.g[x][y] == t.g[x + 1][y])
            continue;
        int v = t.g[x][y];
        t.g[x][y] = t.g[x + 1][y];
        t.g[x + 1][y] = v;
        tboard settled = t;
        t_settle(&settled);
        if (memcmp(&settled, &t, sizeof t)) continue; /* the swap made a run */
        if (boards % 3 < 2) {
            /* Close swaps: only those that break the last move's run (it then makes none). */
            tboard played = t;
            t_move(&played, last.x, last.y, last.dir);
            int before = 0, after = 0;
            for (int i = 0; i < t.w; i++)
                for (int j = 0; j < t.h; j++)
                    before += t.g[i][j] != 0, after += played.g[i][j] != 0;
            if (after < before) continue;
        }
        boards++;
        solvable += check_against_reference(&t, 2);
        mayan_result r;
        solve(&t, 2, &r);
        cut += r.reach_cuts > 0;
    }
    printf("still swaps out of reach: %d of %d solvable, the cut in %d\n", solvable, boards, cut);
    ck_assert_int_eq(solvable, boards); /* swapping back, then the last move */
    ck_assert_int_ge(cut, 1);
}
END_TEST

/* With two moves left and exactly two colours out of place that no single swap of the two can
 * mend on their counts, the search tries only moves of those two colours (pair_blocked); and a
 * move that leaves two colours out of place must leave two that one swap can mend
 * (last_pair_possible). Boards of two to four colours scattered on 4 to 8 columns, so that both
 * the direct tables (at most 5 columns) and the wide shift masks answer; verdicts and answers
 * equal the reference's. */
START_TEST(pair_blocked_matches_reference)
{
    int solvable = 0, blocked = 0, blocked_wide = 0;
    for (int i = 0; i < 30000; i++) {
        int w = 4 + rnd(5), h = 3 + rnd(2), k = 2 + rnd(3);
        tboard t = empty_board(w, h);
        for (int v = 1; v <= k; v++)
            for (int j = 0, c = k > 3 ? 3 : 3 + rnd(2); j < c;) j += drop_block(&t, v); /* <= 12 */
        int n = 2 + (i % 8 == 0);
        solvable += check_against_reference(&t, n);
        mayan_result r;
        solve(&t, n, &r);
        blocked += r.pair_cuts > 0;
        blocked_wide += r.pair_cuts > 0 && w > 5;
    }
    printf("pair blocked: %d of 30000 solvable, the cut in %d (%d wider than 5)\n", solvable,
           blocked, blocked_wide);
    ck_assert_int_ge(solvable, 1000);
    ck_assert_int_ge(blocked_wide, 400);
    ck_assert_int_ge(blocked - blocked_wide, 800);
}
END_TEST

/* The search cuts a child by its counts as the move leaves them, before runs vanish: sound
 * because the blocks a settling removes stand in lines, so it never lowers a colour's D. Checked
 * here with the test's own simulator and brute force, on every move of random boards. */
START_TEST(settling_never_lowers_the_bound)
{
    int settled = 0;
    for (int i = 0; i < 600; i++) {
        int w = 3 + rnd(3), h = 3 + rnd(3), k = 2 + rnd(3);
        tboard b = random_board(w, h, h, k);
        t_settle(&b);
        for (int x = 0; x < w; x++)
            for (int y = 0; y < h; y++)
                for (int dir = 1; dir >= -1; dir -= 2) {
                    int tx = x + dir;
                    if (!b.g[x][y] || tx < 0 || tx >= w) continue;
                    tboard c = b;
                    int v = c.g[x][y];
                    c.g[x][y] = c.g[tx][y];
                    c.g[tx][y] = v;
                    t_fall(&c);
                    int before[MAYAN_MAX_COLOUR + 1][16] = {{0}},
                                                  after[MAYAN_MAX_COLOUR + 1][16] = {{0}};
                    for (int cx = 0; cx < w; cx++)
                        for (int cy = 0; cy < h; cy++) before[c.g[cx][cy]][cx]++;
                    tboard d = c;
                    t_settle(&d);
                    if (memcmp(&c, &d, sizeof c) == 0) continue;
                    settled++;
                    for (int cx = 0; cx < w; cx++)
                        for (int cy = 0; cy < h; cy++) after[d.g[cx][cy]][cx]++;
                    for (int colour = 1; colour <= k; colour++)
                        quiet_assert_int_le(t_displacement(before[colour], w),
                                            t_displacement(after[colour], w));
                }
    }
    printf("settling: %d moves with runs checked\n", settled);
    ck_assert_int_ge(settled, 500);
}
END_TEST

/* Still swaps far apart (or on cells apart whose order makes no run) commute, and the search
 * skips the order that comes later. Full low boards of 3 or 4 colours (many swaps make no run)
 * and boards with colour counts in threes (often solvable): answers and verdicts equal the
 * unpruned reference's. */
START_TEST(commuting_swaps_match_reference)
{
    int solvable = 0, skipped = 0;
    for (int i = 0; i < 1200; i++) {
        int w = 4 + rnd(3), h = 3 + rnd(2), k = 3 + rnd(2), n = 3;
        tboard t;
        if (i % 2) {
            t = random_board(w, h, h, k);
        } else {
            t = empty_board(w, h);
            int blocks = 3 * (w * h / 3 - rnd(3));
            for (int placed = 0; placed < blocks;) placed += drop_block(&t, 1 + placed / 3 % k);
        }
        solvable += check_against_reference(&t, n);
        mayan_result r;
        solve(&t, n, &r);
        skipped += r.commute_cuts > 0;
    }
    printf("commuting: %d of 1200 solvable, swaps skipped in %d\n", solvable, skipped);
    ck_assert_int_ge(solvable, 60);
    /* 82 here: many swaps are refused by the two-move pair test before this cut is asked. */
    ck_assert_int_ge(skipped, 60);
}
END_TEST

/* The reference for 5 and 6 moves: every legal move in the contest's order, nothing pruned, but
 * boards already searched without success at the same moves left are remembered (exact: what
 * lies below a board depends only on it and the moves left), or 5 moves on even small piles
 * take seconds a board. An open-addressed set of (cells, moves left), cleared per board by a
 * generation number. */
#define MEMO_SLOTS (1 << 18)
#define MEMO_KEY 36
typedef struct memo_slot {
    unsigned generation;
    unsigned char key[MEMO_KEY]; /* left, then the w x h cells (at most 35: 5 x 7) */
} memo_slot;
static memo_slot memo[MEMO_SLOTS];
static unsigned memo_generation;
static int memo_used;

static size_t memo_key(const tboard *b, int left, unsigned char *key)
{
    size_t n = 0;
    key[n++] = (unsigned char)left;
    for (int x = 0; x < b->w; x++)
        for (int y = 0; y < b->h; y++) key[n++] = (unsigned char)b->g[x][y];
    memset(key + n, 0, MEMO_KEY - n);
    return n;
}

/* The slot of key: its own, or the empty one where it would go (NULL when the set is full). */
static memo_slot *memo_find(const unsigned char *key)
{
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < MEMO_KEY; i++) h = (h ^ key[i]) * 1099511628211ULL;
    for (size_t i = h % MEMO_SLOTS, probes = 0; probes < 64; i = (i + 1) % MEMO_SLOTS, probes++)
        if (memo[i].generation != memo_generation || memcmp(memo[i].key, key, MEMO_KEY) == 0)
            return &memo[i];
    return NULL;
}

static int t_search_memo(const tboard *b, int left, tmove *path)
{
    if (left == 0) return t_empty(b);
    if (t_empty(b)) return 0;
    unsigned char key[MEMO_KEY];
    quiet_assert(memo_key(b, left, key) <= MEMO_KEY);
    memo_slot *slot = memo_find(key);
    if (slot && slot->generation == memo_generation) return 0;
    for (int x = 0; x < b->w; x++)
        for (int y = 0; y < b->h; y++)
            for (int d = 0; d < 2; d++) {
                tboard c = *b;
                int dir = d == 0 ? 1 : -1;
                if (!t_move(&c, x, y, dir)) continue;
                if (t_search_memo(&c, left - 1, path + 1)) {
                    path[0] = (tmove){x, y, dir};
                    return 1;
                }
            }
    slot = memo_find(key); /* the set may have changed below */
    if (slot && memo_used < MEMO_SLOTS / 2) {
        slot->generation = memo_generation;
        memcpy(slot->key, key, MEMO_KEY);
        memo_used++;
    }
    return 0;
}

/* check_against_reference with the remembering reference (boards of at most 35 cells). */
static int check_against_memo_reference(const tboard *t, int n)
{
    tmove ref[MAYAN_MAX_MOVES];
    tboard b = *t;
    t_settle(&b);
    memo_generation++;
    memo_used = 0;
    int expect = t_search_memo(&b, n, ref);
    assert_answers(t, n, expect, ref);
    return expect;
}

static uint64_t solve_alone_and_helper_first(const tboard *t, int n, bool stop_short,
                                             mayan_result *one, mayan_result *two);

/* A pile of colours first..first + k - 1 in threes, dropped onto 3 or 4 columns of h rows, that
 * `moves` moves empty (*path: the first such moves); false when none was found in `tries`. */
static bool pile_for(tboard *pile, int h, int first, int moves, tmove *path, int tries)
{
    for (int i = 0; i < tries; i++) {
        *pile = empty_board(3 + rnd(2), h);
        for (int v = first, k = 2 + rnd(2); v < first + k; v++)
            for (int j = 0; j < 3;) j += drop_block(pile, v);
        t_settle(pile);
        if (!t_empty(pile) && t_reference(pile, moves, path)) return true;
    }
    return false;
}

/* Two such piles on 16 columns, 0 to 4 empty columns apart, the second's colours the first's
 * or others, the one numbered two_moves (0 or 1; else none) emptied in two moves, the other in
 * one; *n: the moves they need in all; first and second: the first moves that empty each, on the
 * whole board. */
static tboard two_piles(int two_moves, int *n, tmove *first, tmove *second)
{
    int h = 4 + rnd(2), at = 0;
    tboard t = empty_board(16, h);
    *n = 0;
    for (int p = 0; p < 2; p++) {
        tboard pile;
        tmove path[MAYAN_MAX_MOVES];
        int moves = p == two_moves ? 2 : 1;
        ck_assert(pile_for(&pile, h, rnd(2) ? 1 : 1 + 2 * p, moves, path, 1000));
        for (int x = 0; x < pile.w; x++) memcpy(t.g[at + x], pile.g[x], sizeof pile.g[x]);
        *(p ? second : first) = (tmove){path[0].x + at, path[0].y, path[0].dir};
        at += pile.w + rnd(5);
        *n += moves;
    }
    return t;
}

/* A full w x h board in colours 1..k with no run of three: each cell a colour that makes none,
 * at random; a board where some cell has none is begun again. */
static tboard full_board_of(int w, int h, int k)
{
    tboard b = empty_board(w, h);
    for (int x = 0; x < w; x++)
        for (int y = 0; y < h; y++) {
            int fits[MAYAN_MAX_COLOUR], count = 0;
            for (int v = 1; v <= k; v++)
                if (!(x >= 2 && b.g[x - 1][y] == v && b.g[x - 2][y] == v) &&
                    !(y >= 2 && b.g[x][y - 1] == v && b.g[x][y - 2] == v))
                    fits[count++] = v;
            if (!count) return full_board_of(w, h, k);
            b.g[x][y] = fits[rnd(count)];
        }
    return b;
}

/* Swaps two neighbouring blocks of t that differ and make no run, if it finds some in 100 tries;
 * false when it found none. */
static bool still_swap(tboard *t)
{
    for (int i = 0; i < 100; i++) {
        int x = rnd(t->w - 1), y = rnd(t->h), v = t->g[x][y], u = t->g[x + 1][y];
        if (!v || !u || v == u) continue;
        tboard s = *t;
        s.g[x][y] = u, s.g[x + 1][y] = v;
        tboard settled = s;
        t_settle(&settled);
        if (memcmp(&settled, &s, sizeof s)) continue;
        *t = s;
        return true;
    }
    return false;
}

/* The board's columns as the solver packs them (mayan_columns.h). */
static void pack_columns(const tboard *t, column *col)
{
    for (int x = 0; x < t->w; x++) {
        col[x] = 0;
        for (int y = 0; y < t->h; y++) col[x] |= (column)t->g[x][y] << (4 * y);
    }
}

/* The columns where two boards differ (bit x: column x). */
static unsigned t_columns_changed(const tboard *a, const tboard *b)
{
    unsigned m = 0;
    for (int x = 0; x < a->w && x < MAYAN_MAX_SIDE; x++)
        m |= (unsigned)(memcmp(a->g[x], b->g[x], sizeof a->g[x]) != 0) << x;
    return m;
}

/* The columns that hold blocks. */
static unsigned t_columns_filled(const tboard *t)
{
    unsigned m = 0;
    for (int x = 0; x < t->w && x < MAYAN_MAX_SIDE; x++) m |= (unsigned)(t->g[x][0] != 0) << x;
    return m;
}

/* The columns of the mask and those within two of them, as this test counts them. */
static unsigned within_two(unsigned m)
{
    unsigned near = 0;
    for (int x = 0; x < MAYAN_MAX_SIDE; x++)
        for (int d = -2; d <= 2; d++)
            if (x + d >= 0 && x + d < MAYAN_MAX_SIDE && (m >> (x + d) & 1)) near |= 1u << x;
    return near;
}

/* mayan_far.h's claims, played out by this test's simulator. On still boards P of 8 to 16
 * columns (full boards in 2 to 4 colours, random stacks, two piles that one move empties each),
 * for moves A and B of P:
 * - play_move tells which columns a move changes and which hold blocks after it;
 * - moves that change columns three or more apart (moves_commute) can be played in either order,
 *   to the same board;
 * - when B's own columns and the columns it changes are three or more away from those A changed,
 *   B plays on P after A as on P: the two boards it leaves agree outside A's columns; and
 *   leaves_a_block_after is true exactly when, besides, a block stays outside them. Where it is
 *   true for other moves B (their own columns away from A's), those hold all the same. The two
 *   piles give pairs where A empties its columns and B all the others, so that nothing stays. */
START_TEST(far_moves_claims)
{
    int commuting = 0, alike = 0, emptied = 0;
    for (int i = 0; i < 300; i++) {
        tboard p;
        int n;
        tmove first, second;
        if (i % 3 == 0)
            p = full_board_of(8 + rnd(9), 3 + rnd(4), 2 + rnd(3));
        else if (i % 3 == 1)
            p = random_board(8 + rnd(9), 6, 5, 3 + rnd(3));
        else
            p = two_piles(-1, &n, &first, &second);
        t_settle(&p);
        column col[MAYAN_MAX_SIDE];
        pack_columns(&p, col);
        tmove moves[2 * MAYAN_MAX_SIDE * MAYAN_MAX_SIDE];
        tboard after[2 * MAYAN_MAX_SIDE * MAYAN_MAX_SIDE];
        move_play play[2 * MAYAN_MAX_SIDE * MAYAN_MAX_SIDE];
        int count = 0;
        for (int x = 0; x < p.w; x++)
            for (int y = 0; y < p.h; y++)
                for (int dir = 1; dir >= -1; dir -= 2) {
                    /* left into a block: the same as (x - 1, y, 1), which the solver plays */
                    tboard c = p;
                    if ((dir < 0 && x > 0 && p.g[x - 1][y]) || !t_move(&c, x, y, dir)) continue;
                    moves[count] = (tmove){x, y, dir};
                    after[count] = c;
                    play[count] = play_move(col, p.w, x, y, dir);
                    quiet_assert_int_eq(play[count].changed, t_columns_changed(&p, &c));
                    quiet_assert_int_eq(play[count].filled, t_columns_filled(&c));
                    count++;
                }
        for (int a = 0; a < count; a++) {
            if (i % 3 == 2 && (moves[a].x != first.x || moves[a].y != first.y)) continue;
            unsigned changed_by_a = t_columns_changed(&p, &after[a]);
            for (int b = 0; b < count; b++) {
                tmove mb = moves[b];
                tboard ab = after[a], ba = after[b];
                bool far = play[a].changed && play[b].changed &&
                           !(within_two(play[a].changed) & play[b].changed);
                quiet_assert_int_eq(moves_commute(play[a].changed, play[b].changed), far);
                if (far) {
                    quiet_assert(t_move(&ab, mb.x, mb.y, mb.dir));
                    quiet_assert(t_move(&ba, moves[a].x, moves[a].y, moves[a].dir));
                    quiet_assert(memcmp(&ab, &ba, sizeof ab) == 0);
                    commuting++;
                }
                /* B as the solver asks about it: its own columns away from A's */
                int lo = mb.dir > 0 ? mb.x : mb.x - 1;
                bool away = !(within_two(changed_by_a) & 3u << lo);
                quiet_assert_int_eq(away_from(changed_by_a, lo), away);
                if (!away) continue;
                ab = after[a];
                quiet_assert(t_move(&ab, mb.x, mb.y, mb.dir));
                bool agree = true;
                for (int x = 0; x < p.w; x++)
                    agree = agree && ((changed_by_a >> x & 1) ||
                                      memcmp(ab.g[x], after[b].g[x], sizeof ab.g[x]) == 0);
                bool leaves = leaves_a_block_after(play[b], changed_by_a);
                quiet_assert(!leaves || (agree && !t_empty(&ab)));
                if (within_two(t_columns_changed(&p, &after[b])) & changed_by_a) continue;
                quiet_assert(agree);
                quiet_assert_int_eq(leaves, !t_empty(&ab));
                alike++;
                emptied += t_empty(&ab);
            }
        }
    }
    printf("far moves: %d pairs commute, %d play alike, %d of them empty the board\n", commuting,
           alike, emptied);
    ck_assert_int_ge(commuting, 10000);
    ck_assert_int_ge(alike, 10000);
    ck_assert_int_ge(emptied, 20);
}
END_TEST

/* Full boards of 7 x 5 cells in 2 or 3 colours, some columns cut down to 2 to 4 blocks, that
 * three moves empty: about one in 180 such boards, found by the reference. Their answers mix
 * moves that make runs with still swaps, in any order of the columns, so a child skipped wrongly
 * as a reordering (moved_before: with a move's columns taken as only its own two, say) loses the
 * answer. Answers equal the reference's. */
START_TEST(dense_boards_match_reference)
{
    int found = 0, tries = 0;
    for (; tries < 2000; tries++) {
        tboard t = full_board_of(7, 5, 2 + rnd(2));
        for (int x = 0; x < 7 && rnd(2); x++)
            for (int y = 2 + rnd(4); y < 5; y++) t.g[x][y] = 0;
        tmove ref[MAYAN_MAX_MOVES];
        tboard b = t;
        t_settle(&b);
        memo_generation++;
        memo_used = 0;
        if (!t_search_memo(&b, 3, ref)) continue;
        found++;
        assert_answers(&t, 3, 1, ref);
    }
    printf("dense boards: %d of %d solvable in three moves\n", found, tries);
    ck_assert_int_ge(found, 3);
}
END_TEST

/* Whether every colour of t is in place: its spread valid (mayan_bound.h). */
static bool colours_in_place(const tboard *t)
{
    mayan_counts cc[MAYAN_MAX_COLOUR + 1] = {0};
    for (int x = 0; x < t->w; x++)
        for (int y = 0; y < t->h; y++) cc[t->g[x][y]] += t->g[x][y] ? one_at(x) : 0;
    for (int v = 1; v <= MAYAN_MAX_COLOUR; v++)
        if (cc[v] && mayan_displacement_uncached(cc[v], t->w, 0) > 0) return false;
    return true;
}

/* A 5 x 7 board that a still swap, swapped back, and a drag empty: the drag lands in a gap of a
 * row of colour 3, which clears the row and the column below it, and each column then falls into
 * a run. The drag is made with every colour in place, and the search for 2 moves uses no direct
 * tables (mayan_bound.h): on 5 columns it does not keep the columns each move changed, so it must
 * not answer the drag on the node before as if the swap back had changed nothing (there the drag
 * leaves a block). The answer equals the reference's. */
START_TEST(narrow_last_move_after_a_swap)
{
    static const int cols[5][7] = {
        {1, 1, 3, 1}, {2, 2, 3, 2}, {3, 3}, {4, 4, 3, 4, 3}, {5, 5, 3, 5}};
    tboard t = empty_board(5, 7);
    for (int x = 0; x < 5; x++) memcpy(t.g[x], cols[x], sizeof cols[x]);
    tboard settled = t;
    t_settle(&settled);
    ck_assert(memcmp(&settled, &t, sizeof t) == 0);
    ck_assert(colours_in_place(&t));
    tboard p = t;
    p.g[0][3] = 2, p.g[1][3] = 1; /* the still swap */
    settled = p;
    t_settle(&settled);
    ck_assert(memcmp(&settled, &p, sizeof p) == 0);
    ck_assert_int_eq(check_against_reference(&p, 2), 1);
}
END_TEST

/* Boards where moves far apart commute although they make runs. The solver skips a child reached
 * by two moves that change columns three or more apart when the smaller move first was searched
 * before (moved_before), and at the last move refuses moves that played on the node before
 * without reaching what the move between changed (fails_as_on_parent). Three kinds of board:
 * - full 7 x 5 boards in 2 or 3 colours (some with columns cut down), for 3 moves: mostly no
 *   solution, and the search tries nearly every move;
 * - random stacks on 7 x 5, for 3 moves;
 * - two piles that one move empties each (or one and two moves), 0 to 4 empty columns apart on 16
 *   columns, for the moves they need; half of those with two neighbouring blocks swapped, for one
 *   move more. Where the first pile's move empties all its columns, the last move, which empties
 *   the second, played the same on the node before but left the first standing there, so it must
 *   still be tried.
 * Verdicts and answers equal the reference's, alone and with the helper run first (to its end or
 * stopped short). */
START_TEST(far_cascades_match_reference)
{
    int solvable = 0, reordered = 0, answered = 0;
    for (int i = 0; i < 900; i++) {
        tboard t;
        int n = 3;
        if (i % 3 == 0) {
            t = full_board_of(7, 5, 2 + (i % 6 == 3));
            for (int x = 0; x < 7 && i % 4 == 0; x++)
                for (int y = 3 + rnd(3); y < 5; y++) t.g[x][y] = 0;
            solvable += check_against_memo_reference(&t, n);
        } else if (i % 3 == 1) {
            t = random_board(7, 5, 2 + rnd(4), 2 + rnd(2));
            t_settle(&t);
            solvable += check_against_memo_reference(&t, n);
        } else {
            tmove first, second;
            t = two_piles(i % 2 ? rnd(2) : -1, &n, &first, &second);
            n += i % 2 == 0 && still_swap(&t);
            solvable += check_against_reference(&t, n);
        }
        mayan_result one, two_threads;
        solve_alone_and_helper_first(&t, n, i % 4 < 2, &one, &two_threads);
        reordered += one.reorder_cuts > 0;
        answered += one.parent_answers > 0;
    }
    printf("far cascades: %d of 900 solvable, reordered in %d, answered on the parent in %d\n",
           solvable, reordered, answered);
    ck_assert_int_ge(solvable, 200);
    ck_assert_int_ge(reordered, 150);
    ck_assert_int_ge(answered, 120);
}
END_TEST

/* Boards of at most 5 columns searched for 5 or 6 moves use the direct tables of
 * mayan_bound.h: the shift masks, the last move tested for all rows of a column at once and
 * the mending-swap test on children with two moves left. Small piles (the reference tries every
 * move, nothing pruned), colour counts mostly in threes so that many are solvable, some with a
 * colour of 4 or 5 blocks that needs lines across columns: answers and verdicts equal the
 * reference's. */
START_TEST(direct_tables_match_reference)
{
    int solvable = 0, cut = 0, total = 0;
    for (int i = 0; i < 3000; i++) {
        int w = 3 + rnd(3), h = 3 + rnd(3), k = 2 + rnd(3);
        tboard t = empty_board(w, h);
        int blocks = 6 + 3 * rnd(2) + (i % 3 == 0 ? 1 + rnd(3) : 0);
        while (blocks > w * h) blocks -= 3;
        if (i % 3 == 1) {
            /* full low rows: swaps everywhere, few drags */
            t = random_board(w, h, 0, k);
            for (int x = 0; x < w; x++)
                for (int y = 0; y < 2; y++) t.g[x][y] = 1 + rnd(k);
        } else {
            for (int placed = 0; placed < blocks;) placed += drop_block(&t, 1 + placed / 3 % k);
        }
        int n = i % 10 == 0 ? 6 : 5;
        solvable += check_against_memo_reference(&t, n);
        mayan_result r;
        solve(&t, n, &r);
        cut += r.bound_cuts > 0;
        total++;
    }
    printf("direct tables: %d of %d solvable, bound cut in %d\n", solvable, total, cut);
    ck_assert_int_ge(solvable, total / 10);
    ck_assert_int_ge(cut, total / 4);
}
END_TEST

/* mayan_shift_mask against the programme: bit x set exactly when one block can go from column
 * x to x + 1 and the spread is then valid, bit 4 + x for x + 1 to x; asked twice (cached). */
START_TEST(shift_mask_matches_programme)
{
    mayan_bound mb[1];
    for (int w = 1; w <= 5; w++) {
        ck_assert(mayan_bound_init(mb, w, 16));
        for (int i = 0; i < 4000; i++) {
            mayan_counts c = 0;
            for (int x = 0; x < w; x++) c |= (mayan_counts)rnd(i % 2 ? 4 : 8) << (4 * x);
            unsigned want = 0;
            for (int x = 0; x + 1 < w; x++) {
                mayan_counts here = (mayan_counts)1 << (4 * x), next = here << 4;
                if ((c >> (4 * x)) & 15 && mayan_displacement_uncached(c - here + next, w, 0) == 0)
                    want |= 1u << x;
                if ((c >> (4 * x + 4)) & 15 &&
                    mayan_displacement_uncached(c - next + here, w, 0) == 0)
                    want |= 1u << (4 + x);
            }
            quiet_assert_uint_eq(mayan_shift_mask(mb, c), want);
            quiet_assert_uint_eq(mayan_shift_mask(mb, c), want);
        }
        mayan_bound_free(mb);
    }
}
END_TEST

/* The same for wide boards (mayan_wide_shifts: a walk of the validity automaton per shift, kept
 * in the bound's cache beside D). Spreads of 6 to 16 columns, counts up to 15 at times (a full
 * column takes no block); asked twice (computed, then cached), with D asked in between on the
 * same slots (a small cache, so entries are shared and replaced): both stay the programme's. */
START_TEST(wide_shift_mask_matches_programme)
{
    mayan_bound mb[1];
    int valid_shifts = 0;
    for (int w = 6; w <= 16; w++) {
        ck_assert(mayan_bound_init(mb, w, 10));
        for (int i = 0; i < 1500; i++) {
            mayan_counts c = 0;
            for (int x = 0; x < w; x++) {
                int n = i % 7 == 0 && rnd(4) == 0 ? 15 : rnd(i % 2 ? 4 : 7);
                c |= (mayan_counts)n << (4 * x);
            }
            uint32_t want = 0;
            for (int x = 0; x + 1 < w; x++) {
                mayan_counts here = (mayan_counts)1 << (4 * x), next = here << 4;
                unsigned at = (c >> (4 * x)) & 15, at_next = (c >> (4 * x + 4)) & 15;
                if (at && at_next < 15 && mayan_displacement_uncached(c - here + next, w, 0) == 0)
                    want |= 1u << x;
                if (at_next && at < 15 && mayan_displacement_uncached(c - next + here, w, 0) == 0)
                    want |= 1u << (MAYAN_WIDE_LEFT + x);
            }
            valid_shifts += __builtin_popcount(want);
            quiet_assert_uint_eq(mayan_wide_shifts(mb, c), want);
            int cap = rnd(3);
            quiet_assert_int_eq(mayan_displacement(mb, c, cap),
                                mayan_displacement_uncached(c, w, cap));
            quiet_assert_uint_eq(mayan_wide_shifts(mb, c), want);
        }
        mayan_bound_free(mb);
    }
    printf("wide shift masks: %d valid shifts\n", valid_shifts);
    ck_assert_int_ge(valid_shifts, 20000);
}
END_TEST

/* The last move alone, on many small boards (most have no one-move answer: only those that
 * have one, and every 20th other, go to the solver): every kind of last move the direct tables
 * test by rows (swaps with the colour out of place on either side, drags either way, runs
 * above, below and across the landing cells) agrees with the reference. */
START_TEST(last_move_matches_reference)
{
    int solvable = 0;
    for (int i = 0; i < 60000; i++) {
        int w = 3 + rnd(3), h = 2 + rnd(4), k = 2 + rnd(2);
        tboard t = random_board(w, h, h, k);
        tmove ref[MAYAN_MAX_MOVES];
        int expect = t_reference(&t, 1, ref);
        if (expect || i % 20 == 0) assert_answers(&t, 1, expect, ref);
        solvable += expect;
    }
    printf("last move: %d of 60000 solvable in one move\n", solvable);
    ck_assert_int_ge(solvable, 600);
}
END_TEST

/* swap_run_rows (every row of a border at once) against swap_makes_run (one row) on random
 * still columns of up to 16 rows: colours 1 to 4 with the narrow flags (no cell over 7), and
 * every other board renamed to 8 to 11 without them. */
START_TEST(swap_run_rows_matches_one_row)
{
    int runs = 0;
    for (int i = 0; i < 20000; i++) {
        int w = 2 + rnd(5), h = 2 + rnd(15);
        tboard t = random_board(w, h, h, 2 + rnd(3));
        t_settle(&t);
        bool narrow = i % 2;
        if (!narrow)
            for (int x = 0; x < w; x++)
                for (int y = 0; y < h; y++) t.g[x][y] += t.g[x][y] ? 7 : 0;
        column col[MAYAN_MAX_SIDE] = {0};
        for (int x = 0; x < w; x++)
            for (int y = 0; y < h; y++) col[x] |= (column)t.g[x][y] << (4 * y);
        for (int x = 0; x + 1 < w; x++) {
            uint64_t rows = swap_run_rows(col, w, x, narrow);
            for (int y = 0; y < h; y++) {
                unsigned v = (unsigned)t.g[x][y], u = (unsigned)t.g[x + 1][y];
                if (!v || !u || u == v) continue;
                bool want = swap_makes_run(col, w, x, y, v, u);
                quiet_assert_int_eq((int)(rows >> (4 * y) & 1), want);
                runs += want;
            }
        }
    }
    ck_assert_int_ge(runs, 1000);
}
END_TEST

/* Four or five colours of three blocks each on 5 columns, two or three moves: many colours out
 * of place at once, which two moves can mend only in pairs (two_moves_possible in the search). */
START_TEST(many_colours_out_of_place)
{
    int solvable = 0;
    for (int i = 0; i < 12000; i++) {
        int h = 3 + (i % 4 == 0), k = 4 + (i % 8 == 0);
        tboard t = empty_board(5, h);
        for (int placed = 0; placed < 3 * k;) placed += drop_block(&t, 1 + placed / 3 % k);
        solvable += check_against_reference(&t, i % 8 == 1 ? 2 : 3);
    }
    printf("many colours: %d of 12000 solvable\n", solvable);
    ck_assert_int_ge(solvable, 30);
}
END_TEST

/* D of colour v on board b (mayan_bound.h), capped at 3. */
static int colour_d(const tboard *b, int v)
{
    mayan_counts c = 0;
    for (int x = 0; x < b->w; x++)
        for (int y = 0; y < b->h; y++) c += (mayan_counts)(b->g[x][y] == v) << (4 * x);
    return mayan_displacement_uncached(c, b->w, 3);
}

/* Two colours out of place with two moves left, one or both two shifts away from a spread that
 * lines clear (D = 2), so that both moves must shift it (pair_in_two in the search, which cuts
 * such a board unless a first shift of it, and of the other colour if the move is a swap of
 * the two, leaves what one swap can mend): two or three colours of three blocks on 5 columns,
 * three moves. `through` counts the answers whose first move leads to such a board: 582, all
 * with one colour at D = 2 (no board with both at D = 2 that two moves clear turned up in
 * 200 000 random ones of 5 columns). Without the swap, or without the colour left alone, in
 * pair_in_two, answers here differ from the reference's. */
START_TEST(two_shifts_away)
{
    int solvable = 0, through = 0;
    for (int i = 0; i < 20000; i++) {
        int h = 3 + (i % 3 == 0), k = 2 + (i % 2);
        tboard t = empty_board(5, h);
        for (int placed = 0; placed < 3 * k;) placed += drop_block(&t, 1 + placed / 3 % k);
        tmove ref[MAYAN_MAX_MOVES];
        int expect = t_reference(&t, 3, ref);
        assert_answers(&t, 3, expect, ref);
        solvable += expect;
        if (!expect) continue;
        tboard c = t;
        t_settle(&c);
        t_move(&c, ref[0].x, ref[0].y, ref[0].dir);
        int out = 0, far = 0;
        for (int v = 1; v <= k; v++) {
            int dv = colour_d(&c, v);
            out += dv > 0, far += dv == 2;
        }
        through += out == 2 && far > 0;
    }
    printf("two shifts away: %d of 20000 solvable, %d through two colours out of place, one "
           "or both two shifts away\n",
           solvable, through);
    ck_assert_int_ge(solvable, 100);
    ck_assert_int_ge(through, 400);
}
END_TEST

/* ---------- the failure table ---------- */

/* Keys of 1, 2 (the 5 x 7 board's, on paths of their own) and 3 words. */
START_TEST(table_keeps_depths_apart)
{
    for (int words = 1; words <= 3; words++) {
        mayan_table t;
        ck_assert(mayan_table_init(&t, words, (size_t)16 << 20));
        /* a and b differ in their last word */
        uint64_t a[3] = {1, 2, 3}, b[3] = {1, 2, 3};
        b[words - 1] = 4;
        ck_assert(!mayan_table_failed(&t, 0, a, 3));
        mayan_table_add_failure(&t, 0, a, 3);
        ck_assert(mayan_table_failed(&t, 0, a, 3));
        ck_assert(!mayan_table_failed(&t, 0, a, 2));
        ck_assert(!mayan_table_failed(&t, 0, a, 4));
        ck_assert(!mayan_table_failed(&t, 0, b, 3));
        mayan_table_add_failure(&t, 0, a, 1);
        ck_assert(mayan_table_failed(&t, 0, a, 1) && mayan_table_failed(&t, 0, a, 3));
        ck_assert(!mayan_table_failed(&t, 0, a, 2));
        /* Many keys: it grows; a key is never reported at a depth it did not fail at, and nearly
         * all stay (a full bucket may replace one). */
        for (uint64_t i = 0; i < 100000; i++) {
            uint64_t k[3] = {i, i * 7, i ^ 0x55};
            mayan_table_add_failure(&t, 0, k, 1 + (int)(i % 10));
        }
        int kept = 0;
        for (uint64_t i = 0; i < 100000; i++) {
            uint64_t k[3] = {i, i * 7, i ^ 0x55};
            kept += mayan_table_failed(&t, 0, k, 1 + (int)(i % 10));
            for (int d = 1; d <= 10; d++)
                if (d != 1 + (int)(i % 10)) quiet_assert(!mayan_table_failed(&t, 0, k, d));
            /* never added: equal to k but in its last word */
            uint64_t never[3] = {i, i * 7, i ^ 0x55};
            never[words - 1] += (uint64_t)1 << 40;
            quiet_assert(!mayan_table_failed(&t, 0, never, 1 + (int)(i % 10)));
        }
        ck_assert_int_ge(kept, 90000);
        ck_assert_uint_le(mayan_table_bytes(&t), (size_t)16 << 20);
        mayan_table_free(&t);
    }
}
END_TEST

/* Cell (x, y) lands at bit cell_bits * (x * height + y) of the key, for every shape. A quarter of
 * the boards have the contest's shape, 5 x 7, and a quarter at most 5 columns and 8 rows, both
 * with 3-bit cells: mayan_key_pack packs those on paths of their own. */
START_TEST(key_packs_every_cell)
{
    for (int i = 0; i < 4000; i++) {
        int w = 1 + rnd(16), h = 1 + rnd(16), cell_bits = 3 + i % 2;
        if (i % 4 == 0) w = 5, h = 7;
        if (i % 4 == 2) w = 1 + rnd(5), h = 1 + rnd(8);
        uint64_t columns[16] = {0};
        int cell[16][16] = {{0}};
        for (int x = 0; x < w; x++) {
            int hx = rnd(h + 1);
            for (int y = 0; y < hx; y++) {
                cell[x][y] = 1 + rnd(cell_bits == 3 ? 7 : 10);
                columns[x] |= (uint64_t)cell[x][y] << (4 * y);
            }
        }
        uint64_t key[MAYAN_TABLE_MAX_WORDS + 1];
        memset(key, 0xAB, sizeof key);
        int words = mayan_key_words(w, h, cell_bits);
        ck_assert_int_eq(words, (w * h * cell_bits + MAYAN_TABLE_MASK_BITS + 63) / 64);
        ck_assert_int_le(words, MAYAN_TABLE_MAX_WORDS);
        mayan_key_pack(columns, w, h, cell_bits, key);
        ck_assert_uint_eq(key[words], 0xABABABABABABABABULL); /* nothing written past the key */
        for (int x = 0; x < w; x++)
            for (int y = 0; y < h; y++) {
                int got = 0;
                for (int j = 0; j < cell_bits; j++) {
                    int bit = cell_bits * (x * h + y) + j;
                    got |= (int)(key[bit / 64] >> (bit % 64) & 1) << j;
                }
                quiet_assert_int_eq(got, cell[x][y]);
            }
        /* Bits past the board, the table's mask bits among them, are zero. */
        for (int bit = cell_bits * w * h; bit < 64 * words; bit++)
            quiet_assert_uint_eq(key[bit / 64] >> (bit % 64) & 1, 0);
    }
}
END_TEST

/* The search keys a child made by a swap that made no run by patching the two swapped cells
 * into its parent's key (mayan_key_patch): the same words as packing the child, on every shape
 * (wide and tall boards, empty cells, cells crossing a word's end, 3- and 4-bit cells). */
START_TEST(key_patch_matches_pack)
{
    int crossing = 0;
    for (int i = 0; i < 20000; i++) {
        int w = 2 + rnd(15), h = 1 + rnd(16), cell_bits = 3 + i % 2;
        uint64_t columns[16] = {0};
        for (int x = 0; x < w; x++) {
            int hx = rnd(h + 1);
            for (int y = 0; y < hx; y++)
                columns[x] |= (uint64_t)(1 + rnd(cell_bits == 3 ? 7 : 10)) << (4 * y);
        }
        int words = mayan_key_words(w, h, cell_bits);
        uint64_t parent[MAYAN_TABLE_MAX_WORDS], child[MAYAN_TABLE_MAX_WORDS];
        mayan_key_pack(columns, w, h, cell_bits, parent);
        int x = rnd(w - 1), y = rnd(h);
        unsigned a = (unsigned)(columns[x] >> (4 * y) & 15),
                 b = (unsigned)(columns[x + 1] >> (4 * y) & 15);
        uint64_t m = (uint64_t)15 << (4 * y);
        columns[x] = (columns[x] & ~m) | (uint64_t)b << (4 * y);
        columns[x + 1] = (columns[x + 1] & ~m) | (uint64_t)a << (4 * y);
        mayan_key_pack(columns, w, h, cell_bits, child);
        mayan_key_patch(parent, h, cell_bits, x, y, a, b);
        mayan_key_patch(parent, h, cell_bits, x + 1, y, b, a);
        for (int j = 0; j < words; j++) quiet_assert_uint_eq(parent[j], child[j]);
        int bit = cell_bits * (x * h + y);
        crossing += bit / 64 != (bit + cell_bits - 1) / 64;
    }
    ck_assert_int_ge(crossing, 20); /* cells split across two words were patched too */
}
END_TEST

/* On boards of at most 5 columns D comes from a direct table shared by every search, which keeps
 * what each question taught (exact D, or only D > cap): it agrees with the programme on random
 * counts asked at random caps in random orders and again. Wider boards go without it, through
 * the per-request cache: checked up to 16 columns. */
START_TEST(direct_table_matches_programme)
{
    mayan_bound mb[1];
    int valid = 0, checked = 0;
    for (int w = 1; w <= 16; w++) {
        ck_assert(mayan_bound_init(mb, w, 16));
        ck_assert((mb->direct != NULL) == (w <= 5));
        for (int i = 0; i < 3000; i++) {
            mayan_counts c = 0;
            for (int x = 0; x < w; x++) c |= (mayan_counts)rnd(i % 2 ? 12 : 4) << (4 * x);
            bool want = mayan_displacement_uncached(c, w, 0) == 0;
            quiet_assert(mayan_spread_valid(mb, c) == want);
            for (int q = 0; q < 4; q++) {
                int cap = rnd(q < 2 ? 2 : 7);
                int expected = mayan_displacement_uncached(c, w, cap);
                quiet_assert_int_eq(mayan_displacement_small(mb, c, cap), expected);
                quiet_assert_int_eq(mayan_displacement(mb, c, cap), expected);
            }
            quiet_assert(mayan_spread_valid(mb, c) == want);
            valid += want, checked++;
        }
        mayan_bound_free(mb);
    }
    ck_assert_int_ge(valid, checked / 10);
    ck_assert_int_le(valid, checked - checked / 10);
}
END_TEST

START_TEST(table_memory_is_bounded)
{
    mayan_table t;
    ck_assert(mayan_table_init(&t, 5, 4096));
    for (uint64_t i = 0; i < 200000; i++) {
        uint64_t k[5] = {i, 0, i * 3, 0, 1};
        mayan_table_add_failure(&t, 0, k, 1 + (int)(i % 7));
        /* The newest entry is always kept. */
        quiet_assert(mayan_table_failed(&t, 0, k, 1 + (int)(i % 7)));
        quiet_assert_uint_le(mayan_table_bytes(&t), 4096);
    }
    mayan_table_free(&t);
}
END_TEST

/* The table doubles in place, moving entries to their new buckets: entries survive the growth
 * (from 32 KiB to 2 MiB here; a full 4-slot bucket replaces one, which at the load before
 * growing costs a few per cent of them, as it did before growth moved in place), none answers a
 * depth it was not given, and keys never added are never found. */
START_TEST(table_grows_in_place)
{
    mayan_table t;
    ck_assert(mayan_table_init(&t, 2, (size_t)4 << 20));
    size_t start = mayan_table_bytes(&t);
    enum { KEYS = 60000 };
    for (uint64_t i = 0; i < KEYS; i++) {
        uint64_t k[2] = {i * 0x9E3779B97F4A7C15ULL, i % 1000};
        mayan_table_add_failure(&t, 0, k, 1 + (int)(i % 9));
    }
    ck_assert_uint_gt(mayan_table_bytes(&t), 8 * start);
    int kept = 0;
    for (uint64_t i = 0; i < KEYS; i++) {
        uint64_t k[2] = {i * 0x9E3779B97F4A7C15ULL, i % 1000};
        for (int depth = 1; depth <= 9; depth++) {
            bool failed = mayan_table_failed(&t, 0, k, depth);
            quiet_assert(!failed || depth == 1 + (int)(i % 9));
            kept += failed;
        }
        uint64_t never[2] = {i * 0x9E3779B97F4A7C15ULL, 1000 + i % 1000};
        quiet_assert(!mayan_table_failed(&t, 0, never, 1 + (int)(i % 9)));
    }
    ck_assert_int_ge(kept, KEYS - KEYS / 10);
    mayan_table_free(&t);
}
END_TEST

/* mayan_table_grow_to grows in one pass, by many doublings at once: every entry that was in the
 * table before is found after it at its depths (and no other depth), keys never added are not
 * found, the new size is the largest within the request and the cap, and the table goes on
 * taking entries. */
START_TEST(table_grows_to_a_size_at_once)
{
    mayan_table t;
    ck_assert(mayan_table_init(&t, 2, (size_t)4 << 20));
    enum { KEYS = 6000, MORE = 20000 };
    for (uint64_t i = 0; i < KEYS; i++) {
        uint64_t k[2] = {i * 0x9E3779B97F4A7C15ULL, i % 1000};
        mayan_table_add_failure(&t, 0, k, 1 + (int)(i % 9));
    }
    size_t before = mayan_table_bytes(&t);
    bool kept[KEYS];
    for (uint64_t i = 0; i < KEYS; i++) {
        uint64_t k[2] = {i * 0x9E3779B97F4A7C15ULL, i % 1000};
        kept[i] = mayan_table_failed(&t, 0, k, 1 + (int)(i % 9));
    }
    mayan_table_grow_to(&t, before); /* as big already: nothing changes */
    ck_assert_uint_eq(mayan_table_bytes(&t), before);
    mayan_table_grow_to(&t, (size_t)3 << 20); /* not a power of two: the largest within it */
    ck_assert_uint_gt(mayan_table_bytes(&t), (size_t)3 << 19);
    ck_assert_uint_le(mayan_table_bytes(&t), (size_t)3 << 20);
    ck_assert_uint_ge(mayan_table_bytes(&t), 8 * before);
    for (uint64_t i = 0; i < KEYS; i++) {
        uint64_t k[2] = {i * 0x9E3779B97F4A7C15ULL, i % 1000};
        for (int depth = 1; depth <= 9; depth++)
            quiet_assert(mayan_table_failed(&t, 0, k, depth) ==
                         (kept[i] && depth == 1 + (int)(i % 9)));
        uint64_t never[2] = {i * 0x9E3779B97F4A7C15ULL, 1000 + i % 1000};
        quiet_assert(!mayan_table_failed(&t, 0, never, 1 + (int)(i % 9)));
    }
    mayan_table_grow_to(&t, (size_t)64 << 20); /* beyond the cap: the cap */
    ck_assert_uint_le(mayan_table_bytes(&t), (size_t)4 << 20);
    ck_assert_uint_gt(mayan_table_bytes(&t), (size_t)2 << 20);
    int found = 0;
    for (uint64_t i = KEYS; i < KEYS + MORE; i++) {
        uint64_t k[2] = {i * 0x9E3779B97F4A7C15ULL, i % 1000};
        mayan_table_add_failure(&t, 0, k, 1 + (int)(i % 9));
    }
    for (uint64_t i = 0; i < KEYS + MORE; i++) {
        uint64_t k[2] = {i * 0x9E3779B97F4A7C15ULL, i % 1000};
        found += mayan_table_failed(&t, 0, k, 1 + (int)(i % 9));
    }
    ck_assert_int_ge(found, KEYS + MORE - KEYS / 10);
    mayan_table_free(&t);
}
END_TEST

/* The table only saves time: full, tiny (constant replacement) and none give one answer. */
START_TEST(table_cap_never_changes_the_answer)
{
    for (int i = 0; i < 246; i++) {
        /* 5 x 7 boards, then other shapes: the key packs columns of 4 * height bits each. */
        int w = i < 46 ? 5 : 3 + rnd(14), h = i < 46 ? 7 : 2 + rnd(15);
        tboard t = random_board(w, h, i < 46 ? 7 : imin_t(h, 4), 3 + rnd(2));
        int n = i < 40 ? 4 : i < 46 ? 5 : 3;
        mayan_board m = to_mayan(&t);
        budget b;
        budget_init_unlimited(&b);
        mayan_result full, tiny, none;
        mayan_solve(&m, n, &b, &full);
        mayan_solve_capped(&m, n, 2048, &b, &tiny);
        mayan_solve_capped(&m, n, 0, &b, &none);
        ck_assert_int_eq(full.status, tiny.status);
        ck_assert_int_eq(full.status, none.status);
        ck_assert(full.status == MAYAN_SOLVED || full.status == MAYAN_NO_SOLUTION);
        ck_assert_mem_eq(full.moves, tiny.moves, sizeof full.moves);
        ck_assert_mem_eq(full.moves, none.moves, sizeof full.moves);
        ck_assert_uint_le(tiny.table_bytes, 2048);
        if (full.status == MAYAN_SOLVED) assert_replays(&t, &full, n);
    }
}
END_TEST

/* ---------- the helper thread ---------- */

/* Balanced 5 x 7 piles (colour counts in multiples of three): deep enough searches that often
 * have a solution. */
static tboard balanced_pile(void)
{
    tboard t = empty_board(5, 7);
    int k = 2 + rnd(3), blocks = 3 * (k + rnd(2));
    for (int placed = 0; placed < blocks;) placed += drop_block(&t, 1 + placed / 3 % k);
    return t;
}

/* A full 5 x 7 board without a run of three, colours 1..k: the contest's hardest kind. */
static tboard full_board(int k)
{
    tboard t = empty_board(5, 7);
    for (int x = 0; x < 5; x++)
        for (int y = 0; y < 7; y++) {
            int v;
            do v = 1 + rnd(k);
            while ((x >= 2 && t.g[x - 1][y] == v && t.g[x - 2][y] == v) ||
                   (y >= 2 && t.g[x][y - 1] == v && t.g[x][y - 2] == v));
            t.g[x][y] = v;
        }
    return t;
}

/* The helper only adds proven failures to the table the two threads share, the two claim the
 * root's children's children (units) in the contest's order, and the smallest solved unit
 * answers: every board gets the one-thread answer, whenever the helper starts and whatever the
 * table's size (a small one replaces entries, a growing one doubles while shared). */
START_TEST(helper_never_changes_the_answer)
{
    int solvable = 0, helped = 0, solved_helped = 0, by_helper = 0;
    uint64_t helper_nodes = 0;
    for (int i = 0; i < 600; i++) {
        tboard t;
        int n;
        if (i % 3 == 0) {
            t = balanced_pile();
            n = 2 + rnd(3);
        } else if (i % 3 == 1) {
            t = full_board(3 + rnd(3));
            n = 4 + rnd(2);
        } else {
            int w = 3 + rnd(8), h = 3 + rnd(6);
            t = random_board(w, h, imin_t(h, 4), 3 + rnd(2));
            n = 3 + rnd(2);
        }
        mayan_board m = to_mayan(&t);
        budget b;
        budget_init_unlimited(&b);
        mayan_result one, two;
        mayan_solve(&m, n, &b, &one);
        size_t cap = i % 4 == 0 ? 4096 : i % 4 == 1 ? 65536 : MAYAN_TABLE_MAX_BYTES;
        /* Small searches get their helper at once, or it would never start. */
        uint64_t at = 1 + (uint64_t)rnd(i % 3 == 1 ? 64 : 4);
        mayan_solve_helped(&m, n, at, 0, cap, &b, &two);
        quiet_assert_int_eq(one.status, two.status);
        quiet_assert(one.status == MAYAN_SOLVED || one.status == MAYAN_NO_SOLUTION);
        quiet_assert(memcmp(one.moves, two.moves, sizeof one.moves) == 0);
        if (two.status == MAYAN_SOLVED) assert_replays(&t, &two, n);
        solvable += one.status == MAYAN_SOLVED;
        /* Until it starts the helper, the search is the one-thread search. */
        bool started = one.nodes >= at;
        helped += started;
        solved_helped += started && two.status == MAYAN_SOLVED;
        helper_nodes += two.helper_nodes;
        by_helper += two.helper_answered;
    }
    printf(
        "helper: %d of 600 solvable, %d helped (%d of them solvable, %d answered by the helper)\n",
        solvable, helped, solved_helped, by_helper);
    /* Meaningful only if the helper ran, and on solvable boards too. */
    ck_assert_int_ge(helped, 300);
    ck_assert_int_ge(solved_helped, 25);
    ck_assert_uint_gt(helper_nodes, 0);
}
END_TEST

/* Board t solved alone (one) and with the helper run first (two), to its end or, when stop_short,
 * for a random number of nodes within the one-thread search's: the same answer, which replays.
 * Returns where the helper was told to stop. */
static uint64_t solve_alone_and_helper_first(const tboard *t, int n, bool stop_short,
                                             mayan_result *one, mayan_result *two)
{
    mayan_board m = to_mayan(t);
    budget b;
    budget_init_unlimited(&b);
    mayan_solve(&m, n, &b, one);
    uint64_t stop = stop_short ? 2 + (uint64_t)rnd((int)(one->nodes < 4000 ? one->nodes : 4000) + 1)
                               : MAYAN_HELPER_TO_ITS_END;
    mayan_solve_helped(&m, n, 1, stop, MAYAN_TABLE_MAX_BYTES, &b, two);
    quiet_assert_int_eq(one->status, two->status);
    quiet_assert(memcmp(one->moves, two->moves, sizeof one->moves) == 0);
    if (two->status == MAYAN_SOLVED) assert_replays(t, two, n);
    return stop;
}

/* The helper run first, in the calling thread (no race), on each board twice:
 * - to its end: it has claimed every root child and solved the smallest solvable one, recording
 *   that child's smallest solution, which the first thread takes once every smaller child has
 *   failed: the helper answers every solvable board, and it is still the one-thread answer;
 * - stopped after a random number of nodes: the root child and the unit (its child) it was
 *   searching stay claimed, as if it were still at work; the first thread shares that root
 *   child's units, sets that unit aside and, at the end of the units, searches it itself
 *   (unit_finish): still the one-thread answer. Boards whose solution lies in that unit test that
 *   it is not skipped. */
START_TEST(helper_run_first_to_its_end_or_stopped_short)
{
    int solvable = 0, handed = 0, stopped = 0;
    for (int i = 0; i < 400; i++) {
        tboard t = i % 2 ? full_board(3 + rnd(3)) : balanced_pile();
        int n = i % 2 ? 4 + rnd(2) : 2 + rnd(3);
        mayan_result one, two;
        solve_alone_and_helper_first(&t, n, false, &one, &two);
        solvable += one.status == MAYAN_SOLVED;
        handed += two.helper_answered;
        quiet_assert(!two.helper_answered || two.status == MAYAN_SOLVED);
        uint64_t stop = solve_alone_and_helper_first(&t, n, true, &one, &two);
        stopped += two.helper_nodes == stop; /* it reached its stop */
    }
    printf(
        "helper run first: %d of %d solvable boards answered by it; stopped short on %d of 400\n",
        handed, solvable, stopped);
    ck_assert_int_ge(solvable, 40);
    ck_assert_int_eq(handed, solvable);
    ck_assert_int_ge(stopped, 200);
}
END_TEST

/* The helper started inside the one-thread search, with the first thread at some unit (a child
 * of a root child) under root child r0, and run first, in the calling thread (no race). It finds
 * no free root child before r0, so it shares r0's units: those before the first thread's are
 * failed, that one is held (the helper sets it aside and, at the end of r0's units, searches it
 * too), the rest it claims. Run to its end it finishes everything, so it answers every solvable
 * board; stopped short, it leaves a unit held and others failed or solved, which the first
 * thread skips, takes over or sets aside. Boards of three kinds, 3 to 5 moves: full 5 x 7
 * boards, balanced piles, and the commuting family of helper_commutes_back_to_the_root (answers
 * that spend still swaps, where the cuts onto failed units fire). Always the one-thread answer. */
START_TEST(helper_shares_a_root_childs_units)
{
    int started = 0, solvable = 0, handed = 0, shared = 0, unit_cuts = 0;
    budget b;
    budget_init_unlimited(&b);
    for (int i = 0; i < 900; i++) {
        tboard t;
        int n;
        if (i % 3 == 0) {
            t = full_board(3 + rnd(3));
            n = 4 + rnd(2);
        } else if (i % 3 == 1) {
            t = balanced_pile();
            n = 3 + rnd(2);
        } else {
            int w = 5 + rnd(4), h = 3 + rnd(2), k = 3 + rnd(2);
            t = empty_board(w, h);
            int blocks = 3 * (w * h / 3 - rnd(3));
            for (int placed = 0; placed < blocks;) placed += drop_block(&t, 1 + placed / 3 % k);
            n = 3 + rnd(2);
        }
        mayan_board m = to_mayan(&t);
        mayan_result one, two[2]; /* the helper run to its end, stopped short */
        mayan_solve(&m, n, &b, &one);
        if (one.nodes < 4) continue;
        int most = (int)(one.nodes < 20000 ? one.nodes : 20000);
        uint64_t at = 2 + (uint64_t)rnd(most - 2), stop = 1 + (uint64_t)rnd(most);
        for (int j = 0; j < 2; j++) {
            mayan_solve_helped(&m, n, at, j ? stop : MAYAN_HELPER_TO_ITS_END, MAYAN_TABLE_MAX_BYTES,
                               &b, &two[j]);
            quiet_assert_int_eq(one.status, two[j].status);
            quiet_assert(memcmp(one.moves, two[j].moves, sizeof one.moves) == 0);
            if (two[j].status == MAYAN_SOLVED) assert_replays(&t, &two[j], n);
        }
        started++;
        solvable += one.status == MAYAN_SOLVED;
        handed += two[0].helper_answered;
        quiet_assert(!two[0].helper_answered || two[0].status == MAYAN_SOLVED);
        shared += two[0].shared_units > 0;
        unit_cuts += two[0].root_cuts > 0;
    }
    printf("units shared: %d boards helped, %d solvable, %d answered by the helper run to its "
           "end; units set aside on %d, cuts onto failed root children or units on %d\n",
           started, solvable, handed, shared, unit_cuts);
    ck_assert_int_ge(started, 600);
    ck_assert_int_ge(solvable, 60);
    ck_assert_int_eq(handed, solvable);
    ck_assert_int_ge(shared, started / 2);
}
END_TEST

/* Once helped, each thread may skip a path of commuting still swaps that reorders onto a root
 * child marked failed, by either thread (or a move the root lacks). Such paths lead to answers when
 * moves must be spent before the last one: boards of the commuting_swaps_match_reference family,
 * wider, that one or two moves clear, asked for one or two moves more. Both threads' answers stay
 * the one-thread answer, with the helper run first and to its end, and at once beside the first
 * thread. */
START_TEST(helper_commutes_back_to_the_root)
{
    int tried = 0, cut = 0, handed = 0;
    budget b;
    budget_init_unlimited(&b);
    for (int i = 0; tried < 500 && i < 100000; i++) {
        int w = 5 + rnd(4), h = 3 + rnd(2), k = 3 + rnd(2);
        tboard t = empty_board(w, h);
        int blocks = 3 * (w * h / 3 - rnd(3));
        for (int placed = 0; placed < blocks;) placed += drop_block(&t, 1 + placed / 3 % k);
        mayan_board m = to_mayan(&t);
        mayan_result one, two;
        int fewest = 1;
        while (fewest <= 2 && mayan_solve(&m, fewest, &b, &one) != MAYAN_SOLVED) fewest++;
        if (fewest > 2) continue;
        int n = fewest + 1 + rnd(2);
        bool first = tried % 2 == 0;
        tried++;
        mayan_solve(&m, n, &b, &one);
        /* The one-thread answer itself against the unpruned search, on every 10th board of at
         * most 3 moves. */
        if (tried % 10 == 1 && n <= 3) check_against_reference(&t, n);
        mayan_solve_helped(&m, n, 1, first ? MAYAN_HELPER_TO_ITS_END : 0, MAYAN_TABLE_MAX_BYTES, &b,
                           &two);
        quiet_assert_int_eq(one.status, two.status);
        quiet_assert(memcmp(one.moves, two.moves, sizeof one.moves) == 0);
        if (two.status == MAYAN_SOLVED) assert_replays(&t, &two, n);
        handed += first && two.helper_answered;
        /* Run first, the helper solves the smallest solvable child: it answers every time. */
        quiet_assert(!first || two.helper_answered == (two.status == MAYAN_SOLVED));
    }
    /* Full boards, mostly without an answer, the helper run first: there the cut onto the
     * children it marked failed fires on most of them, and not by timing. */
    for (int i = 0; i < 200; i++) {
        tboard t = full_board(3 + rnd(3));
        int n = 4;
        mayan_board m = to_mayan(&t);
        mayan_result one, two;
        mayan_solve(&m, n, &b, &one);
        mayan_solve_helped(&m, n, 1, MAYAN_HELPER_TO_ITS_END, MAYAN_TABLE_MAX_BYTES, &b, &two);
        quiet_assert_int_eq(one.status, two.status);
        quiet_assert(memcmp(one.moves, two.moves, sizeof one.moves) == 0);
        cut += two.root_cuts > 0;
    }
    printf("back to the root: %d boards, %d answered by the helper run first; the cut in %d of 200 "
           "full boards\n",
           tried, handed, cut);
    ck_assert_int_eq(tried, 500);
    ck_assert_int_ge(cut, 150);
}
END_TEST

/* Two threads on one shared table, both adding and asking while it grows (or, capped small,
 * replaces entries): a key is never found at a depth it was not given, a key never added is
 * never found, and a thread finds most of what it added. */
typedef struct table_worker {
    mayan_table *t;
    int user; /* the table's user 0 or 1; adds keys user, user + 2, ... */
    int found;
} table_worker;

enum { SHARED_KEYS = 40000 };

static void shared_key(uint64_t i, uint64_t *k)
{
    k[0] = i * 0x9E3779B97F4A7C15ULL;
    k[1] = i % 1000;
}

static void *table_worker_main(void *arg)
{
    table_worker *w = arg;
    for (uint64_t i = (uint64_t)w->user; i < 2 * SHARED_KEYS; i += 2) {
        uint64_t k[2], never[2];
        shared_key(i, k);
        mayan_table_add_failure(w->t, w->user, k, 1 + (int)(i % 9));
        w->found += mayan_table_failed(w->t, w->user, k, 1 + (int)(i % 9));
        quiet_assert(!mayan_table_failed(w->t, w->user, k, 10));
        /* The other thread's keys: present or not, never at another depth. */
        uint64_t other = i ^ 1;
        shared_key(other, never);
        quiet_assert(!mayan_table_failed(w->t, w->user, never, 1 + (int)((other + 1) % 9)));
        never[1] += 1000;
        quiet_assert(!mayan_table_failed(w->t, w->user, never, 1 + (int)(other % 9)));
    }
    return NULL;
}

START_TEST(shared_table_answers_exactly)
{
    for (int round = 0; round < 2; round++) {
        mayan_table t;
        ck_assert(mayan_table_init(&t, 2, round == 0 ? (size_t)4 << 20 : 4096));
        size_t start = mayan_table_bytes(&t);
        ck_assert(mayan_table_share(&t));
        table_worker w[2] = {{&t, 0, 0}, {&t, 1, 0}};
        pthread_t other;
        ck_assert_int_eq(pthread_create(&other, NULL, table_worker_main, &w[1]), 0);
        table_worker_main(&w[0]);
        ck_assert_int_eq(pthread_join(other, NULL), 0);
        mayan_table_unshare(&t);
        if (round == 0) {
            ck_assert_uint_gt(mayan_table_bytes(&t), 8 * start);
            /* Each finds its newest entry unless the other thread's replaced it just then. */
            ck_assert_int_ge(w[0].found + w[1].found, 2 * SHARED_KEYS - SHARED_KEYS / 100);
        } else {
            ck_assert_uint_le(mayan_table_bytes(&t), 4096);
        }
        mayan_table_free(&t);
    }
}
END_TEST

/* The helper takes an idle core or does not start: with none idle the search runs alone (and
 * asks again later, in vain), with one it starts and gives the core back; the same answer. */
START_TEST(helper_waits_for_an_idle_core)
{
    int deep = 0;
    for (int i = 0; i < 200 && deep < 3; i++) {
        tboard t = full_board(3 + rnd(3));
        mayan_board m = to_mayan(&t);
        budget b;
        budget_init_unlimited(&b);
        mayan_result one, alone, helped;
        mayan_solve(&m, 6, &b, &one);
        if (one.nodes < 2 * MAYAN_HELPER_AT_NODES) continue;
        deep++;
        atomic_int idle = 0;
        b.threads = 2;
        b.idle_cores = &idle;
        mayan_solve(&m, 6, &b, &alone);
        ck_assert_uint_eq(alone.helper_nodes, 0);
        ck_assert_int_eq(atomic_load(&idle), 0);
        atomic_store(&idle, 1);
        mayan_solve(&m, 6, &b, &helped);
        ck_assert_uint_gt(helped.helper_nodes, 0);
        ck_assert_int_eq(atomic_load(&idle), 1);
        ck_assert_int_eq(one.status, alone.status);
        ck_assert_int_eq(one.status, helped.status);
        ck_assert(memcmp(one.moves, alone.moves, sizeof one.moves) == 0);
        ck_assert(memcmp(one.moves, helped.moves, sizeof one.moves) == 0);
    }
    ck_assert_int_eq(deep, 3);
}
END_TEST

/* A helped search stops with its budget (the helper is told and joined): a deep search of a
 * 16 x 16 board runs out of 100 ms, or of a cancel flag. */
START_TEST(helper_stops_with_the_budget)
{
    mayan_board m = striped_16x16();
    budget b;
    mayan_result r;
    budget_init_ms(&b, 100, NULL);
    ck_assert_int_eq(mayan_solve_helped(&m, 10, 1, 0, MAYAN_TABLE_MAX_BYTES, &b, &r),
                     MAYAN_TIME_LIMIT);
    ck_assert_uint_gt(r.helper_nodes, 0);
    atomic_bool cancel = true;
    budget_init_ms(&b, 60000, &cancel);
    ck_assert_int_eq(mayan_solve_helped(&m, 10, 1, 0, MAYAN_TABLE_MAX_BYTES, &b, &r),
                     MAYAN_TIME_LIMIT);
}
END_TEST

/* ---------- random boards against the reference ---------- */

START_TEST(random_small_boards)
{
    int solvable = 0, total = 0;
    for (int i = 0; i < 6000; i++) {
        int w = 3 + rnd(4), h = 3 + rnd(4);
        tboard t = random_board(w, h, 1 + rnd(h), 2 + rnd(2));
        int n = 1 + rnd(3);
        solvable += check_against_reference(&t, n);
        total++;
    }
    /* The comparison means something only if enough boards are solvable. */
    printf("small: %d of %d solvable\n", solvable, total);
    ck_assert_msg(solvable >= total / 50, "only %d of %d solvable", solvable, total);
}
END_TEST

/* Colour counts in multiples of three make solutions common. */
START_TEST(random_balanced_boards)
{
    int solvable = 0, total = 0;
    for (int i = 0; i < 2000; i++) {
        int w = 3 + rnd(4), h = 3 + rnd(3);
        tboard t = empty_board(w, h);
        int k = 1 + rnd(3), blocks = 3 * k + 3 * rnd(2);
        while (blocks > w * h) blocks -= 3;
        for (int placed = 0; placed < blocks;) placed += drop_block(&t, 1 + placed / 3 % k);
        solvable += check_against_reference(&t, 1 + rnd(3));
        total++;
    }
    printf("balanced: %d of %d solvable\n", solvable, total);
    ck_assert_msg(solvable >= total / 10, "only %d of %d solvable", solvable, total);
}
END_TEST

/* Renamed colours (renamed_colour) give the same answer, on boards where the search goes deep
 * enough for a too narrow table key to merge boards: the solver against itself, as the rename
 * changes nothing else. */
START_TEST(renamed_colours_give_the_same_answers)
{
    int solved = 0;
    for (int i = 0; i < 3000; i++) {
        tboard t = random_board(5, 7, 7, 3 + rnd(3)), renamed = t;
        for (int x = 0; x < t.w; x++)
            for (int y = 0; y < t.h; y++) renamed.g[x][y] = renamed_colour[t.g[x][y]];
        int n = 3 + rnd(2);
        mayan_result a, b;
        solve(&t, n, &a);
        solve(&renamed, n, &b);
        ck_assert_msg(a.status == b.status, "board %d, %d moves: %d against %d", i, n, a.status,
                      b.status);
        if (a.status != MAYAN_SOLVED) continue;
        solved++;
        assert_replays(&t, &a, n);
        for (int k = 0; k < n; k++)
            ck_assert(a.moves[k].x == b.moves[k].x && a.moves[k].y == b.moves[k].y &&
                      a.moves[k].direction == b.moves[k].direction);
    }
    ck_assert_int_gt(solved, 0);
}
END_TEST

/* Contest-size 5 x 7 boards, full or nearly, up to 3 moves (the reference's 28^3 leaves). */
START_TEST(random_contest_boards)
{
    /* The contest's 5 x 7 at five moves (one board in five at six), against the remembering
     * reference: 9 or 12 blocks dropped at random, in threes of a colour, so that columns stand
     * tall and many boards are solvable. */
    int solvable = 0;
    for (int i = 0; i < 100; i++) {
        tboard t = empty_board(5, 7);
        int k = 2 + rnd(3), blocks = 9 + 3 * rnd(2);
        for (int placed = 0; placed < blocks;) placed += drop_block(&t, 1 + placed / 3 % k);
        solvable += check_against_memo_reference(&t, i % 5 ? 5 : 6);
    }
    printf("contest boards, 5 and 6 moves: %d of 100 solvable\n", solvable);
    ck_assert_int_ge(solvable, 10);
    for (int i = 0; i < 300; i++) {
        tboard t = random_board(5, 7, 7, 3 + rnd(3));
        check_against_reference(&t, 1 + rnd(3));
    }
    /* Four moves on smaller piles. */
    for (int i = 0; i < 60; i++) {
        tboard t = random_board(5, 7, 3, 2 + rnd(2));
        check_against_reference(&t, 4);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mayan");
    TCase *rules = tcase_create("rules");
    tcase_set_timeout(rules, 600);
    tcase_add_test(rules, contest_sample);
    tcase_add_test(rules, fall_into_empty_column);
    tcase_add_test(rules, fall_from_height_and_hole_closes);
    tcase_add_test(rules, swap_with_occupied_target);
    tcase_add_test(rules, chain_reaction);
    tcase_add_test(rules, runs_vanish_together);
    tcase_add_test(rules, row_and_column_share_a_block);
    tcase_add_test(rules, padding_with_equal_swap);
    tcase_add_test(rules, emptied_too_early);
    tcase_add_test(rules, initially_unstable_board);
    tcase_add_test(rules, dead_colour_and_single_column);
    tcase_add_test(rules, large_boards);
    tcase_add_test(rules, bad_input);
    tcase_add_test(rules, time_limit);
    suite_add_tcase(s, rules);
    TCase *table = tcase_create("table");
    tcase_set_timeout(table, 600);
    tcase_add_test(table, table_keeps_depths_apart);
    tcase_add_test(table, key_packs_every_cell);
    tcase_add_test(table, key_patch_matches_pack);
    tcase_add_test(table, table_memory_is_bounded);
    tcase_add_test(table, table_grows_in_place);
    tcase_add_test(table, table_grows_to_a_size_at_once);
    tcase_add_test(table, table_cap_never_changes_the_answer);
    tcase_add_test(table, renamed_colours_give_the_same_answers);
    suite_add_tcase(s, table);
    TCase *pair = tcase_create("pair");
    tcase_set_timeout(pair, 600);
    tcase_add_test(pair, pair_blocked_matches_reference);
    suite_add_tcase(s, pair);
    TCase *bound = tcase_create("bound");
    tcase_set_timeout(bound, 600);
    tcase_add_test(bound, bound_matches_brute_force);
    tcase_add_test(bound, direct_table_matches_programme);
    tcase_add_test(bound, bound_refuses_spread_colour);
    tcase_add_test(bound, bound_on_scattered_boards);
    tcase_add_test(bound, settling_never_lowers_the_bound);
    tcase_add_test(bound, commuting_swaps_match_reference);
    tcase_add_test(bound, direct_tables_match_reference);
    tcase_add_test(bound, shift_mask_matches_programme);
    tcase_add_test(bound, wide_boards_match_reference);
    tcase_add_test(bound, still_swaps_out_of_reach_match_reference);
    tcase_add_test(bound, last_move_reach_marks_every_way_back);
    tcase_add_test(bound, wide_shift_mask_matches_programme);
    tcase_add_test(bound, last_move_matches_reference);
    tcase_add_test(bound, many_colours_out_of_place);
    tcase_add_test(bound, two_shifts_away);
    tcase_add_test(bound, swap_run_rows_matches_one_row);
    suite_add_tcase(s, bound);
    /* CK_RUN_CASE=helper runs this case alone (the ThreadSanitizer stage does). */
    TCase *far = tcase_create("far");
    tcase_set_timeout(far, 600);
    tcase_add_test(far, far_moves_claims);
    tcase_add_test(far, far_cascades_match_reference);
    tcase_add_test(far, dense_boards_match_reference);
    tcase_add_test(far, narrow_last_move_after_a_swap);
    suite_add_tcase(s, far);

    TCase *helper = tcase_create("helper");
    tcase_set_timeout(helper, 600);
    tcase_add_test(helper, helper_never_changes_the_answer);
    tcase_add_test(helper, helper_run_first_to_its_end_or_stopped_short);
    tcase_add_test(helper, helper_commutes_back_to_the_root);
    tcase_add_test(helper, helper_shares_a_root_childs_units);
    tcase_add_test(helper, shared_table_answers_exactly);
    tcase_add_test(helper, helper_stops_with_the_budget);
    tcase_add_test(helper, helper_waits_for_an_idle_core);
    suite_add_tcase(s, helper);
    TCase *random = tcase_create("random");
    tcase_set_timeout(random, 600);
    tcase_add_test(random, random_small_boards);
    tcase_add_test(random, random_balanced_boards);
    tcase_add_test(random, random_contest_boards);
    suite_add_tcase(s, random);
    return check_run(s);
}
