/* Inputs the libFuzzer targets (fuzz/) once broke, replayed through the API layer's entry points
 * with the same contract checks (fuzz/contract_check.h), so each fix stays fixed. A file is
 * fuzz/regressions/<puzzle>-<json|text>-<what it was> (api_answer_solve), or
 * batch-<json|text>-<what> (api_batch_solve; the first byte picks the puzzle). Also the fix itself,
 * checked by hand: request bytes that are not UTF-8 come back in the error's JSON as the text \xHH.
 */
#include <check.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "../../fuzz/contract_check.h"
#include "answer.h"
#include "error.h"
#include "registry.h"

#define REGRESSIONS PUZZLED_TEST_DATA "/../../fuzz/regressions"

/* The puzzle and format a regression file's name starts with; false when it names none. */
static bool parse_name(const char *name, const api_puzzle **puzzle, api_format *fmt)
{
    for (size_t i = 0; i < registry_count(); i++) {
        const api_puzzle *p = registry_at(i);
        size_t n = strlen(p->slug);
        if (strncmp(name, p->slug, n) != 0) continue;
        if (strncmp(name + n, "-json-", 6) == 0)
            *fmt = API_FORMAT_JSON;
        else if (strncmp(name + n, "-text-", 6) == 0)
            *fmt = API_FORMAT_TEXT;
        else
            continue;
        *puzzle = p;
        return true;
    }
    return false;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f, "cannot open %s", path);
    char *buf = NULL;
    size_t cap = 0;
    *len = 0;
    for (;;) {
        if (*len == cap) buf = realloc(buf, cap = cap ? 2 * cap : 4096);
        size_t got = fread(buf + *len, 1, cap - *len, f);
        if (got == 0) break;
        *len += got;
    }
    fclose(f);
    return buf;
}

START_TEST(every_regression_input_keeps_the_contract)
{
    DIR *dir = opendir(REGRESSIONS);
    ck_assert_msg(dir, "no directory %s", REGRESSIONS);
    int replayed = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        if (e->d_name[0] == '.') continue;
        const api_puzzle *puzzle = NULL;
        api_format fmt;
        bool batch = strncmp(e->d_name, "batch-", 6) == 0;
        if (batch)
            fmt = strncmp(e->d_name + 6, "text-", 5) == 0 ? API_FORMAT_TEXT : API_FORMAT_JSON;
        else
            ck_assert_msg(parse_name(e->d_name, &puzzle, &fmt),
                          "%s: not <puzzle|batch>-<json|text>-<what>", e->d_name);
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", REGRESSIONS, e->d_name);
        size_t len;
        char *data = read_file(path, &len);
        contract_failure f;
        bool kept = batch ? contract_check_batch(fmt, data, len, &f)
                          : contract_check(puzzle, fmt, data, len, &f);
        ck_assert_msg(kept, "%s: %s", e->d_name, f.why);
        free(data);
        replayed++;
    }
    closedir(dir);
    ck_assert_int_ge(replayed, 6); /* the files are there: a lost directory must not pass */
}
END_TEST

/* The error body of a request, parsed; the request must fail. */
static json_t *error_body(const char *slug, api_format fmt, const char *body, size_t len)
{
    budget b;
    budget_init_unlimited(&b);
    api_error err;
    memset(&err, 0, sizeof err);
    api_answer *a = api_answer_solve(registry_find(slug), fmt, body, len, &b, &err);
    ck_assert_ptr_null(a);
    size_t n;
    char *text = api_error_json(&err, &n);
    ck_assert_msg(text, "no JSON for \"%s\"", err.message);
    json_error_t jerr;
    json_t *root = json_loadb(text, n, 0, &jerr);
    ck_assert_msg(root, "%s: %s", jerr.text, text);
    free(text);
    return root;
}

static const char *message_of(json_t *root)
{
    return json_string_value(json_object_get(json_object_get(root, "error"), "message"));
}

START_TEST(invalid_utf8_in_a_text_body_is_quoted_as_escapes)
{
    json_t *root = error_body("invariant-boards", API_FORMAT_TEXT, "\xff\n", 2);
    ck_assert_ptr_nonnull(strstr(message_of(root), "\\xff"));
    json_decref(root);
    /* a lone continuation byte, an overlong form, a surrogate, beyond U+10FFFF */
    static const char *const bad[] = {"3\x80", "3\xc0\xaf", "3\xed\xa0\x80", "3\xf4\x90\x80\x80"};
    static const char *const shown[] = {"\\x80", "\\xc0\\xaf", "\\xed\\xa0\\x80",
                                        "\\xf4\\x90\\x80\\x80"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        root = error_body("invariant-boards", API_FORMAT_TEXT, bad[i], strlen(bad[i]));
        ck_assert_msg(strstr(message_of(root), shown[i]), "%s", message_of(root));
        json_decref(root);
    }
}
END_TEST

START_TEST(valid_utf8_is_kept_as_it_is)
{
    json_t *root = error_body("invariant-boards", API_FORMAT_TEXT, "3\xc3\xa9\n", 4);
    ck_assert_ptr_nonnull(strstr(message_of(root), "3\xc3\xa9"));
    json_decref(root);
}
END_TEST

START_TEST(invalid_utf8_in_a_json_key_keeps_the_path)
{
    /* jansson refuses the body itself, so the key reaches no path: build the error directly,
     * as a codec would for an unknown key. */
    api_error err;
    api_fail(&err, API_INVALID_REQUEST, "/a\xe9", "Unknown field \"a\xe9\".");
    size_t n;
    char *text = api_error_json(&err, &n);
    ck_assert_ptr_nonnull(text);
    json_t *root = json_loadb(text, n, 0, NULL);
    ck_assert_ptr_nonnull(root);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(root, "error"), "path")),
                     "/a\\xe9");
    json_decref(root);
    free(text);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fuzz_regressions");
    TCase *tc = tcase_create("regressions");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_regression_input_keeps_the_contract);
    tcase_add_test(tc, invalid_utf8_in_a_text_body_is_quoted_as_escapes);
    tcase_add_test(tc, valid_utf8_is_kept_as_it_is);
    tcase_add_test(tc, invalid_utf8_in_a_json_key_keeps_the_path);
    suite_add_tcase(s, tc);
    return check_run(s);
}
