/* The API layer against hostile input (issue 11): request bytes quoted as valid UTF-8, the JSON
 * pre-scan's depth and size limits per puzzle, integral numbers, the parse counted in the
 * budget, and the invariant-boards answer's byte limit. */
#include <check.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "answer.h"
#include "error.h"
#include "json_fields.h"
#include "json_prescan.h"
#include "read_answer.h"
#include "registry.h"
#include "utf8.h"

/* True when s is valid UTF-8, checked by jansson (an independent decoder). */
static bool valid_utf8(const char *s)
{
    json_t *str = json_string(s);
    bool ok = str != NULL;
    json_decref(str);
    return ok;
}

START_TEST(sanitize_escapes_invalid_bytes)
{
    char out[64];
    utf8_sanitize(out, sizeof out,
                  "a\xff"
                  "b",
                  3);
    ck_assert_str_eq(out, "a\\xffb");
    /* NUL is one byte of UTF-8, but kept it would end the copy: it is shown, and what follows. */
    utf8_sanitize(out, sizeof out, "4\0x", 3);
    ck_assert_str_eq(out, "4\\x00x");
    /* A valid character is kept whole; a lone lead byte, an overlong form and a surrogate are
     * escaped. */
    static const char mixed[] = "\xc3\xa9|\xc3|\xc0\xaf|\xed\xa0\x80";
    utf8_sanitize(out, sizeof out, mixed, sizeof mixed - 1);
    ck_assert_str_eq(out, "\xc3\xa9|\\xc3|\\xc0\\xaf|\\xed\\xa0\\x80");
    ck_assert(valid_utf8(out));
    /* Too small for the next character: it is left out, not cut. */
    char small[4];
    utf8_sanitize(small, sizeof small, "ab\xe2\x82\xac", 5);
    ck_assert_str_eq(small, "ab");
    /* Every byte value, alone and after a lead byte: the result is always valid. */
    for (int b = 0; b < 256; b++) {
        char in[3] = {(char)0xe2, (char)b, 0};
        utf8_sanitize(out, sizeof out, in, 2);
        ck_assert_msg(valid_utf8(out), "byte %02x", b);
    }
}
END_TEST

START_TEST(prefix_never_splits_a_character)
{
    const char *s = "aaaaaaaaa\xc3\xa9"; /* 9 + 2 bytes */
    ck_assert_uint_eq(utf8_prefix_len(s, 11, 10), 9);
    ck_assert_uint_eq(utf8_prefix_len(s, 11, 11), 11);
    ck_assert_uint_eq(utf8_prefix_len(s, 11, 64), 11);
    ck_assert_uint_eq(utf8_prefix_len("ab\xff"
                                      "cd",
                                      5, 3),
                      3); /* invalid bytes stand alone */
}
END_TEST

/* A character named in a message: ASCII as itself, a longer one whole with its code point
 * (worked out here by hand), a byte that starts no character alone as \xHH. */
START_TEST(characters_are_named_whole)
{
    char out[UTF8_CHAR_SHOWN_MAX];
    size_t len;
    ck_assert_str_eq(utf8_char_shown("x1", 2, &len, out), "'x'");
    ck_assert_uint_eq(len, 1);
    ck_assert_str_eq(utf8_char_shown("\x09", 1, &len, out), "'\\x09'");
    ck_assert_str_eq(utf8_char_shown("\xc3\xa9", 2, &len, out), "'\xc3\xa9' (U+00E9)");
    ck_assert_uint_eq(len, 2);
    ck_assert_str_eq(utf8_char_shown("\xe2\x82\xac", 3, &len, out), "'\xe2\x82\xac' (U+20AC)");
    ck_assert_str_eq(utf8_char_shown("\xf0\x9f\x98\x80", 4, &len, out),
                     "'\xf0\x9f\x98\x80' (U+1F600)");
    ck_assert_uint_eq(len, 4);
    /* cut short, a stray continuation byte, an overlong form */
    ck_assert_str_eq(utf8_char_shown("\xc3\xa9", 1, &len, out), "'\\xC3'");
    ck_assert_uint_eq(len, 1);
    ck_assert_str_eq(utf8_char_shown("\xa9", 1, &len, out), "'\\xA9'");
    ck_assert_str_eq(utf8_char_shown("\xc0\xaf", 2, &len, out), "'\\xC0'");
}
END_TEST

