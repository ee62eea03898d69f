/* config_parse() as a pure function: defaults, environment, flags beating the environment,
 * and every kind of bad value refused with a message naming the option and its range; and the
 * cores the defaults are sized by (sysres_cores). */
#define _GNU_SOURCE /* sched_setaffinity */
#include <check.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "config.h"
#include "sysres.h"

/* A fake environment: NAME=value pairs, NULL-terminated. */
static const char *const *fake_env;
static const char *lookup(const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; fake_env && fake_env[i]; i++)
        if (strncmp(fake_env[i], name, n) == 0 && fake_env[i][n] == '=') return fake_env[i] + n + 1;
    return NULL;
}

static config_result parse(server_config *cfg, const char *const *env, const char *const *args,
                           char *err)
{
    char *argv[32] = {"puzzled"};
    int argc = 1;
    for (int i = 0; args && args[i]; i++) argv[argc++] = (char *)args[i];
    fake_env = env;
    return config_parse(cfg, argc, argv, lookup, 3, err, 256);
}

START_TEST(defaults)
{
    server_config cfg;
    char err[256];
    ck_assert_int_eq(parse(&cfg, NULL, NULL, err), CONFIG_OK);
    ck_assert_uint_eq(cfg.port, 8080);
    ck_assert_str_eq(cfg.bind, "127.0.0.1");
    ck_assert_uint_eq(cfg.workers, 3); /* the CPU count passed in */
    ck_assert_uint_eq(cfg.solve_threads, 2);
    ck_assert_uint_eq(cfg.queue, 64);
    ck_assert_uint_eq(cfg.max_body, 16u * 1024 * 1024);
    ck_assert_int_eq(cfg.time_limit_ms, 10000);
    ck_assert_str_eq(cfg.cors_origins, "*");
    ck_assert_int_eq(cfg.grace_ms, 30000);
    ck_assert(config_origin_wildcard(&cfg));
    ck_assert(config_origin_allowed(&cfg, "https://any.example"));
}
END_TEST

START_TEST(env_then_flags)
{
    server_config cfg;
    char err[256];
    const char *env[] = {"PUZZLED_PORT=9000",
                         "PUZZLED_BIND=::1",
                         "PUZZLED_WORKERS=7",
                         "PUZZLED_QUEUE=5",
                         "PUZZLED_MAX_BODY=1000",
                         "PUZZLED_TIME_LIMIT_MS=50",
                         "PUZZLED_CORS_ORIGINS=https://a.example,http://b.example:8080",
                         "PUZZLED_GRACE_MS=0",
                         NULL};
    ck_assert_int_eq(parse(&cfg, env, NULL, err), CONFIG_OK);
    ck_assert_uint_eq(cfg.port, 9000);
    ck_assert_str_eq(cfg.bind, "::1");
    ck_assert_uint_eq(cfg.workers, 7);
    ck_assert_uint_eq(cfg.queue, 5);
    ck_assert_uint_eq(cfg.max_body, 1000);
    ck_assert_int_eq(cfg.time_limit_ms, 50);
    ck_assert_int_eq(cfg.grace_ms, 0);
    ck_assert(!config_origin_wildcard(&cfg));
    ck_assert(config_origin_allowed(&cfg, "https://a.example"));
    ck_assert(config_origin_allowed(&cfg, "http://b.example:8080"));
    ck_assert(!config_origin_allowed(&cfg, "http://b.example"));
    ck_assert(!config_origin_allowed(&cfg, "https://a.exampl"));

    const char *args[] = {"--port", "0",      "--workers=2", "--max-body",
                          "77",     "--bind", "0.0.0.0",     NULL};
    ck_assert_int_eq(parse(&cfg, env, args, err), CONFIG_OK);
    ck_assert_uint_eq(cfg.port, 0);
    ck_assert_uint_eq(cfg.workers, 2);
    ck_assert_uint_eq(cfg.max_body, 77);
    ck_assert_str_eq(cfg.bind, "0.0.0.0");
    ck_assert_uint_eq(cfg.queue, 5); /* untouched by flags: the environment's */
}
END_TEST

/* Each bad value: CONFIG_ERROR and a message naming the option. */
static void refuse(const char *const *env, const char *const *args, const char *option,
                   const char *range)
{
    server_config cfg;
    char err[256];
    ck_assert_int_eq(parse(&cfg, env, args, err), CONFIG_ERROR);
    ck_assert_msg(strstr(err, option) != NULL, "\"%s\" does not name %s", err, option);
    if (range) ck_assert_msg(strstr(err, range) != NULL, "\"%s\" lacks \"%s\"", err, range);
    ck_assert_ptr_null(strchr(err, '\n'));
}

