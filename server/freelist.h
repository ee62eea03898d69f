/* Per-thread free lists of equal-sized blocks, for state that is made and dropped once per
 * request on the same thread (libmicrohttpd calls a connection's callbacks on one thread):
 * taking and giving back a block is a few instructions, no lock and no allocator call once the
 * list is warm. Each thread keeps at most `keep` blocks; the rest go back to free(). A thread's
 * blocks are freed when it exits, or by freelist_drain() on the thread that calls it.
 *
 * Blocks come back uninitialised: the caller sets every field it reads. */
#ifndef PUZZLED_FREELIST_H
#define PUZZLED_FREELIST_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct freelist {
    size_t size;
    unsigned keep;
    pthread_key_t key;
} freelist;

/* false when no thread key can be had. */
bool freelist_init(freelist *f, size_t size, unsigned keep);
/* A block of f->size bytes (malloc'd when this thread's list is empty), or NULL. */
void *freelist_take(freelist *f);
/* Gives p (from freelist_take, any thread's) back to this thread's list. */
void freelist_give(freelist *f, void *p);
/* Frees this thread's blocks. */
void freelist_drain(freelist *f);
/* After every thread that used f has exited or drained: releases the key. */
void freelist_destroy(freelist *f);

#endif
