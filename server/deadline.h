/* Absolute CLOCK_REALTIME times for pthread_cond_timedwait, which takes no relative timeout. */
#ifndef PUZZLED_DEADLINE_H
#define PUZZLED_DEADLINE_H

#include <time.h>

/* Now plus ms milliseconds, on the clock pthread_cond_timedwait uses by default. */
static inline struct timespec realtime_in_ms(long ms)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += ms / 1000;
    t.tv_nsec += (ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

#endif
