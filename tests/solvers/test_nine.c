/* The nine solver, checked by this file's own simulator (plain int grids, the contest's rotation
 * formulas) and its own breadth-first search: every 3 x 3 answer is a shortest one, every answer
 * replays to the goal, unsolvable states are refused with a real failing orbit. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_quiet.h"
#include "check_run.h"
#include "xorshift.h"
#include "nine.h"
#include "nine_cells.h"
#include "nine_greedy.h"
#include "nine_macro.h"
#include "nine_tail.h"

enum { MAXN = 64 };

typedef struct grid {
    int n;
    unsigned char a[MAXN][MAXN], b[MAXN][MAXN];
} grid;

/* The rules as the statement gives them: AL new[i][j] = old[j][n-1-i], AR new[i][j] =
 * old[n-1-j][i]; "Ck" swaps column k (1-based). Moves by name, so the test trusts no code. */
static void sim_rotate(unsigned char m[MAXN][MAXN], int n, int left)
{
    static unsigned char old[MAXN][MAXN];
    memcpy(old, m, sizeof old);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) m[i][j] = left ? old[j][n - 1 - i] : old[n - 1 - j][i];
}

static void sim_move(grid *g, const char *name)
{
    if (name[0] == 'C') {
        int k = atoi(name + 1);
        quiet_assert_msg(k >= 1 && k <= g->n, "column %s out of range", name);
        for (int i = 0; i < g->n; i++) {
            unsigned char t = g->a[i][k - 1];
            g->a[i][k - 1] = g->b[i][k - 1];
            g->b[i][k - 1] = t;
        }
        return;
    }
    quiet_assert_msg(strlen(name) == 2 && (name[0] == 'A' || name[0] == 'B') &&
                         (name[1] == 'L' || name[1] == 'R'),
                     "bad move %s", name);
    sim_rotate(name[0] == 'A' ? g->a : g->b, g->n, name[1] == 'L');
}

static int sim_goal(const grid *g)
{
    for (int i = 0; i < g->n; i++)
        for (int j = 0; j < g->n; j++)
            if (g->a[i][j] != 0 || g->b[i][j] != 1) return 0;
    return 1;
}

/* The test's own solvability rule: each orbit {(i,j),(j,n-1-i),(n-1-i,n-1-j),(n-1-j,i)}. */
static int sim_solvable(const grid *g)
{
    int n = g->n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int r[4] = {i, j, n - 1 - i, n - 1 - j}, c[4] = {j, n - 1 - i, n - 1 - j, i};
            int ones = 0, size = 0;
            for (int t = 0; t < 4; t++) {
                int dup = 0;
                for (int u = 0; u < t; u++) dup |= r[u] == r[t] && c[u] == c[t];
                if (dup) continue;
                size++;
                ones += g->a[r[t]][c[t]] + g->b[r[t]][c[t]];
            }
            if (ones != size) return 0;
        }
    return 1;
}

static void to_board(const grid *g, nine_board *bd)
{
    memset(bd, 0, sizeof *bd);
    bd->n = g->n;
    /* n <= MAXN said twice: gcc -O2 under ASan cannot see it (-Warray-bounds). */
    int n = g->n < MAXN ? g->n : MAXN;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            bd->a[i] |= (uint64_t)g->a[i][j] << j;
            bd->b[i] |= (uint64_t)g->b[i][j] << j;
        }
}

/* Solves with opt, replays by name in the simulator, returns the move count (-1 when not
 * NINE_OK). */
static long solve_with(const grid *g, long max_moves, const nine_options *opt, bool *optimal)
{
    nine_board bd;
    to_board(g, &bd);
    budget b;
    budget_init_unlimited(&b);
    nine_solution s;
    nine_status st = nine_solve_ex(&bd, max_moves, opt, &b, &s);
    quiet_assert_int_eq(st, s.status);
    if (optimal) *optimal = s.optimal;
    if (st != NINE_OK) {
        nine_solution_free(&s);
        return -1;
    }
    grid w = *g;
    for (size_t t = 0; t < s.move_count; t++) {
        char name[4];
        nine_move_name(s.moves[t], name);
        sim_move(&w, name);
    }
    quiet_assert_msg(sim_goal(&w), "the %zu moves do not reach the goal (n=%d)", s.move_count,
                     g->n);
    long count = (long)s.move_count;
    nine_solution_free(&s);
    return count;
}

/* The same with the default options (improve = false: the greedy construction alone). */
static long solve_and_replay(const grid *g, long max_moves, bool improve, bool *optimal)
{
    nine_options opt;
    nine_options_default(&opt, g->n);
    opt.improve = improve;
    return solve_with(g, max_moves, &opt, optimal);
}

/* 3 x 3 states as 18 bits: A's cells row-major, then B's. */
static void decode3(unsigned s, grid *g)
{
    memset(g, 0, sizeof *g);
    g->n = 3;
    for (int c = 0; c < 9; c++) {
        g->a[c / 3][c % 3] = (s >> c) & 1u;
        g->b[c / 3][c % 3] = (s >> (9 + c)) & 1u;
    }
}

