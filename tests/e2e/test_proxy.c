/* puzzled replicas behind Debian's nginx with the project's own proxy configuration
 * (docker/nginx/puzzled.conf, its upstream hosts and listen port rewritten to loopback): every
 * puzzle's example answered through the proxy exactly as by a replica directly, request ids
 * passed through and requests spread over the replicas, a streamed 1000 x 1000 answer arriving
 * whole (replayed here), a replica killed mid-run with no request answered wrongly, and the
 * errors nginx makes itself in the contract's JSON. (A replica started again on another address:
 * docker/test.sh, since that needs the proxy image's entrypoint.)
 * Skips, saying so, only when nginx is not installed (.ci/packages/proxy.txt). */
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "check_run.h"
#include "e2e/harness.h"

#define NGINX "/usr/sbin/nginx"
#define PROXY_CONF PUZZLED_TEST_DATA "/../../docker/nginx/puzzled.conf"
#define REPLICAS 2

typedef struct {
    harness_server replica[REPLICAS];
    harness_server proxy;
    char dir[64];
} setup;

/* docker/nginx/puzzled.conf with "puzzled-N:8080" pointing at replica N's loopback port (lines
 * of replicas not started here dropped) and the listen port set. */
static char *rewrite_conf(const setup *t)
{
    size_t len;
    char *conf = harness_read_file(PROXY_CONF, &len);
    ck_assert_msg(conf != NULL, "cannot read %s", PROXY_CONF);
    char *out = malloc(len + 1024);
    size_t n = 0;
    int upstreams = 0;
    for (char *line = conf, *next; *line; line = next) {
        char *end = strchr(line, '\n');
        next = end ? end + 1 : line + strlen(line);
        if (end) *end = '\0'; /* one line at a time */
        int k;
        char *host = strstr(line, "server puzzled-");
        char *listen = strstr(line, "listen 8080;");
        if (host && sscanf(host, "server puzzled-%d:8080", &k) == 1) {
            if (k < 1 || k > REPLICAS) continue;
            n += (size_t)sprintf(out + n, "%.*sserver 127.0.0.1:%d%s\n", (int)(host - line), line,
                                 t->replica[k - 1].port, strstr(host, ":8080") + 5);
            upstreams++;
        } else if (listen) {
            n += (size_t)sprintf(out + n, "%.*slisten 127.0.0.1:%d;\n", (int)(listen - line), line,
                                 t->proxy.port);
        } else {
            n += (size_t)sprintf(out + n, "%s\n", line);
        }
    }
    out[n] = '\0';
    ck_assert_int_eq(upstreams, REPLICAS);
    free(conf);
    return out;
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

/* Two replicas, then nginx as a non-daemon child with its own prefix, pid and temp folders. */
static void start_all(setup *t)
{
    /* The tests check what the proxy passes on, not speed: a budget that a sanitizer build
     * solving 1000 x 1000 beside other tests does not run out of. */
    for (int i = 0; i < REPLICAS; i++)
        ck_assert(
            harness_start(&t->replica[i], (const char *[]){"--time-limit-ms", "120000", NULL}));
    strcpy(t->dir, "/tmp/puzzled-proxy-XXXXXX");
    ck_assert(mkdtemp(t->dir) != NULL);
    t->proxy.port = harness_free_port();
    ck_assert_int_gt(t->proxy.port, 0);
    char *conf = rewrite_conf(t);
    write_file(t->dir, "puzzled.conf", conf);
    free(conf);
    char main_conf[2048];
    snprintf(main_conf, sizeof main_conf,
             "%s" /* as root, the workers must be able to write the temp folders here */
             "daemon off;\nworker_processes 1;\npid %s/nginx.pid;\nerror_log stderr warn;\n"
             "events { worker_connections 256; }\n"
             "http {\n  client_body_temp_path %s/body;\n  proxy_temp_path %s/proxy;\n"
             "  fastcgi_temp_path %s/fastcgi;\n  uwsgi_temp_path %s/uwsgi;\n"
             "  scgi_temp_path %s/scgi;\n  include %s/puzzled.conf;\n}\n",
             geteuid() == 0 ? "user root;\n" : "", t->dir, t->dir, t->dir, t->dir, t->dir, t->dir,
             t->dir);
    write_file(t->dir, "nginx.conf", main_conf);
    char conf_path[128];
    snprintf(conf_path, sizeof conf_path, "%s/nginx.conf", t->dir);
    const char *argv[] = {NGINX, "-e", "stderr", "-p", t->dir, "-c", conf_path, NULL};
    int port = t->proxy.port;
    ck_assert(harness_start_program(&t->proxy, argv, port));
}

static void stop_all(setup *t)
{
    ck_assert_int_eq(harness_stop(&t->proxy), 0);
    for (int i = 0; i < REPLICAS; i++)
        if (t->replica[i].pid > 0) ck_assert_int_eq(harness_stop(&t->replica[i]), 0);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->dir);
    ck_assert_int_eq(system(cmd), 0);
}

