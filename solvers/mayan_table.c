#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE */
#include "mayan_table.h"

#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define WAYS 4
#define FIRST_BUCKETS 1024
/* Grow past this load factor (while memory allows); a full bucket replaces its cheapest entry. */
#define LOAD_NUM 1
#define LOAD_DEN 2

/* A slot's failure mask (0: the slot is empty) is its last word shifted down by MASK_SHIFT. */
#define MASK_SHIFT (64 - MAYAN_TABLE_MASK_BITS)
#define KEY_LOW ((1ULL << MASK_SHIFT) - 1)

int mayan_key_words(int width, int height, int cell_bits)
{
    return (width * height * cell_bits + MAYAN_TABLE_MASK_BITS + 63) / 64;
}

/* Two columns of at most 8 cells of at most 7, one in each half of c, as eight 3-bit fields each
 * (bits 0-23 and 32-55): halving steps, each moving every second field of a lane down next to
 * the first. */
static uint64_t three_bit_pair(uint64_t c)
{
    c = (c & 0x0707070707070707ULL) | ((c >> 1) & 0x3838383838383838ULL);
    c = (c & 0x003F003F003F003FULL) | ((c >> 2) & 0x0FC00FC00FC00FC0ULL);
    return (c & 0x00000FFF00000FFFULL) | ((c >> 4) & 0x00FFF00000FFF000ULL);
}

/* Sixteen 4-bit cells of at most 7 as sixteen 3-bit fields: the two halves' fields joined. */
static uint64_t three_bit_cells(uint64_t c)
{
    c = three_bit_pair(c);
    return (c & 0xFFFFFFULL) | ((c >> 8) & 0xFFFFFF000000ULL);
}

/* The contest's 5 x 7 board of at most 7 colours: 21 bits a column, two columns a step. */
static void key_pack_5x7(const uint64_t *columns, uint64_t *key)
{
    uint64_t a = three_bit_pair(columns[0] | columns[1] << 32);
    uint64_t b = three_bit_pair(columns[2] | columns[3] << 32);
    uint64_t c = three_bit_pair(columns[4]);
    a = (a & 0x1FFFFF) | (a >> 32) << 21; /* columns 0 and 1: bits 0-41 */
    b = (b & 0x1FFFFF) | (b >> 32) << 21; /* columns 2 and 3: bits 42-83 */
    key[0] = a | b << 42;
    key[1] = b >> 22 | c << 20; /* column 4: bits 84-104 */
}

void mayan_key_pack(const uint64_t *columns, int width, int height, int cell_bits, uint64_t *key)
{
    int words = mayan_key_words(width, height, cell_bits);
    if (cell_bits == 3 && width == 5 && height == 7) {
        key_pack_5x7(columns, key);
        return;
    }
    if (cell_bits == 3 && height <= 8 && words <= 2) {
        /* Other boards of at most 8 rows in two words: no division per column. */
        int bits = 3 * height;
        uint64_t low = 0, high = 0;
        for (int x = 0, at = 0; x < width; x++, at += bits) {
            uint64_t c = three_bit_pair(columns[x]) & 0xFFFFFF;
            if (at >= 64) {
                high |= c << (at - 64);
            } else {
                low |= c << at;
                if (at + bits > 64) high |= c >> (64 - at);
            }
        }
        key[0] = low;
        if (words == 2) key[1] = high;
        return;
    }
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
    if (words == 2) /* the 5 x 7 key, unrolled: the same sum */
        return mix(h + key[0] * (0x9E3779B97F4A7C15ULL | 1) +
                   key[1] * ((0x9E3779B97F4A7C15ULL + 0xD6E8FEB86659FD94ULL) | 1));
    for (int i = 0; i < words; i++)
        h += key[i] * ((0x9E3779B97F4A7C15ULL + (uint64_t)i * 0xD6E8FEB86659FD94ULL) | 1);
    return mix(h);
}

/* Does the slot hold this key (its mask bits aside)? Inlined where `words` is a constant. */
static inline __attribute__((always_inline)) bool same_key(const uint64_t *slot,
                                                           const uint64_t *key, int words)
{
    uint64_t diff = (slot[words - 1] & KEY_LOW) ^ key[words - 1];
    for (int i = 0; i < words - 1; i++) diff |= slot[i] ^ key[i];
    return diff == 0;
}

