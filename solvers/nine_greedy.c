/* Greedy by rate: every step evaluates every macro of the library under each of the 16 set-ups
 * (A and B each turned 0..3 quarters first) and takes the one with the best ratio of ones removed
 * from A to moves spent. The library always holds a single-transfer macro for every orbit, and
 * an orbit holding a one of A also holds a zero of B (A's and B's ones there add up to its size),
 * so some choice removes a one at a cost of at most 7 + 2 + 2 moves: the ratio never drops
 * below 1/11 and the total stays below 11 moves per one of A (891 for 9 x 9). */
#include "nine_greedy.h"

#include <string.h>

#include "nine_flat.h"
#include "nine_x86.h"

static const int setup_cost[4] = {0, 1, 2, 1};

/* The greedy re-prices this many of the best-looking steps exactly before it picks one. */
#define GREEDY_SHORTLIST 8

static int count_at(const uint64_t *m, int n, const uint16_t *cells, int k)
{
    int ones = 0;
    for (int t = 0; t < k; t++) ones += (int)((m[cells[t] / n] >> (cells[t] % n)) & 1u);
    return ones;
}

/* The matrix as one 128-bit set of cells i * n + j (n * n <= 128). */
static void flatten(const uint64_t *m, int n, uint64_t out[2])
{
    out[0] = out[1] = 0;
    for (int i = 0; i < n; i++) {
        int at = i * n;
        out[at / 64] |= m[i] << (at % 64);
        if (at % 64 + n > 64) out[at / 64 + 1] |= m[i] >> (64 - at % 64);
    }
}

static int count_flat(const uint64_t m[2], const uint64_t mask[2])
{
    return __builtin_popcountll(m[0] & mask[0]) + __builtin_popcountll(m[1] & mask[1]);
}

static bool push_setup(nine_moves *out, nine_board *bd, int quarter, int left)
{
    int moves[2], k = 0;
    if (quarter == 1) moves[k++] = left;
    if (quarter == 2) moves[k++] = left, moves[k++] = left;
    if (quarter == 3) moves[k++] = left + 1;
    for (int t = 0; t < k; t++) {
        if (out && !nine_moves_push(out, moves[t])) return false;
        nine_board_apply(bd, moves[t]);
    }
    return true;
}

/* The moves of a group commutator: [Ca, X S X'] is Ca X S X' Ca X S (macro -1), [S, X Cb X']
 * is S X Cb X' S X Cb (macro -2); the closing X' is left to the next set-up. */
static int group_moves(const nine_step *s, uint8_t *moves)
{
    int len = 0;
    for (int half = 0; half < 2; half++) {
        for (int part = 0; part < 2; part++) {
            bool lone_part = (part == 0) == (s->macro == -1);
            if (lone_part) {
                moves[len++] = (uint8_t)(NINE_MOVE_C0 + s->lone);
            } else {
                for (int c = 0; c < 64; c++)
                    if ((s->group >> c) & 1u) moves[len++] = (uint8_t)(NINE_MOVE_C0 + c);
            }
            if (part == 0) moves[len++] = s->turn;
        }
        if (half == 0) moves[len++] = (uint8_t)(s->turn ^ 1);
    }
    return len;
}

int nine_step_moves(int n, const nine_library *lib, const nine_step *step, uint8_t *moves)
{
    if (step->macro < 0) return group_moves(step, moves);
    const nine_macro *m = &lib->macros[step->macro];
    for (int t = 0; t < m->len; t++)
        moves[t] = step->mirrored && m->moves[t] >= NINE_MOVE_C0
                       ? (uint8_t)(NINE_MOVE_C0 + n - 1 - (m->moves[t] - NINE_MOVE_C0))
                       : m->moves[t];
    return m->len;
}

bool nine_step_apply(nine_board *bd, const nine_library *lib, const nine_step *step,
                     nine_moves *out)
{
    uint8_t moves[NINE_STEP_MAX_MOVES];
    int len = nine_step_moves(bd->n, lib, step, moves);
    if (!push_setup(out, bd, step->qa, NINE_MOVE_AL) ||
        !push_setup(out, bd, step->qb, NINE_MOVE_BL))
        return false;
    for (int t = 0; t < len; t++) {
        if (out && !nine_moves_push(out, moves[t])) return false;
        nine_board_apply(bd, moves[t]);
    }
    return true;
}

/* Whether s ranks before o: by ratio red / cost, more ones first on equal ratios. */
static inline bool before(int red, int cost, const nine_step *o)
{
    long lhs = (long)red * o->cost, rhs = (long)o->red * cost;
    return lhs > rhs || (lhs == rhs && red > o->red);
}

