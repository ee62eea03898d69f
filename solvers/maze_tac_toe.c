/* Maze Tac Toe: a search over boards alone, not over (cell, board).
 *
 * The idea: whether a cell can be walked on without changing the board depends only on WHICH
 * squares are filled (a 9-bit mask), not on their letters — an open cell always, a move cell once
 * its square is taken. That passable set only grows as squares fill. So the walker, holding board
 * B, can always reach every cell of R(mask(B)), the start's connected region among the passable
 * cells: it was in the start's region before its last placement, that region stays passable, and
 * the move cell it just stepped on is now passable too and touches it. Hence the walker's position
 * never matters, only the board: from a board B (not yet a win) the next boards are B plus one
 * piece for every move cell bordering R(mask(B)), and each of those cells is reachable.
 *
 * The search is then a breadth-first search over at most 3^9 boards, with one flood fill per
 * distinct mask reached (at most 2^9 = 512, each O(N^2)) giving the set of pieces on the region's
 * border (an 18-bit set). A board that wins is counted once and not expanded: the game stops.
 * Work is O(512 N^2 + 18 * 3^9), memory O(N^2 + 3^9). */
#include "maze_tac_toe.h"

#include <stdlib.h>
#include <string.h>
#include <threads.h>

#define FILLED_BITS 0x1ffu
#define WIN_BIT 0x200u

/* Per board: the mask of filled squares and whether it wins. Built once, under call_once. */
static uint16_t board_info[MAZE_TAC_TOE_BOARDS];
static once_flag tables_once = ONCE_FLAG_INIT;

/* 3^(8 - s): the weight of square s. */
static const uint16_t square_weight[9] = {6561, 2187, 729, 243, 81, 27, 9, 3, 1};

static const unsigned char win_lines[8][3] = {
    {0, 1, 2}, {3, 4, 5}, {6, 7, 8}, /* rows */
    {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, /* columns */
    {0, 4, 8}, {2, 4, 6},            /* diagonals */
};

static void board_digits(unsigned board, unsigned digit[9])
{
    for (int s = 8; s >= 0; s--) {
        digit[s] = board % 3;
        board /= 3;
    }
}

static void build_tables(void)
{
    for (unsigned board = 0; board < MAZE_TAC_TOE_BOARDS; board++) {
        unsigned d[9];
        board_digits(board, d);
        unsigned info = 0;
        for (int s = 0; s < 9; s++)
            if (d[s]) info |= 1u << s;
        for (int l = 0; l < 8; l++) {
            unsigned a = d[win_lines[l][0]], m = d[win_lines[l][1]], c = d[win_lines[l][2]];
            /* MOO or OOM: the middle is O, one end M and the other O (digits 1 = M, 2 = O). */
            if (m == 2 && ((a == 1 && c == 2) || (a == 2 && c == 1))) info |= WIN_BIT;
        }
        board_info[board] = (uint16_t)info;
    }
}

bool maze_tac_toe_is_win(unsigned board)
{
    call_once(&tables_once, build_tables);
    return board < MAZE_TAC_TOE_BOARDS && (board_info[board] & WIN_BIT);
}

void maze_tac_toe_board_rows(unsigned board, char rows[3][4])
{
    static const char letter[3] = {'.', 'M', 'O'};
    unsigned d[9];
    board_digits(board, d);
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) rows[r][c] = letter[d[3 * r + c]];
        rows[r][3] = '\0';
    }
}

int maze_tac_toe_cell_code(const char text[3], bool *is_start)
{
    *is_start = false;
    if (memcmp(text, "###", 3) == 0) return MAZE_TAC_TOE_WALL;
    if (memcmp(text, "...", 3) == 0) return MAZE_TAC_TOE_OPEN;
    if (memcmp(text, "BBB", 3) == 0) {
        *is_start = true;
        return MAZE_TAC_TOE_OPEN;
    }
    if ((text[0] == 'M' || text[0] == 'O') && text[1] >= '1' && text[1] <= '3' && text[2] >= '1' &&
        text[2] <= '3') {
        int square = 3 * (text[1] - '1') + (text[2] - '1');
        return MAZE_TAC_TOE_MOVE + 2 * square + (text[0] == 'O');
    }
    return -1;
}

/* The maze padded with a ring of walls, so that a flood fill never leaves the array whatever the
 * border holds, and the scratch space of the flood fills. */
typedef struct region_walk {
    unsigned char *grid; /* (n + 2)^2 cell codes */
    int width;
    int start;
    uint16_t *stamp; /* cell already seen in the fill for mask m when stamp == m + 1 */
    int32_t *stack;
} region_walk;

/* The pieces (bit p for piece p) on the move cells bordering the start's region while exactly the
 * squares in `filled` are taken. */
