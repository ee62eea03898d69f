/* Maze Tac Toe solver against an independent, literal search.
 *
 * The reference here walks the statement word for word: a breadth-first search over (cell, board)
 * with a full visited array, placing a letter on entering a move cell whose square is empty and
 * stopping the walk on a winning board. It has its own board encoding (square s has weight 3^s),
 * its own win test on letters and its own cell parser, and shares nothing with the solver but the
 * documented cell-code formula. Counts and the full sorted lists of boards must agree. */
#include <check.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_quiet.h"
#include "check_run.h"
#include "maze_tac_toe.h"

#define REF_BOARDS 19683
#define MAX_LINE 512

/* ---- the reference search -------------------------------------------------------------- */

typedef struct ref_maze {
    int n;
    char kind[100][100];      /* '#', '.', 'B', 'M', 'O' */
    int square[100][100];     /* 0..8 for move cells */
    char line[100][MAX_LINE]; /* the maze as text, for the solver's own parsing paths */
} ref_maze;

static int ref_pow3[10];

static void ref_board_text(int board, char text[10])
{
    for (int s = 0; s < 9; s++) {
        int d = board % 3;
        board /= 3;
        text[s] = d == 0 ? '.' : d == 1 ? 'M' : 'O';
    }
    text[9] = '\0';
}

static int ref_wins(int board)
{
    char t[10];
    ref_board_text(board, t);
    static const int lines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                    {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};
    for (int l = 0; l < 8; l++) {
        char w[4] = {t[lines[l][0]], t[lines[l][1]], t[lines[l][2]], '\0'};
        if (strcmp(w, "MOO") == 0 || strcmp(w, "OOM") == 0) return 1;
    }
    return 0;
}

/* Visited stamps: one per (cell, board), a fresh generation number per search. */
static uint32_t *ref_seen;
static size_t ref_seen_cells;
static uint32_t ref_generation;

static int cmp_text(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* Winning boards as 9-character texts, sorted with strcmp; returns their number. */
static size_t ref_search(const ref_maze *m, char (*wins)[10])
{
    int n = m->n;
    size_t states = (size_t)n * n * REF_BOARDS;
    if (states > ref_seen_cells) {
        free(ref_seen);
        ref_seen = calloc(states, sizeof *ref_seen);
        ref_seen_cells = states;
        ref_generation = 0;
    }
    ck_assert_ptr_nonnull(ref_seen);
    uint32_t gen = ++ref_generation;
    static uint8_t won[REF_BOARDS];
    memset(won, 0, sizeof won);
    int32_t *queue = malloc(states * sizeof *queue * 2);
    ck_assert_ptr_nonnull(queue);
    size_t head = 0, tail = 0;
    int start = -1;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            if (m->kind[r][c] == 'B') start = r * n + c;
    ck_assert_int_ge(start, 0);
    ref_seen[(size_t)start * REF_BOARDS] = gen;
    queue[tail++] = start;
    queue[tail++] = 0;
    while (head < tail) {
        int cell = queue[head++], board = queue[head++];
        if (ref_wins(board)) {
            won[board] = 1;
            continue; /* the game is over: the walk goes no further */
        }
        int r = cell / n, c = cell % n;
        static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
        for (int k = 0; k < 4; k++) {
            int nr = r + dr[k], nc = c + dc[k];
            if (nr < 0 || nr >= n || nc < 0 || nc >= n || m->kind[nr][nc] == '#') continue;
            int next = board;
            char kind = m->kind[nr][nc];
            if (kind == 'M' || kind == 'O') {
                int s = m->square[nr][nc];
                if ((board / ref_pow3[s]) % 3 == 0)
                    next = board + (kind == 'M' ? 1 : 2) * ref_pow3[s];
            }
            size_t at = (size_t)(nr * n + nc) * REF_BOARDS + (size_t)next;
            if (ref_seen[at] == gen) continue;
            ref_seen[at] = gen;
            queue[tail++] = nr * n + nc;
            queue[tail++] = next;
        }
    }
    free(queue);
    size_t count = 0;
    for (int b = 0; b < REF_BOARDS; b++)
        if (won[b]) ref_board_text(b, wins[count++]);
    qsort(wins, count, sizeof wins[0], cmp_text);
    return count;
}

/* ---- building mazes ---------------------------------------------------------------------- */

/* Parses N lines of 3N characters into the reference maze (the test's own parser). */
static void ref_from_lines(ref_maze *m, int n, const char *const *lines)
{
    memset(m, 0, sizeof *m);
    m->n = n;
    for (int r = 0; r < n; r++) {
        quiet_assert_int_eq((int)strlen(lines[r]), 3 * n);
        snprintf(m->line[r], MAX_LINE, "%s", lines[r]);
        for (int c = 0; c < n; c++) {
            const char *t = lines[r] + 3 * c;
            if (t[0] == 'M' || t[0] == 'O') {
                m->kind[r][c] = t[0];
                m->square[r][c] = 3 * (t[1] - '1') + (t[2] - '1');
            } else {
                m->kind[r][c] = t[0] == 'B' ? 'B' : t[0];
            }
        }
    }
}

/* The solver's input, by the cell-code formula documented in maze_tac_toe.h. */
static void solver_input(const ref_maze *m, unsigned char *cells, maze_tac_toe_maze *out)
{
    int n = m->n;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            char k = m->kind[r][c];
            unsigned char code = MAZE_TAC_TOE_WALL;
            if (k == '.' || k == 'B') code = MAZE_TAC_TOE_OPEN;
            if (k == 'M' || k == 'O')
                code = (unsigned char)(MAZE_TAC_TOE_MOVE + 2 * m->square[r][c] + (k == 'O'));
            cells[r * n + c] = code;
            if (k == 'B') {
                out->start_row = r;
                out->start_col = c;
            }
        }
    out->n = n;
    out->cells = cells;
}