/* Keeps best[0..*found) sorted by `before`. */
static void offer(nine_step *best, int *found, int k, const nine_step *s)
{
    int pos = *found;
    while (pos > 0 && before(s->red, s->cost, &best[pos - 1])) pos--;
    if (pos >= k) return;
    int last = *found < k ? *found : k - 1;
    for (int t = last; t > pos; t--) best[t] = best[t - 1];
    best[pos] = *s;
    if (*found < k) (*found)++;
}

/* Group commutators on large boards. For every set-up, turn X and column a, the commutators
 * [Ca, X Cb X'] that would each remove a one ("good": their cell leaving A holds a one, their cell
 * leaving B a zero) combine into one [Ca, X S X'] over all good b, 2 |S| + 5 moves for |S| ones;
 * likewise over all good a for a fixed b. Bit sets over the other column make this cheap. */
NINE_POPCNT_CLONES static void offer_groups(const nine_board *bd, const nine_library *lib,
                                            uint64_t rot_a[4][NINE_MAX_N],
                                            uint64_t rot_b[4][NINE_MAX_N], nine_step *best,
                                            int *found, int k)
{
    int n = bd->n;
    /* good_a[q][x][a]: the b whose A cell holds a one after turn q; good_b: whose B cell holds a
     * zero; the _t tables the same indexed by b, as sets of a. */
    static _Thread_local uint64_t good_a[4][4][NINE_MAX_N], good_b[4][4][NINE_MAX_N];
    static _Thread_local uint64_t good_a_t[4][4][NINE_MAX_N], good_b_t[4][4][NINE_MAX_N];
    memset(good_a_t, 0, sizeof good_a_t);
    memset(good_b_t, 0, sizeof good_b_t);
    for (int q = 0; q < 4; q++)
        for (int x = 0; x < 4; x++)
            for (int a = 0; a < n; a++) {
                uint64_t sa = 0, sb = 0;
                const int16_t *e = lib->comm + (size_t)((x * n + a) * n) * 2;
                for (int b = 0; b < n; b++, e += 2) {
                    if (e[0] < 0) continue;
                    uint64_t one_a = (rot_a[q][e[0] >> 8] >> (e[0] & 0xFF)) & 1u;
                    uint64_t zero_b = ~(rot_b[q][e[1] >> 8] >> (e[1] & 0xFF)) & 1u;
                    sa |= one_a << b;
                    sb |= zero_b << b;
                    good_a_t[q][x][b] |= one_a << a;
                    good_b_t[q][x][b] |= zero_b << a;
                }
                good_a[q][x][a] = sa;
                good_b[q][x][a] = sb;
            }
    for (int qa = 0; qa < 4; qa++)
        for (int qb = 0; qb < 4; qb++) {
            int setup = setup_cost[qa] + setup_cost[qb];
            for (int x = 0; x < 4; x++)
                for (int lone = 0; lone < n; lone++)
                    for (int kind = 0; kind < 2; kind++) {
                        uint64_t set = kind == 0 ? good_a[qa][x][lone] & good_b[qb][x][lone]
                                                 : good_a_t[qa][x][lone] & good_b_t[qb][x][lone];
                        int red = __builtin_popcountll(set);
                        if (red < lib->group_min) continue; /* the library has those */
                        int cost = 2 * red + 5 + setup;
                        if (*found == k && !before(red, cost, &best[k - 1])) continue;
                        nine_step s = {
                            kind == 0 ? -1 : -2, (uint8_t)qa,   (uint8_t)qb, red, cost, set,
                            (uint8_t)x,          (uint8_t)lone, false,       0};
                        offer(best, found, k, &s);
                    }
        }
}

/* The macros from `from` to `end` that the vector pass lets through against the shortlist's bar. */
static uint64_t visit(const nine_flat_prices *fp, int base, int from, int end,
                      const nine_step *best, int found, int k)
{
    bool full = found == k;
    return nine_flat_visit(fp, base, from, end, full ? best[k - 1].red : 0,
                           full ? best[k - 1].cost : 0, full);
}

/* Prices macro mi under the 16 set-ups into the shortlist best[0..*found) of k: -1 when the
 * scan can stop here (the library is sorted by best possible rate), 1 when the shortlist
 * changed, else 0. */
