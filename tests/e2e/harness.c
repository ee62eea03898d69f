#include "harness.h"

#include <curl/curl.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef PUZZLED_BINARY
#error "PUZZLED_BINARY must name the server binary"
#endif

#define START_TIMEOUT_MS 30000 /* the sanitizer build starts slowly on a busy machine */
#define STOP_TIMEOUT_MS 120000

/* Servers started by this process, killed at exit should a test end early. */
#define MAX_SERVERS 16
static pid_t started[MAX_SERVERS];

static void kill_started(void)
{
    for (int i = 0; i < MAX_SERVERS; i++)
        if (started[i] > 0) {
            kill(started[i], SIGKILL);
            waitpid(started[i], NULL, 0);
            started[i] = 0;
        }
}

static void remember(pid_t pid, bool add)
{
    for (int i = 0; i < MAX_SERVERS; i++)
        if (add ? started[i] == 0 : started[i] == pid) {
            started[i] = add ? pid : 0;
            return;
        }
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static void init_once(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    atexit(kill_started);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

char *harness_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (n + 1 >= cap) buf = realloc(buf, cap *= 2);
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        if (got == 0) break;
        n += got;
    }
    fclose(f);
    buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

/* Forks and executes the binary with stdout/stderr on the given descriptors (-1: /dev/null);
 * the child dies with us. */
static pid_t spawn(const char *const *argv, int out, int err)
{
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid != 0) return pid;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    if (out < 0) out = open("/dev/null", O_WRONLY);
    if (out < 0 || err < 0) _exit(127);
    dup2(out, STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execvp(argv[0], (char *const *)argv); /* a wrapper (valgrind) is found on PATH */
    _exit(127);
}

/* argv for the server: the words of PUZZLED_TEST_WRAPPER (if set), the binary, then args (each
 * list NULL-terminated or NULL). Returns the count, at most cap - 1. */
static int server_argv(const char **argv, int cap, char *wrapper_copy, size_t copy_cap,
                       const char *const *first, const char *const *args)
{
    int argc = 0;
    const char *wrapper = getenv("PUZZLED_TEST_WRAPPER");
    if (wrapper && *wrapper) {
        snprintf(wrapper_copy, copy_cap, "%s", wrapper);
        char *save = NULL;
        for (char *w = strtok_r(wrapper_copy, " \t", &save); w && argc < cap - 1;
             w = strtok_r(NULL, " \t", &save))
            argv[argc++] = w;
    }
    argv[argc++] = PUZZLED_BINARY;
    for (int i = 0; first && first[i] && argc < cap - 1; i++) argv[argc++] = first[i];
    for (int i = 0; args && args[i] && argc < cap - 1; i++) argv[argc++] = args[i];
    argv[argc] = NULL;
    return argc;
}

/* A wrapper (valgrind) makes starting and stopping many times slower. */
static long slowdown(void)
{
    const char *wrapper = getenv("PUZZLED_TEST_WRAPPER");
    return wrapper && *wrapper ? 6 : 1;
}

/* A temporary file already unlinked: it lives exactly as long as its descriptors. */
static int temp_fd(void)
{
    char path[] = "/tmp/puzzled-e2e-XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0) unlink(path);
    return fd;
}

/* Everything written to fd so far, read from offset 0 without moving the shared offset. */
static char *read_fd(int fd)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (n + 1 >= cap) buf = realloc(buf, cap *= 2);
        ssize_t got = pread(fd, buf + n, cap - n - 1, (off_t)n);
        if (got <= 0) break;
        n += (size_t)got;
    }
    buf[n] = '\0';
    return buf;
}

/* A failed start: show what the server said, then remove its files. */
static bool start_failed(harness_server *s)
{
    char *err = harness_stderr(s);
    fprintf(stderr, "harness: %s did not start: %s\n", PUZZLED_BINARY, err);
    free(err);
    return false;
}

