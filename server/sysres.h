/* What this process may use of the machine: the container's limits when there are any (cgroup
 * v2, or v1), else the machine's own memory and cores. */
#ifndef PUZZLED_SYSRES_H
#define PUZZLED_SYSRES_H

#include <stdint.h>

/* Bytes of memory (memory.max, or v1 memory.limit_in_bytes); 0 when nothing can be read. */
uint64_t sysres_memory(void);

/* Cores: the CPU affinity (a cpuset), capped by a CPU quota rounded up (cpu.max, or v1
 * cpu.cfs_quota_us / cpu.cfs_period_us); at least 1. */
int sysres_cores(void);

#endif