/* An error quoting invalid bytes still becomes the contract's JSON; path "" is kept (the whole
 * body) and a NULL path is left out. */
START_TEST(error_json_is_always_valid)
{
    api_error err;
    api_fail(&err, API_MALFORMED_TEXT, NULL, "bad \"%s\"", "\xff\xfe");
    size_t len;
    char *json = api_error_json(&err, &len);
    ck_assert_ptr_nonnull(json);
    json_t *root = json_loads(json, 0, NULL);
    ck_assert_ptr_nonnull(root);
    ck_assert_ptr_null(json_object_get(json_object_get(root, "error"), "path"));
    json_decref(root);
    free(json);

    api_fail(&err, API_INVALID_REQUEST, "", "not an object");
    json = api_error_json(&err, NULL);
    root = json_loads(json, 0, NULL);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(root, "error"), "path")),
                     "");
    json_decref(root);
    free(json);

    /* A message cut at its size inside a character: cut before it. */
    char longer[API_MESSAGE_MAX * 2];
    memset(longer, 'a', sizeof longer);
    for (size_t i = API_MESSAGE_MAX - 8; i + 2 < sizeof longer; i += 2) {
        longer[i] = (char)0xc3;
        longer[i + 1] = (char)0xa9;
    }
    longer[sizeof longer - 1] = '\0';
    api_fail(&err, API_INVALID_REQUEST, NULL, "%s", longer);
    ck_assert(valid_utf8(err.message));
    ck_assert_ptr_null(strstr(err.message, "\\x")); /* nothing needed escaping */

    /* A path joined from a key longer than the room: whole characters only. */
    char path[API_PATH_MAX], key[300];
    memset(key, 0, sizeof key);
    for (size_t i = 0; i + 2 < sizeof key; i += 2) {
        key[i] = (char)0xc3;
        key[i + 1] = (char)0xa9;
    }
    api_path_join(path, sizeof path, "", key);
    ck_assert(valid_utf8(path));
}
END_TEST

static api_error prescan(const char *slug, const char *body)
{
    api_error err;
    memset(&err, 0, sizeof err);
    const api_puzzle *p = registry_find(slug);
    ck_assert_ptr_nonnull(p);
    if (json_prescan(body, strlen(body), &p->json_limits, &err)) err.code = API_OK;
    return err;
}

/* Nesting a little deeper than the schema reaches the codec, which names the field; deeper
 * still is refused before parsing, with the path of the container that goes too deep. */
START_TEST(prescan_refuses_deeper_than_the_schema)
{
    api_error err = prescan("nine", "{\"a\":[[[{}]],{}]}");
    ck_assert_int_eq(err.code, API_INVALID_REQUEST);
    ck_assert_str_eq(err.path, "/a/0/0/0");
    err = prescan("nine", "{\"a\":[\"1\"],\"b\":[\"1\", [[[1]]]]}");
    ck_assert_int_eq(err.code, API_INVALID_REQUEST);
    ck_assert_str_eq(err.path, "/b/1/0/0");
    err = prescan("invariant-boards", "{\"n\":[[[4]]]}");
    ck_assert_int_eq(err.code, API_INVALID_REQUEST);
    ck_assert_str_eq(err.path, "/n/0/0");
    /* Within the slack: left to the codec. */
    ck_assert_int_eq(prescan("invariant-boards", "{\"n\":[[4]]}").code, API_OK);
    ck_assert_int_eq(prescan("nine", "{\"a\":[[{}]],\"b\":[\"1\"]}").code, API_OK);
    /* Brackets inside strings are not structure; the deepest valid shapes pass. */
    ck_assert_int_eq(prescan("nine", "{\"a\":[\"[[[{{{\"],\"b\":[\"\\\"[\"]}").code, API_OK);
    ck_assert_int_eq(prescan("rubiks-rectangle", "{\"board\":[[1,2],[3,4]]}").code, API_OK);
    ck_assert_int_eq(prescan("mayan", "{\"moves\":1,\"columns\":[[1],[],[2,2]]}").code, API_OK);
    /* Brackets that do not balance make no JSON at all: left to the parser, which says
     * malformed_json (a body cut off, or one closer too many). */
    ck_assert_int_eq(prescan("invariant-boards", "{\"n\":[[[[").code, API_OK);
    ck_assert_int_eq(prescan("invariant-boards", "[[[[[").code, API_OK);
    ck_assert_int_eq(prescan("invariant-boards", "{\"n\":[[[4]]]}]").code, API_OK);
    /* as many closers as openers, of the wrong kind */
    ck_assert_int_eq(prescan("invariant-boards", "{\"n\":[[[}}}}").code, API_OK);
    ck_assert_int_eq(prescan("invariant-boards", "{\"n\":4,\"x\":[[[1,2}]]\n}").code, API_OK);
    ck_assert_int_eq(prescan("nine", "{\"a\":[[[[\"1\"}]]],\"b\":[\"1\"]}").code, API_OK);
    ck_assert_int_eq(prescan("nine", "{\"a\":[[[[\"1\"]]]],\"b\":[\"1\"]}").code,
                     API_INVALID_REQUEST);
    /* The limit of one level is said in the singular. */
    err = prescan("invariant-boards", "{\"n\":[[[4]]]}");
    ck_assert_ptr_nonnull(strstr(err.message, "at most 1 level "));
}
END_TEST

