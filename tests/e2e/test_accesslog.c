/* The access-log line and request ids, as pure functions: the hand-built timestamp against
 * gmtime_r + strftime, JSON escaping checked by parsing the line back with jansson. */
#include <check.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "accesslog.h"

/* Writes e through a pipe and parses the line back. */
static json_t *round_trip(const access_entry *e, char *raw, size_t cap)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    accesslog_write(fds[1], e);
    close(fds[1]);
    ssize_t n = read(fds[0], raw, cap - 1);
    close(fds[0]);
    ck_assert_int_gt(n, 0);
    raw[n] = '\0';
    ck_assert_msg(raw[n - 1] == '\n' && strchr(raw, '\n') == raw + n - 1, "one line: %s", raw);
    json_error_t jerr;
    json_t *root = json_loads(raw, 0, &jerr);
    ck_assert_msg(root != NULL, "not JSON (%s): %s", jerr.text, raw);
    return root;
}

START_TEST(timestamps_match_gmtime)
{
    const time_t cases[] = {
        0,          951782400 /* 2000-02-29 */,           1709164800 /* 2024-02-29 */,
        1735689599, 4102444799 /* 2099-12-31 23:59:59 */, time(NULL)};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        access_entry e = {.when = {cases[i], 987654321},
                          .method = "GET",
                          .path = "/",
                          .status = 200,
                          .request_id = "x"};
        char raw[2048];
        json_t *root = round_trip(&e, raw, sizeof raw);
        struct tm tm;
        gmtime_r(&cases[i], &tm);
        char want[64];
        strftime(want, sizeof want, "%Y-%m-%dT%H:%M:%S.987Z", &tm);
        ck_assert_str_eq(json_string_value(json_object_get(root, "time")), want);
        json_decref(root);
    }
}
END_TEST

START_TEST(fields_and_escaping)
{
    access_entry e = {.when = {1000, 0},
                      .method = "POST",
                      .path = "/solve/\"odd\\\x01\x7f\xc3\xa9",
                      .puzzle = "nine",
                      .status = 422,
                      .bytes = 9223372036854775807ull,
                      .duration_ms = 1234.5678,
                      .request_id = "id-1"};
    char raw[2048];
    json_t *root = round_trip(&e, raw, sizeof raw);
    ck_assert_str_eq(json_string_value(json_object_get(root, "method")), "POST");
    ck_assert_str_eq(json_string_value(json_object_get(root, "path")), e.path);
    ck_assert_str_eq(json_string_value(json_object_get(root, "puzzle")), "nine");
    ck_assert_int_eq(json_integer_value(json_object_get(root, "status")), 422);
    ck_assert_ptr_nonnull(strstr(raw, "\"bytes\":9223372036854775807,"));
    ck_assert_ptr_nonnull(strstr(raw, "\"duration_ms\":1234.568,"));
    ck_assert_str_eq(json_string_value(json_object_get(root, "request_id")), "id-1");
    json_decref(root);

    e.puzzle = NULL;
    e.duration_ms = 0.0004;
    e.bytes = 0;
    root = round_trip(&e, raw, sizeof raw);
    ck_assert(json_is_null(json_object_get(root, "puzzle")));
    ck_assert_ptr_nonnull(strstr(raw, "\"duration_ms\":0.000,"));
    json_decref(root);

    /* A very long path is cut, the line stays whole JSON. */
    char path[3000];
    memset(path, '"', sizeof path - 1);
    path[sizeof path - 1] = '\0';
    e.path = path;
    root = round_trip(&e, raw, sizeof raw);
    ck_assert_str_eq(json_string_value(json_object_get(root, "request_id")), "id-1");
    json_decref(root);
}
END_TEST

static bool is_generated(const char *id)
{
    if (strlen(id) != 16) return false;
    for (const char *p = id; *p; p++)
        if (!strchr("0123456789abcdef", *p)) return false;
    return true;
}

START_TEST(request_ids)
{
    char id[REQUEST_ID_MAX + 1], other[REQUEST_ID_MAX + 1];
    accesslog_request_id("abc-123_x.y:z~+/=", id);
    ck_assert_str_eq(id, "abc-123_x.y:z~+/=");
    accesslog_request_id("a b\"c<d>\x01\xc3\xa9\r\n", id);
    ck_assert_str_eq(id, "abcd");
    char long_id[100];
    memset(long_id, 'q', sizeof long_id - 1);
    long_id[sizeof long_id - 1] = '\0';
    accesslog_request_id(long_id, id);
    ck_assert_uint_eq(strlen(id), REQUEST_ID_MAX);
    ck_assert(strspn(id, "q") == REQUEST_ID_MAX);
    /* Nothing usable: a fresh id, different every time. */
    accesslog_request_id(NULL, id);
    accesslog_request_id("", other);
    ck_assert_msg(is_generated(id) && is_generated(other), "%s %s", id, other);
    ck_assert_str_ne(id, other);
    accesslog_request_id("<>", other);
    ck_assert(is_generated(other));
    ck_assert_str_ne(id, other);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("accesslog");
    TCase *tc = tcase_create("lines");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, timestamps_match_gmtime);
    tcase_add_test(tc, fields_and_escaping);
    tcase_add_test(tc, request_ids);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
