/* The same nine request gets the same answer however busy the server is: its searches are
 * bounded by work, not time. One request alone, then the same request from several threads at
 * once (more than the workers, so they queue and compete for the cores): every move list must be
 * identical. */
#include <check.h>
#include <jansson.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "xorshift.h"
#include "e2e/harness.h"

enum { N = 9, THREADS = 6, ROUNDS = 2 };

static char body[1024];

/* A 9 x 9 board with B the complement of A: every orbit then holds exactly its size in ones,
 * so it is solvable; A from a fixed xorshift stream. */
static void make_body(void)
{
    uint64_t x = 0x2545F4914F6CDD1Dull;
    char a[N][N + 1], b[N][N + 1];
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) {
            a[i][j] = (xorshift64(&x) >> 33) & 1 ? '1' : '0';
            b[i][j] = a[i][j] == '1' ? '0' : '1';
        }
        a[i][N] = b[i][N] = '\0';
    }
    int len = snprintf(body, sizeof body, "{\"a\":[");
    for (int i = 0; i < N; i++)
        len += snprintf(body + len, sizeof body - (size_t)len, "%s\"%s\"", i ? "," : "", a[i]);
    len += snprintf(body + len, sizeof body - (size_t)len, "],\"b\":[");
    for (int i = 0; i < N; i++)
        len += snprintf(body + len, sizeof body - (size_t)len, "%s\"%s\"", i ? "," : "", b[i]);
    snprintf(body + len, sizeof body - (size_t)len, "]}");
}

/* The answer's move list as compact JSON (malloc'd), NULL when the request failed. */
static char *moves_of(const harness_server *s)
{
    harness_response r;
    if (!harness_request(s, "POST", "/solve/nine", "application/json", body, strlen(body), NULL,
                         &r))
        return NULL;
    char *moves = NULL;
    json_t *root = r.status == 200 ? json_loads(r.body, 0, NULL) : NULL;
    json_t *list = root ? json_object_get(root, "moves") : NULL;
    if (json_is_array(list) && json_array_size(list) > 0) moves = json_dumps(list, JSON_COMPACT);
    json_decref(root);
    harness_response_free(&r);
    return moves;
}

typedef struct worker {
    const harness_server *s;
    char *moves[ROUNDS];
} worker;

static void *run_worker(void *arg)
{
    worker *w = arg;
    for (int k = 0; k < ROUNDS; k++) w->moves[k] = moves_of(w->s);
    return NULL;
}

START_TEST(parallel_requests_get_the_same_moves)
{
    make_body();
    harness_server s;
    ck_assert(
        harness_start(&s, (const char *[]){"--workers", "2", "--time-limit-ms", "120000", NULL}));
    char *alone = moves_of(&s);
    ck_assert_ptr_nonnull(alone);
    worker w[THREADS];
    pthread_t t[THREADS];
    for (int k = 0; k < THREADS; k++) {
        w[k] = (worker){&s, {NULL}};
        ck_assert_int_eq(pthread_create(&t[k], NULL, run_worker, &w[k]), 0);
    }
    for (int k = 0; k < THREADS; k++) ck_assert_int_eq(pthread_join(t[k], NULL), 0);
    for (int k = 0; k < THREADS; k++)
        for (int r = 0; r < ROUNDS; r++) {
            ck_assert_ptr_nonnull(w[k].moves[r]);
            ck_assert_str_eq(w[k].moves[r], alone);
            free(w[k].moves[r]);
        }
    free(alone);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("nine_same_answer");
    TCase *tc = tcase_create("nine_same_answer");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, parallel_requests_get_the_same_moves);
    suite_add_tcase(suite, tc);
    return check_run(suite);
}
