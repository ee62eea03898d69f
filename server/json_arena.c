#include "json_arena.h"

#include <jansson.h>
#include <pthread.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct arena {
    size_t used;
    alignas(max_align_t) unsigned char bytes[JSON_ARENA_SIZE];
} arena;

static pthread_key_t owner_key;           /* frees a thread's arena when the thread exits */
static _Thread_local arena *open_arena;   /* non-NULL between begin and end */
static _Thread_local arena *thread_arena; /* this thread's, made on its first begin */

static bool inside(const arena *a, const void *p)
{
    uintptr_t u = (uintptr_t)p, lo = (uintptr_t)a->bytes;
    return u >= lo && u < lo + sizeof a->bytes;
}

static void *arena_malloc(size_t size)
{
    arena *a = open_arena;
    if (a) {
        size_t need = (size + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);
        if (need >= size && need <= sizeof a->bytes - a->used) {
            void *p = a->bytes + a->used;
            a->used += need;
            return p;
        }
    }
    return malloc(size);
}

static void arena_free(void *p)
{
    /* A block from the arena is only ever freed on its own thread, inside the window (the
     * rule in the header), so this thread's arena is the only one to look at. */
    arena *a = thread_arena;
    if (a && inside(a, p)) return;
    free(p);
}

bool json_arena_install(void)
{
    static bool installed;
    if (installed) return true;
    if (pthread_key_create(&owner_key, free) != 0) return false;
    json_set_alloc_funcs(arena_malloc, arena_free);
    installed = true;
    return true;
}

void json_arena_begin(void)
{
    if (!thread_arena) {
        arena *a = malloc(sizeof *a);
        if (!a) return; /* then jansson simply uses malloc */
        if (pthread_setspecific(owner_key, a) != 0) {
            free(a);
            return;
        }
        thread_arena = a;
    }
    thread_arena->used = 0;
    open_arena = thread_arena;
}

void json_arena_end(void)
{
    open_arena = NULL;
    if (thread_arena) thread_arena->used = 0;
}
