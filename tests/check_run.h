/* Runs a libcheck suite and gives main's exit status: every test executable ends with it. */
#ifndef PUZZLED_CHECK_RUN_H
#define PUZZLED_CHECK_RUN_H

#include <check.h>
#include <stdlib.h>

/* main's exit status when a test cannot run on this machine (a tool missing): ctest reports it
 * as skipped, not passed (tests/CMakeLists.txt sets SKIP_RETURN_CODE). */
#define TEST_SKIPPED 77

static inline int check_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
