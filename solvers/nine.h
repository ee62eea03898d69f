/* 9-Nine (XJTUPC 2025) on n x n boards, 1 <= n <= 64: turn A all 0 and B all 1 with the moves
 * AL/AR/BL/BR (rotate A or B left/right) and Ck (swap column k of A and B).
 *
 * n <= 3 is answered from a breadth-first table (shortest answers); larger n by a greedy over a
 * library of short transfer sequences (nine_greedy.c, nine_macro.c), improved for n <= 16 by a
 * beam search (nine_beam.c) of fixed work that, for n <= 9, finishes partial solutions by an
 * exact search (nine_tail.c). The same board always gets the same answer. */
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
/* How hard nine_solve_ex tries beyond the construction (boards of 4 to 16). Every limit is an
 * amount of work, never time, so that a board always gets the same answer; the budget only
 * aborts (NINE_TIME_LIMIT). */
typedef struct nine_options {
    bool improve;             /* false: the greedy construction alone */
    int beam_width;           /* partial solutions kept per cost, */
    int beam_opening_width;   /* but this many (0: beam_width) at the costs below */
    int beam_opening_percent; /* this share (%) of the start's ones of A */
    int beam_per_node;        /* steps tried from each */
    long max_expansions;      /* partial solutions extended in all */
    bool tail;                /* exact finishing search (boards of 4 to 9): */
    int tail_ones;            /* tried on partial solutions with at most this many ones in A, */
    int tail_per_bucket;      /* at most this many per cost, */
    int tail_forward;         /* each with this forward depth; */
    int polish_forward;       /* and the answer's last states finished exactly with this depth, */
    int polish_window;        /* up to forward + radius + window moves from its end (< 0: none) */
} nine_options;

/* The defaults nine_solve uses for n x n boards. */
void nine_options_default(nine_options *o, int n);

/* nine_solve with explicit options (improve = false: the plain construction only). */
nine_status nine_solve_ex(const nine_board *bd, long max_moves, const nine_options *opt, budget *b,
                          nine_solution *out);
void nine_solution_free(nine_solution *s);

/* The move's contest name ("AL", "C7", ...) into buf (room for 4); returns its length. */
int nine_move_name(int move, char buf[4]);

/* Checks the orbit counts; false + *report for the first orbit that fails. */
bool nine_solvable(const nine_board *bd, nine_orbit_report *report);

#endif
