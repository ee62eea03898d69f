/* Mayan puzzle: depth-first search in the contest's move order, so the first solution found is
 * the lexicographically smallest one, with six cuts that never remove that solution (each proves a
 * node has none):
 *
 *  1. A left move into an occupied cell gives the same board as the right move of the left
 *     neighbour, (x-1, y, 1), which comes earlier in the order at the same node; likewise every
 *     swap of two equal colours leaves the board as it is, so only the first one is tried.
 *     A repeated child has the same subtree: it cannot hold a solution the first one lacked.
 *  2. A lower bound on the moves a board needs (mayan_bound.h): each colour's least sideways
 *     displacement D to a spread that lines can clear. A child whose bound exceeds its moves left
 *     is cut before it is searched (or looked up). A colour of 1 or 2 blocks has no such spread:
 *     the old dead-colour rule is the bound's special case. Each colour carries its per-column
 *     counts, updated by the move and by settling. Settling removes lines, and lines are a valid
 *     spread, so it never lowers D: the bound is checked on the counts the move leaves before
 *     the move is played out, and again after settling.
 *  3. A table of failures (board, moves left) -> no exact solution. The search below a node
 *     depends only on its board and the moves left, so a second visit finds nothing new. Only
 *     completed searches are recorded (never one cut short by the budget), and keys are exact.
 *     Children are made a few at a time, their buckets prefetched, then searched in order.
 *  4. With one move left, the move must empty the board: it must make a run, and it must leave
 *     every colour's spread valid by itself (the cascade moves nothing sideways). Both are
 *     tested on a few cells and bit masks before any copying. So with two moves left, the
 *     first move must leave at most two colours out of place, and two only if one swap of
 *     them can mend both (last_pair_possible, pair_blocked); and a board with two moves left
 *     must have its colours out of place mendable by two moves (two_moves_possible).
 *  5. Swaps of different blocks that make no run and touch cells far enough apart commute, and on
 *     boards of 6 columns or more so do any two moves whose changed columns are three or more
 *     apart (mayan_far.h): a path that could be reordered into a smaller one reaching the same
 *     board is skipped (the smaller one came first and found nothing; reached_before,
 *     pair_reached_before, moved_before).
 *  6. On the same boards, with one move left and every colour in place, a last move far from
 *     what the move before changed plays as it did on the node before, where it is played once
 *     for all that node's children: if it left a block there, it cannot empty the board
 *     (fails_as_on_parent).
 *
 * Settling is incremental: on a still board every new run holds a cell that just changed, so
 * only the columns that changed (and their neighbours, for rows) are scanned; boards of the
 * contest's five columns are scanned whole, which is as cheap with no loop (runs5).
 *
 * A search that runs long may get a helper thread (struct helper below): the two threads share
 * out the children of the root's children in the contest's order, over the same failure table;
 * the answer stays the smallest solution. Each thread also skips the commuting paths of cut 5
 * that reorder onto a root child, or one of its children, either has searched to its end
 * (searched_first).
 *
 * Board: columns of 4-bit cells, one 64-bit word each (mayan_columns.h); the table key packs the
 * columns end to end (mayan_table.h). */
#include "mayan.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "mayan_bound.h"
#include "mayan_columns.h"
#include "mayan_far.h"
#include "mayan_reach.h"
#include "mayan_table.h"

typedef struct helper helper;

/* Per-colour lower bounds D (mayan_bound.h) of the board at hand, exact up to its moves left. */
typedef unsigned char spreads[16]; /* d[0] and past the colours: 0 */
_Static_assert(MAYAN_MAX_COLOUR < 16, "spreads holds every colour");

/* A board's key in the failure table (mayan_table.h) and its hash, made once per node. */
typedef struct table_key {
    uint64_t words[MAYAN_TABLE_MAX_WORDS];
    uint64_t hash;
} table_key;

/* A child that passed the bound, waiting to be searched: children are made a few at a time and
 * their table buckets asked for at once, then searched in the contest's order. Also the move
 * that made a node of the current path (search.at). */
typedef struct pending pending;
struct pending {
    column col[MAYAN_MAX_SIDE];
    mayan_counts cc[MAYAN_MAX_COLOUR + 1];
    spreads d;
    table_key key;
    /* code: x * 16 + y for a swap of two different blocks that made no run, else NO_PREV */
    int x, y, dir, code;
    /* The columns the move changed, its cascade included (0 for an equal swap: it changes
     * nothing, and is not reordered); known only where tracks_columns, else 0. */
    unsigned short foot;
    bool keyed; /* key holds the packed board (the table is asked about it) */
};

/* A move's place in the contest's order: by x, then y, then right before left. */
static inline int rank_of(int x, int y, int dir)
{
    return (x * MAYAN_MAX_SIDE + y) * 2 + (dir < 0);
}

static inline int move_rank(const pending *p)
{
    return rank_of(p->x, p->y, p->dir);
}

/* How a move played on the board of search.parent_gen. */
typedef struct parent_play {
    uint32_t gen;
    move_play play;
} parent_play;

typedef struct search {
    int width;
    int height;
    int colours;   /* the highest colour on the board */
    int key_words; /* the table key: the board packed by mayan_key_pack */
    int cell_bits; /* 3 when no colour exceeds 7, else 4 */
    bool narrow;   /* cell_bits is 3: nib_nonzero7 may stand for nib_nonzero (mayan_columns.h) */
    budget *b;
    bool use_table;
    int table_from;          /* the fewest moves left that the table records */
    mayan_table *table;      /* shared with the helper */
    int table_user;          /* the table's user: 0, the helper 1 */
    bool answered_by_helper; /* path is the helper's solution */
    mayan_bound bound[1];
    int bound_log2; /* the size of bound's cache (mayan_bound_init) */
    mayan_move path[MAYAN_MAX_MOVES];
    bool timed_out;
    uint64_t nodes;
    uint64_t table_hits;
    uint64_t bound_cuts;
    uint64_t commute_cuts;
    uint64_t pair_cuts;
    uint64_t reach_cuts;
    uint64_t reorder_cuts;
    uint64_t parent_answers;
    uint64_t root_cuts;    /* once helped, commuting-swap cuts onto a failed root child or unit */
    uint64_t shared_units; /* once helped, units set aside as held by the other thread */
    /* The move made at each ply of the current path (for the commuting-move cuts: see
     * searched_first). */
    const pending *at[MAYAN_MAX_MOVES];
    /* Wide boards: the last moves as played on the node with two moves left whose children are
     * being searched (parent_col), by move_rank, filled as its children ask (fails_as_on_parent);
     * an entry of another parent_gen is not filled yet. */
    const column *parent_col;
    uint32_t parent_gen;
    parent_play parent_plays[2 * MAYAN_MAX_SIDE * MAYAN_MAX_SIDE];
    /* A second thread (helper, below) starts when this search has expanded helper_at nodes
     * (0: never); then helper is set, in its search too. The root board and its move count are
     * kept for it. In the helper's own search, helper_at is where it stops (helper_first). */
    uint64_t helper_at;
    /* Tests (mayan_solve_helped): the helper runs first, for at most this many nodes; 0: beside
     * this search. */
    uint64_t helper_first;
    helper *helper;
    const column *root_col;
    const mayan_counts *root_cc;
    const unsigned char *root_d;
    int moves;
    /* Set in the helper's own search only: the root's children, all collected before any is
     * searched (so it knows which moves the root has at all: see helper_root). */
    pending *root_children;
    int root_rank;  /* move_rank of the root child being searched; -1: none yet */
    int unit_rank;  /* move_rank of its child being searched (a unit, below); -1: none yet */
    bool unit_held; /* that unit is one the other thread claimed (unit_finish) */
    /* Once helped: set (with timed_out) when root child root_rank, or the unit under it, is
     * dropped (root_dropped): its search stops, recording nothing. */
    bool dropped;
    /* Once helped, either thread: the units of root child root_rank it found claimed by the other
     * thread (searched again at the end of root_rank's units unless they failed there). */
    pending *unit_deferred;
    int unit_deferred_count;
} search;

#define NO_PREV (-1)

/* Whether the search keeps each move's changed columns (pending.foot), for the cuts of
 * mayan_far.h: on boards of 6 columns or more. On fewer, the changed columns of any two moves lie
 * within two columns of each other, so none of those cuts could apply (still swaps have their own
 * rule, swaps_independent). */
static inline bool tracks_columns(const search *s)
{
    return s->width >= 6;
}

/* Two swaps of different blocks that make no run, at a = (ax, ay) and (bx, by), each with its
 * right neighbour: whether one makes a run depends only on the cells within two of its own in
 * its row and in its two columns, so when neither writes where the other reads, both orders
 * give the same board, and each stays a swap that makes no run after the other. */
static inline bool swaps_independent(int a, int bx, int by)
{
    int dx = a / 16 - bx, dy = a % 16 - by;
    dx = dx < 0 ? -dx : dx;
    dy = dy < 0 ? -dy : dy;
    /* Other rows and no common column, rows three apart, or one row and columns far apart. */
    return (dy && dx >= 2) || dy >= 3 || dx >= 4;
}

/* Whether a path with the move of move_rank `rank` in place of the one at `ply` (search.at) was
 * searched to its end first, without a solution: below the first two plies the search takes the
 * contest's order, and so does a search alone. Once helped, the root's children and their
 * children (units) are claimed by two threads, so only a child marked failed (root_failed,
 * unit_failed) counts. Every path skipped this way leads to a board proven without solution, so
 * what the table records stays true. */
static bool root_failed(const search *s, int rank);
static bool unit_failed(const search *s, int rank);

static inline bool searched_first(search *s, int ply, int rank)
{
    if (ply > 1 || !s->helper) return rank < move_rank(s->at[ply]);
    if (!(ply ? unit_failed(s, rank) : root_failed(s, rank))) return false;
    s->root_cuts++;
    return true;
}

/* Would the move of move_rank `rank`, made now at `ply` and changing the columns `foot`, reach a
 * board the search has already searched with as many moves left? Moves that commute can be
 * reordered: if it commutes with the trailing moves of the path back to one it would be searched
 * before (in the contest's order), putting it in that one's place gives an earlier path to the
 * same board, searched (or proven without solution) before this one. Here moves commute when the
 * columns they change are three or more apart (mayan_far.h). Asked for every move but a still
 * swap, which asks reached_before before its child is made. */
static bool moved_before(search *s, int ply, unsigned foot, int rank)
{
    for (int j = ply - 1; j >= 0; j--) {
        if (!moves_commute(s->at[j]->foot, foot)) return false;
        if (searched_first(s, j, rank)) return true;
    }
    return false;
}

/* The same for the still swap at (x, y), asked before its child is made: it commutes with a still
 * swap by swaps_independent, with any other move by the columns that one changed. */