NINE_POPCNT_CLONES static int price_macro(const nine_library *lib, int mi,
                                          const uint64_t flat_a[4][2], const uint64_t flat_b[4][2],
                                          uint64_t rot_a[4][NINE_MAX_N],
                                          uint64_t rot_b[4][NINE_MAX_N], int n, uint64_t tail,
                                          int max_save, nine_step *best, int *found_io, int k)
{
    int found = *found_io;
    int offered = 0;
    const nine_macro *m = &lib->macros[mi];
    int len = m->len;
    /* The library is sorted by transfers / len: once even that cannot enter, stop. */
    if (found == k && len > max_save && !before(m->transfers, len - max_save, &best[k - 1]))
        return -1;
    int save = 2 * __builtin_popcountll(tail & m->lead);
    int save_mirror = m->mirror ? 2 * __builtin_popcountll(tail & m->lead_mirror) : 0;
    int least = len - (save > save_mirror ? save : save_mirror);
    if (least < 1) least = 1;
    int gain[4], loss[4], most = 0;
    const uint16_t *src = lib->pool + m->first;
    for (int q = 0; q < 4; q++) {
        gain[q] =
            lib->flat ? count_flat(flat_a[q], m->flat_a) : count_at(rot_a[q], n, src, m->transfers);
        if (gain[q] > most) most = gain[q];
    }
    /* Even the best gain at the least cost cannot enter the list: skip the 16 set-ups. */
    if (most == 0 || (found == k && !before(most, least, &best[k - 1]))) return 0;
    int fewest = m->transfers;
    for (int q = 0; q < 4; q++) {
        loss[q] = lib->flat ? count_flat(flat_b[q], m->flat_b)
                            : count_at(rot_b[q], n, src + m->transfers, m->transfers);
        if (loss[q] < fewest) fewest = loss[q];
    }
    /* The same with the least loss; then per turn of A. */
    if (most - fewest <= 0 || (found == k && !before(most - fewest, least, &best[k - 1]))) return 0;
    for (int qa = 0; qa < 4; qa++) {
        if (gain[qa] - fewest <= 0 ||
            (found == k && !before(gain[qa] - fewest, least, &best[k - 1])))
            continue;
        for (int qb = 0; qb < 4; qb++) {
            int red = gain[qa] - loss[qb];
            if (red <= 0) continue;
            /* Counts seen at turns (qa, qb) are also the mirror's at (qa + 2, qb + 2). */
            int ma = (qa + 2) & 3, mb = (qb + 2) & 3;
            int direct = len + setup_cost[qa] + setup_cost[qb] - (qa || qb ? 0 : save);
            int mirrored = len + setup_cost[ma] + setup_cost[mb] - (ma || mb ? 0 : save_mirror);
            bool use_mirror = m->mirror && mirrored < direct;
            int sa = use_mirror ? ma : qa, sb = use_mirror ? mb : qb;
            int cost = use_mirror ? mirrored : direct;
            if (cost < 1) cost = 1;
            if (found == k && !before(red, cost, &best[k - 1])) continue;
            /* The diagonals are their own half turn: the mirror's count is the same. */
            int red_diag = 0;
            if (lib->flat) {
                uint64_t da[2] = {m->flat_a[0] & lib->diag[0], m->flat_a[1] & lib->diag[1]};
                uint64_t db[2] = {m->flat_b[0] & lib->diag[0], m->flat_b[1] & lib->diag[1]};
                red_diag = count_flat(flat_a[qa], da) - count_flat(flat_b[qb], db);
            }
            nine_step st = {mi, (uint8_t)sa, (uint8_t)sb, red, cost, 0, 0, 0, use_mirror, red_diag};
            offer(best, &found, k, &st);
            offered = 1;
        }
    }
    *found_io = found;
    return offered;
}

