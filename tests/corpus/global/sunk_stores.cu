// cudalint global corpus: stores nvcc sinks out of a branch. When every arm of an if/else
// (or of an else-if chain) stores to the same address, the optimizer merges the stores into
// one store of the selected value after the branch: one instruction that every lane reaching
// the branch runs, whatever arm it took. Its request is the whole warp's, not one arm's lanes.
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [args: <param>=<value> ...]
//   // measured: <key>=<value> ... (ncu <version>, <GPU>)

// A column derivative with one-sided ends, blocks 2 threads wide and 64 tall: a warp spans
// 16 rows of 2 floats, 16 sectors for 4 sectors of data. The end rows' arms alone would run
// 2 lanes (one sector), but the three stores are one instruction run by all 32 lanes.
// launch: grid=32,64 block=2,64 shmem=512 args: rows=64
// measured: gld_sectors_per_request=16.00 gst_sectors_per_request=16.00 shld_wavefronts_per_request=1.66 shst_wavefronts_per_request=1.00 bank_conflicts_ld=25051 bank_conflicts_st=0 branch_divergent_targets=2048 pred_on_ratio=28.67 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=3.50 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void ss_column_ends(const float* __restrict__ in, float* __restrict__ out, unsigned rows) {
    extern __shared__ float column[];
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = threadIdx.y;
    int at = blockIdx.y * rows * 64 + y * 64 + x;
    column[y * 2 + threadIdx.x] = in[at];  // expect: CL101 warning
    __syncthreads();
    if (y == 0) {  // expect: CL301 warning
        out[at] = column[(y + 1) * 2 + threadIdx.x] - column[y * 2 + threadIdx.x];  // expect: CL101 warning
    } else if (y == rows - 1) {  // expect: CL301 warning
        out[at] = column[y * 2 + threadIdx.x] - column[(y - 1) * 2 + threadIdx.x];  // expect: CL101 warning
    } else {
        out[at] = 0.5f * (column[(y + 1) * 2 + threadIdx.x] - column[(y - 1) * 2 + threadIdx.x]);  // expect: CL101 warning
    }
}

// The same chain under blocks 32 threads wide: the merged store is one row of 32 floats,
// coalesced, although each arm alone runs only some of the lanes.
// launch: grid=2,64 block=32,16 shmem=2048 args: rows=16
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=0.68 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=29.68 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=2.94 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void ss_column_ends_wide(const float* __restrict__ in, float* __restrict__ out, unsigned rows) {
    extern __shared__ float column[];
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = threadIdx.y;
    int at = blockIdx.y * rows * 64 + y * 64 + x;
    column[y * 32 + threadIdx.x] = in[at];
    __syncthreads();
    if (y == 0) {
        out[at] = column[(y + 1) * 32 + threadIdx.x] - column[y * 32 + threadIdx.x];
    } else if (y == rows - 1) {  // expect-miss: CL301 nvcc predicates the body instead of branching, so the warps the condition turns off (whole warps: rows are 32 lanes wide) issue it with every lane off; CL301 costs no warp-uniform condition
        out[at] = column[y * 32 + threadIdx.x] - column[(y - 1) * 32 + threadIdx.x];
    } else {
        out[at] = 0.5f * (column[(y + 1) * 32 + threadIdx.x] - column[(y - 1) * 32 + threadIdx.x]);
    }
}

// Only the end rows store: no other arm stores to that address, so the store stays under
// its condition and runs on the end row's 2 lanes, one sector for one sector of data.
// launch: grid=32,64 block=2,64 shmem=512 args: rows=64
// measured: gld_sectors_per_request=16.00 gst_sectors_per_request=1.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=1 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=29.04 gld_requests_per_warp=1.00 gst_requests_per_warp=0.25 shld_requests_per_warp=0.50 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void ss_end_rows_only(const float* __restrict__ in, float* __restrict__ out, unsigned rows) {
    extern __shared__ float column[];
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = threadIdx.y;
    int at = blockIdx.y * rows * 64 + y * 64 + x;
    column[y * 2 + threadIdx.x] = in[at];  // expect: CL101 warning
    __syncthreads();
    if (y == 0) {  // expect: CL301 warning
        out[at] = column[(y + 1) * 2 + threadIdx.x] - column[y * 2 + threadIdx.x];
    }
}

// The launches cudalint reads (the measuring harness makes its own from the lines above).
void ss_run(const float* in, float* out) {
    ss_column_ends<<<dim3(32, 64), dim3(2, 64), 512>>>(in, out, 64);
    ss_column_ends_wide<<<dim3(2, 64), dim3(32, 16), 2048>>>(in, out, 16);
    ss_end_rows_only<<<dim3(32, 64), dim3(2, 64), 512>>>(in, out, 64);
}
