#include "nine.h"

#include <stdlib.h>
#include <string.h>

#include "nine_beam.h"
#include "nine_greedy.h"
#include "nine_macro.h"
#include "nine_small.h"
#include "nine_tail.h"

/* The improvement search (a beam search) is bounded by its work alone, so that the same board
 * gets the same answer on a busy machine; the budget only aborts it. Boards above
 * NINE_BEAM_MAX_N get the greedy construction only (it already takes a fifth of a second at
 * 64 x 64). Defaults measured in bench/RESULTS-nine.md. */

void nine_options_default(nine_options *o, int n)
{
    o->improve = true;
    /* Boards whose library is enumerated (n <= NINE_ENUM_MAX_N: thousands of macros, so a
     * search step costs more and gains more) keep fewer partial solutions than the larger
     * boards, and 9 x 9 fewer again, to stay within the 100 ms a 9 x 9 solve may take on a slow
     * host. 9 x 9, 1 000 states on an AVX2-only host: 15/60 gave 76.10 moves for 126.6 ms,
     * 10/30 77.67 moves for 80.3 ms. The other sizes keep 15/60 (bench/RESULTS-nine.md):
     * n = 8 59.15 moves (60.14 at 10/30, stop 25); 10 x 10 94.20 moves at 132 ms (96.75 at
     * 10/30, stop 31); 11 x 11 120.55 moves at 157 ms, where the wide beam over the families
     * took 206 ms for 141.95 moves (stop 30). */
    bool enumerated = n <= NINE_ENUM_MAX_N, narrow = n == 9;
    o->beam_width = enumerated ? (narrow ? 10 : 15) : 44;
    o->beam_opening_width = enumerated ? (narrow ? 30 : 60) : 160;
    o->beam_opening_percent = 70;
    o->beam_per_node = 16;
    o->max_expansions = 28000;
    o->tail = true;
    o->tail_ones = 2;
    o->tail_per_bucket = 1;
    o->tail_forward = 4;
    o->polish_forward = 5;
    o->polish_window = 4;
}

int nine_move_name(int move, char buf[4])
{
    static const char *const rot[4] = {"AL", "AR", "BL", "BR"};
    if (move < NINE_MOVE_C0) {
        memcpy(buf, rot[move], 3);
        return 2;
    }
    int k = move - NINE_MOVE_C0 + 1, len = 0;
    buf[len++] = 'C';
    if (k >= 10) buf[len++] = (char)('0' + k / 10);
    buf[len++] = (char)('0' + k % 10);
    buf[len] = '\0';
    return len;
}

bool nine_solvable(const nine_board *bd, nine_orbit_report *report)
{
    int n = bd->n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int cells[4][2], k = nine_orbit_cells(n, i, j, cells), ones = 0;
            bool first = true; /* visit each orbit once: at its smallest cell */
            for (int t = 0; t < k; t++) {
                int r = cells[t][0], c = cells[t][1];
                if (r * n + c < i * n + j) first = false;
                ones += nine_get(bd->a, r, c) + nine_get(bd->b, r, c);
            }
            if (!first || ones == k) continue;
            report->cells = k;
            report->ones = ones;
            for (int t = 0; t < k; t++) report->row[t] = cells[t][0], report->col[t] = cells[t][1];
            return false;
        }
    return true;
}

/* Cancels what undoes itself: adjacent rotations of one matrix merge (A's and B's rotations
 * commute, so a run of rotations is reduced to its net turn of each matrix), a column swap
 * meets its twin across other column swaps; trailing rotations are dropped. In place. */
static size_t simplify(uint8_t *v, size_t len)
{
    size_t top = 0;
    for (size_t t = 0; t < len; t++) top = nine_moves_push_reduced(v, top, v[t]);
    while (top > 0 && v[top - 1] < NINE_MOVE_C0) top--;
    return top;
}

static nine_status finish(nine_solution *out, nine_status status)
{
    out->status = status;
    return status;
}

/* The tail search trusts 60-bit fingerprints: its answer is replayed before it is used. */
static bool replays(const nine_board *bd, const nine_moves *m)
{
    nine_board w = *bd;
    for (size_t t = 0; t < m->len; t++) nine_board_apply(&w, m->v[t]);
    return nine_board_is_goal(&w);
}

