/* A solver's time budget: a monotonic deadline plus an optional cancel flag.
 *
 * Solvers call budget_expired() in their loops and stop cooperatively when it says so. The
 * check reads the clock only every BUDGET_STRIDE calls, so it is cheap enough for inner loops. */
#ifndef PUZZLED_BUDGET_H
#define PUZZLED_BUDGET_H

#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

#define BUDGET_STRIDE 64

typedef struct budget {
    struct timespec deadline;  /* CLOCK_MONOTONIC; tv_sec < 0 means no deadline */
    const atomic_bool *cancel; /* set by another thread to stop the solver; may be NULL */
    unsigned countdown;
    bool expired; /* sticky: once out of time, always out of time */
    /* Threads one solve may keep busy (1 unless the caller raises it): a deep Mayan search
     * starts a helper thread when this is 2 or more and a core is idle (budget_take_core). */
    int threads;
    /* Cores that no solve is using, one count for the whole process (NULL: not counted, every
     * core is taken as idle). The server counts each running request as one core; a helper
     * thread takes one more only while the count is positive. */
    atomic_int *idle_cores;
    /* A helper thread's budget: it also runs out as soon as idle_cores goes negative, i.e. as
     * soon as a request needs the core the helper has. */
    bool gives_way;
} budget;

/* A budget that never runs out (tests, benchmarks). */
void budget_init_unlimited(budget *b);
/* A budget of `ms` milliseconds from now; `cancel` may be NULL. */
void budget_init_ms(budget *b, long ms, const atomic_bool *cancel);
/* The same as budget_expired, reading the clock on every call: for loops whose steps take a
 * millisecond or more. */
bool budget_expired_now(budget *b);
/* True once the deadline has passed or the cancel flag is set (for a budget that gives way,
 * also once idle_cores is negative). Sticky. Inline: a search asks at every node, and all but
 * one call in BUDGET_STRIDE only count down. */
static inline bool budget_expired(budget *b)
{
    if (b->expired) return true;
    if (b->countdown > 0) {
        b->countdown--;
        return false;
    }
    return budget_expired_now(b);
}
/* May this solve start one more thread now? Then it holds an idle core (if they are counted)
 * until budget_return_core. */
bool budget_take_core(const budget *b);
void budget_return_core(const budget *b);
/* Milliseconds left (0 when expired, -1 when unlimited). */
long budget_remaining_ms(const budget *b);

#endif
