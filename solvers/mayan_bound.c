#include "mayan_bound.h"

#include <stdlib.h>
#include <string.h>

/* The programme walks the columns left to right. Its state after column x:
 *   carry: blocks moved across the border x | x+1 (positive: to the right); each costs 1;
 *   open1, open2: horizontal lines through x that began at x, at x - 1 (they must go on);
 *   open3: lines through x of length 3 or more (they may go on or stop).
 * Only lines through a column of 1 or 2 matter (drop the others and m stays valid), and the
 * lines through a column that reach such a column on its left all pass the nearest one, so at
 * most 2 + 2 lines pass any column and at most 2 begin at one: open1, open2 <= 2, open3 <= 4.
 *
 * The 45 line states of one (carry, cost) are a set, a 64-bit mask; a column maps a set to a
 * set through a table (line state x the column's class: 0, 1, 2, 3 or 4+ blocks). */
enum { OPEN12 = 3, OPEN3 = 5, LINE_STATES = OPEN12 * OPEN12 * OPEN3, CLASSES = 5 };
enum { MAX_CAP = 15, CARRIES = 2 * MAX_CAP + 1 };

static int line_state(int o1, int o2, int o3)
{
    return (o1 * OPEN12 + o2) * OPEN3 + o3;
}

/* Line states with nothing that must go on: where the last column may end. */
static uint64_t finished_states(void)
{
    uint64_t mask = 0;
    for (int o3 = 0; o3 < OPEN3; o3++) mask |= 1ULL << line_state(0, 0, o3);
    return mask;
}

/* The line states after a column that keeps m blocks (class m, 4 for 4 or more). Every line of
 * length 1 or 2 goes on; a column of 0 has no line through it, one of 1 or 2 exactly m, one of
 * 3 or more at most min(m, 4). A line of length 3+ that may go on does (it may stop anywhere
 * later, so going on is never worse than stopping, and never worse than a new line in its
 * place), and more than 4 such lines are never needed: only the number of new lines is a choice. */
static uint64_t next_states(int o1, int o2, int o3, int m)
{
    int must = o1 + o2;
    int room = m - must; /* lines beyond the ones that must go on */
    if (room < 0) return 0;
    int go_on = o3 < room ? o3 : room;
    int n3 = o2 + go_on < OPEN3 ? o2 + go_on : OPEN3 - 1;
    if (m <= 2) return room - go_on < OPEN12 ? 1ULL << line_state(room - go_on, o1, n3) : 0;
    uint64_t mask = 0;
    for (int begin = 0; begin <= room - go_on && begin < OPEN12; begin++)
        mask |= 1ULL << line_state(begin, o1, n3);
    return mask;
}

static inline uint64_t step(const mayan_bound *mb, uint64_t set, int m)
{
    int cls = m < CLASSES ? m : CLASSES - 1;
    uint64_t next = 0;
    for (; set; set &= set - 1) next |= mb->step[__builtin_ctzll(set)][cls];
    return next;
}

/* With no block carried (cap 0) the programme is a walk over the columns' classes alone: the
 * sets of line states it meets, numbered as they are found, are the states of an automaton
 * (mayan_bound.h: valid_next). */
static void build_validity(mayan_bound *mb)
{
    uint64_t sets[MAYAN_VALID_STATES];
    int count = 1;
    sets[0] = 1ULL << line_state(0, 0, 0);
    uint64_t done = finished_states();
    mb->valid_accept = 0;
    for (int i = 0; i < count; i++) {
        if (sets[i] & done) mb->valid_accept |= 1ULL << i;
        for (int m = 0; m < CLASSES; m++) {
            uint64_t next = step(mb, sets[i], m);
            int j = 0;
            while (j < count && sets[j] != next) j++;
            /* 60 states are met. Were more needed, the masks would be wrong (state 0 in place
             * of the new one) and wide_shift_mask_matches_programme would fail. */
            if (j == count) {
                if (count == MAYAN_VALID_STATES)
                    j = 0;
                else
                    sets[count++] = next;
            }
            mb->valid_next[i][m] = (unsigned char)j;
        }
    }
}