static harness_response post(const harness_server *s, const char *slug, const char *type,
                             const char *body, const char *request_id)
{
    char path[2048], header[128];
    snprintf(path, sizeof path, "/solve/%s", slug);
    snprintf(header, sizeof header, "X-Request-Id: %s", request_id);
    harness_response r;
    if (!harness_request(s, "POST", path, type, body, strlen(body), (const char *[]){header, NULL},
                         &r))
        r.status = 0;
    return r;
}

/* How many of a replica's access-log lines carry a request id starting with prefix. */
static int count_ids(const harness_server *s, const char *prefix)
{
    char needle[128];
    snprintf(needle, sizeof needle, "\"request_id\":\"%s", prefix);
    char *log = harness_log(s);
    int n = 0;
    for (char *p = log; (p = strstr(p, needle)) != NULL; p++) n++;
    free(log);
    return n;
}

/* The access log is batched (a line is out within 50 ms): counts once the lines are there, or
 * after 10 s. */
static void count_logged(const harness_server *replicas, const char *prefix, int want, int *a,
                         int *b)
{
    for (int waited = 0;; waited += 10) {
        *a = count_ids(&replicas[0], prefix);
        *b = count_ids(&replicas[1], prefix);
        if (*a + *b >= want || waited >= 10000) return;
        struct timespec ts = {0, 10 * 1000000L};
        nanosleep(&ts, NULL);
    }
}

/* The examples of GET /puzzles (through the proxy): slug, body and type, JSON then text. */
typedef struct {
    char slug[32];
    char *body;
    const char *type;
} example;

static int load_examples(const harness_server *s, example *out, int cap)
{
    harness_response r;
    ck_assert(harness_request(s, "GET", "/puzzles", NULL, NULL, 0, NULL, &r));
    ck_assert_int_eq(r.status, 200);
    json_t *root = json_loadb(r.body, r.body_len, 0, NULL);
    ck_assert_ptr_nonnull(root);
    size_t i;
    json_t *p;
    int n = 0;
    json_array_foreach(json_object_get(root, "puzzles"), i, p)
    {
        ck_assert_int_le(n + 2, cap);
        for (int text = 0; text < 2; text++, n++) {
            snprintf(out[n].slug, sizeof out[n].slug, "%s",
                     json_string_value(json_object_get(p, "slug")));
            out[n].body = text ? strdup(json_string_value(json_object_get(p, "example_text")))
                               : json_dumps(json_object_get(p, "example"), JSON_COMPACT);
            out[n].type = text ? "text/plain" : "application/json";
        }
    }
    json_decref(root);
    harness_response_free(&r);
    ck_assert_int_ge(n, 10); /* five puzzles, each in JSON and in text */
    return n;
}

