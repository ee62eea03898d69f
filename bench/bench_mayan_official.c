/* Mayan puzzle against a contest's judge data, through the real text codec: every
 * <dir>/<name>.in is read with the codec's from_text, solved with the default budget, written
 * with write_text and compared (whitespace-insensitively) with <dir>/<name>.out.
 *
 *   build/bench/bench_mayan_official [dir]
 *
 * The data is not part of the repository; without a directory, or when it holds no .in files,
 * the program says SKIPPED and exits 0. Exit status 1 when an answer differs. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"

#include "registry.h"

#define BUDGET_MS 10000

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger) free(buf);
            buf = bigger;
        }
    }
    fclose(f);
    if (buf) buf[n] = '\0', *len = n;
    return buf;
}

/* The text with every run of whitespace made one space, none at the ends. */
static void squeeze(char *s)
{
    char *out = s;
    bool space = false;
    for (char *p = s; *p; p++) {
        if (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') {
            space = out != s;
            continue;
        }
        if (space) *out++ = ' ';
        space = false;
        *out++ = *p;
    }
    *out = '\0';
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : NULL;
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d) {
        printf("SKIPPED: no judge data directory given or readable (usage: %s DIR)\n", argv[0]);
        return 0;
    }
    char *names[256];
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) && count < 256) {
        size_t n = strlen(e->d_name);
        if (n > 3 && strcmp(e->d_name + n - 3, ".in") == 0) names[count++] = strdup(e->d_name);
    }
    closedir(d);
    if (!count) {
        printf("SKIPPED: no .in files in %s\n", dir);
        return 0;
    }
    qsort(names, (size_t)count, sizeof *names, by_name);

    const api_puzzle *p = registry_find("mayan");
    int failed = 0;
    double total_ms = 0;
    for (int i = 0; i < count; i++) {
        char in_path[4096], out_path[4096];
        snprintf(in_path, sizeof in_path, "%s/%s", dir, names[i]);
        snprintf(out_path, sizeof out_path, "%s/%.*s.out", dir, (int)strlen(names[i]) - 3,
                 names[i]);
        size_t in_len, out_len;
        char *in = read_all(in_path, &in_len), *want = read_all(out_path, &out_len);
        if (!in || !want) {
            printf("%-14s missing input or expected output\n", names[i]);
            failed++;
            free(in), free(want);
            continue;
        }
        api_error err = {0};
        void *job = p->from_text(in, in_len, &err);
        char got[4096] = "";
        double ms = 0;
        if (!job) {
            snprintf(got, sizeof got, "(rejected: %s)", err.message);
        } else {
            budget b;
            budget_init_ms(&b, BUDGET_MS, NULL);
            double t0 = cpu_ms();
            bool ok = p->solve(job, &b, &err);
            ms = cpu_ms() - t0;
            if (!ok) {
                snprintf(got, sizeof got, "(failed: %s)", err.message);
            } else {
                api_writer w = {got, sizeof got - 1, 0};
                api_cursor cursor = {0};
                p->write_text(job, &cursor, &w);
                got[w.len] = '\0';
            }
            p->free(job);
        }
        total_ms += ms;
        squeeze(got);
        squeeze(want);
        bool same = strcmp(got, want) == 0;
        failed += !same;
        printf("%-14s %-4s %8.3f ms  %s\n", names[i], same ? "ok" : "DIFF", ms, got);
        if (!same) printf("%14s want     %s\n", "", want);
        free(in), free(want), free(names[i]);
    }
    printf("%d of %d answers equal the judge's; %.3f ms CPU in all\n", count - failed, count,
           total_ms);
    return failed ? 1 : 0;
}
