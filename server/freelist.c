#include "freelist.h"

#include <stdlib.h>

/* A thread's list: a header block, then the blocks chained through their first bytes. */
typedef struct block {
    struct block *next;
} block;

typedef struct thread_list {
    block *head;
    unsigned count;
} thread_list;

static void free_list(void *arg)
{
    thread_list *t = arg;
    while (t->head) {
        block *b = t->head;
        t->head = b->next;
        free(b);
    }
    free(t);
}

bool freelist_init(freelist *f, size_t size, unsigned keep)
{
    f->size = size < sizeof(block) ? sizeof(block) : size;
    f->keep = keep;
    /* The destructor frees a thread's blocks when it exits. */
    return pthread_key_create(&f->key, free_list) == 0;
}

void *freelist_take(freelist *f)
{
    thread_list *t = pthread_getspecific(f->key);
    if (t && t->head) {
        block *b = t->head;
        t->head = b->next;
        t->count--;
        return b;
    }
    return malloc(f->size);
}

void freelist_give(freelist *f, void *p)
{
    if (!p) return;
    thread_list *t = pthread_getspecific(f->key);
    if (!t) {
        t = calloc(1, sizeof *t);
        if (!t || pthread_setspecific(f->key, t) != 0) {
            free(t);
            free(p);
            return;
        }
    }
    if (t->count >= f->keep) {
        free(p);
        return;
    }
    block *b = p;
    b->next = t->head;
    t->head = b;
    t->count++;
}

void freelist_drain(freelist *f)
{
    thread_list *t = pthread_getspecific(f->key);
    if (!t) return;
    pthread_setspecific(f->key, NULL);
    free_list(t);
}

void freelist_destroy(freelist *f)
{
    pthread_key_delete(f->key);
}
