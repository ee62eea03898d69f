/* Rubik's Rectangle benchmark: move-list length on 100 x 100 boards scrambled by 4 000 random
 * flips, and time and memory on a scrambled 1000 x 1000 board (solver alone, then the whole API
 * path: parse + solve, and streaming the JSON answer into a sink).
 *
 *   build/bench/bench_rubiks_rectangle [boards=50] [big_flips=40000]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench_clock.h"
#include "bench_rubiks_rectangle_boards.h"

#include "answer.h"
#include "rubiks_rectangle.h"

extern const api_puzzle codec_rubiks_rectangle;

static bool sorts(const int32_t *cells, int h, int w, const rubiks_rectangle_answer *a)
{
    size_t n = (size_t)h * w;
    int32_t *copy = malloc(n * sizeof *copy);
    memcpy(copy, cells, n * sizeof *copy);
    for (size_t i = 0; i < a->move_count; i++) flip(copy, h, w, a->moves[i]);
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) ok = copy[i] == (int32_t)(i + 1);
    free(copy);
    return ok;
}

/* The board as a JSON request body. */
static char *json_body(const int32_t *cells, int h, int w, size_t *len)
{
    size_t cap = (size_t)h * w * 9 + 64, n = 0;
    char *s = malloc(cap);
    n += (size_t)sprintf(s + n, "{\"board\":[");
    for (int i = 0; i < h; i++) {
        s[n++] = i ? ',' : '[';
        if (i) s[n++] = '[';
        for (int j = 0; j < w; j++)
            n += (size_t)sprintf(s + n, j ? ",%d" : "%d", cells[(size_t)i * w + j]);
        s[n++] = ']';
    }
    n += (size_t)sprintf(s + n, "]}");
    *len = n;
    return s;
}