static void build_steps(mayan_bound *mb)
{
    for (int o1 = 0; o1 < OPEN12; o1++)
        for (int o2 = 0; o2 < OPEN12; o2++)
            for (int o3 = 0; o3 < OPEN3; o3++)
                for (int m = 0; m < CLASSES; m++)
                    mb->step[line_state(o1, o2, o3)][m] = next_states(o1, o2, o3, m);
}

/* The programme for one cap: D if it is at most cap, else cap + 1. sets[carry][cost]: the line
 * states reachable with that carry at that cost. */
static int displacement_within(const mayan_bound *mb, mayan_counts counts, int cap)
{
    static const size_t grid_bytes = sizeof(uint64_t[CARRIES][MAX_CAP + 1]);
    uint64_t sets[2][CARRIES][MAX_CAP + 1];
    memset(sets[0], 0, grid_bytes);
    sets[0][MAX_CAP][0] = 1ULL << line_state(0, 0, 0);
    int cur = 0, width = mb->width;
    for (int x = 0; x < width; x++) {
        int n = (int)(counts >> (4 * x)) & 15;
        bool last = x == width - 1;
        uint64_t(*next)[MAX_CAP + 1] = sets[cur ^ 1];
        for (int carry = -cap; carry <= cap; carry++)
            memset(next[carry + MAX_CAP], 0, sizeof next[0][0] * (size_t)(cap + 1));
        for (int carry = -cap; carry <= cap; carry++)
            for (int cost = 0; cost <= cap; cost++) {
                uint64_t set = sets[cur][carry + MAX_CAP][cost];
                if (!set) continue;
                int slack = cap - cost;
                int out_lo = last ? 0 : -slack, out_hi = last ? 0 : slack;
                for (int out = out_lo; out <= out_hi; out++) {
                    int m = n + carry - out;
                    if (m < 0) continue;
                    next[out + MAX_CAP][cost + (out < 0 ? -out : out)] |= step(mb, set, m);
                }
            }
        cur ^= 1;
    }
    uint64_t done = finished_states();
    for (int cost = 0; cost <= cap; cost++)
        if (sets[cur][MAX_CAP][cost] & done) return cost;
    return cap + 1;
}

static int displacement(const mayan_bound *mb, mayan_counts counts, int cap)
{
    if (cap > MAX_CAP) cap = MAX_CAP;
    /* Most spreads are valid as they stand: that programme carries nothing and is short. */
    int valid = displacement_within(mb, counts, 0);
    return valid == 0 || cap == 0 ? valid : displacement_within(mb, counts, cap);
}

int mayan_displacement_uncached(mayan_counts counts, int width, int cap)
{
    mayan_bound mb = {.width = width};
    build_steps(&mb);
    return displacement(&mb, counts, cap);
}

/* The direct tables of boards of 1 to 5 columns (mayan_bound.h), one per width, shared by every
 * search: 15 MiB of address space in all, of which only the pages of spreads met are ever
 * touched (a width w board's counts stay below 16^w). */
#define DIRECT_WIDTHS 5
static _Atomic unsigned char direct_d[DIRECT_WIDTHS][1 << 20];
static _Atomic uint16_t direct_shifts[DIRECT_WIDTHS][1 << 20];

bool mayan_bound_init(mayan_bound *mb, int width, int entries_log2)
{
    mb->width = width;
    mb->index_shift = 64 - entries_log2;
    build_steps(mb);
    bool direct = width >= 1 && width <= DIRECT_WIDTHS && entries_log2 >= 16;
    mb->direct = direct ? direct_d[width - 1] : NULL;
    mb->shifts = direct ? direct_shifts[width - 1] : NULL;
    mb->cache = direct ? NULL : calloc((size_t)1 << entries_log2, sizeof *mb->cache);
    if (!direct) build_validity(mb); /* for mayan_wide_shifts */
    return direct || mb->cache != NULL;
}

