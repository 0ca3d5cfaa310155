// The kernels of pair_kernels.cuh take their element type, their tile width and their
// block shapes from this file: read alone, the header has no `real` type and no launch.
#include <cuda_runtime.h>

typedef float real;
#define TILE 16

#include "pair_kernels.cuh"

void run_pairs(real* out, const real* in, const real* a, const real* b, int n) {
    dim3 square(TILE, TILE);
    dim3 wide(2 * TILE, TILE / 2);
    rows_alternate<<<dim3(n / TILE, n / TILE), square>>>(out, in, n);
    rows_alternate_wide<<<dim3(n / (2 * TILE), n / (TILE / 2)), wide>>>(out, in, n);
    tile_columns<<<dim3(n / TILE, n / TILE), square>>>(out, in, n);
    row_times_column<<<dim3(n / TILE, n / TILE), square>>>(out, a, b, n);
}
