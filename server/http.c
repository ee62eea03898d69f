#include "http.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <malloc.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "accesslog.h"
#include "answer.h"
#include "cors.h"
#include "freelist.h"
#include "json_arena.h"
#include "metrics.h"
#include "mhd_errors.h"
#include "pool.h"
#include "registry.h"
#include "static_assets.h"
#include "sysres.h"
#include "utf8.h"
#include "watch.h"

#define CONNECTION_TIMEOUT_S 75u /* longer than a proxy's usual keep-alive (60 s) */
/* Per connection: headers and the send buffer. libmicrohttpd clears it between requests, so
 * bigger costs time on every request. */
#define CONNECTION_MEMORY 32768u
#define STREAM_BLOCK 16384u /* bytes asked of the content reader at a time */
#define PATH_LOG_MAX 256
#define BODY_FIRST_CAP 4096u
#define DISCARD_MAX ((size_t)64 << 20) /* read past the cap, to answer 413 */
/* An answer up to this size is encoded by the worker into the request itself and sent from
 * there with a Content-Length: one send() for headers and body, nothing more to allocate. A
 * longer one streams (chunked) through the content reader, starting with these bytes. */
#define ANSWER_INLINE 4096u
#define REQUESTS_KEPT 256u /* free request structs kept per HTTP thread */
/* After a request whose body or answer was at least this large, freed heap is given back to
 * the system (malloc_trim, on the watch thread): glibc keeps what a parse or a 10^5-instance
 * answer freed, tens of MiB, for reuse otherwise. */
#define TRIM_AFTER_BYTES ((size_t)256 << 10)
#define TRIM_AFTER_SOLVE_MS 20
/* Bodies held at once by default: this share of the memory limit, within [max_body, 256 MiB]
 * (16 bodies of the default 16 MiB limit). */
#define BODY_MEMORY_SHARE 8
#define BODY_MEMORY_DEFAULT_MAX ((size_t)256 << 20)

#define ALLOW_GET "GET, HEAD, OPTIONS"
#define ALLOW_SOLVE "POST, OPTIONS"
#define ALLOW_ANY "GET, HEAD, POST, OPTIONS" /* OPTIONS * and paths that are no route */

struct http_server {
    server_config cfg;
    struct MHD_Daemon *daemon;
    pool *pool;
    atomic_bool draining;
    atomic_bool grace_over;  /* the drain cancelled the work still running */
    atomic_size_t in_flight; /* requests from their first call to their completion */
    /* Cores that no solve is using: each running job holds one, a helper thread one more
     * (budget.idle_cores); negative when more solves run than there are cores. */
    atomic_int idle_cores;
    atomic_size_t suspended; /* connections suspended for a job */
    watch *watch;            /* deadlines, departed clients (watch.h) */
    size_t body_memory;      /* bytes of bodies held at once, at most ... */
    atomic_size_t body_held; /* ... and now */
    char *puzzles_json;
    size_t puzzles_len;
    unsigned port;
    freelist requests; /* request structs, reused */
};

typedef enum route {
    ROUTE_NOT_FOUND,
    ROUTE_SOLVE,
    ROUTE_PUZZLES,
    ROUTE_HEALTHZ,
    ROUTE_READYZ,
    ROUTE_METRICS,
    ROUTE_STATIC, /* an embedded file: the page, its scripts, the spec */
} route;

typedef enum request_state {
    STATE_ANSWERED, /* a response is queued: nothing more to do */
    STATE_DEFERRED, /* no body: decide on the final call, which keeps the connection alive */
    STATE_RECEIVING,
    STATE_SOLVING, /* suspended; the job is in the pool */
} request_state;

/* Everything one request needs, in one allocation; freed when libmicrohttpd completes it. */
typedef struct request {
    pool_job job; /* first: the pool hands back &job */
    http_server *srv;
    struct MHD_Connection *conn;
    watch_conn *wc;     /* the connection's watch record */
    atomic_bool cancel; /* set when the client leaves, or past the drain's grace */
    struct timespec admitted;
    size_t held;      /* bytes of body_memory this request holds */
    bool bodies_full; /* body_memory was exhausted during the upload: answer 503 */
    bool close;       /* answer with Connection: close (a request that broke framing) */
    request_state state;
    const api_puzzle *puzzle; /* set on /solve/{puzzle} when the slug is known */
    api_format fmt;
    char *body; /* NUL-terminated; len bytes */
    size_t len, cap;
    size_t announced; /* its Content-Length (0: none, or chunked) */
    bool oversize;
    size_t discarded;          /* bytes dropped once oversize */
    api_answer *answer;        /* the worker's result (NULL once wholly in head) ... */
    api_error err;             /* ... or its error */
    const char *answer_type;   /* the answer's Content-Type */
    bool answered;             /* the worker produced an answer, not an error */
    size_t head_len, head_pos; /* the answer's first bytes, encoded by the worker, in head */
    struct timespec start_mono, start_real;
    int status;
    uint64_t bytes;
    char method[16];
    char path[PATH_LOG_MAX];
    char request_id[REQUEST_ID_MAX + 1];
    char head[ANSWER_INLINE]; /* last: request_new clears everything before it */
} request;

static double seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/* ---- responses ---------------------------------------------------------------------- */

static void add_cors(request *r, struct MHD_Response *resp)
{
    cors_add(&r->srv->cfg, r->conn, resp);
}

