/* The API layer's shared pieces: the error table and its JSON, JSON Pointers, the streaming
 * writer, the field readers, the contest-text scanner and the Content-Type rules. */
#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "answer.h"
#include "error.h"
#include "json_fields.h"
#include "registry.h"
#include "text_scan.h"
#include "writer.h"

START_TEST(every_contract_code_has_its_status)
{
    static const struct {
        api_error_code code;
        int status;
        const char *name;
    } contract[] = {
        {API_MALFORMED_JSON, 400, "malformed_json"},
        {API_INVALID_REQUEST, 400, "invalid_request"},
        {API_MALFORMED_TEXT, 400, "malformed_text"},
        {API_UNKNOWN_PUZZLE, 404, "unknown_puzzle"},
        {API_NOT_FOUND, 404, "not_found"},
        {API_METHOD_NOT_ALLOWED, 405, "method_not_allowed"},
        {API_BODY_TOO_LARGE, 413, "body_too_large"},
        {API_UNSUPPORTED_MEDIA_TYPE, 415, "unsupported_media_type"},
        {API_INVALID_BOARD, 422, "invalid_board"},
        {API_TOO_MANY_BOARDS, 422, "too_many_boards"},
        {API_TIME_LIMIT, 422, "time_limit"},
        {API_OVERLOADED, 503, "overloaded"},
        {API_INTERNAL, 500, "internal_error"},
        {API_HEADERS_TOO_LARGE, 431, "headers_too_large"},
        {API_HTTP_VERSION_NOT_SUPPORTED, 505, "http_version_not_supported"},
    };
    for (size_t i = 0; i < sizeof contract / sizeof contract[0]; i++) {
        ck_assert_int_eq(api_error_status(contract[i].code), contract[i].status);
        ck_assert_str_eq(api_error_name(contract[i].code), contract[i].name);
    }
    ck_assert_int_eq(api_error_status((api_error_code)999), 500);
}
END_TEST

START_TEST(error_json_has_code_message_and_path)
{
    api_error err;
    ck_assert(!api_fail(&err, API_INVALID_REQUEST, "/a/2", "row %d is \"bad\"", 3));
    size_t len = 0;
    char *text = api_error_json(&err, &len);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(len, strlen(text));
    json_t *root = json_loads(text, 0, NULL);
    ck_assert_ptr_nonnull(root);
    json_t *e = json_object_get(root, "error");
    ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "invalid_request");
    ck_assert_str_eq(json_string_value(json_object_get(e, "message")), "row 3 is \"bad\"");
    ck_assert_str_eq(json_string_value(json_object_get(e, "path")), "/a/2");
    json_decref(root);
    free(text);

    api_fail(&err, API_NOT_FOUND, NULL, "no route");
    text = api_error_json(&err, NULL);
    root = json_loads(text, 0, NULL);
    ck_assert_ptr_null(json_object_get(json_object_get(root, "error"), "path"));
    json_decref(root);
    free(text);
}
END_TEST

START_TEST(json_pointer_escapes_tilde_and_slash)
{
    char path[64];
    api_path_join(path, sizeof path, "/x", "a/b~c");
    ck_assert_str_eq(path, "/x/a~1b~0c");
    api_path_index(path, sizeof path, "/board", 17);
    ck_assert_str_eq(path, "/board/17");
    api_path_join(path, 4, "/long/base", "k"); /* truncation stays NUL-terminated */
    ck_assert_uint_lt(strlen(path), 4);
}
END_TEST

START_TEST(writer_formats_numbers_and_strings)
{
    char buf[128];
    api_writer w = {buf, sizeof buf, 0};
    writer_put_u64(&w, 0);
    writer_putc(&w, ' ');
    writer_put_i64(&w, -9223372036854775807LL - 1);
    writer_putc(&w, ' ');
    writer_put_u64(&w, 18446744073709551615ULL);
    writer_putc(&w, ' ');
    writer_put_json_string(&w, "a\"b\\c\n");
    ck_assert_str_eq((buf[w.len] = '\0', buf),
                     "0 -9223372036854775808 18446744073709551615 \"a\\\"b\\\\c\\u000a\"");
    ck_assert(writer_room(&w, sizeof buf - w.len));
    ck_assert(!writer_room(&w, sizeof buf - w.len + 1));
}
END_TEST

