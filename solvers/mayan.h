/* Mayan puzzle (NOIP 2011), generalised to boards up to 16 x 16 and up to 10 moves: find the
 * lexicographically smallest sequence of exactly `moves` moves that empties the board. */
#ifndef PUZZLED_MAYAN_H
#define PUZZLED_MAYAN_H

#include <stddef.h>
#include <stdint.h>

#include "budget.h"

#define MAYAN_MAX_SIDE 16
#define MAYAN_MAX_MOVES 10
#define MAYAN_MAX_COLOUR 10

/* cell[x][y]: column x (0 = left), row y (0 = bottom); 0 = empty, else a colour 1..10.
 * Blocks stand on the floor or on another block: no empty cell under a block. */
typedef struct mayan_board {
    int width;  /* 1..16 */
    int height; /* 1..16 */
    unsigned char cell[MAYAN_MAX_SIDE][MAYAN_MAX_SIDE];
} mayan_board;

/* Drag the block at (x, y) one column right (direction 1) or left (direction -1). */
typedef struct mayan_move {
    int x, y, direction;
} mayan_move;

typedef enum mayan_status {
    MAYAN_SOLVED,      /* moves[] holds the smallest solution */
    MAYAN_NO_SOLUTION, /* proven: no sequence of exactly `moves` moves empties the board */
    MAYAN_TIME_LIMIT,  /* the budget ran out first */
    MAYAN_BAD_INPUT,   /* sizes, move count, colours or a floating block out of the rules */
    MAYAN_NO_MEMORY,
} mayan_status;

typedef struct mayan_result {
    mayan_status status;
    int move_count; /* = moves when solved, else 0 */
    mayan_move moves[MAYAN_MAX_MOVES];
    uint64_t nodes;        /* search nodes expanded (for benchmarks) */
    uint64_t table_hits;   /* nodes cut by the failure table */
    uint64_t bound_cuts;   /* nodes cut by the lower bound (mayan_bound.h) */
    uint64_t commute_cuts; /* still swaps skipped as a reordering of commuting moves */
    uint64_t pair_cuts;    /* with two moves left, nodes limited to the moves of their two colours
                              out of place, because one swap could not mend both (mayan.c,
                              pair_blocked); children refused that way count as bound_cuts */
    uint64_t reach_cuts;   /* with two moves left, still swaps ruled out because they leave a colour
                              out of place and touch nothing its last moves read
                              (mayan_reach.h) */
    uint64_t reorder_cuts; /* boards of 6 columns or more: children of moves other than still
                              swaps skipped as a reordering of moves that change columns three or
                              more apart (mayan.c, moved_before) */
    uint64_t parent_answers; /* boards of 6 columns or more: last moves refused from how they played
                                on the node before, far from what the move between changed
                                (mayan.c, fails_as_on_parent) */
    size_t table_bytes;      /* memory the failure table reached */
    uint64_t helper_nodes;   /* nodes expanded by the helper thread (0: none was started) */
    uint64_t root_cuts;      /* once helped, commuting-swap cuts in either thread back to a root
                                child or one of its children marked failed (by either thread) */
    uint64_t shared_units;   /* once helped, children of root children that a thread found held by
                                the other and set aside (mayan.c, search_units) */
    bool helper_answered;    /* the helper thread found the answer (the same answer) */
} mayan_result;

/* The failure table never grows beyond this many bytes; past it, entries are replaced. */
#define MAYAN_TABLE_MAX_BYTES ((size_t)64 << 20)
/* Nodes with fewer moves left than this are not recorded. 1: every depth (leaving out depth 1
 * or 2 was measured equal or slower, with 2-3x the nodes; bench/RESULTS-mayan.md), except nodes
 * with one move left and two colours out of place, which bit masks answer faster. */
#define MAYAN_TABLE_FROM 1
/* A search that has expanded this many nodes (about 1.5 ms) is deep enough to pay for a thread.
 * 8 192 gave the same worst boards, but searches of 5-50 ms took about a third longer
 * (RESULTS-mayan.md, round 15); from 512 down, thread starts on short searches cost more than
 * they gain. */
#define MAYAN_HELPER_AT_NODES 2048

/* Settles the board first (an initial board may hold runs), then searches. Returns out->status.
 * Checks budget_expired(b) at every search node, so it stops soon after the budget runs out.
 * With b->threads >= 2, a search still going after MAYAN_HELPER_AT_NODES nodes (about 1.5 ms)
 * starts one helper thread if a core is idle (budget_take_core; else it asks again after twice
 * the nodes), joined before the call returns: the answer is the same, only sooner (mayan.c). The
 * helper stops early when a request needs its core (budget.gives_way). */
mayan_status mayan_solve(const mayan_board *board, int moves, budget *b, mayan_result *out);

/* The same with the failure table capped at table_bytes (0: no table at all). The answer never
 * depends on the cap, only the time does; tests use it to exercise replacement. */
mayan_status mayan_solve_capped(const mayan_board *board, int moves, size_t table_bytes, budget *b,
                                mayan_result *out);

/* Tests: mayan_solve_capped with the helper thread started after helper_at nodes (1: at the
 * root); with b->threads of 1, whatever the cores do (else as mayan_solve). With helper_first
 * nonzero, the helper runs first, in the calling thread, for at most that many nodes
 * (MAYAN_HELPER_TO_ITS_END: no limit) before the search goes on: the root children it claims and
 * what it finds there are then fixed, not a race. Stopped short, it leaves its last child
 * claimed, as if it were still searching it. */
#define MAYAN_HELPER_TO_ITS_END UINT64_MAX
mayan_status mayan_solve_helped(const mayan_board *board, int moves, uint64_t helper_at,
                                uint64_t helper_first, size_t table_bytes, budget *b,
                                mayan_result *out);

/* Tests: mayan_solve with the search's direct tables (mayan_bound.h) on boards of at most 5
 * columns whatever the move count; mayan_solve sets them up only from 5 moves, where they pay.
 * Same answers, so that the tests' reference searches of 1 to 4 moves cover that code too. */
mayan_status mayan_solve_direct(const mayan_board *board, int moves, budget *b, mayan_result *out);

#endif
