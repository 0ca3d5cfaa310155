// cudalint access corpus: shared-memory patterns of everyday kernels (reductions, tiled
// transpose, dynamic shared memory, structs, 4-way conflicts).
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [shmem=<n>] [args: <param>=<value> ...]
//   // measured: <key>=<value> ... (ncu <version>, <GPU>)
// The "launch:" lines sit in the comment block right above the kernel they launch (a
// template has one per instantiation, each naming it with kernel=). The harness gives
// every pointer parameter its own zeroed device buffer (256 MiB, or bytes=), scalars
// their args: value (0 when absent), dynamic shared memory its shmem= bytes, launches
// once to warm up, once under Nsight Compute, and writes the "measured:" line under its
// "launch:" line. Metrics are kernel-wide, so each kernel has ONE access instruction of
// interest; the rest is a coalesced 4-byte load in[i] / store out[i] (4 sectors/request).
// A "-" means the kernel has no access of that class. Sizes are multiples of the block:
// no tail warps. The reductions store the block's sum from every thread (out[i] = s[0],
// a broadcast LDS) so that the global store stays coalesced.

// Sequential addressing: s[t] += s[t + stride], stride = blockDim.x / 2 ... 1. Active
// threads are always the lowest t: consecutive words, conflict-free (1 wavefront, 0
// conflicts). Measured per instruction: 0.24 / 0.28 wavefronts, since nvcc predicates the
// body: every warp issues all 8 x 2 LDS and 8 STS of the loop, most with no lane on.
// launch: grid=256 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=0.24 shst_wavefronts_per_request=0.28 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=21.03 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=17.00 shst_requests_per_warp=9.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void ms_reduce_sequential(float* out, const float* a) {
    __shared__ float s[256];
    unsigned int t = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + t;
    s[t] = a[i];
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride) {  // expect: CL301 warning @9 "16 of 32 lanes take it"
            s[t] += s[t + stride];
        }
        __syncthreads();
    }
    out[i] = s[0];
}

// Interleaved addressing with a thread guard: thread t < blockDim.x / (2 stride) adds
// s[2 stride t + stride] into s[2 stride t], stride = 1, 2, 4, ...: the lanes are 2 stride
// words apart, a conflict degree that grows with the stride (2, 4, 8, 16, then ...).
// As in the sequential one, the body is predicated: every warp issues every LDS/STS, so
// the measured wavefronts per instruction (0.75 / 0.76) are below 1 despite conflicts.
// launch: grid=256 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=0.75 shst_wavefronts_per_request=0.76 bank_conflicts_ld=17920 bank_conflicts_st=8960 branch_divergent_targets=0 pred_on_ratio=23.63 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=17.00 shst_requests_per_warp=9.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void ms_reduce_interleaved_guarded(float* out, const float* a) {
    __shared__ float s[256];
    unsigned int t = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + t;
    s[t] = a[i];
    __syncthreads();
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if (t < blockDim.x / (2 * stride)) {  // expect: CL301 warning @9 "16 of 32 lanes take it"
            s[2 * stride * t] += s[2 * stride * t + stride];  // expect: CL201 warning, CL201 warning
        }
        __syncthreads();
    }
    out[i] = s[0];
}

// Tiled transpose through shared memory, tile[32][32], block 32x32: the tile is written
// by rows (1 wavefront) and read by columns tile[tx][ty] (all lanes in one bank, 32
// wavefronts); both global accesses are coalesced.
// launch: grid=32,32 block=32,32 args: n=1024
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=32.01 shst_wavefronts_per_request=1.00 bank_conflicts_ld=1016034 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void ms_transpose_tile32(float* out, const float* in, int n) {
    __shared__ float tile[32][32];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    int tx = blockIdx.y * 32 + threadIdx.x;
    int ty = blockIdx.x * 32 + threadIdx.y;
    out[ty * n + tx] = tile[threadIdx.x][threadIdx.y];  // expect: CL201 warning @24 "32-way bank conflict"
}

// The same with a padded tile[32][33]: the column read is conflict-free (1 wavefront).
// launch: grid=32,32 block=32,32 args: n=1024
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.01 shst_wavefronts_per_request=1.00 bank_conflicts_ld=424 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void ms_transpose_tile33(float* out, const float* in, int n) {
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    int tx = blockIdx.y * 32 + threadIdx.x;
    int ty = blockIdx.x * 32 + threadIdx.y;
    out[ty * n + tx] = tile[threadIdx.x][threadIdx.y];
}

// Dynamic shared memory, extern __shared__ float s[] (shmem = 2 x 128 floats): s[t * 2]
// puts two lanes in each bank = 2 wavefronts, store and load.
// launch: grid=256 block=128 shmem=1024
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=2.00 shst_wavefronts_per_request=2.00 bank_conflicts_ld=1024 bank_conflicts_st=1024 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void ms_dynamic_stride2(float* out, const float* a) {
    extern __shared__ float s[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t * 2] = a[i];  // expect: CL201 warning @5 "2-way bank conflict"
    __syncthreads();
    out[i] = s[t * 2];  // expect: CL201 warning
}

struct MsPair {
    float x, y;
};

// A struct of two floats in shared memory, field .x: 4-byte accesses 8 bytes apart =
// 2 wavefronts, store and load.
// launch: grid=256 block=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=2.00 shst_wavefronts_per_request=2.00 bank_conflicts_ld=1024 bank_conflicts_st=1024 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void ms_struct2_x(float* out, const float* a) {
    __shared__ MsPair s[128];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t].x = a[i];  // expect: CL201 warning
    __syncthreads();
    out[i] = s[t].x;  // expect: CL201 warning
}

// s[t * 4] with 4-byte words under a 64-thread block: 8 banks used, 4 lanes each =
// 4 wavefronts, store and load.
// launch: grid=512 block=64
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=4.00 shst_wavefronts_per_request=4.00 bank_conflicts_ld=3072 bank_conflicts_st=3072 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void ms_stride4_block64(float* out, const float* a) {
    __shared__ float s[4 * 64];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t * 4] = a[i];  // expect: CL201 warning
    __syncthreads();
    out[i] = s[t * 4];  // expect: CL201 warning
}