static size_t buckets(const mayan_table *t)
{
    return atomic_load_explicit(&t->nbuckets, memory_order_relaxed);
}

static uint64_t *bucket_at(const mayan_table *t, uint64_t hash, size_t nbuckets)
{
    return t->slots + (size_t)(hash & (nbuckets - 1)) * WAYS * slot_words(t);
}

/* What two threads need to share the table (mayan_table_share). A growth moves entries between
 * buckets: the thread that grows it first raises `growing`, then waits until the other is inside
 * no call, and a call that finds `growing` raised waits outside until it is lowered (a store and
 * a load on each side, sequentially consistent, so that one of the two always sees the other).
 * Each flag has its own cache line. */
struct mayan_table_shared {
    _Alignas(64) atomic_bool growing;
    struct {
        _Alignas(64) atomic_bool inside;
        /* Slots this user filled while shared: a count per thread, in its own cache line (one
         * count written by both threads cost a cache miss on every call). */
        _Atomic size_t filled;
    } user[2];
};

static void enter(const mayan_table *t, int user)
{
    struct mayan_table_shared *sh = t->shared;
    for (;;) {
        atomic_store_explicit(&sh->user[user].inside, true, memory_order_seq_cst);
        if (!atomic_load_explicit(&sh->growing, memory_order_seq_cst)) return;
        atomic_store_explicit(&sh->user[user].inside, false, memory_order_release);
        while (atomic_load_explicit(&sh->growing, memory_order_acquire)) sched_yield();
    }
}

static void leave(const mayan_table *t, int user)
{
    atomic_store_explicit(&t->shared->user[user].inside, false, memory_order_release);
}

/* Inside a call, a shared table's bucket is locked by a bit of its own first slot's last word:
 * mask bit 0 (depth 0, never recorded), so that the lock costs no cache line of its own (a
 * separate array of locks, written by both threads, cost 7-11 % of their time in cache misses).
 * That word is read and written only atomically while the table is shared, the bucket's other
 * words only under the lock. The lock bit is never set in a copy, nor in an unshared table. */
#define LOCK_BIT ((uint64_t)1 << MASK_SHIFT)

static _Atomic uint64_t *lock_word(const mayan_table *t, uint64_t *bucket)
{
    /* A uint64_t and an _Atomic uint64_t have one size and alignment here (GCC, x86-64 and
     * AArch64): the word is one object, reached atomically by every thread that races on it. */
    return (_Atomic uint64_t *)&bucket[t->words - 1];
}

/* Locks the bucket of `hash` and copies it into `copy` (WAYS slots); returns the bucket. */
static uint64_t *lock_bucket(const mayan_table *t, uint64_t hash, uint64_t *copy)
{
    uint64_t *bucket = bucket_at(t, hash, buckets(t)); /* no growth while inside */
    _Atomic uint64_t *word = lock_word(t, bucket);
    uint64_t first;
    while ((first = atomic_fetch_or_explicit(word, LOCK_BIT, memory_order_acquire)) & LOCK_BIT)
        while (atomic_load_explicit(word, memory_order_relaxed) & LOCK_BIT) continue;
    size_t n = WAYS * slot_words(t), at = (size_t)t->words - 1;
    memcpy(copy, bucket, at * sizeof *copy);
    copy[at] = first;
    memcpy(copy + at + 1, bucket + at + 1, (n - at - 1) * sizeof *copy);
    return bucket;
}

/* Writes the copy back when it changed, and unlocks the bucket. */
static void unlock_bucket(const mayan_table *t, uint64_t *bucket, const uint64_t *copy,
                          bool changed)
{
    size_t n = WAYS * slot_words(t), at = (size_t)t->words - 1;
    if (changed) {
        memcpy(bucket, copy, at * sizeof *copy);
        memcpy(bucket + at + 1, copy + at + 1, (n - at - 1) * sizeof *copy);
    }
    atomic_store_explicit(lock_word(t, bucket), copy[at], memory_order_release);
}

/* The deepest failure of a mask: how costly the entry was to find. */
static int mask_top(uint64_t mask)
{
    return 63 - __builtin_clzll(mask);
}

/* place for keys of `words` words: inlined with 2, the 5 x 7 board's key (constant strides, no
 * loop over words), and with the table's own count for every other board. */
