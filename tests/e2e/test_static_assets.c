/* End-to-end tests of the embedded files: every file of the page is served at its path, byte for
 * byte the source file, with its content type; the favicon answers both names. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "e2e/harness.h"

/* A file of the source tree, which the test cannot do without. */
static char *source_file(const char *relative, size_t *len)
{
    char *text = harness_source_file(relative, len);
    ck_assert_msg(text != NULL, "cannot read %s", relative);
    return text;
}

START_TEST(every_asset_is_its_source_file)
{
    static const struct {
        const char *url, *file, *type;
    } assets[] = {
        {"/", "web/index.html", "text/html; charset=utf-8"},
        {"/app.css", "web/app.css", "text/css; charset=utf-8"},
        {"/app.js", "web/app.js", "text/javascript; charset=utf-8"},
        {"/puzzles.js", "web/puzzles.js", "text/javascript; charset=utf-8"},
        {"/openapi.html", "web/contract.html", "text/html; charset=utf-8"},
        {"/contract.js", "web/contract.js", "text/javascript; charset=utf-8"},
        {"/favicon.svg", "web/favicon.svg", "image/svg+xml"},
        {"/favicon.ico", "web/favicon.svg", "image/svg+xml"},
        {"/openapi.yaml", "openapi.yaml", "application/yaml"},
    };
    harness_server s;
    ck_assert(harness_start(&s, NULL));
    for (size_t i = 0; i < sizeof assets / sizeof assets[0]; i++) {
        size_t len;
        char *want = source_file(assets[i].file, &len);
        harness_response r;
        ck_assert(harness_request(&s, "GET", assets[i].url, NULL, NULL, 0, NULL, &r));
        ck_assert_msg(r.status == 200, "%s: %ld", assets[i].url, r.status);
        char type[128];
        ck_assert_ptr_nonnull(harness_header(&r, "Content-Type", type, sizeof type));
        ck_assert_str_eq(type, assets[i].type);
        ck_assert_msg(r.body_len == len && memcmp(r.body, want, len) == 0, "%s differs from %s",
                      assets[i].url, assets[i].file);
        harness_response_free(&r);
        free(want);
    }
    /* The page names only files that are served. */
    harness_response r;
    ck_assert(harness_request(&s, "GET", "/", NULL, NULL, 0, NULL, &r));
    const char *names[] = {"href=\"app.css\"", "src=\"app.js\"", "src=\"puzzles.js\"",
                           "href=\"favicon.svg\"", "href=\"openapi.html\""};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        ck_assert_msg(strstr(r.body, names[i]) != NULL, "the page does not name %s", names[i]);
    harness_response_free(&r);
    ck_assert(harness_request(&s, "GET", "/app.js.map", NULL, NULL, 0, NULL, &r));
    ck_assert_int_eq(r.status, 404);
    harness_response_free(&r);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("static_assets");
    TCase *tc = tcase_create("assets");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, every_asset_is_its_source_file);
    suite_add_tcase(s, tc);
    return check_run(s);
}