/* Runs both searches and checks that they agree board for board; returns the count. */
static size_t check_agreement(const ref_maze *m)
{
    static char expected[REF_BOARDS][10];
    size_t want = ref_search(m, expected);

    static unsigned char cells[100 * 100];
    maze_tac_toe_maze maze;
    solver_input(m, cells, &maze);
    budget b;
    budget_init_unlimited(&b);
    maze_tac_toe_result res;
    ck_assert_int_eq(maze_tac_toe_solve(&maze, true, &b, &res), MAZE_TAC_TOE_OK);
    ck_assert_uint_eq(res.count, want);
    for (size_t i = 0; i < want; i++) {
        char rows[3][4], text[10];
        maze_tac_toe_board_rows(res.boards[i], rows);
        snprintf(text, sizeof text, "%s%s%s", rows[0], rows[1], rows[2]);
        quiet_assert_str_eq(text, expected[i]); /* same set, and the solver's order is strcmp's */
    }
    maze_tac_toe_result_free(&res);

    /* Without the list, the count alone. */
    ck_assert_int_eq(maze_tac_toe_solve(&maze, false, &b, &res), MAZE_TAC_TOE_OK);
    ck_assert_uint_eq(res.count, want);
    ck_assert_ptr_null(res.boards);
    return want;
}

static size_t check_lines(int n, const char *const *lines)
{
    static ref_maze m;
    ref_from_lines(&m, n, lines);
    return check_agreement(&m);
}

/* xorshift64*: fixed seeds, so a failure can be replayed. */
static uint64_t rng_state;
static uint32_t rng_next(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 2685821657736338717ULL) >> 32);
}
static int rng_below(int k)
{
    return (int)(rng_next() % (uint32_t)k);
}

static void random_maze(ref_maze *m, int n, int wall_pct, int empty_pct, int piece_pool)
{
    memset(m, 0, sizeof *m);
    m->n = n;
    int pool[18];
    for (int p = 0; p < 18; p++) pool[p] = p;
    for (int p = 17; p > 0; p--) { /* a random subset of the 18 pieces, of size piece_pool */
        int q = rng_below(p + 1), t = pool[p];
        pool[p] = pool[q];
        pool[q] = t;
    }
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            if (r == 0 || c == 0 || r == n - 1 || c == n - 1) {
                m->kind[r][c] = '#';
                continue;
            }
            int roll = rng_below(100);
            if (roll < wall_pct) {
                m->kind[r][c] = '#';
            } else if (roll < wall_pct + empty_pct) {
                m->kind[r][c] = '.';
            } else {
                int p = pool[rng_below(piece_pool)];
                m->kind[r][c] = (p & 1) ? 'O' : 'M';
                m->square[r][c] = p >> 1;
            }
        }
    m->kind[1 + rng_below(n - 2)][1 + rng_below(n - 2)] = 'B';
}

