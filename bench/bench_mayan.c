/* Mayan benchmark: random full 5 x 7 boards without initial runs (the contest's hardest shape:
 * 35 blocks, about 28 moves at every node), solved for exactly n moves.
 *
 *   build/bench/bench_mayan [boards] [n from] [n to] [colours] [table KiB]
 *
 * For each n = from..to (default 1..5) it solves `boards` boards (default 300) per colour count
 * (3..10 colours, or only `colours` when given; the same boards for every n) and prints the
 * mean and worst CPU time, the search nodes, how many were solvable, and the slowest board. Boards
 * with a colour of 1 or 2 blocks are answered at once, so a separate line reports "live" boards
 * (every colour at least 3 blocks), the real work. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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
    for (int x = 0; x < width; x++)
        for (int y = 0; y < height; y++) {
            unsigned v;
            do {
                v = 1 + rng_below((unsigned)k);
            } while ((x >= 2 && b->cell[x - 1][y] == v && b->cell[x - 2][y] == v) ||
                     (y >= 2 && b->cell[x][y - 1] == v && b->cell[x][y - 2] == v));
            b->cell[x][y] = (unsigned char)v;
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

/* CPU time of this thread: the machine is shared, and wall time would count other processes. */
static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
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

int main(int argc, char **argv)
{
    int boards = argc > 1 ? atoi(argv[1]) : 300;
    int n_from = argc > 2 ? atoi(argv[2]) : 1;
    int n_to = argc > 3 ? atoi(argv[3]) : 5;
    int only_k = argc > 4 ? atoi(argv[4]) : 0;
    /* Optional: the failure table's cap in KiB (0: no table), to see what the table buys. */
    size_t table_bytes = argc > 5 ? (size_t)atol(argv[5]) << 10 : MAYAN_TABLE_MAX_BYTES;
    if (boards < 1 || n_from < 1 || n_to < n_from || n_to > MAYAN_MAX_MOVES ||
        (only_k && (only_k < 3 || only_k > 10))) {
        fprintf(stderr,
                "usage: %s [boards per colour count] [n from] [n to] [colours 3..10 or 0 = all] "
                "[table KiB]\n",
                argv[0]);
        return 2;
    }
    printf("random full 5x7 boards, no initial runs; %d boards per colour count (%d..%d) and n; "
           "thread CPU time\n",
           boards, only_k ? only_k : 3, only_k ? only_k : 10);
    for (int n = n_from; n <= n_to; n++) {
        tally all = {0}, hard = {0}, per_k[11] = {{0}};
        /* The same boards for every n: restart the generator. */
        rng_state = 0x9E3779B97F4A7C15ULL;
        for (int k = only_k ? only_k : 3; k <= (only_k ? only_k : 10); k++) {
            for (int i = 0; i < boards; i++) {
                mayan_board b = {0};
                random_full_board(&b, 5, 7, k);
                budget bud;
                budget_init_unlimited(&bud);
                mayan_result r;
                double t0 = cpu_ms();
                mayan_solve_capped(&b, n, table_bytes, &bud, &r);
                double ms = cpu_ms() - t0;
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
