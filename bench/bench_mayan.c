/* Mayan benchmark: random full 5 x 7 boards without initial runs (the contest's hardest shape:
 * 35 blocks, about 28 moves at every node), solved for exactly n moves.
 *
 *   build/bench/bench_mayan [boards] [n from] [n to] [colours] [table KiB] [width height]
 *
 * For each n = from..to (default 1..5) it solves `boards` boards (default 300) per colour count
 * (3..10 colours, or only `colours` when given; the same boards for every n) and prints the
 * mean and worst CPU time, the search nodes, how many were solvable, and the slowest board.
 *
 *   build/bench/bench_mayan climb [iterations] [n] [colours]
 *
 * looks for a slow board (below), and
 *
 *   build/bench/bench_mayan board "n | c c c 0 | ... |" [runs]
 *
 * solves one board given in the contest's text (as printed for the slowest board; '|' is
 * ignored, each column ends with 0) `runs` times (default 5) and prints each CPU time.
 *
 * The climb mode hill-climbs on the node count (default 300 steps, n = 5, 3). Boards
 * with a colour of 1 or 2 blocks are answered at once, so a separate line reports "live" boards
 * (every colour at least 3 blocks), the real work. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_clock.h"

#include "mayan.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static unsigned rng_below(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % n);
}

/* A full board, colours 1..k, no run of three in a row or column. */
static void random_full_board(mayan_board *b, int width, int height, int k)
{
    b->width = width;
    b->height = height;
restart:
    for (int x = 0; x < width; x++)
        for (int y = 0; y < height; y++) {
            /* The colours that make no run with the two cells to the left or below; with two
             * colours there may be none: start over. */
            unsigned allowed[MAYAN_MAX_COLOUR], count = 0;
            for (unsigned v = 1; v <= (unsigned)k; v++)
                if (!(x >= 2 && b->cell[x - 1][y] == v && b->cell[x - 2][y] == v) &&
                    !(y >= 2 && b->cell[x][y - 1] == v && b->cell[x][y - 2] == v))
                    allowed[count++] = v;
            if (!count) goto restart;
            b->cell[x][y] = (unsigned char)allowed[rng_below(count)];
        }
}

static bool live(const mayan_board *b)
{
    int counts[MAYAN_MAX_COLOUR + 1] = {0};
    for (int x = 0; x < b->width; x++)
        for (int y = 0; y < b->height; y++) counts[b->cell[x][y]]++;
    for (int v = 1; v <= MAYAN_MAX_COLOUR; v++)
        if (counts[v] == 1 || counts[v] == 2) return false;
    return true;
}

typedef struct tally {
    int boards, solved;
    double sum_ms, worst_ms;
    double sum_nodes, worst_nodes;
    size_t worst_table;
    mayan_board worst_board;
} tally;

static void add(tally *t, double ms, const mayan_result *r, const mayan_board *b)
{
    t->boards++;
    t->solved += r->status == MAYAN_SOLVED;
    t->sum_ms += ms;
    if (ms > t->worst_ms) t->worst_ms = ms, t->worst_board = *b;
    t->sum_nodes += (double)r->nodes;
    if ((double)r->nodes > t->worst_nodes) t->worst_nodes = (double)r->nodes;
    if (r->table_bytes > t->worst_table) t->worst_table = r->table_bytes;
}

static void print(const char *what, int n, const tally *t)
{
    if (!t->boards) return;
    printf("%-5s n=%d boards=%4d solvable=%4d mean=%9.3f ms worst=%9.3f ms "
           "mean_nodes=%10.0f worst_nodes=%10.0f table<=%zu KiB\n",
           what, n, t->boards, t->solved, t->sum_ms / t->boards, t->worst_ms,
           t->sum_nodes / t->boards, t->worst_nodes, t->worst_table >> 10);
}

/* The slowest board in the contest's text format, to rerun it by hand. */
static void print_board(const mayan_board *b, int n)
{
    printf("      slowest board (contest text):  %d |", n);
    for (int x = 0; x < b->width; x++) {
        for (int y = 0; y < b->height && b->cell[x][y]; y++) printf(" %d", b->cell[x][y]);
        printf(" 0 |");
    }
    printf("\n");
}

/* A full board with no run of three (the contest's promise). */
static bool has_run(const mayan_board *b)
{
    for (int x = 0; x < b->width; x++)
        for (int y = 0; y < b->height; y++) {
            unsigned v = b->cell[x][y];
            if (x + 2 < b->width && b->cell[x + 1][y] == v && b->cell[x + 2][y] == v) return true;
            if (y + 2 < b->height && b->cell[x][y + 1] == v && b->cell[x][y + 2] == v) return true;
        }
    return false;
}