static unsigned encode3(const grid *g)
{
    unsigned s = 0;
    for (int c = 0; c < 9; c++)
        s |= (unsigned)g->a[c / 3][c % 3] << c | (unsigned)g->b[c / 3][c % 3] << (9 + c);
    return s;
}

static const char *const moves3[] = {"AL", "AR", "BL", "BR", "C1", "C2", "C3"};
static signed char dist3[1u << 18];

static void bfs3(long *reached, int *deepest)
{
    memset(dist3, -1, sizeof dist3);
    unsigned *queue = malloc(sizeof(unsigned) << 18);
    ck_assert_ptr_nonnull(queue);
    size_t head = 0, tail = 0;
    queue[tail++] = 0x1FFu << 9;
    dist3[0x1FFu << 9] = 0;
    while (head < tail) {
        unsigned s = queue[head++];
        for (int m = 0; m < 7; m++) {
            grid g;
            decode3(s, &g);
            sim_move(&g, moves3[m]);
            unsigned u = encode3(&g);
            if (dist3[u] >= 0) continue;
            dist3[u] = (signed char)(dist3[s] + 1);
            *deepest = dist3[u];
            queue[tail++] = u;
        }
    }
    *reached = (long)tail;
    free(queue);
}

START_TEST(every_3x3_state_gets_a_shortest_answer)
{
    long reached = 0;
    int deepest = 0;
    bfs3(&reached, &deepest);
    ck_assert_int_eq(reached, 9800); /* known: 9 800 solvable 3 x 3 states, none over 10 moves */
    ck_assert_int_eq(deepest, 10);
    long solvable = 0, unsolvable = 0;
    for (unsigned s = 0; s < (1u << 18); s++) {
        if (__builtin_popcount(s) != 9) continue;
        grid g;
        decode3(s, &g);
        bool optimal = false;
        long count = solve_and_replay(&g, -1, false, &optimal);
        if (sim_solvable(&g)) {
            quiet_assert_int_ge(dist3[s], 0);
            quiet_assert_int_eq(count, dist3[s]);
            quiet_assert(optimal);
            solvable++;
        } else {
            quiet_assert_int_eq(dist3[s], -1);
            quiet_assert_int_eq(count, -1);
            unsolvable++;
        }
    }
    ck_assert_int_eq(solvable, 9800);
    ck_assert_int_eq(unsolvable, 48620 - 9800);
}
END_TEST

static uint64_t rng = 88172645463325252ull;

static uint64_t rnd(void)
{
    return xorshift64(&rng);
}

/* A uniformly random solvable state: in each orbit, the orbit's size ones among its cells of A
 * and B. Built from the test's own orbit formula. */
static void random_solvable(grid *g, int n)
{
    memset(g, 0, sizeof *g);
    g->n = n;
    for (int i = 0; i < (n + 1) / 2; i++)
        for (int j = 0; j < n / 2 + (n % 2 && i < n / 2 ? 0 : n % 2); j++) {
            int r[4] = {i, j, n - 1 - i, n - 1 - j}, c[4] = {j, n - 1 - i, n - 1 - j, i};
            int size = (n % 2 && i == n / 2 && j == n / 2) ? 1 : 4;
            unsigned char *cell[8];
            for (int t = 0; t < size; t++) {
                cell[t] = &g->a[r[t]][c[t]];
                cell[size + t] = &g->b[r[t]][c[t]];
            }
            for (int t = 2 * size - 1; t > 0; t--) {
                int u = (int)(rnd() % (uint64_t)(t + 1));
                unsigned char *x = cell[t];
                cell[t] = cell[u];
                cell[u] = x;
            }
            for (int t = 0; t < size; t++) *cell[t] = 1;
        }
    ck_assert(sim_solvable(g));
}

START_TEST(random_9x9_states_within_999_moves)
{
    long worst = 0, sum = 0;
    for (int k = 0; k < 1000; k++) {
        grid g;
        random_solvable(&g, 9);
        long count = solve_and_replay(&g, -1, false, NULL);
        quiet_assert_int_ge(count, 0);
        quiet_assert_int_le(count, 999);
        if (count > worst) worst = count;
        sum += count;
    }
    ck_assert_int_le(worst, 999);
    ck_assert_int_gt(sum, 40 * 1000); /* the counting bound: below 40 on average is impossible */
}
END_TEST

START_TEST(random_9x9_states_with_the_default_improvement)
{
    for (int k = 0; k < 5; k++) {
        grid g;
        random_solvable(&g, 9);
        long plain = solve_and_replay(&g, -1, false, NULL);
        long improved = solve_and_replay(&g, -1, true, NULL);
        quiet_assert_int_ge(improved, 0);
        quiet_assert_int_le(improved, plain);
    }
}
END_TEST

START_TEST(the_beam_search_replays_on_other_sizes)
{
    static const int sizes[] = {4, 5, 6, 7, 8, 10, 11, 12, 16};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (int rep = 0; rep < 3; rep++) {
            grid g;
            random_solvable(&g, sizes[k]);
            long plain = solve_and_replay(&g, -1, false, NULL);
            long improved = solve_and_replay(&g, -1, true, NULL);
            quiet_assert_int_ge(improved, 0);
            quiet_assert_int_le(improved, plain);
        }
}
END_TEST