START_TEST(stream_text_resumes_across_small_buffers)
{
    const char *text = "0123456789abcdef";
    char out[32] = "";
    size_t got = 0;
    api_cursor cur = {0};
    bool done = false;
    while (!done) {
        char buf[5];
        api_writer w = {buf, sizeof buf, 0};
        done = writer_stream_text(&w, &cur, text, strlen(text));
        memcpy(out + got, buf, w.len);
        got += w.len;
    }
    out[got] = '\0';
    ck_assert_str_eq(out, text);
}
END_TEST

static json_t *parse(const char *text)
{
    json_t *v = json_loads(text, 0, NULL);
    ck_assert_ptr_nonnull(v);
    return v;
}

START_TEST(fields_report_the_offending_pointer)
{
    static const char *const allowed[] = {"n", "boards", NULL};
    api_error err;
    long long n;
    bool flag;
    json_t *body = parse("{\"n\": 5, \"boards\": true}");
    ck_assert(fields_known(body, "", allowed, &err));
    ck_assert(fields_int(body, "", "n", true, 1, 10, 0, &n, &err));
    ck_assert_int_eq(n, 5);
    ck_assert(fields_bool(body, "", "boards", false, &flag, &err));
    ck_assert(flag);
    json_decref(body);

    body = parse("{\"n\": 5, \"size/x\": 1}");
    ck_assert(!fields_known(body, "", allowed, &err));
    ck_assert_int_eq(err.code, API_INVALID_REQUEST);
    ck_assert_str_eq(err.path, "/size~1x");
    json_decref(body);

    body = parse("{\"n\": \"5\"}");
    ck_assert(!fields_int(body, "", "n", true, 1, 10, 0, &n, &err));
    ck_assert_str_eq(err.path, "/n");
    ck_assert_ptr_nonnull(strstr(err.message, "a string"));
    json_decref(body);

    body = parse("{\"n\": 11}");
    ck_assert(!fields_int(body, "", "n", true, 1, 10, 0, &n, &err));
    ck_assert_int_eq(err.code, API_INVALID_REQUEST);
    json_decref(body);

    body = parse("{}");
    ck_assert(!fields_int(body, "", "n", true, 1, 10, 0, &n, &err));
    ck_assert_str_eq(err.path, "/n");
    ck_assert(fields_int(body, "", "n", false, 1, 10, 7, &n, &err));
    ck_assert_int_eq(n, 7);
    ck_assert_ptr_null(fields_array(body, "/x", "rows", &err));
    ck_assert_str_eq(err.path, "/x/rows");
    json_decref(body);
}
END_TEST

START_TEST(scanner_reads_tokens_and_names_lines)
{
    const char *text = "3\r\n\n 12 -4\t\nabc 99999999999999999999\n";
    text_scan s;
    api_error err;
    long long v;
    scan_init(&s, text, strlen(text));
    ck_assert(scan_int(&s, 1, 10, "n", &v, &err));
    ck_assert_int_eq(v, 3);
    ck_assert(scan_int(&s, 0, 100, "w", &v, &err));
    ck_assert_int_eq(v, 12);
    ck_assert_int_eq(s.line, 3);
    ck_assert(scan_int(&s, -10, 10, "h", &v, &err));
    ck_assert_int_eq(v, -4);
    ck_assert(!scan_int(&s, 0, 100, "x", &v, &err));
    ck_assert_int_eq(err.code, API_MALFORMED_TEXT);
    ck_assert_ptr_nonnull(strstr(err.message, "line 4"));
    ck_assert(!scan_int(&s, 0, 100, "y", &v, &err)); /* overflow is refused, not wrapped */
    ck_assert_int_eq(err.code, API_INVALID_BOARD);   /* a range error, like 101 would be */
    ck_assert_ptr_nonnull(strstr(err.message, "line 4"));
    ck_assert(scan_end(&s, &err));

    scan_init(&s, "1 2", 3);
    ck_assert(scan_int(&s, 0, 9, "a", &v, &err));
    ck_assert(!scan_end(&s, &err));
    const char *word;
    size_t len;
    ck_assert(scan_word(&s, "b", &word, &len, &err));
    ck_assert(!scan_word(&s, "c", &word, &len, &err));
    ck_assert_ptr_nonnull(strstr(err.message, "ends"));
}
END_TEST

