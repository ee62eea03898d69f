/* The files compiled into the binary (see embed.cmake and the list in CMakeLists.txt): the
 * browser page, its scripts and styles, the favicon and the OpenAPI document, each at its path. */
#ifndef PUZZLED_STATIC_ASSETS_H
#define PUZZLED_STATIC_ASSETS_H

#include <stddef.h>

typedef struct static_asset {
    const char *path; /* the URL path it answers, e.g. "/app.js" */
    const char *content_type;
    const unsigned char *data;
    const size_t *len;
} static_asset;

/* The asset served at path, or NULL. */
const static_asset *static_asset_find(const char *path);

#endif
