/* Beam search by cost over the greedy's steps (see nine_beam.c). */
#ifndef PUZZLED_NINE_BEAM_H
#define PUZZLED_NINE_BEAM_H

#include "budget.h"
#include "nine_greedy.h"

/* The beam packs boards; larger ones get the greedy construction only. */
#define NINE_BEAM_MAX_N 16

/* Seeks a solution of fewer than `bound` raw moves, each partial solution extended by its
 * `per_node` best steps and every cost keeping `width` of them. The answer replaces out's
 * contents; out->len == 0 when none was found. When the budget runs out first, the most promising
 * partial solution is finished by the greedy instead. NINE_GREEDY_OK or NINE_GREEDY_NO_MEMORY. */
nine_greedy_status nine_beam_solve(const nine_board *start, const nine_library *lib, int width,
                                   int per_node, int bound, nine_moves *out, budget *b);

#endif
