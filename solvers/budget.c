#include "budget.h"

void budget_init_unlimited(budget *b)
{
    b->deadline.tv_sec = -1;
    b->deadline.tv_nsec = 0;
    b->cancel = NULL;
    b->countdown = 0;
    b->expired = false;
    b->threads = 1;
    b->idle_cores = NULL;
    b->gives_way = false;
}

void budget_init_ms(budget *b, long ms, const atomic_bool *cancel)
{
    clock_gettime(CLOCK_MONOTONIC, &b->deadline);
    if (ms < 0) ms = 0;
    b->deadline.tv_sec += ms / 1000;
    b->deadline.tv_nsec += (ms % 1000) * 1000000L;
    if (b->deadline.tv_nsec >= 1000000000L) {
        b->deadline.tv_sec++;
        b->deadline.tv_nsec -= 1000000000L;
    }
    b->cancel = cancel;
    b->countdown = 0;
    b->expired = false;
    b->threads = 1;
    b->idle_cores = NULL;
    b->gives_way = false;
}

static bool deadline_passed(const budget *b)
{
    if (b->deadline.tv_sec < 0) return false;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > b->deadline.tv_sec ||
           (now.tv_sec == b->deadline.tv_sec && now.tv_nsec >= b->deadline.tv_nsec);
}

bool budget_expired_now(budget *b)
{
    if (b->expired) return true;
    b->countdown = BUDGET_STRIDE - 1;
    if ((b->cancel && atomic_load_explicit(b->cancel, memory_order_relaxed)) || deadline_passed(b))
        b->expired = true;
    if (b->gives_way && b->idle_cores &&
        atomic_load_explicit(b->idle_cores, memory_order_relaxed) < 0)
        b->expired = true;
    return b->expired;
}

bool budget_take_core(const budget *b)
{
    if (b->threads < 2) return false;
    if (!b->idle_cores) return true;
    int idle = atomic_load_explicit(b->idle_cores, memory_order_relaxed);
    while (idle > 0)
        if (atomic_compare_exchange_weak_explicit(b->idle_cores, &idle, idle - 1,
                                                  memory_order_relaxed, memory_order_relaxed))
            return true;
    return false;
}

void budget_return_core(const budget *b)
{
    if (b->idle_cores) atomic_fetch_add_explicit(b->idle_cores, 1, memory_order_relaxed);
}

long budget_remaining_ms(const budget *b)
{
    if (b->deadline.tv_sec < 0) return -1;
    if (b->expired) return 0;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long ms = (long)(b->deadline.tv_sec - now.tv_sec) * 1000 +
              (b->deadline.tv_nsec - now.tv_nsec) / 1000000L;
    return ms > 0 ? ms : 0;
}
