/* The Mayan search's table of failures: board -> the set of remaining move counts with which it
 * is known that no exact solution exists. A failure at one depth says nothing about another
 * (padding with equal swaps exists only on some boards), so depths are kept as a bit mask.
 *
 * Keys are exact (the whole packed board), so a hit is never a false "unsolvable".
 * Memory is bounded: the table doubles while it fits in max_bytes, and past that replaces the
 * entry of a 4-slot bucket whose deepest failure is the shallowest (the cheapest to recompute). */
#ifndef PUZZLED_MAYAN_TABLE_H
#define PUZZLED_MAYAN_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct mayan_table {
    uint64_t *slots; /* nbuckets * 4 slots of (words key words + 1 mask word), 64-byte aligned */
    size_t nbuckets; /* a power of two */
    size_t used;     /* occupied slots */
    size_t max_bytes;
    int words; /* key words */
} mayan_table;

/* The key of a board given as columns of 4-bit cells (cell y of column x in bits 4y..4y+3 of
 * columns[x], nothing at or above 4 * height bits): the columns end to end, cell (x, y) at bit
 * 4 * (x * height + y) of the key. A 5 x 7 board takes 3 words instead of 5. */
int mayan_key_words(int width, int height);
void mayan_key_pack(const uint64_t *columns, int width, int height, uint64_t *key);

/* false when even the first small allocation fails. */
bool mayan_table_init(mayan_table *t, int words, size_t max_bytes);
void mayan_table_free(mayan_table *t);
size_t mayan_table_bytes(const mayan_table *t);

/* Is it recorded that `key` has no solution with exactly `depth` (1..15) moves left? */
bool mayan_table_failed(const mayan_table *t, const uint64_t *key, int depth);
void mayan_table_add_failure(mayan_table *t, const uint64_t *key, int depth);

/* Asks the memory for key's bucket ahead of mayan_table_failed (a hint; changes nothing). */
void mayan_table_prefetch(const mayan_table *t, const uint64_t *key);

#endif
