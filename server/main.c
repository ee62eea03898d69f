/* puzzled: the process. Configuration, signals, the listening line, graceful shutdown; or,
 * with `puzzled solve`, the solvers on a file or pipe without a server (cli_solve.h). */
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accesslog.h"
#include "cli_solve.h"
#include "config.h"
#include "http.h"
#include "sysres.h"

static const char *env_lookup(const char *name)
{
    return getenv(name);
}

static void say(int fd, const char *line)
{
    ssize_t w = write(fd, line, strlen(line));
    (void)w;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "solve") == 0) return cli_solve_main(argc - 1, argv + 1);

    server_config cfg;
    char err[512];
    switch (config_parse(&cfg, argc, argv, env_lookup, (unsigned)sysres_cores(), err, sizeof err)) {
    case CONFIG_HELP:
        say(STDOUT_FILENO, config_help());
        return 0;
    case CONFIG_ERROR:
        say(STDERR_FILENO, err);
        say(STDERR_FILENO, "\n");
        return 2;
    case CONFIG_OK:
        break;
    }

    /* Before any thread exists: every thread inherits the mask, and only main takes the
     * signals, with sigwait(). SIGPIPE stays blocked: a vanished client is not a crash. */
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &signals, NULL);
    json_object_seed(0);

    http_server *server = http_start(&cfg, err, sizeof err);
    if (!server) {
        say(STDERR_FILENO, err);
        say(STDERR_FILENO, "\n");
        return 1;
    }
    char line[256];
    size_t n = 0;
    n += (size_t)snprintf(line, sizeof line, "{\"msg\":\"listening\",\"address\":");
    accesslog_json_string(line, sizeof line - 40, &n, cfg.bind);
    snprintf(line + n, sizeof line - n, ",\"port\":%u}\n", http_port(server));
    say(STDOUT_FILENO, line);

    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    int sig = 0;
    while (sigwait(&stop, &sig) != 0) {
    }
    http_begin_drain(server);
    snprintf(line, sizeof line, "{\"msg\":\"draining\",\"signal\":\"%s\",\"grace_ms\":%ld}\n",
             sig == SIGINT ? "SIGINT" : "SIGTERM", cfg.grace_ms);
    say(STDOUT_FILENO, line);
    http_drain_and_stop(server);
    say(STDOUT_FILENO, "{\"msg\":\"stopped\"}\n");
    return 0;
}