/* Queues resp with the headers every response carries, and counts it. */
static enum MHD_Result send_response(request *r, int status, struct MHD_Response *resp,
                                     const char *content_type)
{
    if (!resp) return MHD_NO;
    if (content_type) MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
    MHD_add_response_header(resp, "X-Request-Id", r->request_id);
    add_cors(r, resp);
    /* While draining, ask keep-alive clients to go elsewhere for their next request. */
    if (atomic_load(&r->srv->draining) || r->close)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
    watch_busy(r->srv->watch, r->wc); /* answered: the request deadline no longer applies */
    r->status = status;
    r->state = STATE_ANSWERED;
    metrics_record(r->puzzle, status, seconds_since(&r->start_mono));
    enum MHD_Result ok = MHD_queue_response(r->conn, (unsigned)status, resp);
    MHD_destroy_response(resp);
    return ok;
}

/* A body that lives as long as the process (assets, fixed JSON). */
static enum MHD_Result send_static(request *r, int status, const char *content_type,
                                   const void *data, size_t len)
{
    struct MHD_Response *resp = response_from_static(data, len);
    r->bytes = len;
    return send_response(r, status, resp, content_type);
}

/* A malloc'd body, freed by libmicrohttpd. */
static enum MHD_Result send_owned(request *r, int status, const char *content_type, char *data,
                                  size_t len)
{
    struct MHD_Response *resp = response_from_owned(data, len);
    r->bytes = len;
    return send_response(r, status, resp, content_type);
}

static enum MHD_Result send_api_error(request *r, const api_error *err, const char *allow)
{
    int status = api_error_status(err->code);
    size_t len = 0;
    char *json = api_error_json(err, &len);
    struct MHD_Response *resp;
    if (json) {
        resp = response_from_owned(json, len);
    } else {
        static const char oom[] =
            "{\"error\":{\"code\":\"internal_error\",\"message\":\"Out of memory.\"}}";
        len = sizeof oom - 1;
        resp = response_from_static(oom, len);
    }
    if (!resp) return MHD_NO;
    if (allow) MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, allow);
    if (err->code == API_OVERLOADED) MHD_add_response_header(resp, "Retry-After", "1");
    r->bytes = len;
    return send_response(r, status, resp, "application/json");
}

__attribute__((format(printf, 4, 5))) static enum MHD_Result
send_error(request *r, api_error_code code, const char *allow, const char *fmt, ...)
{
    api_error err;
    va_list ap;
    va_start(ap, fmt);
    api_failv(&err, code, NULL, fmt, ap); /* quotes request bytes safely */
    va_end(ap);
    return send_api_error(r, &err, allow);
}

/* The content reader: runs on the HTTP thread and only copies bytes the codec encodes. */
static ssize_t read_answer(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    request *r = cls;
    size_t n;
    if (r->head_pos < r->head_len) { /* first what the worker encoded already */
        n = r->head_len - r->head_pos;
        if (n > max) n = max;
        memcpy(buf, r->head + r->head_pos, n);
        r->head_pos += n;
    } else {
        n = api_answer_read(r->answer, buf, max);
    }
    if (n == 0) return MHD_CONTENT_READER_END_OF_STREAM;
    r->bytes += n;
    return (ssize_t)n;
}

static enum MHD_Result send_answer(request *r)
{
    if (!r->answer) /* whole in head, which lives until the request completes */
        return send_static(r, MHD_HTTP_OK, r->answer_type, r->head, r->head_len);
    struct MHD_Response *resp =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, STREAM_BLOCK, read_answer, r, NULL);
    return send_response(r, MHD_HTTP_OK, resp, r->answer_type);
}

/* ---- routes --------------------------------------------------------------------------- */

static route match_route(const char *url, const api_puzzle **puzzle)
{
    *puzzle = NULL;
    if (strncmp(url, "/solve/", 7) == 0) {
        /* /solve/{puzzle} has one segment: /solve/nine/extra is no route at all. */
        if (strchr(url + 7, '/')) return ROUTE_NOT_FOUND;
        *puzzle = registry_find(url + 7);
        return ROUTE_SOLVE;
    }
    static const struct {
        const char *path;
        route route;
    } fixed[] = {
        {"/puzzles", ROUTE_PUZZLES},
        {"/healthz", ROUTE_HEALTHZ},
        {"/readyz", ROUTE_READYZ},
        {"/metrics", ROUTE_METRICS},
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (strcmp(url, fixed[i].path) == 0) return fixed[i].route;
    if (static_asset_find(url)) return ROUTE_STATIC;
    return ROUTE_NOT_FOUND;
}

/* The methods a route answers (its Allow header), or NULL when there is no such route. */
static const char *route_methods(route rt)
{
    switch (rt) {
    case ROUTE_NOT_FOUND:
        return NULL;
    case ROUTE_SOLVE:
        return ALLOW_SOLVE;
    default:
        return ALLOW_GET;
    }
}

/* A preflight (or a plain OPTIONS) advertises exactly the methods of the route it names, so a
 * preflight for a method the route refuses fails in the browser, as the request itself would
 * (405). Every /solve/{x} is the solve route, so that the real POST can answer 404
 * unknown_puzzle readably. A path that is no route answers 204 as well (openapi.yaml: OPTIONS on
 * any path) with every method the server has: the browser then sends the request, and the page
 * can read its 404 not_found. */
static enum MHD_Result send_preflight(request *r)
{
    const api_puzzle *puzzle;
    bool whole_server = strcmp(r->path, "*") == 0;
    const char *methods = whole_server ? NULL : route_methods(match_route(r->path, &puzzle));
    if (!methods) methods = ALLOW_ANY;
    struct MHD_Response *resp = response_from_static("", 0);
    if (!resp) return MHD_NO;
    MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, methods);
    if (!whole_server) cors_add_preflight(r->conn, resp, methods);
    r->bytes = 0;
    return send_response(r, MHD_HTTP_NO_CONTENT, resp, NULL);
}