bool harness_start(harness_server *s, const char *const *extra_args)
{
    pthread_once(&once, init_once);
    memset(s, 0, sizeof *s);
    s->log_fd = temp_fd();
    s->stderr_fd = temp_fd();
    if (s->log_fd < 0 || s->stderr_fd < 0) return false;
    const char *argv[96];
    char wrapper[1024];
    server_argv(argv, 96, wrapper, sizeof wrapper,
                (const char *const[]){"--port", "0", "--bind", "127.0.0.1", NULL}, extra_args);
    s->pid = spawn(argv, s->log_fd, s->stderr_fd);
    if (s->pid < 0) return false;
    remember(s->pid, true);

    for (long waited = 0; waited < START_TIMEOUT_MS * slowdown(); waited += 10) {
        char *log = harness_log(s);
        const char *line = strstr(log, "\"msg\":\"listening\"");
        const char *port = line ? strstr(line, "\"port\":") : NULL;
        if (port && strchr(port, '\n')) s->port = atoi(port + 7);
        free(log);
        if (s->port > 0) break;
        if (waitpid(s->pid, NULL, WNOHANG) == s->pid) {
            remember(s->pid, false);
            s->pid = 0;
            return start_failed(s);
        }
        sleep_ms(10);
    }
    if (s->port <= 0) {
        harness_kill(s);
        return start_failed(s);
    }
    for (long waited = 0; waited < START_TIMEOUT_MS * slowdown(); waited += 20) {
        harness_response r;
        bool ok = harness_request(s, "GET", "/healthz", NULL, NULL, 0, NULL, &r) && r.status == 200;
        harness_response_free(&r);
        if (ok) return true;
        sleep_ms(20);
    }
    harness_kill(s);
    return start_failed(s);
}

/* Connects to 127.0.0.1:port: true when something listens there. */
static bool port_open(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return false;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool ok = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
    close(fd);
    return ok;
}

int harness_free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return 0;
    struct sockaddr_in a = {.sin_family = AF_INET};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = 0;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
        getsockname(fd, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    close(fd);
    return port;
}

bool harness_start_program(harness_server *s, const char *const *argv, int port)
{
    pthread_once(&once, init_once);
    memset(s, 0, sizeof *s);
    s->log_fd = temp_fd();
    s->stderr_fd = temp_fd();
    if (s->log_fd < 0 || s->stderr_fd < 0) return false;
    s->port = port;
    s->pid = spawn(argv, s->log_fd, s->stderr_fd);
    if (s->pid < 0) return false;
    remember(s->pid, true);
    for (int waited = 0; waited < START_TIMEOUT_MS; waited += 10) {
        if (port_open(port)) return true;
        if (waitpid(s->pid, NULL, WNOHANG) == s->pid) {
            remember(s->pid, false);
            s->pid = 0;
            break;
        }
        sleep_ms(10);
    }
    harness_kill(s);
    char *err = harness_stderr(s);
    fprintf(stderr, "harness: %s did not listen on %d: %s\n", argv[0], port, err);
    free(err);
    return false;
}

