/* `puzzled solve <puzzle> [FILE]`: the solvers without a server, for contest files and pipes.
 * Reads the contest text (or JSON with --json) from FILE or standard input, writes the answer
 * that POST /solve/<puzzle> would give to standard output, instance by instance (api/batch.h). */
#ifndef PUZZLED_CLI_SOLVE_H
#define PUZZLED_CLI_SOLVE_H

/* argv[0] is "solve". Returns the exit status: 0 solved, 1 bad input (the contract's error on
 * standard error) or a read/write failure, 2 bad usage. */
int cli_solve_main(int argc, char **argv);

#endif
