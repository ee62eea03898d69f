#ifndef PUZZLED_MHD_ERRORS_H
#define PUZZLED_MHD_ERRORS_H

#include <stdbool.h>
#include <stddef.h>

/* libmicrohttpd 0.9.75 answers requests it cannot parse (a broken request line, header or
 * chunked body, headers over the connection's memory, an HTTP version other than 1.0/1.1)
 * by itself, before any callback of ours runs, with an HTML body it has no option to replace.
 * The contract promises JSON errors everywhere, so mhd_errors.c gives libmicrohttpd those
 * bodies as the contract's JSON instead; see the comment there for how.
 *
 * Builds the JSON bodies (with the server's body limit in the messages that need it) and says
 * whether they carry Access-Control-Allow-Origin: * (allow_any_origin: the server's CORS list is
 * "*"). Call before the daemon starts; false when out of memory.
 * The server's own responses must never be made with MHD_create_response_from_buffer (that
 * name is the library's error path now): use these two. */
bool mhd_errors_init(bool allow_any_origin, size_t max_body);

struct MHD_Response;

/* A response whose body lives as long as the process (never freed). */
struct MHD_Response *response_from_static(const void *data, size_t len);
/* A response owning a malloc'd body (freed with the response, or here when it cannot be made). */
struct MHD_Response *response_from_owned(void *data, size_t len);

#endif