/* The beam's opening (more partial solutions per cost at first) in every shape: none, narrower
 * than the rest, over the whole search, and much wider than a tiny rest. Every answer replays
 * and is no longer than the greedy's. */
START_TEST(the_beam_opening_in_every_shape_replays)
{
    static const int shapes[][3] = {{32, 0, 0}, {32, 8, 100}, {16, 48, 1000}, {4, 64, 50}};
    static const int sizes[] = {6, 9, 12};
    for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++)
        for (int rep = 0; rep < 2; rep++) {
            grid g;
            random_solvable(&g, sizes[c]);
            long plain = solve_and_replay(&g, -1, false, NULL);
            for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
                nine_options opt;
                nine_options_default(&opt, sizes[c]);
                opt.beam_width = shapes[k][0];
                opt.beam_opening_width = shapes[k][1];
                opt.beam_opening_percent = shapes[k][2];
                long moves = solve_with(&g, -1, &opt, NULL);
                quiet_assert_int_ge(moves, 0);
                quiet_assert_int_le(moves, plain);
            }
        }
}
END_TEST

START_TEST(the_most_ones_in_a_9x9)
{
    grid g;
    memset(&g, 0, sizeof g);
    g.n = 9;
    memset(g.a, 1, sizeof g.a); /* A all ones, B all zeros: a swap carries at most 9 ones */
    long count = solve_and_replay(&g, -1, false, NULL);
    ck_assert_int_ge(count, 9);
    ck_assert_int_le(count, 999);
}
END_TEST

START_TEST(random_states_of_other_sizes)
{
    static const int sizes[] = {1, 2, 4, 5, 6, 7, 8, 10, 11, 16, 33, 64};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (int rep = 0; rep < (sizes[k] <= 16 ? 20 : 1); rep++) {
            grid g;
            random_solvable(&g, sizes[k]);
            bool optimal = false;
            long count = solve_and_replay(&g, -1, false, &optimal);
            quiet_assert_int_ge(count, 0);
            /* Proven shortest up to 2 x 2 (and at the goal); from 4 x 4 on, never claimed. */
            quiet_assert(optimal == (sizes[k] <= 2 || count == 0));
            if (count == 0) quiet_assert(sim_goal(&g));
        }
}
END_TEST

/* 2 x 2 against the test's own brute force: iterative deepening over all move sequences. */
static int shortest2(const grid *g, int depth)
{
    if (sim_goal(g)) return 1;
    if (depth == 0) return 0;
    static const char *const moves2[] = {"AL", "AR", "BL", "BR", "C1", "C2"};
    for (int m = 0; m < 6; m++) {
        grid w = *g;
        sim_move(&w, moves2[m]);
        if (shortest2(&w, depth - 1)) return 1;
    }
    return 0;
}

START_TEST(every_2x2_state_gets_a_shortest_answer)
{
    int solvable = 0;
    for (unsigned s = 0; s < 256; s++) {
        if (__builtin_popcount(s) != 4) continue;
        grid g;
        memset(&g, 0, sizeof g);
        g.n = 2;
        for (int c = 0; c < 4; c++) {
            g.a[c / 2][c % 2] = (s >> c) & 1u;
            g.b[c / 2][c % 2] = (s >> (4 + c)) & 1u;
        }
        bool optimal = false;
        long count = solve_and_replay(&g, -1, false, &optimal);
        quiet_assert(optimal);
        int d = 0;
        while (!shortest2(&g, d)) d++;
        quiet_assert_int_eq(count, d);
        solvable++;
    }
    ck_assert_int_eq(solvable, 70); /* one orbit: every state with 4 ones is solvable */
}
END_TEST

START_TEST(unsolvable_states_name_a_failing_orbit)
{
    static const int sizes[] = {1, 2, 3, 4, 5, 9, 16, 64};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (int rep = 0; rep < 10; rep++) {
            int n = sizes[k];
            grid g;
            random_solvable(&g, n);
            int i = (int)(rnd() % (uint64_t)n), j = (int)(rnd() % (uint64_t)n);
            if (rnd() & 1)
                g.a[i][j] ^= 1;
            else
                g.b[i][j] ^= 1;
            quiet_assert(!sim_solvable(&g));
            nine_board bd;
            to_board(&g, &bd);
            budget b;
            budget_init_unlimited(&b);
            nine_solution s;
            quiet_assert_int_eq(nine_solve(&bd, -1, &b, &s), NINE_UNSOLVABLE);
            /* The named orbit is (i, j)'s, and its count is what the test finds there. */
            int ones = 0, hit = 0;
            for (int t = 0; t < s.orbit.cells; t++) {
                int r = s.orbit.row[t], c = s.orbit.col[t];
                ones += g.a[r][c] + g.b[r][c];
                hit |= r == i && c == j;
            }
            quiet_assert(hit);
            quiet_assert_int_eq(ones, s.orbit.ones);
            quiet_assert_int_ne(ones, s.orbit.cells);
            quiet_assert_int_eq(s.orbit.cells, (n % 2 && i == n / 2 && j == n / 2) ? 1 : 4);
            nine_solution_free(&s);
        }
}
END_TEST

