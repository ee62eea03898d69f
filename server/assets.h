/* Files embedded into the binary at build time (see embed.cmake): the OpenAPI document and the
 * browser page. */
#ifndef PUZZLED_ASSETS_H
#define PUZZLED_ASSETS_H

#include <stddef.h>

extern const unsigned char asset_openapi_yaml[];
extern const size_t asset_openapi_yaml_len;
extern const unsigned char asset_index_html[];
extern const size_t asset_index_html_len;

#endif
