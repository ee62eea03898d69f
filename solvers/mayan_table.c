#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE */
#include "mayan_table.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#define WAYS 4
#define FIRST_BUCKETS 1024
/* Grow past this load factor (while memory allows); a full bucket replaces its cheapest entry. */
#define LOAD_NUM 1
#define LOAD_DEN 2

#define MASK_SHIFT (64 - MAYAN_TABLE_MASK_BITS)
#define KEY_LOW ((1ULL << MASK_SHIFT) - 1)

int mayan_key_words(int width, int height, int cell_bits)
{
    return (width * height * cell_bits + MAYAN_TABLE_MASK_BITS + 63) / 64;
}

/* Sixteen 4-bit cells of at most 7 as sixteen 3-bit fields: halving steps, each moving every
 * second field of a lane down next to the first. */
static uint64_t three_bit_cells(uint64_t c)
{
    c = (c & 0x0707070707070707ULL) | ((c >> 1) & 0x3838383838383838ULL);
    c = (c & 0x003F003F003F003FULL) | ((c >> 2) & 0x0FC00FC00FC00FC0ULL);
    c = (c & 0x00000FFF00000FFFULL) | ((c >> 4) & 0x00FFF00000FFF000ULL);
    return (c & 0xFFFFFFULL) | ((c >> 8) & 0xFFFFFF000000ULL);
}

void mayan_key_pack(const uint64_t *columns, int width, int height, int cell_bits, uint64_t *key)
{
    int words = mayan_key_words(width, height, cell_bits);
    for (int i = 0; i < words; i++) key[i] = 0;
    int bits = cell_bits * height, at = 0;
    for (int x = 0; x < width; x++, at += bits) {
        uint64_t c = cell_bits == 3 ? three_bit_cells(columns[x]) : columns[x];
        int word = at / 64, shift = at % 64;
        key[word] |= c << shift;
        if (shift && shift + bits > 64) key[word + 1] |= c >> (64 - shift);
    }
}

static size_t slot_words(const mayan_table *t)
{
    return (size_t)t->words;
}

/* The failure mask of a slot (0: empty): the top bits of its last word. */
static inline uint64_t slot_mask(const mayan_table *t, const uint64_t *slot)
{
    return slot[t->words - 1] >> MASK_SHIFT;
}

/* splitmix64's finaliser */
static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* The words weighted by distinct odd constants (independent products, so a 16-word key of a
 * 16 x 16 board costs about as much as a short one), then one finaliser: every key bit reaches
 * the low bits that pick the bucket. */
static uint64_t key_hash(const uint64_t *key, int words)
{
    uint64_t h = 0x243F6A8885A308D3ULL;
    for (int i = 0; i < words; i++)
        h += key[i] * ((0x9E3779B97F4A7C15ULL + (uint64_t)i * 0xD6E8FEB86659FD94ULL) | 1);
    return mix(h);
}

/* Does the slot hold this key (its mask bits aside)? */
static bool same_key(const uint64_t *slot, const uint64_t *key, int words)
{
    uint64_t diff = (slot[words - 1] & KEY_LOW) ^ key[words - 1];
    for (int i = 0; i < words - 1; i++) diff |= slot[i] ^ key[i];
    return diff == 0;
}

static uint64_t *bucket_of(const mayan_table *t, const uint64_t *key)
{
    size_t b = (size_t)key_hash(key, t->words) & (t->nbuckets - 1);
    return t->slots + b * WAYS * slot_words(t);
}

/* The deepest failure of a mask: how costly the entry was to find. */
static int mask_top(uint64_t mask)
{
    return 63 - __builtin_clzll(mask);
}

/* Puts (key, mask) into its bucket: merge, an empty slot, or replace the cheapest entry. */
static void place(mayan_table *t, const uint64_t *key, uint64_t mask)
{
    size_t sw = slot_words(t);
    uint64_t *bucket = bucket_of(t, key);
    uint64_t *victim = NULL;
    int victim_top = 64;
    for (int i = 0; i < WAYS; i++) {
        uint64_t *slot = bucket + (size_t)i * sw;
        uint64_t meta = slot_mask(t, slot);
        if (meta == 0) {
            if (!victim || victim_top >= 0) victim = slot, victim_top = -1;
            continue;
        }
        if (same_key(slot, key, t->words)) {
            slot[t->words - 1] |= mask << MASK_SHIFT;
            return;
        }
        int top = mask_top(meta);
        if (top < victim_top) victim = slot, victim_top = top;
    }
    if (victim_top < 0) t->used++;
    memcpy(victim, key, (size_t)t->words * sizeof *key);
    victim[t->words - 1] |= mask << MASK_SHIFT;
}

