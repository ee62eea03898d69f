/* Beam search by cost over the greedy's steps (see nine_beam.c). */
#ifndef PUZZLED_NINE_BEAM_H
#define PUZZLED_NINE_BEAM_H

#include "budget.h"
#include "nine_greedy.h"
#include "nine_tail.h"

/* The beam packs boards; larger ones get the greedy construction only. */
#define NINE_BEAM_MAX_N 16

/* The search's work, fixed (never the clock) so that a board always gets the same answer. */
typedef struct nine_beam_params {
    int width;             /* partial solutions kept per cost, */
    int opening_width;     /* but this many (0: `width`) at the costs below */
    int opening_percent;   /* this share (%) of the start's ones of A */
    int per_node;          /* steps tried from each */
    long max_expansions;   /* partial solutions extended in all; then the greedy finishes */
    const nine_tail *tail; /* exact finishing (NULL: none) ... */
    int tail_ones;         /* ... tried on partial solutions with at most this many ones in A, */
    int tail_per_bucket;   /* at most this many per cost (the fewest ones first), */
    int tail_forward;      /* each with this forward depth */
} nine_beam_params;

/* Seeks a solution of fewer than `bound` moves, each partial solution extended by its
 * `per_node` best steps and every cost keeping `width` of them, and finished exactly where the
 * tail reaches. The answer replaces out's contents; out->len == 0 when none was found. After
 * max_expansions the most promising partial solution is finished by the greedy instead. The
 * budget only aborts: NINE_GREEDY_OK, NINE_GREEDY_TIME_OUT or NINE_GREEDY_NO_MEMORY. */
nine_greedy_status nine_beam_solve(const nine_board *start, const nine_library *lib,
                                   const nine_beam_params *p, int bound, nine_moves *out,
                                   budget *b);

#endif
