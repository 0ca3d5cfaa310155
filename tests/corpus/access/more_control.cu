// cudalint access corpus: branch divergence of everyday control flow (thread-dependent
// trip counts, switches, data-dependent branches, bounds guards, selects, uniform loops).
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [shmem=<n>] [args: <param>=<value> ...]
//   // measured: <key>=<value> ... (ncu <version>, <GPU>)
// The "launch:" lines sit in the comment block right above the kernel they launch (a
// template has one per instantiation, each naming it with kernel=). The harness gives
// every pointer parameter its own zeroed device buffer (256 MiB, or bytes=), scalars
// their args: value (0 when absent), launches once to warm up, once under Nsight
// Compute, and writes the "measured:" line under its "launch:" line. Metrics are
// kernel-wide, so each kernel has ONE access instruction of interest; the rest is a
// coalesced 4-byte load in[i] / store out[i] (4 sectors/request). A "-" means the
// kernel has no access of that class. Sizes are multiples of the block: no tail warps
// (the n of the bounds guards may cut a warp; the launch itself is whole warps).
// Branch bodies are loops of reps iterations so that nvcc keeps a real branch instead
// of predicating it; branch_divergent_targets counts the divergent branch targets,
// pred_on_ratio the mean active-and-predicated-on threads per warp instruction.

// for (j = 0; j < threadIdx.x % 8; ++j): lanes leave the loop at 0 ... 7 iterations.
// Measured: 2 divergent branch targets per warp.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=2048 pred_on_ratio=22.61 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void mc_thread_trip_count(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    for (unsigned int j = 0; j < threadIdx.x % 8; ++j) {  // expect: CL301 warning @5 "about 22% of the lane slots"
        v = v * v + 0.25f;
    }
    out[i] = v;
}

// switch (threadIdx.x & 3): four groups of lanes in every warp, each its own loop.
// Measured: 3 divergent branch targets per warp.
// launch: grid=128 block=256 args: reps=16
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=3072 pred_on_ratio=10.35 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void mc_switch_lane(float* out, const float* a, int reps) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    switch (threadIdx.x & 3) {  // expect: CL301 warning @5 "24 of 32 lanes take it"
    case 0:
        for (int j = 0; j < reps; ++j) v = v * v + 0.25f;
        break;
    case 1:
        for (int j = 0; j < reps; ++j) v = v * 0.5f + 1.0f;
        break;
    case 2:
        for (int j = 0; j < reps; ++j) v = v * v - 0.125f;  // expect-miss: CL301 the trips are uniform (reps); ncu's divergent branches here, one a warp (1024 of 8192), are line 39's switch dispatch, which nvcc put on this line
        break;
    default:
        break;
    }
    out[i] = v;
}

// if (a[i] > 0.5f): a data-dependent branch. The harness zero-fills a, so no lane takes
// it: the hardware sees a uniform (never-taken) branch here, whatever real data would do.
// launch: grid=128 block=256 args: reps=16
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void mc_data_branch(float* out, const float* a, int reps) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    if (v > 0.5f) {  // known false positive: CL301 note the harness zeroes a: no lane takes it, a uniform branch; the data decides, hence a note
        for (int j = 0; j < reps; ++j) {
            v = v * v + 0.25f;
        }
    }
    out[i] = v;
}

// if (i >= n) return; with n = grid x block (32768): no thread leaves, no divergence.
// launch: grid=128 block=256 args: n=32768
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=30.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void mc_guard_exact(float* out, const float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = a[i];
}

// The same guard with n = 32768 - 48: the last warp has 16 threads in range, the one
// before it none (a tail, as with any n that is not a multiple of the block).
// Measured: no divergent branch target: the guard compiles to a predicated EXIT.
// launch: grid=128 block=256 args: n=32720
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=29.99 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void mc_guard_tail(float* out, const float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = a[i];
}

// out[i] = (threadIdx.x & 1) ? p : q: a thread-varying ternary of two computed values,
// which nvcc turns into a select (FSEL): no branch, no divergence.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=31.06 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void mc_select(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float p = a[i];
    float q = p * 2.0f + 1.0f;
    out[i] = (threadIdx.x & 1) ? p : q;
}

// for (j = 0; j < blockIdx.x % 4; ++j): the trip count varies between blocks only,
// uniform within every warp: no divergence.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=28.24 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void mc_block_uniform_loop(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    for (unsigned int j = 0; j < blockIdx.x % 4; ++j) {
        v = v * v + 0.25f;
    }
    out[i] = v;
}
