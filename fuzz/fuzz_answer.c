/* A libFuzzer target for one puzzle and one format (FUZZ_SLUG, FUZZ_TEXT: fuzz/CMakeLists.txt
 * builds one per pair): the input is a request body, checked against the contract by
 * contract_check.h; any broken invariant aborts with the reason. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "contract_check.h"
#include "registry.h"

#ifndef FUZZ_SLUG
#error "FUZZ_SLUG names the puzzle"
#endif

/* Larger bodies only make parsing slower; the limits the codecs enforce are reachable well
 * below this. */
#define INPUT_MAX (64 * 1024)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > INPUT_MAX) return -1; /* -1: not added to the corpus */
    const api_puzzle *puzzle = registry_find(FUZZ_SLUG);
    if (!puzzle) {
        fprintf(stderr, "fuzz_answer: no puzzle %s in the registry\n", FUZZ_SLUG);
        abort();
    }
    contract_failure f;
    if (!contract_check(puzzle, FUZZ_TEXT ? API_FORMAT_TEXT : API_FORMAT_JSON, (const char *)data,
                        size, &f)) {
        fprintf(stderr, "fuzz_answer %s %s: %s\n", FUZZ_SLUG, FUZZ_TEXT ? "text" : "json", f.why);
        abort();
    }
    return 0;
}
