/* Placeholder until the maze-tac-toe codec lands: every request answers 404 unknown_puzzle-like
 * "not implemented" with a clear message. Replaced wholesale by the real codec. */
#include "puzzle.h"

static void *stub_from_json(json_t *body, api_error *err)
{
    (void)body;
    api_fail(err, API_INTERNAL, NULL, "The maze-tac-toe solver is not implemented yet.");
    return NULL;
}

static void *stub_from_text(const char *text, size_t len, api_error *err)
{
    (void)text;
    (void)len;
    return stub_from_json(NULL, err);
}

const api_puzzle codec_maze_tac_toe = {
    .slug = "maze-tac-toe",
    .title = "maze-tac-toe",
    .summary = "Not implemented yet.",
    .limits_json = "{}",
    .example_json = "{}",
    .example_text = "",
    .from_json = stub_from_json,
    .from_text = stub_from_text,
};