/* A body with more values than the largest instance needs is refused before parsing (413);
 * the largest valid instance, and a near miss the codec explains itself, pass. */
START_TEST(prescan_refuses_more_values_than_the_largest_instance)
{
    size_t cap = 8u << 20;
    char *body = malloc(cap);
    /* 1000 x 1000 rubiks-rectangle: passes. */
    size_t n = (size_t)sprintf(body, "{\"board\":[");
    for (int r = 0; r < 1000; r++) {
        body[n++] = '[';
        for (int c = 0; c < 1000; c++) n += (size_t)sprintf(body + n, "%d,", r * 1000 + c + 1);
        body[n - 1] = ']';
        body[n++] = ',';
    }
    body[n - 1] = ']';
    body[n++] = '}';
    body[n] = '\0';
    ck_assert_int_eq(prescan("rubiks-rectangle", body).code, API_OK);
    /* Twice as many numbers: refused. */
    n = (size_t)sprintf(body, "{\"board\":[[");
    for (int i = 0; i < 2000000; i++) n += (size_t)sprintf(body + n, "1,");
    body[n - 1] = ']';
    body[n++] = ']';
    body[n++] = '}';
    body[n] = '\0';
    ck_assert_int_eq(prescan("rubiks-rectangle", body).code, API_BODY_TOO_LARGE);
    /* Empty objects weigh more: 200 000 of them are refused where numbers would pass. */
    n = (size_t)sprintf(body, "{\"board\":[");
    for (int i = 0; i < 200000; i++) n += (size_t)sprintf(body + n, "{},");
    body[n - 1] = ']';
    body[n++] = '}';
    body[n] = '\0';
    ck_assert_int_eq(prescan("rubiks-rectangle", body).code, API_BODY_TOO_LARGE);
    /* Members weigh more than their values: 300 000 keys are refused where 300 000 numbers in
     * an array would pass. */
    n = (size_t)sprintf(body, "{");
    for (int i = 0; i < 300000; i++) n += (size_t)sprintf(body + n, "\"k%d\":0,", i);
    body[n - 1] = '}';
    body[n] = '\0';
    ck_assert_int_eq(prescan("rubiks-rectangle", body).code, API_BODY_TOO_LARGE);
    /* The same object under 20 brackets never closed (a body cut off, left to the parser as
     * malformed when it is light): deeper than the paths are kept, its members weigh as much,
     * and it is refused before parsing (by the depth found first). */
    n = (size_t)sprintf(body, "[[[[[[[[[[[[[[[[[[[[{");
    for (int i = 0; i < 300000; i++) n += (size_t)sprintf(body + n, "\"k%d\":0,", i);
    body[n - 1] = '}';
    body[n] = '\0';
    ck_assert_int_eq(prescan("rubiks-rectangle", body).code, API_INVALID_REQUEST);
    /* nine: 65 rows is the codec's own 422, not the pre-scan's. */
    n = (size_t)sprintf(body, "{\"a\":[");
    for (int i = 0; i < 65; i++) n += (size_t)sprintf(body + n, "\"0\",");
    body[n - 1] = ']';
    n += (size_t)sprintf(body + n, ",\"b\":[\"0\"]}");
    ck_assert_int_eq(prescan("nine", body).code, API_OK);
    free(body);
}
END_TEST