/* ---- tests ------------------------------------------------------------------------------- */

START_TEST(win_table_matches_letters)
{
    for (unsigned b = 0; b < REF_BOARDS; b++) {
        char rows[3][4], text[10];
        maze_tac_toe_board_rows(b, rows);
        snprintf(text, sizeof text, "%s%s%s", rows[0], rows[1], rows[2]);
        /* the reference encodes square s with weight 3^s: convert the text back */
        int ref = 0;
        for (int s = 8; s >= 0; s--) ref = ref * 3 + (text[s] == '.' ? 0 : text[s] == 'M' ? 1 : 2);
        quiet_assert_int_eq(maze_tac_toe_is_win(b), ref_wins(ref));
        if (b > 0) { /* numeric order is text order */
            char prev_rows[3][4], prev[10];
            maze_tac_toe_board_rows(b - 1, prev_rows);
            snprintf(prev, sizeof prev, "%s%s%s", prev_rows[0], prev_rows[1], prev_rows[2]);
            quiet_assert_int_lt(strcmp(prev, text), 0);
        }
    }
    ck_assert(!maze_tac_toe_is_win(REF_BOARDS));
}
END_TEST

START_TEST(cell_codes)
{
    bool start;
    ck_assert_int_eq(maze_tac_toe_cell_code("###", &start), MAZE_TAC_TOE_WALL);
    ck_assert(!start);
    ck_assert_int_eq(maze_tac_toe_cell_code("...", &start), MAZE_TAC_TOE_OPEN);
    ck_assert(!start);
    ck_assert_int_eq(maze_tac_toe_cell_code("BBB", &start), MAZE_TAC_TOE_OPEN);
    ck_assert(start);
    for (int i = 1; i <= 3; i++)
        for (int j = 1; j <= 3; j++) {
            char m[4] = {'M', (char)('0' + i), (char)('0' + j), 0};
            char o[4] = {'O', (char)('0' + i), (char)('0' + j), 0};
            int sq = 3 * (i - 1) + (j - 1);
            ck_assert_int_eq(maze_tac_toe_cell_code(m, &start), MAZE_TAC_TOE_MOVE + 2 * sq);
            ck_assert_int_eq(maze_tac_toe_cell_code(o, &start), MAZE_TAC_TOE_MOVE + 2 * sq + 1);
        }
    static const char *const bad[] = {"M00", "M14", "O41", "X11", "m11",  "o22", "##.",
                                      "BB.", "O3 ", "..#", "B11", "M1\0", "   "};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        ck_assert_int_eq(maze_tac_toe_cell_code(bad[k], &start), -1);
}
END_TEST

START_TEST(contest_sample_gives_eight)
{
    static const char *const sample[] = {
        "#####################", "###O11###...###M13###", "###......O22......###",
        "###...######M22######", "###BBB###M31###M11###", "###...O32...M33O31###",
        "#####################",
    };
    ck_assert_uint_eq(check_lines(7, sample), 8);
}
END_TEST

/* The reference search finds exactly one winning board, `want`, and the solver agrees. */
static void check_single_win(int n, const char *const *lines, const char *want)
{
    static char expected[REF_BOARDS][10];
    static ref_maze m;
    ref_from_lines(&m, n, lines);
    ck_assert_uint_eq(ref_search(&m, expected), 1);
    ck_assert_str_eq(expected[0], want);
    ck_assert_uint_eq(check_agreement(&m), 1);
}

START_TEST(same_board_by_many_paths_counts_once)
{
    /* M11, O12, O13 twice each, all around the start: six orders, many cells, one board. */
    static const char *const maze[] = {
        "###############", "###M11O12O13###", "###...BBB...###",
        "###O13O12M11###", "###############",
    };
    ck_assert_uint_eq(check_lines(5, maze), 1);
}
END_TEST

START_TEST(first_win_stops_the_walk_at_once)
{
    /* A corridor: the third placement wins (row 1 reads MOO) at once, so the M21 and O31 beyond
     * it never land. */
    static const char *const maze[] = {
        "#####################", "###BBBM11O12O13M21###", "###############O31###",
        "#####################", "#####################", "#####################",
        "#####################",
    };
    check_single_win(7, maze, "MOO......");
}
END_TEST

