// cudalint access corpus: branch divergence (control flow).
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
// The branch body is a loop of reps iterations so that nvcc keeps a real branch
// instead of predicating it; branch_divergent_targets counts the divergent branch
// targets, pred_on_ratio the mean active-and-predicated-on threads per warp instruction.

// threadIdx.x % 2: odd and even lanes of every warp part ways.
// launch: grid=128 block=256 args: reps=16
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=1024 pred_on_ratio=20.34 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void cf_odd_lanes(float* out, const float* a, int reps) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    if (threadIdx.x % 2) {  // expect: CL301 warning @5 "16 of 32 lanes take it"
        for (int j = 0; j < reps; ++j) {
            v = v * v + 0.25f;
        }
    }
    out[i] = v;
}

// threadIdx.x < 16: only the first warp of each block diverges.
// launch: grid=128 block=256 args: reps=16
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=128 pred_on_ratio=28.64 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void cf_half_warp(float* out, const float* a, int reps) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    if (threadIdx.x < 16) {  // expect: CL301 warning @5 "16 of 32 lanes take it"
        for (int j = 0; j < reps; ++j) {
            v = v * v + 0.25f;
        }
    }
    out[i] = v;
}

// (threadIdx.x >> 5) & 1: odd warps take the branch, uniform within each warp.
// launch: grid=128 block=256 args: reps=16
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=29.95 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void cf_warp_uniform(float* out, const float* a, int reps) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    if ((threadIdx.x >> 5) & 1) {
        for (int j = 0; j < reps; ++j) {
            v = v * v + 0.25f;
        }
    }
    out[i] = v;
}

// threadIdx.y % 2 under a 16x16 block: a warp holds two rows, one odd = divergent.
// launch: grid=128 block=16,16 args: reps=16
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=1024 pred_on_ratio=20.90 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void cf_row_parity_16x16(float* out, const float* a, int reps) {
    int i = blockIdx.x * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
    float v = a[i];
    if (threadIdx.y % 2) {
        for (int j = 0; j < reps; ++j) {
            v = v * v + 0.25f;
        }
    }
    out[i] = v;
}

// The same code under a 32x8 block: a warp is one row = uniform.
// launch: grid=128 block=32,8 args: reps=16
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=30.14 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void cf_row_parity_32x8(float* out, const float* a, int reps) {
    int i = blockIdx.x * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
    float v = a[i];
    if (threadIdx.y % 2) {
        for (int j = 0; j < reps; ++j) {
            v = v * v + 0.25f;
        }
    }
    out[i] = v;
}