static enum MHD_Result send_get_route(request *r, route rt)
{
    http_server *s = r->srv;
    switch (rt) {
    case ROUTE_PUZZLES:
        return send_static(r, MHD_HTTP_OK, "application/json", s->puzzles_json, s->puzzles_len);
    case ROUTE_HEALTHZ: {
        static const char ok[] = "{\"status\":\"ok\"}";
        return send_static(r, MHD_HTTP_OK, "application/json", ok, sizeof ok - 1);
    }
    case ROUTE_READYZ: {
        static const char ready[] = "{\"status\":\"ready\"}";
        static const char draining[] = "{\"status\":\"draining\"}";
        static const char overloaded[] = "{\"status\":\"overloaded\"}";
        if (atomic_load(&s->draining))
            return send_static(r, MHD_HTTP_SERVICE_UNAVAILABLE, "application/json", draining,
                               sizeof draining - 1);
        /* Not ready either when bodies held leave no room in --body-memory for a new one's
         * first buffer (4 KiB): a solve whose body needs more is refused. */
        size_t held = atomic_load(&s->body_held);
        if (pool_full(s->pool) || (held > 0 && held + BODY_FIRST_CAP > s->body_memory))
            return send_static(r, MHD_HTTP_SERVICE_UNAVAILABLE, "application/json", overloaded,
                               sizeof overloaded - 1);
        return send_static(r, MHD_HTTP_OK, "application/json", ready, sizeof ready - 1);
    }
    case ROUTE_METRICS: {
        metrics_gauges g = {pool_queued(s->pool), pool_running(s->pool),
                            atomic_load(&s->in_flight)};
        size_t len = 0;
        char *text = metrics_render(&g, &len);
        if (!text) return send_error(r, API_INTERNAL, NULL, "Out of memory rendering metrics.");
        return send_owned(r, MHD_HTTP_OK, "text/plain; version=0.0.4; charset=utf-8", text, len);
    }
    case ROUTE_STATIC: {
        const static_asset *a = static_asset_find(r->path);
        if (a) return send_static(r, MHD_HTTP_OK, a->content_type, a->data, *a->len);
        return send_error(r, API_NOT_FOUND, NULL, "No route %s.", r->path);
    }
    default:
        return send_error(r, API_NOT_FOUND, NULL, "No route %s.", r->path);
    }
}

/* ---- the bodies' memory -----------------------------------------------------------------------
 */

/* Raises what r holds of body_memory to `bytes`; false (nothing changed) when that would pass
 * the total. */
static bool hold_body(request *r, size_t bytes)
{
    if (bytes <= r->held) return true;
    http_server *s = r->srv;
    size_t more = bytes - r->held;
    size_t before = atomic_fetch_add(&s->body_held, more);
    if (before + more > s->body_memory) {
        atomic_fetch_sub(&s->body_held, more);
        return false;
    }
    r->held = bytes;
    return true;
}

static void release_body(request *r)
{
    free(r->body);
    r->body = NULL;
    if (r->held) atomic_fetch_sub(&r->srv->body_held, r->held);
    r->held = 0;
}

static enum MHD_Result send_bodies_full(request *r)
{
    return send_error(r, API_OVERLOADED, NULL,
                      "The server holds as many request bodies as it may (%zu bytes); retry in a "
                      "moment.",
                      r->srv->body_memory);
}

/* ---- HTTP framing (RFC 9112) -------------------------------------------------------------- */

typedef struct framing {
    unsigned content_length, transfer_encoding, host;
    bool lengths_differ, length_not_digits, not_chunked, bad_line;
    const char *first_length;
} framing;

/* A header name is an RFC 9110 token; anything else in it (a space before the colon) could make
 * a proxy and this server read different headers. A line folded onto the next is joined into
 * the name by libmicrohttpd 0.9.75 ("Transfer-Encoding:" CRLF " chunked" arrives as the name
 * "Transfer-Encodingchunked"), so a name that only begins like a framing header is refused
 * too. */
static bool header_name_ok(const char *key, size_t len)
{
    static const char *const framing_names[] = {"Content-Length", "Transfer-Encoding"};
    for (size_t k = 0; k < 2; k++) {
        size_t n = strlen(framing_names[k]);
        if (len > n && strncasecmp(key, framing_names[k], n) == 0) return false;
    }
    if (!len) return false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)key[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              (c && strchr("!#$%&'*+-.^_`|~", c))))
            return false;
    }
    return true;
}

/* A header value holds no CR or LF (RFC 9110 5.5), nor a NUL where its length shows one (the
 * library cuts a value at a NUL before it gets here, a limit of 0.9.75). */
static bool header_value_ok(const char *value, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (value[i] == '\0' || value[i] == '\r' || value[i] == '\n') return false;
    return true;
}

static bool only_digits(const char *v)
{
    if (!*v) return false;
    for (; *v; v++)
        if (*v < '0' || *v > '9') return false;
    return true;
}

