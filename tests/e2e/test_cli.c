/* `puzzled solve` end to end: the real binary on files and pipes, its output compared byte for
 * byte with what the real server answers to the same bytes over HTTP (the server's answers
 * are themselves checked by test_puzzles.c), its errors with the server's error bodies, and
 * its batches read in bounded memory (a batch larger than --max-body goes through when each
 * instance fits). */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_run.h"
#include "e2e/harness.h"
#include "mayan_sim.h"

#define DATA PUZZLED_TEST_DATA "/"

typedef struct run_result {
    int status; /* exit status, or 128 + signal */
    char *out, *err;
    size_t out_len;
} run_result;

/* A temporary file holding bytes; its path goes into path (at least 64 bytes). */
static void temp_file(char *path, const char *bytes, size_t len)
{
    snprintf(path, 64, "/tmp/puzzled-cli-XXXXXX");
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    ck_assert(write(fd, bytes, len) == (ssize_t)len);
    close(fd);
}

static char *slurp_fd(int fd, size_t *len)
{
    off_t size = lseek(fd, 0, SEEK_END);
    ck_assert(size >= 0);
    char *text = malloc((size_t)size + 1);
    ck_assert(text != NULL);
    ck_assert(pread(fd, text, (size_t)size, 0) == size);
    text[size] = '\0';
    if (len) *len = (size_t)size;
    close(fd);
    return text;
}

/* Runs `puzzled solve args...` with standard input from stdin_path (or /dev/null), capturing
 * both outputs in unlinked temporary files; killed after 120 s. */
static run_result run_solve(const char *stdin_path, const char *const *args)
{
    char out_path[64], err_path[64];
    temp_file(out_path, "", 0);
    temp_file(err_path, "", 0);
    int out_fd = open(out_path, O_RDWR), err_fd = open(err_path, O_RDWR);
    unlink(out_path);
    unlink(err_path);
    ck_assert(out_fd >= 0 && err_fd >= 0);
    const char *argv[32] = {PUZZLED_BINARY, "solve"};
    int argc = 2;
    for (; args[argc - 2]; argc++) argv[argc] = args[argc - 2];
    argv[argc] = NULL;
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        int in = open(stdin_path ? stdin_path : "/dev/null", O_RDONLY);
        if (in < 0) _exit(125);
        dup2(in, STDIN_FILENO);
        dup2(out_fd, STDOUT_FILENO);
        dup2(err_fd, STDERR_FILENO);
        alarm(280); /* under the test case's 300 s */
        execv(PUZZLED_BINARY, (char *const *)argv);
        _exit(126);
    }
    int status = 0;
    ck_assert(waitpid(pid, &status, 0) == pid);
    run_result r;
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = slurp_fd(out_fd, &r.out_len);
    r.err = slurp_fd(err_fd, NULL);
    return r;
}

static void run_free(run_result *r)
{
    free(r->out);
    free(r->err);
}

static harness_response post(const harness_server *s, const char *slug, const char *type,
                             const char *body, size_t len)
{
    char path[64];
    snprintf(path, sizeof path, "/solve/%s", slug);
    harness_response r;
    ck_assert(harness_request(s, "POST", path, type, body, len, NULL, &r));
    return r;
}

/* The CLI on a file (as FILE, and once through standard input) answers what the server answers
 * to the file's bytes: the same body on success, the same error body (on standard error, exit
 * 1) on failure. */
