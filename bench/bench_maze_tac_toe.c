/* Maze Tac Toe benchmark: dense random mazes (every open cell a move) of N = 25 and N = 100, and
 * a half-empty N = 100 maze (the flood fills cover the most ground there), fixed seeds.
 *
 * Prints, per maze: the count, the solver's time (best and median of several runs, count only
 * and with the board list), the whole API path (text parse + solve + streamed answer), and the
 * process's peak RSS after it. At N = 25 it also runs a plain (cell, board) breadth-first search
 * as the baseline the brief quotes, and checks that it gives the same count.
 *
 * Run: build/bench/bench_maze_tac_toe [runs]   (default 9 runs) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench_clock.h"

#include "answer.h"
#include "maze_tac_toe.h"

extern const api_puzzle codec_maze_tac_toe;

static uint64_t rng_state;
static uint32_t rng_next(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 2685821657736338717ULL) >> 32);
}

/* The maze as contest text; empty_pct of the interior is "...", the rest random moves. */
static char *make_maze(int n, uint64_t seed, int empty_pct)
{
    rng_state = seed;
    size_t cap = 16 + (size_t)n * (3 * (size_t)n + 1);
    char *text = malloc(cap);
    int len = snprintf(text, cap, "%d\n", n);
    int sr = 1 + (int)(rng_next() % (uint32_t)(n - 2)),
        sc = 1 + (int)(rng_next() % (uint32_t)(n - 2));
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) {
            char *t = text + len;
            if (r == 0 || c == 0 || r == n - 1 || c == n - 1)
                memcpy(t, "###", 3);
            else if (r == sr && c == sc)
                memcpy(t, "BBB", 3);
            else if ((int)(rng_next() % 100) < empty_pct)
                memcpy(t, "...", 3);
            else {
                uint32_t p = rng_next() % 18;
                t[0] = (p & 1) ? 'O' : 'M';
                t[1] = (char)('1' + (p >> 1) / 3);
                t[2] = (char)('1' + (p >> 1) % 3);
            }
            len += 3;
        }
        text[len++] = '\n';
    }
    text[len] = '\0';
    return text;
}

