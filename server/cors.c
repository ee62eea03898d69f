#include "cors.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define CORS_HEADERS_DEFAULT "Content-Type, X-Request-Id"
/* The longest list of requested header names echoed back (bytes). */
#define CORS_ECHO_MAX 2048
#define CORS_MAX_AGE_S "86400"

void cors_add_any_origin(struct MHD_Response *resp)
{
    MHD_add_response_header(resp, "Access-Control-Allow-Origin", "*");
    MHD_add_response_header(resp, "Access-Control-Expose-Headers", CORS_EXPOSE_HEADERS);
}

void cors_add(const server_config *cfg, struct MHD_Connection *conn, struct MHD_Response *resp)
{
    const char *origin = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Origin");
    if (config_origin_wildcard(cfg)) {
        if (origin) cors_add_any_origin(resp);
        return;
    }
    /* The answer depends on the Origin, sent or not: caches must keep one copy per origin. */
    MHD_add_response_header(resp, "Vary", "Origin");
    if (!origin || !config_origin_allowed(cfg, origin)) return;
    MHD_add_response_header(resp, "Access-Control-Allow-Origin", origin);
    MHD_add_response_header(resp, "Access-Control-Expose-Headers", CORS_EXPOSE_HEADERS);
}

static bool is_tchar(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* The header names of Access-Control-Request-Headers, whole and in order, joined by ", ": the
 * list's elements are separated by commas with optional white space around them (RFC 9110,
 * section 5.6.1), and an element that is not a token once trimmed ("bad header") is left out
 * whole, so that echoing the list cannot inject anything into our own headers. out has room for
 * 2 * strlen(in) + 1 bytes. */
static void requested_header_names(const char *in, char *out)
{
    size_t n = 0;
    while (*in) {
        size_t len = strcspn(in, ",");
        size_t lead = strspn(in, " \t"), end = len;
        if (lead > end) lead = end;
        while (end > lead && (in[end - 1] == ' ' || in[end - 1] == '\t')) end--;
        bool token = end > lead;
        for (size_t i = lead; i < end && token; i++) token = is_tchar((unsigned char)in[i]);
        if (token) {
            if (n) out[n++] = ',', out[n++] = ' ';
            memcpy(out + n, in + lead, end - lead);
            n += end - lead;
        }
        in += len;
        if (*in == ',') in++;
    }
    out[n] = '\0';
}

void cors_add_preflight(struct MHD_Connection *conn, struct MHD_Response *resp, const char *methods)
{
    if (!MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Origin")) return;
    const char *asked =
        MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Access-Control-Request-Headers");
    /* Each name is followed by at least one separator in the request and by two in the answer:
     * twice the request's length is room enough. */
    char *headers = asked ? malloc(2 * strlen(asked) + 1) : NULL;
    if (headers) requested_header_names(asked, headers);
    /* The answer's headers share the connection's memory with the request's: a list of
     * thousands of names (14 KB) left no room, and the preflight went unanswered. Past this
     * length, only the headers the API reads are allowed. */
    if (headers && strlen(headers) > CORS_ECHO_MAX) headers[0] = '\0';
    /* Exactly the route's methods: a preflight for another method then fails in the browser,
     * as the real request would (405). */
    MHD_add_response_header(resp, "Access-Control-Allow-Methods", methods);
    MHD_add_response_header(resp, "Access-Control-Allow-Headers",
                            headers && headers[0] ? headers : CORS_HEADERS_DEFAULT);
    MHD_add_response_header(resp, "Access-Control-Max-Age", CORS_MAX_AGE_S);
    free(headers);
}
