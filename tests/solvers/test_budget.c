/* The time budget: unlimited never expires, a zero budget expires at once, cancel stops it; a
 * second thread needs an idle core, and a helper's budget gives way to a request. */
#include <check.h>
#include <stdlib.h>

#include "check_run.h"
#include "budget.h"

START_TEST(unlimited_never_expires)
{
    budget b;
    budget_init_unlimited(&b);
    for (int i = 0; i < 100000; i++) ck_assert(!budget_expired(&b));
    ck_assert_int_eq(budget_remaining_ms(&b), -1);
}
END_TEST

START_TEST(zero_budget_expires_on_first_clock_check)
{
    budget b;
    budget_init_ms(&b, 0, NULL);
    ck_assert(budget_expired(&b));
    ck_assert(budget_expired(&b)); /* sticky */
    ck_assert_int_eq(budget_remaining_ms(&b), 0);
}
END_TEST

/* Every part of the budget counts, its milliseconds too (a bound on the deadline set, not on
 * any speed: the remaining time is read at once). */
START_TEST(budget_keeps_its_milliseconds)
{
    static const long budgets[] = {1, 250, 999, 1500, 60001};
    for (size_t i = 0; i < sizeof budgets / sizeof budgets[0]; i++) {
        budget b;
        budget_init_ms(&b, budgets[i], NULL);
        long left = budget_remaining_ms(&b);
        ck_assert_msg(left <= budgets[i] && left >= budgets[i] - 50, "%ld ms: %ld left", budgets[i],
                      left);
    }
}
END_TEST

START_TEST(cancel_flag_stops_within_a_stride)
{
    atomic_bool cancel = false;
    budget b;
    budget_init_ms(&b, 60000, &cancel);
    ck_assert(!budget_expired(&b));
    ck_assert_int_gt(budget_remaining_ms(&b), 50000);
    atomic_store(&cancel, true);
    bool stopped = false;
    for (int i = 0; i <= BUDGET_STRIDE && !stopped; i++) stopped = budget_expired(&b);
    ck_assert(stopped);
}
END_TEST

START_TEST(a_second_thread_needs_two_threads_and_an_idle_core)
{
    budget b;
    budget_init_unlimited(&b);
    ck_assert(!budget_take_core(&b)); /* one thread */
    b.threads = 2;
    ck_assert(budget_take_core(&b)); /* cores not counted */
    atomic_int idle = 1;
    b.idle_cores = &idle;
    ck_assert(budget_take_core(&b));
    ck_assert_int_eq(atomic_load(&idle), 0);
    ck_assert(!budget_take_core(&b));
    atomic_store(&idle, -2); /* more solves than cores */
    ck_assert(!budget_take_core(&b));
    ck_assert_int_eq(atomic_load(&idle), -2);
    budget_return_core(&b);
    ck_assert_int_eq(atomic_load(&idle), -1);
}
END_TEST

/* A helper's budget runs out once a request waits for a core; another budget does not. */
START_TEST(a_helper_gives_way_within_a_stride)
{
    atomic_int idle = 0;
    budget helper, request;
    budget_init_ms(&helper, 60000, NULL);
    budget_init_ms(&request, 60000, NULL);
    helper.idle_cores = request.idle_cores = &idle;
    helper.gives_way = true;
    for (int i = 0; i <= 2 * BUDGET_STRIDE; i++) ck_assert(!budget_expired(&helper));
    atomic_store(&idle, -1);
    bool stopped = false;
    for (int i = 0; i <= BUDGET_STRIDE && !stopped; i++) stopped = budget_expired(&helper);
    ck_assert(stopped);
    for (int i = 0; i <= 2 * BUDGET_STRIDE; i++) ck_assert(!budget_expired(&request));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("budget");
    TCase *tc = tcase_create("budget");
    tcase_add_test(tc, unlimited_never_expires);
    tcase_add_test(tc, zero_budget_expires_on_first_clock_check);
    tcase_add_test(tc, budget_keeps_its_milliseconds);
    tcase_add_test(tc, cancel_flag_stops_within_a_stride);
    tcase_add_test(tc, a_second_thread_needs_two_threads_and_an_idle_core);
    tcase_add_test(tc, a_helper_gives_way_within_a_stride);
    suite_add_tcase(s, tc);
    return check_run(s);
}
