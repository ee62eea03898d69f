/* A libFuzzer target for the batch entry point (api_batch_solve, behind `puzzled solve`), one per
 * format (FUZZ_TEXT): the first input byte picks the puzzle and the read size, the rest is the
 * input stream, handed over in pieces of that size as a pipe would; checked by
 * contract_check_batch (fuzz/contract_check.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "contract_check.h"

#define INPUT_MAX (64 * 1024)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > INPUT_MAX) return -1;
    contract_failure f;
    if (!contract_check_batch(FUZZ_TEXT ? API_FORMAT_TEXT : API_FORMAT_JSON, (const char *)data,
                              size, &f)) {
        fprintf(stderr, "fuzz_batch %s: %s\n", FUZZ_TEXT ? "text" : "json", f.why);
        abort();
    }
    return 0;
}