START_TEST(taken_square_is_walked_over)
{
    /* After M11 the O11 cell places nothing; O12, O13 then spell MOO. A solver that overwrote
     * square 11 would reach OOO in row 1 and no win at all. */
    static const char *const maze[] = {
        "##################", "###BBBM11O11O12###", "############O13###",
        "##################", "##################", "##################",
    };
    check_single_win(6, maze, "MOO......");
}
END_TEST

START_TEST(a_win_blocks_a_later_different_win)
{
    /* O21, O31, M11 spell MOO down column 1 and stop the game, so O12, O13 (which would spell
     * MOO along row 1) are never placed: one board, not two. */
    static const char *const maze[] = {
        "#####################", "###BBBO21O31M11O12###", "###############O13###",
        "#####################", "#####################", "#####################",
        "#####################",
    };
    check_single_win(7, maze, "M..O..O..");
}
END_TEST

START_TEST(oom_on_both_diagonals)
{
    /* a = O11, b = O22, c = M33, d = O13, e = M31, all reachable in any order. Wins: abc (OOM
     * down the main diagonal) and dbe (OOM from the top right). The first win ends the game, so
     * the winning sets are abc, abcd, abce, abcde, bde, abde, bcde: seven boards. */
    static const char *const maze[] = {
        "###############", "###O11O22M33###", "###.........###",
        "###O13BBBM31###", "###############",
    };
    ck_assert_uint_eq(check_lines(5, maze), 7);
    /* OOM on the anti-diagonal alone, read from (1,3) down to (3,1). */
    static const char *const anti[] = {
        "###############", "###O13O22M31###", "###...BBB...###",
        "###...###...###", "###############",
    };
    static char expected[REF_BOARDS][10];
    static ref_maze m;
    ref_from_lines(&m, 5, anti);
    ck_assert_uint_eq(ref_search(&m, expected), 1);
    ck_assert_str_eq(expected[0], "..O.O.M..");
    ck_assert_uint_eq(check_agreement(&m), 1);
}
END_TEST

START_TEST(random_mazes_agree_with_literal_search)
{
    static ref_maze m;
    static const int walls[] = {0, 10, 25, 40};
    static const int empties[] = {0, 15, 40};
    static const int pools[] = {18, 12, 8, 5};
    rng_state = 0x9e3779b97f4a7c15ULL + (uint64_t)_i;
    size_t nonzero = 0, total = 0, boards = 0;
    for (int k = 0; k < 250; k++) {
        int n = k % 10 == 0 ? 3 + rng_below(2) : 5 + rng_below(6); /* mostly 5..10, some 3..4 */
        random_maze(&m, n, walls[rng_below(4)], empties[rng_below(3)], pools[rng_below(4)]);
        size_t count = check_agreement(&m);
        nonzero += count > 0;
        boards += count;
        total++;
    }

    /* The generator must produce real games, not only empty ones. */
    ck_assert_uint_gt(nonzero, total / 4);
    ck_assert_uint_gt(boards, 5 * total);
}
END_TEST

START_TEST(zero_budget_stops)
{
    static const char *const sample[] = {
        "#####################", "###O11###...###M13###", "###......O22......###",
        "###...######M22######", "###BBB###M31###M11###", "###...O32...M33O31###",
        "#####################",
    };
    static ref_maze m;
    ref_from_lines(&m, 7, sample);
    static unsigned char cells[49];
    maze_tac_toe_maze maze;
    solver_input(&m, cells, &maze);
    budget b;
    budget_init_ms(&b, 0, NULL);
    maze_tac_toe_result res;
    ck_assert_int_eq(maze_tac_toe_solve(&maze, true, &b, &res), MAZE_TAC_TOE_TIME_LIMIT);
    ck_assert_uint_eq(res.count, 0);
    ck_assert_ptr_null(res.boards);
}
END_TEST

