/* Checks for hot loops. Every libcheck ck_assert* that passes writes a mark (write(2)), so that a
 * test that crashes can name the last check it passed: about 2 us each natively and far more
 * under sanitizers and valgrind (test_mayan made 5 million of them). Loops that check hundreds
 * of thousands of values use these instead: they fail with the same kind of message and make no
 * system call while they pass. */
#ifndef PUZZLED_CHECK_QUIET_H
#define PUZZLED_CHECK_QUIET_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define quiet_assert(expr)                                                                         \
    do {                                                                                           \
        if (!(expr)) ck_abort_msg("Assertion '%s' failed", #expr);                                 \
    } while (0)

#define quiet_assert_msg(expr, ...)                                                                \
    do {                                                                                           \
        if (!(expr)) ck_abort_msg(__VA_ARGS__);                                                    \
    } while (0)

#define quiet_assert_ptr_nonnull(X) quiet_assert((X) != NULL)

#define quiet_assert_str_eq(X, Y)                                                                  \
    do {                                                                                           \
        const char *quiet_x_ = (X), *quiet_y_ = (Y);                                               \
        if (strcmp(quiet_x_, quiet_y_) != 0)                                                       \
            ck_abort_msg("Assertion '%s == %s' failed: %s == \"%s\", %s == \"%s\"", #X, #Y, #X,    \
                         quiet_x_, #Y, quiet_y_);                                                  \
    } while (0)

#define QUIET_COMPARE(type, fmt, X, OP, Y)                                                         \
    do {                                                                                           \
        type quiet_x_ = (type)(X), quiet_y_ = (type)(Y);                                           \
        if (!(quiet_x_ OP quiet_y_))                                                               \
            ck_abort_msg("Assertion '%s " #OP " %s' failed: %s == " fmt ", %s == " fmt, #X, #Y,    \
                         #X, quiet_x_, #Y, quiet_y_);                                              \
    } while (0)

#define quiet_assert_int_eq(X, Y) QUIET_COMPARE(intmax_t, "%jd", X, ==, Y)
#define quiet_assert_int_le(X, Y) QUIET_COMPARE(intmax_t, "%jd", X, <=, Y)
#define quiet_assert_int_lt(X, Y) QUIET_COMPARE(intmax_t, "%jd", X, <, Y)
#define quiet_assert_int_ge(X, Y) QUIET_COMPARE(intmax_t, "%jd", X, >=, Y)
#define quiet_assert_int_ne(X, Y) QUIET_COMPARE(intmax_t, "%jd", X, !=, Y)
#define quiet_assert_uint_eq(X, Y) QUIET_COMPARE(uintmax_t, "%ju", X, ==, Y)
#define quiet_assert_uint_le(X, Y) QUIET_COMPARE(uintmax_t, "%ju", X, <=, Y)
#define quiet_assert_uint_lt(X, Y) QUIET_COMPARE(uintmax_t, "%ju", X, <, Y)

#endif