START_TEST(max_moves_is_respected)
{
    long reached;
    int deepest;
    bfs3(&reached, &deepest);
    for (int k = 0; k < 200; k++) {
        grid g;
        random_solvable(&g, 3);
        int d = dist3[encode3(&g)];
        bool optimal = false;
        ck_assert_int_eq(solve_and_replay(&g, d, false, &optimal), d);
        if (d > 0) {
            ck_assert_int_eq(solve_and_replay(&g, d - 1, false, &optimal), -1);
            ck_assert(optimal); /* for 3 x 3 the refusal is a proof */
        }
    }
    grid g;
    random_solvable(&g, 9);
    long free_count = solve_and_replay(&g, -1, false, NULL);
    ck_assert_int_eq(solve_and_replay(&g, free_count, false, NULL), free_count);
    ck_assert_int_eq(solve_and_replay(&g, 0, false, NULL), -1);
    memset(g.a, 0, sizeof g.a);
    memset(g.b, 1, sizeof g.b);
    ck_assert_int_eq(solve_and_replay(&g, 0, false, NULL), 0); /* already solved */
}
END_TEST

START_TEST(an_expired_budget_stops_the_construction)
{
    grid g;
    random_solvable(&g, 64);
    nine_board bd;
    to_board(&g, &bd);
    budget b;
    budget_init_ms(&b, 0, NULL);
    nine_solution s;
    ck_assert_int_eq(nine_solve(&bd, -1, &b, &s), NINE_TIME_LIMIT);
    ck_assert_ptr_null(s.moves);
    nine_solution_free(&s);
    /* The size's tables are built within the budget too (up to a third of a second): cut
     * short, the build fails and frees what it made, and the next solve builds them. */
    nine_library lib;
    ck_assert(!nine_library_build(&lib, 64, &b));
    ck_assert(nine_library_build(&lib, 64, NULL));
    nine_library_free(&lib);
    /* Solved and replayed to the goal by this file's simulator. */
    ck_assert_int_gt(solve_and_replay(&g, -1, true, NULL), 0);
}
END_TEST

/* The test's own shortest distance by iterative deepening over every move sequence. */
static bool within(const grid *g, int depth)
{
    if (sim_goal(g)) return true;
    if (depth == 0) return false;
    for (int m = 0; m < 4 + g->n; m++) {
        static const char *const rot[4] = {"AL", "AR", "BL", "BR"};
        char name[16];
        if (m < 4)
            strcpy(name, rot[m]);
        else
            snprintf(name, sizeof name, "C%d", m - 3);
        grid w = *g;
        sim_move(&w, name);
        if (within(&w, depth - 1)) return true;
    }
    return false;
}

/* The orbit layout of cell sets (nine_cells.h): every cell has its own bit, the columns and the
 * whole matrix are the sets they name, and a turn of a random set moves each cell where
 * nine_cell_rotate says a left (or right) turn takes it, on every size it serves. */
START_TEST(cell_sets_turn_as_the_board_does)
{
    uint64_t state = 0xCE11u;
    for (int n = 1; n <= NINE_CELLS_MAX_N; n++) {
        nine_cells t;
        nine_cells_init(&t, n);
        uint64_t seen[2] = {0, 0}, columns[2] = {0, 0};
        for (int p = 0; p < n * n; p++) {
            int bit = t.bit[p];
            ck_assert_int_eq(t.cell[bit], p);
            ck_assert(!(seen[bit / 64] >> (bit % 64) & 1));
            seen[bit / 64] |= (uint64_t)1 << (bit % 64);
            ck_assert(t.col[p % n][bit / 64] >> (bit % 64) & 1);
        }
        for (int j = 0; j < n; j++)
            for (int w = 0; w < 2; w++) {
                ck_assert_uint_eq(columns[w] & t.col[j][w], 0);
                columns[w] |= t.col[j][w];
            }
        ck_assert(seen[0] == t.full[0] && seen[1] == t.full[1]);
        ck_assert(columns[0] == t.full[0] && columns[1] == t.full[1]);
        for (int trial = 0; trial < 200; trial++) {
            uint64_t set[2] = {xorshift64(&state) & t.full[0], xorshift64(&state) & t.full[1]};
            for (int dir = 0; dir < 2; dir++) {
                uint64_t turned[2] = {set[0], set[1]}, expect[2] = {0, 0};
                nine_cells_turn(&t, dir, turned);
                for (int p = 0; p < n * n; p++) {
                    if (!(set[t.bit[p] / 64] >> (t.bit[p] % 64) & 1)) continue;
                    int i = p / n, j = p % n;
                    nine_cell_rotate(n, dir ? 3 : 1, &i, &j);
                    int to = t.bit[i * n + j];
                    expect[to / 64] |= (uint64_t)1 << (to % 64);
                }
                quiet_assert_msg(turned[0] == expect[0] && turned[1] == expect[1], "n %d dir %d", n,
                                 dir);
            }
        }
    }
}
END_TEST

