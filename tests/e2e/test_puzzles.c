/* Every puzzle end to end through the real server: the contests' data from tests/data in
 * the contest text format (answers diffed where they are unique, replayed where they are not)
 * and in JSON, including a streamed 1000 x 1000 Rubik's Rectangle answer. Expected answers come
 * from the data files or from this file's own simulators, never from the solvers. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "e2e/harness.h"

#define DATA PUZZLED_TEST_DATA "/"

static char *read_data(const char *name, size_t *len)
{
    char *text = harness_read_file(name, len);
    ck_assert_msg(text != NULL, "cannot read %s", name);
    return text;
}

static harness_response post(const harness_server *s, const char *puzzle, const char *type,
                             const char *body, size_t len)
{
    char path[64];
    snprintf(path, sizeof path, "/solve/%s", puzzle);
    harness_response r;
    ck_assert(harness_request(s, "POST", path, type, body, len, NULL, &r));
    return r;
}

static json_t *post_json(const harness_server *s, const char *puzzle, const char *body)
{
    harness_response r = post(s, puzzle, "application/json", body, strlen(body));
    ck_assert_msg(r.status == 200, "%s: status %ld: %s", puzzle, r.status, r.body);
    json_error_t jerr;
    json_t *root = json_loadb(r.body, r.body_len, 0, &jerr);
    ck_assert_msg(root != NULL, "%s: answer is not JSON: %s", puzzle, jerr.text);
    harness_response_free(&r);
    return root;
}

/* ---- Rubik's Rectangle: the test's own board and flips ---- */

typedef struct {
    int h, w;
    int *cell; /* row-major */
} rect;

static void flip(rect *b, const char *move)
{
    int k = atoi(move + 1) - 1;
    if (move[0] == 'R') {
        ck_assert(k >= 0 && k < b->h);
        for (int i = 0, j = b->w - 1; i < j; i++, j--) {
            int t = b->cell[k * b->w + i];
            b->cell[k * b->w + i] = b->cell[k * b->w + j];
            b->cell[k * b->w + j] = t;
        }
    } else {
        ck_assert(move[0] == 'C' && k >= 0 && k < b->w);
        for (int i = 0, j = b->h - 1; i < j; i++, j--) {
            int t = b->cell[i * b->w + k];
            b->cell[i * b->w + k] = b->cell[j * b->w + k];
            b->cell[j * b->w + k] = t;
        }
    }
}

static bool sorted(const rect *b)
{
    for (int i = 0; i < b->h * b->w; i++)
        if (b->cell[i] != i + 1) return false;
    return true;
}