START_TEST(unusable_input_is_refused)
{
    unsigned char cells[9] = {0, 0, 0, 0, MAZE_TAC_TOE_OPEN, 0, 0, 0, 0};
    maze_tac_toe_maze maze = {3, cells, 1, 1};
    budget b;
    budget_init_unlimited(&b);
    maze_tac_toe_result res;
    ck_assert_int_eq(maze_tac_toe_solve(&maze, false, &b, &res), MAZE_TAC_TOE_OK);
    ck_assert_uint_eq(res.count, 0);
    maze.start_row = 0; /* on a wall */
    ck_assert_int_eq(maze_tac_toe_solve(&maze, false, &b, &res), MAZE_TAC_TOE_BAD_MAZE);
    maze.start_row = 3;
    ck_assert_int_eq(maze_tac_toe_solve(&maze, false, &b, &res), MAZE_TAC_TOE_BAD_MAZE);
    maze.start_row = 1;
    maze.n = 2;
    ck_assert_int_eq(maze_tac_toe_solve(&maze, false, &b, &res), MAZE_TAC_TOE_BAD_MAZE);
    maze.n = 3;
    cells[0] = MAZE_TAC_TOE_CELL_CODES;
    ck_assert_int_eq(maze_tac_toe_solve(&maze, false, &b, &res), MAZE_TAC_TOE_BAD_MAZE);
    /* An open border (the API refuses it; the solver must still stay inside its arrays). */
    unsigned char open[9] = {1, 1, 1, 1, 1, 1, 1, 1, MAZE_TAC_TOE_MOVE};
    maze_tac_toe_maze border = {3, open, 1, 1};
    ck_assert_int_eq(maze_tac_toe_solve(&border, false, &b, &res), MAZE_TAC_TOE_OK);
    ck_assert_uint_eq(res.count, 0);
}
END_TEST

/* Reads "<name>.in" in the contest format and "<name>.out". */
static bool read_case(const char *name, ref_maze *m, long *answer)
{
    char path[512];
    snprintf(path, sizeof path, "%s/maze-tac-toe/%s.in", PUZZLED_TEST_DATA, name);
    FILE *f = fopen(path, "r");
    if (!f) return false;
    int n = 0;
    ck_assert_int_eq(fscanf(f, "%d", &n), 1);
    ck_assert(n >= 3 && n <= 100);
    static char buf[100][MAX_LINE];
    const char *lines[100];
    for (int r = 0; r < n; r++) {
        ck_assert_int_eq(fscanf(f, "%511s", buf[r]), 1);
        lines[r] = buf[r];
    }
    fclose(f);
    ref_from_lines(m, n, lines);
    snprintf(path, sizeof path, "%s/maze-tac-toe/%s.out", PUZZLED_TEST_DATA, name);
    f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fscanf(f, "%ld", answer), 1);
    fclose(f);
    return true;
}

START_TEST(testdata_answers)
{
    /* Every <name>.in of the shared data, whatever is there. */
    DIR *dir = opendir(PUZZLED_TEST_DATA "/maze-tac-toe");
    ck_assert_ptr_nonnull(dir);
    static ref_maze m;
    static unsigned char cells[100 * 100];
    int cases = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".in") != 0) continue;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(len - 3), e->d_name);
        long answer = -1;
        ck_assert_msg(read_case(name, &m, &answer), "cannot read case %s", name);
        maze_tac_toe_maze maze;
        solver_input(&m, cells, &maze);
        budget b;
        budget_init_unlimited(&b);
        maze_tac_toe_result res;
        ck_assert_int_eq(maze_tac_toe_solve(&maze, false, &b, &res), MAZE_TAC_TOE_OK);
        ck_assert_msg((long)res.count == answer, "%s: %zu, expected %ld", name, res.count, answer);
        cases++;
    }
    closedir(dir);
    ck_assert_int_ge(cases, 13);
}
END_TEST

int main(void)
{
    ref_pow3[0] = 1;
    for (int i = 1; i < 10; i++) ref_pow3[i] = ref_pow3[i - 1] * 3;
    Suite *s = suite_create("maze_tac_toe");
    TCase *tc = tcase_create("maze_tac_toe");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, win_table_matches_letters);
    tcase_add_test(tc, cell_codes);
    tcase_add_test(tc, contest_sample_gives_eight);
    tcase_add_test(tc, same_board_by_many_paths_counts_once);
    tcase_add_test(tc, first_win_stops_the_walk_at_once);
    tcase_add_test(tc, taken_square_is_walked_over);
    tcase_add_test(tc, a_win_blocks_a_later_different_win);
    tcase_add_test(tc, oom_on_both_diagonals);
    tcase_add_loop_test(tc, random_mazes_agree_with_literal_search, 0, 16);
    tcase_add_test(tc, zero_budget_stops);
    tcase_add_test(tc, unusable_input_is_refused);
    tcase_add_test(tc, testdata_answers);
    suite_add_tcase(s, tc);
    int status = check_run(s);
    free(ref_seen);
    return status;
}
