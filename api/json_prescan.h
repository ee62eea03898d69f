/* A cheap look at a JSON body before it is parsed. jansson allocates every value it reads (an
 * empty object costs ~250 bytes of heap for 3 bytes of input) and has no depth or size hooks, so
 * a 16 MiB body of `[{},{},...]` took 1.2 GiB and seconds to parse. This pass reads the bytes
 * once, allocates nothing, and refuses, before jansson sees them:
 *   - containers nested deeper than the puzzle's schema ever nests, by more than a little (400
 *     invalid_request, with the path of the container that goes too deep; unless the brackets
 *     do not balance: such a body, cut off say, is left to jansson, which calls it malformed),
 *     and
 *   - bodies holding more values (object members included) than the puzzle's largest instance
 *     needs, plus slack so that a near miss still gets the codec's precise error (413
 *     body_too_large).
 * It does not validate JSON: malformed input passes through to jansson, which reports it. */
#ifndef PUZZLED_JSON_PRESCAN_H
#define PUZZLED_JSON_PRESCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* Weights of the value count: a value's rough heap cost in jansson, in units of one number. */
#define JSON_PRESCAN_OBJECT_COST 8
#define JSON_PRESCAN_ARRAY_COST 2
/* An object's member, over its value: the key's string and hash-table entry (~185 bytes). A
 * million keys of `{"k1":0,...}` fit in 16 MiB and took 130-185 MiB to parse when they cost
 * nothing here. */
#define JSON_PRESCAN_MEMBER_COST 6
/* Values beyond the schema's largest instance still let through to the codec. */
#define JSON_PRESCAN_SLACK 1024
/* Levels of nesting beyond the schema's still let through to the codec, which names the field
 * and what it wants there (`"n" must be an integer`, `unknown field "size"`); the values'
 * weight bounds their memory all the same. */
#define JSON_PRESCAN_DEPTH_SLACK 2

typedef struct json_prescan_limits {
    unsigned max_depth; /* containers nested, the body's object counting 1 */
    size_t max_values;  /* weighted values of the largest valid instance */
} json_prescan_limits;

/* true when body[0..len) fits; false + err otherwise. */
bool json_prescan(const char *body, size_t len, const json_prescan_limits *lim, api_error *err);

#endif
