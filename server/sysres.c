#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "sysres.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The first number in a file, or 0 ("max", absent, unreadable). */
static uint64_t read_number(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char text[64] = "";
    char *got = fgets(text, sizeof text, f);
    fclose(f);
    if (!got || text[0] < '0' || text[0] > '9') return 0;
    return strtoull(text, NULL, 10);
}

uint64_t sysres_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    uint64_t physical = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
    /* The process's own cgroup, where the container runtime mounts it. v1 reports "no limit" as
     * a huge number, which the physical memory then caps. */
    uint64_t limit = read_number("/sys/fs/cgroup/memory.max");
    if (!limit) limit = read_number("/sys/fs/cgroup/memory/memory.limit_in_bytes");
    if (!limit || (physical && limit > physical)) limit = physical;
    return limit;
}

/* The CPU quota in cores, rounded up; 0 when there is none. v2 writes "QUOTA PERIOD" (or
 * "max PERIOD") in one file, v1 the two numbers in two files (-1: none, read as 0). */
static uint64_t quota_cores(void)
{
    uint64_t quota = 0, period = 0;
    FILE *f = fopen("/sys/fs/cgroup/cpu.max", "r");
    if (f) {
        unsigned long long q, p;
        if (fscanf(f, "%llu %llu", &q, &p) == 2) quota = q, period = p;
        fclose(f);
    } else {
        quota = read_number("/sys/fs/cgroup/cpu/cpu.cfs_quota_us");
        period = read_number("/sys/fs/cgroup/cpu/cpu.cfs_period_us");
    }
    return quota && period ? (quota + period - 1) / period : 0;
}

int sysres_cores(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) cores = CPU_COUNT(&set);
    uint64_t quota = quota_cores();
    if (quota && (cores < 1 || quota < (uint64_t)cores)) cores = (long)quota;
    return cores > 0 ? (int)cores : 1;
}
