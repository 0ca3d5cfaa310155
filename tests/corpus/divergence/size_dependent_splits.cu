// cudalint divergence corpus: splits whose size is known only at run time.
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [args: <param>=<value> ...]
// A bounds guard on a grid-wide index splits one warp of the whole grid; the same guard
// on a block-local index (a tile's ragged edge) splits a warp of every block, and real
// programs measured it idling lanes in every block. A doubling loop's `t >= stride`
// splits only in the trips the run-time bound lets run: its cost is judged over those.
// Per-line figures: size_dependent_splits.cu.lines.json once measured.

// A tile narrower than the block: `threadIdx.x < width` idles the lanes past the edge
// in the warp holding it, in every block.
// launch: grid=128 block=256 args: width=80
// measured: gld_sectors_per_request=3.33 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=128 pred_on_ratio=28.76 gld_requests_per_warp=0.75 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void dv_tile_edge(float* out, const float* a, int width) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = 0.0f;
    if (threadIdx.x < width) {  // expect: CL301 note
        v = a[i];
        v = sqrtf(v * v + 1.0f) * 0.5f;
        v = v * v + a[(i + 32) % 32768];
        v = sqrtf(v + 2.0f) * 3.0f;
    }
    out[i] = v;
}

// The same guard on the grid-wide index: only the warp holding n splits, once per grid.
// launch: grid=128 block=256 args: n=32700
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=1 pred_on_ratio=30.77 gld_requests_per_warp=2.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void dv_grid_edge(float* out, const float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = 0.0f;
    if (i < n) {
        v = a[i];
        v = sqrtf(v * v + 1.0f) * 0.5f;
        v = v * v + a[(i + 32) % 32768];
        v = sqrtf(v + 2.0f) * 3.0f;
    }
    out[i] = v;
}

// Two inclusive scans of 128 elements per block, each thread holding one element of
// each, the stride doubling up to a run-time length: `t >= stride` leaves the lanes
// below stride idle in each trip that runs (the body is long enough to be branched).
// launch: grid=128 block=128 args: n=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=0.95 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=30.23 gld_requests_per_warp=2.00 gst_requests_per_warp=2.00 shld_requests_per_warp=30.00 shst_requests_per_warp=16.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void dv_doubling_scan(float* out, const float* a, int n) {
    __shared__ float s[256];
    int t = threadIdx.x;
    int g = 2 * blockIdx.x * blockDim.x + t;
    s[t] = a[g];
    s[t + 128] = a[g + 128];
    __syncthreads();
    for (int stride = 1; stride < n; stride *= 2) {
        float low = s[t], high = s[t + 128];
        if (t >= stride) {  // expect: CL301 warning @9 "24 of 32 lanes take it"
            low = s[t - stride] + s[t];
            high = s[t + 128 - stride] + s[t + 128];
        }
        __syncthreads();
        s[t] = low;
        s[t + 128] = high;
        __syncthreads();
    }
    out[g] = s[t];
    out[g + 128] = s[t + 128];
}
