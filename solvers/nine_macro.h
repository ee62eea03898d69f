/* A library of short 9-Nine move sequences ("macros") and which cells each one carries between
 * A and B. A macro starts and ends with a column swap; rotations in front of it (set-ups) are
 * chosen per use. Only the cells that change matrix matter for the count of A's ones, so a macro
 * is described by its A sources (cells whose values leave A) and B sources (values entering A),
 * in the coordinates at the macro's start. */
#ifndef PUZZLED_NINE_MACRO_H
#define PUZZLED_NINE_MACRO_H

#include <stdint.h>

#include "budget.h"
#include "nine_board.h"

#define NINE_MACRO_MAX_LEN 11
/* The largest board whose library is enumerated (nine_library_build): its cells fit the
 * enumeration's and the flat masks' 128-bit sets (n * n <= 128). Larger boards would need wider
 * sets and, without flat masks, pricing cell by cell: measured 2.4-7 times slower for at most
 * 6.4 % fewer moves on 12 x 12, and no fewer on 16 x 16 (bench/RESULTS-nine.md, stop 30). */
#define NINE_ENUM_MAX_N 11

typedef struct nine_macro {
    uint8_t len;
    uint8_t moves[NINE_MACRO_MAX_LEN];
    uint16_t transfers; /* cells each way */
    uint32_t first;     /* index in the library's pool: A sources, then as many B sources */
    uint64_t flat_a[2], flat_b[2]; /* the same as bit sets of cells i * n + j, when n * n <= 128 */
    /* Its mirror image (column k -> n+1-k, i.e. the macro seen with both boards turned half way)
     * is in the library too, folded into this entry: its sources are these turned half way. */
    bool mirror;
    uint64_t lead, lead_mirror; /* the columns of its leading swaps (and of its mirror's) */
} nine_macro;

typedef struct nine_library {
    int n;
    int count;
    nine_macro *macros;
    uint16_t *pool; /* cell positions i * n + j */
    size_t pool_len;
    bool flat; /* n * n <= 128: the flat masks are filled */
    /* Flat libraries: the macros' flat_a[0], flat_a[1], flat_b[0], flat_b[1], lead,
     * lead_mirror (0 without a mirror), len and transfers as eight arrays of `count` (masks[w *
     * count + i] for macros[i]), so that the search prices them all in one vector loop. */
    uint64_t *masks;
    /* Flat libraries: the cells of the diagonals (i = j or i + j = n - 1) but the centre. Every
     * move keeps a value on them or off them (turns map the diagonals onto themselves, swaps
     * keep positions), so only transfers change how many of A's ones sit there. */
    uint64_t diag[2];
    /* Large boards (no enumeration): the cells carried by the commutator Ca X Cb X' Ca X Cb,
     * comm[((x * n + a) * n + b) * 2 + 0] leaving A and [.. + 1] leaving B, as row << 8 | col;
     * -1 when a == b.
     * Commutators sharing a or b combine into one group commutator (see nine_greedy.c). */
    int16_t *comm;
    int group_min;   /* the least group worth building on the fly */
    bool has_groups; /* enumerated: the groups that pay (up to GROUP_MAX cells) are macros */
    int max_lead;    /* the most leading swaps of any macro */
} nine_library;

/* Builds the library for n (2 <= n <= 64): every column swap, and either (small n) every short
 * sequence that carries few cells, or the 5-move single transfers Ck X Ck X' Ck and the 7-move
 * commutators Ca X Cb X' Ca X Cb (X any rotation, X' its inverse). false when out of memory or
 * when the budget b (NULL: none) runs out first. */
bool nine_library_build(nine_library *lib, int n, budget *b);
/* The same with the enumeration's limits (n <= NINE_ENUM_MAX_N): sequences of up to max_len moves
 * (<= NINE_MACRO_MAX_LEN) carrying 1..few cells each way (those of up to 5 moves: up to 9). */
bool nine_library_build_ex(nine_library *lib, int n, int max_len, int few, budget *b);
void nine_library_free(nine_library *lib);

/* The library for n, built on first use (thread-safe) and never freed; NULL when out of memory
 * or when the budget b (NULL: none) runs out during the build (budget_expired(b) tells which).
 * A build cut short is not kept: the next call starts it again. The build takes up to about
 * 0.11-0.17 s (n = 9..11); a call waits for one that another thread has under way. */
const nine_library *nine_library_get(int n, budget *b);

#endif