START_TEST(every_example_through_the_proxy)
{
    setup t;
    start_all(&t);
    example ex[32];
    int n = load_examples(&t.proxy, ex, 32);
    /* Each example three times: round-robin gives every replica some. */
    for (int round = 0; round < 3; round++)
        for (int k = 0; k < n; k++) {
            char id[64];
            snprintf(id, sizeof id, "proxy-%d-%d", round, k);
            harness_response via = post(&t.proxy, ex[k].slug, ex[k].type, ex[k].body, id);
            harness_response direct =
                post(&t.replica[0], ex[k].slug, ex[k].type, ex[k].body, "direct");
            ck_assert_msg(via.status == 200 && direct.status == 200, "%s %s: %ld / %ld", ex[k].slug,
                          ex[k].type, via.status, direct.status);
            ck_assert_msg(via.body_len == direct.body_len &&
                              memcmp(via.body, direct.body, via.body_len) == 0,
                          "%s %s: through the proxy %s, directly %s", ex[k].slug, ex[k].type,
                          via.body, direct.body);
            char echoed[64];
            ck_assert_ptr_nonnull(harness_header(&via, "X-Request-Id", echoed, sizeof echoed));
            ck_assert_str_eq(echoed, id);
            harness_response_free(&via);
            harness_response_free(&direct);
        }
    /* The ids reached the replicas' access logs: every request logged once, on both replicas. */
    int a, b;
    count_logged(t.replica, "proxy-", 3 * n, &a, &b);
    printf("proxy: %d example requests answered as directly; replica 1 logged %d, replica 2 %d\n",
           3 * n, a, b);
    ck_assert_int_eq(a + b, 3 * n);
    ck_assert_int_gt(a, 0);
    ck_assert_int_gt(b, 0);
    /* A request without an id gets one from nginx, the same in the answer and in the log. */
    harness_response r;
    ck_assert(harness_request(&t.proxy, "GET", "/healthz", NULL, NULL, 0, NULL, &r));
    char made[64];
    ck_assert_ptr_nonnull(harness_header(&r, "X-Request-Id", made, sizeof made));
    ck_assert_uint_eq(strlen(made), 32); /* nginx's $request_id: 32 hex digits */
    count_logged(t.replica, made, 1, &a, &b);
    ck_assert_int_eq(a + b, 1);
    harness_response_free(&r);
    for (int k = 0; k < n; k++) free(ex[k].body);
    stop_all(&t);
}
END_TEST

/* ---- a streamed 1000 x 1000 Rubik's Rectangle answer, replayed by this test ---- */

enum { H = 1000, W = 1000 };

static void flip(int *cell, const char *move)
{
    int k = atoi(move + 1) - 1;
    if (move[0] == 'R') {
        ck_assert(k >= 0 && k < H);
        for (int i = 0, j = W - 1; i < j; i++, j--) {
            int x = cell[k * W + i];
            cell[k * W + i] = cell[k * W + j];
            cell[k * W + j] = x;
        }
    } else {
        ck_assert(move[0] == 'C' && k >= 0 && k < W);
        for (int i = 0, j = H - 1; i < j; i++, j--) {
            int x = cell[i * W + k];
            cell[i * W + k] = cell[j * W + k];
            cell[j * W + k] = x;
        }
    }
}

START_TEST(streamed_1000_answer_arrives_whole)
{
    int *cell = malloc(sizeof(int) * H * W);
    for (int i = 0; i < H * W; i++) cell[i] = i + 1;
    srand(11);
    char move[16];
    for (int k = 0; k < 3000; k++) {
        snprintf(move, sizeof move, "%c%d", rand() % 2 ? 'R' : 'C', 1 + rand() % 1000);
        flip(cell, move);
    }
    size_t cap = (size_t)H * W * 8 + 64, len = 0;
    char *body = malloc(cap);
    len += (size_t)snprintf(body, cap, "{\"board\":[");
    for (int i = 0; i < H; i++) {
        body[len++] = i ? ',' : ' ';
        body[len++] = '[';
        for (int j = 0; j < W; j++)
            len += (size_t)snprintf(body + len, cap - len, j ? ",%d" : "%d", cell[i * W + j]);
        body[len++] = ']';
    }
    snprintf(body + len, cap - len, "]}");

    setup t;
    start_all(&t);
    harness_response r = post(&t.proxy, "rubiks-rectangle", "application/json", body, "big-1000");
    ck_assert_msg(r.status == 200, "status %ld: %.200s", r.status, r.body);
    char te[64];
    ck_assert_ptr_nonnull(harness_header(&r, "Transfer-Encoding", te, sizeof te));
    ck_assert_str_eq(te, "chunked");
    json_t *root = json_loadb(r.body, r.body_len, 0, NULL);
    ck_assert_msg(root != NULL, "the answer (%zu bytes) is not whole JSON", r.body_len);
    json_t *moves = json_object_get(root, "moves");
    ck_assert(json_is_true(json_object_get(root, "solvable")));
    ck_assert_int_eq(json_integer_value(json_object_get(root, "move_count")),
                     (json_int_t)json_array_size(moves));
    size_t i;
    json_t *m;
    json_array_foreach(moves, i, m) flip(cell, json_string_value(m));
    for (int k = 0; k < H * W; k++) ck_assert_int_eq(cell[k], k + 1);
    printf("proxy: 1000 x 1000 answer, %zu bytes chunked through nginx, %zu flips replayed\n",
           r.body_len, json_array_size(moves));
    json_decref(root);
    harness_response_free(&r);
    stop_all(&t);
    free(body);
    free(cell);
}
END_TEST