static bool reached_before(search *s, int ply, int x, int y)
{
    int rank = rank_of(x, y, 1);
    for (int j = ply - 1; j >= 0; j--) {
        const pending *m = s->at[j];
        bool independent =
            m->code != NO_PREV ? swaps_independent(m->code, x, y) : moves_commute(m->foot, 3u << x);
        if (!independent) return false;
        if (searched_first(s, j, rank)) return true;
    }
    return false;
}

/* The same question as reached_before for the last move alone, tested on the cells: the still
 * swap (x, y) at board col, after the still swap p = chain[ply - 1] made from board B. When
 * the two touch different cells, and (x, y) makes no run on B and p none after it, the path
 * (x, y), p, searched first, reached this same board. */
static bool pair_reached_before(search *s, const column *col, int ply, int x, int y)
{
    int p = ply > 0 ? s->at[ply - 1]->code : NO_PREV;
    if (p == NO_PREV || !searched_first(s, ply - 1, rank_of(x, y, 1))) return false;
    int px = p / 16, py = p % 16;
    if (py == y && px - x <= 1 && x - px <= 1) return false; /* a shared cell */
    column b[MAYAN_MAX_SIDE];
    copy_columns(b, col, s->width);
    swap_cells(b, px, py); /* B */
    unsigned v = col_get(b[x], y), u = col_get(b[x + 1], y);
    if (swap_makes_run(b, s->width, x, y, v, u)) return false;
    swap_cells(b, x, y); /* B after (x, y) */
    v = col_get(b[px], py), u = col_get(b[px + 1], py);
    return !swap_makes_run(b, s->width, px, py, v, u);
}