/* Hill climbing for a slow board: change one cell at a time (keeping the board full and free
 * of runs) and keep the change when the search needs at least as many nodes. */
static int climb(int iterations, int n, int k)
{
    mayan_board best = {0};
    random_full_board(&best, 5, 7, k);
    budget bud;
    budget_init_unlimited(&bud);
    mayan_result r;
    mayan_solve(&best, n, &bud, &r);
    uint64_t best_nodes = r.nodes;
    double best_ms = 0;
    for (int i = 0; i < iterations; i++) {
        mayan_board b = best;
        int changes = 1 + (int)rng_below(3);
        for (int c = 0; c < changes; c++)
            b.cell[rng_below(5)][rng_below(7)] = (unsigned char)(1 + rng_below((unsigned)k));
        if (has_run(&b)) continue;
        double t0 = cpu_ms();
        mayan_solve(&b, n, &bud, &r);
        double ms = cpu_ms() - t0;
        if (r.nodes >= best_nodes) best = b, best_nodes = r.nodes, best_ms = ms;
    }
    printf("climb n=%d k=%d iterations=%d: worst nodes=%llu (%.3f ms when found)\n", n, k,
           iterations, (unsigned long long)best_nodes, best_ms);
    /* Time the winner again, a few times, for a steadier figure. */
    double worst = 0;
    for (int i = 0; i < 5; i++) {
        double t0 = cpu_ms();
        mayan_solve(&best, n, &bud, &r);
        double ms = cpu_ms() - t0;
        if (ms > worst) worst = ms;
    }
    printf("      rerun x5: worst %.3f ms, %s\n", worst,
           r.status == MAYAN_SOLVED ? "solvable" : "no solution");
    print_board(&best, n);
    return 0;
}

/* MAYAN_THREADS=2: the solver may start its helper thread (budget.threads). Times are then
 * wall time, with the CPU time of both threads beside them; else this thread's CPU time. */
static int threads = 1;

static double solve_clock_ms(void)
{
    return threads > 1 ? now_ms() : cpu_ms();
}

static void bench_budget(budget *b)
{
    budget_init_unlimited(b);
    b->threads = threads;
}

/* The helper thread shares the failure table, so its gain depends on how fast a cache line
 * goes from one core to the other, which a virtual machine's host changes from minute to
 * minute (measured here: 410-700 ns a round trip, and faster at other times). Printed beside
 * every two-thread figure: the round trip of one line between this thread and another. */
static _Alignas(64) atomic_int ping_turn;
enum { PINGS = 100000 };

static void *pong(void *arg)
{
    (void)arg;
    for (int i = 0; i < PINGS; i++) {
        while (atomic_load_explicit(&ping_turn, memory_order_acquire) != 1) continue;
        atomic_store_explicit(&ping_turn, 0, memory_order_release);
    }
    return NULL;
}

static void print_core_round_trip(void)
{
    pthread_t other;
    atomic_store(&ping_turn, 0);
    if (pthread_create(&other, NULL, pong, NULL) != 0) return;
    double t0 = now_ms();
    for (int i = 0; i < PINGS; i++) {
        atomic_store_explicit(&ping_turn, 1, memory_order_release);
        while (atomic_load_explicit(&ping_turn, memory_order_acquire) != 0) continue;
    }
    double ns = (now_ms() - t0) * 1e6 / PINGS;
    pthread_join(other, NULL);
    printf("core-to-core round trip of a cache line: %.0f ns\n", ns);
}

/* One board in the contest's text, solved `runs` times. Columns of up to 16 blocks: the board
 * is 7 high, or as high as its tallest column (the slowest 16 x 16 board as printed). */