START_TEST(content_types_pick_the_format)
{
    api_format f;
    ck_assert(api_format_from_content_type("application/json", &f) && f == API_FORMAT_JSON);
    ck_assert(api_format_from_content_type("Application/JSON; charset=utf-8", &f) &&
              f == API_FORMAT_JSON);
    ck_assert(api_format_from_content_type("text/plain;charset=UTF-8", &f) && f == API_FORMAT_TEXT);
    ck_assert(!api_format_from_content_type(NULL, &f));
    ck_assert(!api_format_from_content_type("application/jsonx", &f));
    ck_assert(!api_format_from_content_type("text/html", &f));
    ck_assert(!api_format_from_content_type("multipart/form-data; boundary=x", &f));
}
END_TEST

START_TEST(registry_lists_the_five_puzzles)
{
    static const char *const slugs[] = {"nine", "rubiks-rectangle", "invariant-boards", "mayan",
                                        "maze-tac-toe"};
    ck_assert_uint_eq(registry_count(), 5);
    for (size_t i = 0; i < 5; i++) {
        const api_puzzle *p = registry_find(slugs[i]);
        ck_assert_ptr_nonnull(p);
        ck_assert_str_eq(p->slug, slugs[i]);
        json_error_t jerr;
        json_t *limits = json_loads(p->limits_json, 0, &jerr);
        ck_assert_msg(json_is_object(limits), "%s: limits are not a JSON object", p->slug);
        json_decref(limits);
    }
    ck_assert_ptr_null(registry_find("Nine"));
    ck_assert_ptr_null(registry_find(""));
    ck_assert_ptr_null(registry_at(5));

    size_t len = 0;
    char *doc = registry_puzzles_json(&len);
    json_t *root = json_loads(doc, 0, NULL);
    json_t *list = json_object_get(root, "puzzles");
    ck_assert_uint_eq(json_array_size(list), 5);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(list, 0), "path")),
                     "/solve/nine");
    json_decref(root);
    free(doc);
}
END_TEST

START_TEST(examples_solve_in_both_formats)
{
    for (size_t i = 0; i < registry_count(); i++) {
        const api_puzzle *p = registry_at(i);
        budget b;
        budget_init_unlimited(&b);
        api_error err;
        api_answer *a = api_answer_solve(p, API_FORMAT_JSON, p->example_json,
                                         strlen(p->example_json), &b, &err);
        ck_assert_msg(a != NULL, "%s: example failed: %s", p->slug, err.message);
        char buf[4096];
        size_t n = api_answer_read(a, buf, sizeof buf - 1);
        buf[n] = '\0';
        json_t *answer = json_loads(buf, 0, NULL);
        ck_assert_msg(json_is_object(answer), "%s: answer is not a JSON object: %s", p->slug, buf);
        json_decref(answer);
        api_answer_free(a);

        a = api_answer_solve(p, API_FORMAT_TEXT, p->example_text, strlen(p->example_text), &b,
                             &err);
        ck_assert_msg(a != NULL, "%s: text example failed: %s", p->slug, err.message);
        n = api_answer_read(a, buf, sizeof buf - 1);
        ck_assert_uint_gt(n, 0);
        ck_assert_int_eq(buf[n - 1], '\n');
        api_answer_free(a);
    }
}
END_TEST

START_TEST(bodies_that_are_not_objects_are_refused)
{
    const api_puzzle *p = registry_at(0);
    budget b;
    budget_init_unlimited(&b);
    api_error err;
    const char *bad[] = {"[1,2]", "42", "{\"a\":1,", "{\"a\":1}{}", "", "{\"a\":1,\"a\":2}"};
    const api_error_code want[] = {API_INVALID_REQUEST, API_INVALID_REQUEST, API_MALFORMED_JSON,
                                   API_MALFORMED_JSON,  API_MALFORMED_JSON,  API_MALFORMED_JSON};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_ptr_null(api_answer_solve(p, API_FORMAT_JSON, bad[i], strlen(bad[i]), &b, &err));
        ck_assert_msg(err.code == want[i], "body %s gave %s", bad[i], api_error_name(err.code));
    }
    api_answer_solve(p, API_FORMAT_JSON, "{\"a\":1,", 7, &b, &err);
    ck_assert_ptr_nonnull(strstr(err.message, "line 1"));
    ck_assert_ptr_nonnull(strstr(err.message, "column"));
}
END_TEST

