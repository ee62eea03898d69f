/* How far the nine solver's 4 x 4 answers are from the shortest: a breadth-first search over
 * every solvable 4 x 4 state (70^4 = 24 010 000: each of the 4 rotation orbits holds 4 ones among
 * its 8 cells of A and B), then random solvable states (the generator of bench_nine) solved by
 * nine_solve and compared with their distance. Takes a few seconds and ~130 MB.
 * Usage: bench_nine_optimal4 [count [seed]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "bench_nine_states.h"

#include "budget.h"
#include "nine.h"

enum { N = 4, MOVES = 4 + N, STATES = 70 * 70 * 70 * 70 };

/* A state as 32 bits: A's cells i * 4 + j, then B's at 16 + i * 4 + j. */
static uint32_t move_table[MOVES][4][256]; /* the cells a byte's bits go to under each move */
static uint8_t orbit_of[32], slot_of[32];  /* each cell's orbit and its bit in the orbit's byte */
static uint8_t rank8[256];                 /* 8-bit patterns with 4 ones -> 0..69 */
static uint8_t unrank8[70];

static uint32_t apply(uint32_t s, int m)
{
    return move_table[m][0][s & 0xFF] | move_table[m][1][(s >> 8) & 0xFF] |
           move_table[m][2][(s >> 16) & 0xFF] | move_table[m][3][s >> 24];
}

static uint32_t encode(uint32_t s)
{
    uint32_t pattern[4] = {0, 0, 0, 0};
    for (int c = 0; c < 32; c++)
        if ((s >> c) & 1u) pattern[orbit_of[c]] |= 1u << slot_of[c];
    uint32_t index = 0;
    for (int o = 0; o < 4; o++) index = index * 70 + rank8[pattern[o]];
    return index;
}

static uint32_t decode(uint32_t index)
{
    static int cell_at[4][8];
    static int ready = 0;
    if (!ready) {
        for (int c = 0; c < 32; c++) cell_at[orbit_of[c]][slot_of[c]] = c;
        ready = 1;
    }
    uint32_t s = 0;
    for (int o = 3; o >= 0; o--) {
        uint32_t p = unrank8[index % 70];
        index /= 70;
        for (int b = 0; b < 8; b++)
            if ((p >> b) & 1u) s |= 1u << cell_at[o][b];
    }
    return s;
}

static void build_tables(void)
{
    int next_rank = 0;
    for (int p = 0; p < 256; p++)
        if (__builtin_popcount((unsigned)p) == 4) {
            rank8[p] = (uint8_t)next_rank;
            unrank8[next_rank++] = (uint8_t)p;
        }
    /* Orbits numbered by their smallest cell; a cell's slot: its place in the orbit, +4 in B. */
    int orbits = 0;
    int seen[16];
    memset(seen, -1, sizeof seen);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            if (seen[i * N + j] >= 0) continue;
            int cells[4][2], k = nine_orbit_cells(N, i, j, cells);
            for (int t = 0; t < k; t++) {
                int c = cells[t][0] * N + cells[t][1];
                seen[c] = orbits;
                orbit_of[c] = orbit_of[16 + c] = (uint8_t)orbits;
                slot_of[c] = (uint8_t)t;
                slot_of[16 + c] = (uint8_t)(4 + t);
            }
            orbits++;
        }
    for (int m = 0; m < MOVES; m++)
        for (int c = 0; c < 32; c++) {
            nine_board bd;
            memset(&bd, 0, sizeof bd);
            bd.n = N;
            uint64_t *side = c < 16 ? bd.a : bd.b;
            side[(c % 16) / N] |= (uint64_t)1 << (c % N);
            nine_board_apply(&bd, m);
            uint32_t to = 0;
            for (int i = 0; i < N; i++)
                to |= (uint32_t)(bd.a[i] << (i * N) | bd.b[i] << (16 + i * N));
            for (int v = 0; v < 256; v++)
                if ((v >> (c % 8)) & 1) move_table[m][c / 8][v] |= to;
        }
}

int main(int argc, char **argv)
{
    int count = argc > 1 ? atoi(argv[1]) : 1000;
    rng_state = argc > 2 ? strtoull(argv[2], NULL, 10) : 20250921;
    double t0 = now_ms();
    build_tables();
    uint8_t *dist = malloc(STATES);
    uint32_t *queue = malloc(sizeof(uint32_t) * STATES);
    if (!dist || !queue) return 1;
    memset(dist, 0xFF, STATES);
    uint32_t goal = 0xFFFFu << 16;
    size_t head = 0, tail = 0;
    dist[encode(goal)] = 0;
    queue[tail++] = encode(goal);
    int deepest = 0;
    while (head < tail) {
        uint32_t x = queue[head++], s = decode(x);
        for (int m = 0; m < MOVES; m++) {
            uint32_t y = encode(apply(s, m));
            if (dist[y] != 0xFF) continue;
            dist[y] = (uint8_t)(dist[x] + 1);
            deepest = dist[y];
            queue[tail++] = y;
        }
    }
    long histogram[32] = {0};
    for (size_t k = 0; k < tail; k++) histogram[dist[queue[k]]]++;
    printf("4x4 BFS: %zu states reached of %d, longest shortest solution %d, %.0f ms\n", tail,
           STATES, deepest, now_ms() - t0);
    printf("distance histogram:");
    for (int d = 0; d <= deepest; d++) printf(" %d:%ld", d, histogram[d]);
    printf("\n");

    long sum_solver = 0, sum_optimal = 0, worst_gap = 0, exact = 0, wrong = 0;
    long gap_hist[16] = {0};
    double cpu = 0, worst_cpu = 0;
    for (int k = 0; k < count; k++) {
        nine_board bd;
        random_solvable(&bd, N);
        uint32_t s = 0;
        for (int i = 0; i < N; i++) s |= (uint32_t)(bd.a[i] << (i * N) | bd.b[i] << (16 + i * N));
        int d = dist[encode(s)];
        budget b;
        budget_init_ms(&b, 10000, NULL);
        nine_solution sol;
        double c0 = cpu_ms();
        nine_status st = nine_solve(&bd, -1, &b, &sol);
        double c = cpu_ms() - c0;
        cpu += c;
        if (c > worst_cpu) worst_cpu = c;
        nine_board w = bd;
        for (size_t t = 0; t < sol.move_count; t++) nine_board_apply(&w, sol.moves[t]);
        if (st != NINE_OK || !nine_board_is_goal(&w) || (long)sol.move_count < d) wrong++;
        long gap = (long)sol.move_count - d;
        sum_solver += (long)sol.move_count;
        sum_optimal += d;
        if (gap > worst_gap) worst_gap = gap;
        if (gap == 0) exact++;
        if (gap >= 0 && gap < 16) gap_hist[gap]++;
        nine_solution_free(&sol);
    }
    printf("%d random solvable 4x4 states (seed %s): solver mean %.2f moves, shortest mean %.2f, "
           "%ld shortest (%.1f %%), worst gap %ld, mean %.2f ms, max %.2f ms (thread CPU), "
           "wrong %ld\n",
           count, argc > 2 ? argv[2] : "20250921", (double)sum_solver / count,
           (double)sum_optimal / count, exact, 100.0 * exact / count, worst_gap, cpu / count,
           worst_cpu, wrong);
    printf("gap histogram:");
    for (int g = 0; g <= worst_gap && g < 16; g++) printf(" +%d:%ld", g, gap_hist[g]);
    printf("\n");
    free(dist);
    free(queue);
    return wrong ? 1 : 0;
}