START_TEST(rubiks_contest_data_as_text)
{
    size_t in_len, verdict_len;
    char *in = read_data(DATA "rubiks-rectangle/rubik.in", &in_len);
    char *verdicts = read_data(DATA "rubiks-rectangle/rubik.verdict", &verdict_len);
    harness_server s;
    /* Correctness, not speed: a sanitizer build beside other tests may need more than the
     * default budget for the whole file (it builds the shared tables first). */
    ck_assert(harness_start(&s, (const char *[]){"--time-limit-ms", "120000", NULL}));
    harness_response r = post(&s, "rubiks-rectangle", "text/plain", in, in_len);
    ck_assert_int_eq(r.status, 200);
    ck_assert(r.body_len > 0 && r.body[r.body_len - 1] == '\n');
    ck_assert(r.body_len < 2 || r.body[r.body_len - 2] != '\n');

    /* Replay each answer line on its own instance, read from the input by this test. */
    char *in_cursor = in, *answer = r.body, *verdict = verdicts;
    int t = (int)strtol(in_cursor, &in_cursor, 10);
    for (int k = 0; k < t; k++) {
        rect b;
        b.w = (int)strtol(in_cursor, &in_cursor, 10);
        b.h = (int)strtol(in_cursor, &in_cursor, 10);
        b.cell = malloc(sizeof(int) * (size_t)(b.w * b.h));
        for (int i = 0; i < b.w * b.h; i++) b.cell[i] = (int)strtol(in_cursor, &in_cursor, 10);

        char *line_end = strchr(answer, '\n');
        ck_assert_ptr_nonnull(line_end);
        *line_end = '\0';
        char *verdict_end = strchr(verdict, '\n');
        *verdict_end = '\0';
        ck_assert_msg(strncmp(answer, verdict, strlen(verdict)) == 0,
                      "instance %d: got \"%.40s\", want %s", k + 1, answer, verdict);
        if (strcmp(verdict, "POSSIBLE") == 0) {
            char *p = answer + strlen("POSSIBLE");
            long count = strtol(p, &p, 10);
            ck_assert(count <= 10L * b.w * b.h);
            for (long m = 0; m < count; m++) {
                while (*p == ' ') p++;
                flip(&b, p);
                while (*p && *p != ' ') p++;
            }
            ck_assert_msg(*p == '\0', "instance %d: trailing text after the moves", k + 1);
            ck_assert_msg(sorted(&b), "instance %d: the moves do not sort the board", k + 1);
        } else {
            ck_assert_str_eq(answer, "IMPOSSIBLE");
        }
        free(b.cell);
        answer = line_end + 1;
        verdict = verdict_end + 1;
    }
    ck_assert_str_eq(answer, ""); /* one line per instance, nothing more */
    harness_response_free(&r);
    ck_assert_int_eq(harness_stop(&s), 0);
    free(in);
    free(verdicts);
}
END_TEST

/* A 1000 x 1000 board scrambled by random flips: the answer streams out (chunked) and, replayed
 * here, sorts the board. */
START_TEST(rubiks_large_board_streams_and_replays)
{
    enum { H = 1000, W = 1000 };
    rect b = {H, W, malloc(sizeof(int) * H * W)};
    for (int i = 0; i < H * W; i++) b.cell[i] = i + 1;
    srand(7);
    char move[16];
    for (int k = 0; k < 3000; k++) {
        snprintf(move, sizeof move, "%c%d", rand() % 2 ? 'R' : 'C', 1 + rand() % 1000);
        flip(&b, move);
    }
    size_t cap = (size_t)H * W * 8 + 64, len = 0;
    char *body = malloc(cap);
    len += (size_t)snprintf(body + len, cap - len, "{\"board\":[");
    for (int i = 0; i < H; i++) {
        body[len++] = i ? ',' : ' ';
        body[len++] = '[';
        for (int j = 0; j < W; j++)
            len += (size_t)snprintf(body + len, cap - len, j ? ",%d" : "%d", b.cell[i * W + j]);
        body[len++] = ']';
    }
    len += (size_t)snprintf(body + len, cap - len, "]}");

    harness_server s;
    ck_assert(harness_start(&s, (const char *[]){"--time-limit-ms", "120000", NULL}));
    harness_response r = post(&s, "rubiks-rectangle", "application/json", body, len);
    ck_assert_msg(r.status == 200, "status %ld: %.200s", r.status, r.body);
    char te[64];
    ck_assert_ptr_nonnull(harness_header(&r, "Transfer-Encoding", te, sizeof te));
    ck_assert_str_eq(te, "chunked");
    json_t *root = json_loadb(r.body, r.body_len, 0, NULL);
    ck_assert_ptr_nonnull(root);
    ck_assert(json_is_true(json_object_get(root, "solvable")));
    json_t *moves = json_object_get(root, "moves");
    ck_assert_int_eq(json_integer_value(json_object_get(root, "move_count")),
                     (json_int_t)json_array_size(moves));
    ck_assert_uint_le(json_array_size(moves), 10u * H * W);
    size_t i;
    json_t *m;
    json_array_foreach(moves, i, m) flip(&b, json_string_value(m));
    ck_assert(sorted(&b));
    json_decref(root);
    harness_response_free(&r);
    ck_assert_int_eq(harness_stop(&s), 0);
    free(body);
    free(b.cell);
}
END_TEST

/* ---- invariant boards ---- */

