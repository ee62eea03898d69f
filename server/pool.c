#include "pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

struct pool {
    /* Slots taken in the queue: reserved + waiting. Lock-free, so that admission (on the HTTP
     * thread) does not contend with the workers. */
    atomic_uint slots;
    atomic_uint running;
    atomic_bool cancel;
    unsigned capacity;
    long spin_ns;

    /* Jobs in the ring (== count), and workers spinning for one: read without the lock. */
    atomic_uint pending;
    atomic_uint spinning;
    atomic_bool stop_flag; /* == stopping, for spinners */

    pthread_mutex_t lock; /* guards the ring, sleeping and stopping */
    pthread_cond_t wake;  /* signalled once for a job no spinner will take; broadcast on stop */
    pool_job **ring;
    unsigned head, count, sleeping;
    bool stopping;

    unsigned started;
    pthread_t *threads;
};

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static long elapsed_ns(const struct timespec *since)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - since->tv_sec) * 1000000000L + (now.tv_nsec - since->tv_nsec);
}

/* Watches for a job for up to spin_ns without taking the lock or sleeping. Whatever it sees,
 * the caller then looks under the lock: a spinner is never the only one to see a job. */
static void spin_for_job(pool *p)
{
    if (p->spin_ns <= 0) return;
    atomic_fetch_add_explicit(&p->spinning, 1, memory_order_seq_cst);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (unsigned i = 1;; i++) {
        if (atomic_load_explicit(&p->pending, memory_order_relaxed) > 0 ||
            atomic_load_explicit(&p->stop_flag, memory_order_relaxed))
            break;
        cpu_relax();
        if (i % 32 == 0 && elapsed_ns(&start) >= p->spin_ns) break;
    }
    atomic_fetch_sub_explicit(&p->spinning, 1, memory_order_seq_cst);
}

static void *worker_main(void *arg)
{
    pool *p = arg;
    for (;;) {
        spin_for_job(p);
        pthread_mutex_lock(&p->lock);
        while (p->count == 0 && !p->stopping) {
            p->sleeping++;
            pthread_cond_wait(&p->wake, &p->lock);
            p->sleeping--;
        }
        if (p->count == 0) { /* stopping and nothing left */
            pthread_mutex_unlock(&p->lock);
            break;
        }
        pool_job *job = p->ring[p->head];
        p->head = (p->head + 1) % p->capacity;
        p->count--;
        atomic_fetch_sub_explicit(&p->pending, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&p->running, 1, memory_order_relaxed);
        atomic_fetch_sub_explicit(&p->slots, 1, memory_order_release);
        pthread_mutex_unlock(&p->lock);

        job->solve(job, &p->cancel);
        atomic_fetch_sub_explicit(&p->running, 1, memory_order_release);
        job->finish(job); /* the job may be freed from here on */
    }
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
    p->spin_ns = POOL_SPIN_NS;
    atomic_init(&p->slots, 0);
    atomic_init(&p->running, 0);
    atomic_init(&p->cancel, false);
    atomic_init(&p->pending, 0);
    atomic_init(&p->spinning, 0);
    atomic_init(&p->stop_flag, false);
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
    atomic_fetch_add_explicit(&p->pending, 1, memory_order_seq_cst);
    /* A spinner takes the lock and looks at count before it sleeps, so a job it was counted
     * for is never stranded; wake a sleeper only for jobs beyond the spinners. */
    if (p->sleeping && p->count > atomic_load_explicit(&p->spinning, memory_order_seq_cst))
        pthread_cond_signal(&p->wake);
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
    atomic_store(&p->stop_flag, true);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->started; i++) pthread_join(p->threads[i], NULL);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p->ring);
    free(p->threads);
    free(p);
}