/* Solves body (len bytes) as JSON for `slug`: it must fail with `want`. */
static api_error refused_json(const char *slug, const char *body, size_t len, api_error_code want)
{
    budget b;
    budget_init_unlimited(&b);
    api_error err;
    ck_assert_ptr_null(api_answer_solve(registry_find(slug), API_FORMAT_JSON, body, len, &b, &err));
    ck_assert_msg(err.code == want, "%s: %s (%s)", slug, api_error_name(err.code), err.message);
    ck_assert_ptr_null(strstr(err.message, "JSON_")); /* no library internals in the message */
    return err;
}

/* A raw NUL byte is never JSON, wherever it stands (jansson alone would read {"n":4<NUL>} as
 * {"n":4}); \u0000 in a string is JSON, and a wrong character of the puzzle's. */
START_TEST(nul_bytes_and_escaped_nul_characters)
{
    static const char after_number[] = "{\"n\":4\0}", on_line_two[] = "{\"n\":4,\n  \0}";
    api_error err =
        refused_json("invariant-boards", after_number, sizeof after_number - 1, API_MALFORMED_JSON);
    ck_assert_ptr_nonnull(strstr(err.message, "line 1, column 7"));
    err = refused_json("invariant-boards", on_line_two, sizeof on_line_two - 1, API_MALFORMED_JSON);
    ck_assert_ptr_nonnull(strstr(err.message, "line 2, column 3"));

    const char *row = "{\"a\":[\"100\",\"000\",\"0\\u00000\"],\"b\":[\"111\",\"111\",\"011\"]}";
    err = refused_json("nine", row, strlen(row), API_INVALID_BOARD);
    ck_assert_str_eq(err.path, "/a/2");
    ck_assert_ptr_nonnull(strstr(err.message, "'\\x00' at position 2"));
    const char *cell = "{\"maze\":[\"#########\",\"#BB\\u0000###\",\"#########\"]}";
    err = refused_json("maze-tac-toe", cell, strlen(cell), API_INVALID_BOARD);
    ck_assert_str_eq(err.path, "/maze/1");
    const char *key = "{\"n\\u0000\":4}";
    err = refused_json("invariant-boards", key, strlen(key), API_INVALID_REQUEST);
    ck_assert_ptr_nonnull(strstr(err.message, "\\u0000"));

    /* In the text format, a token with a NUL is shown whole in the message. */
    budget b;
    budget_init_unlimited(&b);
    static const char text[] = "4\0";
    ck_assert_ptr_null(api_answer_solve(registry_find("invariant-boards"), API_FORMAT_TEXT, text,
                                        sizeof text - 1, &b, &err));
    ck_assert_int_eq(err.code, API_MALFORMED_TEXT);
    ck_assert_ptr_nonnull(strstr(err.message, "not \"4\\x00\""));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("api_core");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_contract_code_has_its_status);
    tcase_add_test(tc, error_json_has_code_message_and_path);
    tcase_add_test(tc, json_pointer_escapes_tilde_and_slash);
    tcase_add_test(tc, writer_formats_numbers_and_strings);
    tcase_add_test(tc, stream_text_resumes_across_small_buffers);
    tcase_add_test(tc, fields_report_the_offending_pointer);
    tcase_add_test(tc, scanner_reads_tokens_and_names_lines);
    tcase_add_test(tc, content_types_pick_the_format);
    tcase_add_test(tc, registry_lists_the_five_puzzles);
    tcase_add_test(tc, examples_solve_in_both_formats);
    tcase_add_test(tc, bodies_that_are_not_objects_are_refused);
    tcase_add_test(tc, nul_bytes_and_escaped_nul_characters);
    suite_add_tcase(s, tc);
    return check_run(s);
}