START_TEST(the_exact_tail_finds_shortest_finishes)
{
    static const struct {
        int n, depth;
    } cases[] = {{4, 4}, {6, 3}, {9, 3}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int n = cases[c].n;
        const nine_tail *t = nine_tail_get(n, NULL);
        ck_assert_ptr_nonnull(t);
        ck_assert_int_ge(nine_tail_radius(t), 6);
        for (int rep = 0; rep < 12; rep++) {
            /* A scramble of the goal by up to `depth` random moves, then finished with no
             * forward search (the ball alone) and with a forward depth of 2. */
            grid g;
            memset(&g, 0, sizeof g);
            g.n = n;
            memset(g.b, 1, sizeof g.b);
            int len = (int)(rnd() % (uint64_t)(cases[c].depth + 1));
            for (int k = 0; k < len; k++) {
                int m = (int)(rnd() % (uint64_t)(4 + n));
                char name[4];
                nine_move_name(m, name);
                sim_move(&g, name);
            }
            int d = 0;
            while (!within(&g, d)) d++;
            for (int fwd = 0; fwd <= 2; fwd += 2) {
                nine_board bd;
                to_board(&g, &bd);
                uint8_t moves[NINE_TAIL_MAX_MOVES];
                int got = nine_tail_solve(t, &bd, fwd, moves);
                quiet_assert_int_eq(got, d);
                grid w = g;
                for (int k = 0; k < got; k++) {
                    char name[4];
                    nine_move_name(moves[k], name);
                    sim_move(&w, name);
                }
                quiet_assert(sim_goal(&w));
            }
        }
    }
}
END_TEST

/* The shortlist of steps (nine_step_candidates: a vector pass over the library, then only the
 * macros it lets through) against the test's own brute force: every library macro, and its
 * mirror image where it has one, under all 16 set-ups, played out in the simulator. Each step
 * returned must do what it says (ones removed from A, of them on A's diagonals, its moves), and
 * the list must be the k best by ones per move (equal rates: more ones first). */
static int ones_of_a(const grid *g, bool diagonal_only)
{
    int n = g->n, ones = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            bool diagonal = (i == j || i + j == n - 1) && !(i == j && i + j == n - 1);
            if (!diagonal_only || diagonal) ones += g->a[i][j];
        }
    return ones;
}

/* Plays set-up turns (qa of A, qb of B, as AL / AL AL / AR) then the move codes[0..len) (AL,
 * AR, BL, BR, then C1.. as in nine_board.h), by the statement's rules like sim_move but with
 * no check per move: libcheck logs every assertion, and the brute force plays millions. */
static void play(grid *g, int qa, int qb, const uint8_t *codes, int len)
{
    static const int lefts[4] = {0, 1, 2, 0}, rights[4] = {0, 0, 0, 1};
    for (int t = 0; t < lefts[qa]; t++) sim_rotate(g->a, g->n, 1);
    for (int t = 0; t < rights[qa]; t++) sim_rotate(g->a, g->n, 0);
    for (int t = 0; t < lefts[qb]; t++) sim_rotate(g->b, g->n, 1);
    for (int t = 0; t < rights[qb]; t++) sim_rotate(g->b, g->n, 0);
    for (int t = 0; t < len; t++) {
        int m = codes[t];
        if (m < 4) {
            sim_rotate(m < 2 ? g->a : g->b, g->n, m % 2 == 0);
            continue;
        }
        for (int i = 0; i < g->n; i++) {
            unsigned char x = g->a[i][m - 4];
            g->a[i][m - 4] = g->b[i][m - 4];
            g->b[i][m - 4] = x;
        }
    }
}

typedef struct rate {
    int red, cost;
} rate;

/* Higher rate first; equal rates: more ones first. */
static int by_rate_desc(const void *x, const void *y)
{
    const rate *a = x, *b = y;
    long lhs = (long)a->red * b->cost, rhs = (long)b->red * a->cost;
    if (lhs != rhs) return lhs > rhs ? -1 : 1;
    return b->red - a->red;
}

/* What a step adds to the moves so far: its set-up turns and moves, less two for each of its
 * leading swaps (with no set-up) that repeats a swap at the end of the moves so far (`tail`,
 * columns as bits), since the pair cancels; at least 1. */
static int step_cost(const uint8_t *codes, int len, int qa, int qb, uint64_t tail)
{
    static const int setup[4] = {0, 1, 2, 1};
    int cost = len + setup[qa] + setup[qb];
    for (int t = 0; t < len && codes[t] >= 4 && qa == 0 && qb == 0; t++)
        if ((tail >> (codes[t] - 4)) & 1u) cost -= 2;
    return cost < 1 ? 1 : cost;
}

