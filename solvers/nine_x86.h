/* Whether the nine solver's hot loops get x86-64 code chosen at run time by what the CPU has
 * (popcnt, AVX2, AVX-512): GCC builds only. Elsewhere (arm64 images), under ThreadSanitizer, whose
 * runtime is not up yet when the ifunc resolver runs, and with clang (14 does not emit the symbol
 * other files call), the portable code, which gives the same answers. */
#ifndef PUZZLED_NINE_X86_H
#define PUZZLED_NINE_X86_H

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__)
#define NINE_X86_DISPATCH 1
/* A function built twice, with the popcnt instruction where the CPU has it. */
#define NINE_POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define NINE_X86_DISPATCH 0
#define NINE_POPCNT_CLONES
#endif

#endif