static enum MHD_Result count_header(void *cls, enum MHD_ValueKind kind, const char *key,
                                    size_t key_size, const char *value, size_t value_size)
{
    (void)kind;
    framing *f = cls;
    if (!value) value = "", value_size = 0;
    if (!header_name_ok(key, key_size) || !header_value_ok(value, value_size)) f->bad_line = true;
    if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0) {
        if (!only_digits(value)) f->length_not_digits = true;
        if (f->content_length++ && strcmp(value, f->first_length) != 0) f->lengths_differ = true;
        if (!f->first_length) f->first_length = value;
    } else if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0) {
        f->transfer_encoding++;
        if (strcasecmp(value, "chunked") != 0) f->not_chunked = true;
    } else if (strcasecmp(key, MHD_HTTP_HEADER_HOST) == 0) {
        f->host++;
    }
    return MHD_YES;
}

/* The request's framing and path before anything else: what a proxy in front could read
 * differently (two lengths, a length beside chunked, a coding this server cannot undo), a
 * missing Host, or a control character encoded into the path, is refused with 400 and the
 * connection closed. NULL when the request is fine, else the reason. */
static const char *framing_error(request *r, const char *version)
{
    framing f = {0};
    MHD_get_connection_values_n(r->conn, MHD_HEADER_KIND, count_header, &f);
    if (watch_take_bad_path(r->wc))
        return "The path holds an encoded control character (such as %00); no route has one.";
    if (f.bad_line)
        return "A header line is not valid HTTP: its name must be a token right before the colon "
               "(no space, no line folded onto the next), and its value must hold no CR.";
    if (f.lengths_differ) return "The request has Content-Length headers that disagree.";
    if (f.length_not_digits) return "The Content-Length header is not a decimal number.";
    if (f.transfer_encoding && strcmp(version, MHD_HTTP_VERSION_1_0) == 0)
        return "An HTTP/1.0 request cannot use Transfer-Encoding (RFC 9112, section 6.1); send "
               "Content-Length.";
    if (f.transfer_encoding && f.content_length)
        return "The request has both Transfer-Encoding and Content-Length; send one.";
    if (f.transfer_encoding > 1 || f.not_chunked)
        return "The only Transfer-Encoding accepted is \"chunked\" (no gzip, no identity).";
    if (f.host > 1) return "The request has more than one Host header.";
    /* HTTP/1.2 and later 1.x are served as 1.1 (RFC 9112, section 2.6), Host included. */
    if (f.host == 0 && strcmp(version, MHD_HTTP_VERSION_1_0) != 0)
        return "An HTTP/1.1 request needs a Host header.";
    return NULL;
}

/* The first call: headers are in, no body yet. Everything that can be decided now is, so
 * that a refused upload is never read (and 100 Continue is never sent for it). */
static enum MHD_Result begin_request(request *r, const char *url, const char *method)
{
    if (strcmp(method, MHD_HTTP_METHOD_OPTIONS) == 0) return send_preflight(r);
    const api_puzzle *puzzle;
    route rt = match_route(url, &puzzle);
    if (rt == ROUTE_NOT_FOUND)
        return send_error(r, API_NOT_FOUND, NULL,
                          "There is no route %s; see GET /openapi.yaml for the routes.", r->path);
    bool get =
        strcmp(method, MHD_HTTP_METHOD_GET) == 0 || strcmp(method, MHD_HTTP_METHOD_HEAD) == 0;
    if (rt != ROUTE_SOLVE) {
        if (!get)
            return send_error(r, API_METHOD_NOT_ALLOWED, ALLOW_GET,
                              "%s does not accept %s; use GET.", r->path, r->method);
        return send_get_route(r, rt);
    }
    if (strcmp(method, MHD_HTTP_METHOD_POST) != 0)
        return send_error(r, API_METHOD_NOT_ALLOWED, ALLOW_SOLVE,
                          "%s does not accept %s; use POST with the instance as the body.", r->path,
                          r->method);
    if (!puzzle)
        return send_error(r, API_UNKNOWN_PUZZLE, NULL,
                          "There is no puzzle \"%s\"; GET /puzzles lists the puzzles.", url + 7);
    r->puzzle = puzzle;
    const char *ctype =
        MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    if (!api_format_from_content_type(ctype, &r->fmt))
        return send_error(r, API_UNSUPPORTED_MEDIA_TYPE, NULL,
                          "Send the body as application/json or as text/plain (the contest "
                          "input), with a Content-Type header saying which.");
    const char *clen =
        MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    size_t max = r->srv->cfg.max_body;
    if (clen) {
        unsigned long long n = strtoull(clen, NULL, 10);
        if (n > max)
            return send_error(r, API_BODY_TOO_LARGE, NULL,
                              "The body has %llu bytes; this server accepts at most %zu.", n, max);
        /* Only a first buffer before the bytes arrive; the body grows as they come
         * (take_body) and ends at the announced size exactly. What is allocated counts against
         * --body-memory: a full server refuses the upload before reading it, and a client that
         * announces 16 MiB and sends nothing holds 4 KiB, so promises alone cannot fill it. */
        if (n > 0) {
            size_t cap = n < BODY_FIRST_CAP ? (size_t)n + 1 : BODY_FIRST_CAP;
            r->announced = (size_t)n;
            if (!hold_body(r, cap)) return send_bodies_full(r);
            r->body = malloc(cap);
            if (!r->body)
                return send_error(r, API_INTERNAL, NULL, "Out of memory for the request body.");
            r->cap = cap;
        }
    }
    r->state = STATE_RECEIVING;
    return MHD_YES;
}

