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

/* Solves bd in place (it must be solvable), appending the moves to out. */
nine_greedy_status nine_greedy_solve(nine_board *bd, const nine_library *lib, nine_moves *out,
                                     budget *b);

/* One step: a library macro after turning A qa and B qb quarters left; it removes `red` ones
 * from A for `cost` moves. */
typedef struct nine_step {
    int macro; /* a library macro, or with group != 0 a group commutator (see below) */
    uint8_t qa, qb;
    int red, cost;
    /* Group commutators of large boards: [Ca, X Cb.. X'] over the columns b of `group` (macro =
     * -1) or [Ca.., X Cb X'] over the columns a of `group` (macro = -2), with X = turn, and the
     * lone column `lone`. */
    uint64_t group;
    uint8_t turn, lone;
    bool mirrored; /* the library macro's mirror image (columns k -> n+1-k) */
    int red_diag;  /* of `red`, the ones removed from A's diagonal cells (flat libraries) */
} nine_step;

/* The k best steps from bd by ratio red / cost (only steps that remove ones); returns how many.
 * `tail`: the columns swapped at the end of the moves so far (after the last rotation); a step
 * with no set-up that starts by swapping one of them again is two moves cheaper per repeat (the
 * final simplification cancels the pair), and its cost says so. */
int nine_step_candidates(const nine_board *bd, const nine_library *lib, nine_step *best, int k,
                         uint64_t tail);

/* The most moves of a step without its set-up: a group over every column. */
#define NINE_STEP_MAX_MOVES (2 * NINE_MAX_N + 8)

/* The step's moves after its set-up, into moves (room for NINE_STEP_MAX_MOVES); the count. */
int nine_step_moves(int n, const nine_library *lib, const nine_step *step, uint8_t *moves);

/* Applies a step to bd and appends its moves to out (unless NULL); false when out of memory. */
bool nine_step_apply(nine_board *bd, const nine_library *lib, const nine_step *step,
                     nine_moves *out);

/* The last moves of a solution in reduced form (nine_moves_push_reduced): a step is priced by
 * what it really adds once swaps and turns that repeat across the join cancel. */
#define NINE_SUFFIX 24
typedef struct nine_suffix {
    uint8_t v[NINE_SUFFIX];
    uint8_t len;
} nine_suffix;

/* The columns swapped at the end of the suffix, after its last rotation. */
uint64_t nine_suffix_tail(const nine_suffix *s);

/* Appends step to suffix s into out (out may be s only if the caller copies first): the
 * number of moves the step really adds (at most its cost; at least 1 in practice). */
int nine_suffix_join(const nine_suffix *s, int n, const nine_library *lib, const nine_step *step,
                     nine_suffix *out);

#endif
