/* Beam search over the greedy's steps: keeps the `width` most promising partial solutions, each
 * extended by its `per_node` best steps, ranked by moves spent + alpha x ones left in A. */
#ifndef PUZZLED_NINE_BEAM_H
#define PUZZLED_NINE_BEAM_H

#include "budget.h"
#include "nine_greedy.h"

/* Writes the best solution found into out (replacing its contents) when it is shorter than
 * `shorter_than` moves (after simplification by the caller: raw length here). Returns
 * NINE_GREEDY_OK (out->len == 0 when nothing better was found), or a failure. */
nine_greedy_status nine_beam_solve(const nine_board *start, const nine_library *lib, int width,
                                   int per_node, int alpha_x10, nine_moves *out, budget *b);

#endif
