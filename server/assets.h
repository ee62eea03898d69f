/* Files embedded into the binary at build time (see embed.cmake and the list in CMakeLists.txt);
 * static_assets.c maps them to their URL paths. */
#ifndef PUZZLED_ASSETS_H
#define PUZZLED_ASSETS_H

#include <stddef.h>

#define PUZZLED_ASSET(name)                                                                        \
    extern const unsigned char asset_##name[];                                                     \
    extern const size_t asset_##name##_len;

PUZZLED_ASSET(openapi_yaml)
PUZZLED_ASSET(index_html)
PUZZLED_ASSET(app_css)
PUZZLED_ASSET(app_js)
PUZZLED_ASSET(puzzles_js)
PUZZLED_ASSET(contract_html)
PUZZLED_ASSET(contract_js)
PUZZLED_ASSET(favicon_svg)

#undef PUZZLED_ASSET

#endif