static void check_same_as_http(const harness_server *s, const char *slug, const char *path,
                               bool json, bool via_stdin)
{
    size_t len = 0;
    char *body = harness_read_file(path, &len);
    ck_assert_msg(body != NULL, "cannot read %s", path);
    harness_response h = post(s, slug, json ? "application/json" : "text/plain", body, len);
    /* The budget of contest_samples_match_http's server: answers, not speed, are compared. */
    const char *args[] = {slug,     via_stdin ? "-" : path, "--time-limit-ms",
                          "120000", json ? "--json" : NULL, NULL};
    run_result r = run_solve(via_stdin ? path : NULL, args);
    if (h.status == 200) {
        ck_assert_msg(r.status == 0, "%s %s: exit %d: %s", slug, path, r.status, r.err);
        ck_assert_msg(r.out_len == h.body_len && memcmp(r.out, h.body, h.body_len) == 0,
                      "%s %s: the CLI wrote\n%.300s\nbut HTTP answered\n%.300s", slug, path, r.out,
                      h.body);
        ck_assert_str_eq(r.err, "");
    } else {
        ck_assert_int_eq(r.status, 1);
        ck_assert_uint_eq(r.out_len, 0);
        char expected[4096];
        snprintf(expected, sizeof expected, "%s\n", h.body);
        ck_assert_str_eq(r.err, expected);
    }
    run_free(&r);
    harness_response_free(&h);
    free(body);
}

static bool has_suffix(const char *name, const char *suffix)
{
    size_t n = strlen(name), k = strlen(suffix);
    return n >= k && strcmp(name + n - k, suffix) == 0;
}

START_TEST(contest_samples_match_http)
{
    harness_server s;
    /* 120 s for the server (all of rubik.in's 12 boards share one budget) and for the CLI (one
     * each), so that sanitizer builds (about 0.25 s a board in release, 10 s and more under
     * ThreadSanitizer beside other tests) compare answers, not speed. */
    ck_assert(harness_start(&s, (const char *[]){"--time-limit-ms", "120000", NULL}));
    check_same_as_http(&s, "nine", DATA "nine/sample.in", false, false);
    check_same_as_http(&s, "nine", DATA "nine/sample.in", false, true);
    check_same_as_http(&s, "mayan", DATA "mayan/sample.in", false, false);
    check_same_as_http(&s, "rubiks-rectangle", DATA "rubiks-rectangle/rubik.in", false, false);
    check_same_as_http(&s, "rubiks-rectangle", DATA "rubiks-rectangle/rubik.in", false, true);
    DIR *dir = opendir(DATA "maze-tac-toe");
    ck_assert(dir != NULL);
    int mazes = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        if (!has_suffix(e->d_name, ".in")) continue;
        char path[512];
        snprintf(path, sizeof path, DATA "maze-tac-toe/%s", e->d_name);
        check_same_as_http(&s, "maze-tac-toe", path, false, false);
        mazes++;
    }
    closedir(dir);
    ck_assert_int_ge(mazes, 13);
    /* invariant-boards' contest input is one n: every n of the table, and its limits. */
    static const char *const sizes[] = {"1", "4", "30", "2000", "0", "2001", "x"};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char text[16], path[64];
        int n = snprintf(text, sizeof text, "%s\n", sizes[i]);
        temp_file(path, text, (size_t)n);
        check_same_as_http(&s, "invariant-boards", path, false, false);
        unlink(path);
    }
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

