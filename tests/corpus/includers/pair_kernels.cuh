// Kernels judged with what their includer (pair_launch.cu) provides: the `real` type, the
// TILE width, and the block shape of the launches there.
#pragma once

// Under the includer's 16x16 launch a warp holds two rows, so odd and even rows split it.
// launch: grid=64,64 block=16,16 args: n=1024
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=32768 pred_on_ratio=17.62 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void rows_alternate(real* out, const real* in, int n) {
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    real v = in[y * n + x];
    if (threadIdx.y % 2) {  // expect: CL301 warning
        for (int k = 0; k < 16; ++k) v = sqrtf(v * v + 1.0f) * 0.5f;
    }
    out[y * n + x] = v;
}

// The same test under a 32x8 launch: each warp holds one row and takes one side.
// launch: grid=32,128 block=32,8 args: n=1024
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=31.87 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void rows_alternate_wide(real* out, const real* in, int n) {
    int x = blockIdx.x * (2 * TILE) + threadIdx.x;
    int y = blockIdx.y * (TILE / 2) + threadIdx.y;
    real v = in[y * n + x];
    if (threadIdx.y % 2) {
        for (int k = 0; k < 16; ++k) v = sqrtf(v * v + 1.0f) * 0.5f;
    }
    out[y * n + x] = v;
}

// Reading a TILE x TILE tile by columns: with two rows per warp, each bank is hit by
// eight lanes at different words (8 wavefronts), where a 32-wide block would make it 16.
// launch: grid=64,64 block=16,16 args: n=1024
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=8.14 shst_wavefronts_per_request=1.00 bank_conflicts_ld=233931 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void tile_columns(real* out, const real* in, int n) {
    __shared__ real tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];  // expect: CL201 warning
}

// A row of `a` per warp row is a two-address broadcast (two sectors for two addresses),
// and a row of `b` is shared by both warp rows: neither is uncoalesced.
// launch: grid=64,64 block=16,16 args: n=1024
// measured: gld_sectors_per_request=2.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=31.97 gld_requests_per_warp=2048.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void row_times_column(real* out, const real* a, const real* b, int n) {
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    real sum = 0.0f;
    for (int k = 0; k < n; ++k) sum += a[y * n + k] * b[k * n + x];
    out[y * n + x] = sum;
}
