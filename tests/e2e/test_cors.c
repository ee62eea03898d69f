/* End-to-end tests of CORS against the real binary: which origins get
 * Access-Control-Allow-Origin, which response headers their scripts may read, and that a
 * preflight advertises exactly the methods of the route it names (none for a path that is no
 * route). The browser's side of the same rules is tested in tests/browser/cors.test.js. */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check_run.h"
#include "e2e/harness.h"

#define START(s, ...) ck_assert_msg(harness_start(&(s), (const char *[]){__VA_ARGS__}), "start")

static harness_response send(const harness_server *s, const char *method, const char *path,
                             const char *const *headers)
{
    harness_response r;
    ck_assert_msg(harness_request(s, method, path, NULL, NULL, 0, headers, &r), "%s %s", method,
                  path);
    return r;
}

static void assert_header(const harness_response *r, const char *name, const char *want)
{
    char buf[1024];
    const char *got = harness_header(r, name, buf, sizeof buf);
    ck_assert_msg(got != NULL, "no %s header in:\n%s", name, r->headers);
    ck_assert_str_eq(got, want);
}

static void assert_no_header(const harness_response *r, const char *name)
{
    char buf[512];
    ck_assert_msg(harness_header(r, name, buf, sizeof buf) == NULL, "unexpected %s: %s", name, buf);
}

/* True when the comma-separated header value lists item (case-insensitive, any order). */
static bool header_lists(const harness_response *r, const char *name, const char *item)
{
    char buf[512];
    if (!harness_header(r, name, buf, sizeof buf)) return false;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ') tok++;
        size_t n = strlen(tok);
        while (n && tok[n - 1] == ' ') tok[--n] = '\0';
        if (strcasecmp(tok, item) == 0) return true;
    }
    return false;
}

/* Every header the contract gives a meaning to is readable by a script on an allowed origin. */
static void assert_exposes_contract_headers(const harness_response *r)
{
    const char *meaningful[] = {"Allow", "Retry-After", "X-Request-Id"};
    for (size_t i = 0; i < sizeof meaningful / sizeof meaningful[0]; i++)
        ck_assert_msg(header_lists(r, "Access-Control-Expose-Headers", meaningful[i]),
                      "%s not exposed in:\n%s", meaningful[i], r->headers);
}

static const char *const from_app[] = {"Origin: https://app.example", NULL};