static inline __attribute__((always_inline)) bool place_w(uint64_t *bucket, const uint64_t *key,
                                                          uint64_t mask, const int words)
{
    uint64_t *victim = NULL;
    int victim_top = 64;
    for (int i = 0; i < WAYS; i++) {
        uint64_t *slot = bucket + (size_t)i * (size_t)words;
        uint64_t meta = slot[words - 1] >> MASK_SHIFT;
        if (meta == 0) {
            if (!victim || victim_top >= 0) victim = slot, victim_top = -1;
            continue;
        }
        if (same_key(slot, key, words)) {
            slot[words - 1] |= mask << MASK_SHIFT;
            return false;
        }
        int top = mask_top(meta);
        if (top < victim_top) victim = slot, victim_top = top;
    }
    memcpy(victim, key, (size_t)words * sizeof *key);
    victim[words - 1] |= mask << MASK_SHIFT;
    return victim_top < 0;
}

/* Puts (key, mask) into its bucket: merge, an empty slot, or replace the cheapest entry. true
 * when it filled an empty slot. */
static bool place(const mayan_table *t, uint64_t *bucket, const uint64_t *key, uint64_t mask)
{
    if (t->words == 2) return place_w(bucket, key, mask, 2);
    return place_w(bucket, key, mask, t->words);
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
    t->shared = NULL;
    size_t nbuckets = FIRST_BUCKETS;
    while (nbuckets > 1 && nbuckets * WAYS * (size_t)words * sizeof(uint64_t) > max_bytes)
        nbuckets /= 2;
    atomic_init(&t->nbuckets, nbuckets);
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
    return buckets(t) * WAYS * slot_words(t) * sizeof(uint64_t);
}

uint64_t mayan_table_hash(const mayan_table *t, const uint64_t *key)
{
    return key_hash(key, t->words);
}

void mayan_table_prefetch(const mayan_table *t, uint64_t hash)
{
    const uint64_t *bucket = bucket_at(t, hash, buckets(t));
    size_t bytes = WAYS * slot_words(t) * sizeof(uint64_t);
    for (size_t at = 0; at < bytes; at += 64) __builtin_prefetch((const char *)bucket + at);
}

/* bucket_failed for keys of `words` words, inlined as place_w is. */
static inline __attribute__((always_inline)) bool
bucket_failed_w(const uint64_t *bucket, const uint64_t *key, int depth, const int words)
{
    for (int i = 0; i < WAYS; i++) {
        const uint64_t *slot = bucket + (size_t)i * (size_t)words;
        uint64_t mask = slot[words - 1] >> MASK_SHIFT;
        if (mask && same_key(slot, key, words)) return (mask >> depth) & 1;
    }
    return false;
}

static bool bucket_failed(const mayan_table *t, const uint64_t *bucket, const uint64_t *key,
                          int depth)
{
    if (t->words == 2) return bucket_failed_w(bucket, key, depth, 2);
    return bucket_failed_w(bucket, key, depth, t->words);
}

bool mayan_table_failed(const mayan_table *t, int user, const uint64_t *key, int depth)
{
    return mayan_table_failed_hashed(t, user, key, key_hash(key, t->words), depth);
}

bool mayan_table_failed_hashed(const mayan_table *t, int user, const uint64_t *key, uint64_t hash,
                               int depth)
{
    if (!t->shared) return bucket_failed(t, bucket_at(t, hash, buckets(t)), key, depth);
    enter(t, user);
    uint64_t copy[WAYS * MAYAN_TABLE_MAX_WORDS];
    uint64_t *bucket = lock_bucket(t, hash, copy);
    bool failed = bucket_failed(t, copy, key, depth);
    unlock_bucket(t, bucket, copy, false);
    leave(t, user);
    return failed;
}

static bool can_grow(const mayan_table *t)
{
    return mayan_table_bytes(t) <= t->max_bytes / 2;
}

/* Makes the table `factor` (a power of two) times as big, in place (the caller checked that the
 * reserved region holds it): with nbuckets buckets before, an entry of bucket b stays there or
 * moves to b + k * nbuckets for some k >= 1, a bucket that is still zero and is only ever reached
 * from b, so at most WAYS entries go to it. Bucket b keeps its other entries where they are
 * (lookups scan all its slots). */