static int one_board(const char *text, int runs)
{
    mayan_board b = {.width = 0, .height = 7};
    int n = 0, x = 0, y = 0, read = 0;
    const char *p = text;
    if (sscanf(p, "%d%n", &n, &read) != 1) return 2;
    for (p += read;; p += read) {
        while (*p == ' ' || *p == '|') p++;
        int v;
        if (sscanf(p, "%d%n", &v, &read) != 1) break;
        if (x == MAYAN_MAX_SIDE) return 2; /* a value past the 16th column */
        if (v == 0) {
            x++;
            y = 0;
        } else if (y < MAYAN_MAX_SIDE) {
            b.cell[x][y++] = (unsigned char)v;
            if (y > b.height) b.height = y;
        } else {
            return 2;
        }
    }
    b.width = x;
    if (b.width < 1 || n < 1 || n > MAYAN_MAX_MOVES) return 2;
    for (int i = 0; i < runs; i++) {
        budget bud;
        bench_budget(&bud);
        mayan_result r;
        double t0 = solve_clock_ms(), c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
        mayan_solve(&b, n, &bud, &r);
        double ms = solve_clock_ms() - t0, cpu = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
        printf("run %d: %.3f ms nodes=%llu table_hits=%llu bound_cuts=%llu commute_cuts=%llu %s", i,
               ms, (unsigned long long)r.nodes, (unsigned long long)r.table_hits,
               (unsigned long long)r.bound_cuts, (unsigned long long)r.commute_cuts,
               r.status == MAYAN_SOLVED ? "solvable" : "no solution");
        printf(" table %zu KiB", r.table_bytes >> 10);
        if (threads > 1)
            printf(" (wall; CPU %.3f ms, helper nodes=%llu)", cpu,
                   (unsigned long long)r.helper_nodes);
        printf("\n");
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *env = getenv("MAYAN_THREADS");
    threads = env && atoi(env) > 1 ? atoi(env) : 1;
    if (threads > 1) print_core_round_trip();
    if (argc > 2 && strcmp(argv[1], "board") == 0)
        return one_board(argv[2], argc > 3 ? atoi(argv[3]) : 5);
    if (argc > 1 && strcmp(argv[1], "climb") == 0) {
        int iterations = argc > 2 ? atoi(argv[2]) : 300;
        int n = argc > 3 ? atoi(argv[3]) : 5;
        int k = argc > 4 ? atoi(argv[4]) : 3;
        if (iterations < 1 || n < 1 || n > MAYAN_MAX_MOVES || k < 2 || k > 10) return 2;
        return climb(iterations, n, k);
    }
    int boards = argc > 1 ? atoi(argv[1]) : 300;
    int n_from = argc > 2 ? atoi(argv[2]) : 1;
    int n_to = argc > 3 ? atoi(argv[3]) : 5;
    int only_k = argc > 4 ? atoi(argv[4]) : 0;
    /* Optional: the failure table's cap in KiB (0: no table), to see what the table buys. */
    size_t table_bytes = argc > 5 ? (size_t)atol(argv[5]) << 10 : MAYAN_TABLE_MAX_BYTES;
    /* Optional: the board's size (default the contest's 5 x 7). */
    int width = argc > 6 ? atoi(argv[6]) : 5, height = argc > 7 ? atoi(argv[7]) : 7;
    if (boards < 1 || n_from < 1 || n_to < n_from || n_to > MAYAN_MAX_MOVES ||
        (only_k && (only_k < 2 || only_k > 10)) || width < 3 || width > MAYAN_MAX_SIDE ||
        height < 3 || height > MAYAN_MAX_SIDE) {
        fprintf(stderr,
                "usage: %s [boards per colour count] [n from] [n to] [colours 2..10 or 0 = 3..10] "
                "[table KiB] [width height]\n",
                argv[0]);
        return 2;
    }
    printf("random full %dx%d boards, no initial runs; %d boards per colour count (%d..%d) and n; "
           "%s\n",
           width, height, boards, only_k ? only_k : 3, only_k ? only_k : 10,
           threads > 1 ? "wall time (the solver may start its helper thread)" : "thread CPU time");
    for (int n = n_from; n <= n_to; n++) {
        tally all = {0}, hard = {0}, per_k[11] = {{0}};
        /* The same boards for every n: restart the generator. */
        rng_state = 0x9E3779B97F4A7C15ULL;
        for (int k = only_k ? only_k : 3; k <= (only_k ? only_k : 10); k++) {
            for (int i = 0; i < boards; i++) {
                mayan_board b = {0};
                random_full_board(&b, width, height, k);
                budget bud;
                bench_budget(&bud);
                mayan_result r;
                double t0 = solve_clock_ms();
                mayan_solve_capped(&b, n, table_bytes, &bud, &r);
                double ms = solve_clock_ms() - t0;
                add(&all, ms, &r, &b);
                add(&per_k[k], ms, &r, &b);
                if (live(&b)) add(&hard, ms, &r, &b);
            }
        }
        print("all", n, &all);
        print("live", n, &hard);
        for (int k = 3; k <= 10; k++) {
            char what[8];
            snprintf(what, sizeof what, "k=%d", k);
            print(what, n, &per_k[k]);
        }
        print_board(&all.worst_board, n);
        fflush(stdout);
    }
    return 0;
}
