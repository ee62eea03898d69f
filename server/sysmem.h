/* The memory this process may use: the container's limit when there is one (cgroup v2
 * memory.max, or v1 memory.limit_in_bytes), else the machine's physical memory. */
#ifndef PUZZLED_SYSMEM_H
#define PUZZLED_SYSMEM_H

#include <stdint.h>

/* Bytes; 0 when nothing can be read. */
uint64_t sysmem_limit(void);

#endif
