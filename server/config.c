#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum option_kind { OPT_UNSIGNED, OPT_SIZE, OPT_LONG, OPT_BIND, OPT_ORIGINS } option_kind;

typedef struct option_spec {
    const char *flag; /* without the leading "--" */
    const char *env;
    option_kind kind;
    long long min, max; /* accepted range of a number */
    const char *range;  /* the range as the error message and --help say it */
    const char *default_text;
} option_spec;

static const option_spec options[] = {
    {"port", "PUZZLED_PORT", OPT_UNSIGNED, 0, 65535, "an integer 0..65535 (0 = ephemeral)", "8080"},
    {"bind", "PUZZLED_BIND", OPT_BIND, 0, 0, "an IPv4 or IPv6 address literal", "127.0.0.1"},
    {"workers", "PUZZLED_WORKERS", OPT_UNSIGNED, 1, 1024, "an integer 1..1024",
     "the cores it may use (affinity, CPU quota)"},
    {"solve-threads", "PUZZLED_SOLVE_THREADS", OPT_UNSIGNED, 1, 2,
     "1 or 2 (2: a long Mayan search adds a helper thread while a core is idle)",
     "2 (1 on one core)"},
    {"queue", "PUZZLED_QUEUE", OPT_UNSIGNED, 1, 65536, "an integer 1..65536", "64"},
    {"max-body", "PUZZLED_MAX_BODY", OPT_SIZE, 1, 1LL << 30, "bytes, an integer 1..1073741824",
     "16777216 (16 MiB)"},
    {"time-limit-ms", "PUZZLED_TIME_LIMIT_MS", OPT_LONG, 1, 3600000, "milliseconds, 1..3600000",
     "10000"},
    {"cors-origins", "PUZZLED_CORS_ORIGINS", OPT_ORIGINS, 0, 0,
     "\"*\" or a comma-separated list of origins", "*"},
    {"grace-ms", "PUZZLED_GRACE_MS", OPT_LONG, 0, 3600000, "milliseconds, 0..3600000", "30000"},
    {"request-timeout-ms", "PUZZLED_REQUEST_TIMEOUT_MS", OPT_LONG, 100, 3600000,
     "milliseconds, 100..3600000", "30000"},
    {"per-ip-connections", "PUZZLED_PER_IP_CONNECTIONS", OPT_UNSIGNED, 0, 1000000,
     "an integer 0..1000000 (0 = no limit)", "0 (no limit)"},
    {"body-memory", "PUZZLED_BODY_MEMORY", OPT_SIZE, 0, 1LL << 40,
     "bytes, an integer 0..2^40 (0 = from the memory limit)",
     "0: 1/8 of the memory limit (cgroup or RAM), within [max-body, 256 MiB]"},
};

#define OPTION_COUNT (sizeof options / sizeof options[0])

const char *config_help(void)
{
    static char text[4096];
    if (text[0]) return text;
    size_t n = (size_t)snprintf(
        text, sizeof text,
        "usage: puzzled [options]\n"
        "       puzzled solve <puzzle> [FILE] [--json] ...  (puzzled solve --help)\n"
        "Flags beat the environment, which beats the defaults.\n\n");
    for (size_t i = 0; i < OPTION_COUNT && n < sizeof text; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "  --%-19s %-27s %s; default %s\n",
                              options[i].flag, options[i].env, options[i].range,
                              options[i].default_text);
    if (n < sizeof text)
        snprintf(text + n, sizeof text - n, "  --%-19s %-27s this text\n", "help", "");
    return text;
}

static void defaults(server_config *cfg, unsigned cpu_count)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->port = 8080;
    snprintf(cfg->bind, sizeof cfg->bind, "127.0.0.1");
    cfg->workers = cpu_count < 1 ? 1 : cpu_count > 1024 ? 1024 : cpu_count;
    cfg->solve_threads = cpu_count >= 2 ? 2 : 1;
    cfg->queue = 64;
    cfg->max_body = 16u << 20;
    cfg->time_limit_ms = 10000;
    snprintf(cfg->cors_origins, sizeof cfg->cors_origins, "*");
    cfg->grace_ms = 30000;
    cfg->request_timeout_ms = 30000;
    cfg->per_ip_connections = 0;
    cfg->body_memory = 0;
}

/* A whole decimal integer within [min, max]; no sign, no spaces, no suffix. */
static int parse_number(const char *text, long long min, long long max, long long *out)
{
    if (!text[0] || text[0] < '0' || text[0] > '9') return 0;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end || v > (unsigned long long)max || (long long)v < min) return 0;
    *out = (long long)v;
    return 1;
}

/* Checks an origin list: "*" alone, or comma-separated items without spaces or control bytes. */
static int valid_origins(const char *text)
{
    if (strcmp(text, "*") == 0) return 1;
    if (!text[0]) return 0;
    size_t item = 0;
    for (const char *p = text;; p++) {
        if (*p == ',' || !*p) {
            if (item == 0) return 0;
            if (!*p) return 1;
            item = 0;
        } else if ((unsigned char)*p <= ' ' || *p == 0x7f || *p == '*') {
            return 0;
        } else {
            item++;
        }
    }
}