/* ---- a replica killed while requests flow ---- */

#define KILL_TOTAL 400
#define KILL_AFTER 100
#define CLIENTS 4

typedef struct {
    setup *t;
    example *ex;
    int n_ex;
    char **want; /* each example's answer, taken directly from replica 1 */
    pthread_mutex_t lock;
    int next, done, wrong, failed, killed_at;
} kill_run;

static void *client(void *arg)
{
    kill_run *k = arg;
    for (;;) {
        pthread_mutex_lock(&k->lock);
        int i = k->next < KILL_TOTAL ? k->next++ : -1;
        pthread_mutex_unlock(&k->lock);
        if (i < 0) return NULL;
        example *e = &k->ex[i % k->n_ex];
        char id[32];
        snprintf(id, sizeof id, "kill-%d", i);
        harness_response r = post(&k->t->proxy, e->slug, e->type, e->body, id);
        pthread_mutex_lock(&k->lock);
        if (r.status == 0)
            k->failed++;
        else if (r.status != 200 || strcmp(r.body, k->want[i % k->n_ex]) != 0)
            k->wrong++;
        if (++k->done == KILL_AFTER) {
            harness_kill(&k->t->replica[1]); /* SIGKILL: no drain, connections reset */
            k->killed_at = k->done;
        }
        pthread_mutex_unlock(&k->lock);
        harness_response_free(&r);
    }
}

START_TEST(replica_killed_mid_run)
{
    setup t;
    start_all(&t);
    example ex[32];
    int n = load_examples(&t.proxy, ex, 32);
    char *want[32];
    for (int k = 0; k < n; k++) {
        harness_response r = post(&t.replica[0], ex[k].slug, ex[k].type, ex[k].body, "want");
        ck_assert_int_eq(r.status, 200);
        want[k] = strdup(r.body);
        harness_response_free(&r);
    }
    kill_run run = {.t = &t, .ex = ex, .n_ex = n, .want = want};
    pthread_mutex_init(&run.lock, NULL);
    pthread_t th[CLIENTS];
    for (int c = 0; c < CLIENTS; c++) pthread_create(&th[c], NULL, client, &run);
    for (int c = 0; c < CLIENTS; c++) pthread_join(th[c], NULL);
    /* The access log is batched: wait (up to 10 s) for replica 1's lines. */
    int after = count_ids(&t.replica[0], "kill-");
    for (int waited = 0; after < KILL_TOTAL - KILL_AFTER && waited < 10000; waited += 10) {
        nanosleep(&(struct timespec){0, 10 * 1000000L}, NULL);
        after = count_ids(&t.replica[0], "kill-");
    }
    printf("proxy: %d requests, replica 2 killed after %d answers: %d answered wrongly, "
           "%d without an answer; replica 1 logged %d, replica 2 %d before its death\n",
           run.done, run.killed_at, run.wrong, run.failed, after,
           count_ids(&t.replica[1], "kill-"));
    ck_assert_int_eq(run.done, KILL_TOTAL);
    ck_assert_int_eq(run.killed_at, KILL_AFTER);
    ck_assert_int_eq(run.wrong, 0);
    ck_assert_int_eq(run.failed, 0);
    /* Everything after the kill was answered by replica 1. */
    ck_assert_int_ge(after, KILL_TOTAL - KILL_AFTER);
    for (int k = 0; k < n; k++) {
        free(want[k]);
        free(ex[k].body);
    }
    stop_all(&t);
}
END_TEST