/* +1/-1 as '+'/'-': every cell equals the product of its in-grid neighbours. */
static bool board_is_invariant(json_t *rows, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int product = 1;
            static const int di[] = {-1, 1, 0, 0}, dj[] = {0, 0, -1, 1};
            for (int d = 0; d < 4; d++) {
                int a = i + di[d], c = j + dj[d];
                if (a < 0 || a >= n || c < 0 || c >= n) continue;
                product *= json_string_value(json_array_get(rows, (size_t)a))[c] == '-' ? -1 : 1;
            }
            int self = json_string_value(json_array_get(rows, (size_t)i))[j] == '-' ? -1 : 1;
            if (self != product) return false;
        }
    return true;
}

START_TEST(invariant_boards_table_text_and_json)
{
    size_t len;
    char *table = read_data(DATA "invariant-boards/answers.tsv", &len);
    harness_server s;
    ck_assert(harness_start(&s, NULL));
    char *line = strchr(table, '\n') + 1; /* skip the header */
    int rows = 0;
    while (*line) {
        int n;
        char want[32];
        ck_assert_int_eq(sscanf(line, "%d %31s", &n, want), 2);
        char body[32];
        snprintf(body, sizeof body, "%d\n", n);
        harness_response r = post(&s, "invariant-boards", "text/plain", body, strlen(body));
        ck_assert_int_eq(r.status, 200);
        char expected[40];
        snprintf(expected, sizeof expected, "%s\n", want);
        ck_assert_str_eq(r.body, expected);
        harness_response_free(&r);
        line = strchr(line, '\n') + 1;
        rows++;
    }
    ck_assert_int_eq(rows, 30);

    json_t *root = post_json(&s, "invariant-boards", "{\"n\":4,\"boards\":true}");
    ck_assert_str_eq(json_string_value(json_object_get(root, "count")), "5");
    ck_assert_str_eq(json_string_value(json_object_get(root, "invariant_boards")), "16");
    json_t *boards = json_object_get(root, "boards");
    ck_assert_uint_eq(json_array_size(boards), 5);
    size_t i;
    json_t *board;
    json_array_foreach(boards, i, board) ck_assert(board_is_invariant(board, 4));
    json_decref(root);

    const char *too_big = "{\"n\":2001}";
    harness_response r = post(&s, "invariant-boards", "application/json", too_big, strlen(too_big));
    ck_assert_int_eq(r.status, 400);
    ck_assert_ptr_nonnull(strstr(r.body, "\"path\":\"/n\""));
    harness_response_free(&r);
    ck_assert_int_eq(harness_stop(&s), 0);
    free(table);
}
END_TEST

/* ---- Mayan ---- */

START_TEST(mayan_sample_text_and_json)
{
    size_t in_len, out_len;
    char *in = read_data(DATA "mayan/sample.in", &in_len);
    char *out = read_data(DATA "mayan/sample.out", &out_len);
    harness_server s;
    ck_assert(harness_start(&s, NULL));
    harness_response r = post(&s, "mayan", "text/plain", in, in_len);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.body, out); /* the smallest sequence is unique: byte for byte */
    harness_response_free(&r);

    json_t *root =
        post_json(&s, "mayan", "{\"moves\":3,\"columns\":[[1],[2,1],[2,3,4],[3,1],[2,4,3,4]]}");
    ck_assert(json_is_true(json_object_get(root, "solvable")));
    char text[128] = "";
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(root, "moves"), i, m)
    {
        char move[32];
        snprintf(move, sizeof move, "%lld %lld %lld\n",
                 (long long)json_integer_value(json_object_get(m, "x")),
                 (long long)json_integer_value(json_object_get(m, "y")),
                 (long long)json_integer_value(json_object_get(m, "direction")));
        strncat(text, move, sizeof text - strlen(text) - 1);
    }
    ck_assert_str_eq(text, out);
    json_decref(root);

    const char *hole = "{\"moves\":3,\"columns\":[[1],[0,1],[],[],[]]}";
    r = post(&s, "mayan", "application/json", hole, strlen(hole));
    ck_assert_int_eq(r.status, 422);
    ck_assert_ptr_nonnull(strstr(r.body, "invalid_board"));
    harness_response_free(&r);
    ck_assert_int_eq(harness_stop(&s), 0);
    free(in);
    free(out);
}
END_TEST

