#include "cli_solve.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "registry.h"
#include "sysres.h"

#define DEFAULT_TIME_LIMIT_MS 10000L
#define DEFAULT_MAX_BODY ((size_t)16 << 20)

/* The help text, around the list of puzzles (from the registry: the server knows no puzzle). */
static const char usage_head[] =
    "usage: puzzled solve <puzzle> [FILE] [--json] [--time-limit-ms MS] [--max-body BYTES]\n"
    "                     [--solve-threads N]\n"
    "\n"
    "Solves the instances in FILE (or standard input when FILE is absent or \"-\") and writes\n"
    "the answers to standard output, byte for byte what POST /solve/<puzzle> answers.\n"
    "\n"
    "  <puzzle>            ";
static const char usage_tail[] =
    "\n"
    "  --json              the input is JSON: one request object, or many (JSON Lines, or any\n"
    "                      white space between objects); the answers are joined by newlines\n"
    "                      (default: the contest text format; a multi-instance text such as\n"
    "                      rubiks-rectangle's is solved and written one instance at a time,\n"
    "                      so it may hold up to 1000000 instances where HTTP takes 100000)\n"
    "  --time-limit-ms MS  the solver budget for each instance, 1..3600000; default 10000\n"
    "                      (environment PUZZLED_TIME_LIMIT_MS)\n"
    "  --max-body BYTES    the largest instance read, 1..1073741824; default 16777216\n"
    "                      (environment PUZZLED_MAX_BODY)\n"
    "  --solve-threads N   threads one instance may use, 1 or 2 (2: a long Mayan search adds\n"
    "                      a helper thread); default 2, 1 where it may use one core only\n"
    "                      (environment PUZZLED_SOLVE_THREADS)\n"
    "  --help              this text\n"
    "\n"
    "Exit status: 0 solved; 1 bad input (the contract's JSON error on standard error; answers to\n"
    "the instances before it are already written) or a read/write failure; 2 bad usage (an\n"
    "unknown option or puzzle, a bad value, a FILE that cannot be opened).\n";

static ssize_t read_fd(void *ctx, char *buf, size_t cap)
{
    return read(*(const int *)ctx, buf, cap);
}

static bool write_stdout(void *ctx, const char *bytes, size_t n)
{
    (void)ctx;
    while (n > 0) {
        ssize_t w = write(STDOUT_FILENO, bytes, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        bytes += w;
        n -= (size_t)w;
    }
    return true;
}

/* A whole decimal number in [min, max], as the server's own flags take them. */
static bool parse_number(const char *text, long long min, long long max, long long *out)
{
    if (!text || text[0] < '0' || text[0] > '9') return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end || v > (unsigned long long)max || (long long)v < min) return false;
    *out = (long long)v;
    return true;
}

/* "nine, rubiks-rectangle, ... or maze-tac-toe", from the registry. */
static void print_puzzles(FILE *to)
{
    size_t count = registry_count();
    for (size_t i = 0; i < count; i++)
        fprintf(to, "%s%s", i == 0 ? "" : i + 1 < count ? ", " : " or ", registry_at(i)->slug);
}

/* The line that follows every usage error; returns the exit status of one. */
static int usage_hint(void)
{
    fprintf(stderr, "usage: puzzled solve <puzzle> [FILE] [--json] [--time-limit-ms MS] "
                    "[--max-body BYTES] [--solve-threads N]; see puzzled solve --help\n");
    return 2;
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "puzzled solve: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    return usage_hint();
}

/* The flag's value: from argv or, when the flag is absent, the environment. */
static bool number_option(const char *flag, const char *value, const char *env, long long min,
                          long long max, long long *out)
{
    if (!value) value = getenv(env);
    if (!value) return true;
    if (parse_number(value, min, max, out)) return true;
    fprintf(stderr, "puzzled solve: --%s (%s) takes an integer %lld..%lld, not \"%s\"\n", flag, env,
            min, max, value);
    return false;
}

int cli_solve_main(int argc, char **argv)
{
    const char *slug = NULL, *file = NULL, *time_limit = NULL, *max_body = NULL, *threads = NULL;
    api_format fmt = API_FORMAT_TEXT;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            fputs(usage_head, stdout);
            print_puzzles(stdout);
            fputs(usage_tail, stdout);
            return 0;
        } else if (strcmp(arg, "--json") == 0) {
            fmt = API_FORMAT_JSON;
        } else if (strcmp(arg, "--time-limit-ms") == 0 || strcmp(arg, "--max-body") == 0 ||
                   strcmp(arg, "--solve-threads") == 0) {
            if (i + 1 == argc) return usage_error("%s needs a value.", arg);
            *(arg[2] == 't' ? &time_limit : arg[2] == 'm' ? &max_body : &threads) = argv[++i];
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return usage_error("unknown option %s.", arg);
        } else if (!slug) {
            slug = arg;
        } else if (!file) {
            file = arg;
        } else {
            return usage_error("one FILE at most; \"%s\" is one too many.", arg);
        }
    }
    if (!slug) return usage_error("name the puzzle%s.", "");
    const api_puzzle *puzzle = registry_find(slug);
    if (!puzzle) {
        fprintf(stderr, "puzzled solve: there is no puzzle \"%s\"; the puzzles are ", slug);
        print_puzzles(stderr);
        fputs(".\n", stderr);
        return usage_hint();
    }
    long long ms = DEFAULT_TIME_LIMIT_MS, bytes = (long long)DEFAULT_MAX_BODY;
    long long solve_threads = sysres_cores() >= 2 ? 2 : 1;
    if (!number_option("time-limit-ms", time_limit, "PUZZLED_TIME_LIMIT_MS", 1, 3600000, &ms) ||
        !number_option("max-body", max_body, "PUZZLED_MAX_BODY", 1, 1LL << 30, &bytes) ||
        !number_option("solve-threads", threads, "PUZZLED_SOLVE_THREADS", 1, 2, &solve_threads))
        return 2;

    int fd = STDIN_FILENO;
    if (file && strcmp(file, "-") != 0) {
        fd = open(file, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            fprintf(stderr, "puzzled solve: cannot open %s: %s\n", file, strerror(errno));
            return 2;
        }
    }
    json_object_seed(0);
    api_batch_io io = {read_fd, write_stdout, &fd};
    api_batch_limits limits = {(long)ms, (size_t)bytes, (int)solve_threads};
    size_t solved = 0;
    api_error err;
    api_batch_result result = api_batch_solve(puzzle, fmt, &limits, &io, &solved, &err);
    if (fd != STDIN_FILENO) close(fd);
    if (result == API_BATCH_OK) return 0;
    if (result == API_BATCH_IO_ERROR) {
        fprintf(stderr, "puzzled solve: %s\n", err.message);
        return 1;
    }
    size_t len = 0;
    char *json = api_error_json(&err, &len);
    fprintf(stderr, "%s\n", json ? json : err.message);
    free(json);
    return 1;
}
