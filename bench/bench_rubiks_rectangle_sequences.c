/* Offline search for the joint row sequences listed in solvers/rubiks_rectangle.c: runs of row
 * flips shared by two pairs of rows (events T, B of the first pair: 1, 2; of the second: 5, 6)
 * or by three (the third pair: 9, a). A sequence is scored by its mean column cost over
 * uniformly random targets (the cheapest net for each tuple of targets); the best two of each
 * parity class and length are printed.
 *
 *   build/bench/bench_rubiks_rectangle_sequences 6 12        exhaustive, lengths 6..12 (~20 s)
 *   build/bench/bench_rubiks_rectangle_sequences 14 16 climb hill climbing, 400 restarts each
 *   build/bench/bench_rubiks_rectangle_sequences 29 32 triple three pairs, hill climbing from
 *       3 random starts per length and class (odd pairs first), about 10 ms per score
 *   build/bench/bench_rubiks_rectangle_sequences 36 36 quad [steps [mask [start]]] four pairs
 *       (events of the fourth: d, e), one start per class (or only the class of odd-pair mask;
 *       from the run `start` if given, "-" for none; annealed from temperature T if given:
 *       `36 36 quad 3000 0 - 0.02`), about 0.1-0.2 s per score
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rubiks_rectangle_group.h"

static rubiks_rectangle_group group;
static rubiks_rectangle_seq seq;

typedef struct best_list {
    double mean[4][2];
    char rows[4][2][RR_SEQ_MAX + 1];
} best_list;

static void offer(best_list *best, const uint8_t *rows, int len)
{
    rubiks_rectangle_seq_free(&seq);
    rubiks_rectangle_seq_init(&group, rows, len, 2, &seq, NULL);
    if (!seq.complete || seq.pairs != 2) return;
    int cls = seq.parity;
    for (int r = 0; r < 2; r++) {
        if (seq.mean_cost < best->mean[cls][r] - 1e-9) {
            if (r == 0) {
                best->mean[cls][1] = best->mean[cls][0];
                memcpy(best->rows[cls][1], best->rows[cls][0], sizeof best->rows[cls][0]);
            }
            best->mean[cls][r] = seq.mean_cost;
            for (int i = 0; i < len; i++) best->rows[cls][r][i] = (char)('0' + rows[i]);
            best->rows[cls][r][len] = '\0';
            return;
        }
        if (seq.mean_cost < best->mean[cls][r] + 1e-9) return; /* ties: keep the first */
    }
}

/* Three or four pairs: hill climbing (swap two events, or T <-> B of one) for the classes whose
 * odd pairs come first; the solver maps a block's pairs onto them. */
static const char *start_text; /* a run to climb from instead of random ones */
static double anneal;          /* starting temperature: worse runs are taken with exp(-d/T) */

static void multi(int len, int pairs, int restarts, int steps, int only)
{
    static const uint8_t ev[8] = {1, 2, 5, 6, 9, 10, 13, 14};
    static const unsigned classes[5] = {0, 1, 3, 7, 15};
    int events = 2 * pairs;
    srand(777u + (unsigned)len + 1000u * (unsigned)(pairs - 3));
    for (int k = 0; k <= pairs; k++) {
        unsigned want = classes[k];
        if ((k & 1) != (len & 1)) continue; /* every event flips one pair's parity */
        if (only >= 0 && (unsigned)only != want) continue;
        double best = 99;
        char best_text[RR_SEQ_MAX + 1] = "";
        for (int r = 0; r < restarts; r++) {
            uint8_t cur[RR_SEQ_MAX];
            unsigned par;
            do {
                par = 0;
                for (int i = 0; i < len; i++) {
                    do cur[i] = ev[rand() % events];
                    while (i > 0 && cur[i] == cur[i - 1]);
                    par ^= 1u << RR_ROW_PAIR(cur[i]);
                }
            } while (par != want);
            if (start_text && (int)strlen(start_text) == len)
                for (int i = 0; i < len; i++)
                    cur[i] = (uint8_t)(start_text[i] <= '9' ? start_text[i] - '0'
                                                            : start_text[i] - 'a' + 10);
            rubiks_rectangle_seq_free(&seq);
            rubiks_rectangle_seq_init(&group, cur, len, pairs, &seq, NULL);
            double m = seq.complete ? seq.mean_cost : 99;
            for (int step = 0; step < steps; step++) {
                uint8_t t[RR_SEQ_MAX];
                memcpy(t, cur, sizeof t);
                int a = rand() % len;
                int kind = rand() % 3;
                if (kind == 0) {
                    int z = rand() % len;
                    uint8_t v = t[a];
                    t[a] = t[z];
                    t[z] = v;
                } else if (kind == 1) {
                    t[a] ^= 3;
                } else {
                    /* move one event elsewhere (the parities stay) */
                    int z = rand() % len;
                    uint8_t v = t[a];
                    if (a < z)
                        memmove(t + a, t + a + 1, (size_t)(z - a));
                    else
                        memmove(t + z + 1, t + z, (size_t)(a - z));
                    t[z] = v;
                }
                bool ok = true;
                for (int i = 1; i < len; i++)
                    if (t[i] == t[i - 1]) ok = false;
                if (!ok) continue;
                rubiks_rectangle_seq_free(&seq);
                rubiks_rectangle_seq_init(&group, t, len, pairs, &seq, NULL);
                double m2 = seq.complete && seq.pairs == pairs ? seq.mean_cost : 99;
                double temp = anneal * (1.0 - (double)step / steps);
                bool take = m2 <= m || (m2 < 99 && temp > 0 &&
                                        (double)rand() / RAND_MAX < exp(-(m2 - m) / temp));
                if (take) m = m2, memcpy(cur, t, sizeof t);
                if (m < best) {
                    best = m;
                    for (int i = 0; i < len; i++) best_text[i] = "0123456789abcdef"[cur[i]];
                    best_text[len] = '\0';
                    printf("  step %d: %.4f  \"%s\"\n", step, best, best_text);
                    fflush(stdout);
                }
            }
            if (m < best) {
                best = m;
                for (int i = 0; i < len; i++) best_text[i] = "0123456789abcdef"[cur[i]];
                best_text[len] = '\0';
            }
        }
        printf("length %2d, %d pairs, odd mask %u: mean %.4f  \"%s\"\n", len, pairs, want, best,
               best_text);
        fflush(stdout);
    }
}

