#include "pool.h"

#include <pthread.h>
#include <stdlib.h>

struct pool {
    pthread_mutex_t lock;
    pthread_cond_t wake; /* signalled once per submitted job, broadcast on stop */
    pool_job **ring;
    unsigned capacity, head, count, reserved, running;
    bool stopping;
    unsigned worker_count, started;
    pthread_t *threads;
    pool_job **current; /* per worker: the job it runs, for pool_cancel_all() */
};

typedef struct worker_arg {
    pool *p;
    unsigned index;
} worker_arg;

static void *worker_main(void *arg)
{
    pool *p = ((worker_arg *)arg)->p;
    unsigned index = ((worker_arg *)arg)->index;
    free(arg);
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (p->count == 0 && !p->stopping) pthread_cond_wait(&p->wake, &p->lock);
        if (p->count == 0) break; /* stopping and nothing left */
        pool_job *job = p->ring[p->head];
        p->head = (p->head + 1) % p->capacity;
        p->count--;
        p->running++;
        p->current[index] = job;
        pthread_mutex_unlock(&p->lock);

        job->solve(job);

        pthread_mutex_lock(&p->lock);
        p->current[index] = NULL;
        p->running--;
        /* finish() may free the job at once (the HTTP thread answers and completes the
         * request), so it runs outside the lock and after the pool forgot the job. */
        pthread_mutex_unlock(&p->lock);
        job->finish(job);
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
    p->current = calloc(workers, sizeof *p->current);
    p->capacity = queue_capacity;
    p->worker_count = workers;
    if (!p->ring || !p->threads || !p->current) goto fail;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    for (unsigned i = 0; i < workers; i++) {
        worker_arg *arg = malloc(sizeof *arg);
        if (!arg) break;
        *arg = (worker_arg){p, i};
        if (pthread_create(&p->threads[i], NULL, worker_main, arg) != 0) {
            free(arg);
            break;
        }
        p->started++;
    }
    if (p->started == workers) return p;
    pool_destroy(p);
    return NULL;
fail:
    free(p->ring);
    free(p->threads);
    free(p->current);
    free(p);
    return NULL;
}

bool pool_reserve(pool *p)
{
    pthread_mutex_lock(&p->lock);
    bool ok = !p->stopping && p->count + p->reserved < p->capacity;
    if (ok) p->reserved++;
    pthread_mutex_unlock(&p->lock);
    return ok;
}

void pool_unreserve(pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->reserved--;
    pthread_mutex_unlock(&p->lock);
}

void pool_submit(pool *p, pool_job *job)
{
    pthread_mutex_lock(&p->lock);
    p->reserved--;
    p->ring[(p->head + p->count) % p->capacity] = job;
    p->count++;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
}

bool pool_full(pool *p)
{
    pthread_mutex_lock(&p->lock);
    bool full = p->count + p->reserved >= p->capacity;
    pthread_mutex_unlock(&p->lock);
    return full;
}

size_t pool_queued(pool *p)
{
    pthread_mutex_lock(&p->lock);
    size_t n = p->count;
    pthread_mutex_unlock(&p->lock);
    return n;
}

size_t pool_running(pool *p)
{
    pthread_mutex_lock(&p->lock);
    size_t n = p->running;
    pthread_mutex_unlock(&p->lock);
    return n;
}

size_t pool_outstanding(pool *p)
{
    pthread_mutex_lock(&p->lock);
    size_t n = (size_t)p->reserved + p->count + p->running;
    pthread_mutex_unlock(&p->lock);
    return n;
}

void pool_cancel_all(pool *p)
{
    pthread_mutex_lock(&p->lock);
    for (unsigned i = 0; i < p->count; i++)
        atomic_store(&p->ring[(p->head + i) % p->capacity]->cancel, true);
    for (unsigned i = 0; i < p->worker_count; i++)
        if (p->current[i]) atomic_store(&p->current[i]->cancel, true);
    pthread_mutex_unlock(&p->lock);
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
    free(p->current);
    free(p);
}
