/* 9-Nine (XJTUPC 2025) on n x n boards, 1 <= n <= 64: turn A all 0 and B all 1 with the moves
 * AL/AR/BL/BR (rotate A or B left/right) and Ck (swap column k of A and B).
 *
 * n <= 3 is answered from a breadth-first table (shortest answers); larger n by a greedy over a
 * library of short transfer sequences (nine_greedy.c, nine_macro.c), improved for n <= 16 by a
 * beam search (nine_beam.c) while a small slice of the time budget lasts. */
#ifndef PUZZLED_NINE_H
#define PUZZLED_NINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "budget.h"
#include "nine_board.h"

typedef enum nine_status {
    NINE_OK,         /* moves solve the board */
    NINE_UNSOLVABLE, /* an orbit holds the wrong number of ones: see `orbit` */
    NINE_OVER_LIMIT, /* no solution within max_moves was found (a proof when `optimal`) */
    NINE_TIME_LIMIT, /* the budget ran out before a solution was built */
    NINE_NO_MEMORY
} nine_status;

/* An orbit that makes the board unsolvable: its cells (0-based) and the ones found there. */
typedef struct nine_orbit_report {
    int cells;
    int row[4], col[4];
    int ones;
} nine_orbit_report;

typedef struct nine_solution {
    nine_status status;
    bool optimal;      /* the solution (or, for NINE_OVER_LIMIT, the refusal) is proven best */
    uint8_t *moves;    /* move codes of nine_board.h, malloc'd (NULL when none) */
    size_t move_count; /* for NINE_OVER_LIMIT: the length of the best answer found */
    nine_orbit_report orbit;
} nine_solution;

/* Solves bd. max_moves < 0: no limit. Fills *out (free it with nine_solution_free) and returns
 * out->status. */
nine_status nine_solve(const nine_board *bd, long max_moves, budget *b, nine_solution *out);
/* How hard nine_solve_ex tries beyond the construction (boards of 4 to 16). */
typedef struct nine_options {
    long improve_ms; /* the beam search's time cap (also at most a tenth of the budget); 0: none */
    int beam_width;  /* partial solutions kept per cost */
    int beam_per_node; /* steps tried from each */
} nine_options;

/* The defaults nine_solve uses. */
void nine_options_default(nine_options *o);

/* nine_solve with explicit options (improve_ms = 0: the plain construction only, fast and
 * deterministic). */
nine_status nine_solve_ex(const nine_board *bd, long max_moves, const nine_options *opt, budget *b,
                          nine_solution *out);
void nine_solution_free(nine_solution *s);

/* The move's contest name ("AL", "C7", ...) into buf (room for 4); returns its length. */
int nine_move_name(int move, char buf[4]);

/* Checks the orbit counts; false + *report for the first orbit that fails. */
bool nine_solvable(const nine_board *bd, nine_orbit_report *report);

#endif