static uint32_t region_border_pieces(region_walk *wk, unsigned filled)
{
    bool passable[MAZE_TAC_TOE_CELL_CODES];
    passable[MAZE_TAC_TOE_WALL] = false;
    passable[MAZE_TAC_TOE_OPEN] = true;
    for (int p = 0; p < 18; p++) passable[MAZE_TAC_TOE_MOVE + p] = (filled >> (p >> 1)) & 1;

    const unsigned char *grid = wk->grid;
    uint16_t *stamp = wk->stamp;
    int32_t *stack = wk->stack;
    const uint16_t mark = (uint16_t)(filled + 1);
    const int step[4] = {1, -1, wk->width, -wk->width};
    uint32_t pieces = 0;
    size_t top = 0;
    stamp[wk->start] = mark;
    stack[top++] = wk->start;
    while (top) {
        int32_t cell = stack[--top];
        for (int k = 0; k < 4; k++) {
            int32_t next = cell + step[k];
            if (stamp[next] == mark) continue;
            unsigned code = grid[next];
            if (passable[code]) {
                stamp[next] = mark;
                stack[top++] = next;
            } else if (code >= MAZE_TAC_TOE_MOVE) {
                stamp[next] = mark; /* its piece is noted; no need to look at it again */
                pieces |= 1u << (code - MAZE_TAC_TOE_MOVE);
            }
        }
    }
    return pieces;
}

static bool walk_init(region_walk *wk, const maze_tac_toe_maze *maze)
{
    int n = maze->n, w = n + 2;
    size_t cells = (size_t)w * (size_t)w;
    wk->width = w;
    wk->start = (maze->start_row + 1) * w + maze->start_col + 1;
    wk->grid = calloc(cells, 1); /* zero = wall: the padding ring */
    wk->stamp = calloc(cells, sizeof *wk->stamp);
    wk->stack = malloc(cells * sizeof *wk->stack);
    if (!wk->grid || !wk->stamp || !wk->stack) return false;
    for (int r = 0; r < n; r++)
        memcpy(wk->grid + (size_t)(r + 1) * (size_t)w + 1, maze->cells + (size_t)r * (size_t)n,
               (size_t)n);
    return true;
}

static void walk_free(region_walk *wk)
{
    free(wk->grid);
    free(wk->stamp);
    free(wk->stack);
}

static bool maze_is_usable(const maze_tac_toe_maze *maze)
{
    if (!maze || !maze->cells || maze->n < MAZE_TAC_TOE_MIN_N || maze->n > MAZE_TAC_TOE_MAX_N)
        return false;
    int n = maze->n;
    if (maze->start_row < 0 || maze->start_row >= n || maze->start_col < 0 || maze->start_col >= n)
        return false;
    if (maze->cells[maze->start_row * n + maze->start_col] != MAZE_TAC_TOE_OPEN) return false;
    for (int i = 0; i < n * n; i++)
        if (maze->cells[i] >= MAZE_TAC_TOE_CELL_CODES) return false;
    return true;
}

/* Board states: unseen, seen and still in play, seen and winning. */
enum { UNSEEN = 0, PLAYING = 1, WON = 2 };

maze_tac_toe_status maze_tac_toe_solve(const maze_tac_toe_maze *maze, bool want_boards, budget *b,
                                       maze_tac_toe_result *out)
{
    out->count = 0;
    out->boards = NULL;
    if (!maze_is_usable(maze)) return MAZE_TAC_TOE_BAD_MAZE;
    call_once(&tables_once, build_tables);

    maze_tac_toe_status status = MAZE_TAC_TOE_OK;
    region_walk wk;
    bool walk_ok = walk_init(&wk, maze);
    unsigned char *state = calloc(MAZE_TAC_TOE_BOARDS, 1);
    uint16_t *queue = malloc(MAZE_TAC_TOE_BOARDS * sizeof *queue);
    uint32_t border_pieces[FILLED_BITS + 1];
    bool border_known[FILLED_BITS + 1] = {false};
    if (!walk_ok || !state || !queue) {
        status = MAZE_TAC_TOE_NO_MEMORY;
        goto done;
    }

    size_t head = 0, tail = 0, wins = 0;
    state[0] = PLAYING; /* the empty board: the start places nothing */
    queue[tail++] = 0;
    while (head < tail) {
        if (budget_expired(b)) {
            status = MAZE_TAC_TOE_TIME_LIMIT;
            goto done;
        }
        unsigned board = queue[head++];
        unsigned filled = board_info[board] & FILLED_BITS;
        if (!border_known[filled]) {
            border_pieces[filled] = region_border_pieces(&wk, filled);
            border_known[filled] = true;
        }
        /* Every bordering piece lies on an empty square: a taken square's cells are passable. */
        for (uint32_t pieces = border_pieces[filled]; pieces; pieces &= pieces - 1) {
            unsigned p = (unsigned)__builtin_ctz(pieces);
            unsigned next = board + ((p & 1) + 1) * square_weight[p >> 1];
            if (state[next] != UNSEEN) continue;
            if (board_info[next] & WIN_BIT) {
                state[next] = WON; /* the game stops here: counted, never extended */
                wins++;
            } else {
                state[next] = PLAYING;
                queue[tail++] = (uint16_t)next;
            }
        }
    }

    if (want_boards) {
        out->boards = malloc((wins ? wins : 1) * sizeof *out->boards);
        if (!out->boards) {
            status = MAZE_TAC_TOE_NO_MEMORY;
            goto done;
        }
        size_t k = 0;
        for (unsigned board = 0; board < MAZE_TAC_TOE_BOARDS; board++)
            if (state[board] == WON) out->boards[k++] = (uint16_t)board;
    }
    out->count = wins;

done:
    walk_free(&wk);
    free(state);
    free(queue);
    return status;
}

void maze_tac_toe_result_free(maze_tac_toe_result *r)
{
    if (!r) return;
    free(r->boards);
    r->boards = NULL;
    r->count = 0;
}