static inline __attribute__((always_inline)) void grow_by_w(mayan_table *t, size_t factor,
                                                            const int words)
{
    size_t old = buckets(t), sw = (size_t)words, nbuckets = old * factor;
    atomic_store_explicit(&t->nbuckets, nbuckets, memory_order_relaxed);
    uint64_t key[MAYAN_TABLE_MAX_WORDS];
    for (size_t b = 0; b < old; b++) {
        uint64_t *bucket = t->slots + b * WAYS * sw;
        for (int i = 0; i < WAYS; i++) {
            uint64_t *slot = bucket + (size_t)i * sw;
            if (!(slot[words - 1] >> MASK_SHIFT)) continue;
            memcpy(key, slot, sw * sizeof *key);
            key[words - 1] &= KEY_LOW;
            uint64_t *to = bucket_at(t, key_hash(key, words), nbuckets);
            if (to == bucket) continue;
            while (to[words - 1] >> MASK_SHIFT) to += sw;
            memcpy(to, slot, sw * sizeof *slot);
            memset(slot, 0, sw * sizeof *slot);
        }
    }
}

/* Inlined with 2 as place_w is: the copies are then two stores each, not calls. */
static void grow_by(mayan_table *t, size_t factor)
{
    if (t->words == 2)
        grow_by_w(t, factor, 2);
    else
        grow_by_w(t, factor, t->words);
}

static void grow(mayan_table *t)
{
    grow_by(t, 2);
}

void mayan_table_grow_to(mayan_table *t, size_t bytes)
{
    if (bytes > t->max_bytes) bytes = t->max_bytes;
    size_t factor = 1;
    while (mayan_table_bytes(t) * factor * 2 <= bytes) factor *= 2;
    if (factor > 1) grow_by(t, factor);
}

static size_t slots_used(const mayan_table *t)
{
    size_t used = t->used;
    if (t->shared)
        for (int u = 0; u < 2; u++)
            used += atomic_load_explicit(&t->shared->user[u].filled, memory_order_relaxed);
    return used;
}

static bool wants_growth(const mayan_table *t)
{
    return slots_used(t) * LOAD_DEN > buckets(t) * WAYS * LOAD_NUM && can_grow(t);
}

/* A shared table grows outside every call: when the other thread grows it at the same time,
 * this one leaves it to that and waits in its next call. */
static void grow_shared(mayan_table *t, int user)
{
    struct mayan_table_shared *sh = t->shared;
    bool idle = false;
    if (!atomic_compare_exchange_strong_explicit(&sh->growing, &idle, true, memory_order_seq_cst,
                                                 memory_order_relaxed))
        return;
    while (atomic_load_explicit(&sh->user[1 - user].inside, memory_order_seq_cst)) sched_yield();
    if (wants_growth(t)) grow(t);
    atomic_store_explicit(&sh->growing, false, memory_order_release);
}

void mayan_table_add_failure(mayan_table *t, int user, const uint64_t *key, int depth)
{
    mayan_table_add_failure_hashed(t, user, key, key_hash(key, t->words), depth);
}

void mayan_table_add_failure_hashed(mayan_table *t, int user, const uint64_t *key, uint64_t hash,
                                    int depth)
{
    uint64_t mask = (uint64_t)1 << depth;
    if (!t->shared) {
        if (wants_growth(t)) grow(t);
        t->used += place(t, bucket_at(t, hash, buckets(t)), key, mask);
        return;
    }
    /* The other thread's count is asked for once in 64 of this one's insertions. */
    _Atomic size_t *filled = &t->shared->user[user].filled;
    size_t mine = atomic_load_explicit(filled, memory_order_relaxed);
    if (mine % 64 == 0 && wants_growth(t)) grow_shared(t, user);
    enter(t, user);
    uint64_t copy[WAYS * MAYAN_TABLE_MAX_WORDS];
    uint64_t *bucket = lock_bucket(t, hash, copy);
    if (place(t, copy, key, mask)) atomic_store_explicit(filled, mine + 1, memory_order_relaxed);
    unlock_bucket(t, bucket, copy, true);
    leave(t, user);
}

bool mayan_table_share(mayan_table *t)
{
    struct mayan_table_shared *sh = aligned_alloc(64, sizeof *sh);
    if (!sh) return false;
    atomic_init(&sh->growing, false);
    for (int u = 0; u < 2; u++) {
        atomic_init(&sh->user[u].inside, false);
        atomic_init(&sh->user[u].filled, 0);
    }
    t->shared = sh;
    return true;
}

void mayan_table_unshare(mayan_table *t)
{
    if (!t->shared) return;
    t->used = slots_used(t);
    free(t->shared);
    t->shared = NULL;
}