/* ---- Maze Tac Toe ---- */

START_TEST(maze_tac_toe_every_case_as_text)
{
    static const char *const cases[] = {
        "sample",    "enclosed_start", "line_MOO_row1", "n3_only_start", "rand0_N5",
        "rand1_N7",  "rand2_N10",      "rand3_N12",     "rand4_N15",     "rand5_N20",
        "rand6_N25", "rand7_N25",      "rand8_N25",
    };
    harness_server s;
    ck_assert(harness_start(&s, NULL));
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char name[256];
        size_t in_len, out_len;
        snprintf(name, sizeof name, DATA "maze-tac-toe/%s.in", cases[k]);
        char *in = read_data(name, &in_len);
        snprintf(name, sizeof name, DATA "maze-tac-toe/%s.out", cases[k]);
        char *out = read_data(name, &out_len);
        harness_response r = post(&s, "maze-tac-toe", "text/plain", in, in_len);
        ck_assert_int_eq(r.status, 200);
        ck_assert_msg(strcmp(r.body, out) == 0, "%s: got %s want %s", cases[k], r.body, out);
        harness_response_free(&r);
        free(in);
        free(out);
    }
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

START_TEST(maze_tac_toe_sample_boards_as_json)
{
    /* The statement's eight boards, sorted by this test ('.' < 'M' < 'O' in ASCII). */
    static const char *const want[] = {
        "......OOM", "....O.OOM", "..M.O.OOM", "O.....OOM",
        "O...O..OM", "O...O.MOM", "O.M.O..OM", "O.M.O.MOM",
    };
    harness_server s;
    ck_assert(harness_start(&s, NULL));
    json_t *root = post_json(&s, "maze-tac-toe",
                             "{\"boards\":true,\"maze\":[\"#####################\","
                             "\"###O11###...###M13###\",\"###......O22......###\","
                             "\"###...######M22######\",\"###BBB###M31###M11###\","
                             "\"###...O32...M33O31###\",\"#####################\"]}");
    ck_assert_int_eq(json_integer_value(json_object_get(root, "count")), 8);
    json_t *boards = json_object_get(root, "boards");
    ck_assert_uint_eq(json_array_size(boards), 8);
    for (size_t i = 0; i < 8; i++) {
        char flat[10] = "";
        for (size_t row = 0; row < 3; row++)
            strncat(flat, json_string_value(json_array_get(json_array_get(boards, i), row)), 3);
        ck_assert_str_eq(flat, want[i]);
    }
    json_decref(root);

    const char *open_border = "{\"maze\":[\"#########\",\"###...###\",\"###BBB###\"]}";
    harness_response r =
        post(&s, "maze-tac-toe", "application/json", open_border, strlen(open_border));
    ck_assert_int_eq(r.status, 422);
    ck_assert_ptr_nonnull(strstr(r.body, "\"path\":\"/maze/2\""));
    harness_response_free(&r);
    ck_assert_int_eq(harness_stop(&s), 0);
}
END_TEST

int main(void)
{
    json_object_seed(1);
    Suite *s = suite_create("e2e_puzzles");
    TCase *tc = tcase_create("puzzles");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, rubiks_contest_data_as_text);
    tcase_add_test(tc, rubiks_large_board_streams_and_replays);
    tcase_add_test(tc, invariant_boards_table_text_and_json);
    tcase_add_test(tc, mayan_sample_text_and_json);
    tcase_add_test(tc, maze_tac_toe_every_case_as_text);
    tcase_add_test(tc, maze_tac_toe_sample_boards_as_json);
    suite_add_tcase(s, tc);
    return check_run(s);
}
