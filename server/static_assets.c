#include "static_assets.h"

#include <string.h>

#include "assets.h"

#define ASSET(p, type, name)                                                                       \
    {                                                                                              \
        p, type, asset_##name, &asset_##name##_len                                                 \
    }

static const static_asset assets[] = {
    ASSET("/", "text/html; charset=utf-8", index_html),
    ASSET("/app.css", "text/css; charset=utf-8", app_css),
    ASSET("/app.js", "text/javascript; charset=utf-8", app_js),
    ASSET("/puzzles.js", "text/javascript; charset=utf-8", puzzles_js),
    /* The contract, rendered readably for a person; the raw document stays at /openapi.yaml. */
    ASSET("/openapi.html", "text/html; charset=utf-8", contract_html),
    ASSET("/contract.js", "text/javascript; charset=utf-8", contract_js),
    ASSET("/openapi.yaml", "application/yaml", openapi_yaml),
    /* Browsers ask for /favicon.ico when a page names no icon: answer both with the SVG. */
    ASSET("/favicon.svg", "image/svg+xml", favicon_svg),
    ASSET("/favicon.ico", "image/svg+xml", favicon_svg),
};

const static_asset *static_asset_find(const char *path)
{
    for (size_t i = 0; i < sizeof assets / sizeof assets[0]; i++)
        if (strcmp(path, assets[i].path) == 0) return &assets[i];
    return NULL;
}
