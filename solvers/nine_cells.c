#include "nine_cells.h"

#include <stdbool.h>
#include <string.h>

#include "nine_board.h"

void nine_cells_init(nine_cells *t, int n)
{
    memset(t, 0, sizeof *t);
    bool placed[NINE_CELLS_MAX_N * NINE_CELLS_MAX_N] = {false};
    int orbits = 0;
    for (int p = 0; p < n * n; p++) {
        if (placed[p]) continue;
        int i = p / n, j = p % n;
        bool centre = 2 * i == n - 1 && 2 * j == n - 1;
        for (int k = 0; k < (centre ? 1 : 4); k++, nine_cell_rotate(n, 1, &i, &j)) {
            int bit = centre ? 31 : 32 * k + orbits;
            uint64_t mask = (uint64_t)1 << (bit % 64);
            placed[i * n + j] = true;
            t->cell[bit] = (uint8_t)(i * n + j);
            t->bit[i * n + j] = (uint8_t)bit;
            t->full[bit / 64] |= mask;
            t->col[j][bit / 64] |= mask;
        }
        orbits += !centre;
    }
    if (n % 2) t->centre = (uint64_t)1 << 31;
}