static int wait_exit(pid_t pid, long timeout_ms)
{
    int status = 0;
    for (long waited = 0; waited < timeout_ms; waited += 10) {
        pid_t got = waitpid(pid, &status, WNOHANG);
        if (got == pid) {
            if (WIFEXITED(status)) return WEXITSTATUS(status);
            if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
            return -1;
        }
        if (got < 0) return -1;
        sleep_ms(10);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return -1;
}

int harness_stop(harness_server *s)
{
    if (s->pid <= 0) return -1;
    kill(s->pid, SIGTERM);
    int status = wait_exit(s->pid, STOP_TIMEOUT_MS * slowdown());
    remember(s->pid, false);
    s->pid = 0;
    return status;
}

void harness_kill(harness_server *s)
{
    if (s->pid <= 0) return;
    kill(s->pid, SIGKILL);
    waitpid(s->pid, NULL, 0);
    remember(s->pid, false);
    s->pid = 0;
}

int harness_run(const char *const *args, char **err)
{
    pthread_once(&once, init_once);
    int err_fd = temp_fd();
    const char *argv[96];
    char wrapper[1024];
    server_argv(argv, 96, wrapper, sizeof wrapper, NULL, args);
    pid_t pid = spawn(argv, -1, err_fd);
    int status = pid > 0 ? wait_exit(pid, 10000 * slowdown()) : -1;
    if (err) *err = read_fd(err_fd);
    close(err_fd);
    return status;
}

char *harness_log(const harness_server *s)
{
    return read_fd(s->log_fd);
}

char *harness_stderr(const harness_server *s)
{
    return read_fd(s->stderr_fd);
}

char *harness_wait_log_line(const harness_server *s, const char *needle)
{
    for (int waited = 0; waited < 120000; waited += 10) {
        char *log = harness_log(s);
        const char *hit = log ? strstr(log, needle) : NULL;
        if (hit) {
            const char *start = hit;
            while (start > log && start[-1] != '\n') start--;
            const char *end = strchr(hit, '\n');
            if (end) {
                char *line = strndup(start, (size_t)(end - start));
                free(log);
                return line;
            }
        }
        free(log);
        sleep_ms(10);
    }
    return NULL;
}

/* ---- HTTP ---------------------------------------------------------------------------------- */

typedef struct buffer {
    char *data;
    size_t len;
} buffer;

static size_t append(char *ptr, size_t size, size_t nmemb, void *userdata)
{
    buffer *b = userdata;
    size_t n = size * nmemb;
    char *grown = realloc(b->data, b->len + n + 1);
    if (!grown) return 0;
    b->data = grown;
    memcpy(b->data + b->len, ptr, n);
    b->len += n;
    b->data[b->len] = '\0';
    return n;
}

typedef struct upload {
    const char *data;
    size_t len, pos;
} upload;

static size_t read_upload(char *buf, size_t size, size_t nitems, void *userdata)
{
    upload *u = userdata;
    size_t n = size * nitems;
    if (n > u->len - u->pos) n = u->len - u->pos;
    memcpy(buf, u->data + u->pos, n);
    u->pos += n;
    return n;
}

static bool request(const harness_server *s, const char *method, const char *path,
                    const char *content_type, const char *body, size_t body_len,
                    const char *const *headers, bool chunked, harness_response *out)
{
    pthread_once(&once, init_once);
    memset(out, 0, sizeof *out);
    CURL *curl = curl_easy_init();
    if (!curl) return false;
    char url[512];
    snprintf(url, sizeof url, "http://127.0.0.1:%d%s", s->port, path);
    buffer head = {calloc(1, 1), 0}, data = {calloc(1, 1), 0};
    struct curl_slist *list = NULL;
    char ctype[256];
    snprintf(ctype, sizeof ctype, "Content-Type: %s", content_type ? content_type : "");
    if (!content_type) snprintf(ctype, sizeof ctype, "Content-Type:"); /* none at all */
    list = curl_slist_append(list, ctype);
    list = curl_slist_append(list, "Expect:"); /* no 100-continue round trip */
    if (chunked) list = curl_slist_append(list, "Transfer-Encoding: chunked");
    for (int i = 0; headers && headers[i]; i++) list = curl_slist_append(list, headers[i]);
    upload up = {body ? body : "", body ? body_len : 0, 0};

    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 300L);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, append);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &head);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &data);
    if (strcmp(method, "HEAD") == 0) {
        curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    } else if (chunked) {
        curl_easy_setopt(curl, CURLOPT_POST, 1L);
        curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_upload);
        curl_easy_setopt(curl, CURLOPT_READDATA, &up);
        curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    } else if (body) {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_len);
        curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    } else if (strcmp(method, "GET") != 0) {
        curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    }
    curl_easy_perform(curl);
    /* A server may answer and close before reading an upload it refused (413): curl can then
     * report a send error although the answer arrived, so the status decides. */
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out->status);
    curl_slist_free_all(list);
    curl_easy_cleanup(curl);
    out->headers = head.data;
    out->body = data.data;
    out->body_len = data.len;
    return out->status != 0;
}

