/* The row runs a Rubik's Rectangle plan chooses from (rubiks_rectangle.c): every single-pair run
 * of up to five row events, the joint runs of two and three pairs found offline, and the
 * four-pair runs, each with its table of column choices (rubiks_rectangle_group.h). The tables
 * are built on first use, within that solve's budget, once per process (the four-pair ones only
 * when asked for), and then shared read-only by every solve. */
#ifndef PUZZLED_RUBIKS_RECTANGLE_RUNS_H
#define PUZZLED_RUBIKS_RECTANGLE_RUNS_H

#include <stdbool.h>

#include "budget.h"
#include "rubiks_rectangle_group.h"

#define RR_RUNS_MAX 160 /* at least every run of the catalogue (checked where it is built) */

typedef struct rr_run_list {
    const rubiks_rectangle_seq *seq[RR_RUNS_MAX];
    int count;
} rr_run_list;

/* The group's tables the runs were built with; NULL when out of memory or when the budget b
 * (NULL: none) runs out while the runs of up to three pairs are built (about 30 ms, on the first
 * call; budget_expired(b) tells which). */
const rubiks_rectangle_group *rr_runs_group(budget *b);

/* The runs of one, two and three pairs, plus the four-pair runs when `quads` (built on the first
 * call that asks, about 75 ms); false when out of memory or out of the budget b (NULL: none).
 * A build cut short is not kept: the next call starts it again. A call waits for a build another
 * thread has under way. */
bool rr_runs_list(rr_run_list *list, bool quads, budget *b);

/* The run for a block of `pairs` row pairs with parities `parity` (odd pairs first) serving
 * `cols` column pairs: fewest expected flips, its row flips (one more for each pair whose parity
 * differs, when prefixes are allowed) plus cols times its mean column cost. NULL if none fits. */
const rubiks_rectangle_seq *rr_runs_pick(const rr_run_list *list, int pairs, unsigned parity,
                                         int cols, bool prefix);

#endif
