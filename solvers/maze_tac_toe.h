/* Maze Tac Toe (USACO 2021 US Open, Silver): count the distinct winning tic-tac-toe boards a walk
 * through a maze can produce.
 *
 * A board is a number 0 .. 3^9 - 1: square s = 3 * (row - 1) + (column - 1) is the base-3 digit of
 * weight 3^(8 - s), 0 empty, 1 'M', 2 'O'. Square 0 is the most significant digit, so the numeric
 * order of boards is the lexicographic order of their 9-character texts in ASCII ('.' < 'M' < 'O').
 */
#ifndef PUZZLED_MAZE_TAC_TOE_H
#define PUZZLED_MAZE_TAC_TOE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "budget.h"

#define MAZE_TAC_TOE_BOARDS 19683 /* 3^9 */
#define MAZE_TAC_TOE_MIN_N 3
#define MAZE_TAC_TOE_MAX_N 100

/* One maze cell. A move cell is MAZE_TAC_TOE_MOVE + piece, piece = 2 * square + (letter == 'O'). */
enum {
    MAZE_TAC_TOE_WALL = 0,
    MAZE_TAC_TOE_OPEN = 1, /* an empty cell or the start: walking on it places nothing */
    MAZE_TAC_TOE_MOVE = 2,
    MAZE_TAC_TOE_CELL_CODES = MAZE_TAC_TOE_MOVE + 18
};

typedef struct maze_tac_toe_maze {
    int n;                      /* N x N cells */
    const unsigned char *cells; /* N * N cell codes, row-major */
    int start_row, start_col;   /* 0-based */
} maze_tac_toe_maze;

typedef struct maze_tac_toe_result {
    size_t count;     /* distinct winning boards */
    uint16_t *boards; /* the `count` boards in ascending (= lexicographic) order, malloc'd; NULL
                         unless asked for */
} maze_tac_toe_result;

typedef enum maze_tac_toe_status {
    MAZE_TAC_TOE_OK = 0,
    MAZE_TAC_TOE_TIME_LIMIT,
    MAZE_TAC_TOE_NO_MEMORY,
    MAZE_TAC_TOE_BAD_MAZE /* n out of range or the start not on an open cell */
} maze_tac_toe_status;

/* The cell code of a 3-character maze cell ("###", "...", "BBB", "Mij", "Oij" with i, j in 1..3),
 * or -1 when the text is none of those. `*is_start` says whether it is "BBB". */
int maze_tac_toe_cell_code(const char text[3], bool *is_start);

/* Counts the winning boards; with want_boards also lists them. On failure *out is empty. */
maze_tac_toe_status maze_tac_toe_solve(const maze_tac_toe_maze *maze, bool want_boards, budget *b,
                                       maze_tac_toe_result *out);

void maze_tac_toe_result_free(maze_tac_toe_result *r);

/* The board's three rows as NUL-terminated strings over 'M', 'O', '.'. */
void maze_tac_toe_board_rows(unsigned board, char rows[3][4]);

/* Whether the board reads MOO or OOM along a row, a column or a diagonal. */
bool maze_tac_toe_is_win(unsigned board);

#endif
