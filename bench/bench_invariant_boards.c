/* Benchmark of invariant-boards: the solver for n = 1..30 (all together), for n = 500, 1000,
 * 2000 and the largest kernels below 2000 (n = 1279: d = 1024, n = 1983: d = 1280), and the
 * whole API path (parse, solve, stream) for boards:true at n = 19 (8356 boards) and n = 2000
 * (one 4 MB board). Each case runs in a forked child so that its peak RSS (getrusage) is its own.
 *
 * Run: build/bench/bench_invariant_boards [repeats]   (default 20) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_clock.h"

#include "answer.h"
#include "invariant_boards.h"

extern const api_puzzle codec_invariant_boards;

static void solve_range(int lo, int hi)
{
    for (int n = lo; n <= hi; n++) {
        budget b;
        budget_init_unlimited(&b);
        invariant_boards_result r;
        if (invariant_boards_solve(n, 0, &b, &r) != IB_OK) {
            fprintf(stderr, "n=%d failed\n", n);
            exit(1);
        }
        invariant_boards_result_free(&r);
    }
}

/* The API path; returns the answer's size in bytes. */
static size_t api_path(const char *body)
{
    budget b;
    budget_init_unlimited(&b);
    api_error err;
    api_answer *a =
        api_answer_solve(&codec_invariant_boards, API_FORMAT_JSON, body, strlen(body), &b, &err);
    if (!a) {
        fprintf(stderr, "%s: %s\n", body, err.message);
        exit(1);
    }
    static char buf[1 << 16];
    size_t total = 0, n;
    while ((n = api_answer_read(a, buf, sizeof buf)) > 0) total += n;
    api_answer_free(a);
    return total;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One case in a child: `repeats` timed runs, then median and min, and the child's peak RSS. */
static void run_case(const char *label, int lo, int hi, const char *api_body, int repeats)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(1);
    }
    if (pid == 0) {
        double *t = malloc((size_t)repeats * sizeof *t);
        size_t bytes = 0;
        for (int i = 0; i < repeats; i++) {
            double start = now_ms();
            if (api_body)
                bytes = api_path(api_body);
            else
                solve_range(lo, hi);
            t[i] = now_ms() - start;
        }
        qsort(t, (size_t)repeats, sizeof *t, cmp_double);
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        printf("| %-34s | %10.3f | %10.3f | %8.1f |", label, t[repeats / 2], t[0],
               ru.ru_maxrss / 1024.0);
        if (api_body) printf(" %zu bytes streamed", bytes);
        printf("\n");
        free(t);
        fflush(stdout);
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
}

int main(int argc, char **argv)
{
    int repeats = argc > 1 ? atoi(argv[1]) : 20;
    if (repeats < 1) repeats = 1;
    printf("repeats per case: %d; times in ms (median, min); peak RSS of the case's process\n\n",
           repeats);
    printf("| %-34s | %10s | %10s | %8s |\n", "case", "median ms", "min ms", "RSS MiB");
    printf("|------------------------------------|------------|------------|----------|\n");
    run_case("solve n = 1..30 (all 30)", 1, 30, NULL, repeats);
    run_case("solve n = 500", 500, 500, NULL, repeats);
    run_case("solve n = 1000", 1000, 1000, NULL, repeats);
    run_case("solve n = 2000", 2000, 2000, NULL, repeats);
    run_case("solve n = 1999 (d = 64)", 1999, 1999, NULL, repeats);
    run_case("solve n = 1279 (d = 1024)", 1279, 1279, NULL, repeats);
    run_case("solve n = 1983 (d = 1280)", 1983, 1983, NULL, repeats);
    run_case("solve n = 1..2000 (all 2000)", 1, 2000, NULL, 1);
    run_case("api n = 19, boards (8356 boards)", 0, 0, "{\"n\":19,\"boards\":true}", repeats);
    run_case("api n = 2000, boards (1 board)", 0, 0, "{\"n\":2000,\"boards\":true}", repeats);
    return 0;
}
