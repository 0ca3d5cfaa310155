// cudalint access corpus: 2-D indexing, warp/lane decomposition and loops over global memory.
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [args: <param>=<value> ...]
//   // measured: <key>=<value> ... (ncu <version>, <GPU>)
// The "launch:" lines sit in the comment block right above the kernel they launch (a
// template has one per instantiation, each naming it with kernel=). The harness gives
// every pointer parameter its own zeroed device buffer (256 MiB, or bytes=), scalars
// their args: value (0 when absent), launches once to warm up, once under Nsight
// Compute, and writes the "measured:" line under its "launch:" line. Metrics are
// kernel-wide, so each kernel has ONE access instruction of interest; the rest is a
// coalesced 4-byte load in[i] / store out[i] (4 sectors/request). A "-" means the
// kernel has no access of that class. Sizes are multiples of the block: no tail warps.

// Transposed read b[col * n + row], col from threadIdx.x (block 32x8): each lane of a
// warp reads a different row of b, n floats apart = 32 sectors.
// launch: grid=32,128 block=32,8 args: n=1024
// measured: gld_sectors_per_request=32.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void g2_transposed(float* out, const float* b, int n) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    out[row * n + col] = b[col * n + row];  // expect: CL101 warning @26 "32 sectors per request where 4 would do"
}

// Row-major read b[row * n + col]: coalesced.
// launch: grid=32,128 block=32,8 args: n=1024
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void g2_row_major(float* out, const float* b, int n) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    out[row * n + col] = b[row * n + col];
}

// lane = tid & 31, warp = tid >> 5; a[warp * 32 + lane] is a[tid]: coalesced.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void g2_lane_warp(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int warp = i >> 5;
    out[i] = a[warp * 32 + lane];
}

// a[lane * warps + warp]: lanes are a whole grid of warps apart = 32 sectors.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=32.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void g2_lane_warp_transposed(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int warp = i >> 5;
    int warps = (gridDim.x * blockDim.x) >> 5;
    out[i] = a[lane * warps + warp];  // expect: CL101 warning @14 "32 sectors per request where 4 would do"
}

// Grid-stride loop over n = 8 * (grid * block) elements: coalesced in every iteration.
// launch: grid=128 block=256 args: n=262144
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=31.09 gld_requests_per_warp=8.00 gst_requests_per_warp=8.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void g2_grid_stride(float* out, const float* a, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        out[i] = a[i];
    }
}

// Per-thread chunk a[tid * k + j], k = 8: lanes 32 bytes apart, a sector per lane in
// every iteration = 32 sectors.
// launch: grid=128 block=256 args: k=8
// measured: gld_sectors_per_request=32.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=29.83 gld_requests_per_warp=8.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void g2_chunk(float* out, const float* a, int k) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int j = 0; j < k; ++j) {
        acc += a[tid * k + j];  // expect: CL101 warning
    }
    out[tid] = acc;
}
