#define _GNU_SOURCE /* memmem */
#include "mhd_errors.h"

#include <microhttpd.h>
#include <stdlib.h>
#include <string.h>

#include "accesslog.h"
#include "cors.h"
#include "error.h"

/* How the HTML gets replaced. libmicrohttpd makes every error body of its own in one place
 * (transmit_error_response_len in connection.c) with MHD_create_response_from_buffer, and it
 * calls that exported function through its PLT, so the definition below, in the executable,
 * takes its place (ELF symbol interposition; CMakeLists.txt exports the symbol explicitly).
 * The server itself never calls that function, so every call that arrives here is the
 * library's error path, and the HTML it passes tells which error it is: its messages are
 * constants of the library version (0.9.75). A message not recognised (another version) still
 * becomes JSON, with a generic text. tests/e2e/test_hostile.c sends each of these requests,
 * so a libmicrohttpd that stopped calling through here would fail there, not silently. */

typedef struct {
    const char *html_marker; /* a substring of libmicrohttpd's HTML for this error */
    api_error_code code;     /* the status stays libmicrohttpd's; see openapi.yaml */
    const char *message;
    bool tells_max_body; /* the message ends with the configured body limit */
    char *json;
    size_t json_len;
} library_error;

/* Most specific markers first: three of the HTML titles say "Request malformed". */
static library_error library_errors[] = {
    {"chunked encoding", API_INVALID_REQUEST,
     "The chunked request body is malformed: each chunk is a hexadecimal size line, CRLF, the "
     "bytes and CRLF, ending with a chunk of size 0 (RFC 9112, section 7.1).",
     false, NULL, 0},
    {"chunk size", API_BODY_TOO_LARGE,
     "A chunk size of the request body is larger than this server can represent; send smaller "
     "chunks or a Content-Length. Bodies may hold at most",
     true, NULL, 0},
    {"too large value for <b>Content-Length", API_BODY_TOO_LARGE,
     "The Content-Length header is larger than this server can represent. Bodies may hold at "
     "most",
     true, NULL, 0},
    {"wrong value for <b>Content-Length", API_INVALID_REQUEST,
     "The Content-Length header is not a decimal number.", false, NULL, 0},
    {"Host:", API_INVALID_REQUEST,
     "An HTTP/1.1 request needs exactly one Host header (RFC 9112, section 3.2).", false, NULL, 0},
    {"Request too big", API_HEADERS_TOO_LARGE,
     "The request line and headers together are larger than this server's 32 KiB per "
     "connection (414 when the request line alone is); send shorter headers or a shorter "
     "path.",
     false, NULL, 0},
    {"Request malformed", API_INVALID_REQUEST,
     "The request line or a header line is not valid HTTP/1.1: expected \"METHOD /path "
     "HTTP/1.1\" and then \"Name: value\" lines (RFC 9112).",
     false, NULL, 0},
    {"HTTP version", API_HTTP_VERSION_NOT_SUPPORTED,
     "This server speaks HTTP/1.1 and HTTP/1.0 only; send the request as HTTP/1.1.", false, NULL,
     0},
    {"Internal server error", API_INTERNAL,
     "The server could not answer on this connection; send the request again.", false, NULL, 0},
    {"", API_INVALID_REQUEST, /* matches anything: the fallback */
     "The server could not read this HTTP request (RFC 9112).", false, NULL, 0},
};
#define LIBRARY_ERROR_COUNT (sizeof library_errors / sizeof library_errors[0])

/* Whether the library's errors carry Access-Control-Allow-Origin: * (the server allows every
 * origin). The library does not say whose request it refuses, so with an allow-list they carry
 * only Vary: Origin. One server per process: the first call sets both. */
static bool any_origin, built;

bool mhd_errors_init(bool allow_any_origin, size_t max_body)
{
    if (built) return true; /* responses of the library may still point to the bodies */
    any_origin = allow_any_origin;
    for (size_t i = 0; i < LIBRARY_ERROR_COUNT; i++) {
        library_error *e = &library_errors[i];
        if (e->json) continue; /* built by an earlier call that ran out of memory */
        api_error err;
        if (e->tells_max_body)
            api_fail(&err, e->code, NULL, "%s %zu bytes (the server's --max-body).", e->message,
                     max_body);
        else
            api_fail(&err, e->code, NULL, "%s", e->message);
        e->json = api_error_json(&err, &e->json_len);
        if (!e->json) return false;
    }
    built = true;
    return true;
}

static const library_error *recognise(const char *html, size_t len)
{
    for (size_t i = 0; i < LIBRARY_ERROR_COUNT - 1; i++) {
        const char *marker = library_errors[i].html_marker;
        if (html && memmem(html, len, marker, strlen(marker))) return &library_errors[i];
    }
    return &library_errors[LIBRARY_ERROR_COUNT - 1];
}

/* Only libmicrohttpd calls this (see above): its own error answers, made JSON. */
struct MHD_Response *MHD_create_response_from_buffer(size_t size, void *buffer,
                                                     enum MHD_ResponseMemoryMode mode)
{
    (void)mode; /* the library's messages are static (MHD_RESPMEM_PERSISTENT) */
    const library_error *e = recognise(buffer, size);
    if (!e->json) return NULL; /* not initialised: the library closes the connection */
    struct MHD_Response *resp = response_from_static(e->json, e->json_len);
    if (!resp) return NULL;
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
    /* Every answer has a request id; the library does not say whose request this is, so the
     * id is a new one even when the request sent its own. */
    char id[REQUEST_ID_MAX + 1];
    accesslog_request_id(NULL, id);
    MHD_add_response_header(resp, "X-Request-Id", id);
    if (any_origin)
        cors_add_any_origin(resp);
    else
        MHD_add_response_header(resp, "Vary", "Origin"); /* as every answer with an allow-list */
    return resp;
}

struct MHD_Response *response_from_static(const void *data, size_t len)
{
    return MHD_create_response_from_buffer_with_free_callback_cls(len, (void *)data, NULL, NULL);
}

struct MHD_Response *response_from_owned(void *data, size_t len)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer_with_free_callback(len, data, free);
    if (!resp) free(data);
    return resp;
}
