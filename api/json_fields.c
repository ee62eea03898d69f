#include "json_fields.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "utf8.h"

const char *fields_type_name(const json_t *value)
{
    switch (json_typeof(value)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_REAL:
        return "a number with a fraction";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    default:
        return "null";
    }
}

bool fields_integral(const json_t *value, long long *out)
{
    if (json_is_integer(value)) {
        *out = json_integer_value(value);
        return true;
    }
    if (!json_is_real(value)) return false;
    /* 4.0 and 1e3 are integers too (JSON has one number type). Past the bounds the cast would
     * be undefined: every caller's range is far inside them, so a saturated value is refused
     * by the caller's range check, with the number quoted by fields_number_text. */
    double d = json_real_value(value);
    if (d > 9.0e15 || d < -9.0e15) {
        *out = d > 0 ? LLONG_MAX : LLONG_MIN;
        return true;
    }
    if (d != floor(d)) return false;
    *out = (long long)d;
    return true;
}

const char *fields_number_text(const json_t *value, char out[FIELDS_NUMBER_TEXT])
{
    if (json_is_integer(value))
        snprintf(out, FIELDS_NUMBER_TEXT, "%lld", (long long)json_integer_value(value));
    else
        snprintf(out, FIELDS_NUMBER_TEXT, "%.15g", json_number_value(value));
    return out;
}

bool fields_known(json_t *obj, const char *base, const char *const *allowed, api_error *err)
{
    const char *key;
    json_t *value;
    json_object_foreach(obj, key, value)
    {
        bool known = false;
        for (const char *const *a = allowed; *a && !known; a++) known = strcmp(*a, key) == 0;
        if (!known) {
            char path[API_PATH_MAX];
            api_path_join(path, sizeof path, base, key);
            char list[160] = "";
            for (const char *const *a = allowed; *a; a++) {
                if (a != allowed) strncat(list, ", ", sizeof list - strlen(list) - 1);
                strncat(list, *a, sizeof list - strlen(list) - 1);
            }
            int shown = (int)utf8_prefix_len(key, strlen(key), 60);
            return api_fail(err, API_INVALID_REQUEST, path,
                            "Unknown field \"%.*s\"; the fields are: %s.", shown, key, list);
        }
    }
    return true;
}

bool fields_int(json_t *obj, const char *base, const char *key, bool required, long long min,
                long long max, long long dflt, long long *out, api_error *err)
{
    char path[API_PATH_MAX];
    api_path_join(path, sizeof path, base, key);
    json_t *value = json_object_get(obj, key);
    if (!value) {
        if (required)
            return api_fail(err, API_INVALID_REQUEST, path,
                            "The field \"%s\" is missing: give an integer from %lld to %lld.", key,
                            min, max);
        *out = dflt;
        return true;
    }
    long long v;
    if (!fields_integral(value, &v))
        return api_fail(err, API_INVALID_REQUEST, path,
                        "\"%s\" must be an integer from %lld to %lld, not %s.", key, min, max,
                        fields_type_name(value));
    char shown[FIELDS_NUMBER_TEXT];
    if (v < min || v > max)
        return api_fail(err, API_INVALID_REQUEST, path,
                        "\"%s\" is %s; it must be from %lld to %lld.", key,
                        fields_number_text(value, shown), min, max);
    *out = v;
    return true;
}

bool fields_bool(json_t *obj, const char *base, const char *key, bool dflt, bool *out,
                 api_error *err)
{
    json_t *value = json_object_get(obj, key);
    if (!value) {
        *out = dflt;
        return true;
    }
    if (!json_is_boolean(value)) {
        char path[API_PATH_MAX];
        api_path_join(path, sizeof path, base, key);
        return api_fail(err, API_INVALID_REQUEST, path, "\"%s\" must be true or false, not %s.",
                        key, fields_type_name(value));
    }
    *out = json_is_true(value);
    return true;
}

json_t *fields_array(json_t *obj, const char *base, const char *key, api_error *err)
{
    char path[API_PATH_MAX];
    api_path_join(path, sizeof path, base, key);
    json_t *value = json_object_get(obj, key);
    if (!value) {
        api_fail(err, API_INVALID_REQUEST, path, "The field \"%s\" is missing: it is required.",
                 key);
        return NULL;
    }
    if (!json_is_array(value)) {
        api_fail(err, API_INVALID_REQUEST, path, "\"%s\" must be an array, not %s.", key,
                 fields_type_name(value));
        return NULL;
    }
    return value;
}
