#include "cors.h"

#include <stddef.h>

#define CORS_HEADERS_DEFAULT "Content-Type, X-Request-Id"
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

/* Access-Control-Request-Headers reduced to header-name characters, commas and spaces, so that
 * echoing it cannot inject anything into our own headers. */
static void sanitize_header_list(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p && n + 1 < cap; p++)
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            *p == '-' || *p == '_' || *p == ',' || *p == ' ')
            out[n++] = (char)*p;
    out[n] = '\0';
}

void cors_add_preflight(struct MHD_Connection *conn, struct MHD_Response *resp, const char *methods)
{
    if (!MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Origin")) return;
    const char *asked =
        MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Access-Control-Request-Headers");
    char headers[256];
    sanitize_header_list(asked ? asked : "", headers, sizeof headers);
    /* Exactly the route's methods: a preflight for another method then fails in the browser,
     * as the real request would (405). */
    MHD_add_response_header(resp, "Access-Control-Allow-Methods", methods);
    MHD_add_response_header(resp, "Access-Control-Allow-Headers",
                            headers[0] ? headers : CORS_HEADERS_DEFAULT);
    MHD_add_response_header(resp, "Access-Control-Max-Age", CORS_MAX_AGE_S);
}
