/* Invariant boards (HNOI2001 chessboard transformation): n x n boards of +1/-1 that equal their
 * own transformation (every cell becomes the product of its orthogonal neighbours), counted
 * up to the 8 rotations and reflections; optionally one representative per class.
 *
 * Boards are bits: +1 is 0, -1 is 1; a board row is an n-bit vector (bit j = column j, words as
 * in gf2.h). Bit 0 sorts first, so comparing two rows as vectors compares their '+'/'-' strings. */
#ifndef PUZZLED_INVARIANT_BOARDS_H
#define PUZZLED_INVARIANT_BOARDS_H

#include <gmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "budget.h"

#define INVARIANT_BOARDS_MAX_N 100000

/* The 8 symmetries, in the order of invariant_boards_result.fixed_dim. Each maps a board b to b'
 * with b'[i][j] = b[...] as named. */
typedef enum invariant_boards_symmetry {
    IB_IDENTITY,       /* b[i][j] */
    IB_MIRROR_COLUMNS, /* b[i][n-1-j] */
    IB_MIRROR_ROWS,    /* b[n-1-i][j] */
    IB_ROTATE_180,     /* b[n-1-i][n-1-j] */
    IB_TRANSPOSE,      /* b[j][i] */
    IB_ANTI_TRANSPOSE, /* b[n-1-j][n-1-i] */
    IB_ROTATE_CW,      /* b[n-1-j][i] */
    IB_ROTATE_CCW,     /* b[j][n-1-i] */
    IB_SYMMETRY_COUNT
} invariant_boards_symmetry;

typedef enum invariant_boards_status {
    IB_OK,
    IB_TIME_LIMIT, /* the budget ran out */
    IB_TOO_MANY,   /* boards asked for, but more classes than the limit */
    IB_NO_MEMORY,  /* an allocation failed */
    IB_BAD_SIZE,   /* n outside 1..INVARIANT_BOARDS_MAX_N */
} invariant_boards_status;

typedef struct invariant_boards_result {
    int n;
    int kernel_dim;                   /* invariant boards = 2^kernel_dim */
    int fixed_dim[IB_SYMMETRY_COUNT]; /* invariant boards that symmetry fixes = 2^fixed_dim */
    mpz_t invariant_boards;           /* all invariant boards */
    mpz_t count;                      /* classes under the 8 symmetries */
    /* With boards: the first row of each class's representative (the smallest of its 8 images,
     * rows concatenated), in ascending order; board_count rows of `words` words. The first
     * row determines the board (see invariant_boards_rows). */
    size_t board_count;
    size_t words;
    uint64_t *first_rows;
} invariant_boards_result;

/* Counts the classes for n, and when max_boards > 0 also lists the representatives provided
 * the count is at most max_boards (else IB_TOO_MANY, with the counts filled in). On any status
 * the result has been initialised: free it with invariant_boards_result_free. */
invariant_boards_status invariant_boards_solve(int n, size_t max_boards, budget *b,
                                               invariant_boards_result *out);

void invariant_boards_result_free(invariant_boards_result *r);

/* Rebuilds an invariant board row by row from its first row: row k+1 = (A + I) row k ^ row k-1,
 * where A is the path's adjacency; the last condition (row n = 0) holds by invariance. */
typedef struct invariant_boards_rows {
    size_t n;
    size_t words;
    size_t next_row;              /* the index of the row that invariant_boards_rows_next returns */
    uint64_t *prev, *cur, *spare; /* rotate through block */
    uint64_t *block;
} invariant_boards_rows;

bool invariant_boards_rows_init(invariant_boards_rows *it, size_t n, const uint64_t *first_row);
/* Row next_row (valid until the next call), then advances; NULL after row n-1. */
const uint64_t *invariant_boards_rows_next(invariant_boards_rows *it);
void invariant_boards_rows_free(invariant_boards_rows *it);

#endif