/* The text maze as solver input (the bench trusts its own generator). */
static void to_cells(const char *text, unsigned char *cells, maze_tac_toe_maze *m)
{
    int n = (int)strtol(text, NULL, 10);
    const char *p = strchr(text, '\n') + 1;
    for (int r = 0; r < n; r++, p += 3 * n + 1)
        for (int c = 0; c < n; c++) {
            bool start = false;
            cells[r * n + c] = (unsigned char)maze_tac_toe_cell_code(p + 3 * c, &start);
            if (start) {
                m->start_row = r;
                m->start_col = c;
            }
        }
    m->n = n;
    m->cells = cells;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A plain search over (cell, board), full visited bitset: the baseline. */
static size_t plain_search(const maze_tac_toe_maze *m)
{
    int n = m->n;
    size_t states = (size_t)n * n * MAZE_TAC_TOE_BOARDS;
    uint8_t *seen = calloc((states + 7) / 8, 1);
    uint8_t *won = calloc(MAZE_TAC_TOE_BOARDS, 1);
    uint32_t *queue = malloc(states * sizeof *queue); /* cell * 3^9 + board */
    static const unsigned weight[9] = {6561, 2187, 729, 243, 81, 27, 9, 3, 1};
    size_t head = 0, tail = 0, count = 0;
    size_t s0 = (size_t)(m->start_row * n + m->start_col) * MAZE_TAC_TOE_BOARDS;
    seen[s0 / 8] |= (uint8_t)(1u << (s0 % 8));
    queue[tail++] = (uint32_t)s0;
    const int step[4] = {1, -1, n, -n};
    while (head < tail) {
        uint32_t st = queue[head++];
        unsigned cell = st / MAZE_TAC_TOE_BOARDS, board = st % MAZE_TAC_TOE_BOARDS;
        if (maze_tac_toe_is_win(board)) {
            count += !won[board];
            won[board] = 1;
            continue;
        }
        for (int k = 0; k < 4; k++) {
            int next = (int)cell + step[k];
            unsigned code = m->cells[next];
            if (code == MAZE_TAC_TOE_WALL) continue;
            unsigned nb = board;
            if (code >= MAZE_TAC_TOE_MOVE) {
                unsigned p = code - MAZE_TAC_TOE_MOVE, w = weight[p >> 1];
                if ((board / w) % 3 == 0) nb += ((p & 1) + 1) * w;
            }
            size_t s = (size_t)next * MAZE_TAC_TOE_BOARDS + nb;
            if (seen[s / 8] & (1u << (s % 8))) continue;
            seen[s / 8] |= (uint8_t)(1u << (s % 8));
            queue[tail++] = (uint32_t)s;
        }
    }
    free(seen);
    free(won);
    free(queue);
    return count;
}

static void bench_maze(const char *label, int n, uint64_t seed, int empty_pct, int runs,
                       bool with_plain)
{
    char *text = make_maze(n, seed, empty_pct);
    unsigned char *cells = malloc((size_t)n * n);
    maze_tac_toe_maze m;
    to_cells(text, cells, &m);
    double t_count[64], t_boards[64], t_api[64];
    size_t count = 0;
    for (int k = 0; k < runs; k++) {
        budget b;
        budget_init_unlimited(&b);
        maze_tac_toe_result res;
        double t0 = now_ms();
        if (maze_tac_toe_solve(&m, false, &b, &res) != MAZE_TAC_TOE_OK) abort();
        t_count[k] = now_ms() - t0;
        count = res.count;
        t0 = now_ms();
        if (maze_tac_toe_solve(&m, true, &b, &res) != MAZE_TAC_TOE_OK) abort();
        t_boards[k] = now_ms() - t0;
        if (res.count != count) abort();
        maze_tac_toe_result_free(&res);

        /* The API path: parse the contest text, solve, stream the answer out. */
        api_error err;
        char buf[4096];
        t0 = now_ms();
        api_answer *a =
            api_answer_solve(&codec_maze_tac_toe, API_FORMAT_TEXT, text, strlen(text), &b, &err);
        if (!a) abort();
        while (api_answer_read(a, buf, sizeof buf)) {
        }
        api_answer_free(a);
        t_api[k] = now_ms() - t0;
    }
    qsort(t_count, (size_t)runs, sizeof(double), cmp_double);
    qsort(t_boards, (size_t)runs, sizeof(double), cmp_double);
    qsort(t_api, (size_t)runs, sizeof(double), cmp_double);
    printf("%-28s N=%3d seed=%#llx count=%zu\n", label, n, (unsigned long long)seed, count);
    printf("  solver, count only : best %.3f ms, median %.3f ms\n", t_count[0], t_count[runs / 2]);
    printf("  solver, with boards: best %.3f ms, median %.3f ms\n", t_boards[0],
           t_boards[runs / 2]);
    printf("  API text path      : best %.3f ms, median %.3f ms\n", t_api[0], t_api[runs / 2]);
    printf("  peak RSS so far    : %ld KiB\n", peak_rss_kib());
    if (with_plain) {
        double t0 = now_ms();
        size_t plain = plain_search(&m);
        double t = now_ms() - t0;
        printf("  plain (cell, board) search: %.1f ms, count=%zu (%s), peak RSS now %ld KiB\n", t,
               plain, plain == count ? "agrees" : "DISAGREES", peak_rss_kib());
        if (plain != count) exit(1);
    }
    free(cells);
    free(text);
}

int main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 9;
    if (runs < 1) runs = 1;
    if (runs > 64) runs = 64;
    printf("peak RSS at start: %ld KiB\n", peak_rss_kib());
    bench_maze("dense", 25, 0x2501, 0, runs, false);
    bench_maze("dense", 25, 0x2502, 0, runs, false);
    bench_maze("dense", 100, 0x10001, 0, runs, false);
    bench_maze("dense", 100, 0x10002, 0, runs, false);
    bench_maze("half empty", 100, 0x10003, 50, runs, false);
    /* Last, so that its memory does not hide the solver's peak above. */
    bench_maze("dense (with plain baseline)", 25, 0x2501, 0, 1, true);
    return 0;
}