static int apply(server_config *cfg, const option_spec *o, const char *value, const char *source,
                 char *err, size_t err_cap)
{
    long long v = 0;
    int ok = 1;
    switch (o->kind) {
    case OPT_UNSIGNED:
    case OPT_SIZE:
    case OPT_LONG:
        ok = parse_number(value, o->min, o->max, &v);
        break;
    case OPT_BIND: {
        unsigned char addr[16];
        ok = strlen(value) < sizeof cfg->bind &&
             (inet_pton(AF_INET, value, addr) == 1 || inet_pton(AF_INET6, value, addr) == 1);
        break;
    }
    case OPT_ORIGINS:
        ok = strlen(value) < sizeof cfg->cors_origins && valid_origins(value);
        break;
    }
    if (!ok) {
        snprintf(err, err_cap, "puzzled: invalid %s \"%.64s\" (from %s): expected %s", o->flag,
                 value, source, o->range);
        return 0;
    }
    if (strcmp(o->flag, "port") == 0)
        cfg->port = (unsigned)v;
    else if (strcmp(o->flag, "bind") == 0)
        snprintf(cfg->bind, sizeof cfg->bind, "%s", value);
    else if (strcmp(o->flag, "workers") == 0)
        cfg->workers = (unsigned)v;
    else if (strcmp(o->flag, "solve-threads") == 0)
        cfg->solve_threads = (unsigned)v;
    else if (strcmp(o->flag, "queue") == 0)
        cfg->queue = (unsigned)v;
    else if (strcmp(o->flag, "max-body") == 0)
        cfg->max_body = (size_t)v;
    else if (strcmp(o->flag, "time-limit-ms") == 0)
        cfg->time_limit_ms = (long)v;
    else if (strcmp(o->flag, "cors-origins") == 0)
        snprintf(cfg->cors_origins, sizeof cfg->cors_origins, "%s", value);
    else if (strcmp(o->flag, "grace-ms") == 0)
        cfg->grace_ms = (long)v;
    else if (strcmp(o->flag, "request-timeout-ms") == 0)
        cfg->request_timeout_ms = (long)v;
    else if (strcmp(o->flag, "per-ip-connections") == 0)
        cfg->per_ip_connections = (unsigned)v;
    else if (strcmp(o->flag, "body-memory") == 0)
        cfg->body_memory = (size_t)v;
    return 1;
}

static const option_spec *find_flag(const char *name, size_t len)
{
    for (size_t i = 0; i < OPTION_COUNT; i++)
        if (strlen(options[i].flag) == len && strncmp(options[i].flag, name, len) == 0)
            return &options[i];
    return NULL;
}

config_result config_parse(server_config *cfg, int argc, char *const argv[], config_env_fn env,
                           unsigned cpu_count, char *err, size_t err_cap)
{
    defaults(cfg, cpu_count);
    err[0] = '\0';
    /* Environment first, so that flags parsed afterwards override it. */
    for (size_t i = 0; env && i < OPTION_COUNT; i++) {
        const char *value = env(options[i].env);
        if (value && !apply(cfg, &options[i], value, options[i].env, err, err_cap))
            return CONFIG_ERROR;
    }
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) return CONFIG_HELP;
        if (strncmp(arg, "--", 2) != 0) {
            snprintf(err, err_cap, "puzzled: unexpected argument \"%.64s\"; see --help", arg);
            return CONFIG_ERROR;
        }
        const char *name = arg + 2;
        const char *eq = strchr(name, '=');
        size_t name_len = eq ? (size_t)(eq - name) : strlen(name);
        const option_spec *o = find_flag(name, name_len);
        if (!o) {
            snprintf(err, err_cap, "puzzled: unknown option \"%.64s\"; see --help", arg);
            return CONFIG_ERROR;
        }
        const char *value = eq ? eq + 1 : NULL;
        if (!value) {
            if (i + 1 >= argc) {
                snprintf(err, err_cap, "puzzled: option --%s needs a value: %s", o->flag, o->range);
                return CONFIG_ERROR;
            }
            value = argv[++i];
        }
        char source[32];
        snprintf(source, sizeof source, "--%s", o->flag);
        if (!apply(cfg, o, value, source, err, err_cap)) return CONFIG_ERROR;
    }
    return CONFIG_OK;
}

int config_origin_wildcard(const server_config *cfg)
{
    return strcmp(cfg->cors_origins, "*") == 0;
}

int config_origin_allowed(const server_config *cfg, const char *origin)
{
    if (config_origin_wildcard(cfg)) return 1;
    size_t n = strlen(origin);
    for (const char *p = cfg->cors_origins; *p;) {
        size_t item = strcspn(p, ",");
        if (item == n && strncmp(p, origin, n) == 0) return 1;
        p += item;
        if (*p == ',') p++;
    }
    return 0;
}
