#include "json_prescan.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The path to the value being opened is built from the open containers only when it is needed,
 * so the stack keeps where each container's current member came from. */
#define STACK_MAX 16
#define KEY_SHOWN 64
/* Whether each open container is an object, one bit per level, as deep as jansson parses. */
#define KIND_LEVELS 2048

typedef struct frame {
    bool object;
    bool expect_key;
    size_t index;    /* arrays: the current element */
    const char *key; /* objects: the current member's raw key (between the quotes) */
    size_t key_len;
} frame;

static void build_path(const frame *stack, unsigned depth, char *path, size_t cap)
{
    path[0] = '\0';
    char tmp[API_PATH_MAX];
    for (unsigned d = 0; d < depth && d < STACK_MAX; d++) {
        const frame *f = &stack[d];
        if (f->object) {
            char key[KEY_SHOWN + 1];
            size_t n = f->key_len < KEY_SHOWN ? f->key_len : KEY_SHOWN;
            if (!f->key || memchr(f->key, '\\', n)) return; /* escaped keys: stop the path here */
            memcpy(key, f->key, n);
            key[n] = '\0';
            api_path_join(tmp, sizeof tmp, path, key);
        } else {
            api_path_index(tmp, sizeof tmp, path, f->index);
        }
        snprintf(path, cap, "%s", tmp);
    }
}

static bool is_scalar_char(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
           c == '+' || c == '.';
}

bool json_prescan(const char *body, size_t len, const json_prescan_limits *lim, api_error *err)
{
    frame stack[STACK_MAX];
    unsigned depth = 0;
    /* Too deep is told only for a body whose brackets balance: a cut-off or unbalanced body is
     * malformed JSON first, and jansson (which stops at 2048 levels) says where. */
    bool too_deep = false, unbalanced = false;
    uint64_t kinds[KIND_LEVELS / 64] = {0};
    size_t cost = 0, cap = lim->max_values + JSON_PRESCAN_SLACK;
    const char *p = body, *end = body + len;
    while (p < end) {
        char c = *p;
        frame *top = depth > 0 && depth <= STACK_MAX ? &stack[depth - 1] : NULL;
        if (c == '"') {
            const char *start = ++p;
            while (p < end && *p != '"') p += *p == '\\' && p + 1 < end ? 2 : 1;
            if (top && top->object && top->expect_key) {
                top->key = start;
                top->key_len = (size_t)(p - start);
                top->expect_key = false;
            } else {
                cost += 1;
            }
            p++;
        } else if (c == '{' || c == '[') {
            cost += c == '{' ? JSON_PRESCAN_OBJECT_COST : JSON_PRESCAN_ARRAY_COST;
            if (depth >= lim->max_depth + JSON_PRESCAN_DEPTH_SLACK && !too_deep) {
                char path[API_PATH_MAX];
                build_path(stack, depth, path, sizeof path);
                api_fail(err, API_INVALID_REQUEST, path,
                         "This %s is nested %u levels deep; a request to this puzzle nests at "
                         "most %u level%s (see its schema).",
                         c == '{' ? "object" : "array", depth + 1, lim->max_depth,
                         api_plural(lim->max_depth));
                too_deep = true;
            }
            if (depth < STACK_MAX)
                stack[depth] = (frame){.object = c == '{', .expect_key = c == '{'};
            if (depth < KIND_LEVELS) {
                uint64_t bit = (uint64_t)1 << (depth % 64);
                kinds[depth / 64] = c == '{' ? kinds[depth / 64] | bit : kinds[depth / 64] & ~bit;
            }
            depth++;
            p++;
        } else if (c == '}' || c == ']') {
            if (depth == 0) {
                unbalanced = true; /* a closer with nothing open */
            } else {
                depth--;
                /* `[` closed by `}` or `{` by `]` */
                if (depth < KIND_LEVELS && ((kinds[depth / 64] >> (depth % 64)) & 1) != (c == '}'))
                    unbalanced = true;
            }
            p++;
        } else if (c == ',') {
            if (top) {
                if (top->object)
                    top->expect_key = true;
                else
                    top->index++;
            }
            p++;
        } else if (is_scalar_char(c)) {
            cost += 1;
            while (p < end && is_scalar_char(*p)) p++;
        } else {
            /* A colon outside strings ends a member's key, at any depth (the stack of paths
             * stops at STACK_MAX levels; the weight must not). */
            if (c == ':') cost += JSON_PRESCAN_MEMBER_COST;
            p++; /* white space, ':' and anything jansson will refuse */
        }
        if (cost > cap && too_deep) return false; /* the depth error, found first, stands */
        if (cost > cap)
            return api_fail(err, API_BODY_TOO_LARGE, NULL,
                            "The body holds more JSON values than the largest instance of this "
                            "puzzle needs (about %zu); it was refused before parsing.",
                            lim->max_values);
    }
    return !too_deep || depth != 0 || unbalanced;
}