START_TEST(the_shortlist_is_the_best_by_brute_force)
{
    static const int sizes[] = {4, 6, 9, 10, 11};
    enum { K = 16 };
    for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++)
        for (int rep = 0; rep < 3; rep++) {
            int n = sizes[c];
            /* The columns swapped at the end of the moves so far: none, then three at random
             * (a step with no set-up whose leading swaps repeat them is cheaper). */
            uint64_t tail = 0;
            while (rep > 0 && __builtin_popcountll(tail) < 3)
                tail |= (uint64_t)1 << (rnd() % (uint64_t)n);
            const nine_library *lib = nine_library_get(n, NULL);
            ck_assert_ptr_nonnull(lib);
            grid g;
            random_solvable(&g, n);
            nine_board bd;
            to_board(&g, &bd);
            nine_step steps[K];
            int found = nine_step_candidates(&bd, lib, steps, K, tail);
            int before_all = ones_of_a(&g, false), before_diag = ones_of_a(&g, true);
            for (int t = 0; t < found; t++) {
                uint8_t codes[NINE_STEP_MAX_MOVES];
                int len = nine_step_moves(n, lib, &steps[t], codes);
                grid w = g;
                play(&w, steps[t].qa, steps[t].qb, codes, len);
                quiet_assert_int_eq(before_all - ones_of_a(&w, false), steps[t].red);
                quiet_assert_int_eq(before_diag - ones_of_a(&w, true), steps[t].red_diag);
                quiet_assert_int_eq(step_cost(codes, len, steps[t].qa, steps[t].qb, tail),
                                    steps[t].cost);
            }
            /* Brute force: per macro and set-up, the cheaper of the macro and its mirror (which
             * does the same from the boards turned half way). */
            rate *all = malloc(sizeof *all * (size_t)lib->count * 16);
            ck_assert_ptr_nonnull(all);
            int count = 0, mirror_wrong = 0; /* counted, not asserted: check logs each assert */
            for (int mi = 0; mi < lib->count; mi++) {
                const nine_macro *m = &lib->macros[mi];
                for (int qa = 0; qa < 4; qa++)
                    for (int qb = 0; qb < 4; qb++) {
                        grid w = g;
                        play(&w, qa, qb, m->moves, m->len);
                        int red = before_all - ones_of_a(&w, false);
                        int cost = step_cost(m->moves, m->len, qa, qb, tail);
                        if (m->mirror) {
                            uint8_t mirrored[NINE_MACRO_MAX_LEN];
                            for (int t = 0; t < m->len; t++)
                                mirrored[t] = m->moves[t] >= NINE_MOVE_C0
                                                  ? (uint8_t)(NINE_MOVE_C0 + n - 1 -
                                                              (m->moves[t] - NINE_MOVE_C0))
                                                  : m->moves[t];
                            int ma = (qa + 2) & 3, mb = (qb + 2) & 3;
                            grid v = g;
                            play(&v, ma, mb, mirrored, m->len);
                            mirror_wrong += before_all - ones_of_a(&v, false) != red;
                            int mirror_cost = step_cost(mirrored, m->len, ma, mb, tail);
                            if (mirror_cost < cost) cost = mirror_cost;
                        }
                        if (red > 0) all[count++] = (rate){red, cost};
                    }
            }
            ck_assert_int_eq(mirror_wrong, 0);
            qsort(all, (size_t)count, sizeof *all, by_rate_desc);
            ck_assert_int_eq(found, count < K ? count : K);
            rate got[K];
            for (int t = 0; t < found; t++) got[t] = (rate){steps[t].red, steps[t].cost};
            qsort(got, (size_t)found, sizeof *got, by_rate_desc);
            for (int t = 0; t < found; t++) {
                quiet_assert_int_eq(got[t].red, all[t].red);
                quiet_assert_int_eq(got[t].cost, all[t].cost);
            }
            free(all);
        }
}
END_TEST

/* The enumerated library, checked against every sequence (not only canonical ones) up to a
 * length, in this file's own labelled simulator: a sequence that starts and ends with a swap and
 * carries 1..few cells each way (up to 5 moves: up to 9) has its effect (which cells of A leave
 * A, which of B enter it) in the library, no longer, or its mirror image (cell p -> n^2-1-p);
 * and every macro of the library carries exactly the cells it claims. */
enum { LAB_MAX_N = NINE_ENUM_MAX_N };

typedef struct labels {
    int n;
    /* the label of the value at each cell */
    int a[LAB_MAX_N * LAB_MAX_N], b[LAB_MAX_N * LAB_MAX_N];
} labels;

/* Every value labelled by its starting cell: A's cells 0..n^2-1, B's n^2..2n^2-1. */
static void lab_start(labels *l, int n)
{
    l->n = n;
    for (int p = 0; p < n * n; p++) l->a[p] = p, l->b[p] = n * n + p;
}

/* A move on the labels. A turn's inverse is the other turn of the same matrix (m ^ 1); a swap is
 * its own. */
static void lab_move(labels *l, int m)
{
    int n = l->n, *a = l->a, *b = l->b, old[LAB_MAX_N * LAB_MAX_N];
    if (m >= NINE_MOVE_C0) {
        for (int i = 0; i < n; i++) {
            int p = i * n + m - NINE_MOVE_C0, t = a[p];
            a[p] = b[p];
            b[p] = t;
        }
        return;
    }
    int *side = m < NINE_MOVE_BL ? a : b;
    memcpy(old, side, sizeof(int) * (size_t)(n * n));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) /* AL: new[i][j] = old[j][n-1-i]; AR: old[n-1-j][i] */
            side[i * n + j] = (m & 1) ? old[(n - 1 - j) * n + i] : old[j * n + n - 1 - i];
}

