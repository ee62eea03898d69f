#include "sysmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

uint64_t sysmem_limit(void)
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
