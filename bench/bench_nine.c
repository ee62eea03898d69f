/* 9-Nine benchmark: random solvable states (every orbit's ones placed uniformly among its cells
 * of A and B), fixed seed. Reports move counts and solve times; checks every answer by replay.
 * Usage: bench_nine [count9 [seed [improve_ms]]]; NINE_BEAM="width,per_node" overrides the beam. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_clock.h"

#include "budget.h"
#include "nine.h"
#include "nine_macro.h"
#include "nine_small.h"

static uint64_t rng_state;
static long improve_ms = -1; /* -1: the default */

static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void random_solvable(nine_board *bd, int n)
{
    bd->n = n;
    for (int i = 0; i < n; i++) bd->a[i] = bd->b[i] = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int cells[4][2], k = nine_orbit_cells(n, i, j, cells);
            bool first = true;
            for (int t = 0; t < k; t++)
                if (cells[t][0] * n + cells[t][1] < i * n + j) first = false;
            if (!first) continue;
            int slots[8], ones = 0;
            for (int t = 0; t < 2 * k; t++) slots[t] = t;
            for (int t = 2 * k - 1; t > 0; t--) { /* shuffle, the first k hold ones */
                int u = (int)(rnd() % (uint64_t)(t + 1)), x = slots[t];
                slots[t] = slots[u];
                slots[u] = x;
            }
            for (; ones < k; ones++) {
                int s = slots[ones], t = s % k;
                uint64_t *m = s < k ? bd->a : bd->b;
                m[cells[t][0]] |= (uint64_t)1 << cells[t][1];
            }
        }
}

static double total_cpu_ms;

/* Solves one state; returns moves (-1 when wrong) and adds the time to *ms. */
static long run(const nine_board *bd, double *ms)
{
    budget b;
    budget_init_ms(&b, 10000, NULL);
    nine_solution s;
    double t0 = now_ms(), c0 = cpu_ms();
    nine_options opt;
    nine_options_default(&opt);
    if (improve_ms >= 0) opt.improve_ms = improve_ms;
    const char *env = getenv("NINE_BEAM"); /* tuning: "width,per_node" */
    if (env) sscanf(env, "%d,%d", &opt.beam_width, &opt.beam_per_node);
    nine_status st = nine_solve_ex(bd, -1, &opt, &b, &s);
    *ms = now_ms() - t0;
    total_cpu_ms += cpu_ms() - c0;
    long count = (long)s.move_count;
    nine_board w = *bd;
    for (size_t t = 0; t < s.move_count; t++) nine_board_apply(&w, s.moves[t]);
    if (st != NINE_OK || !nine_board_is_goal(&w)) count = -1;
    nine_solution_free(&s);
    return count;
}

int main(int argc, char **argv)
{
    int count = argc > 1 ? atoi(argv[1]) : 1000;
    rng_state = argc > 2 ? strtoull(argv[2], NULL, 10) : 20250921;
    if (argc > 3) improve_ms = atol(argv[3]);
    double t0 = now_ms();
    long states;
    int maxd;
    nine_small_stats(3, &states, &maxd);
    printf("n=3 table: %ld states, max distance %d, built in %.1f ms\n", states, maxd,
           now_ms() - t0);

    t0 = now_ms();
    const nine_library *lib = nine_library_get(9);
    printf("n=9 macro library: %d macros, built in %.1f ms (once per process)\n", lib->count,
           now_ms() - t0);

    long sum = 0, worst = 0, bad = 0;
    double sum_ms = 0, worst_ms = 0;
    for (int k = 0; k < count; k++) {
        nine_board bd;
        random_solvable(&bd, 9);
        double ms;
        long moves = run(&bd, &ms);
        if (moves < 0) bad++;
        sum += moves;
        if (moves > worst) worst = moves;
        sum_ms += ms;
        if (ms > worst_ms) worst_ms = ms;
    }
    printf("n=9: %d states, mean %.2f moves, max %ld, mean %.2f ms, max %.2f ms (wall), mean %.2f "
           "ms CPU, wrong %ld\n",
           count, (double)sum / count, worst, sum_ms / count, worst_ms, total_cpu_ms / count, bad);
    int sizes[] = {4, 5, 16, 32, 64};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        nine_board bd;
        random_solvable(&bd, sizes[k]);
        double ms;
        long moves = run(&bd, &ms);
        printf("n=%d: one state, %ld moves, %.1f ms, A held %d ones\n", sizes[k], moves, ms,
               nine_board_ones_a(&bd));
    }
    return bad ? 1 : 0;
}
