/* Rubik's Rectangle (CERC 2013): an H x W board holding 1..H*W; a move reverses one row or one
 * column; the goal is row-major order. The solver decides exactly whether the board can be
 * sorted and, when it can, writes a short sorting move list. */
#ifndef PUZZLED_RUBIKS_RECTANGLE_H
#define PUZZLED_RUBIKS_RECTANGLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "budget.h"

#define RUBIKS_RECTANGLE_MAX_SIDE 1000

/* A move: +r reverses row r (1 = top row), -c reverses column c (1 = left column). */
typedef int32_t rubiks_rectangle_move;

typedef struct rubiks_rectangle_board {
    int height;
    int width;
    const int32_t *cells; /* row-major, height * width values, a permutation of 1..H*W */
} rubiks_rectangle_board;

typedef struct rubiks_rectangle_answer {
    bool solvable;
    rubiks_rectangle_move *moves; /* malloc'd; NULL when there are none */
    size_t move_count;
} rubiks_rectangle_answer;

typedef enum rubiks_rectangle_status {
    RUBIKS_RECTANGLE_OK = 0,
    RUBIKS_RECTANGLE_INVALID,    /* sizes out of range or the cells are not a permutation */
    RUBIKS_RECTANGLE_TIME_LIMIT, /* the budget ran out */
    RUBIKS_RECTANGLE_NO_MEMORY,
} rubiks_rectangle_status;

/* Decides the board and, when solvable, fills answer->moves with a sorting sequence of at most
 * 10 * H * W moves. On any status but OK, *answer is left empty (nothing to free). */
rubiks_rectangle_status rubiks_rectangle_solve(const rubiks_rectangle_board *board, budget *b,
                                               rubiks_rectangle_answer *answer);

void rubiks_rectangle_answer_free(rubiks_rectangle_answer *answer);

#endif