#define HUGE_PAGE ((size_t)2 << 20)

/* The table reserves address space for its largest size at once (nothing is touched, so it
 * costs no memory yet) and doubles in place: fresh anonymous pages read as zero, so no table is
 * ever cleared or copied, and the memory the kernel clears is the final table's, once (growing
 * through separate arrays cleared and filled 1 + 2 + ... + 64 MiB for a 64 MiB table). The
 * region starts on a 2 MiB boundary: a big table is probed at random, and on 2 MiB pages (where
 * the kernel allows them) a probe rarely misses the TLB as well as the cache. */
static bool reserve(mayan_table *t, size_t bytes)
{
    size_t span = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE + HUGE_PAGE;
    void *region = mmap(NULL, span, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (region == MAP_FAILED) return false;
    uintptr_t start = ((uintptr_t)region + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
#ifdef MADV_HUGEPAGE
    madvise((void *)start, span - (start - (uintptr_t)region), MADV_HUGEPAGE);
#endif
    t->region = region;
    t->region_bytes = span;
    t->slots = (uint64_t *)start;
    return true;
}

bool mayan_table_init(mayan_table *t, int words, size_t max_bytes)
{
    t->words = words;
    t->max_bytes = max_bytes;
    t->used = 0;
    size_t nbuckets = FIRST_BUCKETS;
    while (nbuckets > 1 && nbuckets * WAYS * (size_t)words * sizeof(uint64_t) > max_bytes)
        nbuckets /= 2;
    t->nbuckets = nbuckets;
    size_t bytes = mayan_table_bytes(t);
    /* Where the address space is short, settle for a smaller cap (as growing did when memory
     * ran out): the table only saves time. */
    for (size_t cap = max_bytes > bytes ? max_bytes : bytes;; cap /= 2) {
        if (reserve(t, cap)) {
            if (cap < t->max_bytes) t->max_bytes = cap;
            return true;
        }
        if (cap / 2 < bytes) return false;
    }
}

void mayan_table_free(mayan_table *t)
{
    if (t->region) munmap(t->region, t->region_bytes);
    t->region = NULL;
    t->slots = NULL;
}

size_t mayan_table_bytes(const mayan_table *t)
{
    return t->nbuckets * WAYS * slot_words(t) * sizeof(uint64_t);
}

void mayan_table_prefetch(const mayan_table *t, const uint64_t *key)
{
    const uint64_t *bucket = bucket_of(t, key);
    size_t bytes = WAYS * slot_words(t) * sizeof(uint64_t);
    for (size_t at = 0; at < bytes; at += 64) __builtin_prefetch((const char *)bucket + at);
}

bool mayan_table_failed(const mayan_table *t, const uint64_t *key, int depth)
{
    size_t sw = slot_words(t);
    const uint64_t *bucket = bucket_of(t, key);
    for (int i = 0; i < WAYS; i++) {
        const uint64_t *slot = bucket + (size_t)i * sw;
        if (slot_mask(t, slot) && same_key(slot, key, t->words))
            return (slot_mask(t, slot) >> depth) & 1;
    }
    return false;
}

static bool can_grow(const mayan_table *t)
{
    return mayan_table_bytes(t) <= t->max_bytes / 2;
}

/* Doubles the table in place (the caller checked can_grow, so the reserved region holds it):
 * an entry of bucket b stays there or moves to b + nbuckets, still zero and only ever reached
 * from b. Bucket b keeps its other entries where they are (lookups scan all its slots). */
static void grow(mayan_table *t)
{
    size_t old = t->nbuckets, sw = slot_words(t);
    t->nbuckets = old * 2;
    uint64_t key[MAYAN_TABLE_MAX_WORDS];
    for (size_t b = 0; b < old; b++) {
        uint64_t *bucket = t->slots + b * WAYS * sw, *high = bucket + old * WAYS * sw;
        int free_high = 0;
        for (int i = 0; i < WAYS; i++) {
            uint64_t *slot = bucket + (size_t)i * sw;
            if (!slot_mask(t, slot)) continue;
            memcpy(key, slot, sw * sizeof *key);
            key[t->words - 1] &= KEY_LOW;
            if (bucket_of(t, key) == bucket) continue;
            memcpy(high + (size_t)free_high++ * sw, slot, sw * sizeof *slot);
            memset(slot, 0, sw * sizeof *slot);
        }
    }
}

void mayan_table_add_failure(mayan_table *t, const uint64_t *key, int depth)
{
    if (t->used * LOAD_DEN > t->nbuckets * WAYS * LOAD_NUM && can_grow(t)) grow(t);
    place(t, key, (uint64_t)1 << depth);
}
