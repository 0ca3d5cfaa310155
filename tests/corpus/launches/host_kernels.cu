// cudalint launches corpus: kernels whose verdicts are decided by values their host code
// gives them in another file (host_launch.cu): strides, row lengths, block shapes and
// branch bounds computed from constants, macros, enumerators, a loop over constant
// values, a launch wrapper's parameters and cudaLaunchKernel's argument array. Read
// alone, each of these values is unknown; the launch index reads them where the launches
// are written. The "launch:" lines are those of host_launch.cu, as the harness replays them.
#include "host_kernels.cuh"

// hs = C / NH = 768 / 12 = 64 floats: each lane reads its own 256-byte row, one sector of
// 32 bytes for 4 used: 32 sectors a request where 4 would do. Expected: gld 32.00.
// launch: grid=32 block=128 args: hs=64
// measured: gld_sectors_per_request=32.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void lk_head_stride(float* out, const float* in, int hs) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * hs];  // expect: CL101 warning @14 "32 sectors per request where 4 would do"
}

// The same code launched with an enumerator equal to 1: contiguous lanes, coalesced.
// Expected: gld 4.00.
// launch: grid=32 block=128 args: stride=1
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void lk_unit_stride(float* out, const float* in, int stride) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * stride];
}

// d = 64 (a macro of the host file) under 32x8 blocks: the rows are written along
// threadIdx.x, conflict-free; the column read s[tx * 64 + ty] puts all 32 lanes of a
// warp in one bank at 32 different words: 32 wavefronts a request.
// Expected: shst 1.00, shld 32.00.
// launch: grid=16 block=32,8 args: d=64
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=32.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=3968 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=30.74 gld_requests_per_warp=4.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=4.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void lk_shared_rows(float* out, const float* in, int d) {
    __shared__ float s[32 * 65];
    int tx = threadIdx.x, ty = threadIdx.y;
    for (int r = ty; r < 32; r += 8) s[r * d + tx] = in[blockIdx.x * 2048 + r * 64 + tx];
    __syncthreads();
    out[blockIdx.x * 256 + ty * 32 + tx] = s[tx * d + ty];  // expect: CL201 warning @44 "32-way bank conflict"
}

// The same tile with rows of d + 1 = 65 words: the column read walks all 32 banks.
// Expected: shld 1.00.
// launch: grid=16 block=32,8 args: d=65
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=30.74 gld_requests_per_warp=4.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=4.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void lk_shared_rows_odd(float* out, const float* in, int d) {
    __shared__ float s[32 * 65];
    int tx = threadIdx.x, ty = threadIdx.y;
    for (int r = ty; r < 32; r += 8) s[r * d + tx] = in[blockIdx.x * 2048 + r * 64 + tx];
    __syncthreads();
    out[blockIdx.x * 256 + ty * 32 + tx] = s[tx * d + ty];
}

// Launched in a loop over scale = 1, 4, 16: coalesced at 1, 16 sectors for 4 at 4, 32 at
// 16. Each launch is judged; the finding names the first launch it holds for.
// Expected (scale 4): gld 16.00.
// launch: grid=32 block=128 args: scale=4
// measured: gld_sectors_per_request=16.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void lk_scaled(float* out, const float* in, int scale) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * scale];  // expect: CL101 warning @14 "16 sectors per request where 4 would do"
}

// Launched through a wrapper with 256 threads and half = 16: the first half of every
// warp runs the loop, the other half idles (a bound the launch gives). Expected: div > 0.
// launch: grid=16 block=256 args: half=16
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=128 pred_on_ratio=17.42 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void lk_half_warp(float* out, const float* in, int half) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    if (threadIdx.x % 32 < half) {  // expect: CL301 warning
        for (int k = 0; k < 16; ++k) v = sqrtf(v * v + 1.0f) * 0.5f;
    }
    out[i] = v;
}

// Launched with cudaLaunchKernel, pitch = 512 (an enumerator) in its argument array:
// each lane walks its own row, 2048 bytes from its neighbour's: 32 sectors a request.
// Expected: gld 32.00.
// launch: grid=32 block=128 args: pitch=512
// measured: gld_sectors_per_request=32.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=32.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void lk_row_sums(float* out, const float* in, int pitch) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int k = 0; k < 32; ++k) sum += in[row * pitch + k];  // expect: CL101 warning
    out[row] = sum;
}

// The stride comes from the command line: unknown to any reading of the source, so the
// finding stays a note on the values that would make it coalesced. Measured with the
// default the host code falls back to, 2: 8 sectors for 4. Expected: gld 8.00.
// launch: grid=32 block=128 args: stride=2
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void lk_argv_stride(float* out, const float* in, int stride) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * stride];  // expect: CL101 note
}

// Each block writes one column of a column-major table: lane t of block b writes row t,
// out[t * gridDim.x + b]. The host launches it with one block (the last stage of a
// two-stage reduction): gridDim.x = 1, so the lanes write consecutive words and a warp's
// store is 4 sectors. With many blocks each lane would write its own sector.
// Expected: gst 4.00.
// launch: grid=1 block=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void lk_block_columns(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[threadIdx.x * gridDim.x + blockIdx.x] = in[i];
}

// Pass p reads every 2^p-th word of the shared row; the host asks for one pass, so only
// p = 0 runs: consecutive words, one wavefront a request. The passes a longer launch
// would run (strides 2, 4, ...) never execute here. Expected: shld 1.00.
// launch: grid=32 block=32 args: passes=1
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=31.85 gld_requests_per_warp=128.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=128.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void lk_decimate(float* out, const float* in, int passes) {
    __shared__ float s[32 * 128];
    for (int j = threadIdx.x; j < 32 * 128; j += 32) s[j] = in[blockIdx.x * 32 + j % 32];
    __syncthreads();
    float acc = 0.0f;
    for (int p = 0; p < passes; ++p) acc += s[threadIdx.x << p];
    out[blockIdx.x * 32 + threadIdx.x] = acc;
}