/* A data call: append to the capped buffer; past the cap, drop the body and remember, so that
 * the final call answers 413. Returns false when the client keeps sending far past the cap
 * (more than DISCARD_MAX bytes dropped): the connection is then closed without an answer
 * rather than read forever. */
/* From here on the body is dropped, not kept; the final call answers 413. */
static void drop_body(request *r, size_t incoming)
{
    r->oversize = true;
    r->discarded = r->len + incoming;
    release_body(r);
    r->len = r->cap = 0;
}

static bool take_body(request *r, const char *data, size_t size)
{
    size_t max = r->srv->cfg.max_body;
    if (r->oversize) {
        r->discarded += size;
        return r->discarded <= DISCARD_MAX;
    }
    if (size > max - r->len) {
        drop_body(r, size);
        return true;
    }
    size_t need = r->len + size + 1;
    if (need > r->cap) {
        size_t cap = r->cap ? r->cap : BODY_FIRST_CAP;
        while (cap < need) cap *= 2;
        if (r->announced && need <= r->announced + 1 && cap > r->announced + 1)
            cap = r->announced + 1; /* the last growth: no slack past what is coming */
        if (cap > max + 1) cap = max + 1;
        if (!hold_body(r, cap)) { /* past the total: 503 once the body has ended */
            drop_body(r, size);
            r->bodies_full = true;
            return true;
        }
        char *grown = realloc(r->body, cap);
        if (!grown) { /* answered as too large: the server cannot hold it */
            drop_body(r, size);
            return true;
        }
        r->body = grown;
        r->cap = cap;
    }
    memcpy(r->body + r->len, data, size);
    r->len += size;
    r->body[r->len] = '\0';
    return true;
}

/* ---- the hand-off to the pool ------------------------------------------------------------ */

static void job_solve(pool_job *job, const atomic_bool *cancel)
{
    request *r = (request *)job;
    /* One flag per job, which the watch sets when the client leaves; the pool's flag (a drain
     * past its grace) is set on every job's by watch_cancel_all, and looked at once here. */
    if (atomic_load(cancel)) atomic_store(&r->cancel, true);
    /* The budget runs from admission: time in the queue counts. */
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long waited = (long)(now.tv_sec - r->admitted.tv_sec) * 1000 +
                  (now.tv_nsec - r->admitted.tv_nsec) / 1000000L;
    budget b;
    budget_init_ms(&b, r->srv->cfg.time_limit_ms - waited, &r->cancel);
    b.threads = (int)r->srv->cfg.solve_threads;
    b.idle_cores = &r->srv->idle_cores;
    r->err.code = API_OK;
    atomic_fetch_sub_explicit(&r->srv->idle_cores, 1, memory_order_relaxed);
    json_arena_begin(); /* the parse tree is dropped inside api_answer_solve */
    r->answer = api_answer_solve(r->puzzle, r->fmt, r->body ? r->body : "", r->len, &b, &r->err);
    json_arena_end();
    atomic_fetch_add_explicit(&r->srv->idle_cores, 1, memory_order_relaxed);
    if (!r->answer && r->err.code == API_OK)
        api_fail(&r->err, API_INTERNAL, NULL, "The solver failed without saying why.");
    /* Cut off by the drain, not by its budget: another instance may take it (a proxy retries
     * a 503 elsewhere; a 422 would be final). */
    if (!r->answer && r->err.code == API_TIME_LIMIT && atomic_load(&r->srv->grace_over))
        api_fail(&r->err, API_OVERLOADED, NULL,
                 "The server shut down before this solve finished; retry in a moment (another "
                 "instance will take it).");
    /* A large body was parsed, or a long solve may have built large tables (Mayan's reach
     * 64 MiB): give the freed memory back. */
    clock_gettime(CLOCK_MONOTONIC, &now);
    long took = (long)(now.tv_sec - r->admitted.tv_sec) * 1000 +
                (now.tv_nsec - r->admitted.tv_nsec) / 1000000L - waited;
    if (r->len >= TRIM_AFTER_BYTES || took >= TRIM_AFTER_SOLVE_MS)
        watch_request_trim(r->srv->watch);
    release_body(r); /* parsed: the answer holds what it needs */
    if (!r->answer) return;
    /* Encode the first ANSWER_INLINE bytes here, off the HTTP thread; when that is the whole
     * answer, the HTTP thread only sends it. */
    r->answered = true;
    r->answer_type = api_answer_content_type(r->answer);
    for (;;) {
        size_t n = api_answer_read(r->answer, r->head + r->head_len, sizeof r->head - r->head_len);
        if (n == 0) {
            api_answer_free(r->answer);
            r->answer = NULL;
            return;
        }
        r->head_len += n;
        if (r->head_len == sizeof r->head) return; /* more to come: it streams */
    }
}

static void job_finish(pool_job *job)
{
    request *r = (request *)job;
    watch_solved(r->srv->watch, r->wc); /* before resuming: r->cancel is not touched again */
    /* The last touch: from here on the HTTP thread owns r and may free it at any moment. */
    MHD_resume_connection(r->conn);
}

