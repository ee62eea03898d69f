/* Reading a request's fields with the contract's errors: each failure is invalid_request with a
 * JSON Pointer to the field and a sentence saying what was expected. `base` is the pointer of
 * the object the field lives in ("" for the body itself). */
#ifndef PUZZLED_JSON_FIELDS_H
#define PUZZLED_JSON_FIELDS_H

#include <jansson.h>
#include <stdbool.h>

#include "error.h"

/* Every key of obj is one of `allowed` (a NULL-terminated list); else names the first stranger. */
bool fields_known(json_t *obj, const char *base, const char *const *allowed, api_error *err);

/* An integral JSON number: an integer, or a number written with a fraction or exponent whose
 * value is whole (4.0, 1e3). Beyond +-9e15 (every such double is whole) *out is LLONG_MAX or
 * LLONG_MIN, outside every range the contract allows. false for everything else. */
bool fields_integral(const json_t *value, long long *out);

/* A JSON number as messages quote it: 7 as "7", 4.0 as "4", 1e19 as "1e+19". */
#define FIELDS_NUMBER_TEXT 32
const char *fields_number_text(const json_t *value, char out[FIELDS_NUMBER_TEXT]);

/* An integer field in [min, max] (integral numbers such as 4.0 count). A missing optional field
 * leaves *out = dflt. */
bool fields_int(json_t *obj, const char *base, const char *key, bool required, long long min,
                long long max, long long dflt, long long *out, api_error *err);

/* An optional boolean field (missing: dflt). */
bool fields_bool(json_t *obj, const char *base, const char *key, bool dflt, bool *out,
                 api_error *err);

/* A required array field; NULL + err when missing or not an array. */
json_t *fields_array(json_t *obj, const char *base, const char *key, api_error *err);

/* The JSON type's name, for messages ("a string", "an array", ...). */
const char *fields_type_name(const json_t *value);

#endif
