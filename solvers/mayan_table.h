/* The Mayan search's table of failures: board -> the set of remaining move counts with which it
 * is known that no exact solution exists. A failure at one depth says nothing about another
 * (padding with equal swaps exists only on some boards), so depths are kept as a bit mask.
 *
 * Keys are exact (the whole packed board), so a hit is never a false "unsolvable".
 * Memory is bounded: the table doubles (in place) while it fits in max_bytes, and past that
 * replaces the entry of a 4-slot bucket whose deepest failure is the shallowest (the cheapest to
 * recompute). */
#ifndef PUZZLED_MAYAN_TABLE_H
#define PUZZLED_MAYAN_TABLE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A key's last word keeps its top MAYAN_TABLE_MASK_BITS bits zero: in the table they hold the
 * entry's depths (bit d: no solution with d moves left). */
#define MAYAN_TABLE_MASK_BITS 16
#define MAYAN_TABLE_MAX_WORDS 17

struct mayan_table_shared;

typedef struct mayan_table {
    uint64_t *slots; /* nbuckets * 4 slots of `words` words (the key, the mask inside), aligned */
    void *region;    /* the reserved address space that holds slots at every size */
    size_t region_bytes;
    /* Atomic only for the two threads of a shared table (mayan_table_share): a relaxed load is
     * a plain load, so one thread pays nothing for it. */
    _Atomic size_t nbuckets; /* a power of two */
    size_t used;             /* occupied slots (while shared: these and the users' counts) */
    size_t max_bytes;
    int words;                         /* key words */
    struct mayan_table_shared *shared; /* NULL: one thread uses the table */
} mayan_table;

/* The key of a board given as columns of 4-bit cells (cell y of column x in bits 4y..4y+3 of
 * columns[x], nothing at or above 4 * height bits): the columns end to end, cell (x, y) at bit
 * cell_bits * (x * height + y) of the key. cell_bits is 4, or 3 when no cell exceeds 7: a 5 x 7
 * board of up to 7 colours takes 2 words, its depth mask included (a bucket of 4 entries is one
 * cache line), instead of 3 + 1. */
int mayan_key_words(int width, int height, int cell_bits);
void mayan_key_pack(const uint64_t *columns, int width, int height, int cell_bits, uint64_t *key);

/* Turns the key of a board into the key of the same board with cell (x, y) holding `now`
 * instead of `was` (a swap that makes no run changes two cells and nothing else): cheaper than
 * packing the child again, and the same words, so the same hash. */
static inline void mayan_key_patch(uint64_t *key, int height, int cell_bits, int x, int y,
                                   unsigned was, unsigned now)
{
    int bit = cell_bits * (x * height + y), word = bit / 64, shift = bit % 64;
    uint64_t delta = (uint64_t)(was ^ now);
    key[word] ^= delta << shift;
    if (shift + cell_bits > 64) key[word + 1] ^= delta >> (64 - shift);
}

/* words: 1..MAYAN_TABLE_MAX_WORDS. false when even the first small allocation fails. */
bool mayan_table_init(mayan_table *t, int words, size_t max_bytes);
void mayan_table_free(mayan_table *t);
size_t mayan_table_bytes(const mayan_table *t);

/* Is it recorded that `key` has no solution with exactly `depth` (1..15) moves left? user: 0
 * for the thread that made the table, 1 for the second one while the table is shared. Depth 0
 * is never recorded: its mask bit locks a shared table's buckets. */
bool mayan_table_failed(const mayan_table *t, int user, const uint64_t *key, int depth);
void mayan_table_add_failure(mayan_table *t, int user, const uint64_t *key, int depth);

/* The hash that picks key's bucket, whatever the table's size. The search asks about one key up
 * to three times (prefetch, look-up, record): it hashes it once and passes the hash on. */
uint64_t mayan_table_hash(const mayan_table *t, const uint64_t *key);
bool mayan_table_failed_hashed(const mayan_table *t, int user, const uint64_t *key, uint64_t hash,
                               int depth);
void mayan_table_add_failure_hashed(mayan_table *t, int user, const uint64_t *key, uint64_t hash,
                                    int depth);

/* Asks the memory for the bucket of the key of this hash ahead of the look-up (a hint; changes
 * nothing). */
void mayan_table_prefetch(const mayan_table *t, uint64_t hash);

/* Grows a table that is not shared, in one pass, to the largest size within both `bytes` and
 * its cap (nothing when it is that big already). A growth while the table is shared costs both
 * threads dearly (the grower reads buckets the other thread has just written, and the other
 * waits), so a search grows its table ahead to the size it will likely need before it shares it. */
void mayan_table_grow_to(mayan_table *t, size_t bytes);

/* Lets a second thread (user 1) use the table at the same time, until mayan_table_unshare:
 * every call then locks the bucket it reads or writes, and a growth waits until the other
 * thread is in no call (mayan_table.c). Call it before the second thread starts, and unshare
 * after it has stopped. false when out of memory (nothing changed). */
bool mayan_table_share(mayan_table *t);
void mayan_table_unshare(mayan_table *t);

#endif