/* The final upload call: admit the job or refuse at once. */
static enum MHD_Result dispatch_solve(request *r)
{
    http_server *s = r->srv;
    if (r->bodies_full) return send_bodies_full(r);
    if (r->oversize)
        return send_error(r, API_BODY_TOO_LARGE, NULL,
                          "The body is larger than this server accepts (%zu bytes).",
                          s->cfg.max_body);
    if (atomic_load(&s->draining))
        return send_error(r, API_OVERLOADED, NULL,
                          "The server is shutting down; retry in a moment (another instance "
                          "will take it).");
    if (!pool_reserve(s->pool))
        return send_error(r, API_OVERLOADED, NULL,
                          "Every worker is busy (%u) and the waiting line is full (%u); retry "
                          "in a moment.",
                          s->cfg.workers, s->cfg.queue);
    r->state = STATE_SOLVING;
    clock_gettime(CLOCK_MONOTONIC, &r->admitted);
    atomic_init(&r->cancel, false);
    watch_solving(s->watch, r->wc, &r->cancel);
    atomic_fetch_add(&s->suspended, 1);
    /* Suspend before the job can possibly finish and resume. */
    MHD_suspend_connection(r->conn);
    pool_submit(s->pool, &r->job);
    return MHD_YES;
}

/* ---- libmicrohttpd callbacks ------------------------------------------------------------ */

static request *request_new(http_server *s, struct MHD_Connection *conn, const char *url,
                            const char *method)
{
    request *r = freelist_take(&s->requests);
    if (!r) return NULL;
    memset(r, 0, offsetof(request, head)); /* head is written before it is read */
    r->srv = s;
    r->conn = conn;
    r->job.solve = job_solve;
    r->job.finish = job_finish;
    clock_gettime(CLOCK_MONOTONIC, &r->start_mono);
    clock_gettime(CLOCK_REALTIME, &r->start_real);
    utf8_sanitize(r->method, sizeof r->method, method, strlen(method));
    /* Quoted into messages and the access log: invalid UTF-8 escaped, never cut in a char. */
    utf8_sanitize(r->path, sizeof r->path, url, strlen(url));
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    r->wc = ci ? ci->socket_context : NULL;
    accesslog_request_id(MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Request-Id"),
                         r->request_id);
    atomic_fetch_add(&s->in_flight, 1);
    return r;
}

/* True when the request announces a body. A response queued before the body is read makes
 * libmicrohttpd close the connection, which is right for a refused upload, but a request
 * without a body is better answered on its final call, keeping the connection alive. */
static bool has_body(struct MHD_Connection *conn)
{
    const char *clen =
        MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (clen && strtoull(clen, NULL, 10) > 0) return true;
    return MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING) !=
           NULL;
}

/* The path of a request target: a target in absolute form ("http://host/path", which RFC 9112
 * section 3.2.2 says a server must accept) is reduced to its path, "/" when it has none. */
static const char *target_path(const char *url)
{
    size_t scheme = strncasecmp(url, "http://", 7) == 0    ? 7
                    : strncasecmp(url, "https://", 8) == 0 ? 8
                                                           : 0;
    if (!scheme) return url;
    const char *path = strchr(url + scheme, '/');
    return path ? path : "/";
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **req_cls)
{
    request *r = *req_cls;
    url = target_path(url);
    if (!r) {
        r = request_new(cls, conn, url, method);
        if (!r) return MHD_NO;
        *req_cls = r;
        const char *framing = framing_error(r, version);
        if (framing) {
            r->close = true;
            return send_error(r, API_INVALID_REQUEST, NULL, "%s", framing);
        }
        if (!has_body(conn)) {
            r->state = STATE_DEFERRED;
            return MHD_YES;
        }
        return begin_request(r, url, method);
    }
    switch (r->state) {
    case STATE_DEFERRED: {
        *upload_data_size = 0;
        enum MHD_Result ok = begin_request(r, url, method);
        /* A bodiless solve request: the (empty) body is complete already. */
        if (ok == MHD_YES && r->state == STATE_RECEIVING) return dispatch_solve(r);
        return ok;
    }
    case STATE_RECEIVING:
        if (*upload_data_size) {
            bool keep = take_body(r, upload_data, *upload_data_size);
            *upload_data_size = 0;
            return keep ? MHD_YES : MHD_NO;
        }
        return dispatch_solve(r);
    case STATE_SOLVING: /* resumed by the worker */
        atomic_fetch_sub(&r->srv->suspended, 1);
        r->state = STATE_ANSWERED;
        if (r->answered) return send_answer(r);
        return send_api_error(r, &r->err, NULL);
    case STATE_ANSWERED:
    default:
        *upload_data_size = 0; /* a body nobody asked for: discard it */
        return MHD_YES;
    }
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **req_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)cls;
    (void)conn;
    (void)toe;
    request *r = *req_cls;
    if (!r) return;
    *req_cls = NULL;
    /* Resumed, but the client had left: the handler was not called again. */
    if (r->state == STATE_SOLVING) atomic_fetch_sub(&r->srv->suspended, 1);
    access_entry e = {
        .when = r->start_real,
        .method = r->method,
        .path = r->path,
        .puzzle = r->puzzle ? r->puzzle->slug : NULL,
        .status = r->status,
        .bytes = r->bytes,
        .duration_ms = seconds_since(&r->start_mono) * 1000.0,
        .request_id = r->request_id,
    };
    accesslog_append(&e);
    api_answer_free(r->answer);
    if (r->bytes >= TRIM_AFTER_BYTES || r->cap >= TRIM_AFTER_BYTES)
        watch_request_trim(r->srv->watch);
    release_body(r);
    watch_idle(r->srv->watch, r->wc);
    http_server *s = r->srv;
    freelist_give(&s->requests, r);
    atomic_fetch_sub(&s->in_flight, 1);
}

