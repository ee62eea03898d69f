#include "nine.h"

#include <stdlib.h>
#include <string.h>

#include "nine_beam.h"
#include "nine_greedy.h"
#include "nine_macro.h"
#include "nine_small.h"

/* The improvement search (a beam search) gets at most a tenth of the budget and at most
 * improve_ms, so the answer never risks the request's deadline. Boards above NINE_BEAM_MAX_N
 * get the greedy construction only (it already takes a fifth of a second at 64 x 64). */

void nine_options_default(nine_options *o)
{
    o->improve_ms = 250;
    o->beam_width = 40;
    o->beam_per_node = 16;
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

static nine_status solve_large(const nine_board *bd, const nine_options *opt, budget *b,
                               nine_solution *out)
{
    const nine_library *lib = nine_library_get(bd->n);
    if (!lib) return finish(out, NINE_NO_MEMORY);
    nine_moves best = {0}, trial = {0};
    nine_board work = *bd;
    nine_greedy_status st = nine_greedy_solve(&work, lib, &best, b);
    size_t raw_len = best.len;
    if (st == NINE_GREEDY_OK) best.len = simplify(best.v, best.len);
    if (st == NINE_GREEDY_OK && bd->n <= NINE_BEAM_MAX_N && opt->improve_ms > 0 &&
        opt->beam_width > 0 && opt->beam_per_node > 0) {
        /* The beam gets its own small slice; when it runs out the beam finishes greedily. */
        long slice = budget_remaining_ms(b);
        slice = slice < 0 || slice / 10 > opt->improve_ms ? opt->improve_ms : slice / 10;
        budget beam_budget;
        budget_init_ms(&beam_budget, slice, b->cancel);
        nine_greedy_status bs = nine_beam_solve(bd, lib, opt->beam_width, opt->beam_per_node,
                                                (int)raw_len, &trial, &beam_budget);
        if (bs == NINE_GREEDY_OK && trial.len) trial.len = simplify(trial.v, trial.len);
        if (bs == NINE_GREEDY_OK && trial.len && trial.len < best.len) {
            nine_moves swap = best;
            best = trial;
            trial = swap;
        }
    }
    nine_moves_free(&trial);
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
    nine_options_default(&opt);
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
