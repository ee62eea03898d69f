/* The registry: the static table of puzzles; the server reaches puzzles only through it. */
#ifndef PUZZLED_REGISTRY_H
#define PUZZLED_REGISTRY_H

#include <stddef.h>

#include "puzzle.h"

/* The puzzle with this slug (exact match), or NULL. */
const api_puzzle *registry_find(const char *slug);
size_t registry_count(void);
const api_puzzle *registry_at(size_t index);
/* The GET /puzzles body: every puzzle with its limits and examples. malloc'd, NUL-terminated. */
char *registry_puzzles_json(size_t *len);

#endif
