/* The server's configuration: command-line flags first, then the same names in the environment
 * (PUZZLED_*), then defaults. Parsing is a pure function of argv and an environment lookup, so
 * it can be tested without starting anything. */
#ifndef PUZZLED_CONFIG_H
#define PUZZLED_CONFIG_H

#include <stddef.h>

#define CONFIG_BIND_MAX 64
#define CONFIG_ORIGINS_MAX 2048

typedef struct server_config {
    unsigned port;                         /* 0 = an ephemeral port */
    char bind[CONFIG_BIND_MAX];            /* an IPv4 or IPv6 literal */
    unsigned workers;                      /* solver threads */
    unsigned solve_threads;                /* threads one solve may use: 2 lets a deep search
                                              add a helper thread (budget.threads) */
    unsigned queue;                        /* jobs waiting for a worker, at most */
    size_t max_body;                       /* request body limit, bytes */
    long time_limit_ms;                    /* per-request solver budget */
    char cors_origins[CONFIG_ORIGINS_MAX]; /* "*" or a comma-separated allow-list */
    long grace_ms;                         /* how long SIGTERM waits for work in flight */
    long request_timeout_ms;               /* a request's line, headers and body arrive within */
    unsigned per_ip_connections;           /* open connections per client address; 0 = no limit */
    size_t body_memory;                    /* bodies held at once, bytes; 0 = from the memory */
} server_config;

typedef enum config_result {
    CONFIG_OK,    /* *cfg is filled in: run */
    CONFIG_HELP,  /* --help was given: print config_help() and exit 0 */
    CONFIG_ERROR, /* err holds one line naming the option and what it accepts: exit 2 */
} config_result;

/* Looks up an environment variable: NULL when it is not set. getenv() fits. */
typedef const char *(*config_env_fn)(const char *name);

/* Fills *cfg from argv (argv[0] is the program name) and env; err gets one line on
 * CONFIG_ERROR. `cpu_count` is the default worker count. */
config_result config_parse(server_config *cfg, int argc, char *const argv[], config_env_fn env,
                           unsigned cpu_count, char *err, size_t err_cap);

/* Every option with its environment name and default, for --help. */
const char *config_help(void);

/* True when origin is allowed by the configured list ("*" allows every origin). */
int config_origin_allowed(const server_config *cfg, const char *origin);
/* True when the list is the wildcard "*". */
int config_origin_wildcard(const server_config *cfg);

#endif