int main(int argc, char **argv)
{
    int boards = argc > 1 ? atoi(argv[1]) : 50;
    long big_flips = argc > 2 ? atol(argv[2]) : 40000;
    budget b;

    /* The first solve of a process builds the shared row-sequence tables. */
    {
        const int32_t tiny[] = {4, 3, 2, 1};
        rubiks_rectangle_board board = {2, 2, tiny};
        rubiks_rectangle_answer a;
        budget_init_unlimited(&b);
        double t0 = now_ms(), c0 = cpu_ms();
        rubiks_rectangle_solve(&board, &b, &a);
        printf("first solve (builds the shared tables): %.1f ms (cpu %.1f ms)\n", now_ms() - t0,
               cpu_ms() - c0);
        rubiks_rectangle_answer_free(&a);
    }

    /* The first board of moderate size builds the four-pair tables; a fixed seed of its own, so
     * the boards below are the same as without it. */
    {
        uint64_t saved = rng_state;
        rng_state = 0x243F6A8885A308D3ull;
        int32_t *cells = scrambled(40, 40, 1600);
        rng_state = saved;
        rubiks_rectangle_board board = {40, 40, cells};
        rubiks_rectangle_answer a;
        budget_init_unlimited(&b);
        double t0 = now_ms(), c0 = cpu_ms();
        rubiks_rectangle_solve(&board, &b, &a);
        double first_ms = now_ms() - t0, first_cpu = cpu_ms() - c0;
        rubiks_rectangle_answer_free(&a);
        budget_init_unlimited(&b);
        t0 = now_ms(), c0 = cpu_ms();
        rubiks_rectangle_solve(&board, &b, &a);
        printf("first 40x40 board (builds the four-pair tables): %.1f ms (cpu %.1f ms); the same "
               "board again: %.1f ms (cpu %.1f ms), %zu flips\n",
               first_ms, first_cpu, now_ms() - t0, cpu_ms() - c0, a.move_count);
        bool ok = sorts(cells, 40, 40, &a);
        rubiks_rectangle_answer_free(&a);
        free(cells);
        if (!ok) {
            fprintf(stderr, "40x40 board: not solved\n");
            return 1;
        }
    }

    /* 100 x 100, 4 000 random flips. */
    double flips_sum = 0, ms_sum = 0, cpu_sum = 0;
    size_t worst = 0, best = (size_t)-1;
    for (int k = 0; k < boards; k++) {
        int32_t *cells = scrambled(100, 100, 4000);
        rubiks_rectangle_board board = {100, 100, cells};
        rubiks_rectangle_answer a;
        budget_init_unlimited(&b);
        double t0 = now_ms(), c0 = cpu_ms();
        rubiks_rectangle_status st = rubiks_rectangle_solve(&board, &b, &a);
        ms_sum += now_ms() - t0;
        cpu_sum += cpu_ms() - c0;
        if (st != RUBIKS_RECTANGLE_OK || !a.solvable || !sorts(cells, 100, 100, &a)) {
            fprintf(stderr, "100x100 board %d: not solved\n", k);
            return 1;
        }
        flips_sum += (double)a.move_count;
        if (a.move_count > worst) worst = a.move_count;
        if (a.move_count < best) best = a.move_count;
        rubiks_rectangle_answer_free(&a);
        free(cells);
    }
    printf("100x100, 4000 random flips, %d boards: mean %.1f flips (min %zu, max %zu), "
           "mean solve %.2f ms (cpu %.2f ms)\n",
           boards, flips_sum / boards, best, worst, ms_sum / boards, cpu_sum / boards);

    /* Other sizes and shapes, scrambled by 40 flips per line. */
    static const int shapes[][2] = {{200, 200}, {400, 400}, {401, 401}, {700, 700},
                                    {20, 1000}, {1000, 20}, {3, 1000}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        int h = shapes[k][0], w = shapes[k][1];
        long flips = 40L * (h + w) / 2;
        int32_t *cells = scrambled(h, w, flips);
        rubiks_rectangle_board board = {h, w, cells};
        rubiks_rectangle_answer a;
        budget_init_unlimited(&b);
        double t0 = now_ms(), c0 = cpu_ms();
        rubiks_rectangle_status st = rubiks_rectangle_solve(&board, &b, &a);
        double wall = now_ms() - t0, cpu = cpu_ms() - c0;
        if (st != RUBIKS_RECTANGLE_OK || !a.solvable || !sorts(cells, h, w, &a)) {
            fprintf(stderr, "%dx%d: not solved\n", h, w);
            return 1;
        }
        printf("%dx%d, %ld random flips: solver %.1f ms (cpu %.1f ms), %zu flips (%.3f per 4-cell "
               "orbit)\n",
               h, w, flips, wall, cpu, a.move_count,
               (double)a.move_count / ((double)(h / 2) * (w / 2)));
        rubiks_rectangle_answer_free(&a);
        free(cells);
    }

    /* 1000 x 1000. */
    int32_t *cells = scrambled(1000, 1000, big_flips);
    rubiks_rectangle_board board = {1000, 1000, cells};
    rubiks_rectangle_answer a;
    budget_init_unlimited(&b);
    double t0 = now_ms(), c0 = cpu_ms();
    rubiks_rectangle_status st = rubiks_rectangle_solve(&board, &b, &a);
    double solve_ms = now_ms() - t0, solve_cpu = cpu_ms() - c0;
    if (st != RUBIKS_RECTANGLE_OK || !a.solvable || !sorts(cells, 1000, 1000, &a)) {
        fprintf(stderr, "1000x1000: not solved\n");
        return 1;
    }
    printf("1000x1000, %ld random flips: solver %.1f ms (cpu %.1f ms), %zu flips (%.3f per 4-cell "
           "orbit)\n",
           big_flips, solve_ms, solve_cpu, a.move_count, a.move_count / 250000.0);
    rubiks_rectangle_answer_free(&a);

    size_t len;
    char *body = json_body(cells, 1000, 1000, &len);
    free(cells);
    api_error err;
    budget_init_unlimited(&b);
    t0 = now_ms();
    c0 = cpu_ms();
    api_answer *ans =
        api_answer_solve(&codec_rubiks_rectangle, API_FORMAT_JSON, body, len, &b, &err);
    double api_ms = now_ms() - t0, api_cpu = cpu_ms() - c0;
    free(body);
    if (!ans) {
        fprintf(stderr, "api: %s\n", err.message);
        return 1;
    }
    static char sink[64 * 1024];
    size_t total = 0, got;
    t0 = now_ms();
    c0 = cpu_ms();
    while ((got = api_answer_read(ans, sink, sizeof sink)) > 0) total += got;
    double encode_ms = now_ms() - t0, encode_cpu = cpu_ms() - c0;
    api_answer_free(ans);
    printf("1000x1000 through the API (JSON body %zu bytes): parse + solve %.1f ms (cpu %.1f ms), "
           "encode %.1f ms (cpu %.1f ms, %zu answer bytes)\n",
           len, api_ms, api_cpu, encode_ms, encode_cpu, total);
    printf("peak RSS %ld KiB\n", peak_rss_kib());
    return 0;
}
