// cudalint global corpus: requests whose warps reach their addresses by different paths. A
// stencil tile loads its halo with the block's first threads: two warps take the rows above
// and below (contiguous), a third the columns left and right (each lane a row of its own).
// Nsight Compute sums a line's requests over every warp that runs it, and so does the
// verdict: the first warp alone would look coalesced.
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [shmem=<n>] [args: <param>=<value> ...]
//   // measured: <key>=<value> ... (ncu <version>, <GPU>)

#define TILE_X 32
#define TILE_Y 8

// Tiles of 32x8 floats, rows `width` floats apart. Threads 0-63 load the halo rows (one
// float left of the tile through one right of it: 5 sectors each), threads 64-83 the two
// halo columns of 10 rows (20 lanes, a sector each, where 3 sectors would hold them):
// 30 sectors over the three warps for 11 sectors of data.
// launch: grid=16,64 block=32,8 args: width=512 height=512
// measured: gld_sectors_per_request=5.34 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=0.69 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=27.44 gld_requests_per_warp=1.37 gst_requests_per_warp=1.00 shld_requests_per_warp=4.00 shst_requests_per_warp=2.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void hw_halo_columns(const float* __restrict__ in, float* __restrict__ out, int width, int height) {
    __shared__ float tile[TILE_Y + 2][TILE_X + 2];
    int t = threadIdx.x + threadIdx.y * TILE_X;
    int hx, hy;
    if (threadIdx.y < 2) {  // expect-miss: CL301 nvcc predicates the body instead of branching, so the warps the condition turns off (whole warps: rows are 32 lanes wide) issue it with every lane off; CL301 costs no warp-uniform condition
        hx = threadIdx.x;
        hy = threadIdx.y * (TILE_Y + 1) - 1;
    } else {
        hx = (t % 2) * (TILE_X + 1) - 1;
        hy = t / 2 - TILE_X - 1;
    }
    int x = blockIdx.x * TILE_X + hx;
    int y = blockIdx.y * TILE_Y + hy;
    bool halo = t < 2 * (TILE_X + TILE_Y + 2) && x >= 0 && x < width && y >= 0 && y < height;
    if (halo) tile[hy + 1][hx + 1] = in[y * width + x];  // expect: CL101 warning  // known false positive: CL301 warning measured clean only because the body shares the statement's line, which the per-line yardstick cannot judge: nvcc predicates the store, 63% of the line's lanes on
    int cx = blockIdx.x * TILE_X + threadIdx.x;
    int cy = blockIdx.y * TILE_Y + threadIdx.y;
    tile[threadIdx.y + 1][threadIdx.x + 1] = in[cy * width + cx];
    __syncthreads();
    out[cy * width + cx] = tile[threadIdx.y][threadIdx.x + 1] + tile[threadIdx.y + 2][threadIdx.x + 1] +
                           tile[threadIdx.y + 1][threadIdx.x] + tile[threadIdx.y + 1][threadIdx.x + 2];
}

// Only the halo rows, by the first two warps: each loads one row of 34 floats' span
// (5 sectors for 4 sectors of data), whichever path: nothing to report.
// launch: grid=16,64 block=32,8 args: width=512 height=512
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=0.62 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=28.47 gld_requests_per_warp=1.25 gst_requests_per_warp=1.00 shld_requests_per_warp=2.00 shst_requests_per_warp=2.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void hw_halo_rows(const float* __restrict__ in, float* __restrict__ out, int width, int height) {
    __shared__ float tile[TILE_Y + 2][TILE_X + 2];
    int hx, hy;
    if (threadIdx.y == 0) {
        hx = threadIdx.x;
        hy = -1;
    } else {
        hx = threadIdx.x;
        hy = TILE_Y;
    }
    int x = blockIdx.x * TILE_X + hx;
    int y = blockIdx.y * TILE_Y + hy;
    if (threadIdx.y < 2 && y >= 0 && y < height) tile[hy + 1][hx + 1] = in[y * width + x];
    int cx = blockIdx.x * TILE_X + threadIdx.x;
    int cy = blockIdx.y * TILE_Y + threadIdx.y;
    tile[threadIdx.y + 1][threadIdx.x + 1] = in[cy * width + cx];
    __syncthreads();
    out[cy * width + cx] = tile[threadIdx.y][threadIdx.x + 1] + tile[threadIdx.y + 2][threadIdx.x + 1];
}

// The launches cudalint reads (the measuring harness makes its own from the lines above),
// with the measured launch's sizes.
void hw_run(const float* in, float* out) {
    const int width = 512, height = 512;
    dim3 block(TILE_X, TILE_Y);
    dim3 grid(width / TILE_X, height / TILE_Y);
    hw_halo_columns<<<grid, block>>>(in, out, width, height);
    hw_halo_rows<<<grid, block>>>(in, out, width, height);
}
