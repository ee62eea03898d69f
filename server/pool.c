#include "pool.h"

#include <pthread.h>
#include <stdlib.h>

struct pool {
    /* Slots taken in the queue: reserved + waiting. Lock-free, so that admission (on the HTTP
     * thread) does not contend with the workers. */
    atomic_uint slots;
    atomic_uint running;
    atomic_bool cancel;
    unsigned capacity;

    pthread_mutex_t lock; /* guards the ring, idle and stopping */
    pthread_cond_t wake;  /* signalled once per job when a worker is idle; broadcast on stop */
    pool_job **ring;
    unsigned head, count, idle;
    bool stopping;

    unsigned started;
    pthread_t *threads;
};

static void *worker_main(void *arg)
{
    pool *p = arg;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (p->count == 0 && !p->stopping) {
            p->idle++;
            pthread_cond_wait(&p->wake, &p->lock);
            p->idle--;
        }
        if (p->count == 0) break; /* stopping and nothing left */
        pool_job *job = p->ring[p->head];
        p->head = (p->head + 1) % p->capacity;
        p->count--;
        atomic_fetch_add_explicit(&p->running, 1, memory_order_relaxed);
        atomic_fetch_sub_explicit(&p->slots, 1, memory_order_release);
        pthread_mutex_unlock(&p->lock);

        job->solve(job, &p->cancel);
        atomic_fetch_sub_explicit(&p->running, 1, memory_order_release);
        job->finish(job); /* the job may be freed from here on */

        pthread_mutex_lock(&p->lock);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

pool *pool_create(unsigned workers, unsigned queue_capacity)
{
    if (workers == 0 || queue_capacity == 0) return NULL;
    pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->ring = calloc(queue_capacity, sizeof *p->ring);
    p->threads = calloc(workers, sizeof *p->threads);
    if (!p->ring || !p->threads) {
        free(p->ring);
        free(p->threads);
        free(p);
        return NULL;
    }
    p->capacity = queue_capacity;
    atomic_init(&p->slots, 0);
    atomic_init(&p->running, 0);
    atomic_init(&p->cancel, false);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    for (unsigned i = 0; i < workers; i++) {
        if (pthread_create(&p->threads[i], NULL, worker_main, p) != 0) break;
        p->started++;
    }
    if (p->started == workers) return p;
    pool_destroy(p);
    return NULL;
}

bool pool_reserve(pool *p)
{
    unsigned used = atomic_load_explicit(&p->slots, memory_order_relaxed);
    do {
        if (used >= p->capacity) return false;
    } while (!atomic_compare_exchange_weak_explicit(&p->slots, &used, used + 1,
                                                    memory_order_relaxed, memory_order_relaxed));
    return true;
}

void pool_submit(pool *p, pool_job *job)
{
    pthread_mutex_lock(&p->lock);
    /* The slot was reserved, so the ring has room: count <= slots <= capacity. */
    p->ring[(p->head + p->count) % p->capacity] = job;
    p->count++;
    if (p->idle) pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
}

bool pool_full(pool *p)
{
    return atomic_load_explicit(&p->slots, memory_order_relaxed) >= p->capacity;
}

size_t pool_queued(pool *p)
{
    return atomic_load_explicit(&p->slots, memory_order_relaxed);
}

size_t pool_running(pool *p)
{
    return atomic_load_explicit(&p->running, memory_order_relaxed);
}

size_t pool_outstanding(pool *p)
{
    /* running is raised before slots is lowered, so a job is never missed in between. */
    size_t slots = atomic_load_explicit(&p->slots, memory_order_acquire);
    return slots + atomic_load_explicit(&p->running, memory_order_acquire);
}

void pool_cancel_all(pool *p)
{
    atomic_store(&p->cancel, true);
}

void pool_destroy(pool *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->lock);
    p->stopping = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->started; i++) pthread_join(p->threads[i], NULL);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p->ring);
    free(p->threads);
    free(p);
}
