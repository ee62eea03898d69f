#include "registry.h"

#include <stdio.h>
#include <string.h>

extern const api_puzzle codec_nine;
extern const api_puzzle codec_rubiks_rectangle;
extern const api_puzzle codec_invariant_boards;
extern const api_puzzle codec_mayan;
extern const api_puzzle codec_maze_tac_toe;

static const api_puzzle *const puzzles[] = {
    &codec_nine,  &codec_rubiks_rectangle, &codec_invariant_boards,
    &codec_mayan, &codec_maze_tac_toe,
};

#define PUZZLE_COUNT (sizeof puzzles / sizeof puzzles[0])

const api_puzzle *registry_find(const char *slug)
{
    for (size_t i = 0; i < PUZZLE_COUNT; i++)
        if (strcmp(puzzles[i]->slug, slug) == 0) return puzzles[i];
    return NULL;
}

size_t registry_count(void)
{
    return PUZZLE_COUNT;
}

const api_puzzle *registry_at(size_t index)
{
    return index < PUZZLE_COUNT ? puzzles[index] : NULL;
}

char *registry_puzzles_json(size_t *len)
{
    json_t *list = json_array();
    for (size_t i = 0; i < PUZZLE_COUNT; i++) {
        const api_puzzle *p = puzzles[i];
        json_t *limits = json_loads(p->limits_json, 0, NULL);
        json_t *example = json_loads(p->example_json, 0, NULL);
        json_t *row = json_pack("{s:s, s:s, s:s, s:s, s:o*, s:o*, s:s}", "slug", p->slug, "title",
                                p->title, "summary", p->summary, "path", "", "limits", limits,
                                "example", example, "example_text", p->example_text);
        char path[64];
        snprintf(path, sizeof path, "/solve/%s", p->slug);
        json_object_set_new(row, "path", json_string(path));
        json_array_append_new(list, row);
    }
    json_t *root = json_pack("{s:o}", "puzzles", list);
    char *text = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    if (text && len) *len = strlen(text);
    return text;
}