bool harness_request(const harness_server *s, const char *method, const char *path,
                     const char *content_type, const char *body, size_t body_len,
                     const char *const *headers, harness_response *out)
{
    return request(s, method, path, content_type, body, body_len, headers, false, out);
}

bool harness_request_chunked(const harness_server *s, const char *method, const char *path,
                             const char *content_type, const char *body, size_t body_len,
                             const char *const *headers, harness_response *out)
{
    return request(s, method, path, content_type, body, body_len, headers, true, out);
}

const char *harness_header(const harness_response *r, const char *name, char *buf, size_t cap)
{
    const char *found = NULL;
    size_t found_len = 0, name_len = strlen(name);
    for (const char *line = r->headers; line && *line;) {
        const char *end = strstr(line, "\r\n");
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len > name_len && line[name_len] == ':' && strncasecmp(line, name, name_len) == 0) {
            found = line + name_len + 1;
            while (*found == ' ') found++;
            found_len = (size_t)(line + len - found);
        }
        line += len + (end ? 2 : 0);
    }
    if (!found) return NULL;
    if (found_len >= cap) found_len = cap - 1;
    memcpy(buf, found, found_len);
    buf[found_len] = '\0';
    return buf;
}

double harness_metric(const char *metrics_text, const char *sample)
{
    size_t n = strlen(sample);
    for (const char *line = metrics_text; line && *line;
         line = strchr(line, '\n'), line = line ? line + 1 : NULL)
        if (strncmp(line, sample, n) == 0 && line[n] == ' ') return atof(line + n + 1);
    return -1;
}

bool harness_wait_metric(const harness_server *s, const char *sample, double want)
{
    for (int i = 0; i < 12000; i++) {
        harness_response r;
        if (harness_request(s, "GET", "/metrics", NULL, NULL, 0, NULL, &r)) {
            double v = harness_metric(r.body, sample);
            harness_response_free(&r);
            if (v == want) return true;
        }
        nanosleep(&(struct timespec){0, 10000000L}, NULL);
    }
    return false;
}

void harness_response_free(harness_response *r)
{
    free(r->headers);
    free(r->body);
    memset(r, 0, sizeof *r);
}

char *harness_source_file(const char *relative, size_t *len)
{
    /* This file is tests/e2e/harness.c: the root is three names up. */
    char path[1024];
    snprintf(path, sizeof path, "%s", __FILE__);
    for (int up = 0; up < 3; up++) {
        char *slash = strrchr(path, '/');
        if (!slash) return NULL;
        *slash = '\0';
    }
    size_t n = strlen(path);
    snprintf(path + n, sizeof path - n, "/%s", relative);
    return harness_read_file(path, len);
}

/* A full 16 x 16 Mayan board of three colours with no run (colour 1 + (x + 2y) mod 3), to clear
 * in 10 moves. With every colour in every column the search's bounds cut only near the leaves,
 * so it does not finish: 422 time_limit after a 20 s budget, 89 MiB peak RSS (release build,
 * 2026-11-23). A search fast enough to finish it would show as these tests getting an answer
 * where they wait for a budget. The 5 x 7 board used before turned out solvable: the faster
 * search of issue 13 found its 10 moves in 9.7 s, just inside the default budget. */
#define SLOW_COLUMN_A "[1,3,2,1,3,2,1,3,2,1,3,2,1,3,2,1]"
#define SLOW_COLUMN_B "[2,1,3,2,1,3,2,1,3,2,1,3,2,1,3,2]"
#define SLOW_COLUMN_C "[3,2,1,3,2,1,3,2,1,3,2,1,3,2,1,3]"
#define SLOW_COLUMNS_ABC SLOW_COLUMN_A "," SLOW_COLUMN_B "," SLOW_COLUMN_C ","
const char harness_slow_mayan[] =
    "{\"moves\":10,\"width\":16,\"height\":16,\"columns\":[" SLOW_COLUMNS_ABC SLOW_COLUMNS_ABC
        SLOW_COLUMNS_ABC SLOW_COLUMNS_ABC SLOW_COLUMNS_ABC SLOW_COLUMN_A "]}";