/* The connection's watch record lives as libmicrohttpd's socket context. */
static void on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
                          enum MHD_ConnectionNotificationCode code)
{
    http_server *s = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *ci =
            MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
        *socket_context = ci ? watch_open(s->watch, ci->connect_fd) : NULL;
    } else {
        watch_close(s->watch, *socket_context);
        *socket_context = NULL;
    }
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    c = (char)tolower((unsigned char)c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Whether the path of a raw request target (the query not included: an encoded newline in a
 * query argument is ordinary, and no route reads the query) holds a control character, as it
 * is or encoded. Decoded, %00 would cut the path short (/readyz%00 would be /readyz). */
static bool path_has_control(const char *target)
{
    for (const char *p = target; *p && *p != '?'; p++) {
        int byte = (unsigned char)*p;
        if (*p == '%' && hex_value(p[1]) >= 0 && hex_value(p[2]) >= 0)
            byte = hex_value(p[1]) * 16 + hex_value(p[2]);
        if (byte < 0x20 || byte == 0x7f) return true;
    }
    return false;
}

/* Called when a request line has arrived, before the headers, with the target as sent: the
 * request deadline starts, and the path is looked at before libmicrohttpd decodes it. */
static void *on_request_line(void *cls, const char *uri, struct MHD_Connection *conn)
{
    http_server *s = cls;
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    if (ci) {
        watch_receiving(s->watch, ci->socket_context);
        if (path_has_control(uri)) watch_mark_bad_path(ci->socket_context);
    }
    return NULL; /* the request itself is made on the first call of on_request */
}

static void on_mhd_log(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    char message[512];
    vsnprintf(message, sizeof message, fmt, ap);
    message[strcspn(message, "\r\n")] = '\0';
    char line[700];
    size_t n = (size_t)snprintf(line, sizeof line, "{\"msg\":\"libmicrohttpd\",\"detail\":");
    accesslog_json_string(line, sizeof line - 2, &n, message);
    line[n++] = '}';
    line[n++] = '\n';
    ssize_t w = write(STDERR_FILENO, line, n);
    (void)w;
}

/* ---- start and stop ------------------------------------------------------------------------ */

/* The process may hold as many connections as its hard limit allows: the soft limit (often
 * 1024, or 256 under a strict ulimit) let 200 slow connections starve everyone. */
static void raise_file_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

/* Memory given back: large blocks (bodies, answers, solver tables: 256 KiB and up) are mapped
 * and unmapped on their own, so freeing one returns it at once; the fixed threshold also stops
 * glibc from raising it as large blocks are freed (its default, which kept a 16 MiB body's
 * memory after the request). One arena for every thread: a worker's own arena keeps its free
 * top (32 MiB after one large parse, measured) even through malloc_trim, which only shrinks
 * the main arena; with one arena, malloc_trim after a large request returns it all. The cost
 * is one lock for small allocations shared by the HTTP thread and the workers (each thread
 * still has its tcache). */
static void memory_policy(void)
{
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
    mallopt(M_TRIM_THRESHOLD, 1024 * 1024);
    mallopt(M_ARENA_MAX, 1);
}

/* The default total of bodies held at once: a share of the memory the process may use. */
static size_t default_body_memory(size_t max_body)
{
    uint64_t limit = sysres_memory() / BODY_MEMORY_SHARE;
    if (limit > BODY_MEMORY_DEFAULT_MAX) limit = BODY_MEMORY_DEFAULT_MAX;
    if (limit < (uint64_t)max_body + 1) limit = (uint64_t)max_body + 1;
    return (size_t)limit;
}

static unsigned connection_limit(void)
{
    struct rlimit rl;
    rlim_t fds = 1024;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) fds = rl.rlim_cur;
    rlim_t limit = fds > 128 ? fds - 64 : 64; /* leave descriptors for everything else */
    return limit > 10000 ? 10000u : (unsigned)limit;
}

/* One HTTP thread per core, at most HTTP_THREADS_MAX: they only move bytes. */
#define HTTP_THREADS_MAX 4u
static unsigned http_threads(void)
{
    unsigned cpus = (unsigned)sysres_cores();
    return cpus < HTTP_THREADS_MAX ? cpus : HTTP_THREADS_MAX;
}