/* Every puzzle's JSON and text examples from GET /puzzles, through --json and the text path. */
START_TEST(examples_match_http)
{
    harness_server s;
    ck_assert(harness_start(&s, NULL));
    harness_response list;
    ck_assert(harness_request(&s, "GET", "/puzzles", NULL, NULL, 0, NULL, &list));
    json_t *root = json_loads(list.body, 0, NULL);
    ck_assert(root != NULL);
    json_t *puzzles = json_object_get(root, "puzzles");
    ck_assert(json_is_array(puzzles) && json_array_size(puzzles) == 5);
    size_t i;
    json_t *p;
    json_array_foreach(puzzles, i, p)
    {
        const char *slug = json_string_value(json_object_get(p, "slug"));
        char *json = json_dumps(json_object_get(p, "example"), JSON_COMPACT);
        const char *text = json_string_value(json_object_get(p, "example_text"));
        ck_assert_msg(slug && json && text, "GET /puzzles lacks an example");
        char path[64];
        temp_file(path, json, strlen(json));
        check_same_as_http(&s, slug, path, true, false);
        unlink(path);
        temp_file(path, text, strlen(text));
        check_same_as_http(&s, slug, path, false, false);
        unlink(path);
        free(json);
    }
    json_decref(root);
    harness_response_free(&list);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

/* Many JSON values in one input (JSON Lines, pretty-printed, or run together): one answer per
 * value, joined by newlines, each the server's answer to that value alone. */
START_TEST(json_batch_answers_each_value)
{
    harness_server s;
    ck_assert(harness_start(&s, NULL));
    static const char *const values[] = {
        "{\"n\":4}",
        "{\n  \"n\": 19,\n  \"boards\": false\n}",
        "{\"n\":2000}",
        "{\"n\":7}",
        "{\"n\":1,\"boards\":true}",
    };
    size_t count = sizeof values / sizeof values[0];
    char input[512] = "", expected[8192] = "";
    for (size_t i = 0; i < count; i++) {
        strcat(input, values[i]);
        strcat(input, i == 2 ? " " : "\n"); /* values 3 and 4 share a line */
        harness_response h =
            post(&s, "invariant-boards", "application/json", values[i], strlen(values[i]));
        ck_assert_int_eq(h.status, 200);
        if (i) strcat(expected, "\n");
        strcat(expected, h.body);
        harness_response_free(&h);
    }
    char path[64];
    temp_file(path, input, strlen(input));
    run_result r = run_solve(path, (const char *[]){"invariant-boards", "--json", NULL});
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_str_eq(r.out, expected);
    run_free(&r);
    unlink(path);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

/* A Rubik's Rectangle text of many instances: a board scrambled by a few flips, built by this
 * test. */
static size_t append_board(char *buf, size_t at, int h, int w, unsigned *seed)
{
    int *cell = malloc(sizeof(int) * (size_t)(h * w));
    ck_assert(cell != NULL);
    for (int i = 0; i < h * w; i++) cell[i] = i + 1;
    for (int f = 0; f < 6; f++) {
        *seed = *seed * 1103515245u + 12345u;
        int k = (int)((*seed >> 8) % (unsigned)(h + w));
        if (k < h)
            for (int a = 0, b = w - 1; a < b; a++, b--) {
                int t = cell[k * w + a];
                cell[k * w + a] = cell[k * w + b];
                cell[k * w + b] = t;
            }
        else
            for (int a = 0, b = h - 1; a < b; a++, b--) {
                int c = k - h, t = cell[a * w + c];
                cell[a * w + c] = cell[b * w + c];
                cell[b * w + c] = t;
            }
    }
    at += (size_t)sprintf(buf + at, "\n%d %d\n", w, h);
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++)
            at += (size_t)sprintf(buf + at, "%d%c", cell[r * w + c], c == w - 1 ? '\n' : ' ');
    free(cell);
    return at;
}

START_TEST(text_batch_streams_past_max_body)
{
    enum { INSTANCES = 600 };
    char *text = malloc((size_t)INSTANCES * 2048);
    ck_assert(text != NULL);
    unsigned seed = 7;
    size_t len = (size_t)sprintf(text, "%d\n", INSTANCES);
    for (int k = 0; k < INSTANCES; k++) len = append_board(text, len, 3 + k % 9, 2 + k % 11, &seed);
    ck_assert_uint_gt(len, 64 * 1024);
    harness_server s;
    ck_assert(harness_start(&s, NULL));
    harness_response h = post(&s, "rubiks-rectangle", "text/plain", text, len);
    ck_assert_int_eq(h.status, 200);
    char path[64];
    temp_file(path, text, len);
    /* Each instance is under 1 KiB; the whole text is over 64 KiB. */
    run_result r =
        run_solve(path, (const char *[]){"rubiks-rectangle", "--max-body", "1024", NULL});
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_uint_eq(r.out_len, h.body_len);
    ck_assert(memcmp(r.out, h.body, h.body_len) == 0);
    run_free(&r);
    /* The whole text as one request body is refused at that size. */
    harness_response_free(&h);
    unlink(path);
    free(text);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

/* A bad instance in the middle of a batch: the answers before it are out, the error names it
 * on standard error, exit 1. */
START_TEST(bad_instance_mid_batch)
{
    harness_server s;
    ck_assert(harness_start(&s, NULL));
    const char *good = "2\n\n2 1\n2 1\n\n1 1\n1\n";
    harness_response h = post(&s, "rubiks-rectangle", "text/plain", good, strlen(good));
    ck_assert_int_eq(h.status, 200);
    const char *bad = "3\n\n2 1\n2 1\n\n1 1\n1\n\n2 2\n1 2\n3 3\n";
    char path[64];
    temp_file(path, bad, strlen(bad));
    run_result r = run_solve(NULL, (const char *[]){"rubiks-rectangle", path, NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.out, h.body);
    json_t *e = json_loads(r.err, JSON_DISABLE_EOF_CHECK, NULL);
    ck_assert_msg(e != NULL, "standard error is not the contract's JSON error: %s", r.err);
    json_t *error = json_object_get(e, "error");
    ck_assert_str_eq(json_string_value(json_object_get(error, "code")), "invalid_board");
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(error, "message")), "3"));
    json_decref(e);
    run_free(&r);
    unlink(path);
    /* A later JSON value's error names the value. */
    const char *values = "{\"n\":4}\n{\"n\":\"four\"}\n";
    temp_file(path, values, strlen(values));
    r = run_solve(path, (const char *[]){"invariant-boards", "--json", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "JSON value 2: "));
    ck_assert_ptr_nonnull(strstr(r.err, "\"path\":\"/n\""));
    run_free(&r);
    unlink(path);
    harness_response_free(&h);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

/* A Mayan answer in the contest's text (one "x y g" line per move) empties the board of the
 * contest text it answers (n, then five columns bottom to top, each ended by 0), in exactly n
 * moves, in the tests' own simulator. */
static void assert_mayan_replays(const char *input, const char *answer)
{
    const char *p = input;
    int n = (int)strtol(p, (char **)&p, 10), cols[5 * 8 + 5], k = 0;
    for (int zeros = 0; zeros < 5 && k < (int)(sizeof cols / sizeof cols[0]);) {
        cols[k] = (int)strtol(p, (char **)&p, 10);
        zeros += cols[k++] == 0;
    }
    tboard b = make(5, 7, cols);
    t_settle(&b);
    p = answer;
    for (int i = 0; i < n; i++) {
        int x = (int)strtol(p, (char **)&p, 10), y = (int)strtol(p, (char **)&p, 10),
            g = (int)strtol(p, (char **)&p, 10);
        ck_assert_msg(!t_empty(&b) && t_move(&b, x, y, g), "move %d (%d %d %d)", i, x, y, g);
    }
    ck_assert_msg(t_empty(&b), "the board is not empty after the answer:\n%s", answer);
}

/* Deep Mayan boards (tests/data/mayan/deep-*.in): the server, whose searches add a helper
 * thread once they run long, answers byte for byte what the CLI answers with one thread. */
START_TEST(mayan_helper_answers_as_one_thread)
{
    harness_server s;
    ck_assert(harness_start(
        &s, (const char *[]){"--solve-threads", "2", "--time-limit-ms", "120000", NULL}));
    static const char *const files[] = {DATA "mayan/deep-6-none.in",
                                        DATA "mayan/deep-7-solvable.in"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t len = 0;
        char *body = harness_read_file(files[i], &len);
        ck_assert_msg(body != NULL, "cannot read %s", files[i]);
        harness_response h = post(&s, "mayan", "text/plain", body, len);
        ck_assert_int_eq(h.status, 200);
        run_result r = run_solve(NULL, (const char *[]){"mayan", files[i], "--solve-threads", "1",
                                                        "--time-limit-ms", "120000", NULL});
        ck_assert_msg(r.status == 0, "%s: exit %d: %s", files[i], r.status, r.err);
        ck_assert_msg(r.out_len == h.body_len && memcmp(r.out, h.body, h.body_len) == 0,
                      "%s: one thread wrote\n%.300s\nbut the server answered\n%.300s", files[i],
                      r.out, h.body);
        /* The first has no solution (-1), the second one of seven moves: replayed. */
        ck_assert_int_eq(strncmp(h.body, "-1", 2) == 0, i == 0);
        if (i == 1) assert_mayan_replays(body, h.body);
        run_free(&r);
        harness_response_free(&h);
        free(body);
    }
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

START_TEST(time_budget_applies)
{
    /* A 1000 x 1000 board with its first row and column reversed takes the solver far longer
     * than 1 ms in any build. */
    size_t cap = (size_t)16 << 20, len = 0;
    char *text = malloc(cap);
    ck_assert(text != NULL);
    len += (size_t)sprintf(text, "1\n\n1000 1000\n");
    for (int r = 0; r < 1000; r++)
        for (int c = 0; c < 1000; c++) {
            int v = r * 1000 + (r == 0 ? 999 - c : c) + 1;
            len += (size_t)sprintf(text + len, "%d%c", v, c == 999 ? '\n' : ' ');
        }
    char path[64];
    temp_file(path, text, len);
    free(text);
    run_result r =
        run_solve(NULL, (const char *[]){"rubiks-rectangle", path, "--time-limit-ms", "1", NULL});
    ck_assert_msg(r.status == 1, "exit %d, stderr %s", r.status, r.err);
    ck_assert_ptr_nonnull(strstr(r.err, "\"code\":\"time_limit\""));
    run_free(&r);
    unlink(path);
}
END_TEST

START_TEST(usage_errors_exit_2)
{
    static const char *const cases[][5] = {
        {NULL},
        {"sudoku", NULL},
        {"nine", "--fast", NULL},
        {"nine", "/nonexistent/file", NULL},
        {"nine", "a", "b", NULL},
        {"nine", "--time-limit-ms", "0", NULL},
        {"nine", "--max-body", NULL},
        {"nine", "--solve-threads", "3", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_result r = run_solve(NULL, cases[i]);
        ck_assert_msg(r.status == 2, "case %zu: exit %d", i, r.status);
        ck_assert_msg(strstr(r.err, "puzzled solve: ") == r.err, "case %zu: %s", i, r.err);
        run_free(&r);
    }
    /* An unknown puzzle, and the help, name every puzzle there is. */
    const char *every = "nine, rubiks-rectangle, invariant-boards, mayan or maze-tac-toe";
    run_result r = run_solve(NULL, (const char *[]){"sudoku", NULL});
    ck_assert_msg(strstr(r.err, "no puzzle \"sudoku\"; the puzzles are ") && strstr(r.err, every),
                  "%s", r.err);
    run_free(&r);
    r = run_solve(NULL, (const char *[]){"--help", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "usage: puzzled solve <puzzle> [FILE]"));
    ck_assert_ptr_nonnull(strstr(r.out, every));
    run_free(&r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("solve");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, contest_samples_match_http);
    tcase_add_test(tc, examples_match_http);
    tcase_add_test(tc, json_batch_answers_each_value);
    tcase_add_test(tc, text_batch_streams_past_max_body);
    tcase_add_test(tc, bad_instance_mid_batch);
    tcase_add_test(tc, mayan_helper_answers_as_one_thread);
    tcase_add_test(tc, time_budget_applies);
    tcase_add_test(tc, usage_errors_exit_2);
    suite_add_tcase(s, tc);
    return check_run(s);
}
