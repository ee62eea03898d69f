/* Breadth-first search from the goal over states encoded as 2 n^2 bits (A's cells then B's,
 * row-major). Every move has an inverse in the move set, so distance from the goal equals the
 * distance to it; walking down the table gives a shortest solution. */
#include "nine_small.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define UNSEEN 0xFF

typedef struct small_table {
    int n;
    int cells;               /* 2 n^2 */
    int move_count;          /* 4 + n */
    uint8_t perm[3 + 4][18]; /* perm[m][c]: where cell c goes under move m */
    uint8_t dist[1u << 18];  /* UNSEEN or the distance to the goal */
    long states;
    int max_distance;
} small_table;

static small_table tables[NINE_SMALL_MAX_N + 1];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static uint32_t small_apply(const small_table *t, uint32_t s, int m)
{
    uint32_t out = 0;
    for (int c = 0; c < t->cells; c++)
        if ((s >> c) & 1u) out |= (uint32_t)1 << t->perm[m][c];
    return out;
}

static void build_perms(small_table *t)
{
    int n = t->n, nn = n * n;
    for (int m = 0; m < t->move_count; m++)
        for (int c = 0; c < t->cells; c++) {
            int side = c / nn, i = (c % nn) / n, j = c % n;
            if (m >= NINE_MOVE_C0) {
                if (j == m - NINE_MOVE_C0) side ^= 1;
            } else if ((m < NINE_MOVE_BL) == (side == 0)) {
                nine_cell_rotate(n, (m & 1) ? 3 : 1, &i, &j);
            }
            t->perm[m][c] = (uint8_t)(side * nn + i * n + j);
        }
}

static void build_table(small_table *t, int n)
{
    t->n = n;
    t->cells = 2 * n * n;
    t->move_count = 4 + n;
    build_perms(t);
    size_t size = (size_t)1 << t->cells;
    memset(t->dist, UNSEEN, size);
    uint32_t *queue = malloc(size * sizeof *queue);
    if (!queue) abort(); /* 1 MiB once at start: no sensible way on without it */
    uint32_t goal = (((uint32_t)1 << (n * n)) - 1) << (n * n);
    size_t head = 0, tail = 0;
    t->dist[goal] = 0;
    queue[tail++] = goal;
    while (head < tail) {
        uint32_t s = queue[head++];
        for (int m = 0; m < t->move_count; m++) {
            uint32_t u = small_apply(t, s, m);
            if (t->dist[u] != UNSEEN) continue;
            t->dist[u] = (uint8_t)(t->dist[s] + 1);
            t->max_distance = t->dist[u];
            queue[tail++] = u;
        }
    }
    t->states = (long)tail;
    free(queue);
}

static void build_all(void)
{
    for (int n = 1; n <= NINE_SMALL_MAX_N; n++) build_table(&tables[n], n);
}

static uint32_t encode(const nine_board *bd)
{
    int n = bd->n;
    uint32_t s = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            s |= (uint32_t)nine_get(bd->a, i, j) << (i * n + j);
            s |= (uint32_t)nine_get(bd->b, i, j) << (n * n + i * n + j);
        }
    return s;
}

bool nine_small_solve(const nine_board *bd, uint8_t *moves, int *count)
{
    pthread_once(&tables_once, build_all);
    const small_table *t = &tables[bd->n];
    uint32_t s = encode(bd);
    if (t->dist[s] == UNSEEN) return false;
    int k = 0;
    while (t->dist[s] != 0) {
        for (int m = 0; m < t->move_count; m++) {
            uint32_t u = small_apply(t, s, m);
            if (t->dist[u] == t->dist[s] - 1) {
                moves[k++] = (uint8_t)m;
                s = u;
                break;
            }
        }
    }
    *count = k;
    return true;
}

void nine_small_stats(int n, long *states, int *max_distance)
{
    pthread_once(&tables_once, build_all);
    *states = tables[n].states;
    *max_distance = tables[n].max_distance;
}