static nine_status solve_large(const nine_board *bd, const nine_options *opt, budget *b,
                               nine_solution *out)
{
    /* The tables are built on a size's first solve, within this solve's budget. Without the
     * tail the answer would be another one, so a tail cut short by the budget is a time limit,
     * as the library is; only out of memory goes on without it. */
    const nine_library *lib = nine_library_get(bd->n, b);
    const nine_tail *tail = lib && opt->improve && opt->tail ? nine_tail_get(bd->n, b) : NULL;
    if (budget_expired(b)) return finish(out, NINE_TIME_LIMIT);
    if (!lib) return finish(out, NINE_NO_MEMORY);
    nine_moves best = {0}, trial = {0};
    nine_board work = *bd;
    nine_greedy_status st = nine_greedy_solve(&work, lib, &best, b);
    size_t raw_len = best.len;
    if (st == NINE_GREEDY_OK) best.len = simplify(best.v, best.len);
    if (st == NINE_GREEDY_OK && bd->n <= NINE_BEAM_MAX_N && opt->improve && opt->beam_width > 0 &&
        opt->beam_per_node > 0) {
        nine_beam_params p = {.width = opt->beam_width,
                              .opening_width = opt->beam_opening_width,
                              .opening_percent = opt->beam_opening_percent,
                              .per_node = opt->beam_per_node,
                              .max_expansions = opt->max_expansions,
                              .tail = tail,
                              .tail_ones = opt->tail_ones,
                              .tail_per_bucket = opt->tail_per_bucket,
                              .tail_forward = opt->tail_forward};
        st = nine_beam_solve(bd, lib, &p, (int)raw_len, &trial, b);
        if (st == NINE_GREEDY_OK && trial.len) trial.len = simplify(trial.v, trial.len);
        if (st == NINE_GREEDY_OK && trial.len && trial.len < best.len && replays(bd, &trial)) {
            nine_moves swap = best;
            best = trial;
            trial = swap;
        }
    }
    nine_moves_free(&trial);
    if (st == NINE_GREEDY_OK && tail && opt->polish_window >= 0) {
        /* The polished end is exact; the answer is checked again as a whole. */
        nine_moves polished = {malloc(best.len), best.len, best.len};
        if (polished.v) {
            memcpy(polished.v, best.v, best.len);
            polished.len = nine_tail_polish(tail, bd, polished.v, polished.len, opt->polish_forward,
                                            opt->polish_window);
            polished.len = simplify(polished.v, polished.len);
            if (polished.len < best.len && replays(bd, &polished)) {
                nine_moves swap = best;
                best = polished;
                polished = swap;
            }
            nine_moves_free(&polished);
        }
    }
    if (st != NINE_GREEDY_OK) {
        nine_moves_free(&best);
        return finish(out, st == NINE_GREEDY_TIME_OUT ? NINE_TIME_LIMIT : NINE_NO_MEMORY);
    }
    out->moves = best.v;
    out->move_count = best.len;
    return finish(out, NINE_OK);
}

nine_status nine_solve(const nine_board *bd, long max_moves, budget *b, nine_solution *out)
{
    nine_options opt;
    nine_options_default(&opt, bd->n);
    return nine_solve_ex(bd, max_moves, &opt, b, out);
}

nine_status nine_solve_ex(const nine_board *bd, long max_moves, const nine_options *opt, budget *b,
                          nine_solution *out)
{
    memset(out, 0, sizeof *out);
    if (!nine_solvable(bd, &out->orbit)) {
        out->optimal = true;
        return finish(out, NINE_UNSOLVABLE);
    }
    nine_status st = NINE_OK;
    if (nine_board_is_goal(bd)) {
        out->optimal = true;
    } else if (bd->n <= NINE_SMALL_MAX_N) {
        uint8_t moves[64];
        int count = 0;
        if (!nine_small_solve(bd, moves, &count)) return finish(out, NINE_UNSOLVABLE);
        out->moves = malloc((size_t)count);
        if (!out->moves) return finish(out, NINE_NO_MEMORY);
        memcpy(out->moves, moves, (size_t)count);
        out->move_count = (size_t)count;
        out->optimal = true;
    } else {
        st = solve_large(bd, opt, b, out);
    }
    if (st == NINE_OK && max_moves >= 0 && out->move_count > (size_t)max_moves) {
        free(out->moves); /* move_count stays: the length of the best answer found */
        out->moves = NULL;
        return finish(out, NINE_OVER_LIMIT);
    }
    return finish(out, st);
}

void nine_solution_free(nine_solution *s)
{
    free(s->moves);
    s->moves = NULL;
    s->move_count = 0;
}
