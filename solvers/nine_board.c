#include "nine_board.h"

#include <stdlib.h>
#include <string.h>

static void rotate_left(uint64_t *dst, const uint64_t *src, int n)
{
    /* new[i][j] = old[j][n-1-i]: row i of the result is column n-1-i of the source. */
    for (int i = 0; i < n; i++) {
        uint64_t row = 0;
        int c = n - 1 - i;
        for (int j = 0; j < n; j++) row |= ((src[j] >> c) & 1u) << j;
        dst[i] = row;
    }
}

static void rotate_half(uint64_t *dst, const uint64_t *src, int n)
{
    /* new[i][j] = old[n-1-i][n-1-j]: rows in reverse order, each bit-reversed. */
    for (int i = 0; i < n; i++) {
        uint64_t s = src[n - 1 - i], row = 0;
        for (int j = 0; j < n; j++) row |= ((s >> (n - 1 - j)) & 1u) << j;
        dst[i] = row;
    }
}

static void rotate_right(uint64_t *dst, const uint64_t *src, int n)
{
    /* new[i][j] = old[n-1-j][i]: row i of the result is column i read bottom-up. */
    for (int i = 0; i < n; i++) {
        uint64_t row = 0;
        for (int j = 0; j < n; j++) row |= ((src[n - 1 - j] >> i) & 1u) << j;
        dst[i] = row;
    }
}

void nine_board_rotate(uint64_t *dst, const uint64_t *src, int n, int quarter)
{
    switch (quarter & 3) {
    case 0:
        for (int i = 0; i < n; i++) dst[i] = src[i];
        break;
    case 1:
        rotate_left(dst, src, n);
        break;
    case 2:
        rotate_half(dst, src, n);
        break;
    default:
        rotate_right(dst, src, n);
        break;
    }
}

void nine_board_apply(nine_board *bd, int move)
{
    uint64_t tmp[NINE_MAX_N];
    int n = bd->n;
    if (move >= NINE_MOVE_C0) {
        uint64_t bit = (uint64_t)1 << (move - NINE_MOVE_C0);
        for (int i = 0; i < n; i++) {
            uint64_t diff = (bd->a[i] ^ bd->b[i]) & bit;
            bd->a[i] ^= diff;
            bd->b[i] ^= diff;
        }
        return;
    }
    uint64_t *m = move < NINE_MOVE_BL ? bd->a : bd->b;
    nine_board_rotate(tmp, m, n, (move & 1) ? 3 : 1);
    for (int i = 0; i < n; i++) m[i] = tmp[i];
}

int nine_move_inverse(int move)
{
    return move >= NINE_MOVE_C0 ? move : move ^ 1;
}

void nine_cell_rotate(int n, int quarter, int *i, int *j)
{
    for (int q = 0; q < (quarter & 3); q++) {
        /* AL: the old cell (r, c) lands at (n-1-c, r). */
        int r = *i, c = *j;
        *i = n - 1 - c;
        *j = r;
    }
}

int nine_orbit_cells(int n, int i, int j, int cells[4][2])
{
    int count = 0;
    for (int q = 0; q < 4; q++) {
        int r = i, c = j;
        nine_cell_rotate(n, q, &r, &c);
        bool seen = false;
        for (int k = 0; k < count; k++) seen |= cells[k][0] == r && cells[k][1] == c;
        if (!seen) {
            cells[count][0] = r;
            cells[count][1] = c;
            count++;
        }
    }
    return count;
}

int nine_board_ones_a(const nine_board *bd)
{
    int ones = 0;
    for (int i = 0; i < bd->n; i++) ones += __builtin_popcountll(bd->a[i]);
    return ones;
}

bool nine_board_is_goal(const nine_board *bd)
{
    uint64_t full = bd->n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bd->n) - 1);
    for (int i = 0; i < bd->n; i++)
        if (bd->a[i] != 0 || bd->b[i] != full) return false;
    return true;
}

bool nine_moves_push(nine_moves *list, int move)
{
    if (list->len == list->cap) {
        size_t cap = list->cap ? 2 * list->cap : 256;
        uint8_t *v = realloc(list->v, cap);
        if (!v) return false;
        list->v = v;
        list->cap = cap;
    }
    list->v[list->len++] = (uint8_t)move;
    return true;
}

void nine_moves_free(nine_moves *list)
{
    free(list->v);
    list->v = NULL;
    list->len = list->cap = 0;
}

size_t nine_moves_push_reduced(uint8_t *v, size_t top, int m)
{
    if (m >= NINE_MOVE_C0) {
        size_t k = top;
        while (k > 0 && v[k - 1] >= NINE_MOVE_C0 && v[k - 1] != m) k--;
        if (k > 0 && v[k - 1] == m) {
            memmove(v + k - 1, v + k, top - k);
            return top - 1;
        }
        v[top++] = (uint8_t)m;
        return top;
    }
    size_t start = top;
    while (start > 0 && v[start - 1] < NINE_MOVE_C0) start--;
    int turn[2] = {0, 0};
    for (size_t k = start; k < top; k++) turn[v[k] >> 1] += (v[k] & 1) ? 3 : 1;
    turn[m >> 1] += (m & 1) ? 3 : 1;
    top = start;
    for (int side = 0; side < 2; side++) {
        int q = turn[side] & 3, left = side * 2;
        if (q == 1 || q == 2) v[top++] = (uint8_t)left;
        if (q == 2) v[top++] = (uint8_t)left;
        if (q == 3) v[top++] = (uint8_t)(left + 1);
    }
    return top;
}