/* A response carries the contract's JSON error `code`, the request id sent and CORS. */
static void assert_json_error(const harness_response *r, int status, const char *code,
                              const char *request_id)
{
    ck_assert_int_eq(r->status, status);
    char buf[128];
    ck_assert_ptr_nonnull(harness_header(r, "Content-Type", buf, sizeof buf));
    ck_assert_str_eq(buf, "application/json");
    ck_assert_ptr_nonnull(harness_header(r, "X-Request-Id", buf, sizeof buf));
    ck_assert_str_eq(buf, request_id);
    ck_assert_ptr_nonnull(harness_header(r, "Access-Control-Allow-Origin", buf, sizeof buf));
    json_t *root = json_loadb(r->body, r->body_len, 0, NULL);
    ck_assert_msg(root != NULL, "not JSON: %.*s", (int)r->body_len, r->body);
    const char *got = json_string_value(json_object_get(json_object_get(root, "error"), "code"));
    ck_assert_str_eq(got ? got : "(none)", code);
    json_decref(root);
}

/* Sends raw bytes to the proxy and reads its whole answer (nginx closes after these errors). */
static char *raw_exchange(int port, const char *request)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&addr, sizeof addr), 0);
    struct timeval tv = {10, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    size_t len = strlen(request);
    ck_assert_int_eq(send(fd, request, len, MSG_NOSIGNAL), (ssize_t)len);
    size_t cap = 1 << 16, n = 0;
    char *out = malloc(cap);
    for (ssize_t got; n + 1 < cap && (got = recv(fd, out + n, cap - 1 - n, 0)) > 0;)
        n += (size_t)got;
    out[n] = '\0';
    close(fd);
    return out;
}

/* A raw answer: the status, JSON with the error code, and the request id nginx made (32 hex
 * digits) and CORS, as on every error of the proxy. */
static void assert_raw_json_error(char *reply, int status, const char *code)
{
    int got = 0;
    ck_assert_msg(sscanf(reply, "HTTP/1.1 %d", &got) == 1 && got == status, "want %d: %s", status,
                  reply);
    ck_assert_msg(strstr(reply, "\r\nContent-Type: application/json\r\n"), "%s", reply);
    ck_assert_msg(strstr(reply, "\r\nAccess-Control-Allow-Origin: *\r\n"), "%s", reply);
    const char *id = strstr(reply, "\r\nX-Request-Id: ");
    ck_assert_msg(id && strspn(id + 16, "0123456789abcdef") == 32, "%s", reply);
    const char *body = strstr(reply, "\r\n\r\n");
    ck_assert_ptr_nonnull(body);
    json_t *root = json_loads(body + 4, 0, NULL);
    ck_assert_msg(root != NULL, "not JSON: %s", reply);
    const char *c = json_string_value(json_object_get(json_object_get(root, "error"), "code"));
    ck_assert_str_eq(c ? c : "(none)", code);
    json_decref(root);
    free(reply);
}

/* The errors nginx makes itself (docker/nginx/puzzled.conf, error_page) look like puzzled's:
 * a body over 16 MiB is 413 body_too_large, no replica left is 503 overloaded with Retry-After,
 * a request nginx cannot read or will not pass is 400, 405, 414, 431 or 505 as puzzled would
 * answer it, all JSON with the request id and CORS, so that a page on another origin can read
 * them. Headers puzzled takes (up to 32 KiB) pass. */
