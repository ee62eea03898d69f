/* The 9-Nine board in compact form and its moves: two n x n 0/1 matrices as bit rows (bit j of
 * row i is cell (i, j), 0-based), rotations and column swaps, and the rotation orbits of cells.
 * Shared by the nine solver's parts; the public interface is nine.h. */
#ifndef PUZZLED_NINE_BOARD_H
#define PUZZLED_NINE_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NINE_MAX_N 64

/* Move codes: the four rotations, then NINE_MOVE_C0 + k swaps column k (0-based). */
enum { NINE_MOVE_AL = 0, NINE_MOVE_AR = 1, NINE_MOVE_BL = 2, NINE_MOVE_BR = 3, NINE_MOVE_C0 = 4 };

typedef struct nine_board {
    int n;
    uint64_t a[NINE_MAX_N];
    uint64_t b[NINE_MAX_N];
} nine_board;

static inline int nine_get(const uint64_t *m, int i, int j)
{
    return (int)((m[i] >> j) & 1u);
}

/* The matrix rotated `quarter` times to the left (counter-clockwise), 0..3:
 * AL is new[i][j] = old[j][n-1-i]. dst must not be src. */
void nine_board_rotate(uint64_t *dst, const uint64_t *src, int n, int quarter);

/* Applies one move code in place. */
void nine_board_apply(nine_board *bd, int move);

/* The inverse move (AL <-> AR, BL <-> BR, a column swap is its own inverse). */
int nine_move_inverse(int move);

/* Where cell (i, j) of a matrix lands after `quarter` left rotations of that matrix. */
void nine_cell_rotate(int n, int quarter, int *i, int *j);

/* The 4 cells of (i, j)'s rotation orbit (fewer for the centre); returns how many, distinct. */
int nine_orbit_cells(int n, int i, int j, int cells[4][2]);

/* Number of ones of A. */
int nine_board_ones_a(const nine_board *bd);

bool nine_board_is_goal(const nine_board *bd);

/* A growing list of move codes. */
typedef struct nine_moves {
    uint8_t *v;
    size_t len, cap;
} nine_moves;

/* Appends a move (false when out of memory). */
bool nine_moves_push(nine_moves *list, int move);
void nine_moves_free(nine_moves *list);

/* Pushes move m onto the reduced sequence v[0..top) and returns its new length: a run of
 * rotations is kept as its net turn of each matrix (A's first: A's and B's turns commute), and a
 * column swap cancels its twin across other column swaps (they commute). v needs room for
 * top + 1 moves. The answer's final form; trailing rotations are the caller's to drop. */
size_t nine_moves_push_reduced(uint8_t *v, size_t top, int m);

#endif