static double score(const uint8_t *rows, int len)
{
    rubiks_rectangle_seq_free(&seq);
    rubiks_rectangle_seq_init(&group, rows, len, 2, &seq, NULL);
    return seq.complete && seq.pairs == 2 ? seq.mean_cost : 99;
}

static const uint8_t events[4] = {1, 2, 5, 6};

static void exhaustive(best_list *best, int len)
{
    long total = 1;
    for (int i = 1; i < len; i++) total *= 4;
    /* The first event is T of the first pair (the others are the same up to symmetry). */
    for (long code = 0; code < total; code++) {
        uint8_t rows[RR_SEQ_MAX] = {1};
        bool ok = true;
        long v = code;
        for (int i = 1; i < len; i++, v /= 4) {
            rows[i] = events[v % 4];
            if (rows[i] == rows[i - 1]) ok = false;
        }
        if (ok) offer(best, rows, len);
    }
}

static void climb(best_list *best, int len, int restarts)
{
    srand(12345u + (unsigned)len);
    for (int it = 0; it < restarts; it++) {
        uint8_t cur[RR_SEQ_MAX];
        for (int i = 0; i < len; i++) do
                cur[i] = events[rand() % 4];
            while (i > 0 && cur[i] == cur[i - 1]);
        double m = score(cur, len);
        for (int step = 0; step < 300; step++) {
            uint8_t t[RR_SEQ_MAX];
            memcpy(t, cur, sizeof t);
            t[rand() % len] = events[rand() % 4];
            if (rand() % 3 == 0) t[rand() % len] = events[rand() % 4];
            bool ok = true;
            for (int i = 1; i < len; i++)
                if (t[i] == t[i - 1]) ok = false;
            if (!ok) continue;
            double m2 = score(t, len);
            if (m2 <= m) m = m2, memcpy(cur, t, sizeof t);
        }
        offer(best, cur, len);
    }
}

int main(int argc, char **argv)
{
    int from = argc > 1 ? atoi(argv[1]) : 6, to = argc > 2 ? atoi(argv[2]) : 10;
    bool hill = argc > 3 && strcmp(argv[3], "climb") == 0;
    bool three = argc > 3 && strcmp(argv[3], "triple") == 0;
    bool four = argc > 3 && strcmp(argv[3], "quad") == 0;
    int steps = argc > 4 ? atoi(argv[4]) : 500, only = argc > 5 ? atoi(argv[5]) : -1;
    start_text = argc > 6 && strcmp(argv[6], "-") != 0 ? argv[6] : NULL;
    anneal = argc > 7 ? atof(argv[7]) : 0;
    if (from < 1 || to > RR_SEQ_MAX || from > to) {
        fprintf(stderr, "lengths must lie in 1..%d\n", RR_SEQ_MAX);
        return 1;
    }
    rubiks_rectangle_group_init(&group);
    if (four) {
        for (int len = from; len <= to; len++) multi(len, 4, 1, steps, only);
        rubiks_rectangle_seq_free(&seq);
        return 0;
    }
    if (three) {
        for (int len = from; len <= to; len++) multi(len, 3, 3, steps, only);
        rubiks_rectangle_seq_free(&seq);
        return 0;
    }
    for (int len = from; len <= to; len++) {
        best_list best;
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 2; r++) best.mean[c][r] = 99, best.rows[c][r][0] = '\0';
        if (hill)
            climb(&best, len, 400);
        else
            exhaustive(&best, len);
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 2; r++)
                if (best.mean[c][r] < 99)
                    printf("length %2d, parities (%d,%d): mean %.4f  \"%s\"\n", len, c & 1, c >> 1,
                           best.mean[c][r], best.rows[c][r]);
        fflush(stdout);
    }
    rubiks_rectangle_seq_free(&seq);
    return 0;
}