void mayan_bound_free(mayan_bound *mb)
{
    free(mb->cache);
    mb->cache = NULL;
    mb->direct = NULL;
    mb->shifts = NULL;
}

int mayan_displacement(mayan_bound *mb, mayan_counts counts, int cap)
{
    if (cap > MAX_CAP) cap = MAX_CAP;
    if (mb->direct && !(counts >> 20)) {
        _Atomic unsigned char *e = &mb->direct[counts];
        int d = mayan_direct_answer(atomic_load_explicit(e, memory_order_relaxed), cap);
        if (d >= 0) return d;
        d = displacement(mb, counts, cap);
        unsigned char fact = (unsigned char)(1 + 2 * d + (d <= cap));
        atomic_store_explicit(e, fact, memory_order_relaxed);
        return d;
    }
    mayan_bound_entry *e = mayan_bound_slot(mb, counts);
    if (e->known && e->key == counts) {
        if (e->bound <= e->cap_used) return e->bound <= cap ? e->bound : cap + 1; /* exact */
        if (e->cap_used >= cap) return cap + 1;                                   /* > cap */
    }
    int d = displacement(mb, counts, cap);
    if (e->key != counts) e->shifts = 0;
    e->key = counts;
    e->known = 1;
    e->bound = (unsigned char)d;
    e->cap_used = (unsigned char)cap;
    return d;
}

unsigned mayan_shift_mask_compute(mayan_bound *mb, mayan_counts counts)
{
    unsigned mask = 0;
    for (int x = 0; x + 1 < mb->width; x++) {
        mayan_counts here = (mayan_counts)1 << (4 * x), next = here << 4;
        unsigned at = (counts >> (4 * x)) & 15, at_next = (counts >> (4 * x + 4)) & 15;
        if (at && at_next < 15 && mayan_spread_valid(mb, counts - here + next)) mask |= 1u << x;
        if (at_next && at < 15 && mayan_spread_valid(mb, counts - next + here))
            mask |= 1u << (4 + x);
    }
    atomic_store_explicit(&mb->shifts[counts], (uint16_t)(mask | 0x8000u), memory_order_relaxed);
    return mask;
}

static inline int count_class(unsigned n)
{
    return n < CLASSES ? (int)n : CLASSES - 1;
}

/* Each shift walks the automaton from the state before its two columns: those two with their new
 * counts, then the rest as they are. */
uint32_t mayan_wide_shifts_compute(mayan_bound *mb, mayan_counts counts)
{
    int w = mb->width;
    unsigned n[MAYAN_BOUND_MAX_WIDTH];
    unsigned char before[MAYAN_BOUND_MAX_WIDTH + 1]; /* the state before column x */
    before[0] = 0;
    for (int x = 0; x < w; x++) {
        n[x] = (unsigned)(counts >> (4 * x)) & 15;
        before[x + 1] = mb->valid_next[before[x]][count_class(n[x])];
    }
    uint32_t mask = 0;
    for (int x = 0; x + 1 < w; x++)
        for (int back = 0; back < 2; back++) {
            unsigned from = back ? n[x + 1] : n[x], to = back ? n[x] : n[x + 1];
            if (!from || to == 15) continue;
            unsigned q = mb->valid_next[before[x]][count_class(back ? n[x] + 1 : n[x] - 1)];
            q = mb->valid_next[q][count_class(back ? n[x + 1] - 1 : n[x + 1] + 1)];
            for (int z = x + 2; z < w; z++) q = mb->valid_next[q][count_class(n[z])];
            if (mb->valid_accept >> q & 1) mask |= 1u << (back ? MAYAN_WIDE_LEFT + x : x);
        }
    mayan_bound_entry *e = mayan_bound_slot(mb, counts);
    if (e->key != counts) {
        e->key = counts;
        e->known = 0;
    }
    e->shifts = mask | 0x80000000u;
    return mask;
}
