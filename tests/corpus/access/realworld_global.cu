// cudalint access corpus: global accesses of everyday kernels (matrix-vector, transpose,
// stencils, histogram, particles, gathers).
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
// kernel has no access of that class. Sizes are multiples of the block: no tail warps.
// Where a kernel has more than one load (stencils, matrix-vector with x[j]), the
// recorded figure is the average over its load instructions, weighted by requests.
// All buffers are zero-filled: data-dependent addresses (histogram bins, gather
// indices) are all 0 here, which the comments say where it matters.

// Matrix-vector y = A x, one thread per row: thread `row` walks A[row * n + j]. Lanes
// are n floats (256 bytes) apart in every iteration = 32 sectors; x[j] is the same
// word for the whole warp = 1 sector. Two loads per iteration: (32 + 1) / 2.
// launch: grid=64 block=256 args: n=64
// measured: gld_sectors_per_request=16.50 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=31.41 gld_requests_per_warp=128.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void rw_mv_thread_per_row(float* y, const float* A, const float* x, int n) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int j = 0; j < n; ++j) {
        sum += A[row * n + j] * x[j];  // expect: CL101 warning @16 "32 sectors per request where 4 would do"
    }
    y[row] = sum;
}

// Matrix-vector, one warp per row: lane reads A[row * n + lane + 32 k] and x[lane + 32 k],
// both coalesced (4 sectors), then a butterfly shuffle sum; every lane stores the sum
// in its own slot out[row * 32 + lane] so the store stays coalesced.
// launch: grid=64 block=256 args: n=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=30.96 gld_requests_per_warp=16.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void rw_mv_warp_per_row(float* out, const float* A, const float* x, int n) {
    int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    float sum = 0.0f;
    for (int j = lane; j < n; j += 32) {
        sum += A[row * n + j] * x[j];
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        sum += __shfl_xor_sync(0xffffffffu, sum, offset);
    }
    out[row * 32 + lane] = sum;
}

// Matrix-vector with A stored column-major (or y = A^T x), one thread per column:
// A[j * n + col] is coalesced (4 sectors), x[j] warp-uniform (1 sector): (4 + 1) / 2.
// launch: grid=64 block=256 args: n=16384 m=64
// measured: gld_sectors_per_request=2.50 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=31.51 gld_requests_per_warp=128.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void rw_mv_thread_per_column(float* y, const float* A, const float* x, int n, int m) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int j = 0; j < m; ++j) {
        sum += A[j * n + col] * x[j];
    }
    y[col] = sum;
}

// Naive transpose, block 32x8: the read in[y * n + x] is coalesced (4 sectors); the
// store out[x * n + y] puts lanes n floats apart = 32 sectors (the access of interest).
// launch: grid=32,128 block=32,8 args: n=1024
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=32.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void rw_transpose_naive(float* out, const float* in, int n) {
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 8 + threadIdx.y;
    out[x * n + y] = in[y * n + x];  // expect: CL101 warning @5 "32 sectors per request where 4 would do"
}

// The other naive transpose: strided read in[x * n + y] (32 sectors), coalesced store.
// launch: grid=32,128 block=32,8 args: n=1024
// measured: gld_sectors_per_request=32.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void rw_transpose_read_strided(float* out, const float* in, int n) {
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 8 + threadIdx.y;
    out[y * n + x] = in[x * n + y];  // expect: CL101 warning
}

// 1-D three-point stencil a[i-1] + a[i] + a[i+1] with i = global index + 1 (the halo):
// a[i-1] is aligned (4 sectors), a[i] and a[i+1] straddle 5: (4 + 5 + 5) / 3 = 4.67.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=4.67 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=3.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void rw_stencil_1d(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
    out[i - 1] = a[i - 1] + a[i] + a[i + 1];
}

// 2-D five-point stencil, row-major with pitch w, block 32x8, interior point (x+1, y+1):
// centre, up and down are shifted by one float (5 sectors each), left is aligned (4),
// right is shifted by two (5): (5 + 5 + 5 + 4 + 5) / 5 = 4.8. The store is aligned.
// launch: grid=32,128 block=32,8 args: w=1024
// measured: gld_sectors_per_request=4.80 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=5.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void rw_stencil_2d(float* out, const float* c, int w) {
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 8 + threadIdx.y;
    int p = (y + 1) * w + (x + 1);
    out[y * w + x] = c[p] + c[p - w] + c[p + w] + c[p - 1] + c[p + 1];
}

// Histogram: bin = data[i] & 255 (a coalesced load), atomicAdd(&hist[bin], 1) with the
// result unused (a RED instruction, which the gld/gst keys do not count: the harness
// keeps l1tex ..._op_red sectors and requests in its CSV). Zeroed data: every lane
// hits bin 0. out[i] = data[i] is the coalesced store. The CSV of the run that wrote
// the line below: op_red 32768 sectors for 1024 requests = 32 sectors per request,
// one per lane although all 32 lanes add to the same word (ncu 2025.3.1.0, H200).
// launch: grid=128 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void rw_histogram_atomic(float* out, const int* data, unsigned int* hist) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = data[i];
    atomicAdd(&hist[v & 255], 1u);  // expect: CL101 note
    out[i] = static_cast<float>(v);
}

struct RwParticle {
    float x, y, z, vx, vy, vz;
};

// Particles as an array of structs (24 bytes each): p[i].x puts lanes 24 bytes apart,
// 768 bytes = 24 sectors.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=24.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void rw_particles_aos_x(float* out, const RwParticle* p) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = p[i].x;  // expect: CL102 warning @14 "24 sectors per request for 4 sectors of data"
}

// The same field as a structure of arrays: x[i] = 4 sectors (vx is not read).
// launch: grid=128 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void rw_particles_soa_x(float* out, const float* x, const float* vx) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = x[i];
}

// float2 array, one component: a[i].y is a 4-byte load with lanes 8 bytes apart = 8 sectors.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void rw_float2_y(float* out, const float2* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[i].y;  // expect: CL102 warning @14 "8 sectors per request for 4 sectors of data"
}

// double2 whole-element load: 16 bytes a lane, 512 bytes = 16 sectors (one 128-bit load).
// launch: grid=128 block=256
// measured: gld_sectors_per_request=16.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void rw_double2(float* out, const double2* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double2 v = a[i];
    out[i] = static_cast<float>(v.x + v.y);
}

// Gather a[idx[i]]: meant as idx[i] = i (a coalesced gather), but the harness zero-fills
// idx, so every lane reads a[0]: a broadcast, 1 sector. idx[i] itself is coalesced (4
// sectors): the recorded average is (4 + 1) / 2, as measured.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=2.50 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=2.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void rw_gather_identity(float* out, const float* a, const int* idx) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[idx[i]];  // known false positive: CL101 note the harness zeroes idx: every lane reads a[0], a broadcast (1x); the data decides, hence a note
}