START_TEST(preflight_names_the_route_methods)
{
    harness_server s;
    START(s, NULL);
    const char *post[] = {"Origin: https://app.example", "Access-Control-Request-Method: POST",
                          "Access-Control-Request-Headers: content-type, x-request-id", NULL};
    harness_response r = send(&s, "OPTIONS", "/solve/nine", post);
    ck_assert_int_eq(r.status, 204);
    ck_assert_uint_eq(r.body_len, 0);
    assert_header(&r, "Allow", "POST, OPTIONS");
    assert_header(&r, "Access-Control-Allow-Methods", "POST, OPTIONS");
    assert_header(&r, "Access-Control-Allow-Origin", "*");
    assert_header(&r, "Access-Control-Allow-Headers", "content-type, x-request-id");
    char buf[64];
    ck_assert_ptr_nonnull(harness_header(&r, "Access-Control-Max-Age", buf, sizeof buf));
    harness_response_free(&r);

    /* A method the route refuses: the preflight still names only the route's own methods, so
     * the browser refuses the request, as the server would (405). */
    const char *put[] = {"Origin: https://app.example", "Access-Control-Request-Method: PUT", NULL};
    const char *get_routes[] = {"/healthz",      "/readyz", "/puzzles", "/metrics",
                                "/openapi.yaml", "/",       "/app.js",  "/favicon.ico"};
    for (size_t i = 0; i < sizeof get_routes / sizeof get_routes[0]; i++) {
        r = send(&s, "OPTIONS", get_routes[i], put);
        ck_assert_msg(r.status == 204, "%s: %ld", get_routes[i], r.status);
        assert_header(&r, "Allow", "GET, HEAD, OPTIONS");
        assert_header(&r, "Access-Control-Allow-Methods", "GET, HEAD, OPTIONS");
        harness_response_free(&r);
    }
    r = send(&s, "OPTIONS", "/solve/nine", put);
    ck_assert_int_eq(r.status, 204);
    assert_header(&r, "Access-Control-Allow-Methods", "POST, OPTIONS");
    harness_response_free(&r);

    /* Any /solve/{x} is the solve route: the POST that follows answers 404 unknown_puzzle,
     * readably, instead of failing in the browser as a network error. */
    r = send(&s, "OPTIONS", "/solve/sudoku", post);
    ck_assert_int_eq(r.status, 204);
    assert_header(&r, "Access-Control-Allow-Methods", "POST, OPTIONS");
    harness_response_free(&r);

    /* Without an Origin it is a plain OPTIONS: Allow, and no CORS headers. */
    r = send(&s, "OPTIONS", "/solve/nine", NULL);
    ck_assert_int_eq(r.status, 204);
    assert_header(&r, "Allow", "POST, OPTIONS");
    assert_no_header(&r, "Access-Control-Allow-Methods");
    assert_no_header(&r, "Access-Control-Allow-Origin");
    harness_response_free(&r);

    /* Without a header list: the headers the API reads. A list is echoed name by name, whole;
     * an element that is no HTTP token ("bad header": not two names) is left out. */
    r = send(&s, "OPTIONS", "/solve/nine", from_app);
    assert_header(&r, "Access-Control-Allow-Headers", "Content-Type, X-Request-Id");
    harness_response_free(&r);
    const char *odd[] = {"Origin: https://app.example",
                         "Access-Control-Request-Headers: content-type;x=\"1\",x-trace.id ,,"
                         "\tx-request-id, bad header,x-last",
                         NULL};
    r = send(&s, "OPTIONS", "/solve/nine", odd);
    assert_header(&r, "Access-Control-Allow-Headers", "x-trace.id, x-request-id, x-last");
    harness_response_free(&r);
    /* A long list comes back whole: its last names too. */
    char many[1024] = "Access-Control-Request-Headers: ", expect[1024] = "";
    for (int i = 0; i < 30; i++) {
        char name[32];
        snprintf(name, sizeof name, "%sx-custom-header-%02d", i ? ", " : "", i);
        strcat(many, name);
        strcat(expect, name);
    }
    strcat(many, ", content-type");
    strcat(expect, ", content-type");
    r = send(&s, "OPTIONS", "/solve/nine",
             (const char *[]){"Origin: https://app.example", many, NULL});
    assert_header(&r, "Access-Control-Allow-Headers", expect);
    harness_response_free(&r);
    /* Thousands of names (14 KB): answered, with the headers the API reads (echoed, they left no
     * room for the answer's headers in the connection's memory, and nothing was sent). */
    size_t huge_len = strlen("Access-Control-Request-Headers: ") + 2 * 7000;
    char *huge = malloc(huge_len + 1);
    strcpy(huge, "Access-Control-Request-Headers: ");
    for (size_t n = strlen(huge); n < huge_len; n += 2) memcpy(huge + n, "a,", 3);
    r = send(&s, "OPTIONS", "/solve/nine",
             (const char *[]){"Origin: https://app.example", huge, NULL});
    ck_assert_int_eq(r.status, 204);
    assert_header(&r, "Access-Control-Allow-Headers", "Content-Type, X-Request-Id");
    harness_response_free(&r);
    free(huge);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

/* openapi.yaml: OPTIONS on any path is 204. A path that is no route allows every method of the
 * server, so the browser sends the request and the page can read its 404 not_found. */
START_TEST(preflight_on_no_route_allows_the_request)
{
    harness_server s;
    START(s, NULL);
    const char *paths[] = {"/nope",       "/healthz/",   "/solve",
                           "/index.html", "/web/app.js", "/solve/nine/extra"};
    const char *post[] = {"Origin: https://app.example", "Access-Control-Request-Method: POST",
                          NULL};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        harness_response r = send(&s, "OPTIONS", paths[i], post);
        ck_assert_msg(r.status == 204, "%s: %ld", paths[i], r.status);
        ck_assert_uint_eq(r.body_len, 0);
        assert_header(&r, "Allow", "GET, HEAD, POST, OPTIONS");
        assert_header(&r, "Access-Control-Allow-Methods", "GET, HEAD, POST, OPTIONS");
        assert_header(&r, "Access-Control-Allow-Origin", "*");
        harness_response_free(&r);
        /* The request itself: a readable 404. */
        r = send(&s, "POST", paths[i], (const char *[]){"Origin: https://app.example", NULL});
        ck_assert_msg(r.status == 404, "%s: %ld", paths[i], r.status);
        ck_assert_ptr_nonnull(strstr(r.body, "\"not_found\""));
        assert_header(&r, "Access-Control-Allow-Origin", "*");
        harness_response_free(&r);
    }
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

START_TEST(responses_expose_the_contract_headers)
{
    harness_server s;
    START(s, NULL);
    harness_response r = send(&s, "GET", "/healthz", from_app);
    ck_assert_int_eq(r.status, 200);
    assert_header(&r, "Access-Control-Allow-Origin", "*");
    assert_exposes_contract_headers(&r);
    harness_response_free(&r);
    /* A 405: Allow is there, and a script may read it. */
    r = send(&s, "GET", "/solve/nine", from_app);
    ck_assert_int_eq(r.status, 405);
    assert_header(&r, "Allow", "POST, OPTIONS");
    assert_header(&r, "Access-Control-Allow-Origin", "*");
    assert_exposes_contract_headers(&r);
    harness_response_free(&r);
    /* Errors too. */
    r = send(&s, "GET", "/nope", from_app);
    ck_assert_int_eq(r.status, 404);
    assert_exposes_contract_headers(&r);
    harness_response_free(&r);
    /* No Origin, no CORS headers. */
    r = send(&s, "GET", "/healthz", NULL);
    assert_no_header(&r, "Access-Control-Allow-Origin");
    assert_no_header(&r, "Access-Control-Expose-Headers");
    harness_response_free(&r);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

START_TEST(allow_list)
{
    harness_server s;
    START(s, "--cors-origins", "https://a.example,https://b.example", NULL);
    harness_response r =
        send(&s, "GET", "/healthz", (const char *[]){"Origin: https://b.example", NULL});
    assert_header(&r, "Access-Control-Allow-Origin", "https://b.example");
    assert_header(&r, "Vary", "Origin");
    assert_exposes_contract_headers(&r);
    harness_response_free(&r);
    /* Another origin: the answer, but nothing that lets its scripts read it. */
    r = send(&s, "GET", "/healthz", (const char *[]){"Origin: https://c.example", NULL});
    ck_assert_int_eq(r.status, 200);
    assert_no_header(&r, "Access-Control-Allow-Origin");
    assert_no_header(&r, "Access-Control-Expose-Headers");
    assert_header(&r, "Vary", "Origin");
    harness_response_free(&r);
    /* No Origin: no CORS headers, but caches still learn that the answer depends on it. */
    r = send(&s, "GET", "/healthz", NULL);
    ck_assert_int_eq(r.status, 200);
    assert_no_header(&r, "Access-Control-Allow-Origin");
    assert_header(&r, "Vary", "Origin");
    harness_response_free(&r);
    r = send(&s, "OPTIONS", "/solve/nine", (const char *[]){"Origin: https://a.example", NULL});
    ck_assert_int_eq(r.status, 204);
    assert_header(&r, "Access-Control-Allow-Origin", "https://a.example");
    assert_header(&r, "Access-Control-Allow-Methods", "POST, OPTIONS");
    harness_response_free(&r);
    r = send(&s, "OPTIONS", "/solve/nine", (const char *[]){"Origin: https://evil.example", NULL});
    ck_assert_int_eq(r.status, 204);
    assert_no_header(&r, "Access-Control-Allow-Origin");
    harness_response_free(&r);
    r = send(&s, "OPTIONS", "/nope", (const char *[]){"Origin: https://evil.example", NULL});
    ck_assert_int_eq(r.status, 204);
    assert_no_header(&r, "Access-Control-Allow-Origin");
    harness_response_free(&r);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

static Suite *cors_suite(void)
{
    Suite *s = suite_create("cors");
    TCase *tc = tcase_create("cors");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, preflight_names_the_route_methods);
    tcase_add_test(tc, preflight_on_no_route_allows_the_request);
    tcase_add_test(tc, responses_expose_the_contract_headers);
    tcase_add_test(tc, allow_list);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run(cors_suite());
}
