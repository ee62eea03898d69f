/* CORS: which origins may read our answers, which response headers their scripts may read, and
 * what a preflight may advertise. */
#ifndef PUZZLED_CORS_H
#define PUZZLED_CORS_H

#include <microhttpd.h>

#include "config.h"

/* Every response header the contract gives a meaning to, readable by scripts on an allowed
 * origin: Allow (405), Retry-After (503), X-Request-Id (every answer). */
#define CORS_EXPOSE_HEADERS "Allow, Retry-After, X-Request-Id"

/* Adds Access-Control-Allow-Origin (and Expose-Headers) to a response to a request that carries
 * an Origin the configuration allows. With an allow-list, every response also gets Vary: Origin
 * (with or without an Origin), since the headers depend on it. */
void cors_add(const server_config *cfg, struct MHD_Connection *conn, struct MHD_Response *resp);

/* Access-Control-Allow-Origin: * and Expose-Headers, for a response whose request is unknown
 * (libmicrohttpd's own errors, mhd_errors.c) on a server that allows every origin. */
void cors_add_any_origin(struct MHD_Response *resp);

/* Adds the preflight headers for a route that has methods (e.g. "POST, OPTIONS"):
 * Access-Control-Allow-Methods (exactly the route's), Allow-Headers and Max-Age. Only when the
 * request carries an Origin. */
void cors_add_preflight(struct MHD_Connection *conn, struct MHD_Response *resp,
                        const char *methods);

#endif
