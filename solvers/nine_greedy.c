/* Greedy by rate: every step evaluates every macro of the library under each of the 16 set-ups
 * (A and B each turned 0..3 quarters first) and takes the one with the best ratio of ones removed
 * from A to moves spent. The library always holds a single-transfer macro for every orbit, and
 * an orbit holding a one of A also holds a zero of B (A's and B's ones there add up to its size),
 * so some choice removes a one at a cost of at most 7 + 2 + 2 moves: the ratio never drops
 * below 1/11 and the total stays below 11 moves per one of A (891 for 9 x 9). */
#include "nine_greedy.h"

static const int setup_cost[4] = {0, 1, 2, 1};

static int count_at(const uint64_t *m, int n, const uint16_t *cells, int k)
{
    int ones = 0;
    for (int t = 0; t < k; t++) ones += (int)((m[cells[t] / n] >> (cells[t] % n)) & 1u);
    return ones;
}

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static bool push_setup(nine_moves *out, nine_board *bd, int quarter, int left)
{
    int moves[2], k = 0;
    if (quarter == 1) moves[k++] = left;
    if (quarter == 2) moves[k++] = left, moves[k++] = left;
    if (quarter == 3) moves[k++] = left + 1;
    for (int t = 0; t < k; t++) {
        if (!nine_moves_push(out, moves[t])) return false;
        nine_board_apply(bd, moves[t]);
    }
    return true;
}

nine_greedy_status nine_greedy_solve(nine_board *bd, const nine_library *lib, uint64_t tie_seed,
                                     size_t stop_above, nine_moves *out, budget *b)
{
    int n = bd->n;
    uint64_t rot_a[4][NINE_MAX_N], rot_b[4][NINE_MAX_N];
    uint64_t rng = tie_seed;
    while (nine_board_ones_a(bd) > 0) {
        if (budget_expired(b)) return NINE_GREEDY_TIME_OUT;
        if (stop_above && out->len > stop_above) return NINE_GREEDY_OK;
        for (int q = 0; q < 4; q++) {
            nine_board_rotate(rot_a[q], bd->a, n, q);
            nine_board_rotate(rot_b[q], bd->b, n, q);
        }
        int best_red = 0, best_cost = 1, best_m = -1, best_qa = 0, best_qb = 0, ties = 0;
        for (int mi = 0; mi < lib->count; mi++) {
            const nine_macro *m = &lib->macros[mi];
            const uint16_t *src = lib->pool + m->first;
            int gain[4], loss[4];
            for (int q = 0; q < 4; q++) {
                gain[q] = count_at(rot_a[q], n, src, m->transfers);
                loss[q] = count_at(rot_b[q], n, src + m->transfers, m->transfers);
            }
            for (int qa = 0; qa < 4; qa++)
                for (int qb = 0; qb < 4; qb++) {
                    int red = gain[qa] - loss[qb];
                    if (red <= 0) continue;
                    int cost = m->len + setup_cost[qa] + setup_cost[qb];
                    long lhs = (long)red * best_cost, rhs = (long)best_red * cost;
                    bool take = lhs > rhs || (lhs == rhs && red > best_red);
                    if (take) {
                        ties = 1;
                    } else if (lhs == rhs && red == best_red && tie_seed) {
                        ties++;
                        take = next_random(&rng) % (uint64_t)ties == 0;
                    }
                    if (take)
                        best_red = red, best_cost = cost, best_m = mi, best_qa = qa, best_qb = qb;
                }
        }
        if (best_m < 0) return NINE_GREEDY_OK; /* unsolvable input: cannot happen when checked */
        const nine_macro *m = &lib->macros[best_m];
        if (!push_setup(out, bd, best_qa, NINE_MOVE_AL) ||
            !push_setup(out, bd, best_qb, NINE_MOVE_BL))
            return NINE_GREEDY_NO_MEMORY;
        for (int t = 0; t < m->len; t++) {
            if (!nine_moves_push(out, m->moves[t])) return NINE_GREEDY_NO_MEMORY;
            nine_board_apply(bd, m->moves[t]);
        }
    }
    return NINE_GREEDY_OK;
}
