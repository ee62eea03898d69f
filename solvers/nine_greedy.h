/* The general 9-Nine construction: repeatedly apply the macro (with set-up rotations of A and B)
 * that removes the most ones from A per move. */
#ifndef PUZZLED_NINE_GREEDY_H
#define PUZZLED_NINE_GREEDY_H

#include "budget.h"
#include "nine_board.h"
#include "nine_macro.h"

typedef enum nine_greedy_status {
    NINE_GREEDY_OK,
    NINE_GREEDY_TIME_OUT,
    NINE_GREEDY_NO_MEMORY
} nine_greedy_status;

/* Solves bd in place (it must be solvable), appending the moves to out. `tie_seed` != 0 breaks
 * ties between equally good choices pseudo-randomly (for restarts); 0 takes the first.
 * `stop_above`: give up (NINE_GREEDY_OK with bd unsolved) once out holds more moves; 0: never. */
nine_greedy_status nine_greedy_solve(nine_board *bd, const nine_library *lib, uint64_t tie_seed,
                                     size_t stop_above, nine_moves *out, budget *b);

#endif
