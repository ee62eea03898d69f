/* Reproducible pseudo-random numbers for tests: Marsaglia's xorshift64 (13, 7, 17). Each test
 * keeps its own state and seed, so its instances stay the same whatever other tests draw. */
#ifndef PUZZLED_TESTS_XORSHIFT_H
#define PUZZLED_TESTS_XORSHIFT_H

#include <stdint.h>

/* The next number of *state (which must not be 0). */
static inline uint64_t xorshift64(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

#endif