START_TEST(bad_values)
{
    refuse(NULL, (const char *[]){"--port", "65536", NULL}, "port", "0..65535");
    refuse(NULL, (const char *[]){"--port", "-1", NULL}, "port", "0..65535");
    refuse(NULL, (const char *[]){"--port", "80x", NULL}, "port", NULL);
    refuse(NULL, (const char *[]){"--port", "", NULL}, "port", NULL);
    refuse(NULL, (const char *[]){"--workers", "0", NULL}, "workers", "1..1024");
    refuse(NULL, (const char *[]){"--queue", "0", NULL}, "queue", "1..65536");
    refuse(NULL, (const char *[]){"--max-body", "0", NULL}, "max-body", NULL);
    refuse(NULL, (const char *[]){"--max-body", "99999999999999999999", NULL}, "max-body", NULL);
    refuse(NULL, (const char *[]){"--time-limit-ms", "0", NULL}, "time-limit-ms", NULL);
    refuse(NULL, (const char *[]){"--grace-ms", "1e3", NULL}, "grace-ms", NULL);
    refuse(NULL, (const char *[]){"--bind", "localhost", NULL}, "bind", "address");
    refuse(NULL, (const char *[]){"--cors-origins", "a,,b", NULL}, "cors-origins", NULL);
    refuse(NULL, (const char *[]){"--cors-origins", "a b", NULL}, "cors-origins", NULL);
    refuse(NULL, (const char *[]){"--port", NULL}, "port", NULL); /* missing value */
    refuse(NULL, (const char *[]){"--frobnicate", "1", NULL}, "frobnicate", NULL);
    refuse(NULL, (const char *[]){"stray", NULL}, "stray", NULL);
    refuse((const char *[]){"PUZZLED_QUEUE=lots", NULL}, NULL, "PUZZLED_QUEUE", "1..65536");
    refuse((const char *[]){"PUZZLED_WORKERS=0", NULL}, NULL, "workers", NULL);
}
END_TEST

/* Two threads for one solve by default, one on a machine of one CPU; 1 or 2 when given. */
START_TEST(solve_threads)
{
    server_config cfg;
    char err[256];
    ck_assert_int_eq(config_parse(&cfg, 1, (char *[]){"puzzled", NULL}, NULL, 1, err, sizeof err),
                     CONFIG_OK);
    ck_assert_uint_eq(cfg.solve_threads, 1);
    const char *env[] = {"PUZZLED_SOLVE_THREADS=1", NULL};
    ck_assert_int_eq(parse(&cfg, env, NULL, err), CONFIG_OK);
    ck_assert_uint_eq(cfg.solve_threads, 1);
    ck_assert_int_eq(parse(&cfg, env, (const char *[]){"--solve-threads", "2", NULL}, err),
                     CONFIG_OK);
    ck_assert_uint_eq(cfg.solve_threads, 2);
    refuse(NULL, (const char *[]){"--solve-threads", "3", NULL}, "solve-threads", "1 or 2");
    refuse(NULL, (const char *[]){"--solve-threads", "0", NULL}, "solve-threads", "1 or 2");
}
END_TEST

START_TEST(help)
{
    server_config cfg;
    char err[256];
    ck_assert_int_eq(parse(&cfg, NULL, (const char *[]){"--port", "1", "--help", NULL}, err),
                     CONFIG_HELP);
    const char *text = config_help();
    const char *names[] = {"--port",
                           "PUZZLED_PORT",
                           "--bind",
                           "PUZZLED_BIND",
                           "--workers",
                           "PUZZLED_WORKERS",
                           "--solve-threads",
                           "PUZZLED_SOLVE_THREADS",
                           "--queue",
                           "PUZZLED_QUEUE",
                           "--max-body",
                           "PUZZLED_MAX_BODY",
                           "--time-limit-ms",
                           "PUZZLED_TIME_LIMIT_MS",
                           "--cors-origins",
                           "PUZZLED_CORS_ORIGINS",
                           "--grace-ms",
                           "PUZZLED_GRACE_MS",
                           "--help",
                           "8080",
                           "127.0.0.1",
                           "16777216",
                           "30000"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        ck_assert_msg(strstr(text, names[i]) != NULL, "--help lacks %s", names[i]);
}
END_TEST

/* The cores follow the CPU affinity (as a cpuset sets it): pinned to one CPU, one core; back on
 * all of them, as many as the affinity allows. */
START_TEST(cores_follow_the_affinity)
{
    cpu_set_t all, one;
    ck_assert_int_eq(sched_getaffinity(0, sizeof all, &all), 0);
    int first = 0;
    while (!CPU_ISSET(first, &all)) first++;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    ck_assert_int_eq(sched_setaffinity(0, sizeof one, &one), 0);
    int pinned = sysres_cores();
    ck_assert_int_eq(sched_setaffinity(0, sizeof all, &all), 0);
    ck_assert_int_eq(pinned, 1);
    int cores = sysres_cores();
    ck_assert_int_ge(cores, 1);
    ck_assert_int_le(cores, CPU_COUNT(&all));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("config");
    TCase *tc = tcase_create("parse");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, defaults);
    tcase_add_test(tc, env_then_flags);
    tcase_add_test(tc, bad_values);
    tcase_add_test(tc, solve_threads);
    tcase_add_test(tc, help);
    tcase_add_test(tc, cores_follow_the_affinity);
    suite_add_tcase(s, tc);
    return check_run(s);
}