/* How many bytes of w are nonzero. */
static inline int nonzero_bytes(uint64_t w)
{
    uint64_t t =
        (((w & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | w) & 0x8080808080808080ULL;
    return (int)(((t >> 7) * 0x0101010101010101ULL) >> 56);
}

/* The colours out of place (D > 0) as a bit mask (bit v for colour v), from two word tests. */
static inline unsigned out_of_place_mask(const unsigned char *d)
{
    uint64_t a, b;
    memcpy(&a, d, 8);
    memcpy(&b, d + 8, 8);
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL, high = 0x8080808080808080ULL;
    uint64_t ta = ((((a & low7) + low7) | a) & high) >> 7,
             tb = ((((b & low7) + low7) | b) & high) >> 7;
    /* one bit per byte (bit 8i) gathered into the top byte, byte i to bit i */
    return (unsigned)((ta * 0x0102040810204080ULL) >> 56) |
           (unsigned)((tb * 0x0102040810204080ULL) >> 56) << 8;
}

/* How many colours are out of place (D > 0): two word tests instead of a loop over colours. */
static inline int out_of_place(const unsigned char *d)
{
    uint64_t a, b;
    memcpy(&a, d, 8);
    memcpy(&b, d + 8, 8);
    return nonzero_bytes(a) + nonzero_bytes(b);
}

/* The child's D for `left` moves from its counts: a colour whose counts did not change keeps
 * the parent's exact value; false as soon as the bound rules the child out. */
static bool child_spreads(search *s, const mayan_counts *cc, const mayan_counts *parent_cc,
                          const unsigned char *parent_d, int left, unsigned char *d)
{
    int sum = 0;
    for (int v = 1; v <= s->colours; v++) {
        int dv = cc[v] == parent_cc[v] ? parent_d[v]
                 : cc[v]               ? mayan_displacement_small(s->bound, cc[v], left)
                                       : 0;
        d[v] = (unsigned char)dv;
        sum += dv;
        if (dv > left || sum > 2 * left) return false;
    }
    return true;
}

/* D of one colour after one of its blocks moves a column (x -> x + 1 or x -> x - 1), before
 * anything vanishes: computed on demand, once per node and shift, for one cap (the child's moves
 * left; 0 at the last move, where it only tells whether the spread is then valid).
 * On boards of more than 5 columns, which shifts leave a colour valid is first read off its
 * mayan_wide_shifts, once per node and colour: that answers every shift at the last move, and
 * every shift of a colour valid at the node (D is then 0 or 1: the block can go back). */
typedef struct shift_bounds {
    int cap;
    unsigned valid;      /* colours with D = 0 at the node */
    unsigned wide_known; /* colours whose wide[] is read */
    uint32_t wide[MAYAN_MAX_COLOUR + 1];
    uint32_t known_right[MAYAN_MAX_COLOUR + 1], known_left[MAYAN_MAX_COLOUR + 1];
    unsigned char right[MAYAN_MAX_COLOUR + 1][MAYAN_MAX_SIDE];
    unsigned char left[MAYAN_MAX_COLOUR + 1][MAYAN_MAX_SIDE];
} shift_bounds;

static void shift_bounds_init(shift_bounds *sb, int cap, unsigned valid)
{
    sb->cap = cap;
    sb->valid = valid;
    sb->wide_known = 0;
    /* fixed sizes: cleared by a few stores, not a call */
    memset(sb->known_right, 0, sizeof sb->known_right);
    memset(sb->known_left, 0, sizeof sb->known_left);
}

/* Wide boards: D after the shift of bit `bit` (mayan_wide_shifts) if the mask tells it, else -1. */
static inline int wide_shifted(search *s, const mayan_counts *cc, shift_bounds *sb, unsigned v,
                               int bit)
{
    if (!(sb->wide_known >> v & 1)) {
        sb->wide[v] = mayan_wide_shifts(s->bound, cc[v]);
        sb->wide_known |= 1u << v;
    }
    if (sb->wide[v] >> bit & 1) return 0;
    return sb->cap == 0 || (sb->valid >> v & 1) ? 1 : -1;
}

static inline int shifted_right(search *s, const mayan_counts *cc, shift_bounds *sb, unsigned v,
                                int x)
{
    if (!s->bound->direct) {
        int d = wide_shifted(s, cc, sb, v, x);
        if (d >= 0) return d;
    }
    if (!(sb->known_right[v] >> x & 1)) {
        mayan_counts c = cc[v] - one_at(x) + one_at(x + 1);
        sb->right[v][x] = (unsigned char)mayan_displacement_small(s->bound, c, sb->cap);
        sb->known_right[v] |= 1u << x;
    }
    return sb->right[v][x];
}

static inline int shifted_left(search *s, const mayan_counts *cc, shift_bounds *sb, unsigned v,
                               int x)
{
    if (!s->bound->direct) {
        int d = wide_shifted(s, cc, sb, v, MAYAN_WIDE_LEFT + x - 1);
        if (d >= 0) return d;
    }
    if (!(sb->known_left[v] >> x & 1)) {
        mayan_counts c = cc[v] - one_at(x) + one_at(x - 1);
        sb->left[v][x] = (unsigned char)mayan_displacement_small(s->bound, c, sb->cap);
        sb->known_left[v] |= 1u << x;
    }
    return sb->left[v][x];
}

/* At the last move: does shifting one block of v from column x to x + 1 (x - 1) leave v's
 * spread invalid? A direct look-up on boards of at most 5 columns (no per-node memo to set up),
 * else the per-node memo. */
static inline bool breaks_right(search *s, const mayan_counts *cc, shift_bounds *sb, bool direct,
                                unsigned v, int x)
{
    if (direct) return !mayan_spread_valid(s->bound, cc[v] - one_at(x) + one_at(x + 1));
    return shifted_right(s, cc, sb, v, x) != 0;
}

static inline bool breaks_left(search *s, const mayan_counts *cc, shift_bounds *sb, bool direct,
                               unsigned v, int x)
{
    if (direct) return !mayan_spread_valid(s->bound, cc[v] - one_at(x) + one_at(x - 1));
    return shifted_left(s, cc, sb, v, x) != 0;
}

/* Plays the swap or drag and tells whether the board is then empty (the move must make a run).
 * The cascade moves no block sideways, so after each round every colour must still have a valid
 * spread (mayan_bound.h): the play stops at the first round that leaves one invalid. */
static bool empties(search *s, const column *col, const mayan_counts *cc, int x, int y, int dir,
                    bool swapping, unsigned v, unsigned u)
{
    int w = s->width;
    column child[MAYAN_MAX_SIDE];
    if (swapping)
        swap(col, w, x, y, v, u, child);
    else
        drag(col, w, x, y, v, x + dir, child);
    int lo = dir > 0 ? x : x - 1, hi = lo + 1;
    if (!s->bound->direct) {
        /* Only where the direct table answers: on wide boards the programme for every new
         * spread costs more than the rounds it saves (16 x 16, n = 3: 3x the instructions). */
        return settle(child, w, lo, hi, NULL, false) && board_empty(child, w);
    }
    uint64_t mark[5];
    /* A drag may make no run at all: known before the counts are copied. */
    if (w == 5 && !runs5(child, mark, s->narrow)) return false;
    mayan_counts now[MAYAN_MAX_COLOUR + 1];
    memcpy(now, cc, sizeof now);
    now[v] += one_at(x + dir) - one_at(x);
    if (swapping) now[u] += one_at(x) - one_at(x + 1);
    if (w == 5) {
        /* Each round's counts are tested before its blocks fall: most plays stop there. */
        do {
            unsigned lost = 0;
            for (int cx = 0; cx < 5; cx++)
                for (uint64_t m = mark[cx]; m; m &= m - 1) {
                    unsigned c = col_get(child[cx], __builtin_ctzll(m) / 4);
                    now[c] -= one_at(cx);
                    lost |= 1u << c;
                }
            for (; lost; lost &= lost - 1) {
                unsigned c = (unsigned)__builtin_ctz(lost);
                if (now[c] && !mayan_spread_valid(s->bound, now[c])) return false;
            }
        } while (compact5(child, mark, NULL) && runs5(child, mark, s->narrow));
        return board_empty(child, w);
    }
    unsigned lost = 0;
    if (!settle_round(child, w, &lo, &hi, now, &lost)) return false;
    do {
        for (; lost; lost &= lost - 1) {
            unsigned c = (unsigned)__builtin_ctz(lost);
            if (now[c] && !mayan_spread_valid(s->bound, now[c])) return false;
        }
    } while (settle_round(child, w, &lo, &hi, now, &lost));
    return board_empty(child, w);
}

/* With one move left on a wide board, at child C of the node P that parent_col holds, made from P
 * by a move that changed the columns changed_by_a: does the move (x, y, dir), whose own two
 * columns are three or more away from those, surely leave a block on C (mayan_far.h)? How it plays
 * on P is worked out once for all of P's children that ask. */
static bool fails_as_on_parent(search *s, unsigned changed_by_a, int x, int y, int dir)
{
    parent_play *pp = &s->parent_plays[rank_of(x, y, dir)];
    if (pp->gen != s->parent_gen) {
        pp->gen = s->parent_gen;
        pp->play = play_move(s->parent_col, s->width, x, y, dir);
    }
    bool fails = leaves_a_block_after(pp->play, changed_by_a);
    s->parent_answers += fails;
    return fails;
}

/* Shift masks have bit x for a block going from column x to x + 1, and bit `back` + x for one
 * coming back across the same border: SHIFT_BACK in mayan_shift_mask (boards of at most 5
 * columns), MAYAN_WIDE_LEFT in mayan_wide_shifts. */
#define SHIFT_BACK 4

/* The borders across which a swap sends a block of the colour with mask ma to the right and one
 * of the colour with mask mb back, both spreads then valid (mayan_shift_mask has 8 bits, so
 * only its 4 borders survive the shift). */
static inline uint32_t mends_right(uint32_t ma, uint32_t mb, int back)
{
    return ma & mb >> back & 0x7FFFu;
}

/* The borders across which one swap of a block of colour a (counts ca) with one of b (cb)
 * leaves both spreads valid, by the way a's block goes: *a_right when it goes to the right,
 * *b_right when b's does. One look-up per colour. */
static inline void mending_borders(search *s, mayan_counts ca, mayan_counts cb, uint32_t *a_right,
                                   uint32_t *b_right)
{
    uint32_t ma, mb;
    int back;
    if (s->bound->direct) {
        ma = mayan_shift_mask(s->bound, ca), mb = mayan_shift_mask(s->bound, cb);
        back = SHIFT_BACK;
    } else {
        ma = mayan_wide_shifts(s->bound, ca), mb = mayan_wide_shifts(s->bound, cb);
        back = MAYAN_WIDE_LEFT;
    }
    *a_right = mends_right(ma, mb, back);
    *b_right = mends_right(mb, ma, back);
}

/* The last move: it has to empty the board, so after it every colour's spread is valid as it
 * stands (the cascade moves no block sideways). A move shifts one block of at most two colours;
 * so it must shift every colour whose spread is invalid now, and leave the shifted ones valid.
 * Those tests come before anything is played out. */
static inline __attribute__((always_inline)) bool last_move_with(search *s, const column *col,
                                                                 const mayan_counts *cc,
                                                                 const unsigned char *d, int ply,
                                                                 const bool direct)
{
    int w = s->width;
    unsigned invalid = out_of_place_mask(d);
    unsigned invalid2 = invalid & (invalid - 1);
    if (invalid2 & (invalid2 - 1)) return false; /* three or more */
    int bad = invalid2 ? 2 : invalid ? 1 : 0;
    if (bad == 2) {
        /* Only a swap of the two colours can mend both, one to each side, across a border where
         * both shifts leave their spreads valid: one shift mask per colour tells those borders,
         * and only there are the two looked for side by side. */
        unsigned a = (unsigned)__builtin_ctz(invalid), b = 31u - (unsigned)__builtin_clz(invalid);
        uint32_t a_right, b_right;
        mending_borders(s, cc[a], cc[b], &a_right, &b_right);
        uint32_t borders = a_right | b_right;
        for (; borders; borders &= borders - 1) {
            int x = __builtin_ctz(borders);
            uint64_t rows = (a_right >> x & 1 ? nib_is(col[x], a) & nib_is(col[x + 1], b) : 0) |
                            (b_right >> x & 1 ? nib_is(col[x], b) & nib_is(col[x + 1], a) : 0);
            for (; rows; rows &= rows - 1) {
                int y = __builtin_ctzll(rows) / 4;
                unsigned v = col_get(col[x], y), u = col_get(col[x + 1], y);
                if (swap_makes_run(col, w, x, y, v, u) &&
                    empties(s, col, cc, x, y, 1, true, v, u)) {
                    s->path[ply] = (mayan_move){x, y, 1};
                    return true;
                }
            }
        }
        return false;
    }
    shift_bounds sb;
    if (!direct) shift_bounds_init(&sb, 0, 0);
    /* With one colour a out of place, only moves that shift a block of a can mend it: the
     * cells of a (and the swaps with a on either side) are all that is tried, in order. */
    uint64_t of_a[MAYAN_MAX_SIDE + 1]; /* read only when bad == 1; of_a[w] = 0: no column */
    /* Wide boards: the shifts that leave a valid (bit x: from x to x + 1, MAYAN_WIDE_LEFT + x:
     * back), one look-up; most borders then have no move to try. */
    uint32_t mends = ~0u, columns = (1u << w) - 1; /* columns: where a move may start */
    if (bad == 1) {
        unsigned a = (unsigned)__builtin_ctz(invalid);
        for (int x = 0; x < w; x++) of_a[x] = nib_is(col[x], a);
        of_a[w] = 0;
        if (!direct) {
            mends = mayan_wide_shifts(s->bound, cc[a]);
            uint32_t back = mends >> MAYAN_WIDE_LEFT & 0x7FFFu;
            columns &= (mends & 0x7FFFu) | back | back << 1;
        }
    }
    /* With every colour in place, the moves far from the columns the move before changed may be
     * answered on the parent (fails_as_on_parent). */
    bool from_parent = !direct && tracks_columns(s) && bad == 0 && ply > 0 && s->parent_col;
    unsigned changed_by_a = from_parent ? s->at[ply - 1]->foot : 0;
    for (; columns; columns &= columns - 1) {
        int x = __builtin_ctz(columns);
        bool far_right = from_parent && away_from(changed_by_a, x);
        bool far_left = from_parent && x > 0 && away_from(changed_by_a, x - 1);
        int hx = col_height(col[x]);
        int hr = x + 1 < w ? col_height(col[x + 1]) : 0;
        int hl = x > 0 ? col_height(col[x - 1]) : 0;
        uint64_t rows = rows_below(hx);
        if (bad == 1) {
            /* a to the right (swap or drag), a swapped in from the right, a dragged left */
            uint64_t right = mends >> x & 1 ? of_a[x] : 0;
            uint64_t back = mends >> (MAYAN_WIDE_LEFT + x) & 1 ? of_a[x + 1] & rows_below(hr) : 0;
            uint64_t left = x > 0 && mends >> (MAYAN_WIDE_LEFT + x - 1) & 1 ? of_a[x] : 0;
            rows &= right | back | left;
        }
        /* Only rows where some move could empty the board: a swap must make a run (all rows
         * of a border at once: on a full wide board most swaps make none), a drag needs air. */
        if (bad == 0) {
            uint64_t movable = x > 0 ? ~rows_below(hl) : 0;
            if (x + 1 < w)
                movable |= ~rows_below(hr) |
                           (swap_run_rows(col, w, x, s->narrow) & ~nib_same(col[x], col[x + 1]));
            rows &= movable;
        }
        for (; rows; rows &= rows - 1) {
            int y = __builtin_ctzll(rows) / 4;
            unsigned v = col_get(col[x], y);
            if (x + 1 < w && y < hr) {
                /* A swap; an equal one changes nothing and cannot empty the board. */
                unsigned u = col_get(col[x + 1], y);
                if (u != v && !(invalid & ~(1u << u | 1u << v)) &&
                    swap_makes_run(col, w, x, y, v, u) && !breaks_right(s, cc, &sb, direct, v, x) &&
                    !breaks_left(s, cc, &sb, direct, u, x + 1) &&
                    !(far_right && fails_as_on_parent(s, changed_by_a, x, y, 1)) &&
                    empties(s, col, cc, x, y, 1, true, v, u)) {
                    s->path[ply] = (mayan_move){x, y, 1};
                    return true;
                }
            } else if (x + 1 < w && !(invalid & ~(1u << v)) &&
                       !breaks_right(s, cc, &sb, direct, v, x) &&
                       !(far_right && fails_as_on_parent(s, changed_by_a, x, y, 1)) &&
                       empties(s, col, cc, x, y, 1, false, v, 0)) {
                s->path[ply] = (mayan_move){x, y, 1};
                return true;
            }
            /* Left into an occupied cell repeats (x-1, y, 1): only left into empty air. */
            if (x > 0 && y >= hl && !(invalid & ~(1u << v)) &&
                !breaks_left(s, cc, &sb, direct, v, x) &&
                !(far_left && fails_as_on_parent(s, changed_by_a, x, y, -1)) &&
                empties(s, col, cc, x, y, -1, false, v, 0)) {
                s->path[ply] = (mayan_move){x, y, -1};
                return true;
            }
        }
    }
    return false;
}

/* The last move on boards of at most 5 columns (the direct tables of mayan_bound.h) with at most
 * one colour out of place: the same tests as last_move_with and the same moves in the same
 * order, but the tests come before the cells, for all rows of a column at once. Which single
 * shifts keep a colour's spread valid is one look-up per colour (mayan_shift_mask); which swaps
 * make a run, a few word operations per border (swap_run_rows). Only the moves left after that
 * are played out. Inlined twice: for the contest's width of 5, where the loops unroll, and for
 * the others. */
static inline __attribute__((always_inline)) bool last_move_direct_w(search *s, const column *col,
                                                                     const mayan_counts *cc,
                                                                     unsigned invalid, int ply,
                                                                     const int w)
{
    /* of[v][x]: the cells of colour v in column x; right[x] / left[x]: the cells of column x
     * whose block may go to x + 1 / x - 1 (its colour's spread is then valid). */
    uint64_t of[MAYAN_MAX_COLOUR + 1][MAYAN_MAX_SIDE];
    uint64_t right[MAYAN_MAX_SIDE + 1], left[MAYAN_MAX_SIDE];
    for (int x = 0; x < w; x++) right[x] = left[x] = 0;
    right[w] = 0;
    for (int v = 1; v <= s->colours; v++) {
        if (!cc[v]) continue;
        unsigned shifts = mayan_shift_mask(s->bound, cc[v]);
        for (int x = 0; x < w; x++) {
            /* masks, not branches: which shifts pass is as good as random */
            of[v][x] = nib_is(col[x], (unsigned)v);
            right[x] |= of[v][x] & (0 - (uint64_t)(shifts >> x & 1u));
            if (x > 0) left[x] |= of[v][x] & (0 - (uint64_t)(shifts >> (3 + x) & 1u));
        }
    }
    /* With one colour a out of place, a drag must shift a and a swap a block of a. */
    uint64_t only[MAYAN_MAX_SIDE + 1];
    unsigned a = invalid ? (unsigned)__builtin_ctz(invalid) : 0;
    for (int x = 0; x < w; x++) only[x] = invalid ? of[a][x] : ~0ULL;
    only[w] = invalid ? 0 : ~0ULL;
    for (int x = 0; x < w; x++) {
        int hr = x + 1 < w ? col_height(col[x + 1]) : 0;
        int hl = x > 0 ? col_height(col[x - 1]) : 0;
        uint64_t to_right = 0, to_left = 0;
        if (x + 1 < w) {
            uint64_t swaps = right[x] & left[x + 1] & (only[x] | only[x + 1]);
            if (swaps) swaps &= ~nib_same(col[x], col[x + 1]) & swap_run_rows(col, w, x, s->narrow);
            to_right = swaps | (right[x] & only[x] & ~rows_below(hr));
        }
        if (x > 0) to_left = left[x] & only[x] & ~rows_below(hl);
        for (uint64_t rows = to_right | to_left; rows; rows &= rows - 1) {
            uint64_t bit = rows & (0 - rows);
            int y = __builtin_ctzll(rows) / 4;
            unsigned v = col_get(col[x], y);
            if (to_right & bit) {
                bool swapping = y < hr;
                unsigned u = swapping ? col_get(col[x + 1], y) : 0;
                if (empties(s, col, cc, x, y, 1, swapping, v, u)) {
                    s->path[ply] = (mayan_move){x, y, 1};
                    return true;
                }
            }
            if ((to_left & bit) && empties(s, col, cc, x, y, -1, false, v, 0)) {
                s->path[ply] = (mayan_move){x, y, -1};
                return true;
            }
        }
    }
    return false;
}

/* The last move: through the direct tables on boards of at most 5 columns, else with the
 * per-node memo of shifted spreads. */
static bool last_move(search *s, const column *col, const mayan_counts *cc, const unsigned char *d,
                      int ply)
{
    if (!s->bound->direct) return last_move_with(s, col, cc, d, ply, false);
    unsigned invalid = out_of_place_mask(d);
    if (invalid & (invalid - 1)) return last_move_with(s, col, cc, d, ply, true); /* 2 or more */
    if (s->width == 5) return last_move_direct_w(s, col, cc, invalid, ply, 5);
    return last_move_direct_w(s, col, cc, invalid, ply, s->width);
}

/* Whether one swap across a border, a block of one colour each way, leaves both spreads valid,
 * from the two colours' mayan_shift_mask. */
static inline bool masks_mend(unsigned ma, unsigned mb)
{
    return mends_right(ma, mb, SHIFT_BACK) | mends_right(mb, ma, SHIFT_BACK);
}

/* Whether one swap of a block of colour a (counts ca) with one of b (cb) across one border
 * leaves both spreads valid (mending_borders). */
static inline bool pair_mendable(search *s, mayan_counts ca, mayan_counts cb)
{
    uint32_t a_right, b_right;
    mending_borders(s, ca, cb, &a_right, &b_right);
    return a_right | b_right;
}

/* With two moves left: a child with exactly two colours a, b out of place, on its counts as the
 * move leaves them (`invalid`; v and u now at cv and cu), can be emptied by its last move only
 * through a swap of a block of a with one of b across one border that makes both spreads valid
 * (a move shifts one block of at most two colours, the cascade none). Sound before settling:
 * settling removes lines R, a valid spread, and never lowers D, so a and b stay out of place;
 * and if S + shift is valid for S = P - R, then so is P + shift = (S + shift) + R. */
static inline bool last_pair_possible(search *s, const mayan_counts *cc, unsigned invalid,
                                      unsigned v, mayan_counts cv, unsigned u, mayan_counts cu)
{
    unsigned rest = invalid & (invalid - 1);
    if (!rest || (rest & (rest - 1))) return true;
    unsigned a = (unsigned)__builtin_ctz(invalid), b = (unsigned)__builtin_ctz(rest);
    mayan_counts ca = a == v ? cv : a == u ? cu : cc[a];
    mayan_counts cb = b == v ? cv : b == u ? cu : cc[b];
    return pair_mendable(s, ca, cb);
}

/* The shifts of mayan_shift_mask seen from the other colour of a swap: a block going from x to
 * x + 1 (bit x) swaps with one going from x + 1 to x (bit 4 + x). */
static inline unsigned partner_shifts(unsigned mask)
{
    return ((mask & 0xFu) << 4) | (mask >> 4);
}

/* Whether shifts b1 and b2 (bits of mayan_shift_mask) of one colour, together, leave its spread
 * valid (each shift takes a block from where the counts, after both, still have one). */
static inline bool two_shifts_valid(search *s, mayan_counts c, int b1, int b2)
{
    int from1 = b1 < 4 ? b1 : b1 - 3, to1 = b1 < 4 ? b1 + 1 : b1 - 4;
    int from2 = b2 < 4 ? b2 : b2 - 3, to2 = b2 < 4 ? b2 + 1 : b2 - 4;
    c += one_at(to1) + one_at(to2);
    if (!(c >> (4 * from1) & 15)) return false;
    c -= one_at(from1);
    if (!(c >> (4 * from2) & 15)) return false;
    c -= one_at(from2);
    return mayan_spread_valid(s->bound, c);
}

/* The shift of bit `bit` of mayan_shift_mask applied to counts c. */
static inline mayan_counts shifted(mayan_counts c, int bit)
{
    int from = bit < 4 ? bit : bit - 3, to = bit < 4 ? bit + 1 : bit - 4;
    return c + one_at(to) - one_at(from);
}

/* With two moves left and exactly two colours out of place, a (D = da, counts ca) and b: can two
 * moves make both spreads valid? D = 1 means one shift mends the colour (its mayan_shift_mask is
 * not 0), so two such colours can be mended one per move. A colour with D = 2 needs a shift from
 * each move: the first shifts it (and b as well when b also has D = 2: a swap of the two across
 * one border), and the last must then mend it, and b if b is still out of place, by one swap of
 * the two. What the first move does to other colours is left out, so this says "possible" too
 * often, never too seldom. Sound on counts before settling, as last_pair_possible. */
static bool pair_in_two(search *s, int da, mayan_counts ca, int db, mayan_counts cb)
{
    if (da == 1 && db == 1) return true;
    if (da == 1) {
        mayan_counts c = ca;
        ca = cb, cb = c, db = 1;
    }
    unsigned mask_b = db == 1 ? mayan_shift_mask(s->bound, cb) : 0;
    for (int bit = 0; bit < 8; bit++) {
        int x = bit & 3;
        if (x + 1 >= s->width) continue;
        int from = bit < 4 ? x : x + 1, to = bit < 4 ? x + 1 : x;
        if (!(ca >> (4 * from) & 15)) continue;
        /* a is still out of place after one shift (D = 2): the last move must shift it again */
        unsigned mask_a = mayan_shift_mask(s->bound, shifted(ca, bit));
        if (!mask_a) continue;
        /* b left alone (D = 1): one swap mends both */
        if (mask_b && masks_mend(mask_a, mask_b)) return true;
        /* a swap, b's block going the other way: b is then in place, or the last swap mends both */
        if (cb >> (4 * to) & 15) {
            mayan_counts b1 = shifted(cb, bit < 4 ? bit + 4 : bit - 4);
            if (mayan_spread_valid(s->bound, b1) ||
                masks_mend(mask_a, mayan_shift_mask(s->bound, b1)))
                return true;
        }
    }
    return false;
}

/* With two moves left on boards of at most 5 columns (the direct tables): can two moves make
 * every spread valid? Each colour out of place (D > 0) must be shifted by one of the two moves,
 * and a move shifts one block of at most two colours. A colour shifted by one move only must be
 * valid after that shift; one shifted by both, after the two. So (on counts; sound before
 * settling, as last_pair_possible):
 *   four out of place: two swaps, each of a pair that it mends (three ways to pair them);
 *   three, p q r: either all have D = 1 and one swap mends two of them, or one of them, p, is
 *   shifted by both moves, swapped once with q and once with r: q and r valid after their
 *   shift, p after both;
 *   two: pair_in_two.
 * With fewer out of place it says nothing. */
static bool two_moves_possible_of(search *s, int count, const mayan_counts *c,
                                  const unsigned char *dd)
{
    if (count == 2) return pair_in_two(s, dd[0], c[0], dd[1], c[1]);
    if (count < 3) return true;
    unsigned mask[4];
    for (int i = 0; i < count; i++) mask[i] = mayan_shift_mask(s->bound, c[i]);
#define MENDS(i, j) masks_mend(mask[i], mask[j])
    if (count == 4)
        return (MENDS(0, 1) && MENDS(2, 3)) || (MENDS(0, 2) && MENDS(1, 3)) ||
               (MENDS(0, 3) && MENDS(1, 2));
    if (dd[0] == 1 && dd[1] == 1 && dd[2] == 1 && (MENDS(0, 1) || MENDS(0, 2) || MENDS(1, 2)))
        return true;
#undef MENDS
    for (int p = 0; p < 3; p++) {
        unsigned with_q = partner_shifts(mask[(p + 1) % 3]),
                 with_r = partner_shifts(mask[(p + 2) % 3]);
        for (unsigned b1 = with_q; b1; b1 &= b1 - 1)
            for (unsigned b2 = with_r; b2; b2 &= b2 - 1)
                if (two_shifts_valid(s, c[p], __builtin_ctz(b1), __builtin_ctz(b2))) return true;
    }
    return false;
}

/* two_moves_possible for the child that a move of a block of v (and, for a swap, of one of u;
 * else u is 0) leaves, asked before the child is made: the node's counts cc and D d (colours
 * out of place: `invalid`), but v and u at cv, dv and cu, du. Sound before the child settles,
 * as last_pair_possible; a child the move leaves with more than four colours out of place has
 * already failed the sum of D. */
static bool two_moves_possible_after(search *s, const mayan_counts *cc, const unsigned char *d,
                                     unsigned invalid, unsigned v, mayan_counts cv, int dv,
                                     unsigned u, mayan_counts cu, int du)
{
    unsigned out = (invalid & ~(1u << v | 1u << u)) | (dv ? 1u << v : 0) | (du ? 1u << u : 0);
    mayan_counts c[4];
    unsigned char dd[4];
    int count = 0;
    for (; out && count < 4; out &= out - 1, count++) {
        unsigned k = (unsigned)__builtin_ctz(out);
        c[count] = k == v ? cv : k == u ? cu : cc[k];
        dd[count] = (unsigned char)(k == v ? dv : k == u ? du : d[k]);
    }
    return !out && two_moves_possible_of(s, count, c, dd);
}

static bool two_moves_possible(search *s, const mayan_counts *cc, const unsigned char *d)
{
    return two_moves_possible_after(s, cc, d, out_of_place_mask(d), 0, 0, 0, 0, 0, 0);
}

/* With two moves left and exactly two colours a, b out of place: can no swap of a block of a
 * with one of b across one border leave both spreads valid, on the counts alone? Then a first
 * move that shifts neither a nor b leaves both out of place (settling never lowers D), and the
 * last move, which would have to mend both at once (last_pair_possible: one swap of the two),
 * cannot, since it could not on these counts either (settling removes a valid spread R, and if
 * S + shift is valid for S = P - R, so is P + shift). So the first move must shift a or b: only
 * their cells are tried, where the child-by-child test would look at every cell. */
static bool pair_blocked(search *s, const mayan_counts *cc, const unsigned char *d)
{
    unsigned invalid = out_of_place_mask(d);
    unsigned rest = invalid & (invalid - 1);
    return rest && !(rest & (rest - 1)) &&
           !pair_mendable(s, cc[__builtin_ctz(invalid)], cc[__builtin_ctz(rest)]);
}

static bool dfs(search *s, const column *col, const mayan_counts *cc, const unsigned char *d,
                int left, int ply, const table_key *known_key);

/* A 5 x 7 key is two words: copied by two stores rather than a call. */
static inline void copy_key(uint64_t *to, const uint64_t *from, int words)
{
    if (words <= 2) {
        to[0] = from[0];
        if (words == 2) to[1] = from[1];
    } else {
        memcpy(to, from, (size_t)words * sizeof *to);
    }
}

#define BATCH 8
/* Every move of a board, at most: a drag either way or a swap from each cell. */
#define ROOT_CHILDREN_MAX (2 * MAYAN_MAX_SIDE * MAYAN_MAX_SIDE)

/* Is the failure table worth asking about a node with `left` moves and bounds d? With one move
 * left, the last move is found or refused from a few bit masks (last_move), faster than a probe
 * into a large table, when two or more colours are out of place; on boards without the direct
 * tables, when any is (the masks of mayan_wide_shifts narrow it to a few borders). With every
 * colour in place the last move may have to play out dozens of cascades: the probe pays (16 x 16
 * boards, n = 5: 7 colours 14.8 s without the probes at the last move, 12.5 s with them only when
 * one or none is out of place, 12.1 s only when none; 5 colours, n = 4: 4.0 s -> 3.2 s). */
static bool table_pays(const search *s, const unsigned char *d, int left)
{
    if (!s->use_table || left < s->table_from) return false;
    int out = out_of_place(d);
    return left > 1 || out == 0 || (s->bound->direct && out < 2);
}

/* Settles the child reached by move (x, y, dir) (child_cc and child_d: its counts and D before
 * settling, which passed the bound; `still`: the move made no run, so they are final) and checks
 * the bound again. false when that rules it out. */
static bool settle_child(search *s, column *child, mayan_counts *child_cc, unsigned char *child_d,
                         bool still, int left, int x, int dir)
{
    if (still) return true;
    /* The move changed columns x and x + dir only. */
    int lo = dir > 0 ? x : x - 1;
    mayan_counts moved_cc[MAYAN_MAX_COLOUR + 1];
    memcpy(moved_cc, child_cc, sizeof moved_cc);
    /* An empty board allows no move. */
    if (settle(child, s->width, lo, lo + 1, child_cc, s->narrow) && board_empty(child, s->width))
        return false;
    /* Settling only removes lines, so it may raise D but never lowers it: check again. */
    spreads moved_d;
    memcpy(moved_d, child_d, sizeof moved_d);
    if (!child_spreads(s, child_cc, moved_cc, moved_d, left - 1, child_d)) {
        s->bound_cuts++;
        return false;
    }
    return true;
}

static bool search_root(search *s, pending *p, int count, int left);
static bool helper_root(search *s, pending *p, int count, int left);
static bool search_units(search *s, pending *p, int count, int left);

/* Searches the pending children in order; true when one holds a solution (path set). The
 * root's children go to search_root, theirs to search_units. */
static bool search_pending(search *s, pending *p, int count, int left, int ply)
{
    if (ply == 0)
        return s->root_children ? helper_root(s, p, count, left) : search_root(s, p, count, left);
    if (ply == 1) return search_units(s, p, count, left);
    for (int i = 0; i < count; i++) {
        s->at[ply] = &p[i];
        if (dfs(s, p[i].col, p[i].cc, p[i].d, left - 1, ply + 1, p[i].keyed ? &p[i].key : NULL)) {
            s->path[ply] = (mayan_move){p[i].x, p[i].y, p[i].dir};
            return true;
        }
        if (s->timed_out) return false;
    }
    return false;
}

/* Queues the child (already made in p[*count]) when it passes; searches the queue when full.
 * A child the table is not asked about waits its turn all the same: children are searched in
 * the contest's order. */
static bool push_child(search *s, const column *col, pending *p, int *count, int batch, bool still,
                       int left, int ply, int x, int y, int dir, int code,
                       const table_key *parent_key)
{
    pending *c = &p[*count];
    if (!settle_child(s, c->col, c->cc, c->d, still, left, x, dir)) return false;
    c->x = x, c->y = y, c->dir = dir, c->code = code;
    c->foot = tracks_columns(s) ? columns_changed(col, c->col, s->width) : 0;
    /* A still swap asked reached_before already. */
    if (!still && c->foot && moved_before(s, ply, c->foot, move_rank(c))) {
        s->reorder_cuts++;
        return false;
    }
    if (left == 3 && s->bound->direct && !still && !two_moves_possible(s, c->cc, c->d)) {
        s->bound_cuts++;
        return false;
    }
    c->keyed = table_pays(s, c->d, left - 1);
    if (c->keyed) {
        uint64_t *key = c->key.words;
        if (parent_key) {
            /* A swap of two different blocks that made no run: two cells changed. */
            copy_key(key, parent_key->words, s->key_words);
            unsigned now = col_get(c->col[x], y), was = col_get(c->col[x + 1], y);
            mayan_key_patch(key, s->height, s->cell_bits, x, y, was, now);
            mayan_key_patch(key, s->height, s->cell_bits, x + 1, y, now, was);
        } else {
            mayan_key_pack(c->col, s->width, s->height, s->cell_bits, key);
        }
        c->key.hash = mayan_table_hash(s->table, key);
        mayan_table_prefetch(s->table, c->key.hash);
    }
    if (++*count < batch) return false;
    *count = 0;
    return search_pending(s, p, batch, left, ply);
}

/* The helper: a second thread for a deep search, over the same failure table (shared while it
 * runs, mayan_table_share). Both threads take the root's children in the contest's order, and
 * within each root child its children, the units, also in that order: each thread claims the
 * units still free (unit_state) and sets aside those the other holds. So the two share every
 * root child, however few there are: the n = 10 worst board has five, and alone the first takes
 * 40 % of the time (bench/RESULTS-mayan.md, round 21). Below a unit a thread searches alone, in
 * the contest's order, so the first solution it finds there is that unit's smallest. A solved
 * unit drops every larger unit and root child (their searches stop: root_dropped). At the end of
 * a root child's units a thread searches those it set aside that the other has not finished yet
 * (unit_finish; whichever finishes one first ends the other's search of it), so each thread
 * leaves a root child only when all its units before the smallest solved one have failed. The
 * answer is the smallest solved unit's solution: the one thread's answer. Each thread only ever
 * adds proven failures (a search stopped early records nothing), so only the time changes. The
 * root's children keep a state too (root_state): claimed when a thread starts one, finished when
 * a thread leaves it, and the commuting-swap cuts read it. */
enum { ROOT_FREE, ROOT_CLAIMED, ROOT_FAILED, ROOT_SOLVED };

/* A unit's number: its root child's move_rank, then its own. */
#define UNIT(root, rank) ((root)*ROOT_CHILDREN_MAX + (rank))

struct helper {
    pthread_t thread;
    bool ran_here;    /* tests (helper_first): run in the first thread, no thread */
    atomic_bool stop; /* its budget's cancel flag */
    budget b;         /* the request's deadline; it gives way to a request that needs its core */
    bool holds_core;  /* it took an idle core (budget_take_core), given back when it ends */
    search s;
    /* Each root move's state, by move_rank: ROOT_FAILED also for a move the root does not have
     * (helper_root), which cannot hold a solution either. */
    _Atomic unsigned char root_state[ROOT_CHILDREN_MAX];
    /* Each unit's state (the same four), by root child and its own move_rank. */
    _Atomic unsigned char (*unit_state)[ROOT_CHILDREN_MAX];
    atomic_int best_unit; /* the smallest unit either thread solved (UNIT); INT_MAX: none */
    pthread_mutex_t lock; /* guards found_* */
    int found_unit;       /* the unit of found_path; INT_MAX: none */
    bool found_by_helper;
    mayan_move found_path[MAYAN_MAX_MOVES];
};

static inline int root_state(const search *s, int rank)
{
    return atomic_load_explicit(&s->helper->root_state[rank], memory_order_acquire);
}

static inline int unit_state(const search *s, int rank)
{
    return atomic_load_explicit(&s->helper->unit_state[s->root_rank][rank], memory_order_acquire);
}

static inline int best_unit(const search *s)
{
    return atomic_load_explicit(&s->helper->best_unit, memory_order_acquire);
}

/* The root child of the smallest solved unit; INT_MAX / ROOT_CHILDREN_MAX (more than any
 * move_rank): none. */
static inline int best_rank(const search *s)
{
    return best_unit(s) / ROOT_CHILDREN_MAX;
}

/* Has a thread searched the root's child of move_rank `rank` to its end, without a solution? Then
 * a path that commutes back to it needs no search either. */
static bool root_failed(const search *s, int rank)
{
    return root_state(s, rank) == ROOT_FAILED;
}

/* The same for the child of move_rank `rank` of root child root_rank. */
static bool unit_failed(const search *s, int rank)
{
    return unit_state(s, rank) == ROOT_FAILED;
}

/* Need the search at `ply` go on? Not once a thread has finished root child root_rank, nor once
 * a smaller unit is solved, nor, at ply 2 and below, once the other thread has finished the unit
 * it claimed and this one searches too. A thread's own unit is searched to its end even if the
 * other, which searches it too only at the end of that root child's units, finishes it first:
 * that is rare, and asking at every node would read the line of unit states that the other
 * thread writes with each claim. */
static inline bool root_dropped(const search *s, int ply)
{
    int best = best_unit(s);
    if (root_state(s, s->root_rank) != ROOT_CLAIMED || s->root_rank > best / ROOT_CHILDREN_MAX)
        return true;
    return ply > 1 && (UNIT(s->root_rank, s->unit_rank) > best ||
                       (s->unit_held && unit_state(s, s->unit_rank) != ROOT_CLAIMED));
}

/* Claims state[rank] if no thread has; else returns false with its state in *state. */
static bool claim(_Atomic unsigned char *state, int rank, int *seen)
{
    unsigned char expected = ROOT_FREE;
    bool claimed = atomic_compare_exchange_strong_explicit(
        &state[rank], &expected, ROOT_CLAIMED, memory_order_acq_rel, memory_order_acquire);
    *seen = expected;
    return claimed;
}

/* Marks state[rank] finished (ROOT_FAILED or ROOT_SOLVED) for the other thread. */
static inline void mark(_Atomic unsigned char *state, int rank, int finished)
{
    atomic_store_explicit(&state[rank], (unsigned char)finished, memory_order_release);
}

/* This thread solved unit `unit` (s->path): records it, and so drops every larger unit. */
static void record_solution(search *s, int unit)
{
    helper *h = s->helper;
    pthread_mutex_lock(&h->lock);
    if (unit < h->found_unit) {
        h->found_unit = unit;
        h->found_by_helper = s->root_children != NULL;
        memcpy(h->found_path, s->path, sizeof h->found_path);
    }
    pthread_mutex_unlock(&h->lock);
    int best = best_unit(s);
    while (unit < best &&
           !atomic_compare_exchange_weak_explicit(&h->best_unit, &best, unit, memory_order_acq_rel,
                                                  memory_order_acquire)) {
    }
}

typedef enum { CHILD_FAILED, CHILD_SOLVED, CHILD_DROPPED, CHILD_STOPPED } child_outcome;

/* Searches unit c of root child root_rank; once helped, records what it found for the other
 * thread. CHILD_STOPPED also when the root child's search is dropped (s->dropped still set). */
static child_outcome search_unit(search *s, const pending *c, int left)
{
    int rank = move_rank(c);
    s->unit_rank = rank;
    s->at[1] = c;
    if (dfs(s, c->col, c->cc, c->d, left - 1, 2, c->keyed ? &c->key : NULL)) {
        s->path[1] = (mayan_move){c->x, c->y, c->dir};
        if (s->helper) {
            record_solution(s, UNIT(s->root_rank, rank));
            mark(s->helper->unit_state[s->root_rank], rank, ROOT_SOLVED);
        }
        return CHILD_SOLVED;
    }
    if (s->dropped) {
        if (root_dropped(s, 1)) return CHILD_STOPPED;
        s->dropped = s->timed_out = false;
        return CHILD_DROPPED;
    }
    if (s->timed_out) return CHILD_STOPPED;
    if (s->helper) mark(s->helper->unit_state[s->root_rank], rank, ROOT_FAILED);
    return CHILD_FAILED;
}

/* A root child's children, a batch at a time, in the contest's order. Alone, the first solution
 * is the answer. Helped, the thread claims each unit still free and sets aside those the other
 * holds; unit_finish then answers for the root child. */
static bool search_units(search *s, pending *p, int count, int left)
{
    for (int i = 0; i < count; i++) {
        if (s->helper) {
            int rank = move_rank(&p[i]), state;
            if (UNIT(s->root_rank, rank) > best_unit(s)) return false;
            if (!claim(s->helper->unit_state[s->root_rank], rank, &state)) {
                if (state == ROOT_CLAIMED) {
                    s->unit_deferred[s->unit_deferred_count++] = p[i];
                    s->shared_units++;
                }
                continue;
            }
        }
        child_outcome outcome = search_unit(s, &p[i], left);
        if (outcome == CHILD_STOPPED) return false;
        /* The helper may have started in the meantime: then the answer waits for unit_finish. */
        if (outcome == CHILD_SOLVED && !s->helper) return true;
    }
    return false;
}

/* Helped, after root child root_rank's last unit: searches the units the other thread held
 * unless they failed there, smallest first. true when the smallest solved unit is one of this
 * root child's (every smaller unit has failed by then); else false, with the root child's
 * failure recorded under key (when given) unless a smaller root child's unit is solved. */
static bool unit_finish(search *s, int left, const table_key *key)
{
    for (int i = 0; i < s->unit_deferred_count; i++) {
        const pending *c = &s->unit_deferred[i];
        int rank = move_rank(c);
        if (UNIT(s->root_rank, rank) > best_unit(s)) break;
        if (unit_state(s, rank) != ROOT_CLAIMED) continue;
        s->unit_held = true;
        child_outcome outcome = search_unit(s, c, left);
        s->unit_held = false;
        if (outcome == CHILD_STOPPED) return false;
    }
    s->unit_deferred_count = 0;
    int best = best_rank(s);
    if (best == s->root_rank) return true;
    if (best < s->root_rank) {
        s->timed_out = s->dropped = true; /* search_root_child tells the two apart */
        return false;
    }
    if (key) mayan_table_add_failure_hashed(s->table, s->table_user, key->words, key->hash, left);
    return false;
}

/* Searches root child c; once helped, records what it found for the other thread. */
static child_outcome search_root_child(search *s, const pending *c, int left)
{
    int rank = move_rank(c);
    s->root_rank = rank;
    s->unit_rank = -1;
    s->unit_deferred_count = 0;
    s->at[0] = c;
    s->path[0] = (mayan_move){c->x, c->y, c->dir};
    if (dfs(s, c->col, c->cc, c->d, left - 1, 1, c->keyed ? &c->key : NULL)) {
        if (s->helper) {
            /* With one move left below the root there are no units: the child is the unit. */
            if (best_rank(s) != rank) record_solution(s, UNIT(rank, 0));
            mark(s->helper->root_state, rank, ROOT_SOLVED);
        }
        return CHILD_SOLVED;
    }
    if (s->dropped) {
        s->dropped = s->timed_out = false;
        return root_state(s, rank) == ROOT_FAILED ? CHILD_FAILED : CHILD_DROPPED;
    }
    if (s->timed_out) return CHILD_STOPPED;
    if (s->helper) mark(s->helper->root_state, rank, ROOT_FAILED);
    return CHILD_FAILED;
}

/* The root's children, a batch at a time, in the contest's order. Alone, the first solution is
 * the answer. Helped, each thread searches every child that neither has finished, claiming it
 * if it is free and else sharing its units with the other thread; the answer (root_answer) waits
 * for the last child. */
static bool search_root(search *s, pending *p, int count, int left)
{
    for (int i = 0; i < count; i++) {
        if (s->helper) {
            int rank = move_rank(&p[i]), state;
            if (rank > best_rank(s)) return false;
            if (!claim(s->helper->root_state, rank, &state) && state != ROOT_CLAIMED) continue;
        }
        child_outcome outcome = search_root_child(s, &p[i], left);
        if (outcome == CHILD_STOPPED) return false;
        /* The helper may have started in the meantime: then the answer waits for root_answer. */
        if (outcome == CHILD_SOLVED && !s->helper) return true;
    }
    return false;
}

/* The first thread, helped, after the root's last child: every child before the smallest solved
 * unit's has failed by then, and that unit's solution, its own or the helper's, is the answer. */
static bool root_answer(search *s)
{
    helper *h = s->helper;
    pthread_mutex_lock(&h->lock);
    bool found = h->found_unit != INT_MAX;
    s->answered_by_helper = found && h->found_by_helper;
    if (found) memcpy(s->path, h->found_path, sizeof s->path);
    pthread_mutex_unlock(&h->lock);
    return found;
}

/* The helper's root, every child collected: a move the root lacks is marked failed (for the
 * commuting-swap cuts). Then it searches the children as the first thread does. Always true: the
 * first thread answers, and the root's failure is not the helper's to record. */
static bool helper_root(search *s, pending *p, int count, int left)
{
    helper *h = s->helper;
    bool has[ROOT_CHILDREN_MAX] = {false};
    for (int i = 0; i < count; i++) has[move_rank(&p[i])] = true;
    for (int rank = 0; rank < ROOT_CHILDREN_MAX; rank++) {
        int state;
        if (!has[rank] && claim(h->root_state, rank, &state))
            mark(h->root_state, rank, ROOT_FAILED);
    }
    search_root(s, p, count, left);
    return true;
}

static void *helper_main(void *arg)
{
    helper *h = arg;
    search *s = &h->s;
    dfs(s, s->root_col, s->root_cc, s->root_d, s->moves, 0, NULL);
    if (h->holds_core) budget_return_core(&h->b);
    return NULL;
}

/* The size a search's failure table grows to, in one pass, just before the helper shares it:
 * a growth while the table is shared makes the other thread wait while the grower reads buckets
 * the other has just written. The worst 5 x 7 boards end at 8 MiB with 6 moves and 32 MiB with
 * 8, so 8 MiB at 6 moves, doubled for each move more, up to 32 MiB. A search that ends soon
 * after the helper starts pays for the bigger table's pages, about 1-2 ms (bench/RESULTS-mayan.md,
 * round 13), so shallower searches, which rarely outgrow it, start at a quarter for each move
 * less (2 MiB at 5 moves; round 15). */
static size_t shared_table_bytes(int moves)
{
    size_t at_six = (size_t)8 << 20;
    if (moves < 6) return at_six >> 2 * (6 - moves);
    return at_six << (moves - 6 < 2 ? moves - 6 : 2);
}

/* Frees helper h of search s and what helper_start allocated for the two (not the bound). */
static void helper_free(search *s, helper *h)
{
    pthread_mutex_destroy(&h->lock);
    free(h->s.root_children);
    free(h->s.unit_deferred);
    free(h->unit_state);
    free(s->unit_deferred);
    s->unit_deferred = NULL;
    free(h);
}

/* Starts the helper of search s; s goes on alone when anything fails. The helper needs an idle
 * core (budget_take_core): a search that finds none asks again after twice the nodes. Tests
 * (mayan_solve_helped with a budget of one thread) start it whatever the cores do. */
static void helper_start(search *s)
{
    bool counted = s->b->threads > 1;
    if (counted && !budget_take_core(s->b)) {
        s->helper_at = s->helper_at * 2;
        return;
    }
    helper *h = calloc(1, sizeof *h);
    if (!h) {
        if (counted) budget_return_core(s->b);
        return;
    }
    h->holds_core = counted;
    h->s = *s;
    search *hs = &h->s;
    hs->nodes = hs->table_hits = hs->bound_cuts = hs->commute_cuts = hs->pair_cuts = 0;
    hs->root_cuts = hs->reach_cuts = hs->shared_units = hs->reorder_cuts = hs->parent_answers = 0;
    hs->helper_at = s->helper_first; /* where it stops (tests); 0: never */
    hs->helper = h; /* set in both searches: they share the root's children through it */
    hs->table_user = 1;
    hs->root_rank = hs->unit_rank = -1;
    pthread_mutex_init(&h->lock, NULL);
    h->found_unit = INT_MAX;
    atomic_init(&h->best_unit, INT_MAX);
    /* The first thread has searched every child before its current one, which it keeps, and so
     * every unit of that child before its current one (calloc: the others ROOT_FREE). */
    for (int rank = 0; rank < ROOT_CHILDREN_MAX; rank++)
        atomic_init(&h->root_state[rank], rank < s->root_rank    ? ROOT_FAILED
                                          : rank == s->root_rank ? ROOT_CLAIMED
                                                                 : ROOT_FREE);
    h->unit_state = calloc(ROOT_CHILDREN_MAX, sizeof *h->unit_state);
    if (h->unit_state && s->root_rank >= 0)
        for (int rank = 0; rank <= s->unit_rank; rank++)
            atomic_init(&h->unit_state[s->root_rank][rank],
                        rank < s->unit_rank ? ROOT_FAILED : ROOT_CLAIMED);
    h->b = *s->b;
    h->b.cancel = &h->stop;
    h->b.threads = 1;
    h->b.gives_way = true;
    hs->b = &h->b;
    atomic_init(&h->stop, false);
    hs->root_children = malloc(ROOT_CHILDREN_MAX * sizeof *hs->root_children);
    s->unit_deferred = malloc(ROOT_CHILDREN_MAX * sizeof *s->unit_deferred);
    hs->unit_deferred = malloc(ROOT_CHILDREN_MAX * sizeof *hs->unit_deferred);
    s->unit_deferred_count = hs->unit_deferred_count = 0;
    bool bound = hs->root_children && s->unit_deferred && hs->unit_deferred && h->unit_state &&
                 mayan_bound_init(hs->bound, s->width, s->bound_log2);
    if (bound) mayan_table_grow_to(s->table, shared_table_bytes(s->moves));
    if (bound && mayan_table_share(s->table)) {
        if (s->helper_first) {
            helper_main(h);
            h->ran_here = true;
            s->helper = h;
            return;
        }
        if (pthread_create(&h->thread, NULL, helper_main, h) == 0) {
            s->helper = h;
            return;
        }
        mayan_table_unshare(s->table);
    }
    if (bound) mayan_bound_free(hs->bound);
    helper_free(s, h);
    if (counted) budget_return_core(s->b);
}

/* Stops and joins the helper of search s, if it has one; returns the nodes it expanded and adds
 * its root_cuts and shared_units to s's. */
static uint64_t helper_finish(search *s)
{
    helper *h = s->helper;
    if (!h) return 0;
    atomic_store_explicit(&h->stop, true, memory_order_relaxed);
    if (!h->ran_here) pthread_join(h->thread, NULL);
    mayan_table_unshare(s->table);
    uint64_t nodes = h->s.nodes;
    s->root_cuts += h->s.root_cuts;
    s->shared_units += h->s.shared_units;
    mayan_bound_free(h->s.bound);
    helper_free(s, h);
    s->helper = NULL;
    return nodes;
}

static bool dfs(search *s, const column *col, const mayan_counts *cc, const unsigned char *d,
                int left, int ply, const table_key *known_key)
{
    if (budget_expired(s->b)) {
        s->timed_out = true;
        return false;
    }
    if (ply > 0 && s->helper && root_dropped(s, ply)) {
        s->timed_out = s->dropped = true; /* search_root_child tells the two apart */
        return false;
    }
    /* A child comes with its key exactly when the table is asked about it (push_child decided
     * with table_pays); the root decides here. */
    table_key root_key;
    const table_key *key = known_key;
    if (ply == 0 && table_pays(s, d, left)) {
        mayan_key_pack(col, s->width, s->height, s->cell_bits, root_key.words);
        root_key.hash = mayan_table_hash(s->table, root_key.words);
        key = &root_key;
    }
    bool use_table = key != NULL;
    if (use_table) {
        if (mayan_table_failed_hashed(s->table, s->table_user, key->words, key->hash, left)) {
            s->table_hits++;
            return false;
        }
    }
    if (++s->nodes == s->helper_at) {
        /* The helper run first (tests) stops here, its root child left claimed as if it were
         * still searching it. */
        if (s->root_children) {
            s->timed_out = true;
            return false;
        }
        helper_start(s);
    }
    if (left == 2 && tracks_columns(s)) {
        s->parent_col = col; /* for fails_as_on_parent, below the children */
        s->parent_gen++;
    }
    if (left == 1) {
        bool found = last_move(s, col, cc, d, ply);
        if (!found && use_table)
            mayan_table_add_failure_hashed(s->table, s->table_user, key->words, key->hash, left);
        return found;
    }
    int w = s->width;
    bool noop_tried = false;
    pending batch_queue[BATCH], *queue = batch_queue;
    int queued = 0, batch = BATCH;
    if (ply == 0 && s->root_children) queue = s->root_children, batch = ROOT_CHILDREN_MAX;
    /* The bound on a child from its counts as the move leaves them, before any run vanishes:
     * settling cannot rescue a child ruled out there (mayan_bound.h). A move changes the D of
     * the one or two colours it shifts; every other colour must already fit in left - 1. */
    int cap = left - 1, sum = 0;
    unsigned over = 0;
    for (int v = 1; v <= s->colours; v++) {
        sum += d[v];
        if (d[v] > cap) over |= 1u << v;
    }
    shift_bounds sb;
    shift_bounds_init(&sb, cap, ~out_of_place_mask(d));
    /* With two moves left, children with two colours out of place must pass last_pair_possible
     * (two look-ups of shift masks), and a node whose two cannot be mended tries only their
     * moves (pair_blocked, below). */
    bool blocked = left == 2 && sum <= 2 * cap && pair_blocked(s, cc, d);
    bool pair_last = left == 2;
    /* With three moves left, children must pass two_moves_possible: asked here on the counts
     * the move leaves, before the child is made (push_child asks again once a run vanished). */
    bool two_last = left == 3 && s->bound->direct;
    unsigned invalid_now = pair_last || two_last ? out_of_place_mask(d) : 0;
    /* With two moves left and a colour a out of place, a still swap of two blocks not of a that
     * writes no cell a's last moves read leads to no solution (mayan_reach.h). On boards of at
     * most 5 columns those cells are nearly all of them: it cut 2 % of the n = 8 board's nodes
     * and took a third more time (bench/RESULTS-mayan.md, round 20). */
    uint64_t near[2][MAYAN_MAX_SIDE];
    unsigned near_colour[2] = {0, 0};
    if (pair_last && invalid_now && !s->bound->direct) {
        unsigned out = invalid_now;
        for (int i = 0; i < 2 && out; i++, out &= out - 1) {
            near_colour[i] = (unsigned)__builtin_ctz(out);
            mayan_last_move_reach(s->bound, col, w, cc[near_colour[i]], near_colour[i], near[i]);
        }
    }
    /* A move changes D only for the colours it shifts, each by at most one. So when the sum is
     * over 2 (left - 1), the move has to shift a colour with D > 0 (two of them, by a swap, when
     * it is over by 2): only the cells of such colours are tried (in order). */
    int excess = sum - 2 * cap;
    /* The same restriction when the two colours out of place cannot be mended by one swap. */
    if (blocked) {
        excess = 1;
        s->pair_cuts++;
    }
    uint64_t inv[MAYAN_MAX_SIDE + 1]; /* read only when excess > 0; inv[w] = 0: no column */
    if (excess > 0) {
        unsigned invalid = 0;
        for (int v = 1; v <= s->colours; v++)
            if (d[v]) invalid |= 1u << v;
        for (int x = 0; x <= w; x++) inv[x] = 0;
        for (int x = 0; x < w; x++)
            for (unsigned m = invalid; m; m &= m - 1)
                inv[x] |= nib_is(col[x], (unsigned)__builtin_ctz(m));
    }
    /* A colour with D over left - 1 must be shifted by the move itself (a move lowers a D by at
     * most one): with one such colour a, only moves of a block of a; with two, a and b, only
     * swaps of a with b; with three or more, no move. Only those cells are tried (in order). */
    unsigned over2 = over & (over - 1);
    int columns = over2 & (over2 - 1) ? 0 : w; /* 0: no move can pass */
    /* Read only when over != 0 (of_b: when over2 != 0); entry w is 0: no column there. */
    uint64_t of_a[MAYAN_MAX_SIDE + 1], of_b[MAYAN_MAX_SIDE + 1];
    if (over) {
        unsigned a = (unsigned)__builtin_ctz(over), b = over2 ? (unsigned)__builtin_ctz(over2) : 0;
        for (int x = 0; x < w; x++) {
            of_a[x] = nib_is(col[x], a);
            of_b[x] = b ? nib_is(col[x], b) : 0;
        }
        of_a[w] = of_b[w] = 0;
    }
    for (int x = 0; x < columns; x++) {
        /* Which swaps across this border make a run: all rows at once (swap_run_rows), asked
         * at the first swap that passes the bound. */
        uint64_t run_rows = 0;
        bool run_rows_known = false;
        int hx = col_height(col[x]);
        int hr = x + 1 < w ? col_height(col[x + 1]) : 0;
        int hl = x > 0 ? col_height(col[x - 1]) : 0;
        uint64_t rows = NIB_LOW & (hx < 16 ? (1ULL << (4 * hx)) - 1 : ~0ULL);
        if (over) {
            uint64_t below_hr = rows_below(hr);
            rows &= over2 ? ((of_a[x] & of_b[x + 1]) | (of_b[x] & of_a[x + 1])) & below_hr
                          : ((of_a[x] | of_a[x + 1]) & below_hr) | of_a[x];
        }
        if (excess > 0) {
            /* Swaps (rows under hr) need v or u of such a colour (both when over by 2); drags
             * need v of one, and cannot mend two. inv[w] is 0: no column there. */
            uint64_t below_hr = NIB_LOW & (hr < 16 ? (1ULL << (4 * hr)) - 1 : ~0ULL);
            uint64_t swaps = excess > 1 ? inv[x] & inv[x + 1] : inv[x] | inv[x + 1];
            rows &= (swaps & below_hr) | (excess > 1 ? 0 : inv[x]);
        }
        /* The rows of this border whose swap is ruled out that way. */
        uint64_t unreached = 0;
        if (near_colour[0] && x + 1 < w) {
            for (int i = 0; i < 2 && near_colour[i]; i++) {
                unsigned a = near_colour[i];
                unreached |=
                    ~(near[i][x] | near[i][x + 1] | nib_is(col[x], a) | nib_is(col[x + 1], a));
            }
            unreached &= rows & rows_below(hr) & ~nib_same(col[x], col[x + 1]);
            if (unreached) {
                run_rows = swap_run_rows(col, w, x, s->narrow);
                run_rows_known = true;
                unreached &= ~run_rows;
            }
        }
        for (; rows; rows &= rows - 1) {
            int y = __builtin_ctzll(rows) / 4;
            unsigned v = col_get(col[x], y);
            if (x + 1 < w && unreached >> (4 * y) & 1) {
                s->reach_cuts++;
            } else if (x + 1 < w) {
                bool swapping = y < hr;
                unsigned u = swapping ? col_get(col[x + 1], y) : 0;
                int dv = d[v], du = u ? d[u] : 0, child_sum = sum;
                bool pass;
                if (u == v) {
                    /* An equal swap changes nothing: the first one stands for all. */
                    pass = !noop_tried && !over && sum <= 2 * cap && !blocked &&
                           (!pair_last || last_pair_possible(s, cc, invalid_now, 0, 0, 0, 0)) &&
                           (!two_last || two_moves_possible(s, cc, d));
                    noop_tried = true;
                } else {
                    dv = shifted_right(s, cc, &sb, v, x);
                    child_sum += dv - d[v];
                    pass = dv <= cap && !(over & ~(1u << v | 1u << u));
                    if (pass && swapping) {
                        du = shifted_left(s, cc, &sb, u, x + 1);
                        child_sum += du - d[u];
                        pass = du <= cap;
                    }
                    pass = pass && child_sum <= 2 * cap;
                    if (pass && pair_last) {
                        unsigned child_invalid = (invalid_now & ~(1u << v | 1u << u)) |
                                                 (dv ? 1u << v : 0) | (du ? 1u << u : 0);
                        pass = last_pair_possible(s, cc, child_invalid, v,
                                                  cc[v] + one_at(x + 1) - one_at(x), u,
                                                  u ? cc[u] + one_at(x) - one_at(x + 1) : 0);
                    }
                    if (pass && two_last)
                        pass = two_moves_possible_after(
                            s, cc, d, invalid_now, v, cc[v] + one_at(x + 1) - one_at(x), dv, u,
                            u ? cc[u] + one_at(x) - one_at(x + 1) : 0, du);
                    if (!pass) s->bound_cuts++;
                }
                bool still = u == v;
                if (pass && swapping && u != v) {
                    if (!run_rows_known) {
                        run_rows = swap_run_rows(col, w, x, s->narrow);
                        run_rows_known = true;
                    }
                    still = !(run_rows >> (4 * y) & 1);
                    if (still &&
                        (reached_before(s, ply, x, y) || pair_reached_before(s, col, ply, x, y))) {
                        s->commute_cuts++;
                        pass = false;
                    }
                }
                if (pass) {
                    column *child = queue[queued].col;
                    mayan_counts *child_cc = queue[queued].cc;
                    unsigned char *child_d = queue[queued].d;
                    memcpy(child_cc, cc, sizeof queue[queued].cc);
                    memcpy(child_d, d, sizeof(spreads));
                    child_cc[v] += one_at(x + 1) - one_at(x);
                    child_d[v] = (unsigned char)dv;
                    if (swapping) {
                        child_cc[u] += one_at(x) - one_at(x + 1);
                        child_d[u] = (unsigned char)du;
                        swap(col, w, x, y, v, u, child);
                    } else {
                        drag(col, w, x, y, v, x + 1, child);
                    }
                    int next = swapping && still && u != v ? x * 16 + y : NO_PREV;
                    const table_key *patch_from = next != NO_PREV && use_table ? key : NULL;
                    if (push_child(s, col, queue, &queued, batch, still, left, ply, x, y, 1, next,
                                   patch_from))
                        return true;
                    if (s->timed_out) return false;
                }
            }
            /* Left into an occupied cell repeats (x-1, y, 1): only left into empty air. */
            if (x > 0 && y >= hl) {
                int dv = shifted_left(s, cc, &sb, v, x);
                if (dv > cap || (over & ~(1u << v)) || sum - d[v] + dv > 2 * cap ||
                    (blocked && !d[v]) ||
                    (pair_last &&
                     !last_pair_possible(s, cc, (invalid_now & ~(1u << v)) | (dv ? 1u << v : 0), v,
                                         cc[v] + one_at(x - 1) - one_at(x), 0, 0)) ||
                    (two_last &&
                     !two_moves_possible_after(s, cc, d, invalid_now, v,
                                               cc[v] + one_at(x - 1) - one_at(x), dv, 0, 0, 0))) {
                    s->bound_cuts++;
                    continue;
                }
                column *child = queue[queued].col;
                mayan_counts *child_cc = queue[queued].cc;
                unsigned char *child_d = queue[queued].d;
                memcpy(child_cc, cc, sizeof queue[queued].cc);
                memcpy(child_d, d, sizeof(spreads));
                child_cc[v] += one_at(x - 1) - one_at(x);
                child_d[v] = (unsigned char)dv;
                drag(col, w, x, y, v, x - 1, child);
                if (push_child(s, col, queue, &queued, batch, false, left, ply, x, y, -1, NO_PREV,
                               NULL))
                    return true;
                if (s->timed_out) return false;
            }
        }
    }
    if (search_pending(s, queue, queued, left, ply)) return true;
    if (s->timed_out) return false;
    if (ply == 0 && s->helper) return root_answer(s);
    if (ply == 1 && s->helper) return unit_finish(s, left, use_table ? key : NULL);
    if (use_table)
        mayan_table_add_failure_hashed(s->table, s->table_user, key->words, key->hash, left);
    return false;
}

static bool board_valid(const mayan_board *board, int moves)
{
    if (board->width < 1 || board->width > MAYAN_MAX_SIDE) return false;
    if (board->height < 1 || board->height > MAYAN_MAX_SIDE) return false;
    if (moves < 1 || moves > MAYAN_MAX_MOVES) return false;
    for (int x = 0; x < board->width; x++) {
        bool air = false;
        for (int y = 0; y < board->height; y++) {
            unsigned v = board->cell[x][y];
            if (v > MAYAN_MAX_COLOUR || (v && air)) return false;
            air |= v == 0;
        }
    }
    return true;
}

mayan_status mayan_solve(const mayan_board *board, int moves, budget *b, mayan_result *out)
{
    return mayan_solve_capped(board, moves, MAYAN_TABLE_MAX_BYTES, b, out);
}

/* force_direct: the direct tables of mayan_bound.h on boards of at most 5 columns even for 4 moves
 * or fewer, where a small cache is cheaper to set up (tests: mayan_solve_direct). helper_at: the
 * node that starts the helper thread (0: none); helper_first: see mayan_solve_helped. */
static mayan_status solve_with(const mayan_board *board, int moves, size_t table_bytes,
                               bool force_direct, uint64_t helper_at, uint64_t helper_first,
                               budget *b, mayan_result *out)
{
    memset(out, 0, sizeof *out);
    if (!board_valid(board, moves)) return out->status = MAYAN_BAD_INPUT;

    column col[MAYAN_MAX_SIDE] = {0};
    for (int x = 0; x < board->width; x++)
        for (int y = 0; y < board->height; y++) col[x] |= (column)board->cell[x][y] << (4 * y);
    settle(col, board->width, 0, board->width - 1, NULL, false);
    /* Counted after settling: a still column holds at most 11 blocks of one colour. */
    mayan_counts cc[MAYAN_MAX_COLOUR + 1] = {0};
    int colours = 0;
    for (int x = 0; x < board->width; x++)
        for (int y = 0; y < board->height; y++) {
            unsigned v = col_get(col[x], y);
            if (v)
                cc[v] += (mayan_counts)1 << (4 * x), colours = colours > (int)v ? colours : (int)v;
        }
    if (board_empty(col, board->width)) return out->status = MAYAN_NO_SOLUTION;

    mayan_table table;
    search s = {.width = board->width,
                .height = board->height,
                .colours = colours,
                .cell_bits = colours <= 7 ? 3 : 4,
                .narrow = colours <= 7,
                .key_words = mayan_key_words(board->width, board->height, colours <= 7 ? 3 : 4),
                .table_from = MAYAN_TABLE_FROM,
                .table = &table,
                .b = b,
                .root_col = col,
                .root_cc = cc,
                .moves = moves,
                .root_rank = -1,
                .unit_rank = -1};
    /* Few moves meet few spreads: a small cache is cheaper to set up, though boards wider than 8
     * columns meet enough at 2-4 moves to miss 2^10 entries (16 x 16, n = 3: 114 -> 95 ms mean
     * with 2^14; 2^18 costs n = 1 three times as much; bench/RESULTS-mayan.md, round 21). */
    bool wide = board->width > 8;
    s.bound_log2 = moves <= 4 && !force_direct ? (wide ? 14 : 10) : wide ? 18 : 16;
    if (!mayan_bound_init(s.bound, board->width, s.bound_log2))
        return out->status = MAYAN_NO_MEMORY;
    bool found = false;
    mayan_counts none[MAYAN_MAX_COLOUR + 1] = {0};
    spreads d = {0};
    if (!child_spreads(&s, cc, none, d, moves, d)) {
        s.bound_cuts++;
    } else {
        s.use_table = table_bytes > 0;
        if (s.use_table && !mayan_table_init(&table, s.key_words, table_bytes)) {
            mayan_bound_free(s.bound);
            return out->status = MAYAN_NO_MEMORY;
        }
        /* The helper needs the table (it is how the two threads help each other). */
        s.helper_at = s.use_table ? helper_at : 0;
        s.helper_first = helper_first;
        s.root_d = d;
        found = dfs(&s, col, cc, d, moves, 0, NULL);
        out->helper_nodes = helper_finish(&s);
        out->helper_answered = s.answered_by_helper;
    }
    out->nodes = s.nodes;
    out->table_hits = s.table_hits;
    out->bound_cuts = s.bound_cuts;
    out->pair_cuts = s.pair_cuts;
    out->commute_cuts = s.commute_cuts;
    out->reach_cuts = s.reach_cuts;
    out->reorder_cuts = s.reorder_cuts;
    out->parent_answers = s.parent_answers;
    out->root_cuts = s.root_cuts;
    out->shared_units = s.shared_units;
    if (s.use_table) {
        out->table_bytes = mayan_table_bytes(&table);
        mayan_table_free(&table);
    }
    mayan_bound_free(s.bound);
    if (s.timed_out) return out->status = MAYAN_TIME_LIMIT;
    if (!found) return out->status = MAYAN_NO_SOLUTION;
    out->move_count = moves;
    memcpy(out->moves, s.path, sizeof s.path);
    return out->status = MAYAN_SOLVED;
}

mayan_status mayan_solve_capped(const mayan_board *board, int moves, size_t table_bytes, budget *b,
                                mayan_result *out)
{
    return solve_with(board, moves, table_bytes, false, b->threads > 1 ? MAYAN_HELPER_AT_NODES : 0,
                      0, b, out);
}

mayan_status mayan_solve_helped(const mayan_board *board, int moves, uint64_t helper_at,
                                uint64_t helper_first, size_t table_bytes, budget *b,
                                mayan_result *out)
{
    return solve_with(board, moves, table_bytes, false, helper_at, helper_first, b, out);
}

mayan_status mayan_solve_direct(const mayan_board *board, int moves, budget *b, mayan_result *out)
{
    return solve_with(board, moves, MAYAN_TABLE_MAX_BYTES, true, 0, 0, b, out);
}