NINE_POPCNT_CLONES int nine_step_candidates(const nine_board *bd, const nine_library *lib,
                                            nine_step *best, int k, uint64_t tail)
{
    int n = bd->n, found = 0;
    uint64_t rot_a[4][NINE_MAX_N], rot_b[4][NINE_MAX_N], flat_a[4][2], flat_b[4][2];
    for (int q = 0; q < 4; q++) {
        nine_board_rotate(rot_a[q], bd->a, n, q);
        nine_board_rotate(rot_b[q], bd->b, n, q);
        if (lib->flat) {
            flatten(rot_a[q], n, flat_a[q]);
            flatten(rot_b[q], n, flat_b[q]);
        }
    }
    nine_flat_prices fp;
    bool flat = lib->flat && lib->count <= NINE_FLAT_MAX_MACROS;
    /* A step with no set-up whose leading swaps repeat trailing ones of the step before costs
     * two moves less per repeat (the pair cancels). At most this much for any macro: */
    int tail_count = __builtin_popcountll(tail);
    int max_save = 2 * (tail_count < lib->max_lead ? tail_count : lib->max_lead);
    if (flat) {
        /* Only the macros the vector pass lets through (or that end the scan) are visited, 64
         * at a time; the list is redrawn whenever the shortlist changes, so the same macros
         * are read as by a plain loop. The pass fills each block just before the scan reads it:
         * most scans stop before the library's end. */
        for (int base = 0; base < lib->count; base += 64) {
            int end = base + 64 < lib->count ? base + 64 : lib->count;
            nine_flat_bounds(lib, base, end, flat_a, flat_b, tail, max_save, &fp);
            uint64_t todo = visit(&fp, base, base, end, best, found, k);
            while (todo) {
                int mi = base + __builtin_ctzll(todo);
                todo &= todo - 1;
                int found_was = found, bar_red = found == k ? best[k - 1].red : 0,
                    bar_cost = found == k ? best[k - 1].cost : 0;
                int r = price_macro(lib, mi, flat_a, flat_b, rot_a, rot_b, n, tail, max_save, best,
                                    &found, k);
                if (r < 0) goto scanned;
                /* Redrawn only when the bar to enter moved. */
                if (r > 0 && found == k &&
                    (found_was < k || best[k - 1].red != bar_red || best[k - 1].cost != bar_cost))
                    todo = visit(&fp, base, mi + 1, end, best, found, k);
            }
        }
    } else {
        for (int mi = 0; mi < lib->count; mi++)
            if (price_macro(lib, mi, flat_a, flat_b, rot_a, rot_b, n, tail, max_save, best, &found,
                            k) < 0)
                break;
    }
scanned:
    /* Enumerated libraries hold the groups that pay (bigger ones measured no gain on 9 x 9). */
    if (lib->comm && !lib->has_groups) offer_groups(bd, lib, rot_a, rot_b, best, &found, k);
    return found;
}

uint64_t nine_suffix_tail(const nine_suffix *s)
{
    uint64_t tail = 0;
    for (int t = s->len; t > 0 && s->v[t - 1] >= NINE_MOVE_C0; t--)
        tail |= (uint64_t)1 << (s->v[t - 1] - NINE_MOVE_C0);
    return tail;
}

int nine_suffix_join(const nine_suffix *s, int n, const nine_library *lib, const nine_step *step,
                     nine_suffix *out)
{
    uint8_t buf[NINE_SUFFIX + NINE_STEP_MAX_MOVES + 8], moves[NINE_STEP_MAX_MOVES + 4];
    int len = 0;
    for (int side = 0; side < 2; side++) {
        int q = side ? step->qb : step->qa, left = side ? NINE_MOVE_BL : NINE_MOVE_AL;
        if (q == 1 || q == 2) moves[len++] = (uint8_t)left;
        if (q == 2) moves[len++] = (uint8_t)left;
        if (q == 3) moves[len++] = (uint8_t)(left + 1);
    }
    len += nine_step_moves(n, lib, step, moves + len);
    size_t top = s->len;
    memcpy(buf, s->v, top);
    for (int t = 0; t < len; t++) top = nine_moves_push_reduced(buf, top, moves[t]);
    size_t keep = top > NINE_SUFFIX ? NINE_SUFFIX : top;
    int added = (int)top - (int)s->len;
    memcpy(out->v, buf + top - keep, keep);
    out->len = (uint8_t)keep;
    return added;
}

nine_greedy_status nine_greedy_solve(nine_board *bd, const nine_library *lib, nine_moves *out,
                                     budget *b)
{
    /* The few best steps by estimated price, then the best by the real one. */
    nine_suffix suffix = {{0}, 0}, next;
    nine_step steps[GREEDY_SHORTLIST];
    while (nine_board_ones_a(bd) > 0) {
        if (budget_expired(b)) return NINE_GREEDY_TIME_OUT;
        int k = nine_step_candidates(bd, lib, steps, GREEDY_SHORTLIST, nine_suffix_tail(&suffix));
        if (k == 0) break; /* only for unsolvable input */
        int pick = -1, pick_cost = 0;
        for (int t = 0; t < k; t++) {
            int cost = nine_suffix_join(&suffix, bd->n, lib, &steps[t], &next);
            if (cost < 1) cost = 1;
            if (pick < 0 ||
                before(steps[t].red, cost, &(nine_step){.red = steps[pick].red, .cost = pick_cost}))
                pick = t, pick_cost = cost;
        }
        nine_suffix_join(&suffix, bd->n, lib, &steps[pick], &next);
        suffix = next;
        if (!nine_step_apply(bd, lib, &steps[pick], out)) return NINE_GREEDY_NO_MEMORY;
    }
    return NINE_GREEDY_OK;
}