START_TEST(proxy_errors_are_the_contracts)
{
    setup t;
    start_all(&t);
    size_t big = ((size_t)16 << 20) + 1;
    char *body = malloc(big);
    memset(body, '1', big);
    harness_response r;
    ck_assert(harness_request(&t.proxy, "POST", "/solve/nine", "application/json", body, big,
                              (const char *[]){"X-Request-Id: big-1", NULL}, &r));
    assert_json_error(&r, 413, "body_too_large", "big-1");
    harness_response_free(&r);
    free(body);

    /* A 10 000-byte header is within puzzled's 32 KiB: it passes. A 40 000-byte one does not. */
    char *pad = malloc(40 * 1024);
    memcpy(pad, "X-Pad: ", 7);
    memset(pad + 7, 'x', 10000);
    pad[10007] = '\0';
    ck_assert(harness_request(&t.proxy, "GET", "/healthz", NULL, NULL, 0,
                              (const char *[]){pad, NULL}, &r));
    ck_assert_int_eq(r.status, 200);
    harness_response_free(&r);
    char *request = malloc(48 * 1024);
    memset(pad + 7, 'x', 40000);
    pad[40007] = '\0';
    snprintf(request, 48 * 1024, "GET /healthz HTTP/1.1\r\nHost: x\r\n%s\r\n\r\n", pad);
    assert_raw_json_error(raw_exchange(t.proxy.port, request), 431, "headers_too_large");
    snprintf(request, 48 * 1024, "GET /%s HTTP/1.1\r\nHost: x\r\n\r\n", pad + 7);
    assert_raw_json_error(raw_exchange(t.proxy.port, request), 414, "headers_too_large");
    free(request);
    free(pad);
    /* TRACE never reaches a replica; the Allow header is the one puzzled sends for the path. */
    const char *trace[][2] = {{"/healthz", "GET, HEAD, OPTIONS"}, {"/solve/nine", "POST, OPTIONS"}};
    for (int i = 0; i < 2; i++) {
        char line[128], allow[64];
        snprintf(line, sizeof line, "TRACE %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                 trace[i][0]);
        char *reply = raw_exchange(t.proxy.port, line);
        snprintf(allow, sizeof allow, "\r\nAllow: %s\r\n", trace[i][1]);
        ck_assert_msg(strstr(reply, allow), "TRACE %s: %s", trace[i][0], reply);
        assert_raw_json_error(reply, 405, "method_not_allowed");
    }
    assert_raw_json_error(raw_exchange(t.proxy.port, "GET /healthz HTTP/1.1\r\n\r\n"), 400,
                          "invalid_request");
    /* The proxy's own error paths are not reachable from outside. */
    assert_raw_json_error(
        raw_exchange(t.proxy.port,
                     "GET /_puzzled_errors/400 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
        404, "not_found");
    assert_raw_json_error(raw_exchange(t.proxy.port, "GET /healthz HTTP/3.0\r\nHost: x\r\n\r\n"),
                          505, "http_version_not_supported");

    /* An id puzzled would replace is replaced at the door: the answer and both logs carry the
     * one nginx made. */
    ck_assert(harness_request(&t.proxy, "GET", "/healthz", NULL, NULL, 0,
                              (const char *[]){"X-Request-Id: has space", NULL}, &r));
    char made[64];
    ck_assert_ptr_nonnull(harness_header(&r, "X-Request-Id", made, sizeof made));
    ck_assert_uint_eq(strspn(made, "0123456789abcdef"), 32);
    int a, b;
    count_logged(t.replica, made, 1, &a, &b);
    ck_assert_int_eq(a + b, 1);
    harness_response_free(&r);
    for (int i = 0; i < REPLICAS; i++) ck_assert_int_eq(harness_stop(&t.replica[i]), 0);
    r = post(&t.proxy, "invariant-boards", "application/json", "{\"n\":4}", "none-left");
    assert_json_error(&r, 503, "overloaded", "none-left");
    char buf[16];
    ck_assert_ptr_nonnull(harness_header(&r, "Retry-After", buf, sizeof buf));
    harness_response_free(&r);
    stop_all(&t);
}
END_TEST

int main(void)
{
    if (access(NGINX, X_OK) != 0) {
        printf("SKIPPED: %s is not installed (apt-get install nginx-light, see "
               ".ci/packages/proxy.txt)\n",
               NGINX);
        return TEST_SKIPPED;
    }
    Suite *s = suite_create("e2e_proxy");
    TCase *tc = tcase_create("proxy");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, every_example_through_the_proxy);
    tcase_add_test(tc, streamed_1000_answer_arrives_whole);
    tcase_add_test(tc, replica_killed_mid_run);
    tcase_add_test(tc, proxy_errors_are_the_contracts);
    suite_add_tcase(s, tc);
    return check_run(s);
}
