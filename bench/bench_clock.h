/* Clocks and memory for the benchmark programs: wall time, this thread's CPU time (steadier
 * than wall time on a shared machine; the benchmarks solve on one thread, except bench_mayan with
 * MAYAN_THREADS=2, which then reports wall time) and peak RSS. */
#ifndef PUZZLED_BENCH_CLOCK_H
#define PUZZLED_BENCH_CLOCK_H

#include <sys/resource.h>
#include <time.h>

static inline double clock_ms(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static inline double now_ms(void)
{
    return clock_ms(CLOCK_MONOTONIC);
}

static inline double cpu_ms(void)
{
    return clock_ms(CLOCK_THREAD_CPUTIME_ID);
}

/* The process's peak resident set so far, in KiB. */
static inline long peak_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

#endif
