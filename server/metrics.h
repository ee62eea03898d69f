/* Prometheus metrics: requests by puzzle and status, a latency histogram, and gauges read at
 * scrape time. Counters are relaxed atomics: recording costs a few uncontended increments. */
#ifndef PUZZLED_METRICS_H
#define PUZZLED_METRICS_H

#include <stddef.h>

#include "puzzle.h"

typedef struct metrics_gauges {
    size_t queue_depth; /* jobs waiting for a worker */
    size_t workers_busy;
    size_t in_flight; /* requests received and not yet completed */
} metrics_gauges;

/* One answered request; puzzle is NULL outside /solve/{puzzle}. */
void metrics_record(const api_puzzle *puzzle, int status, double seconds);

/* The text exposition (version 0.0.4), malloc'd; NULL when out of memory. */
char *metrics_render(const metrics_gauges *g, size_t *len);

#endif
