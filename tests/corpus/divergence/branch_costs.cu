// cudalint divergence corpus: what a split costs, branch shapes found in real programs.
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [args: <param>=<value> ...]
// CL301 warns where the lanes of a warp disagree whatever the run-time values and the
// idle lanes cost at least 0.5% of the kernel's lane slots; a split that depends on data
// is a note; selects, bounds guards, stride loops' last trips and a single lane's short
// store stay quiet. Per-line figures: branch_costs.cu.lines.json once measured.

// A conditional accumulation: the body assigns a register only, compiled to a select.
// launch: grid=128 block=256 args: n=32768 limit=0
// measured: gld_sectors_per_request=4.88 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=24.85 gld_requests_per_warp=16.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void dv_select_accumulate(float* out, const float* a, int n, float limit) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int j = 0; j < 16; ++j) {
        float v = a[(i + j * 97) % n];
        if (v > limit) sum += v;
    }
    out[i] = sum;
}

// A grid-stride loop over n elements: only the last round of the last warp splits.
// launch: grid=64 block=256 args: n=1000000
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=31.89 gld_requests_per_warp=61.04 gst_requests_per_warp=61.04 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void dv_grid_stride(float* out, const float* a, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        out[i] = a[i] * 2.0f + 1.0f;
    }
}

// A tree reduction whose kernel is mostly the reduction: `t < s` halves the active
// lanes each trip, and the predicated `s[t] += s[t + s]` idles the others.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=1.00 shld_wavefronts_per_request=0.19 shst_wavefronts_per_request=0.28 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=20.08 gld_requests_per_warp=1.00 gst_requests_per_warp=0.12 shld_requests_per_warp=16.12 shst_requests_per_warp=9.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void dv_tree_reduction(float* out, const float* a) {
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = a[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];  // known false positive: CL301 warning measured clean only because the predicated body shares the branch's line (27% of its thread instructions on), which the per-line verdict cannot tell from the condition
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

// One lane runs a loop: the other 31 lanes idle for every instruction of it.
// launch: grid=128 block=256 args: reps=64
// measured: gld_sectors_per_request=1.05 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=1024 pred_on_ratio=2.11 gld_requests_per_warp=65.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void dv_single_lane_loop(float* out, const float* a, int reps) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    if (threadIdx.x % 32 == 0) {  // expect: CL301 warning @5 "about 87% of the lane slots"
        float acc = v;
        for (int j = 0; j < reps; ++j) {
            acc = acc * 0.999f + a[(i + j) % 32768];
        }
        v = acc;
    }
    out[i] = v;
}

// A quarter of the lanes run a substantial body (`threadIdx.x % 4` split).
// launch: grid=128 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=1024 pred_on_ratio=16.30 gld_requests_per_warp=2.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void dv_quarter_lanes(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    if (threadIdx.x % 4 == 0) {  // expect: CL301 warning @5 "8 of 32 lanes take it"
        v = sqrtf(v * v + 1.0f);
        v = v * v * 0.5f + a[(i + 64) % 32768];  // expect-miss: CL101 4x sectors: a quarter of the lanes run it (line 69); CL101 leaves lanes a branch idles to CL301, reported at line 69
        v = sqrtf(v + 2.0f) * 3.0f;
    }
    out[i] = v;
}

// Halo loads of a 1-D stencil tile: the first RADIUS lanes of the block load the halo,
// predicated in every warp (real programs measured this at 1.6% of their lane slots).
#define RADIUS 3
// launch: grid=128 block=256
// measured: gld_sectors_per_request=4.20 gst_sectors_per_request=5.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=0.42 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=28.76 gld_requests_per_warp=1.25 gst_requests_per_warp=1.00 shld_requests_per_warp=7.00 shst_requests_per_warp=3.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void dv_halo_tile(float* out, const float* in) {
    __shared__ float tile[256 + 2 * RADIUS];
    int g = blockIdx.x * blockDim.x + threadIdx.x + RADIUS;
    int l = threadIdx.x + RADIUS;
    tile[l] = in[g];
    if (threadIdx.x < RADIUS) {  // expect: CL301 warning
        tile[l - RADIUS] = in[g - RADIUS];
        tile[l + 256] = in[g + 256];
    }
    __syncthreads();
    float sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) sum += tile[l + k];
    out[g] = sum;
}

// A data-dependent walk: whether lanes disagree depends on the list.
// launch: grid=128 block=256 bytes=1048576
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void dv_list_walk(int* out, const int* next) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int node = next[i];
    int steps = 0;
    while (node > 0) {  // known false positive: CL301 note the harness zeroes next: every walk ends at once, no lane loops; the data decides, hence a note
        node = next[node % 32768];  // expect: CL101 note
        ++steps;
    }
    out[i] = steps;
}

// Half the lanes leave early: the others run the rest of the kernel alone.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=17.73 gld_requests_per_warp=2.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void dv_early_return(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x & 1) return;  // known false positive: CL301 warning measured clean only because the odd lanes exit rather than branch (no divergent branch on this line); their idle slots show as 2x sectors on lines 117 and 119
    float v = a[i];  // expect-miss: CL101 2x sectors: the odd lanes returned at line 116; CL101 leaves lanes a branch idles to CL301, reported at line 116
    v = sqrtf(v * v + 1.0f) * 0.5f;
    out[i] = v * v + a[(i + 32) % 32768];  // expect-miss: CL101 2x sectors: the odd lanes returned at line 116; CL101 leaves lanes a branch idles to CL301, reported at line 116
}
