/* A fixed pool of worker threads behind a bounded ring-buffer queue.
 *
 * One mutex and one condition variable. A worker that runs out of jobs first spins for a short
 * bounded time (POOL_SPIN_NS) watching a lock-free job count, and only then sleeps: under load
 * the next job usually arrives within that time and is taken without any wake-up. A submit wakes
 * one sleeping worker only when the jobs waiting outnumber the spinning workers, so a job costs
 * at most one wake-up, and none while a worker is spinning. Admission is two steps so that the
 * caller can do something irreversible in between (suspend the connection): pool_reserve() takes a
 * queue slot (a lock-free counter) or says the queue is full, pool_submit() fills it. Jobs are the
 * caller's memory (embedded in its request state): the pool never allocates per job.
 *
 * A worker runs job->solve(job, cancel) and then job->finish(job) as its very last touch:
 * after finish the job may already be freed by another thread. Cancellation is pool-wide (a
 * shutdown past its grace period), so it is one flag every job's budget reads, and the pool
 * never has to touch a job that may be gone. */
#ifndef PUZZLED_POOL_H
#define PUZZLED_POOL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct pool_job pool_job;
struct pool_job {
    /* The work; `cancel` becomes true when pool_cancel_all() is called: pass it to a budget. */
    void (*solve)(pool_job *job, const atomic_bool *cancel);
    void (*finish)(pool_job *job); /* hand the result back; the pool's last touch */
};

typedef struct pool pool;

/* How long an idle worker looks for the next job before it sleeps. */
#define POOL_SPIN_NS 20000L

/* NULL when threads or memory cannot be had. */
pool *pool_create(unsigned workers, unsigned queue_capacity);

/* Takes a queue slot: false when the queue is full (waiting jobs plus reserved slots). */
bool pool_reserve(pool *p);
/* Puts a job into a slot taken by pool_reserve(); wakes one sleeping worker if no spinning
 * one will take it. */
void pool_submit(pool *p, pool_job *job);

/* True when no slot is free (for readiness). */
bool pool_full(pool *p);
/* Jobs waiting (or reserved) / running on a worker, for metrics. */
size_t pool_queued(pool *p);
size_t pool_running(pool *p);
/* Reserved + queued + running: 0 once every job has been finished. */
size_t pool_outstanding(pool *p);

/* Makes every queued and running job's budget expire, and every later one's. */
void pool_cancel_all(pool *p);

/* Lets the workers finish what is queued, joins them and frees the pool. */
void pool_destroy(pool *p);

#endif