/* The effect as the library stores it: bit p of out_a when the value of A's cell p ends in B,
 * of out_b when B's cell p ends in A; returns the cells each way. */
static int lab_effect(const labels *l, uint64_t out_a[2], uint64_t out_b[2])
{
    const int *a = l->a, *b = l->b;
    int nn = l->n * l->n, crossing = 0;
    out_a[0] = out_a[1] = out_b[0] = out_b[1] = 0;
    for (int p = 0; p < nn; p++) {
        if (b[p] < nn) out_a[b[p] / 64] |= (uint64_t)1 << (b[p] % 64);
        if (a[p] >= nn) {
            out_b[(a[p] - nn) / 64] |= (uint64_t)1 << ((a[p] - nn) % 64);
            crossing++;
        }
    }
    return crossing;
}

/* Every macro of a flat library carries exactly the cells it claims. */
static void macros_carry_what_they_claim(const nine_library *lib)
{
    int n = lib->n;
    ck_assert(lib->flat && n <= LAB_MAX_N);
    for (int t = 0; t < lib->count; t++) {
        const nine_macro *m = &lib->macros[t];
        labels l;
        lab_start(&l, n);
        for (int u = 0; u < m->len; u++) lab_move(&l, m->moves[u]);
        uint64_t ea[2], eb[2];
        quiet_assert_int_eq(lab_effect(&l, ea, eb), m->transfers);
        quiet_assert(memcmp(ea, m->flat_a, sizeof ea) == 0 &&
                     memcmp(eb, m->flat_b, sizeof eb) == 0);
    }
}

static void lab_half_turn(int nn, const uint64_t in[2], uint64_t out[2])
{
    out[0] = out[1] = 0;
    for (int p = 0; p < nn; p++)
        if ((in[p / 64] >> (p % 64)) & 1u)
            out[(nn - 1 - p) / 64] |= (uint64_t)1 << ((nn - 1 - p) % 64);
}

/* The shortest library macro with this effect (or whose mirror has it); 99 when none. */
static int lib_shortest(const nine_library *lib, const uint64_t ea[2], const uint64_t eb[2])
{
    int nn = lib->n * lib->n, best = 99;
    for (int t = 0; t < lib->count; t++) {
        const nine_macro *m = &lib->macros[t];
        uint64_t ma[2], mb[2];
        bool same = memcmp(m->flat_a, ea, sizeof ma) == 0 && memcmp(m->flat_b, eb, sizeof mb) == 0;
        if (!same && m->mirror) {
            lab_half_turn(nn, m->flat_a, ma);
            lab_half_turn(nn, m->flat_b, mb);
            same = memcmp(ma, ea, sizeof ma) == 0 && memcmp(mb, eb, sizeof mb) == 0;
        }
        if (same && m->len < best) best = m->len;
    }
    return best;
}

typedef struct lab_search {
    const nine_library *lib;
    int max_len, few, checked, missing;
    uint8_t seq[NINE_MACRO_MAX_LEN];
} lab_search;

/* Every sequence from l, played in place (each move undone after its subtree). lead: the columns
 * swapped an odd number of times in the leading run of swaps (a sequence whose leading swaps all
 * cancel is a set-up turn before a shorter macro, not a macro). */
static void lab_all(lab_search *q, labels *l, int len, uint64_t lead)
{
    if (len > 0 && q->seq[len - 1] >= NINE_MOVE_C0) {
        uint64_t ea[2], eb[2];
        int crossing = lab_effect(l, ea, eb);
        if (crossing >= 1 && (crossing <= q->few || (len <= 5 && crossing <= 9))) {
            q->checked++;
            q->missing += lib_shortest(q->lib, ea, eb) > len;
        }
    }
    if (len == q->max_len) return;
    bool leading = true;
    for (int t = 0; t < len; t++) leading &= q->seq[t] >= NINE_MOVE_C0;
    for (int m = 0; m < NINE_MOVE_C0 + l->n; m++) {
        if (m < NINE_MOVE_C0 && (len == 0 || (leading && lead == 0))) continue;
        lab_move(l, m);
        q->seq[len] = (uint8_t)m;
        lab_all(q, l, len + 1,
                leading && m >= NINE_MOVE_C0 ? lead ^ (uint64_t)1 << (m - NINE_MOVE_C0) : lead);
        lab_move(l, m < NINE_MOVE_C0 ? m ^ 1 : m);
    }
}