START_TEST(integral_numbers_are_integers)
{
    long long v;
    json_t *four = json_real(4.0), *big = json_real(1e3), *half = json_real(4.5);
    json_t *huge = json_real(1e300), *i = json_integer(-7), *s = json_string("4");
    ck_assert(fields_integral(four, &v) && v == 4);
    ck_assert(fields_integral(big, &v) && v == 1000);
    ck_assert(fields_integral(i, &v) && v == -7);
    ck_assert(!fields_integral(half, &v));
    ck_assert(fields_integral(huge, &v) && v == LLONG_MAX); /* outside every range */
    char shown[FIELDS_NUMBER_TEXT];
    ck_assert_str_eq(fields_number_text(huge, shown), "1e+300");
    ck_assert_str_eq(fields_number_text(four, shown), "4");
    ck_assert_str_eq(fields_number_text(i, shown), "-7");
    ck_assert(!fields_integral(s, &v));
    json_decref(four);
    json_decref(big);
    json_decref(half);
    json_decref(huge);
    json_decref(i);
    json_decref(s);
    /* Through a codec: mayan's moves 3.0 and columns in exponent form solve the sample. */
    budget b;
    budget_init_unlimited(&b);
    api_error err;
    char *a = read_answer(registry_find("mayan"), API_FORMAT_JSON,
                          "{\"moves\":3.0,\"columns\":[[1],[2,1],[2,3,4],[3,1],[2,4,3,4]]}", &b,
                          4096, NULL, &err);
    char *want = read_answer(registry_find("mayan"), API_FORMAT_JSON,
                             "{\"moves\":3,\"columns\":[[1],[2,1],[2,3,4],[3,1],[2,4,3,4]]}", &b,
                             4096, NULL, &err);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(want);
    ck_assert_str_eq(a, want);
    free(a);
    free(want);
}
END_TEST

/* A budget that ran out while the request waited: time_limit, before any solving. */
START_TEST(budget_spent_before_parsing_is_time_limit)
{
    budget b;
    budget_init_ms(&b, 0, NULL);
    api_error err;
    char *out = read_answer(registry_find("invariant-boards"), API_FORMAT_TEXT, "4\n", &b, 4096,
                            NULL, &err);
    ck_assert_ptr_null(out);
    ck_assert_int_eq(err.code, API_TIME_LIMIT);
}
END_TEST

/* "boards": true lists at most 64 MiB of boards: n = 1939 (~31.5 GB of boards) is refused;
 * a small n still lists its boards. */
START_TEST(boards_answer_is_bounded_in_bytes)
{
    budget b;
    budget_init_unlimited(&b);
    api_error err;
    char *out = read_answer(registry_find("invariant-boards"), API_FORMAT_JSON,
                            "{\"n\":1939,\"boards\":true}", &b, 4096, NULL, &err);
    ck_assert_ptr_null(out);
    ck_assert_int_eq(err.code, API_TOO_MANY_BOARDS);
    ck_assert_ptr_nonnull(strstr(err.message, "MiB"));
    size_t len = 0;
    out = read_answer(registry_find("invariant-boards"), API_FORMAT_JSON,
                      "{\"n\":4,\"boards\":true}", &b, 4096, &len, &err);
    ck_assert_ptr_nonnull(out);
    ck_assert_uint_le(len, 64u << 20);
    free(out);
}
END_TEST

Suite *hostile_input_suite(void);

Suite *hostile_input_suite(void)
{
    Suite *s = suite_create("hostile_input");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, sanitize_escapes_invalid_bytes);
    tcase_add_test(tc, prefix_never_splits_a_character);
    tcase_add_test(tc, characters_are_named_whole);
    tcase_add_test(tc, error_json_is_always_valid);
    tcase_add_test(tc, prescan_refuses_deeper_than_the_schema);
    tcase_add_test(tc, prescan_refuses_more_values_than_the_largest_instance);
    tcase_add_test(tc, integral_numbers_are_integers);
    tcase_add_test(tc, budget_spent_before_parsing_is_time_limit);
    tcase_add_test(tc, boards_answer_is_bounded_in_bytes);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run(hostile_input_suite());
}
