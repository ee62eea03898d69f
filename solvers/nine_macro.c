/* The macros' effects are found by tracing cells, not by simulating whole boards: a cell can only
 * change matrix while it sits in a swapped column, so the candidates are the cells of each swapped
 * column at the moment of the swap, traced back to the start; each candidate is then traced
 * forward to see whether it ends in the other matrix.
 *
 * Why these families: Ck X Ck X' Ck conjugates the involution X Ck X' by Ck; the two overlap in
 * one cell, so exactly one value crosses each way (a diagonal orbit, or the centre). The
 * commutator (Ca . X Cb X')^2 of two involutions that share one cell is a 3-cycle: one value
 * crosses each way, reaching every off-diagonal orbit. */
#include "nine_macro.h"

#include <stdlib.h>
#include <string.h>

typedef struct cell {
    int side, i, j;
} cell;

static void cell_move(int n, cell *c, int move)
{
    if (move >= NINE_MOVE_C0) {
        if (c->j == move - NINE_MOVE_C0) c->side ^= 1;
        return;
    }
    if ((move < NINE_MOVE_BL) == (c->side == 0))
        nine_cell_rotate(n, (move & 1) ? 3 : 1, &c->i, &c->j);
}

typedef struct builder {
    nine_library *lib;
    int cap_macros;
    size_t cap_pool;
    uint64_t seen[2 * NINE_MAX_N]; /* marks origins: bit j of word side * n + i */
    uint16_t a_src[2 * NINE_MAX_N * NINE_MACRO_MAX_LEN], b_src[2 * NINE_MAX_N * NINE_MACRO_MAX_LEN];
} builder;

static bool add_macro(builder *bd, const uint8_t *moves, int len)
{
    nine_library *lib = bd->lib;
    int n = lib->n;
    memset(bd->seen, 0, sizeof bd->seen);
    int na = 0, nb = 0;
    for (int t = 0; t < len; t++) {
        if (moves[t] < NINE_MOVE_C0) continue;
        for (int side = 0; side < 2; side++)
            for (int r = 0; r < n; r++) {
                cell c = {side, r, moves[t] - NINE_MOVE_C0};
                for (int u = t - 1; u >= 0; u--) cell_move(n, &c, nine_move_inverse(moves[u]));
                uint64_t bit = (uint64_t)1 << c.j;
                if (bd->seen[c.side * n + c.i] & bit) continue;
                bd->seen[c.side * n + c.i] |= bit;
                cell d = c;
                for (int u = 0; u < len; u++) cell_move(n, &d, moves[u]);
                if (d.side == c.side) continue;
                if (c.side == 0)
                    bd->a_src[na++] = (uint16_t)(c.i * n + c.j);
                else
                    bd->b_src[nb++] = (uint16_t)(c.i * n + c.j);
            }
    }
    if (na == 0) return true; /* nothing crosses: useless */
    if (lib->count == bd->cap_macros) {
        int cap = bd->cap_macros ? 2 * bd->cap_macros : 256;
        nine_macro *m = realloc(lib->macros, (size_t)cap * sizeof *m);
        if (!m) return false;
        lib->macros = m;
        bd->cap_macros = cap;
    }
    if (lib->pool_len + (size_t)(na + nb) > bd->cap_pool) {
        size_t cap = bd->cap_pool ? 2 * bd->cap_pool : 4096;
        while (cap < lib->pool_len + (size_t)(na + nb)) cap *= 2;
        uint16_t *p = realloc(lib->pool, cap * sizeof *p);
        if (!p) return false;
        lib->pool = p;
        bd->cap_pool = cap;
    }
    nine_macro *m = &lib->macros[lib->count++];
    m->len = (uint8_t)len;
    memcpy(m->moves, moves, (size_t)len);
    m->transfers = (uint16_t)na;
    m->first = (uint32_t)lib->pool_len;
    memcpy(lib->pool + lib->pool_len, bd->a_src, (size_t)na * sizeof(uint16_t));
    memcpy(lib->pool + lib->pool_len + na, bd->b_src, (size_t)nb * sizeof(uint16_t));
    lib->pool_len += (size_t)(na + nb);
    return true;
}

bool nine_library_build(nine_library *lib, int n)
{
    memset(lib, 0, sizeof *lib);
    lib->n = n;
    builder *bd = calloc(1, sizeof *bd);
    if (!bd) return false;
    bd->lib = lib;
    bool ok = true;
    for (int c = 0; c < n && ok; c++) {
        uint8_t m[1] = {(uint8_t)(NINE_MOVE_C0 + c)};
        ok = add_macro(bd, m, 1);
    }
    for (int x = 0; x < 4 && ok; x++)
        for (int c = 0; c < n && ok; c++) {
            uint8_t cc = (uint8_t)(NINE_MOVE_C0 + c);
            uint8_t m[5] = {cc, (uint8_t)x, cc, (uint8_t)(x ^ 1), cc};
            ok = add_macro(bd, m, 5);
        }
    for (int x = 0; x < 4 && ok; x++)
        for (int a = 0; a < n && ok; a++)
            for (int b = 0; b < n && ok; b++) {
                if (a == b) continue;
                uint8_t ca = (uint8_t)(NINE_MOVE_C0 + a), cb = (uint8_t)(NINE_MOVE_C0 + b);
                uint8_t m[7] = {ca, (uint8_t)x, cb, (uint8_t)(x ^ 1), ca, (uint8_t)x, cb};
                ok = add_macro(bd, m, 7);
            }
    free(bd);
    if (!ok) nine_library_free(lib);
    return ok;
}

void nine_library_free(nine_library *lib)
{
    free(lib->macros);
    free(lib->pool);
    memset(lib, 0, sizeof *lib);
}
