/* 9-Nine benchmark: random solvable states (every orbit's ones placed uniformly among its cells
 * of A and B), fixed seed. Reports move counts and solve times; checks every answer by replay.
 * Usage: bench_nine [count9 [seed [improve]]] (improve 0: the greedy construction alone);
 * NINE_BEAM="width,per_node,expansions", NINE_OPENING="width,percent",
 * NINE_TAIL="ones,per_bucket,forward" (ones 0: no exact tail) and NINE_POLISH="forward,window"
 * (window < 0: none) override the defaults; NINE_SIZES=0 skips the other sizes. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_clock.h"
#include "bench_nine_states.h"

#include "budget.h"
#include "nine.h"
#include "nine_macro.h"
#include "nine_small.h"
#include "nine_tail.h"

static int improve = 1;

static double total_cpu_ms, total_wall_ms;

/* Solves one state; returns moves (-1 when wrong), its thread CPU time in *ms. */
static long run(const nine_board *bd, double *ms)
{
    budget b;
    budget_init_ms(&b, 10000, NULL);
    nine_solution s;
    double t0 = now_ms(), c0 = cpu_ms();
    nine_options opt;
    nine_options_default(&opt, bd->n);
    opt.improve = improve != 0;
    const char *env = getenv("NINE_BEAM"); /* tuning: "width,per_node,expansions" */
    if (env) sscanf(env, "%d,%d,%ld", &opt.beam_width, &opt.beam_per_node, &opt.max_expansions);
    env = getenv("NINE_OPENING"); /* tuning: "width,percent" (width 0: none) */
    if (env) sscanf(env, "%d,%d", &opt.beam_opening_width, &opt.beam_opening_percent);
    env = getenv("NINE_TAIL"); /* tuning: "ones,per_bucket,forward" */
    if (env) sscanf(env, "%d,%d,%d", &opt.tail_ones, &opt.tail_per_bucket, &opt.tail_forward);
    opt.tail = opt.tail_ones > 0;
    env = getenv("NINE_POLISH"); /* tuning: "forward,window" (window < 0: none) */
    if (env) sscanf(env, "%d,%d", &opt.polish_forward, &opt.polish_window);
    nine_status st = nine_solve_ex(bd, -1, &opt, &b, &s);
    total_wall_ms += now_ms() - t0;
    *ms = cpu_ms() - c0;
    total_cpu_ms += *ms;
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
    if (argc > 3) improve = atoi(argv[3]);
    double t0 = now_ms();
    long states;
    int maxd;
    nine_small_stats(3, &states, &maxd);
    printf("n=3 table: %ld states, max distance %d, built in %.1f ms\n", states, maxd,
           now_ms() - t0);

    t0 = now_ms();
    const nine_library *lib = nine_library_get(9, NULL);
    printf("n=9 macro library: %d macros, built in %.1f ms (once per process)\n", lib->count,
           now_ms() - t0);

    for (int n = NINE_TAIL_MIN_N; n <= NINE_TAIL_MAX_N; n++) {
        double c0 = cpu_ms();
        const nine_tail *t = nine_tail_get(n, NULL);
        printf("n=%d tail ball: radius %d, %ld states, built in %.1f ms CPU (once per process)\n",
               n, nine_tail_radius(t), nine_tail_states(t), cpu_ms() - c0);
    }
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
    printf("n=9: %d states, mean %.2f moves, max %ld, mean %.2f ms, max %.2f ms (thread CPU), "
           "mean %.2f ms wall, wrong %ld\n",
           count, (double)sum / count, worst, sum_ms / count, worst_ms, total_wall_ms / count, bad);
    if (getenv("NINE_SIZES") && atoi(getenv("NINE_SIZES")) == 0) return bad ? 1 : 0;
    /* Other sizes, each from the same seed: n = 4..16 (not 9) 100 states each, 32 and 64 one. */
    for (int n = 4; n <= 64; n++) {
        if (n == 9 || (n > 16 && n != 32 && n != 64)) continue;
        int states_n = n <= 16 ? (n <= 8 ? 100 : 20) : 1;
        rng_state = argc > 2 ? strtoull(argv[2], NULL, 10) : 20250921;
        long s_moves = 0, s_worst = 0, s_ones = 0;
        double s_ms = 0, s_worst_ms = 0;
        for (int k = 0; k < states_n; k++) {
            nine_board bd;
            random_solvable(&bd, n);
            double ms;
            long moves = run(&bd, &ms);
            if (moves < 0) bad++;
            s_moves += moves;
            s_ones += nine_board_ones_a(&bd);
            if (moves > s_worst) s_worst = moves;
            s_ms += ms;
            if (ms > s_worst_ms) s_worst_ms = ms;
        }
        printf("n=%d: %d states, A held %.1f ones, mean %.2f moves, max %ld, mean %.2f ms, max "
               "%.2f ms (thread CPU)\n",
               n, states_n, (double)s_ones / states_n, (double)s_moves / states_n, s_worst,
               s_ms / states_n, s_worst_ms);
    }
    return bad ? 1 : 0;
}