START_TEST(the_library_holds_every_short_sequence)
{
    /* {n, longest sequence, cells each way}: small limits make the enumeration's pruning
     * matter within what the brute force can reach. 9 x 9's cells 64..80 are in the second
     * word of the cell sets (a crossing count that forgets that word misses 68 of its 14 843
     * sequences); on 11 x 11, sequences of 5 moves carry too many cells to check much. */
    static const int cases[][3] = {{4, 6, 1}, {4, 6, 3}, {5, 6, 2}, {4, 7, 1}, {9, 5, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int n = cases[c][0];
        nine_library lib;
        ck_assert(nine_library_build_ex(&lib, n, cases[c][1], cases[c][2], NULL));
        macros_carry_what_they_claim(&lib);
        lab_search q = {.lib = &lib, .max_len = cases[c][1], .few = cases[c][2]};
        labels l;
        lab_start(&l, n);
        lab_all(&q, &l, 0, 0);
        ck_assert_int_gt(q.checked, 1000);
        ck_assert_int_eq(q.missing, 0);
        nine_library_free(&lib);
    }
}
END_TEST

/* The largest enumerated board: its cells run into the second word of the 128-bit masks. Its
 * library is the enumerated one (with the groups that pay, not the two families of the larger
 * boards), and every macro carries exactly the cells it claims. */
START_TEST(the_largest_enumerated_library_carries_what_it_claims)
{
    const nine_library *lib = nine_library_get(NINE_ENUM_MAX_N, NULL);
    ck_assert_ptr_nonnull(lib);
    ck_assert(lib->has_groups);
    macros_carry_what_they_claim(lib);
}
END_TEST

/* The same board gets the same answer however busy the machine is: the searches are bounded by
 * work, not time. A few boards are solved once alone, then by several threads at once (each its
 * own copy of the list, in a different order), and every answer must match byte for byte. */
enum { SAME_BOARDS = 6, SAME_THREADS = 4 };

typedef struct same_job {
    const grid *boards;
    int shift;
    uint8_t *moves[SAME_BOARDS];
    size_t count[SAME_BOARDS];
    nine_status status[SAME_BOARDS];
} same_job;

static void solve_default(const grid *g, nine_status *st, uint8_t **moves, size_t *count)
{
    nine_board bd;
    to_board(g, &bd);
    budget b;
    budget_init_ms(&b, 600000, NULL); /* a real deadline, far enough never to be reached */
    nine_solution s;
    *st = nine_solve(&bd, -1, &b, &s);
    *count = s.move_count;
    *moves = s.moves; /* handed over, freed by the test */
}

static void *same_worker(void *arg)
{
    same_job *job = arg;
    for (int k = 0; k < SAME_BOARDS; k++) {
        int at = (k + job->shift) % SAME_BOARDS;
        solve_default(&job->boards[at], &job->status[at], &job->moves[at], &job->count[at]);
    }
    return NULL;
}

START_TEST(the_same_board_gets_the_same_answer_under_load)
{
    static const int sizes[SAME_BOARDS] = {9, 9, 9, 5, 7, 12};
    static grid boards[SAME_BOARDS];
    for (int k = 0; k < SAME_BOARDS; k++) random_solvable(&boards[k], sizes[k]);
    same_job alone = {boards, 0, {0}, {0}, {0}};
    same_worker(&alone);
    same_job jobs[SAME_THREADS];
    pthread_t threads[SAME_THREADS];
    for (int t = 0; t < SAME_THREADS; t++) {
        jobs[t] = (same_job){boards, t + 1, {0}, {0}, {0}};
        ck_assert_int_eq(pthread_create(&threads[t], NULL, same_worker, &jobs[t]), 0);
    }
    for (int t = 0; t < SAME_THREADS; t++) ck_assert_int_eq(pthread_join(threads[t], NULL), 0);
    for (int k = 0; k < SAME_BOARDS; k++) {
        ck_assert_int_eq(alone.status[k], NINE_OK);
        grid w = boards[k];
        for (size_t t = 0; t < alone.count[k]; t++) {
            char name[4];
            nine_move_name(alone.moves[k][t], name);
            sim_move(&w, name);
        }
        ck_assert(sim_goal(&w));
        for (int t = 0; t < SAME_THREADS; t++) {
            ck_assert_int_eq(jobs[t].status[k], NINE_OK);
            ck_assert_uint_eq(jobs[t].count[k], alone.count[k]);
            ck_assert(memcmp(jobs[t].moves[k], alone.moves[k], alone.count[k]) == 0);
            free(jobs[t].moves[k]);
        }
        free(alone.moves[k]);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("nine");
    TCase *tc = tcase_create("nine");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, every_3x3_state_gets_a_shortest_answer);
    tcase_add_test(tc, random_9x9_states_within_999_moves);
    tcase_add_test(tc, random_9x9_states_with_the_default_improvement);
    tcase_add_test(tc, the_beam_search_replays_on_other_sizes);
    tcase_add_test(tc, the_beam_opening_in_every_shape_replays);
    tcase_add_test(tc, the_most_ones_in_a_9x9);
    tcase_add_test(tc, random_states_of_other_sizes);
    tcase_add_test(tc, every_2x2_state_gets_a_shortest_answer);
    tcase_add_test(tc, unsolvable_states_name_a_failing_orbit);
    tcase_add_test(tc, max_moves_is_respected);
    tcase_add_test(tc, an_expired_budget_stops_the_construction);
    tcase_add_test(tc, the_same_board_gets_the_same_answer_under_load);
    tcase_add_test(tc, cell_sets_turn_as_the_board_does);
    tcase_add_test(tc, the_exact_tail_finds_shortest_finishes);
    tcase_add_test(tc, the_shortlist_is_the_best_by_brute_force);
    tcase_add_test(tc, the_library_holds_every_short_sequence);
    tcase_add_test(tc, the_largest_enumerated_library_carries_what_it_claims);
    suite_add_tcase(s, tc);
    return check_run(s);
}