http_server *http_start(const server_config *cfg, char *err, size_t err_cap)
{
    http_server *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_cap, "puzzled: out of memory");
        return NULL;
    }
    s->cfg = *cfg;
    raise_file_limit();
    memory_policy();
    s->body_memory = cfg->body_memory ? cfg->body_memory : default_body_memory(cfg->max_body);
    atomic_init(&s->body_held, 0);
    atomic_init(&s->draining, false);
    atomic_init(&s->grace_over, false);
    atomic_init(&s->in_flight, 0);
    atomic_init(&s->idle_cores, sysres_cores());
    atomic_init(&s->suspended, 0);
    if (!freelist_init(&s->requests, sizeof(request), REQUESTS_KEPT)) {
        snprintf(err, err_cap, "puzzled: out of thread keys");
        free(s);
        return NULL;
    }
    json_arena_install(); /* before any thread uses jansson; without it, plain malloc */
    s->puzzles_json = registry_puzzles_json(&s->puzzles_len);
    s->pool = pool_create(cfg->workers, cfg->queue);
    s->watch = watch_start(cfg->request_timeout_ms, (long)CONNECTION_TIMEOUT_S * 1000);
    if (!s->puzzles_json || !s->pool || !s->watch ||
        !mhd_errors_init(config_origin_wildcard(cfg), cfg->max_body)) {
        snprintf(err, err_cap, "puzzled: cannot start %u worker threads", cfg->workers);
        goto fail;
    }
    accesslog_start(STDOUT_FILENO); /* without its thread, lines are written one by one */

    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    struct sockaddr *addr;
    /* libmicrohttpd's own thread pool, each thread with poll(): HTTP work spreads over the
     * cores instead of queueing behind one thread. poll, not epoll: in epoll mode a client that
     * closes right after its last byte goes unnoticed (the edge is consumed with the data),
     * and poll also spares the two epoll_ctl calls that every suspend and resume cost. */
    unsigned flags =
        MHD_USE_POLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG | MHD_USE_ITC;
    memset(&v4, 0, sizeof v4);
    memset(&v6, 0, sizeof v6);
    if (inet_pton(AF_INET, cfg->bind, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons((uint16_t)cfg->port);
        addr = (struct sockaddr *)&v4;
    } else if (inet_pton(AF_INET6, cfg->bind, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons((uint16_t)cfg->port);
        addr = (struct sockaddr *)&v6;
        flags |= MHD_USE_IPv6;
    } else {
        snprintf(err, err_cap, "puzzled: invalid bind address \"%s\"", cfg->bind);
        goto fail;
    }

    /* clang-format off */
    s->daemon = MHD_start_daemon(
        flags, (uint16_t)cfg->port, NULL, NULL, on_request, s,
        /* The logger first, so that no message goes to the default logger. */
        MHD_OPTION_EXTERNAL_LOGGER, (MHD_LogCallback)on_mhd_log, (void *)s,
        MHD_OPTION_SOCK_ADDR, addr,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)CONNECTION_TIMEOUT_S,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned int)connection_limit(),
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONNECTION_MEMORY,
        MHD_OPTION_NOTIFY_COMPLETED, (MHD_RequestCompletedCallback)on_completed, (void *)s,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned int)1024,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)http_threads(),
        /* Hardening (watch.h): deadlines and departed clients, encoded control characters in
         * the path, connections per client address (0 = no limit). */
        MHD_OPTION_NOTIFY_CONNECTION, (MHD_NotifyConnectionCallback)on_connection, (void *)s,
        MHD_OPTION_URI_LOG_CALLBACK, on_request_line, (void *)s,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)cfg->per_ip_connections,
        MHD_OPTION_END);
    /* clang-format on */
    if (!s->daemon) {
        snprintf(err, err_cap, "puzzled: cannot listen on %s port %u (in use, or not allowed)",
                 cfg->bind, cfg->port);
        goto fail;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_BIND_PORT);
    s->port = info ? info->port : cfg->port;
    return s;
fail:
    accesslog_stop();
    watch_stop(s->watch);
    pool_destroy(s->pool);
    free(s->puzzles_json);
    freelist_destroy(&s->requests);
    free(s);
    return NULL;
}

unsigned http_port(const http_server *s)
{
    return s->port;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

void http_begin_drain(http_server *s)
{
    atomic_store(&s->draining, true);
    accesslog_flush(); /* the lines so far come before the "draining" line */
}

void http_drain_and_stop(http_server *s)
{
    http_begin_drain(s);
    MHD_socket listen_fd = MHD_quiesce_daemon(s->daemon);
    /* Quiesced, the socket still listens: new connections would wait in its backlog until
     * the stop and then be reset. Shutting it down refuses them at once, so clients and load
     * balancers move on; the descriptor itself is closed only after MHD_stop_daemon(). */
    if (listen_fd != MHD_INVALID_SOCKET) shutdown(listen_fd, SHUT_RDWR);

    /* Let requests in flight finish, answers included, for up to the grace period. */
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (atomic_load(&s->in_flight) > 0 && seconds_since(&start) * 1000.0 < s->cfg.grace_ms)
        sleep_ms(5);

    /* Past the grace: cancel what still runs, and wait until no connection is suspended
     * (stopping the daemon with suspended connections is undefined). Solvers check their
     * budgets often, so this wait is short. */
    if (atomic_load(&s->in_flight) > 0) {
        atomic_store(&s->grace_over, true);
        pool_cancel_all(s->pool);
        watch_cancel_all(s->watch);
    }
    while (pool_outstanding(s->pool) > 0 || atomic_load(&s->suspended) > 0) sleep_ms(5);
    /* The cancelled answers (503 overloaded) are short: give them a moment to go out. */
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (atomic_load(&s->in_flight) > 0 && seconds_since(&start) < 1.0) sleep_ms(5);

    MHD_stop_daemon(s->daemon);
    if (listen_fd != MHD_INVALID_SOCKET) close(listen_fd);
    accesslog_stop(); /* every request has completed: its line goes out now */
    watch_stop(s->watch);
    pool_destroy(s->pool);
    free(s->puzzles_json);
    freelist_drain(&s->requests); /* any completed on this thread; the HTTP threads' are gone */
    freelist_destroy(&s->requests);
    free(s);
}
